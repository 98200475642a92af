"""Judge the numbers a case sent back against what the case expects: the verdict.

An *expectation* is plain data, computed by the trusted side from the case alone
(`grader/checks/`): the numbers and lists a correct answer gives, the values that
likely bugs give instead, and advice for each. `verdict(expectation, values)` only
compares: it holds no formula and no reference, so it can run anywhere, in the trusted
grader and in the learner's page (where the public cases' expectations arrive
precomputed by the site build, `grader/public.py`).

Nothing a child sends is trusted: values are only compared, never used as a count,
a size or an index beyond what the expectation itself allows.
"""

import math
from dataclasses import asdict, dataclass, field

from grader.runners.lists import PACK_BITS, PACK_MOST, PACK_WIDTH  # how the child packs

__all__ = [
    "EXACT",
    "CLOSED",
    "NUMERIC",
    "MAX_TEXT",
    "Want",
    "WantList",
    "WantOrder",
    "Pattern",
    "Expectation",
    "close",
    "fmt",
    "verdict",
    "judge_outcome",
    "error_message",
    "to_json",
    "from_json",
]

# Add and mul are checked to the last bits; anything with exp, tanh or ** to 1e-9 of
# the closed form; central differences (truncation error ~h^2) to 1e-6.
EXACT = (1e-12, 1e-12)
CLOSED = (1e-9, 1e-12)
NUMERIC = (1e-6, 1e-8)

MAX_TEXT = 300  # characters kept of any learner-controlled text (error messages, lists)
EXTRA_ITEMS = 16  # a list may come back this much longer than expected and still be shown


def fmt(x):
    """A number as a learner reads it: short floats as Python prints them, others to 6 digits."""
    if isinstance(x, float) and not math.isfinite(x):
        return repr(x)
    text = repr(float(x))
    return text if len(text) <= 10 else f"{x:.6g}"


def close(received, expected, tol):
    """True when `received` is a finite float within `tol = (rel, abs)` of `expected`."""
    if type(received) is not float or not math.isfinite(received):
        return False
    rel, abs_ = tol
    return abs(received - expected) <= max(abs_, rel * max(abs(received), abs(expected)))


@dataclass
class Want:
    """One number a case must produce.

    `bugs` lists (value the number takes under a likely bug, what to tell the learner);
    `more` is said after the message whenever this number is wrong.
    """

    key: str
    value: float
    tol: tuple = EXACT
    setup: str = ""
    bugs: list = field(default_factory=list)
    label: str = ""  # what the learner calls the number, when the key must be unique
    more: str = ""


@dataclass
class WantList:
    """A list of whole numbers (or, with `text`, the character codes of a string).

    The child sends it flattened: `len(name)` and `name[i]` (grader/runners/lists.py).
    `bugs` lists (the list a likely bug gives, advice); with `text`, `alike` lists
    (what to ignore, advice): a string that equals the answer once every character of
    `ignore` is removed from both gets that advice.
    """

    name: str
    items: list
    setup: str = ""
    bugs: list = field(default_factory=list)
    hint: str = ""
    text: bool = False
    alike: list = field(default_factory=list)


@dataclass
class WantOrder:
    """A topological order of a graph that the expectation holds whole.

    The child sends the order as where each node it returned stands in the case's node
    list, -1 for one that is not in it, packed four to a number (`pack_positions`:
    13 bits each, so at most 8,190 nodes).
    `children[i]` are node i's children, `needed` the nodes the output `root` depends
    on; a right order lists each needed node once, every child before its parent, the
    output last. Messages say what is wrong, with `setup` (the graph) and `advice`.
    """

    name: str
    children: list
    needed: list
    root: int
    setup: str = ""
    advice: dict = field(default_factory=dict)


@dataclass
class Pattern:
    """A likely bug recognised by several numbers at once.

    When the case fails and every key of `match` came back within `tol` of its value,
    `advice` is added to the message (or, with `replace`, becomes the message).
    An empty `match` always applies.
    """

    match: dict
    advice: str
    tol: tuple = EXACT
    replace: bool = False


@dataclass
class Expectation:
    """Everything needed to judge one case: checked in order, the first failure is told."""

    wants: list
    hint: str = ""
    patterns: list = field(default_factory=list)


# -- judging -------------------------------------------------------------------------------


def _judge_number(want, values, hint):
    got = values.get(want.key)
    if got is None:
        return f"{want.key}: no value came back. {hint}".strip()
    if close(got, want.value, want.tol):
        return None
    where = f" ({want.setup})" if want.setup else ""
    message = f"{want.label or want.key} is {fmt(got)}, expected {fmt(want.value)}{where}"
    advice = _one_advice(
        advice for bug_value, advice in want.bugs if close(got, bug_value, want.tol)
    )
    if advice:
        return _more(f"{message}: {advice}", want.more)
    message = f"{message}. {hint}".strip() if hint else message + "."
    return _more(message, want.more)


def _one_advice(advices):
    """The advice of the likely bug that the received answer matches, or None.

    A bug is named only when its premise holds: the answer matches it and no other
    listed bug with other advice, since two bugs that give the same answer here leave
    the learner's actual mistake unknown (say neither rather than the wrong one).
    """
    found = list(dict.fromkeys(advices))
    return found[0] if len(found) == 1 else None


def _more(message, more):
    return f"{message} {more}" if more else message


def _whole(x):
    return type(x) is float and math.isfinite(x) and x == int(x)


def _received_list(name, values, longest):
    """The list sent as len(name), name[i]; or (None, why) when it did not come back whole.

    The length is the child's word: it is believed only up to `longest` items.
    """
    n = values.get(f"len({name})")
    if not _whole(n) or n < 0:
        return None, "no complete answer came back"
    if n > longest:
        return None, f"it has {int(n)} items, far more than the answer's"
    items = [values.get(f"{name}[{i}]") for i in range(int(n))]
    if not all(_whole(x) for x in items):
        return None, "no complete answer came back"
    return [int(x) for x in items], ""


def _show(items, text):
    if text:
        shown = repr("".join(chr(i) if 0 <= i < 0x110000 else "?" for i in items))
    else:
        shown = repr(items)
    return shown if len(shown) <= MAX_TEXT else shown[: MAX_TEXT - 3] + "..."


def _without(codes, ignore):
    return [c for c in codes if not (0 <= c < 0x110000 and chr(c) in ignore)]


def _judge_list(want, values):
    expected = list(want.items)
    longest = max([len(expected)] + [len(bug) for bug, _ in want.bugs]) + EXTRA_ITEMS
    got, why = _received_list(want.name, values, longest)
    where = f" ({want.setup})" if want.setup else ""
    if got is None:
        return f"{want.name}: {why}{where}. {want.hint}".strip()
    if got == expected:
        return None
    message = (
        f"{want.name} is {_show(got, want.text)}, expected {_show(expected, want.text)}{where}"
    )
    advice = _one_advice(advice for bug, advice in want.bugs if got == list(bug))
    if advice is None:
        advice = _one_advice(
            advice
            for ignore, advice in want.alike
            if _without(got, ignore) == _without(expected, ignore)
        )
    if advice:
        return f"{message}: {advice}"
    return f"{message}. {want.hint}".strip() if want.hint else message + "."


ORDER_ADVICE = {
    "only the output": "only the output is in the list: visit the children too",
    "missing": "visit every child of every node you list",
    "foreign": "list the Values the output was built from, nothing else",
    "twice": "a node reached twice must be listed once: remember the nodes you visited",
    "late": "append a node only after all of its children are appended",
    "last": "the output itself must come last: append a node after its children",
}


def _order_problem(want, got):
    """(what is wrong, advice key) with the received order `got`, or None when it is right.

    `got` holds whole numbers; only those that are one of the expectation's own nodes
    are looked up: the rest count as Values from outside the graph.
    """
    nodes = set(range(len(want.children)))
    needed = set(want.needed)
    first = {}
    for k, i in enumerate(got):
        if i in nodes and i not in first:
            first[i] = k
    missing = len(needed - set(first))
    if missing:
        only_root = missing == len(needed) - 1 and want.root in first
        key = "only the output" if only_root else "missing"
        return f"{missing} of its {len(needed)} nodes are missing from the order", key
    foreign = sum(1 for i in got if i not in needed)
    if foreign:
        return f"the order holds {foreign} item(s) the output does not depend on", "foreign"
    if len(got) != len(needed):
        return f"the length of the order is {len(got)}, expected {len(needed)}", "twice"
    late = sum(1 for v in want.needed for c in want.children[v] if first[c] > first[v])
    if late:
        return f"{late} node(s) are listed before one of their children", "late"
    if got[-1] != want.root:
        return "the output is not last in the order", "last"
    return None


def _received_packed(name, values, n):
    """The `n` positions sent four to a number, or None when they did not come back whole."""
    top, items = (1 << PACK_BITS) - 1, []
    for k in range(0, n, PACK_WIDTH):
        number = values.get(f"{name} packed[{k // PACK_WIDTH}]")
        if not _whole(number) or not 0 <= number < 2.0 ** (PACK_BITS * PACK_WIDTH):
            return None
        number = int(number)
        for j in range(min(PACK_WIDTH, n - k)):
            items.append(((number >> (PACK_BITS * j)) & top) - 1)
    return items


def _judge_order(want, values, hint):
    # past this many positions the child sends the length alone (runners/lists.py)
    longest = min(4 * len(want.children) + EXTRA_ITEMS, PACK_MOST)
    where = f" ({want.setup})" if want.setup else ""
    n = values.get(f"len({want.name})")
    if not _whole(n) or n < 0:
        return f"{want.name}: no complete answer came back{where}. {hint}".strip()
    if n > longest:
        problem, key = f"the length of the order is {int(n)}, expected {len(want.needed)}", "twice"
    else:
        got = _received_packed(want.name, values, int(n))
        if got is None:
            return f"{want.name}: no complete answer came back{where}. {hint}".strip()
        found = _order_problem(want, got)
        if found is None:
            return None
        problem, key = found
    advice = want.advice.get(key) or ORDER_ADVICE[key]
    return f"{problem}{where}: {advice}. {hint}".strip()


def verdict(expectation, values):
    """(passed, message): do the received `values` ({key: float}) meet `expectation`?

    The message names the first wrong number or list, the inputs, the expected and
    received values and, when the received values match a known bug, that bug.
    """
    for want in expectation.wants:
        if isinstance(want, WantList):
            message = _judge_list(want, values)
        elif isinstance(want, WantOrder):
            message = _judge_order(want, values, expectation.hint)
        else:
            message = _judge_number(want, values, expectation.hint)
        if message is not None:
            return False, _diagnose(expectation.patterns, values, message)
    return True, "passed"


def _diagnose(patterns, values, message):
    """The message with the advice of the one pattern the values match (see _one_advice)."""
    matched = [
        p for p in patterns if all(close(values.get(k), v, p.tol) for k, v in p.match.items())
    ]
    if len({p.advice for p in matched}) != 1:
        return message
    pattern = matched[0]
    if pattern.replace:
        return pattern.advice
    if pattern.advice in message:  # the wrong number alone named the same bug
        return message
    return message.rstrip(".") + f": {pattern.advice}."


def error_message(error, filename):
    """Turn an error record from the child (`runners.describe_error`) into a message."""
    kind, text, line = error["type"], error["message"], error["line"]
    where = f" (line {line} of {filename})" if line else ""
    if kind == "NotImplementedError":
        return f"not written yet{where}: {text}" if text else f"not written yet{where}."
    if kind == "RecursionError":
        return (
            f"RecursionError{where}: the graph is deeper than Python's recursion limit "
            "allows your code to go; use an explicit stack instead of recursion."
        )
    return f"your code raised {kind}{where}: {text}"


def judge_outcome(expectation, outcome, filename):
    """(passed, message) for what came back from running a case: numbers or an error."""
    if "error" in outcome:
        return False, error_message(outcome["error"], filename)
    invalid = outcome.get("invalid") or {}
    if invalid:
        key = sorted(invalid)[0]
        return False, (
            f"{key} is {invalid[key]}, not a plain float: keep .data and .grad as floats "
            "(return loss.data, not the Value loss)."
        )
    return verdict(expectation, outcome["values"])


# -- as JSON, for the page ---------------------------------------------------------------


def to_json(expectation):
    """The expectation as JSON-ready data (the site ships the public cases' ones)."""
    wants = []
    for want in expectation.wants:
        kind = {WantList: "list", WantOrder: "order"}.get(type(want), "number")
        wants.append({"kind": kind, **asdict(want)})
    return {
        "wants": wants,
        "hint": expectation.hint,
        "patterns": [asdict(p) for p in expectation.patterns],
    }


def from_json(data):
    wants = []
    for item in data["wants"]:
        fields = {k: v for k, v in item.items() if k != "kind"}
        if item["kind"] == "list":
            wants.append(WantList(**fields))
        elif item["kind"] == "order":
            wants.append(WantOrder(**fields))
        else:
            fields["tol"] = tuple(fields["tol"])
            wants.append(Want(**fields))
    patterns = [Pattern(**{**p, "tol": tuple(p["tol"])}) for p in data["patterns"]]
    return Expectation(wants, data["hint"], patterns)
