"""The course page's requests to the course server (web/server.js) under Node, with a fake
server: they ask for the page's language, and a refusal of the CSRF token in that language
is still known for what it is and sent again with a new token."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from grader.messages import catalog

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
STALE = "The page's security token is missing or old: reload the page and try again."

SCRIPT = """
globalThis.location = { href: "http://127.0.0.1:1/__LANG__/lessons/" };
globalThis.document = {
  documentElement: { lang: "__LANG__" },
  querySelector: () => ({ getAttribute: () => "http://127.0.0.1:2/" }),
  addEventListener() {},
  dispatchEvent() {},
};
const calls = [];
let refused = false;
globalThis.fetch = async (url, init) => {
  const path = new URL(url).pathname;
  calls.push({ call: `${init.method} ${path}`, language: init.headers["Accept-Language"] });
  const reply = (data, status = 200) => ({ ok: status < 300, status, json: async () => data });
  if (path === "/api/session") return reply({ user: { id: 7, login: "ada" }, csrf: "t" });
  if (!refused) {
    refused = true;
    return reply(__REFUSAL__, 403);
  }
  return reply({ submission: { id: "s" } }, 202);
};
const server = await import("./web/server.js");
await server.loadSession();
const answer = await server.api("POST", "api/submissions", { exercise: "e", code: "c" });
console.log(JSON.stringify({ calls, ok: answer.ok }));
"""


def _run(lang: str, refusal: dict) -> dict:
    script = SCRIPT.replace("__LANG__", lang).replace("__REFUSAL__", json.dumps(refusal))
    proc = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


@pytest.mark.parametrize("lang", ["en", "ru", "et"])
def test_every_request_asks_for_the_page_s_language(lang):
    result = _run(lang, {"error": STALE, "reason": "csrf"})
    assert [c["language"] for c in result["calls"]] == [lang] * len(result["calls"])


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_a_stale_token_refused_in_the_learner_s_language_is_sent_again(lang):
    words = catalog(lang).gettext(STALE)
    assert words != STALE
    result = _run(lang, {"error": words, "reason": "csrf"})
    assert [c["call"] for c in result["calls"]] == [
        "GET /api/session",
        "POST /api/submissions",
        "GET /api/session",
        "POST /api/submissions",
    ]
    assert result["ok"]
