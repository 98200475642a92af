"""The prerequisites page lists the Python the lessons use, each on the day it is first needed."""

import re

from .pages import ROOT, lesson_paths, load

PAGE = (ROOT / "docs" / "reference" / "prerequisites.md").read_text(encoding="utf-8")

# (how the page's row starts, what a lesson's code or exercise file writes when it uses it)
FEATURES = [
    ("| `*` to unpack", r"\w\(\*\w"),
    ("| generator expressions", r"\bsum\([^()\[\]]+ for \w+ in "),
    ("| the `random` module", r"\bimport random\b"),
    ("| `key=` functions", r"\b(?:max|min|sorted)\([^)]*\bkey="),
    ("| `try`/`except`", r"^\s*try:"),
    ("| `slice(a, b)`", r"\bslice\("),
    ("| `global`", r"^\s*global "),
    ("| `**` to unpack a dictionary", r"\w\([^()\n]*(?<![\w*])\*\*\w"),
    ("| `zip(*pairs)`", r"\bzip\(\*"),
]


def _first_day(pattern):
    for path in lesson_paths():
        page = load(path)
        code = "\n".join(page.notebook_cells)
        code += "\n".join(re.findall(r"`([^`\n]+)`", page.text))  # a "Try this" asks for code too
        files = [ROOT / "exercises" / block["file"] for block in page.exercises]
        code += "\n".join(f.read_text(encoding="utf-8") for f in files if f.is_file())
        if re.search(pattern, code, re.M):
            return int(page.meta["day"])
    return None


def test_each_python_feature_is_listed_on_the_day_it_is_first_needed():
    for row_start, pattern in FEATURES:
        day = _first_day(pattern)
        assert day is not None, pattern
        row = next((line for line in PAGE.splitlines() if line.startswith(row_start)), None)
        assert row is not None, f"the prerequisites page has no row {row_start!r}"
        assert f"[day {day}](" in row, f"{row_start!r}: first needed on day {day}"
    assert "Nothing else is assumed" not in PAGE
