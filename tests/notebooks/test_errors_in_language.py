"""A Russian or Estonian notebook ends an engine error's traceback in its language, as the
lesson page's output does (web/errortext.js): Python's traceback and the exception's type name
stay, the last line's message is the page's. Every other error, and every error of an English
notebook, shows as IPython shows it.

The notebook's own setup cell runs in a fresh Jupyter kernel (tests/notebooks/kernel.py) where
`engine` is importable from this checkout, as in a clone of the course: the setup cell has
nothing to install and only sets the notebook's language for the engine's errors.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from tests.i18n.page_messages import render
from tools import notebooks

from .kernel import errors, execute, fresh_environment, run_plain

ROOT = notebooks.ROOT
ENGINE_ERROR = "from engine import Value\nx = Value(2.0)\nx ** 'two'\n"
# Errors that name no page message: Python's own, at run time and while the cell is read (a
# syntax error, a null byte).
PLAIN_ERRORS = ["1 / 0\n", "int('two')\n", "1 +\n", "x = 1\x00\n"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _setup_source(lang):
    page = next(p for p in notebooks.pages() if notebooks.language_of(p) == lang)
    nb = json.loads(notebooks.target(page).read_text(encoding="utf-8"))
    setup = next(c for c in nb["cells"] if c["metadata"].get("course", {}).get("cell") == "setup")
    return "".join(setup["source"])


def _cell(n, source):
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": f"errors-{n}",
        "metadata": {},
        "outputs": [],
        "source": source,
    }


def _kernel_python(where: Path) -> Path:
    """A fresh environment whose kernel imports `engine` from this checkout (before the test
    environment's own copy of it) and has the test environment's ipykernel."""
    python = fresh_environment(where, Path(sys.executable))
    lent = next(where.glob("lib/python*/site-packages"))
    (lent / "0-checkout.pth").write_text(f"{ROOT}\n", encoding="utf-8")
    return python


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    """{lang: [each error cell's error output]}: the setup cell, then the error cells."""
    where = tmp_path_factory.mktemp("errors-in-language")
    python = _kernel_python(where / "venv")
    found = run_plain("import engine; print(engine.__file__)", python, where)
    assert found.stdout.startswith(str(ROOT / "engine")), found.stdout + found.stderr
    outputs = {}
    for lang in ("en", "ru", "et"):
        cells = [_setup_source(lang), ENGINE_ERROR, *PLAIN_ERRORS]
        nb = {
            "cells": [_cell(n, source) for n, source in enumerate(cells)],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
        done = execute(nb, python, where, timeout=120)
        setup, *rest = done["cells"]
        assert not errors({"cells": [setup]}), errors(done)
        assert "engine" in "".join(o.get("text", "") for o in setup["outputs"])
        assert not [o for o in setup["outputs"] if o.get("name") == "stderr"]
        outputs[lang] = [
            next(o for o in cell["outputs"] if o["output_type"] == "error") for cell in rest
        ]
    return outputs


def _text(error):
    """An error output's traceback as plain text, the kernel's cell file names made one."""
    text = ANSI.sub("", "\n".join(error["traceback"]))
    return re.sub(r"ipykernel_\d+", "ipykernel", text)


def _engine_error():
    from engine import Value

    with pytest.raises(TypeError) as caught:
        Value(2.0) ** "two"
    return caught.value


def test_an_english_notebook_says_an_engine_error_in_english(shown):
    error = shown["en"][0]
    assert (error["ename"], error["evalue"]) == ("TypeError", str(_engine_error()))
    assert _text(error).rstrip().endswith(f"TypeError: {_engine_error()}")


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_a_translated_notebook_ends_an_engine_error_as_its_page_does(shown, lang):
    exc = _engine_error()
    said = render(exc.key, exc.values, lang)
    assert said != str(exc)
    english, translated = shown["en"][0], shown[lang][0]
    assert (translated["ename"], translated["evalue"]) == ("TypeError", said)
    head, last = _text(english).rstrip().rsplit("\n", 1)
    assert last == f"TypeError: {exc}"
    assert _text(translated).rstrip() == f"{head}\nTypeError: {said}"


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_other_errors_show_as_in_an_english_notebook(shown, lang):
    for english, translated in zip(shown["en"][1:], shown[lang][1:], strict=True):
        assert (translated["ename"], translated["evalue"]) == (english["ename"], english["evalue"])
        assert _text(translated) == _text(english)
    assert [e["ename"] for e in shown[lang][1:]] == [
        "ZeroDivisionError",
        "ValueError",
        "SyntaxError",
        "SyntaxError",
    ]


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_plain_python_runs_the_setup_cell_and_keeps_python_s_errors(lang, tmp_path):
    python = _kernel_python(tmp_path / "venv")
    run = run_plain(_setup_source(lang) + "\n" + ENGINE_ERROR, python, tmp_path)
    assert run.stdout.startswith("engine")
    assert run.stderr.rstrip().endswith(f"TypeError: {_engine_error()}")
