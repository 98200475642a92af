"""Judge the numbers a case sent back against what the case expects: the verdict.

An *expectation* is plain data, computed by the trusted side from the case alone
(`grader/checks/`): the numbers and lists a correct answer gives, the values that
likely bugs give instead, and advice for each. `verdict(expectation, values)` only
compares: it holds no formula and no reference, so it can run anywhere, in the trusted
grader and in the learner's page (where the public cases' expectations arrive
precomputed by the site build, `grader/public.py`).

Nothing a child sends is trusted: values are only compared, never used as a count,
a size or an index beyond what the expectation itself allows.

Texts are messages (`grader.messages.msg`), shown in the reader's language: `verdict`,
`judge_outcome` and `error_message` take `lang` and render every message once, there.
"""

import math
import re
from dataclasses import asdict, dataclass, field

from grader.messages import fmt, from_data, msg, render, to_data
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
    label: str = ""  # what the learner calls the list, when its name is a key, not a word


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
    label: str = ""  # what the learner calls the order, when its name is a key, not a word


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


def _where(setup, lang):
    """ " (the inputs)" after a message, or nothing."""
    return f" ({render(setup, lang)})" if setup else ""


def _then(message, hint, lang):
    """The message as a sentence, then the hint (if any)."""
    hint = render(hint, lang)
    return f"{message}. {hint}" if hint else message + "."


def _judge_number(want, values, hint, lang):
    got = values.get(want.key)
    if got is None:
        nothing = render(msg("{name}: no value came back.", name=want.label or want.key), lang)
        return f"{nothing} {render(hint, lang)}".strip()
    if close(got, want.value, want.tol):
        return None
    message = render(
        msg(
            "{name} is {got}, expected {expected}",
            name=want.label or want.key,
            got=fmt(got),
            expected=fmt(want.value),
        ),
        lang,
    ) + _where(want.setup, lang)
    advice = _one_advice(
        render(advice, lang) for bug_value, advice in want.bugs if close(got, bug_value, want.tol)
    )
    if advice:
        return _more(f"{message}: {advice}", render(want.more, lang))
    return _more(_then(message, hint, lang), render(want.more, lang))


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


INCOMPLETE = msg("no complete answer came back")


def _received_list(name, values, longest):
    """The list sent as len(name), name[i]; or (None, why) when it did not come back whole.

    The length is the child's word: it is believed only up to `longest` items.
    """
    n = values.get(f"len({name})")
    if not _whole(n) or n < 0:
        return None, INCOMPLETE
    if n > longest:
        return None, msg("it has {count} items, far more than the answer's", count=int(n))
    items = [values.get(f"{name}[{i}]") for i in range(int(n))]
    if not all(_whole(x) for x in items):
        return None, INCOMPLETE
    return [int(x) for x in items], ""


def _show(items, text):
    if text:
        shown = repr("".join(chr(i) if 0 <= i < 0x110000 else "?" for i in items))
    else:
        shown = repr(items)
    return shown if len(shown) <= MAX_TEXT else shown[: MAX_TEXT - 3] + "..."


def _without(codes, ignore):
    return [c for c in codes if not (0 <= c < 0x110000 and chr(c) in ignore)]


def _judge_list(want, values, lang):
    expected = list(want.items)
    longest = max([len(expected)] + [len(bug) for bug, _ in want.bugs]) + EXTRA_ITEMS
    got, why = _received_list(want.name, values, longest)
    where = _where(want.setup, lang)
    if got is None:
        name = render(want.label or want.name, lang)
        return f"{name}: {render(why, lang)}{where}. {render(want.hint, lang)}".strip()
    if got == expected:
        return None
    message = (
        render(
            msg(
                "{name} is {got}, expected {expected}",
                name=want.label or want.name,
                got=_show(got, want.text),
                expected=_show(expected, want.text),
            ),
            lang,
        )
        + where
    )
    advice = _one_advice(render(advice, lang) for bug, advice in want.bugs if got == list(bug))
    if advice is None:
        advice = _one_advice(
            render(advice, lang)
            for ignore, advice in want.alike
            if _without(got, ignore) == _without(expected, ignore)
        )
    if advice:
        return f"{message}: {advice}"
    return _then(message, want.hint, lang)


ORDER_ADVICE = {
    "only the output": msg("only the output is in the list: visit the children too"),
    "missing": msg("visit every child of every node you list"),
    "foreign": msg("list the Values the output was built from, nothing else"),
    "twice": msg("a node reached twice must be listed once: remember the nodes you visited"),
    "late": msg("append a node only after all of its children are appended"),
    "last": msg("the output itself must come last: append a node after its children"),
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
        problem = msg(
            "{missing} of its {count} nodes are missing from the order",
            missing=missing,
            count=len(needed),
        )
        return problem, key
    foreign = sum(1 for i in got if i not in needed)
    if foreign:
        problem = msg(
            "the order holds {count} item(s) the output does not depend on", count=foreign
        )
        return problem, "foreign"
    if len(got) != len(needed):
        return _order_length(len(got), len(needed)), "twice"
    late = sum(1 for v in want.needed for c in want.children[v] if first[c] > first[v])
    if late:
        return msg("{count} node(s) are listed before one of their children", count=late), "late"
    if got[-1] != want.root:
        return msg("the output is not last in the order"), "last"
    return None


def _order_length(got, expected):
    return msg("the length of the order is {got}, expected {expected}", got=got, expected=expected)


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


def _judge_order(want, values, hint, lang):
    # past this many positions the child sends the length alone (runners/lists.py)
    longest = min(4 * len(want.children) + EXTRA_ITEMS, PACK_MOST)
    where = _where(want.setup, lang)
    incomplete = f"{render(want.label or want.name, lang)}: {render(INCOMPLETE, lang)}{where}."
    n = values.get(f"len({want.name})")
    if not _whole(n) or n < 0:
        return f"{incomplete} {render(hint, lang)}".strip()
    if n > longest:
        problem, key = _order_length(int(n), len(want.needed)), "twice"
    else:
        got = _received_packed(want.name, values, int(n))
        if got is None:
            return f"{incomplete} {render(hint, lang)}".strip()
        found = _order_problem(want, got)
        if found is None:
            return None
        problem, key = found
    advice = render(want.advice.get(key) or ORDER_ADVICE[key], lang)
    return f"{render(problem, lang)}{where}: {advice}. {render(hint, lang)}".strip()


PASSED = msg("passed")  # a passing case's message (the page and a notebook show it)


def verdict(expectation, values, lang="en"):
    """(passed, message): do the received `values` ({key: float}) meet `expectation`?

    The message, in `lang`, names the first wrong number or list, the inputs, the expected
    and received values and, when the received values match a known bug, that bug.
    """
    for want in expectation.wants:
        if isinstance(want, WantList):
            message = _judge_list(want, values, lang)
        elif isinstance(want, WantOrder):
            message = _judge_order(want, values, expectation.hint, lang)
        else:
            message = _judge_number(want, values, expectation.hint, lang)
        if message is not None:
            return False, _diagnose(expectation.patterns, values, message, lang)
    return True, render(PASSED, lang)


def _diagnose(patterns, values, message, lang):
    """The message with the advice of the one pattern the values match (see _one_advice)."""
    matched = [
        p for p in patterns if all(close(values.get(k), v, p.tol) for k, v in p.match.items())
    ]
    if len({render(p.advice, lang) for p in matched}) != 1:
        return message
    advice = render(matched[0].advice, lang)
    if matched[0].replace:
        return advice
    if advice in message:  # the wrong number alone named the same bug
        return message
    return message.rstrip(".") + f": {advice}."


# The child's own words for an exception (grader/runners/__init__.py, `describe_error`)
_CHILD_WORDS = {
    ("SystemExit", "your code called sys.exit() or exit()"): msg(
        "your code called sys.exit() or exit()"
    ),
    ("Exception", "(the exception could not be printed)"): msg(
        "(the exception could not be printed)"
    ),
}


# A stub's own words (grader/README.md, "The stub"): "Day 4: write one_step." or "Day 8:
# build __neg__ from *.", then where to read (grader/lessons.py says that as the site does).
# The day as the stubs write it, in ASCII digits without a leading zero ("Day ٤" or
# "Day 04" is the learner's own text, shown as written).
_STUB_TASK = re.compile(
    r"Day ([1-9][0-9]*): (write|build) (.+?)\.((?: Read docs/lessons/.*)?)", re.S
)
_BACKWARD_OF = re.compile(r"_backward of (\S+)")
_BUILT_FROM = re.compile(r"(\S+) from (\S+)(?: and (\S+))?")


def _stub_task(text, lang):
    """A stub's "Day N: write ..." in `lang`; any other text of the learner's as it is."""
    found = _STUB_TASK.fullmatch(text)
    if not found:
        return text
    day, verb, what, rest = int(found[1]), found[2], found[3], found[4]
    if verb == "write":
        backward = _BACKWARD_OF.fullmatch(what)
        name = msg("_backward of {op}", op=backward[1]) if backward else what
        task = msg("Day {day}: write {name}.", day=day, name=name)
    else:
        built = _BUILT_FROM.fullmatch(what)
        if not built:
            return text
        parts = msg("{a} and {b}", a=built[2], b=built[3]) if built[3] else built[2]
        task = msg("Day {day}: build {name} from {parts}.", day=day, name=built[1], parts=parts)
    return render(task, lang) + rest


def error_message(error, filename, lang="en"):
    """Turn an error record from the child (`runners.describe_error`) into a message."""
    kind, text, line = error["type"], error["message"], error["line"]
    where = _where(msg("line {line} of {file}", line=line, file=filename), lang) if line else ""
    if kind == "NotImplementedError":
        written = render(msg("not written yet"), lang)
        return f"{written}{where}: {_stub_task(text, lang)}" if text else f"{written}{where}."
    if kind == "RecursionError":
        deep = msg(
            "the graph is deeper than Python's recursion limit allows your code to go; "
            "use an explicit stack instead of recursion."
        )
        return f"RecursionError{where}: {render(deep, lang)}"
    raised = render(msg("your code raised {kind}", kind=kind), lang)
    return f"{raised}{where}: {render(_CHILD_WORDS.get((kind, text), text), lang)}"


def _named(expectation, key):
    """`key` as the learner reads it: the label of the number with that key, if it has one
    that says the key in English (so the English message is the key, as ever)."""
    for want in expectation.wants:
        label = getattr(want, "label", "")
        if getattr(want, "key", None) == key and label and render(label) == key:
            return label
    return key


# What the child says instead of a number (grader/runners/__init__.py, `execute`), as words
# to translate; anything else (a child that says something of its own) is shown as it is.
_CAME_BACK = [
    (re.compile(r"a bool \((True|False)\)"), lambda m: msg("a bool ({value})", value=m[1])),
    (
        re.compile(r"a float subclass \((.*)\)", re.S),
        lambda m: msg("a float subclass ({name})", name=m[1]),
    ),
    (re.compile(r"an int too large for a float"), lambda m: msg("an int too large for a float")),
    (re.compile(r"a (.*) object", re.S), lambda m: msg("a {name} object", name=m[1])),
]


def _what_came_back(reason):
    for pattern, said in _CAME_BACK:
        match = pattern.fullmatch(reason)
        if match:
            return said(match)
    return reason


def judge_outcome(expectation, outcome, filename, lang="en"):
    """(passed, message in `lang`) for what came back from running a case: numbers or an error."""
    if "error" in outcome:
        return False, error_message(outcome["error"], filename, lang)
    invalid = outcome.get("invalid") or {}
    if invalid:
        key = sorted(invalid)[0]
        not_float = msg(
            "{name} is {value}, not a plain float: keep .data and .grad as floats "
            "(return loss.data, not the Value loss).",
            name=_named(expectation, key),
            value=_what_came_back(str(invalid[key])),
        )
        return False, render(not_float, lang)
    return verdict(expectation, outcome["values"], lang)


# -- as JSON, for the page ---------------------------------------------------------------


def to_json(expectation):
    """The expectation as JSON-ready data (the site ships the public cases' ones); its
    messages as {"msg": id, "values": {...}}, rendered on the page in its language."""
    wants = []
    for want in expectation.wants:
        kind = {WantList: "list", WantOrder: "order"}.get(type(want), "number")
        wants.append({"kind": kind, **to_data(asdict(want))})
    return {
        "wants": wants,
        "hint": to_data(expectation.hint),
        "patterns": [to_data(asdict(p)) for p in expectation.patterns],
    }


def from_json(data):
    data = from_data(data)
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
