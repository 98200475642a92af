"""A page message of web/locales/*.json with its values filled, as web/i18n.js's t(key, values)
renders it: what a Python error that carries a key says on the page."""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

LOCALES = Path(__file__).resolve().parents[2] / "web" / "locales"
PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")


@functools.cache
def catalog(lang: str = "en") -> dict:
    return json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))


def plural(n: int, lang: str) -> str:
    """The plural form i18next picks for a whole number `n` (Intl.PluralRules)."""
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        return "few" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "many"
    return "one" if n == 1 else "other"


def render(key: str, values: dict, lang: str = "en") -> str:
    """t(key, values) in `lang`; a KeyError for a missing key or value. A value that is
    {"key": ..., "values": ...} is a message of its own, rendered first (web/i18n.js's say)."""
    messages = catalog(lang)
    text = messages[key] if key in messages else messages[f"{key}_{plural(values['count'], lang)}"]

    def fill(match):
        value = values[match.group(1)]
        if isinstance(value, dict):
            return render(value["key"], value.get("values", {}), lang)
        return str(value)

    return PLACEHOLDER.sub(fill, text)


NODE = shutil.which("node")
WEB = LOCALES.parent
needs_node = pytest.mark.skipif(
    NODE is None or not (WEB.parent / "node_modules" / "i18next").is_dir(),
    reason="needs Node.js and `npm ci` (i18next)",
)

_SAY = """
import { readFileSync } from "node:fs";
const [i18n, lang, messages] = process.argv.slice(2);
const { setLanguage, say } = await import(i18n);
setLanguage(lang);
console.log(JSON.stringify(JSON.parse(readFileSync(messages, "utf8")).map((m) => say(m))));
"""


def node_json(script: str, args: list[str], tmp_path: Path):
    """What the module `script`, run by Node with `args` from the repository's root, prints
    last, read as JSON."""
    path = tmp_path / "page.mjs"
    path.write_text(script, "utf-8")
    done = subprocess.run(
        [NODE, str(path), *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=WEB.parent,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def page_says(errors, lang: str, tmp_path: Path) -> list[str]:
    """Each error's page message ({"key", "values"} of its .key and .values) as web/i18n.js's
    say gives it on a `lang` page."""
    data = tmp_path / "messages.json"
    data.write_text(json.dumps([{"key": e.key, "values": e.values} for e in errors]), "utf-8")
    return node_json(_SAY, [(WEB / "i18n.js").as_uri(), lang, str(data)], tmp_path)
