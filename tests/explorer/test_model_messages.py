"""The model explorer's refusals from Python (explorer.model's RequestError) carry the page's
message key (web/locales, model.error.*) and its values: the page says them in the reader's
language. Their English, filled with the values, is the exception's message word for word."""

from __future__ import annotations

import pytest

from explorer import model
from tests.i18n.page_messages import render

CASES = [
    (lambda: model.forward_view("em ma"), "model.error.typeOnly"),
    (lambda: model.forward_view("é"), "model.error.typeOnly"),
    (lambda: model.forward_view("e-"), "model.error.typeOnly"),
    (lambda: model.forward_view("e1"), "model.error.typeOnly"),
    (lambda: model.forward_view("a" * 40), "model.error.tooLong"),
    (lambda: model.forward_view(5), "model.error.prefixNotText"),
    (lambda: model.backward_view(""), "model.error.emptyName"),
    (lambda: model.backward_view("emma", 9), "model.error.position"),
    (lambda: model.backward_view(["emma"]), "model.error.nameNotText"),
    (lambda: model.restore_model({}), "model.error.notSaved"),
]


@pytest.mark.parametrize("ask, key", CASES)
def test_each_refusal_carries_a_key_whose_english_is_its_message(ask, key):
    with pytest.raises(model.RequestError) as caught:
        ask()
    err = caught.value
    assert err.key == key
    assert render(err.key, err.values) == str(err)
    for lang in ("ru", "et"):
        assert render(err.key, err.values, lang) != str(err)


def test_a_model_of_other_symbols_names_them():
    with pytest.raises(model.RequestError) as caught:
        model._token_ids("ab!", _Symbols("abc"), 16, "prefix")
    err = caught.value
    assert err.values["allowed"]["key"] == "model.error.symbols"
    assert render(err.key, err.values) == str(err) == "Type only the symbols 'abc': '!' is not one"


class _Symbols:
    def __init__(self, chars):
        self.chars = chars
