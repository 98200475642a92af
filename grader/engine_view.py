"""The engine an exercise's sandbox holds: the modules it needs, without its answers.

engine/ holds a Neuron, an MLP, SGD and Adam, softmax, attention, rmsnorm, the GPT and
its loss, zero_grad and an iterative backward: what the learner writes from day 7 on.
So each check declares the view of the engine its cases may see (grader/README.md):

    ENGINE = {"value": (), "gpt": ("gpt", "document_loss")}   # module: names hidden

The sandbox then holds engine/__init__.py, engine/errors.py (how the engine's errors name
their page messages) and those modules, each cut as follows, and
every other module of engine/ is a stub whose import raises ImportError.

- A hidden name (a top-level function or class) is cut out of the source, and so is
  every top-level definition that uses it, or that uses a name imported from a hidden
  module (engine.gpt's `evaluate` goes with `document_loss`; `make_optimizer` with
  engine.optim). Importing any of them raises ImportError with a message.
- A hidden method ("Value.backward") becomes an attribute that raises AttributeError.
- Cut lines become blank lines, so tracebacks through the engine keep their numbers.

The messages all read "engine.X.name is not available in this exercise: write it
yourself". Trusted code: it only reads engine/ and builds text; nothing is executed.
"""

import ast
import functools
from pathlib import Path

PACKAGE = "__init__"
ALWAYS = (PACKAGE, "errors")  # staged in every view: engine.errors holds no answer
MESSAGE = "{} is not available in this exercise: write it yourself"


def engine_dir():
    import engine  # trusted: the course's own package

    return Path(engine.__file__).resolve().parent


def view_for(check, case=None):
    """{module: hidden names}: the check's ENGINE_BY_KIND[case kind], else its ENGINE."""
    if case is not None and case.get("kind") in check.ENGINE_BY_KIND:
        return check.ENGINE_BY_KIND[case["kind"]]
    return check.ENGINE


def staged_engine(view):
    """{"engine/<file>.py": bytes} for `view` ({module: hidden names}); {} for no engine."""
    if not view:
        return {}
    folder = engine_dir()
    sources = tuple(sorted((p.stem, p.read_bytes()) for p in folder.glob("*.py")))
    key = tuple(sorted((module, tuple(sorted(hidden))) for module, hidden in view.items()))
    return dict(_build(key, sources))


class ViewError(ValueError):
    """A check's ENGINE declaration names a module or a name the engine does not have."""


@functools.lru_cache(maxsize=64)
def _build(key, sources):
    view, sources = dict(key), dict(sources)
    unknown = set(view) - set(sources) | ({PACKAGE} & set(view))
    if unknown:
        raise ViewError(f"no engine module {sorted(unknown)} (the engine has {sorted(sources)})")
    staged = {*ALWAYS, *view}
    removed = {}  # module -> names that module no longer has

    def build(module, seen=()):
        if module in removed:
            return removed[module]
        if module in seen:
            raise ViewError(f"engine modules import each other in a cycle: {seen}")
        text = sources[module].decode("utf-8")
        cut = _Cut(module, text, set(view.get(module, ())))
        for target in cut.relative_imports():
            if target in staged:
                build(target, seen + (module,))
        removed[module] = cut.apply(staged, removed)
        built[module] = cut.text()
        return removed[module]

    built = {}
    for module in sorted(staged):
        build(module)
    out = []
    for module in sorted(sources):
        name = f"engine/{module}.py"
        if module in built:
            out.append((name, built[module].encode("utf-8")))
        else:
            message = MESSAGE.format(f"engine.{module}")
            out.append((name, f"raise ImportError({message!r})\n".encode()))
    return tuple(out)


def _loaded_names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _first_line(node):
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno] + [d.lineno for d in decorators])


class _Cut:
    """One module's source with some of its top-level statements cut or replaced."""

    def __init__(self, module, text, hidden):
        self.module, self.hidden = module, hidden
        self.qualified = "engine" if module == PACKAGE else f"engine.{module}"
        self.lines = text.split("\n")
        self.tree = ast.parse(text)
        self.gone = set()  # top-level names cut out
        self.methods = {}  # "Class.method" names hidden

    def relative_imports(self):
        """The engine modules this one imports names from (built first)."""
        for node in self.tree.body:
            if isinstance(node, ast.ImportFrom) and node.module:
                source = self._imported_from(node, None)
                if source is not None:
                    yield source

    @staticmethod
    def _imported_from(node, alias):
        """The engine module that `alias` of `from ... import alias` comes from, or None.

        `from .value import Value` -> "value"; `from . import plot` -> "plot";
        `from engine.gpt import gpt` -> "gpt"; `from engine import Value` -> "__init__".
        """
        if node.level == 1:
            return node.module.split(".")[0] if node.module else alias.name
        if node.level == 0 and node.module and node.module.split(".")[0] == "engine":
            parts = node.module.split(".")
            return parts[1] if len(parts) > 1 else PACKAGE
        return None

    def apply(self, staged, removed):
        body = self.tree.body
        defined = {
            n.name: n
            for n in body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        }
        for name in sorted(self.hidden):
            owner, _, method = name.partition(".")
            node = defined.get(owner)
            if node is None or (
                method
                and not any(
                    isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == method
                    for m in getattr(node, "body", [])
                )
            ):
                raise ViewError(f"{self.qualified} has no {name} to hide")
            if method:
                self.methods[name] = node
            else:
                self.gone.add(name)
        # Imports: names from a module that is not staged, or that it no longer has, go.
        for node in body:
            if not isinstance(node, ast.ImportFrom):
                continue
            keep = []
            for alias in node.names:
                source = self._imported_from(node, alias)
                missing = source is not None and (
                    source not in staged
                    or (node.module is not None and alias.name in removed.get(source, ()))
                )
                if missing:
                    self.gone.add(alias.asname or alias.name)
                else:
                    keep.append(alias)
            if len(keep) != len(node.names):
                replacement = (
                    ast.unparse(ast.ImportFrom(node.module, keep, node.level)) if keep else "pass"
                )
                self._replace(node, replacement)
        # Whatever uses a name that is gone goes too, until nothing more does.
        cut = set()
        changed = True
        while changed:
            changed = False
            for index, node in enumerate(body):
                if index in cut or isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                names = self._binds(node)
                if names is None:
                    continue
                if (names & self.gone and names != {"__all__"}) or (
                    _loaded_names(node) & self.gone and names != {"__all__"}
                ):
                    cut.add(index)
                    self.gone |= names
                    changed = True
        for index in sorted(cut):
            self._replace(body[index], None)
        for name, node in self.methods.items():
            if node.name in self.gone:
                continue  # the whole class went
            method = next(m for m in node.body if getattr(m, "name", None) == name.split(".")[1])
            indent = " " * method.col_offset
            self._replace(
                method,
                f"{indent}{method.name} = property(lambda self: "
                f"_engine_hidden({self.qualified + '.' + name!r}, AttributeError))",
            )
        self._trim_all()
        return frozenset(self.gone)

    @staticmethod
    def _binds(node):
        """The top-level names a statement defines, or None if it is not a definition."""
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return {node.name}
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        return None

    def _trim_all(self):
        for node in self.tree.body:
            if (
                isinstance(node, ast.Assign)
                and [getattr(t, "id", None) for t in node.targets] == ["__all__"]
                and isinstance(node.value, (ast.List, ast.Tuple))
            ):
                names = [ast.literal_eval(e) for e in node.value.elts]
                kept = [n for n in names if n not in self.gone]
                if kept != names:
                    self._replace(node, f"__all__ = {kept!r}")

    def _replace(self, node, text):
        """Put `text` (one line, or nothing) where `node` was; blank the rest of its lines."""
        first, last = _first_line(node) - 1, node.end_lineno - 1
        for i in range(first, last + 1):
            self.lines[i] = ""
        if text is not None:
            self.lines[first] = text

    def text(self):
        source = "\n".join(self.lines)
        if not (self.gone or self.methods):
            return source
        hidden = sorted(self.gone)
        return (
            source.rstrip("\n")
            + "\n\n\n# -- added by the grader: what this exercise may not use "
            + "-" * 30
            + "\n\n\ndef _engine_hidden(name, kind=ImportError):\n"
            + f"    raise kind({MESSAGE!r}.format(name))\n\n\n"
            + f"_HIDDEN = frozenset({hidden!r})\n\n\n"
            + "def __getattr__(name):\n"
            + "    if name in _HIDDEN:\n"
            + f"        _engine_hidden({self.qualified!r} + '.' + name)\n"
            + "    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')\n"
        )
