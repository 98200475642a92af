"""What every exercise's checks share: expected values, judging, small programs of Values.

Pure Python (stdlib only): the same code judges in the trusted grader, runs inside the
sandboxed child and runs in the browser.

A *case* is a JSON-ready dict: `{"kind": ..., "name": ..., "public": bool, "inputs": {...}}`.
The child side (`execute`) runs a case against a learner's module and returns plain
numbers; the trusted side (`judge`) compares them with values it derives from
mathematics. The child never sees an expected value.
"""

import math
import traceback
from dataclasses import dataclass, field

# Add and mul are checked to the last bits; anything with exp, tanh or ** to 1e-9 of
# the closed form; central differences (truncation error ~h^2) to 1e-6.
EXACT = (1e-12, 1e-12)
CLOSED = (1e-9, 1e-12)
NUMERIC = (1e-6, 1e-8)

MAX_TEXT = 300  # characters kept of any learner-controlled text (error messages)


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


def central_difference(f, x, h=1e-5):
    """(f(x + h) - f(x - h)) / 2h: the slope of f at x, from two evaluations."""
    return (f(x + h) - f(x - h)) / (2.0 * h)


@dataclass
class Want:
    """One number a case must produce.

    `bugs` lists (value the number takes under a likely bug, what to tell the learner).
    """

    key: str
    value: float
    tol: tuple = EXACT
    setup: str = ""
    bugs: list = field(default_factory=list)
    label: str = ""  # what the learner calls the number, when the key must be unique


def judge(wants, values, hint=""):
    """Compare received `values` with `wants`; return (passed, message).

    The message names the first wrong number, the inputs, the expected and received
    values and, when the received value matches a known bug, that bug.
    """
    for want in wants:
        got = values.get(want.key)
        if got is None:
            return False, f"{want.key}: no value came back. {hint}".strip()
        if close(got, want.value, want.tol):
            continue
        where = f" ({want.setup})" if want.setup else ""
        message = f"{want.label or want.key} is {fmt(got)}, expected {fmt(want.value)}{where}"
        for bug_value, advice in want.bugs:
            if close(got, bug_value, want.tol):
                return False, f"{message}: {advice}"
        return False, f"{message}. {hint}".strip() if hint else message + "."
    return True, "passed"


# -- the child side: run one case, return plain numbers ---------------------------------


def execute(check, module, case, filename):
    """Run `case` of the exercise `check` against the learner's `module`.

    Returns `{"values": {key: float}, "invalid": {key: reason}}` or `{"error": {...}}`.
    Only exact floats (or ints, widened) go into "values": a bool, a float subclass or
    any other object is reported by type name, never passed on.
    """
    try:
        raw = check.run(module, case)
    except (Exception, SystemExit) as exc:
        return {"error": describe_error(exc, filename)}
    values, invalid = {}, {}
    for key, value in raw.items():
        if type(value) is float:
            values[key] = value
        elif type(value) is int:
            values[key] = float(value)
        else:
            invalid[key] = _type_name(value)
    return {"values": values, "invalid": invalid}


def _type_name(value):
    try:
        name = type(value).__name__
    except Exception:
        name = "?"
    if not isinstance(name, str):
        name = "?"
    if type(value) is bool:
        return f"a bool ({value})"
    if isinstance(value, float):
        return f"a float subclass ({name[:40]})"
    return f"a {name[:40]} object"


def describe_error(exc, filename):
    """What went wrong, for the learner: exception type, message and line in their file."""
    try:
        kind = type(exc).__name__
        text = str(exc)
    except Exception:
        kind, text = "Exception", "(the exception could not be printed)"
    if not isinstance(kind, str) or not isinstance(text, str):
        kind, text = "Exception", "(the exception could not be printed)"
    line = 0
    try:
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename.endswith(filename):
                line = frame.lineno or 0
    except Exception:
        line = 0
    if isinstance(exc, SystemExit):
        kind, text = "SystemExit", "your code called sys.exit() or exit()"
    return {"type": kind[:80], "message": text[:MAX_TEXT], "line": line}


def error_message(error, filename):
    """Turn an error record from `execute` into a message for the learner."""
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


# -- small programs of Values: build them in the child, differentiate them here ---------
#
# {"leaves": [["a", 2.0], ["b", -3.0]], "ops": [["*", 0, 1], ["+", 2, 0]]}
# Node i < len(leaves) is a leaf; every op appends a node; the last node is the output.
# Ops: ["+", i, j] ["*", i, j] ["-", i, j] ["/", i, j] ["+c", i, c] ["*c", i, c]
#      ["pow", i, k] ["exp", i] ["tanh", i] ["relu", i] ["neg", i]


def build(Value, program):
    """Child side: the program's nodes as the learner's Values (call on learner code)."""
    nodes = [Value(x) for _, x in program["leaves"]]
    for op in program["ops"]:
        name, x = op[0], nodes[op[1]]
        if name == "+":
            y = x + nodes[op[2]]
        elif name == "*":
            y = x * nodes[op[2]]
        elif name == "-":
            y = x - nodes[op[2]]
        elif name == "/":
            y = x / nodes[op[2]]
        elif name == "+c":
            y = x + op[2]
        elif name == "*c":
            y = x * op[2]
        elif name == "pow":
            y = x ** op[2]
        elif name == "neg":
            y = -x
        else:  # exp, tanh, relu
            y = getattr(x, name)()
        nodes.append(y)
    return nodes


def ancestors(program):
    """Indices of the nodes the output depends on (the output included)."""
    n_leaves, ops = len(program["leaves"]), program["ops"]
    keep, stack = set(), [n_leaves + len(ops) - 1]
    while stack:
        i = stack.pop()
        if i not in keep:
            keep.add(i)
            if i >= n_leaves:
                op = ops[i - n_leaves]
                stack += [op[1], op[2]] if op[0] in ("+", "*", "-", "/") else [op[1]]
    return keep


def _forward(program, dual_index=None):
    """Values (and, for leaf `dual_index`, exact derivatives) of every node: dual numbers."""
    vals = [x for _, x in program["leaves"]]
    ders = [1.0 if i == dual_index else 0.0 for i in range(len(vals))]
    for op in program["ops"]:
        name, u, du = op[0], vals[op[1]], ders[op[1]]
        if name in ("+", "*", "-", "/"):
            v, dv = vals[op[2]], ders[op[2]]
        if name == "+":
            y, dy = u + v, du + dv
        elif name == "*":
            y, dy = u * v, u * dv + v * du
        elif name == "-":
            y, dy = u - v, du - dv
        elif name == "/":
            y, dy = u / v, (du * v - u * dv) / (v * v)
        elif name == "+c":
            y, dy = u + op[2], du
        elif name == "*c":
            y, dy = u * op[2], du * op[2]
        elif name == "pow":
            k = op[2]
            y, dy = u**k, k * u ** (k - 1) * du
        elif name == "neg":
            y, dy = -u, -du
        elif name == "exp":
            y = math.exp(u)
            dy = y * du
        elif name == "tanh":
            y = math.tanh(u)
            dy = (1.0 - y * y) * du
        elif name == "relu":
            y, dy = (u, du) if u > 0 else (0.0, 0.0)
        else:
            raise ValueError(f"unknown op {name!r}")
        vals.append(y)
        ders.append(dy)
    return vals, ders


def output_value(program):
    return _forward(program)[0][-1]


def leaf_gradients(program):
    """d(output)/d(leaf) for every leaf, each from its own dual-number pass (closed forms)."""
    return [_forward(program, i)[1][-1] for i in range(len(program["leaves"]))]


def _locals(name, op, vals, out):
    """(child index, local derivative) pairs of one op node; `out` is the node's value."""
    u = vals[op[1]]
    if name == "+":
        return [(op[1], 1.0), (op[2], 1.0)]
    if name == "*":
        return [(op[1], vals[op[2]]), (op[2], u)]
    if name == "-":
        return [(op[1], 1.0), (op[2], -1.0)]
    if name == "/":
        v = vals[op[2]]
        return [(op[1], 1.0 / v), (op[2], -u / (v * v))]
    if name == "+c":
        return [(op[1], 1.0)]
    if name == "*c":
        return [(op[1], op[2])]
    if name == "pow":
        return [(op[1], op[2] * u ** (op[2] - 1))]
    if name == "neg":
        return [(op[1], -1.0)]
    if name == "exp":
        return [(op[1], out)]
    if name == "tanh":
        return [(op[1], 1.0 - out * out)]
    return [(op[1], 1.0 if u > 0 else 0.0)]  # relu


def buggy_gradients(program, bug):
    """Leaf gradients as a backward pass with one planted `bug` would compute them.

    `bug` is (op name, mode) with mode "assign" (= for +=), "no_upstream" (out.grad
    dropped), "flip" (sign), "swap" (mul gives each input its own data), "empty";
    or ("backward", "no_seed") / ("backward", "forward_order").
    """
    vals = _forward(program)[0]
    n_leaves, ops = len(program["leaves"]), program["ops"]
    grads = [0.0] * len(vals)
    grads[-1] = 0.0 if bug == ("backward", "no_seed") else 1.0
    indices = range(len(ops))
    if bug != ("backward", "forward_order"):
        indices = reversed(indices)
    for k in indices:
        op, node = ops[k], n_leaves + k
        name, upstream = op[0], grads[node]
        pairs = _locals(name, op, vals, vals[node])
        if name == "*" and bug == ("*", "swap"):
            pairs = [(op[1], vals[op[1]]), (op[2], vals[op[2]])]
        for child, local in pairs:
            share = local * upstream
            mode = bug[1] if bug[0] == name else None
            if mode == "no_upstream":
                share = local
            elif mode == "flip":
                share = -share
            elif mode == "empty":
                share = 0.0
            if mode == "assign":
                grads[child] = share
            else:
                grads[child] += share
    return grads[:n_leaves]


BUG_ADVICE = {
    "assign": "_backward of {op} seems to set .grad with `=`; gradients must accumulate "
    "with `+=`, so a Value used twice collects both shares",
    "no_upstream": "_backward of {op} seems to ignore out.grad; multiply the local "
    "derivative by out.grad (the chain rule)",
    "flip": "the sign in _backward of {op} looks flipped",
    "swap": "_backward of * seems to give each input its own .data; the swapper gives "
    "a the *other* input's data: self.grad += other.data * out.grad",
    "empty": "no gradient arrived through {op}: does its _backward add anything to .grad?",
    "no_seed": "every gradient is 0: set self.grad = 1.0 before running the _backward functions",
    "forward_order": "backward() seems to run the _backward functions from the leaves up; "
    "run them in reversed topological order, from the output down",
}


def diagnose(program, received, tol, modes):
    """The advice for the first planted bug that reproduces every received leaf gradient."""
    names = {op[0] for op in program["ops"]}
    for target, mode in modes:
        if target != "backward" and target not in names:
            continue
        bugged = buggy_gradients(program, (target, mode))
        if all(
            close(received.get(f"{n}.grad"), g, tol) for (n, _), g in zip(program["leaves"], bugged)
        ):
            return BUG_ADVICE[mode].format(op=target)
    return ""


_SYMBOL = {"+": "+", "*": "*", "-": "-", "/": "/", "+c": "+", "*c": "*"}


def describe(program, limit=120):
    """The program as a learner would write it, e.g. "a = 2.0, b = -3.0; out = a * b + a"."""
    texts = [n for n, _ in program["leaves"]]
    for op in program["ops"]:
        name, x = op[0], texts[op[1]]
        if name in ("+", "*", "-", "/"):
            text = f"({x} {name} {texts[op[2]]})"
        elif name in ("+c", "*c"):
            text = f"({x} {_SYMBOL[name]} {op[2]!r})"
        elif name == "pow":
            text = f"{x}**{op[2]!r}"
        elif name == "neg":
            text = f"-{x}"
        else:
            text = f"{x}.{name}()"
        texts.append(text if len(text) <= limit else "…")
    leaves = ", ".join(f"{n} = {fmt(x)}" for n, x in program["leaves"])
    root = texts[-1]
    if root == "…":
        root = f"a graph of {len(program['ops'])} operations"
    elif root.startswith("(") and root.endswith(")"):
        root = root[1:-1]
    return f"{leaves}; out = {root}"


def run_program(module, case):
    """Child side of every "program" case: build, call backward(), read the leaf grads."""
    program = case["inputs"]["program"]
    nodes = build(module.Value, program)
    nodes[-1].backward()
    values = {f"{name}.grad": nodes[i].grad for i, (name, _) in enumerate(program["leaves"])}
    values["out.data"] = nodes[-1].data
    values["out.grad"] = nodes[-1].grad
    return values


def judge_program(case, values, modes, tol=CLOSED):
    """Trusted side of every "program" case: exact gradients, then a diagnosis if wrong."""
    program = case["inputs"]["program"]
    setup = describe(program)
    seed = "backward() must start with out.grad = 1.0 (d out / d out)"
    wants = [Want("out.data", output_value(program), tol, setup)]
    wants.append(Want("out.grad", 1.0, EXACT, setup, [(0.0, seed)]))
    grads = leaf_gradients(program)
    wants += [Want(f"{n}.grad", g, tol, setup) for (n, _), g in zip(program["leaves"], grads)]
    passed, message = judge(wants, values)
    if not passed:
        advice = diagnose(program, values, tol, modes)
        if advice:
            message = message.rstrip(".") + f": {advice}."
    return passed, message


def case(kind, name, public=True, **inputs):
    """A case as the grader stores and sends it."""
    return {"kind": kind, "name": name, "public": public, "inputs": inputs}
