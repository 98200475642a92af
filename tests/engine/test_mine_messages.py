"""engine.mine's refusals carry the page's message key (web/locales, myEngine.error.*) and its
values: the page says them in the reader's language. Their English, filled with the values, is
the exception's own message word for word, less " (or in the file)", which the page drops
(web/myengine.js: a page has no file to fix)."""

from __future__ import annotations

import json

import pytest

from engine import mine
from tests.i18n.page_messages import catalog, render

VALUE = "day08_more_ops.py"


def _refusal(install, source, file=VALUE):
    with pytest.raises(mine.MyEngineError) as caught:
        install({file: source})
    return caught.value


def _said(err, lang="en"):
    return render(err.key, err.values, lang)


@pytest.mark.parametrize(
    "source, key",
    [
        ("def (:\n", "myEngine.error.syntax"),
        ("x = 1\nraise ValueError('no')\n", "myEngine.error.notLoadedOnLine"),
        ("import os\nos.remove('/nonexistent/file')\n", "myEngine.error.refused"),
        ("import os\nos.open('/nonexistent/file', os.O_WRONLY)\n", "myEngine.error.refused"),
        ("import sys\nsys.path.append('/nowhere')\n", "myEngine.error.path"),
        ("import sys\nsys.meta_path.append(object())\n", "myEngine.error.imports"),
        ("import builtins\nbuiltins.extra = 1\n", "myEngine.error.builtins"),
        (
            "import sys, types\nsys.modules['json'] = types.ModuleType('json')\n",
            "myEngine.error.module",
        ),
    ],
)
def test_each_refusal_carries_a_key_whose_english_is_its_message(my_engine, source, key):
    err = _refusal(my_engine, source)
    assert err.key == key
    assert _said(err) == str(err).replace(" (or in the file)", "")
    for lang in ("ru", "et"):
        assert _said(err, lang) != _said(err)


def test_a_file_that_never_finishes_loading(my_engine, monkeypatch):
    monkeypatch.setattr(mine, "LOAD_LIMIT", 0.2)
    err = _refusal(my_engine, "while True:\n    pass\n")
    assert err.key == "myEngine.error.tooSlow" and _said(err) == str(err)


def test_install_without_files():
    with pytest.raises(mine.MyEngineError) as caught:
        mine.install(5)
    assert _said(caught.value) == str(caught.value)


def test_every_refused_action_has_its_words_on_the_page():
    en = catalog("en")
    actions = set(mine._REFUSED_EVENTS.values()) | {"write a file", "change a function's code"}
    assert actions == set(mine._ACTIONS)
    for words, key in mine._ACTIONS.items():
        assert en["myEngine.action." + key] == words


def test_the_worker_hands_the_page_the_key_of_a_failed_call(my_engine):
    from web import cellrun

    args = json.dumps([{VALUE: "def (:\n"}])
    with pytest.raises(mine.MyEngineError) as caught:
        cellrun.call("engine.mine", "install", args)
    named = json.loads(cellrun.keyed_error())
    assert named == {"key": "myEngine.error.syntax", "values": caught.value.values}
    cellrun.call("engine.mine", "uninstall", "[]")
    assert json.loads(cellrun.keyed_error()) is None


# -- the report's rows: what the page writes under the switch, in its language -----------------

NEURON = "day10_neuron.py"


def _row(report, part):
    return next(row for row in report["parts"] if row["part"] == part)


@pytest.mark.parametrize(
    "source, key, values",
    [
        ("x = 1\n", "myEngine.reason.missing", {"file": NEURON, "name": "neuron"}),
        (
            "from engine.nn import Neuron as neuron\n",
            "myEngine.reason.courseEngines",
            {"file": NEURON, "name": "neuron"},
        ),
        ("neuron = print\n", "myEngine.reason.notWritten", {"file": NEURON, "name": "neuron"}),
        (
            "def neuron(*args):\n    raise NotImplementedError\n",
            "myEngine.reason.notFinished",
            {"file": NEURON},
        ),
        (
            "def neuron(*args):\n    raise ValueError('no weights')\n",
            "myEngine.reason.fails",
            {"file": NEURON, "error": "ValueError", "message": "no weights"},
        ),
    ],
)
def test_a_part_not_used_says_why_as_a_page_message(my_engine, source, key, values):
    row = _row(my_engine({NEURON: source}), "Neuron")
    assert not row["yours"] and row["day"] == 10
    assert row["reason"] == {"key": key, "values": values}
    assert row["name"] == {"key": "myEngine.part.neuron"}
    # Its English is the row's own English, which the English line shows.
    assert row["why"] == f"{render(key, values)}; pass day 10 to use yours"
    for lang in ("ru", "et"):
        assert render(key, values, lang) != render(key, values)


def test_a_part_whose_example_never_ends_says_so(my_engine, monkeypatch):
    monkeypatch.setattr(mine, "LOAD_LIMIT", 0.2)
    row = _row(my_engine({NEURON: "def neuron(*args):\n    while True:\n        pass\n"}), "Neuron")
    values = {"file": NEURON, "limit": "0.2"}
    assert row["reason"] == {"key": "myEngine.reason.tooSlow", "values": values}
    assert row["why"].startswith(render("myEngine.reason.tooSlow", values) + ";")


def test_a_part_not_passed_has_no_reason_and_a_part_passed_has_its_day(my_engine):
    from .mine_files import SOLUTIONS

    report = my_engine({VALUE: SOLUTIONS[VALUE]})
    value, neuron = _row(report, "Value"), _row(report, "Neuron")
    assert value["yours"] and value["day"] == 8 and value["reason"] is None
    assert not neuron["yours"] and neuron["reason"] is None
    assert neuron["why"] == "pass day 10 to use yours"
    # What the course lends the learner's Value, as page messages whose English the line names.
    assert value["lent"] and all(set(item) == {"key"} for item in value["lent"])
    words = [render(item["key"], {}) for item in value["lent"]]
    lent = " and ".join(words)
    assert f"Value: yours (day 8), with {lent} from the course engine" in report["line"]
    prose = [item["key"] for item in value["lent"] if " " in render(item["key"], {})]
    assert prose  # a number to a Value's power: in the page's words
    for lang in ("ru", "et"):
        assert all(render(key, {}, lang) != render(key, {}) for key in prose)


def test_every_part_and_every_lent_operation_has_its_name_on_the_page():
    en = catalog("en")
    for part in mine.PARTS:
        assert en[part.key] == part.name
        for lang in ("ru", "et"):
            assert part.key in catalog(lang)
    for key, words in mine._LENT_NAMES.values():
        assert en[key] == words
