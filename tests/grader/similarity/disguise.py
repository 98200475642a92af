"""Ways a learner might copy code: disguise a file, or paste the engine's functions into a stub.

Used by tests/grader/test_similarity.py and by measure.py; neither needs the result to run.
"""

import ast
import re
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "engine"


def _assigned_names(tree):
    """Names the file binds itself (assignments, loop targets, arguments), not the defs."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg) and node.arg != "self":
            names.add(node.arg)
    return names


def rename(text, suffix="_val"):
    """Every name the file binds gets another name (`x` -> `x_val`), so it still runs."""
    for name in sorted(_assigned_names(ast.parse(text)), key=len, reverse=True):
        text = re.sub(rf"(?<![.\w]){re.escape(name)}\b(?![\"'])", f"{name}{suffix}", text)
    return text


def recomment(text):
    """Drop the comment-only lines and add other comments and blank lines."""
    out = []
    for number, line in enumerate(text.splitlines()):
        if line.strip().startswith("#"):
            continue
        out.append(line)
        if number % 4 == 3 and line.strip() and not line.rstrip().endswith(("(", ",", "\\")):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}# checked this step")
            out.append("")
    return "\n".join(out) + "\n"


def reorder(text):
    """The module's top-level functions in reverse order (the rest stays in place)."""
    lines = text.splitlines(keepends=True)
    tree = ast.parse(text)
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)]
    if len(defs) < 2:
        return text
    spans = [(_first_line(n) - 1, n.end_lineno) for n in defs]
    blocks = ["".join(lines[a:b]) for a, b in spans]
    head, tail = "".join(lines[: spans[0][0]]), "".join(lines[spans[-1][1] :])
    return head + "\n\n".join(reversed(blocks)) + tail


def _first_line(node):
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


def disguise(text):
    """A renamed copy: names changed, comments and blank lines changed, functions reordered."""
    return reorder(recomment(rename(text)))


# -- pasting the engine --------------------------------------------------------------------


def engine_functions():
    """{function or method name: (engine module file name, source)}, first definition wins."""
    found = {}
    for path in sorted(ENGINE.glob("*.py")):
        text = path.read_text()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and node.name not in found:
                source = ast.get_source_segment(text, node, padded=True)
                found[node.name] = (path.name, textwrap.dedent(source))
    return found


def _written_by_learner(node):
    """True for a def of the stub whose body raises NotImplementedError."""
    return any(
        isinstance(n, ast.Raise) and "NotImplementedError" in ast.unparse(n) for n in ast.walk(node)
    )


def paste_engine(stub_text, wanted=None):
    """The stub with each function the learner writes replaced by the engine's of that name.

    Returns (text, set of engine module names used); `wanted` limits the functions pasted.
    """
    engine = engine_functions()
    lines = stub_text.splitlines(keepends=True)
    tree = ast.parse(stub_text)
    targets = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef)
        and n.name in engine
        and (wanted is None or n.name in wanted)
        and _written_by_learner(n)
        and n.name != "_backward"
    ]
    used = set()
    for node in sorted(targets, key=lambda n: n.lineno, reverse=True):
        module, source = engine[node.name]
        indent = " " * node.col_offset
        pasted = textwrap.indent(source, indent)
        first, last = _first_line(node) - 1, node.end_lineno
        lines[first:last] = [pasted.rstrip("\n") + "\n"]
        used.add(module)
    return "".join(lines), used


# -- a class to time -----------------------------------------------------------------------


def synthetic_class(size, references, honest):
    """{learner: {exercise: bytes}}: `size` learners, each file a variant of a reference or
    of an honest solution (names, comments, order and one line of the learner's own differ)."""
    submissions = {}
    for n in range(size):
        files = {}
        for name, text in references.items():
            base = honest.get(name, text) if n % 3 == 0 else text
            variant = recomment(rename(base, f"_{n}"))
            variant = reorder(variant) if n % 2 else variant
            files[name] = (variant + f"\nchecked = [{n}] * {n % 7 + 1}\n").encode()
        submissions[f"learner{n:03d}"] = files
    return submissions
