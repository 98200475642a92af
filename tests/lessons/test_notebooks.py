"""Every lesson's notebook is in sync with its page (one source: the page's cells)."""

import json
import re
import subprocess
import sys

import pytest

import translations
from course import TOTAL_DAYS
from tools import notebooks

from .pages import lesson_paths, load

# Every lesson page, and each translation of one (day04_x.ru.md has day04_x.ru.ipynb).
PAGES = notebooks.pages()
assert PAGES[: len(lesson_paths())] == lesson_paths()
IDS = [p.stem for p in PAGES]


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_notebook_is_up_to_date(path):
    saved = notebooks.target(path)
    assert saved.is_file(), f"docs/notebooks/{saved.name} is missing: run `nox -s notebooks`"
    assert saved.read_text(encoding="utf-8") == notebooks.dumps(notebooks.notebook(path)), (
        f"docs/notebooks/{saved.name} is out of date with its page: run `nox -s notebooks`"
    )


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_code_cells_are_the_page_cells(path):
    # Read with the lesson tests' own parser, not the generator's: the two must agree.
    nb = json.loads(notebooks.target(path).read_text(encoding="utf-8"))
    code = [
        ("".join(c["source"]), c["metadata"].get("course", {}).get("cell"))
        for c in nb["cells"]
        if c["cell_type"] == "code"
        and c["metadata"].get("course", {}).get("cell") in (None, "torch")
    ]
    fences = load(path).notebook_fences
    assert len(code) == len(fences)
    for (source, role), (name, body) in zip(code, fences):
        if name == "pyodide":
            assert (source, role) == (body.rstrip("\n"), None)
            continue
        # A PyTorch block: the same code, one level in, after a guarded `import torch`.
        assert role == "torch"
        assert (
            source.startswith(
                "# "
                + translations.t(
                    notebooks.language_of(path),
                    "Check it against PyTorch (optional): Colab has torch; elsewhere, "
                    "%pip install torch",
                )
            )
            and "\ntry:\n    import torch\n" in source
        )
        for line in body.rstrip("\n").splitlines():
            if line.strip() and line != "import torch":
                assert "\n    " + line + "\n" in source + "\n", line
    assert all(
        c["outputs"] == [] and c["execution_count"] is None
        for c in nb["cells"]
        if c["cell_type"] == "code"
    )


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_notebook_is_valid_nbformat_4(path):
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(str(notebooks.target(path)), as_version=4)
    nbformat.validate(nb)
    page = load(path)
    assert nb.metadata["course"] == {k: page.meta[k] for k in ("day", "title", "phase")}
    first = "".join(nb.cells[0].source)
    lang = notebooks.language_of(path)
    day_of = translations.t(lang, "Day {day} of {total}", day=page.meta["day"], total=TOTAL_DAYS)
    assert day_of in first and (lang != "en" or f"Day {page.meta['day']} of {TOTAL_DAYS}" in first)


def test_no_notebook_without_a_page():
    names = {notebooks.target(p).name for p in PAGES}
    extra = sorted(p.name for p in notebooks.NOTEBOOKS.glob("*.ipynb") if p.name not in names)
    assert not extra, f"notebooks with no lesson page: {extra}"


def test_markdown_conversion():
    text = (
        "---\nday: 1\ntitle: T\nphase: 1\ntime: 5\n---\n\n"
        f'<p class="day-badge">Phase 1 · Foundations · Day 1 of {TOTAL_DAYS}</p>\n\n# T\n\nIntro.\n\n'
        '!!! tip "Try this"\n    Change it.\n\n    ```pyodide\n    x = 1\n    ```\n\n    More.\n\nAfter.\n\n'
        '=== "Tab A"\n    In a tab.\n\n'
        "```exercise\nfile: day01_x.py\nhints:\n  - one\n  - two\n```\n"
    )
    meta, cells = notebooks.split_page(text)
    assert meta["day"] == 1
    kinds = [k for k, _ in cells]
    assert kinds == ["markdown", "code", "markdown", "exercise"]
    assert cells[3][1] == "day01_x.py"
    assert cells[0][1].startswith("# T\n\nIntro.\n\n> **Try this**\n>\n> Change it.")
    assert "day-badge" not in cells[0][1]
    assert cells[1][1] == "x = 1"
    after = cells[2][1]
    assert after.startswith("> More.") and "\n\nAfter." in after
    assert "**Tab A**" in after and "\nIn a tab." in after
    assert "exercises/day01_x.py" in after and "Hint 2 of 2" in after


def test_check_mode_reports_stale(tmp_path, monkeypatch):
    monkeypatch.setattr(notebooks, "NOTEBOOKS", tmp_path)
    assert notebooks.stale()  # nothing written yet: every page is out of date
    notebooks.write_all()
    assert notebooks.stale() == []
    (tmp_path / "day99_gone.ipynb").write_text("{}")
    assert notebooks.stale() == ["day99_gone.ipynb"]


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_notebook_has_no_site_only_links_or_fences(path):
    # A `.md` page is not beside a notebook, and an explorer fence does nothing in Jupyter.
    nb = json.loads(notebooks.target(path).read_text(encoding="utf-8"))
    text = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert not re.search(r"\]\([^()\s]*\.md(#[^()\s]*)?\)", text), "a link to a .md page"
    assert "```explorer" not in text
    for target in re.findall(r"\]\(([^()\s:]+\.ipynb)(?:#[^()\s]*)?\)", text):
        assert (notebooks.NOTEBOOKS / target).is_file(), f"{target} is not a notebook"
    page = load(path)
    # the explorer's note opens with its name in bold, in the notebook's language
    note = notebooks._explorer_note("x", notebooks.language_of(path)).split("**")[1]
    assert text.count(f"**{note}**") == page.text.count("```explorer")
    assert notebooks.language_of(path) != "en" or note == "Graph explorer."


def test_lesson_links_become_notebook_links():
    md = "See [day 17](day17_bigrams.md) and [its end](day17_bigrams.md#summary)."
    assert notebooks.link_notebooks(md) == (
        "See [day 17](day17_bigrams.ipynb) and [its end](day17_bigrams.ipynb#summary)."
    )
    with pytest.raises(ValueError, match="no notebook to point to"):
        notebooks.link_notebooks("[map](../map.md)", "day01_derivative.md")
    with pytest.raises(ValueError, match="no notebook to point to"):
        notebooks.link_notebooks("[gone](day99_gone.md)")


def test_explorer_fence_becomes_a_note():
    text = "---\nday: 1\ntitle: T\nphase: 1\n---\n\n# T\n\nLook:\n\n```explorer\n(a + b) * c\n```\n"
    _, cells = notebooks.split_page(text)
    assert len(cells) == 1 and "```" not in cells[0][1]
    assert "> **Graph explorer.** On the course site" in cells[0][1]
    assert "starting from `(a + b) * c`" in cells[0][1]


def _added(nb):
    """The cells the generator adds to the page's: [(role, source)]."""
    return [
        (c["metadata"]["course"]["cell"], "".join(c["source"]))
        for c in nb["cells"]
        if "course" in c["metadata"]
    ]


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_setup_first_then_each_exercise_as_a_cell_and_its_check(path):
    nb = json.loads(notebooks.target(path).read_text(encoding="utf-8"))
    cells = nb["cells"]
    assert cells[0]["cell_type"] == "markdown" and cells[1]["metadata"] == {
        "course": {"cell": "setup"}
    }
    page = load(path)
    expected = [("setup", None)]
    if page.meta["day"] >= notebooks.MY_ENGINE_FIRST_DAY:
        expected.append(("my-engine", notebooks.my_engine_cell(notebooks.language_of(path))))
    lang = notebooks.language_of(path)
    said = "" if lang == "en" else f', lang="{lang}"'  # the check speaks the notebook's language
    for block in page.exercises:
        stub = (notebooks.EXERCISES / block["file"]).read_text(encoding="utf-8")
        expected += [
            ("exercise", f"%%writefile {block['file']}\n" + stub.rstrip("\n")),
            ("check", f'from grader.notebook import check\n\ncheck("{block["file"]}"{said})'),
        ]
    added = [(role, src) for role, src in _added(nb) if role != "torch"]  # the page's, guarded
    assert [(role, src if role != "setup" else None) for role, src in added] == expected
    # The check follows its exercise at once: nothing runs between them.
    roles = [c["metadata"].get("course", {}).get("cell") for c in cells]
    for i, role in enumerate(roles):
        if role == "exercise":
            assert roles[i + 1] == "check"


def test_the_setup_cell_gets_the_sites_address_and_nothing_else_changes():
    path = PAGES[0]
    text = notebooks.target(path).read_text(encoding="utf-8")
    served = notebooks.with_site_address(text, "https://example.org/course/")
    before, after = json.loads(text), json.loads(served)
    setup_before, setup_after = ("".join(nb["cells"][1]["source"]) for nb in (before, after))
    assert "SITE = None  #" in setup_before
    assert "SITE = 'https://example.org/course/'  #" in setup_after
    assert setup_after.replace("'https://example.org/course/'", "None") == setup_before
    after["cells"][1] = before["cells"][1]
    assert after == before
    with pytest.raises(ValueError, match="setup cell"):
        notebooks.with_site_address(json.dumps({"cells": []}), "https://example.org/")


def test_settings_are_read_from_mkdocs_yml_and_checked(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_url: !ENV SITE_URL\nextra:\n  published_url: null\n")
    assert notebooks.settings(config) == {
        "published_url": None,
        "repository": None,
        "branch": "main",
    }
    config.write_text(
        "extra:\n  course_repository: https://github.com/a/b.git\n  course_branch: dev\n"
        "  published_url: https://a.github.io/b/\n"
    )
    got = notebooks.settings(config)
    assert got == {
        "published_url": "https://a.github.io/b/",
        "repository": "https://github.com/a/b",
        "branch": "dev",
    }
    assert notebooks.colab_url(got, "day01_x.ipynb") == (
        "https://colab.research.google.com/github/a/b/blob/dev/docs/notebooks/day01_x.ipynb"
    )
    page = PAGES[0]
    nb = notebooks.notebook(page, got)
    first, setup = ("".join(c["source"]) for c in nb["cells"][:2])
    assert f"[Open in Colab]({notebooks.colab_url(got, page.stem + '.ipynb')})" in first
    assert "SITE = 'https://a.github.io/b/'  #" in setup
    assert "git clone https://github.com/a/b course" in setup
    config.write_text("extra:\n  course_repository: https://gitlab.com/a/b\n")
    with pytest.raises(ValueError, match="public GitHub repository"):
        notebooks.settings(config)
    config.write_text("extra:\n  published_url: example.org\n")
    with pytest.raises(ValueError, match="trailing slash"):
        notebooks.settings(config)


TORCH_PAGES = [p for p in PAGES if any(name == "torch" for name, _ in load(p).notebook_fences)]


@pytest.mark.parametrize("path", TORCH_PAGES, ids=[p.stem for p in TORCH_PAGES])
def test_a_pytorch_cell_without_torch_says_how_to_get_it_and_run_all_goes_on(path, tmp_path):
    """A learner's Jupyter without torch: "Run all" runs the PyTorch cell, then the next ones."""
    nb = json.loads(notebooks.target(path).read_text(encoding="utf-8"))
    roles = [c["metadata"].get("course", {}).get("cell") for c in nb["cells"]]
    assert "torch" in roles
    at = roles.index("torch")
    assert "exercise" in roles[at + 1 :]  # the cell comes before the exercise: it must not stop
    cells = [
        'import sys\nsys.modules["torch"] = None  # `import torch` now fails, as without torch',
        "".join(nb["cells"][at]["source"]),
        'print("the next cell runs")',
    ]
    # Run all, as Jupyter does: one namespace, cell after cell, stopping at the first error.
    runner = (
        "import json, sys\nns = {}\n"
        "for source in json.load(open(sys.argv[1])):\n"
        "    exec(compile(source, 'cell', 'exec'), ns)\n"
    )
    cells_file = tmp_path / "cells.json"
    cells_file.write_text(json.dumps(cells), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", runner, str(cells_file)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert run.returncode == 0 and run.stderr == "", run.stderr
    missing = translations.t(notebooks.language_of(path), notebooks.TORCH_MISSING)
    assert run.stdout == missing + "\nthe next cell runs\n"
    assert "pip install torch" in run.stdout and "Colab" in run.stdout  # in every language


MY_ENGINE_LINE = 'MY_ENGINE = None  # or "path/to/your/exercises"\n'


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_from_day_6_the_cell_after_setup_runs_the_notebook_on_my_engine(path):
    nb = json.loads(notebooks.target(path).read_text(encoding="utf-8"))
    roles = [c["metadata"].get("course", {}).get("cell") for c in nb["cells"]]
    intro = "".join(nb["cells"][0]["source"])
    if load(path).meta["day"] < 6:
        assert "my-engine" not in roles  # no whole Value of the learner's yet
        assert "MY_ENGINE" not in intro
        return
    assert roles[1:3] == ["setup", "my-engine"]  # before any of the page's cells
    lang = notebooks.language_of(path)
    assert "`MY_ENGINE`" in intro
    assert lang != "en" or "set `MY_ENGINE` in the cell after the setup cell" in intro
    line = MY_ENGINE_LINE if lang == "en" else "MY_ENGINE = None  # "
    assert any(s.startswith(line) for s in nb["cells"][2]["source"])


def test_the_my_engine_cell_installs_a_folder_and_says_clearly_what_went_wrong(tmp_path):
    """The cell run as a learner runs it (one namespace, as Jupyter), MY_ENGINE set in turn to
    solutions/, back to None, a folder that is not there, an empty one, a broken file."""
    nb = json.loads(notebooks.target(PAGES[5]).read_text(encoding="utf-8"))
    source = "".join(nb["cells"][2]["source"])
    assert MY_ENGINE_LINE in source
    empty, broken = tmp_path / "empty", tmp_path / "broken"
    empty.mkdir()
    broken.mkdir()
    (broken / "day08_more_ops.py").write_text("class Value(\n", encoding="utf-8")

    def setting(folder):
        return source.replace(MY_ENGINE_LINE, f"MY_ENGINE = {folder!r}\n")

    check = "import engine\nprint('Value from', engine.Value.__module__)"
    cells = [
        setting(None),
        setting(str(notebooks.ROOT / "solutions")),
        check,
        setting(None),
        check,
        setting(str(tmp_path / "nowhere")),
        setting(str(empty)),
        setting(str(broken)),
        check,
    ]
    runner = (
        "import json, sys\nns = {}\n"
        "for source in json.load(open(sys.argv[1])):\n"
        "    exec(compile(source, 'cell', 'exec'), ns)\n"
        "    print('---', flush=True)\n"
    )
    cells_file = tmp_path / "cells.json"
    cells_file.write_text(json.dumps(cells), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", runner, str(cells_file)],
        capture_output=True,
        text=True,
        cwd=notebooks.ROOT,  # where `engine` is importable, as after the setup cell
        timeout=120,
    )
    assert run.returncode == 0 and run.stderr == "", run.stderr
    off, on, mine, off_again, course_again, nowhere, no_files, bad, still = (
        out.strip() for out in run.stdout.split("---\n")[:-1]
    )
    assert off == ""  # left at None: nothing to say, the course engine
    line, then = on.splitlines()
    assert line.startswith("Value: yours (day 8)") and "MLP: yours (day 11)" in line
    assert then == (
        "Run the cells below: they use your engine now (each check cell still grades on the "
        "course engine)."
    )
    assert mine == "Value from my_engine_day08_more_ops"
    assert off_again == "My engine is off: the cells below run on the course engine again."
    assert course_again == "Value from engine.value"
    assert nowhere.startswith(f"My engine: there is no folder {str(tmp_path / 'nowhere')!r}")
    assert "set MY_ENGINE to the folder of your exercise files" in nowhere
    assert no_files.startswith(f"My engine: the folder {str(empty)!r} has no exercise files")
    assert bad.startswith("My engine is not on: day08_more_ops.py has a syntax error on line")
    for message in (nowhere, no_files, bad):
        assert len(message.splitlines()) == 1 and "Traceback" not in message
    assert still == "Value from engine.value"  # a file that cannot be used changes nothing


@pytest.mark.parametrize("lang", ["en", "ru", "et"])
def test_the_setup_cell_sets_the_engines_language_for_a_gradcheck_report(lang):
    """Day 7's notebook in `lang`: after its setup cell (run where `engine` is importable), a
    gradcheck report prints its table in the notebook's language, as the lesson page's does;
    an English notebook's stays English."""
    stem = "day07_accumulation" + ("" if lang == "en" else f".{lang}")
    nb = json.loads((notebooks.NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))
    (setup,) = (
        "".join(c["source"])
        for c in nb["cells"]
        if c["metadata"].get("course", {}).get("cell") == "setup"
    )
    report = (
        "from engine.gradcheck import gradcheck\n"
        "print(gradcheck(lambda v: v[0] * v[1], [1.0, 2.0]))\n"
    )
    runner = "import sys\nns = {}\nfor source in sys.argv[1:]:\n    exec(source, ns)\n"
    run = subprocess.run(
        [sys.executable, "-c", runner, setup, report],
        capture_output=True,
        text=True,
        cwd=notebooks.ROOT,  # where `engine` is importable, as after the setup cell
        timeout=120,
    )
    assert run.returncode == 0 and run.stderr == "", run.stderr
    page = json.loads((notebooks.ROOT / "web" / "locales" / f"{lang}.json").read_text("utf-8"))
    table = run.stdout.splitlines()[-4:]  # its heading, a row per input, its verdict
    assert table[0].split()[0] == page["engine.gradcheck.input"]
    assert table[-1] == page["engine.gradcheck.agree"]
