"""The copy test: no exercise can be passed by copying code from its own lesson page.

The *answer* of an exercise is the body of each function the learner writes: every
function whose body in the stub (exercises/dayNN_slug.py) is only `raise
NotImplementedError(...)` (after its docstring), as the reference (solutions/dayNN_slug.py)
fills it in. The *page's code* is every code fence of the day's page that parses as Python
(the ```pyodide cells, the ```torch blocks, a fence in a question's text) outside the
```exercise block, whose hints may give pieces of the answer away, one at a time, on
request.

Code is compared as normalised syntax trees, so layout, comments, docstrings and the names
of variables do not matter. A *variable* is any name that is neither a builtin nor bound by
an `import`, `def` or `class` of the reference or of any fence of the page; arguments are
variables. Constants, attribute names (`.grad`, `.exp()`), keyword names and calls to
functions by name (`softmax(...)`, `zip(...)`) are kept as written.

A *run* is one statement or several consecutive statements of one block of the page's code:
a cell's top level, the body of a function under any name, of a loop, of an `if`. A page
shows an answer when

1. **Same body.** Some run equals the answer with variables renamed canonically (`v0`,
   `v1`, ... in order of first appearance). Top-level code cannot `return`, so the
   answer's final `return E` also matches a last statement `name = E` or `E` alone, and a
   final `return name` may be missing from the run (the result stays in a variable). An
   answer of one statement counts only if it is not trivial (at least MIN_NODES syntax
   nodes, so `return self * -1` and `return out` do not), unless the run is a whole
   function body: a function on the page whose body is the answer is a copy however short.
2. **Near copy.** For an answer of at least two statements (nested ones count; its final
   `return` read as in 1): with every variable erased (all become `_`), some run and the
   answer differ by at most one simple statement, present in one and missing from the
   other at any depth, and share at least two statements. This catches a loop shown with
   one extra line (day 17 counted bigrams with `ids = tok.encode(name)` inside the very
   loop the exercise asks for, which takes the ids directly), a body shown but for one
   line, and variables renamed inconsistently. Erasing is coarser than renaming, so it is
   used only on a structure of two statements or more, which a different algorithm does
   not share: other statements, another order, another expression all pass.

A second, older check is kept because it sees what the syntax trees do not (prose, inline
code, `Try this` tips, the `check:` code of question blocks, which the site does not show
but the page's source does): no long line of an answer appears as text on the page outside
the exercise block. Lines are compared with whitespace normalised and comments dropped;
lines the stub already has, lines under 20 characters, block openers (ending in a colon),
the `for` and `if` clauses of a comprehension on lines of their own, docstrings, calls with
no arguments and assignments of empty containers or zeros are ignored as too common to mean
anything, and ALLOWED lists the few lines a page must show, with the reason.
"""

import ast
import builtins
import copy
import functools
import re
import textwrap

import pytest

from tests.lessons.pages import ROOT, lesson_paths

SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"
_EXERCISE_FENCE = re.compile(r"^([ \t]*)```exercise\b.*?^\1```[ \t]*$", re.S | re.M)
# Any fence, indented or not (inside an admonition or a content tab).
_ANY_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```(?P<name>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.S | re.M,
)
_NOT_CODE = {"exercise", "question", "explorer", "model-explorer"}
MIN_LENGTH = 20  # the line check: shorter lines are too common to mean anything
MIN_NODES = 8  # a one-statement answer with fewer syntax nodes is too common to mean anything
_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_BUILTINS = frozenset(dir(builtins))


# ---------------------------------------------------------------------------------------
# Normalised syntax trees


def _is_docstring(statement):
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _statements(block):
    """A block's statements, without docstrings and bare strings."""
    return [s for s in block if not _is_docstring(s)]


def kept_names(tree):
    """The names that are not variables: builtins and what `tree` imports or defines."""
    kept = set(_BUILTINS)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            kept.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                kept.add((alias.asname or alias.name).split(".")[0])
    return frozenset(kept)


class _Rename(ast.NodeTransformer):
    """Rename variables: canonically (`v0`, `v1`, ... by first appearance) or all to `_`."""

    def __init__(self, kept, erase):
        self.kept, self.erase, self.names = kept, erase, {}

    def _new(self, name):
        if self.erase:
            return "_"
        return self.names.setdefault(name, f"v{len(self.names)}")

    def visit_Name(self, node):
        if node.id not in self.kept:
            node.id = self._new(node.id)
        return node

    def visit_arg(self, node):
        node.arg = self._new(node.arg)
        node.annotation = None
        return node

    def visit_ExceptHandler(self, node):
        if node.name:
            node.name = self._new(node.name)
        return self.generic_visit(node)

    def visit_Global(self, node):
        node.names = [self._new(n) for n in node.names]
        return node

    visit_Nonlocal = visit_Global

    def visit_Expr(self, node):
        return None if _is_docstring(node) else self.generic_visit(node)


def _strip_docstrings(statements):
    """A deep copy of the statements with every docstring and bare string removed."""
    out = []
    for statement in _statements(statements):
        statement = copy.deepcopy(statement)
        for node in ast.walk(statement):
            for field in _BLOCK_FIELDS:
                block = getattr(node, field, None)
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                    setattr(node, field, _statements(block) or [ast.Pass()])
        out.append(statement)
    return out


def canonical(statements, kept):
    """The dump of a run of statements with its variables renamed canonically."""
    module = ast.Module(body=_strip_docstrings(statements), type_ignores=[])
    return ast.dump(_Rename(kept, erase=False).visit(module))


def erased(statement, kept, memo=None):
    """A statement as (header, blocks): variables erased, nested blocks as trees of their own.

    The header is the statement's dump with its nested blocks emptied, so two compound
    statements with the same header differ only in what their blocks hold. `memo` (by
    node id) spares a block's statements from being erased again as part of each block
    that holds them.
    """
    if memo is not None and id(statement) in memo:
        return memo[id(statement)]
    head, blocks = copy.copy(statement), []
    for field in _BLOCK_FIELDS:
        block = getattr(statement, field, None)
        if isinstance(block, list) and block:
            # statements, or except handlers and match cases (each a header with a body)
            parts = _statements(block) if isinstance(block[0], ast.stmt) else block
            blocks.append(tuple(erased(part, kept, memo) for part in parts))
            setattr(head, field, [])
    head = _Rename(kept, erase=True).visit(copy.deepcopy(head))
    tree = ast.dump(head), tuple(blocks)
    if memo is not None:
        memo[id(statement)] = tree
    return tree


def erased_block(statements, kept, memo=None):
    return tuple(erased(s, kept, memo) for s in _statements(statements))


@functools.cache
def size(tree):
    """How many statements an erased tree holds, nested ones included."""
    _, blocks = tree
    return 1 + sum(size(t) for block in blocks for t in block)


@functools.lru_cache(maxsize=100_000)
def deletions(answer, run, budget=1):
    """The fewest statements to delete from `run` (at any depth) to make it `answer`.

    Both are tuples of erased trees; more than `budget` is reported as budget + 1.
    """
    worse = budget + 1
    n, m = len(answer), len(run)
    if m < n:
        return worse
    # best[i][j]: deletions to turn run[:j] into answer[:i]
    best = [[worse] * (m + 1) for _ in range(n + 1)]
    best[0][0] = 0
    for j in range(1, m + 1):
        best[0][j] = min(worse, best[0][j - 1] + size(run[j - 1]))
    for i in range(1, n + 1):
        for j in range(i, m + 1):
            drop = best[i][j - 1] + size(run[j - 1])
            keep = best[i - 1][j - 1] + _pair(answer[i - 1], run[j - 1], budget)
            best[i][j] = min(worse, drop, keep)
    return best[n][m]


def _pair(a, b, budget):
    (head_a, blocks_a), (head_b, blocks_b) = a, b
    if head_a != head_b or len(blocks_a) != len(blocks_b):
        return budget + 1
    return sum(deletions(x, y, budget) for x, y in zip(blocks_a, blocks_b))


def _node_count(statement):
    return sum(1 for node in ast.walk(statement) if not isinstance(node, ast.expr_context))


# ---------------------------------------------------------------------------------------
# Answers and page code


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


def _is_stub(function):
    body = _statements(function.body)
    return (
        len(body) == 1
        and isinstance(body[0], ast.Raise)
        and isinstance(body[0].exc, ast.Call)
        and getattr(body[0].exc.func, "id", None) == "NotImplementedError"
    )


def answers(solution, stub):
    """{qualified name: body statements} of the functions the learner writes."""
    stub_functions = _functions(ast.parse(stub))
    written = {name for name, function in stub_functions.items() if _is_stub(function)}
    return {
        name: _statements(function.body)
        for name, function in _functions(ast.parse(solution)).items()
        if name in written
    }


def code_fences(markdown):
    """The parsed Python of every code fence, also one shown inside a question's text."""
    trees = []
    for m in _ANY_FENCE.finditer(markdown):
        if m["name"] in _NOT_CODE:
            trees += code_fences(m["body"])  # a question's `check:` is no fence: not shown
            continue
        try:
            trees.append(ast.parse(textwrap.dedent(m["body"])))
        except SyntaxError:
            continue  # not Python: a table, a shell line, a diagram
    return trees


def blocks(trees, kept):
    """Every block of statements in the trees (each top level and each nested body) as a
    Block: its statements and erased trees, the same for each statement's result form
    (None where it has none), and whether it is a function's whole body."""
    found = []
    for tree in trees:
        found.append((_statements(tree.body), False))
        for node in ast.walk(tree):
            for field in _BLOCK_FIELDS:
                block = getattr(node, field, None)
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                    whole = field == "body" and isinstance(
                        node, (ast.FunctionDef, ast.AsyncFunctionDef)
                    )
                    found.append((_statements(block), whole))
    out, memo = [], {}
    for block, whole in found:
        results = [_result(s, page=True) for s in block]
        result_trees = [erased(r, kept) if r else None for r in results]
        out.append((block, erased_block(block, kept, memo), results, result_trees, whole))
    return out


def _result(statement, page):
    """The value a statement leaves as its result, as a statement of its own: E for
    `return E`, and on the page also for `name = E` and for E alone; else None."""
    value = None
    if isinstance(statement, ast.Return):
        value = statement.value
    elif page and isinstance(statement, ast.Expr) and not _is_docstring(statement):
        value = statement.value
    elif page and isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        value = statement.value if isinstance(statement.targets[0], ast.Name) else None
    if value is None or (isinstance(value, ast.Constant) and isinstance(value.value, str)):
        return None  # nothing, or a string: an Expr of it would read as a docstring
    return ast.Expr(value=value)


def _variants(body, kept):
    """(statements, whether the last one is a result form) for the answer; for the answer
    without a final `return name` (top-level code leaves its result in a variable instead);
    and for the answer ending in E instead of `return E` (top-level code writes `name = E`)."""
    variants = [(body, False)]
    last = body[-1] if body else None
    if not isinstance(last, ast.Return) or last.value is None:
        return variants
    if len(body) > 1 and isinstance(last.value, ast.Name) and last.value.id not in kept:
        variants.append((body[:-1], False))
    variants.append((body[:-1] + [_result(last, page=False)], True))
    return variants


def _run(block, trees, results, result_trees, start, width, result):
    """The statements and erased trees of a run; with `result`, its last statement in its
    result form (None if it has none)."""
    end = start + width
    if not result:
        return block[start:end], tuple(trees[start:end])
    if results[end - 1] is None:
        return None, None
    return block[start : end - 1] + [results[end - 1]], trees[start : end - 1] + (
        result_trees[end - 1],
    )


def shown(body, answer_kept, page_blocks, page_kept):
    """How the page shows an answer body: a description of the first match, or None."""
    variants = []
    for variant, result in _variants(body, answer_kept):
        answer = erased_block(variant, answer_kept)
        variants.append((variant, result, answer, sum(map(size, answer)) == 1))
    for variant, result, answer, single in variants:
        n = len(variant)
        trivial = single and _node_count(variant[0]) < MIN_NODES
        target = canonical(variant, answer_kept)
        for block, trees, results, result_trees, whole in page_blocks:
            for start in range(len(block) - n + 1):
                if trivial and not (whole and n == len(block)):
                    continue
                run, run_trees = _run(block, trees, results, result_trees, start, n, result)
                if run_trees == answer and canonical(run, page_kept) == target:
                    return "the same body:\n" + ast.unparse(block[start : start + n])
    for variant, result, answer, single in variants:
        if single:
            continue
        n = len(variant)
        for block, trees, results, result_trees, _ in page_blocks:
            for width in (n - 1, n, n + 1):
                for start in range(max(0, len(block) - width + 1)):
                    if not width:
                        continue
                    _, run_trees = _run(block, trees, results, result_trees, start, width, result)
                    if run_trees is not None and near(answer, run_trees):
                        run = block[start : start + width]
                        return "a near copy (one statement more or less):\n" + ast.unparse(run)
    return None


def near(answer, run):
    """Whether two erased runs differ by one simple statement at most (one has it, the
    other not) and share at least two statements."""
    if sum(map(size, run)) < 2:
        return False
    return deletions(answer, run) <= 1 or deletions(run, answer) <= 1


def copies(markdown, solution, stub):
    """{qualified name: how the page shows it} for every answer body the page shows."""
    page = _EXERCISE_FENCE.sub("", markdown)
    trees = code_fences(page)
    # One set of names for both sides: a function the reference defines and the page only
    # calls (or the other way round) is a function on both.
    kept = kept_names(ast.parse(solution)).union(*(kept_names(t) for t in trees))
    page_blocks = blocks(trees, kept)
    found = {}
    for name, body in answers(solution, stub).items():
        how = shown(body, kept, page_blocks, kept)
        if how:
            found[name] = how
    return found


# ---------------------------------------------------------------------------------------
# The line check


def _normalise(line):
    line = (
        line.split("#", 1)[0] if "#" in line and not re.search(r"[\"'].*#.*[\"']", line) else line
    )
    return " ".join(line.split())


def _body_lines(source, function):
    lines = source.splitlines()
    body = function.body
    if body and _is_docstring(body[0]):
        body = body[1:]
    if not body:
        return []
    return lines[body[0].lineno - 1 : function.end_lineno]


def answer_lines(name):
    """The non-trivial normalised lines the learner has to write for exercise `name`."""
    solution = (SOLUTIONS / name).read_text(encoding="utf-8")
    stub = (EXERCISES / name).read_text(encoding="utf-8")
    given = {_normalise(line) for line in stub.splitlines()}
    stub_functions = _functions(ast.parse(stub))
    found = []
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
            found.append(text)
    return list(dict.fromkeys(found))


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


# ---------------------------------------------------------------------------------------
# The tests

# Every page with an exercise block (a placeholder page has none: it is checked once written).
PAGES = [p for p in lesson_paths() if _EXERCISE_FENCE.search(p.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("path", PAGES, ids=[p.stem for p in PAGES])
def test_no_answer_body_is_on_its_own_page(path):
    name = f"{path.stem}.py"
    found = copies(
        path.read_text(encoding="utf-8"),
        (SOLUTIONS / name).read_text(encoding="utf-8"),
        (EXERCISES / name).read_text(encoding="utf-8"),
    )
    assert not found, f"{path.name} shows the answer to its exercise:\n" + "\n\n".join(
        f"{function}: {how}" for function, how in found.items()
    )


@pytest.mark.parametrize("path", PAGES, ids=[p.stem for p in PAGES])
def test_no_answer_line_is_on_its_own_page(path):
    lines = page_lines(path)
    allowed = ALLOWED.get(f"{path.stem}.py", {})
    found = [a for a in answer_lines(f"{path.stem}.py") if a not in allowed]
    copied = [a for a in found if any(a in line for line in lines)]
    assert not copied, f"{path.name} shows lines of its own reference solution:\n" + "\n".join(
        copied
    )


@pytest.mark.parametrize("path", PAGES, ids=[p.stem for p in PAGES])
def test_a_page_showing_its_reference_fails(path):
    """The body check can fail on every day: a page that showed the reference would."""
    solution = (SOLUTIONS / f"{path.stem}.py").read_text(encoding="utf-8")
    stub = (EXERCISES / f"{path.stem}.py").read_text(encoding="utf-8")
    assert answers(solution, stub)
    assert set(copies(fence(solution, "python"), solution, stub)) == set(answers(solution, stub))


def test_the_answer_lines_are_found():
    """The line check can fail: day 19's reference has answer lines, and they are what it writes."""
    found = answer_lines("day19_softmax.py")
    assert "exps = [(z - top).exp() for z in logits]" in found
    assert "return -softmax(logits)[target].log()" in found


# ---------------------------------------------------------------------------------------
# The rule itself, on frozen examples (not on the live pages, which change)

STUB = """
def count_bigrams(sequences, vocab_size):
    \"\"\"N[a][b] = how many times b follows a.\"\"\"
    raise NotImplementedError("write count_bigrams")


def draw(row, u):
    raise NotImplementedError("write draw")


def one_hot(token, vocab_size):
    raise NotImplementedError("write one_hot")


def given(x):
    return x + 1
"""

SOLUTION = """
def count_bigrams(sequences, vocab_size):
    \"\"\"N[a][b] = how many times b follows a.\"\"\"
    N = [[0] * vocab_size for _ in range(vocab_size)]
    for ids in sequences:
        for a, b in zip(ids, ids[1:]):
            N[a][b] += 1
    return N


def draw(row, u):
    running = 0.0
    for j, p in enumerate(row):
        running += p
        if u < running:
            return j
    return len(row) - 1


def one_hot(token, vocab_size):
    return [1.0 if i == token else 0.0 for i in range(vocab_size)]


def given(x):
    return x + 1
"""

# Day 17's page before this test (its counting cell and the start of its sampling cell).
DAY17_BEFORE = """
```pyodide
from engine.data import load_names
from engine.tokenizer import Tokenizer

names = load_names()
tok = Tokenizer.from_text(names)
V, BOS = tok.vocab_size, tok.bos

N = [[0] * V for _ in range(V)]
for name in names:
    ids = tok.encode(name)
    for a, b in zip(ids, ids[1:]):
        N[a][b] += 1

total = sum(map(sum, N))
print(total, "pairs counted")
```

```pyodide
import random

P = [[n / sum(row) for n in row] for row in N]

def draw(row, u):
    \"\"\"The first token whose running total passes u.\"\"\"
    running = 0.0
    for j, p in enumerate(row):
        running += p
        if u < running:
            return j
    return len(row) - 1                    # u just below 1 and a rounding shortfall
```
"""


def fence(code, name="pyodide"):
    return f"```{name}\n{textwrap.dedent(code).strip()}\n```\n"


def test_day17_as_it_was_shows_both_loops():
    found = copies(DAY17_BEFORE, SOLUTION, STUB)
    assert set(found) == {"count_bigrams", "draw"}
    assert found["count_bigrams"].startswith("a near copy")  # one extra line: the encode
    assert found["draw"].startswith("the same body")


def test_only_the_functions_the_learner_writes_are_answers():
    assert set(answers(SOLUTION, STUB)) == {"count_bigrams", "draw", "one_hot"}
    assert not copies(fence("def given(y):\n    return y + 1"), SOLUTION, STUB)


def test_a_renamed_copy_under_another_name_is_found():
    page = fence(
        """
        def pick(weights, x):
            # walk the weights
            acc = 0.0
            for k, w in enumerate(weights):
                acc = acc + w if False else acc
                acc += w
                if x < acc:
                    return k
            return len(weights) - 1
        """
    )
    # one extra statement inside the loop: a near copy
    assert copies(page, SOLUTION, STUB)["draw"].startswith("a near copy")
    exact = re.sub(r"\n *acc = acc \+ w if False else acc", "", page)
    assert exact != page
    assert copies(exact, SOLUTION, STUB)["draw"].startswith("the same body")


def test_a_loop_at_top_level_is_found():
    page = fence(
        """
        table = [[0] * size for _ in range(size)]
        for seq in data:
            for x, y in zip(seq, seq[1:]):
                table[x][y] += 1
        print(table)
        """
    )
    assert copies(page, SOLUTION, STUB)["count_bigrams"].startswith("the same body")
    # without the line that makes the table, the loop is still all but one line of the body
    assert copies(page.replace("27", "V"), SOLUTION, STUB)
    loop_only = page[page.index("for seq") :]
    assert copies("```pyodide\n" + loop_only, SOLUTION, STUB)["count_bigrams"].startswith(
        "a near copy"
    )


def test_a_body_shown_but_for_one_line_is_found():
    page = fence(
        """
        running = 0.0
        for j, p in enumerate(row):
            running += p
            if u < running:
                return j
        """
    )
    assert set(copies(page, SOLUTION, STUB)) == {"draw"}


def test_a_different_algorithm_passes():
    page = fence(
        """
        from bisect import bisect_right
        from collections import Counter
        from itertools import accumulate

        pairs = Counter()
        for ids in sequences:
            pairs.update(zip(ids, ids[1:]))
        N = [[pairs[a, b] for b in range(V)] for a in range(V)]

        def pick(row, u):
            return min(bisect_right(list(accumulate(row)), u), len(row) - 1)

        hot = [0.0, 1.0, 0.0]
        """
    )
    assert not copies(page, SOLUTION, STUB)


def test_two_extra_statements_are_not_a_near_copy():
    page = fence(
        """
        N = [[0] * V for _ in range(V)]
        for name in names:
            ids = tok.encode(name)
            print(name)
            for a, b in zip(ids, ids[1:]):
                N[a][b] += 1
        """
    )
    assert not copies(page, SOLUTION, STUB)


def test_one_statement_answers():
    shown_whole = fence("def one_hot(x, n):\n    return [1.0 if i == x else 0.0 for i in range(n)]")
    assert set(copies(shown_whole, SOLUTION, STUB)) == {"one_hot"}
    # the same expression at top level is still a copy: it is not trivial
    for line in (
        "hot = [1.0 if k == t else 0.0 for k in range(V)]",
        "[1.0 if k == t else 0.0 for k in range(V)]",
    ):
        assert set(copies(fence(line), SOLUTION, STUB)) == {"one_hot"}
    # another expression is not, nor the same one assigned to an attribute
    assert not copies(fence("hot = [float(i == x) for i in range(n)]"), SOLUTION, STUB)
    assert not copies(fence("m.hot = [1.0 if k == t else 0.0 for k in range(V)]"), SOLUTION, STUB)


def test_a_result_left_in_a_variable_is_a_return():
    stub = "def probabilities(counts, alpha):\n    raise NotImplementedError('write it')\n"
    solution = (
        "def probabilities(counts, alpha):\n"
        "    V = len(counts)\n"
        "    return [[(n + alpha) / (sum(row) + alpha * V) for n in row] for row in counts]\n"
    )
    page = fence(
        """
        V = len(N)
        P = [[(n + 1) / (sum(row) + 1 * V) for n in row] for row in N]
        """
    )
    assert not copies(page, solution, stub)  # a constant 1, not a variable alpha
    page = page.replace("1", "k")
    assert copies(page, solution, stub)["probabilities"].startswith("the same body")


def test_a_trivial_statement_counts_only_as_a_whole_function():
    stub = "def neg(self):\n    raise NotImplementedError\n"
    stub = stub.replace("NotImplementedError", "NotImplementedError('write neg')")
    solution = "def neg(self):\n    return self * -1\n"
    assert not copies(fence("y = 2\nreturn y * -1\n"), solution, stub)
    assert set(copies(fence("def minus(v):\n    return v * -1\n"), solution, stub)) == {"neg"}


def test_the_exercise_block_and_prose_are_not_code():
    page = (
        "Walk the row: `running += p`, then `if u < running: return j`.\n\n"
        + "```exercise\nfile: x.py\nhints:\n  - |\n    ```python\n"
        + textwrap.indent(textwrap.dedent(SOLUTION), "    ")
        + "    ```\n```\n"
    )
    assert not copies(page, SOLUTION, STUB)
    question = "```question\nid: q\nexplain: |\n  Like this:\n\n" + textwrap.indent(
        fence(SOLUTION, "python"), "  "
    )
    assert set(copies(question + "```\n", SOLUTION, STUB)) == {"count_bigrams", "draw", "one_hot"}
    assert set(copies(fence(SOLUTION, "python"), SOLUTION, STUB)) == {
        "count_bigrams",
        "draw",
        "one_hot",
    }
