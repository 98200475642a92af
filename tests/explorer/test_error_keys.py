"""The graph explorer's refusals from Python carry the page's message key (web/locales), whose
English, filled with the error's values, is the error's own message word for word: the page
says it in the reader's language, CPython and the English page say what they always did."""

from __future__ import annotations

import math

import pytest

from explorer import ExpressionError, build, explore
from tests.i18n.page_messages import catalog, render

REFUSED = [
    ("a / 0", {}, "explorer.error.divideByZero"),
    ("a / b", {"b": 0}, "explorer.error.divideByVariable"),
    ("a / (b - b)", {}, "explorer.error.divideByZeroValue"),
    ("b ** -1", {"b": 0}, "explorer.error.divideByVariable"),
    ("log(b)", {}, "explorer.error.logNotPositive"),
    ("exp(c)", {"c": 1000}, "explorer.error.expTooLarge"),
    ("b ** 0.5", {"b": 0}, "explorer.error.powerInfiniteSlope"),
    ("b ** 0.5", {}, "explorer.error.powerNotReal"),
    ("c ** 400", {"c": 10}, "explorer.error.powerTooLarge"),
    ("c * c", {"c": 1e200}, "explorer.error.tooLarge"),
    (
        "+".join("abcdefghijklmnopqrstuvwxyz" * 3)[:199].rstrip("+"),
        {},
        "explorer.error.tooManyNodes",
    ),
    ("a", {"a": math.inf}, "explorer.error.valueNotFinite"),
    ("a", {"a": "2"}, "explorer.error.valueNotFinite"),
    ("a", [2], "explorer.error.valuesNotMapping"),
    ("log(c)", {"c": 1e-310}, "explorer.error.gradientTooLarge"),
]


@pytest.mark.parametrize("text, values, key", REFUSED)
def test_each_refusal_carries_a_key_whose_english_is_its_message(text, values, key):
    result = explore(text, values)
    assert not result["ok"]
    error = result["error"]
    assert error["key"] == key
    assert render(error["key"], error["values"]) == error["message"]
    for lang in ("ru", "et"):
        assert render(error["key"], error["values"], lang) != error["message"]


def test_the_exception_itself_carries_the_key_and_its_values():
    with pytest.raises(ExpressionError) as caught:
        build("a / 0")
    err = caught.value
    assert err.key in catalog("en") and str(err) == render(err.key, err.values)


def test_an_error_without_a_key_says_its_message_alone():
    assert ExpressionError("x", 0, 1).to_dict() == {"message": "x", "start": 0, "end": 1}


PARSER = {
    "a // b": "floorDivision",
    "a % b": "remainder",
    "a @ b": "matmul",
    "a ^ 2": "caret",
    "a & b": "bitAnd",
    "a | b": "bitOr",
    "a << b": "shiftLeft",
    "a >> b": "shiftRight",
    "a.b": "attribute",
    "a.exp()": "method",
    "a[0]": "indexing",
    "a < b": "compare",
    "a and b": "andOr",
    "a if b else c": "ifElse",
    "lambda: 1": "lambda",
    "(x := 2)": "walrus",
    "a, b": "tuple",
    "[a]": "list",
    "{a: b}": "dict",
    "{a}": "set",
    "f'{a}'": "text",
    "'a'": "text",
    "a + ...": "notNumber",
    "a + 2j": "complex",
    "1e999": "numberTooLarge",
    "exp": "functionNotCalled",
    "ab * c": "notVariableProduct",
    "w_1 + 1": "notVariableUnderscore",
    "é + 1": "notVariable",
    "not a": "notArithmetic",
    "~a": "notArithmetic",
    "a ** b": "exponentVariable",
    "a ** (2 + 1)": "exponent",
    "w1(x1)": "variableCalled",
    "(a + b)(c)": "onlyFunctions",
    "sin(a)": "notFunction",
    "exp(a, b)": "oneArgument",
    "a" * 201: "tooLong",
    "a +\nb": "oneLine",
    "a\0b": "controlCharacter",
    "  ": "empty",
    "a +": "endsTooEarly",
    "a b": "operatorMissing",
    "a = 1": "assignment",
    "(a + b": "neverClosed",
    "a + [": "neverClosed",
    "a)": "unmatched",
    "a + b)": "unmatched",
    "(a]": "syntax",
    "2a": "numberRunsIntoLetter",
    "a +* b": "incomplete",
    "(" * 300: "tooLong",
    "-" * 150 + "a": "tooManyNodes",
}


@pytest.mark.parametrize("text, key", PARSER.items())
def test_each_refusal_of_the_parser_carries_a_key_whose_english_is_its_message(text, key):
    error = explore(text)["error"]
    assert error["key"] == f"explorer.error.{key}", error["message"]
    assert render(error["key"], error["values"]) == error["message"]


def test_every_refusal_of_a_hostile_text_carries_a_key():
    from tests.explorer.test_expr import HOSTILE

    for text in [*HOSTILE, 12, "x" * 5, "a + (b", "yield a", "await a", "a if b", "[*a]"]:
        result = explore(text)
        if not result["ok"]:
            error = result["error"]
            assert render(error["key"], error["values"]) == error["message"], text
