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
