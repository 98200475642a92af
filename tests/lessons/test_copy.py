"""The copy test: no exercise can be passed by copying code from its own lesson page.

The *answer lines* of an exercise are the lines of its reference (solutions/dayNN_slug.py)
inside the bodies of the functions the learner writes, that the stub (exercises/dayNN_slug.py)
does not have. Whitespace is normalised (runs of spaces become one, ends are trimmed) and
comments are dropped. Trivial lines are ignored: lines with fewer than 20 characters of code
(`return out`, `pass`, a lone bracket, `total = 0.0`), docstrings, lines that only open a
block (`for a, b in zip(ids, ids[1:]):`, ending in a colon), and the `for` and `if` clauses of a
comprehension written on lines of their own (the loop is the idiom, its body is the answer), calls with no arguments (`optimizer.zero_grad()`), and assignments of empty
containers or zeros (`order, seen = [], set()`).

No answer line may appear in its day's page outside the exercise block (whose `hints:` are
allowed to give pieces of the answer away, one at a time, on request).
"""

import ast
import re

import pytest

from tests.lessons.pages import ROOT, lesson_paths

SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"
_EXERCISE_FENCE = re.compile(r"^([ \t]*)```exercise\b.*?^\1```[ \t]*$", re.S | re.M)
MIN_LENGTH = 20


def _normalise(line):
    line = (
        line.split("#", 1)[0] if "#" in line and not re.search(r"[\"'].*#.*[\"']", line) else line
    )
    return " ".join(line.split())


def _functions(tree):
    """Every function and method, by qualified name."""
    found = {}

    def walk(node, prefix=""):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found[prefix + child.name] = child
                walk(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")

    walk(tree)
    return found


def _body_lines(source, function):
    lines = source.splitlines()
    body = function.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(getattr(body[0], "value", None), ast.Constant)
    ):
        body = body[1:]  # the docstring
    if not body:
        return []
    return lines[body[0].lineno - 1 : function.end_lineno]


def answer_lines(name):
    """The non-trivial normalised lines the learner has to write for exercise `name`."""
    solution = (SOLUTIONS / name).read_text(encoding="utf-8")
    stub = (EXERCISES / name).read_text(encoding="utf-8")
    given = {_normalise(line) for line in stub.splitlines()}
    stub_functions = _functions(ast.parse(stub))
    answers = []
    for qualname, function in _functions(ast.parse(solution)).items():
        stub_function = stub_functions.get(qualname)
        if stub_function is not None and ast.dump(stub_function) == ast.dump(function):
            continue  # given whole in the stub
        for line in _body_lines(solution, function):
            text = _normalise(line)
            if len(text) < MIN_LENGTH or text in given:
                continue
            if text.startswith(("def ", '"""', "'''", "for ", "if ")) or text.endswith(":"):
                continue
            if re.fullmatch(r"[\w.]+\(\)", text):
                continue
            if re.fullmatch(
                r"[\w, ]+ = (?:\[\]|\{\}|set\(\)|0|0\.0|None)(?:, (?:\[\]|\{\}|set\(\)|0|0\.0|None))*",
                text,
            ):
                continue
            answers.append(text)
    return list(dict.fromkeys(answers))


def page_lines(path):
    text = _EXERCISE_FENCE.sub("", path.read_text(encoding="utf-8"))
    return [_normalise(line) for line in text.splitlines()]


# Lines the page must show because there is one way to write them (an API call with no
# computation), with the reason they give nothing away.
ALLOWED = {
    "day28_kv_cache.py": {
        "keys, values = new_kv_cache(model.config)": "the only way to make a cache; the page's"
        " functions write names greedily, the exercise returns every position's logits",
    },
}

PAGES = [p for p in lesson_paths() if (SOLUTIONS / f"{p.stem}.py").is_file()]


@pytest.mark.parametrize("path", PAGES, ids=[p.stem for p in PAGES])
def test_no_answer_line_is_on_its_own_page(path):
    lines = page_lines(path)
    allowed = ALLOWED.get(f"{path.stem}.py", {})
    answers = [a for a in answer_lines(f"{path.stem}.py") if a not in allowed]
    copied = [a for a in answers if any(a in line for line in lines)]
    assert not copied, f"{path.name} shows lines of its own reference solution:\n" + "\n".join(
        copied
    )


def test_the_answer_lines_are_found():
    """The test can fail: day 19's reference has answer lines, and they are what it writes."""
    answers = answer_lines("day19_softmax.py")
    assert "exps = [(z - top).exp() for z in logits]" in answers
    assert "return -softmax(logits)[target].log()" in answers
