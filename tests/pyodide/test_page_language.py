"""A Russian or Estonian lesson page's cell that prints a gradcheck report prints its table
in the page's language: the worker tells web/cellrun.py the language of its init message
(web/protocol.js), and cellrun tells the engine (engine.words.set_language). Day 7's cell
runs under Pyodide in Node (run_cells.mjs, which tells cellrun a page's `lang` the same way);
an English page, in the same Pyodide, keeps its English table."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

import course
from tests.pyodide.test_lesson_cells import ROOT, extract_cells, run_cells_in_node

DAY7 = course.DOCS / "lessons" / "day07_accumulation.md"


def _words(lang: str) -> dict:
    return json.loads((ROOT / "web" / "locales" / f"{lang}.json").read_text("utf-8"))


def _report_cell(cells: list[dict]) -> int:
    return next(i for i, c in enumerate(cells) if "print(gradcheck(" in c["code"])


def test_day7_prints_its_gradcheck_table_in_the_pages_language(tmp_path):
    pages = [
        {"page": lang, "lang": lang, "cells": extract_cells(DAY7.with_suffix(f".{lang}.md"))}
        for lang in ("ru", "et")
    ]
    english = extract_cells(DAY7)
    pages.append({"page": "en", "cells": english})  # after them: back to English
    results = run_cells_in_node(pages, tmp_path)
    for page in pages:
        cell = results[page["page"]][_report_cell(page["cells"])]
        assert cell["ok"], cell["error"]
        words = _words(page.get("lang", "en"))
        agree = words["engine.gradcheck.agree"]
        assert agree in cell["stdout"], (page["page"], cell["stdout"])
        assert words["engine.gradcheck.relError"] in cell["stdout"]
    assert "gradients agree" not in results["ru"][_report_cell(pages[0]["cells"])]["stdout"]


def test_the_pages_worker_is_started_with_the_pages_language():
    """web/protocol.js's startWorker (client.js's start of the worker) puts the page's
    language in the init message the worker boots from."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no `node` on PATH: install Node.js 20+ (apt-get install -y nodejs npm)")
    script = """
const sent = [];
globalThis.Worker = class { postMessage(message) { sent.push(message); } };
const { startWorker } = await import(PROTOCOL);
for (const lang of ["ru", "et", "en"]) startWorker("worker.js", "pyodide/", lang);
console.log(JSON.stringify(sent));
""".replace("PROTOCOL", json.dumps((ROOT / "web" / "protocol.js").as_uri()))
    out = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    sent = json.loads(out.stdout)
    assert [m["type"] for m in sent] == ["init"] * 3
    assert [m["lang"] for m in sent] == ["ru", "et", "en"]
