"""What the "My engine" switch writes, as the page writes it (web/myenginetext.js, in Node with
the page's message files), in the page's language. The line under the switch, from
engine.mine's report rows: on an English page it is engine.mine's own English line; on a
Russian or Estonian page no English word of it is left, only code names (files, functions,
Value) and the glossary's terms (MLP, softmax; Estonian "põhjuslik mask"). The speed note
writes its number as the page's language does."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.i18n.page_messages import needs_node, node_json, page_says, render

from .mine_files import SOLUTIONS, STUBS

ROOT = Path(__file__).resolve().parents[2]
pytestmark = needs_node

SCRIPT = """
import { readFileSync } from "node:fs";
const [i18n, line, lang, reports] = process.argv.slice(2);
const { setLanguage } = await import(i18n);
setLanguage(lang);
const { partsLine, speedNote } = await import(line);
const rows = JSON.parse(readFileSync(reports, "utf8"));
const lines = rows.map((parts) => partsLine(parts));
const notes = rows.map((parts) => speedNote(2.54, parts));
console.log(JSON.stringify({ lines, notes }));
"""
# Names a Russian or Estonian line keeps as they are: Python's, the optimisers' and layers', and
# the engine's classes (Neuron is engine.nn's, as Value and MLP are).
KEPT = {
    "Value",
    "zero_grad",
    "log",
    "topological_order",
    "Neuron",
    "MLP",
    "GPT",
    "RMSNorm",
    "SGD",
    "Adam",
}
WORD = re.compile(r"[^\W\d]\w*")  # a word, in any alphabet, or a name of code


def glossary_words(lang):
    """The words of the parts' names as includes/glossary.<lang>.yml gives them (softmax, the
    causal mask's)."""
    from engine.mine import PARTS

    parts = " ".join(part.name.lower() for part in PARTS)
    terms = yaml.safe_load((ROOT / "includes" / f"glossary.{lang}.yml").read_text("utf-8"))
    names = [
        name
        for t in terms["terms"]
        if re.search(rf"\b{re.escape(t['term'].lower())}\b", parts)
        for name in [t["name"], *t.get("forms", [])]
    ]
    return {w for name in names for w in WORD.findall(name)}


@pytest.fixture(scope="module")
def reports():
    """Reports of every kind of row: every part the learner's (with what the course lends),
    every part unfinished, parts not passed, and each reason a file that is there is not used."""
    from engine import mine

    neuron = "day10_neuron.py"
    kinds = [
        SOLUTIONS,
        STUBS,
        {"day08_more_ops.py": SOLUTIONS["day08_more_ops.py"]},
        {neuron: "x = 1\n"},
        {neuron: "from engine.nn import Neuron as neuron\n"},
        {neuron: "neuron = print\n"},
        {neuron: "def neuron(*args):\n    raise ValueError('no weights')\n"},
    ]
    found = []
    try:
        found = [mine.install(sources) for sources in kinds]
        with pytest.MonkeyPatch.context() as patch:  # a small example that never ends
            patch.setattr(mine, "LOAD_LIMIT", 0.2)
            found.append(
                mine.install({neuron: "def neuron(*args):\n    while True:\n        pass\n"})
            )
    finally:
        mine.uninstall()
    return found


def page_text(reports, lang, tmp_path):
    """{"lines": the line of each report, "notes": its speed note at 2.54 times as slow}."""
    data = tmp_path / "rows.json"
    data.write_text(json.dumps([r["parts"] for r in reports]), encoding="utf-8")
    web = ROOT / "web"
    args = [(web / "i18n.js").as_uri(), (web / "myenginetext.js").as_uri(), lang, str(data)]
    return node_json(SCRIPT, args, tmp_path)


def page_lines(reports, lang, tmp_path):
    return page_text(reports, lang, tmp_path)["lines"]


def code_names(report):
    """The words of a report that are code or the learner's: file names, function names, the
    errors and messages of their files."""
    names = set(KEPT)
    for row in report["parts"]:
        texts = [row["file"], *(row["reason"] or {}).get("values", {}).values()]
        names |= {w for text in texts for w in WORD.findall(str(text))}
    return names


def test_an_english_page_shows_engine_mines_own_line(reports, tmp_path):
    assert page_lines(reports, "en", tmp_path) == [r["line"] for r in reports]


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_a_russian_or_estonian_page_shows_no_english_word(reports, lang, tmp_path):
    for report, line in zip(reports, page_lines(reports, lang, tmp_path), strict=True):
        kept = code_names(report) | glossary_words(lang)
        english = {w for w in WORD.findall(report["line"]) if len(w) > 1} - kept
        latin = {w for w in WORD.findall(line) if w.isascii()} if lang == "ru" else set()
        left = (set(WORD.findall(line)) & english) | (latin - kept)
        assert not left, (left, line)
        assert line.count(" · ") == report["line"].count(" · ")
        assert "myEngine." not in line  # no message key shown for a missing message


@pytest.mark.parametrize("lang", ["en", "ru", "et"])
def test_the_speed_note_writes_its_number_as_the_page_does(reports, lang, tmp_path):
    notes = page_text(reports, lang, tmp_path)["notes"]
    times = "2.5" if lang == "en" else "2,5"
    # Every part the learner's (their GPT too), then every part the course's.
    assert notes[0] == render("myEngine.slowerBuilt", {"times": times}, lang)
    assert notes[1] == render("myEngine.slower", {"times": times}, lang)


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_a_notebook_in_that_language_says_the_line_as_its_page_does(reports, lang, tmp_path):
    from engine import mine

    page = page_lines(reports, lang, tmp_path)
    assert [mine.parts_line(r["parts"], lang) for r in reports] == page
    assert [mine.parts_line(r["parts"]) for r in reports] == [r["line"] for r in reports]


def _refusals():
    """MyEngineErrors of files that cannot be the engine: a syntax error, a file that writes a
    file while it loads (a refused action: a message inside a message), one that fails."""
    from engine import mine

    found = []
    writes = "open('/nonexistent-folder/x', 'w')\n"  # refused before it is tried
    for source in ("class Value(\n", writes, "raise KeyError('x')\n"):
        try:
            mine.install({"day08_more_ops.py": source})
        except mine.MyEngineError as error:
            found.append(error)
        finally:
            mine.uninstall()
    return found


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_a_refusal_in_a_notebook_is_said_as_its_page_says_it(lang, tmp_path):
    from engine import mine

    errors = _refusals()
    keys = ["myEngine.error." + k for k in ("syntax", "refused", "notLoadedOnLine")]
    assert [e.key for e in errors] == keys
    assert [mine.message_in(e, lang) for e in errors] == page_says(errors, lang, tmp_path)
    assert [mine.message_in(e) for e in errors] == [str(e) for e in errors]


def test_the_engine_s_copy_of_the_page_s_words_is_the_page_s():
    done = subprocess.run(
        [sys.executable, "-m", "tools.engine_words", "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_the_notebook_s_my_engine_cell_speaks_its_language(reports, lang, tmp_path):
    """The ru/et notebook's cell, run as a learner runs it on solutions/ and on a broken
    file: the page's line and the page's refusal, no English line of engine.mine's."""
    from tools import notebooks

    page = next(
        p for p in notebooks.pages() if p.name.endswith(f".{lang}.md") and "day06" in p.name
    )
    nb = json.loads(notebooks.target(page).read_text(encoding="utf-8"))
    source = "".join(nb["cells"][2]["source"])
    setting = re.compile(r"^MY_ENGINE = None", re.M)
    assert setting.search(source)
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "day08_more_ops.py").write_text("class Value(\n", encoding="utf-8")
    outputs = []
    for folder in (ROOT / "solutions", broken):
        cell = setting.sub(f"MY_ENGINE = {str(folder)!r}", source, count=1)
        run = subprocess.run(
            [sys.executable, "-c", cell], capture_output=True, text=True, cwd=ROOT, timeout=120
        )
        assert run.returncode == 0 and run.stderr == "", run.stderr
        outputs.append(run.stdout.splitlines())
    solutions_line = page_lines(reports[:1], lang, tmp_path)[0]  # reports[0]: solutions/
    assert outputs[0][0] == solutions_line
    refusal = _refusals()[0]
    from engine import mine

    assert mine.message_in(refusal, lang) in outputs[1][0]
    assert "syntax error" not in outputs[1][0]
