"""Adding a day touches only the day's own files: a throwaway last day, in a copy of the tree.

The copy gets the five files CONTRIBUTING.md ("Add a day") lists, the notebooks are
regenerated as `nox -s notebooks` does, and then the new day must be everywhere a day is: the
navigation, the badge, the course map, the grader (its exercises, and full marks for the
reference) and the notebooks. Every file the copy gained or changed is counted: nothing but
the five and the generated notebooks may have had to change.

Everything runs in the copy, in child processes with the copy's root on the import path,
so the copy's course.py, hooks, grader and tools are the ones exercised. No site build:
the hooks' functions are called the way MkDocs calls them.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
from day_count import in_words

import course

ROOT = course.ROOT
# What adding a day can touch (and what mkdocs.yml's `watch:` names, which must exist);
# tests/ and benchmarks/ have no list of days.
COPIED = [
    "course.py",
    "questions.py",
    "translations.py",
    "locales",
    "mkdocs.yml",
    "pyproject.toml",
    "docs",
    "hooks",
    "web",
    "includes",
    "grader",
    "explorer",
    "exercises",
    "solutions",
    "tools",
    "engine",
]
IGNORED = shutil.ignore_patterns(
    "node_modules", ".nox", "site", ".git", "__pycache__", "*.pyc", "dist", ".pytest_cache"
)

N = course.TOTAL_DAYS + 1  # the throwaway day comes after the last one
PHASE = max(course.PHASES)  # ...at the end of the last phase
SLUG = f"day{N}_echo"
DAY = {
    f"docs/lessons/{SLUG}.md": """\
        ---
        day: 31
        title: "Echo: a day that only this test has"
        phase: 3
        ---

        # Echo: a day that only this test has

        One cell and one exercise, to show where a new day has to be written down.

        ```pyodide
        print(2 * 21)
        ```

        ```exercise
        file: day{N}_echo.py
        hints:
          - Multiply by two.
        ```
        """,
    f"exercises/{SLUG}.py": '''\
        """Day 31 · Echo: write double(x).

        Lesson: docs/lessons/day{N}_echo.md

        Check your work:  python -m grader --exercise day{N}_echo.py
        """


        def double(x):
            """Twice x."""
            raise NotImplementedError("Day 31: write double. Read docs/lessons/day{N}_echo.md")
        ''',
    f"solutions/{SLUG}.py": '''\
        """Day 31 · Echo: write double(x).

        Lesson: docs/lessons/day{N}_echo.md

        Check your work:  python -m grader --exercise day{N}_echo.py
        """


        def double(x):
            """Twice x."""
            return 2 * x
        ''',
    f"grader/checks/{SLUG}.py": '''\
        """Checks of exercises/day{N}_echo.py: double(x) is 2 x."""

        from grader.verdict import EXACT, Expectation, Want

        from .cases import case

        EXERCISE = "day{N}_echo.py"
        TITLE = "Day 31: echo"
        LESSON = "docs/lessons/day{N}_echo.md"
        NEEDS_ENGINE = False
        ENGINE = {}
        ENGINE_BY_KIND = {}


        def public_cases():
            return [case("double", "double of 21", x=21.0)]


        HIDDEN_SPACE = "≈10^9: x in [-10^6, 10^6] to 3 decimals"


        def hidden_cases(rng):
            x = round(rng.uniform(-1e6, 1e6), 3)
            return [case("double", "double of a random x", public=False, x=x)]


        def expect(case):
            x = case["inputs"]["x"]
            return Expectation([Want("twice", 2 * x, EXACT, f"x = {x}", [(x, "multiply by 2")])])
        ''',
    f"grader/runners/{SLUG}.py": '''\
        """Child side of day 31: call double."""


        def run(module, case):
            return {"twice": module.double(case["inputs"]["x"])}
        ''',
}
NOTEBOOK = f"docs/notebooks/{SLUG}.ipynb"


def _numbered(text):
    """The day's texts are written for day 31 of phase 3; give them its real place."""
    for old, new in (("{N}", str(N)), ("Day 31", f"Day {N}"), ("day: 31", f"day: {N}")):
        text = text.replace(old, new)
    text = text.replace('"day": 31, "phase": 3', f'"day": {N}, "phase": {PHASE}')
    return text.replace("phase: 3", f"phase: {PHASE}")


DAY = {path: _numbered(text) for path, text in DAY.items()}

# Run in the copy: what the site's hooks make of it, as a build calls them.
SITE = """
import json
from types import SimpleNamespace

from mkdocs.config import load_config
from mkdocs.structure.files import get_files
from mkdocs.structure.nav import Section, get_navigation

config = load_config("mkdocs.yml", site_url="https://example.org/course/")  # as SITE_URL sets it
config = config.plugins.on_config(config)  # every plugin's on_config, the course's among them
files = get_files(config)
nav = get_navigation(files, config)
from day_badge import add_badge  # the course plugin's modules: hooks/plugin.py imports them
from course_map import PLACEHOLDER, add_map
from day_count import fill

manifest = config.plugins["course"].manifest  # the course as the plugin read it
page = SimpleNamespace(file=files.get_file_from_path("map.md"), meta={})
lesson = open("docs/lessons/day{N}_echo.md", encoding="utf-8").read()
meta = {"day": 31, "phase": 3, "title": "Echo"}
lesson_page = SimpleNamespace(meta=meta, file=files.get_file_from_path("lessons/day{N}_echo.md"))
print(json.dumps({
    "sections": [
        [item.title, [child.file.src_uri for child in item.children if child.is_page]]
        for item in nav.items if isinstance(item, Section)
    ],
    "map": add_map(PLACEHOLDER, page, files, manifest),
    "badge": add_badge(lesson, lesson_page, manifest),
    "home": fill(open("docs/index.md", encoding="utf-8").read(), manifest.total),
    "description": config.site_description,
}))
"""
SITE = _numbered(SITE)


def _digest(tree):
    return {
        p.relative_to(tree).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in tree.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def _run(tree, *args):
    """Run python in the copy, with the copy's root (and nothing of this checkout) importable."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run(
        [sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, f"{args}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


@pytest.mark.slow
def test_a_new_day_is_its_own_five_files_and_its_notebook(tmp_path, request):
    tree = tmp_path / "course"
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tree / name, ignore=IGNORED, symlinks=True)
        else:
            tree.mkdir(exist_ok=True)
            shutil.copy2(source, tree / name)
    # A new day's translations come after its English page, on the same branch: meanwhile
    # the build shows the English page in their place (CONTRIBUTING, "Translate a page").
    config = tree / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert "translations_whole: true" in text
    config.write_text(
        text.replace("translations_whole: true", "translations_whole: false"), encoding="utf-8"
    )
    before = _digest(tree)

    # The five files a new day is.
    for path, text in DAY.items():
        (tree / path).write_text(textwrap.dedent(text), encoding="utf-8")
    # ...and its notebook, as `nox -s notebooks` writes it.
    _run(tree, "-m", "tools.notebooks")
    _run(tree, "-m", "tools.notebooks", "--check")

    # The navigation: the new day is the last page of the last phase's section.
    site = json.loads(_run(tree, "-c", SITE))
    sections = dict(site["sections"])
    assert sections[course.phase_title(PHASE)][-1] == f"lessons/{SLUG}.md"
    assert sum(pages.count(f"lessons/{SLUG}.md") for pages in sections.values()) == 1
    # The badge and the course map count one day more.
    assert f"{course.phase_title(PHASE)} · Day {N} of {N}" in site["badge"]
    assert site["map"].startswith(f"{N} days")
    # ...and so do the home page and the site's description, which type no number.
    words = in_words(N)
    assert f"{words.capitalize()} days, one idea a day." in site["home"]
    assert f"A course in {words} days" in site["description"]
    page = course.split_front_matter(textwrap.dedent(DAY[f"docs/lessons/{SLUG}.md"]))[1]
    minutes = course.estimate_minutes(page, textwrap.dedent(DAY[f"exercises/{SLUG}.py"]))
    row = f"| {N} | [Echo: a day that only this test has](lessons/{SLUG}.md) | {minutes} min |"
    assert row in site["map"]
    assert f'data-exercise="{SLUG}.py"' in site["map"]

    # The grader: an exercise of its own, full marks for the reference, none for the stub.
    exercises = json.loads(
        _run(
            tree,
            "-c",
            "import json; from grader.checks import EXERCISES; print(json.dumps(EXERCISES))",
        )
    )
    assert exercises[-1] == f"{SLUG}.py" and len(exercises) == len(course.EXERCISES) + 1
    for folder, marks in (("solutions", "full"), ("exercises", "none")):
        out = tmp_path / f"{folder}.json"
        _run(tree, "-m", "grader", folder, "--exercise", f"{SLUG}.py", "--json", str(out))
        result = json.loads(out.read_text())
        assert result["max_score"] > 0
        assert result["score"] == (result["max_score"] if marks == "full" else 0), result

    # The notebook, out of N days.
    notebook = json.loads((tree / NOTEBOOK).read_text(encoding="utf-8"))
    assert notebook["metadata"]["course"]["day"] == N
    assert f"Day {N} of {N}" in "".join(notebook["cells"][0]["source"])

    # What adding the day touched: the five files, and the notebooks the tool wrote (the
    # new one, and the others, whose badge now counts one day more). Nothing else.
    after = _digest(tree)
    added = sorted(set(after) - set(before))
    changed = sorted(p for p in set(before) & set(after) if before[p] != after[p])
    removed = sorted(set(before) - set(after))
    assert added == sorted([*DAY, NOTEBOOK])
    assert not removed
    written_by_hand = sorted(p for p in added + changed if not p.startswith("docs/notebooks/"))
    assert written_by_hand == sorted(DAY), f"a new day had to change {written_by_hand}"
    measured = {
        "files written by hand": len(written_by_hand),
        "notebooks written by the tool": len(added + changed) - len(written_by_hand),
    }
    # Not a registration, but text to keep true: a lesson that types its own badge
    # (`<p class="day-badge">… Day 5 of 30</p>`, replaced at build time) now states an old total.
    english = sorted((tree / "docs" / "lessons").glob("day*.md"))
    days = [course.read_day(p) for p in english if not course.TRANSLATION.search(p.name)]
    stale = [
        day.slug
        for day in days
        if 'class="day-badge"' in (tree / "docs" / day.lesson).read_text(encoding="utf-8")
        and course.badge_text(day.day, day.phase, len(days))
        not in (tree / "docs" / day.lesson).read_text(encoding="utf-8")
    ]
    measured["lessons whose typed badge is out of date"] = len(stale)
    request.node.user_properties.extend(measured.items())  # in --junitxml reports
    print(f"adding day {N}: {measured}")  # shown with -rP
