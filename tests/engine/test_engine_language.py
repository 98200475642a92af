"""The language the engine writes in when its caller names none (engine.words.set_language):
a Russian or Estonian page's worker, or notebook, sets it once, and str() of a gradcheck
report, and the report quoted in assert_gradients' error, are then in that language. English
by default, as in the terminal; a language the engine has no words for is refused."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import words
from engine.gradcheck import assert_gradients, gradcheck

ROOT = Path(__file__).resolve().parents[2]


def _page(lang):
    return json.loads((ROOT / "web" / "locales" / f"{lang}.json").read_text("utf-8"))


def _wrong(v):
    x = v[0]
    out = x * x
    out._local_grads = (0.5 * x.data, 0.5 * x.data)  # d(x*x)/dx should total 2x, not x
    return out


@pytest.fixture
def restore_language():
    yield
    words.set_language("en")


def _flat(messages, prefix=""):
    out = {}
    for name, value in messages.items():
        key = f"{prefix}{name}"
        out.update(_flat(value, key + ".") if isinstance(value, dict) else {key: value})
    return out


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_the_set_language_is_the_reports_language(lang, restore_language):
    page = _flat(_page(lang))
    english = str(gradcheck(_wrong, [1.5]))
    words.set_language(lang)
    report = str(gradcheck(_wrong, [1.5]))
    assert page["engine.gradcheck.differ"] in report
    assert page["engine.gradcheck.differs"] in report
    assert page["engine.gradcheck.input"] in report.splitlines()[0]
    assert "DIFFER" not in report and report != english


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_the_differs_error_quotes_the_report_in_the_set_language(lang, restore_language):
    page = _flat(_page(lang))
    words.set_language(lang)
    with pytest.raises(AssertionError) as caught:
        assert_gradients(_wrong, [1.5])
    assert page["engine.gradcheck.differ"] in caught.value.values["report"]
    assert page["engine.gradcheck.differ"] in str(caught.value)


def test_english_is_the_default_and_comes_back(restore_language):
    report = gradcheck(_wrong, [1.5])
    assert words.language() == "en"
    assert str(report).endswith("gradients DIFFER")
    before = str(report)
    words.set_language("ru")
    words.set_language("en")
    assert str(report) == before


def test_a_language_without_words_is_refused_and_changes_nothing(restore_language):
    words.set_language("ru")
    with pytest.raises(ValueError, match=r"lang is one of 'en', .*'ru'.*not 'de'") as caught:
        words.set_language("de")
    assert caught.value.key == "engine.error.words.lang"
    assert words.language() == "ru"


@pytest.mark.parametrize("lang", [["ru"], None, 7])
def test_a_language_that_is_not_a_name_is_refused_clearly(lang, restore_language):
    with pytest.raises(ValueError, match=r"lang is one of 'en', .*'ru'") as caught:
        words.set_language(lang)
    assert caught.value.key == "engine.error.words.lang"
    assert words.language() == "en"


@pytest.mark.parametrize(
    "words_module",
    [None, "raise ImportError('half installed')\n"],
    ids=["no words module", "a words module that fails"],
)
def test_a_pages_cells_run_when_its_engine_has_no_words(tmp_path, words_module):
    # Another package named engine on the path (or an older engine): a Russian page's cell
    # still runs, and the engine writes what it writes; no cell fails for want of its words.
    package = tmp_path / "engine"
    package.mkdir()
    (package / "__init__.py").write_text("")
    if words_module is not None:
        (package / "words.py").write_text(words_module)
    script = (
        "import importlib.util, sys\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "spec = importlib.util.spec_from_file_location('cellrun', sys.argv[1])\n"
        "cellrun = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(cellrun)\n"
        "cellrun.set_language('ru')\n"
        "print(cellrun.run('import engine\\nprint(6 * 7)', 'page', '<cell 1>'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(ROOT / "web" / "cellrun.py")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    printed, result = done.stdout.strip().splitlines()
    assert (printed, json.loads(result)) == ("42", {"ok": True}), done.stderr
