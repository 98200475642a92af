"""Compare a translated page with its English source: what a translation may not change.

    python -m tools.translation check docs/lessons/day04_manual_backward.ru.md [...]
    python -m tools.translation missing        # pages without a translation, per language
    python -m tools.translation cells docs/lessons/day04_manual_backward.ru.md
                                               # run both pages' cells; compare their numbers

A translation (`<page>.ru.md`, `<page>.et.md` beside `<page>.md`, the layout of
mkdocs-static-i18n's suffix structure) keeps:
- the front matter's keys and values, except `title`;
- the fences in the same order, each of the same kind with the same options (a `my_engine`
  option's words after its part's name may be translated);
- in a cell (`pyodide`, `torch`) and in a question's `check`, the same program: the same syntax
  tree once every string constant is blanked (comments and printed labels may be translated);
- in a question: its id, its answers, tolerance and choices' marks, in the same order;
- in an exercise: its file and as many hints;
- the explorers' fences unchanged;
- the headings' ids (a translated heading ends in `{#the-english-id}`) and the links' targets;
- the numbers of the prose, as a set (a thousands separator may be a no-break space).
`check` prints every difference and exits 1 if there is one; tests/i18n/ runs the same
comparison on every translated page.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import yaml

import questions

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LANGUAGES = ("ru", "et")  # the translations; English is the source
# libyaml's loaders where PyYAML has them (the same documents, read several times faster)
_SAFE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BASE = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
_SUFFIX = re.compile(r"\.(?P<lang>[a-z]{2})\.md$")

FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<ticks>```+)(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)(?P=ticks)[ \t]*$",
    re.S | re.M,
)
PROGRAMS = {"pyodide", "torch"}  # fences whose body is Python run by the page
FIXED = {"explorer", "model-explorer", "gpt-explorer"}  # fences copied unchanged
_LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|\bhref=\"([^\"]+)\"")
_ATTRS = re.compile(r"\{[#.][^}\n]*\}")
# A number as prose writes it: a minus sign (ASCII or U+2212), digits grouped by commas (English)
# or by a (narrow or thin) no-break space (Russian, Estonian), decimals after a point.
_GROUP = "[,\u00a0\u202f\u2009]"
_NUMBER = re.compile(
    rf"(?<![\w.])[-\u2212]?\d{{1,3}}(?:{_GROUP}\d{{3}})+(?:\.\d+)?(?!\d)|(?<![\w.])[-\u2212]?\d+(?:\.\d+)?(?!\d)"
)


def source_of(path: Path) -> Path:
    """The English page a translation translates: `x.ru.md` -> `x.md`."""
    m = _SUFFIX.search(path.name)
    if not m:
        raise ValueError(f"{path.name} is not a translation: its name ends in .ru.md or .et.md")
    return path.with_name(path.name[: m.start()] + ".md")


def split_front_matter(text: str) -> tuple[dict, str]:
    if text.startswith("---\n"):
        head, _, body = text[4:].partition("\n---\n")
        return yaml.load(head, Loader=_SAFE) or {}, body
    return {}, text


def fences(text: str) -> list[tuple[str, str, str]]:
    """(kind, info line, body) of each fence, in page order; the body without its indent."""
    found = []
    for m in FENCE.finditer(text):
        info = m["info"].strip()
        kind = info.split()[0] if info else ""
        body = "\n".join(line.removeprefix(m["indent"]) for line in m["body"].split("\n"))
        found.append((kind, info, body))
    return found


def without_fences(text: str) -> str:
    return FENCE.sub("\n", text)


class _Blank(ast.NodeTransformer):
    """Every string constant blanked: a comment or a printed label may be translated."""

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str):
            return ast.copy_location(ast.Constant(value=""), node)
        return node


def program_shape(code: str) -> str:
    """The program with its strings blanked and comments gone, as a syntax tree's dump."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        return f"<syntax error: {exc.msg}, line {exc.lineno}>"
    return ast.dump(_Blank().visit(tree), include_attributes=False)


def _strings(code: str) -> list[str]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    return [
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def numbers(text: str) -> set[str]:
    """The numbers of a page's prose (math and tables included, code fences and attributes not)."""
    try:
        text = questions.prose(text)  # a question's words are prose to its reader
    except questions.QuestionError:
        pass  # the fences' comparison names the broken block
    prose = _ATTRS.sub(" ", without_fences(text))
    prose = re.sub(r"\]\([^)]*\)|<[^>]*>", " ", prose)  # link targets and tags' attributes
    found = set()
    for m in _NUMBER.finditer(prose):
        found.add(re.sub(_GROUP, "", m.group().replace("\u2212", "-")))
    return found


_ITEM = re.compile(r"[ \t]*\d+\.[ \t]")


def ordered_items(text: str) -> int:
    """How many items of numbered lists the page has: a line "1. ..." that starts a block,
    or one inside a block that a numbered item started (in a paragraph, it is text)."""
    count, in_list, previous = 0, False, ""
    for line in without_fences(text).split("\n"):
        starts_block = not previous.strip()
        if starts_block:
            in_list = bool(_ITEM.match(line)) or (in_list and line[:1] in " \t")
        if _ITEM.match(line) and (starts_block or in_list):
            count += 1
        previous = line
    return count


def links(text: str) -> list[str]:
    return sorted({a or b for a, b in _LINK.findall(without_fences(text))})


def _option_words(info: str) -> str:
    # my_engine="Part: what it shows": the words after the part's name may be translated.
    return re.sub(r'(my_engine="[^":]*:)[^"]*"', r'\1"', info)


def _compare_question(english: str, translated: str, where: str) -> list[str]:
    problems = []
    try:
        en = yaml.load(english, Loader=_BASE)
        tr = yaml.load(translated, Loader=_BASE)
    except yaml.YAMLError as exc:
        return [f"{where}: not valid YAML: {exc}"]
    if not isinstance(tr, dict):
        return [f"{where}: not a YAML mapping"]
    if set(en) != set(tr):
        problems.append(f"{where}: keys {sorted(tr)}, the English has {sorted(en)}")
    for key in ("id", "answer", "tolerance", "once"):
        if en.get(key) != tr.get(key):
            problems.append(f"{where}: {key} is {tr.get(key)!r}, the English {en.get(key)!r}")
    if "answers" in en:
        got = (
            list((tr.get("answers") or {}).values())
            if isinstance(tr.get("answers"), dict)
            else None
        )
        if got != list(en["answers"].values()):
            problems.append(f"{where}: answers {got}, the English {list(en['answers'].values())}")
    if "choices" in en:
        marks = [c[:3] for c in en["choices"]]
        got = [c[:3] for c in tr.get("choices") or []]
        if got != marks:
            problems.append(f"{where}: choices marked {got}, the English {marks}")
    if "check" in en and program_shape(en["check"]) != program_shape(tr.get("check", "")):
        problems.append(f"{where}: its check is not the same program as the English one")
    return problems


def _compare_fence(n: int, en: tuple, tr: tuple) -> list[str]:
    (kind, info, body), (tkind, tinfo, tbody) = en, tr
    where = f"fence {n} ({kind or 'plain'})"
    if kind != tkind:
        return [f"{where}: the translation has a {tkind or 'plain'} fence here"]
    if _option_words(info) != _option_words(tinfo):
        return [f"{where}: its options are {tinfo!r}, the English {info!r}"]
    if kind in PROGRAMS:
        if program_shape(body) != program_shape(tbody):
            changed = sorted(set(_strings(body)) ^ set(_strings(tbody)))
            return [
                f"{where}: not the same program as the English cell (strings that differ: {changed[:6]})"
            ]
        return []
    if kind == "question":
        return _compare_question(body, tbody, where)
    if kind == "exercise":
        try:
            en_spec, tr_spec = yaml.load(body, Loader=_SAFE), yaml.load(tbody, Loader=_SAFE)
        except yaml.YAMLError as exc:
            return [f"{where}: not valid YAML: {exc}"]
        problems = []
        if en_spec.get("file") != tr_spec.get("file"):
            problems.append(
                f"{where}: file {tr_spec.get('file')!r}, the English {en_spec.get('file')!r}"
            )
        if len(en_spec.get("hints") or []) != len(tr_spec.get("hints") or []):
            problems.append(
                f"{where}: {len(tr_spec.get('hints') or [])} hints, the English has {len(en_spec.get('hints') or [])}"
            )
        return problems
    if kind in FIXED and body != tbody:
        return [f"{where}: an explorer's fence is copied unchanged"]
    return []


def compare(english: str, translated: str) -> list[str]:
    """Every way `translated` differs from `english` where a translation must not."""
    problems = []
    en_meta, en_body = split_front_matter(english)
    tr_meta, tr_body = split_front_matter(translated)
    for key in sorted(set(en_meta) | set(tr_meta)):
        if key == "title":
            if bool(en_meta.get(key)) != bool(tr_meta.get(key)):
                problems.append(
                    "front matter: the English has a title and the translation not, or the other way"
                )
        elif en_meta.get(key) != tr_meta.get(key):
            problems.append(
                f"front matter: {key} is {tr_meta.get(key)!r}, the English {en_meta.get(key)!r}"
            )
    en_fences, tr_fences = fences(en_body), fences(tr_body)
    if [f[0] for f in en_fences] != [f[0] for f in tr_fences]:
        problems.append(
            f"fences: {[f[0] for f in tr_fences]}, the English has {[f[0] for f in en_fences]}"
        )
    for n, (en, tr) in enumerate(zip(en_fences, tr_fences), start=1):
        problems += _compare_fence(n, en, tr)
    from tools.heading_ids import heading_ids

    en_ids = [anchor for _, anchor, _ in heading_ids(english)]
    tr_ids = [anchor for _, anchor, _ in heading_ids(translated)]
    if en_ids != tr_ids:
        missing = [i for i in en_ids if i not in tr_ids]
        extra = [i for i in tr_ids if i not in en_ids]
        problems.append(
            f"headings: ids differ from the English (missing {missing}, not in the English {extra});"
            " end each translated heading with {#the-english-id}"
        )
    if links(en_body) != links(tr_body):
        en_links, tr_links = set(links(en_body)), set(links(tr_body))
        problems.append(
            f"links: missing {sorted(en_links - tr_links)}, not in the English {sorted(tr_links - en_links)}"
        )
    en_items, tr_items = ordered_items(en_body), ordered_items(tr_body)
    if en_items != tr_items:
        problems.append(
            f"lists: {tr_items} numbered items, the English {en_items} (a paragraph that starts"
            r" with a number and a full stop, '1. faas', is a list: write '1\. faas')"
        )
    en_numbers, tr_numbers = numbers(en_body), numbers(tr_body)
    if en_numbers != tr_numbers:
        problems.append(
            f"numbers: missing {sorted(en_numbers - tr_numbers)}, not in the English {sorted(tr_numbers - en_numbers)}"
        )
    return problems


def run_cells(path: Path) -> list[dict]:
    """Run the `pyodide` cells of the page at `path` in this Python, in one namespace as the
    page does: [{"out": what it printed, "error": its exception or None}] (up to a failure)."""
    import contextlib
    import io
    import traceback

    _, body = split_front_matter(path.read_text(encoding="utf-8"))
    namespace = {"__name__": "__main__"}
    results = []
    for n, (kind, _, code) in enumerate(fences(body), start=1):
        if kind != "pyodide":
            continue
        out = io.StringIO()
        error = None
        with contextlib.redirect_stdout(out):
            try:
                exec(compile(code, f"<{path.name} cell {n}>", "exec"), namespace)
            except Exception as err:
                error = "".join(traceback.format_exception_only(type(err), err)).strip()
        results.append({"out": out.getvalue(), "error": error})
        if error is not None:
            break
    return results


_RUN = "translation-cells: "  # the line of a fresh Python's run that holds its results


def _in_fresh_python(path: Path, timeout: float) -> list[dict] | str:
    """`run_cells(path)` in a fresh Python (a page's names and random state are its own)."""
    import json
    import subprocess

    args = [sys.executable, "-m", "tools.translation", "--run-cells", str(path)]
    try:
        done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"{path.name}: its cells did not finish within {timeout} s"
    found = [line for line in done.stdout.splitlines() if line.startswith(_RUN)]
    if done.returncode != 0 or not found:
        return f"{path.name}: Python stopped: {(done.stderr.strip().splitlines() or ['?'])[-1]}"
    return json.loads(found[-1][len(_RUN) :])


class _Labels(ast.NodeTransformer):
    """The text a cell prints as a label blanked, and the numbers in it kept: a string
    constant passed to print(), and the literal parts of an f-string passed to it (their
    {values} and format specs stay as they are); and a docstring."""

    def __init__(self) -> None:
        self.numbers: list[str] = []

    def _blank(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            self.numbers += numbers_of_output(node.value)
            return ast.Constant(value="")
        if isinstance(node, ast.JoinedStr):
            node.values = [self._blank(part) for part in node.values]
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        # a string alone as a statement (a docstring) computes nothing
        node.value = self._blank(self.visit(node.value))
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "print":
            node.args = [self._blank(arg) for arg in node.args]
        return node


def _without_labels(code: str) -> tuple[str, list[str]] | None:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    labels = _Labels()
    return ast.dump(labels.visit(tree)), labels.numbers


def prints_the_same_numbers(english: str, translated: str) -> bool:
    """Whether two cells print the same numbers whatever they compute: the same program to
    the last string but their printed labels, whose numbers are the same, in order."""
    found = _without_labels(english)
    return found is not None and found == _without_labels(translated)


def cells_print_the_same_numbers(path) -> bool:
    """Whether a translated page's cells print the English cells' numbers without running
    them: every cell differs from the English one in printed labels only (as above)."""
    path = Path(path)
    english, translated = (
        [
            body
            for kind, _, body in fences(split_front_matter(p.read_text(encoding="utf-8"))[1])
            if kind == "pyodide"
        ]
        for p in (source_of(path), path)
    )
    return len(english) == len(translated) and all(
        prints_the_same_numbers(en, tr) for en, tr in zip(english, translated)
    )


def numbers_of_output(text: str) -> list[str]:
    """The numbers a cell printed, in order, but for times (never the same twice)."""
    from tools.my_engine import _TIME, NUMBER

    return NUMBER.findall(_TIME.sub("(time)", text))


def run_in_fresh_python(path, timeout: float = 900) -> list[dict] | str:
    """`run_cells(path)` in a fresh Python: the cells' outputs, or why they did not finish."""
    return _in_fresh_python(Path(path), timeout)


def compare_cells(path, timeout: float = 900) -> list[str]:
    """Run the translated page's cells and its English page's, each in a fresh Python, and
    name every cell whose printed numbers differ (to the precision printed) or that fails."""
    path = Path(path)
    return compare_runs(*(_in_fresh_python(p, timeout) for p in (source_of(path), path)))


def compare_runs(english: list[dict] | str, translated: list[dict] | str) -> list[str]:
    """Every cell whose printed numbers differ (to the precision printed) between the English
    page's run and its translation's (run_in_fresh_python), or that fails in the translation."""
    from tools.my_engine import same_numbers

    for run in (english, translated):
        if isinstance(run, str):
            return [run]
    problems = []
    if len(english) != len(translated):
        problems.append(f"{len(translated)} cells ran, the English page ran {len(english)}")
    for n, (en, tr) in enumerate(zip(english, translated), start=1):
        if tr["error"] and not en["error"]:
            problems.append(f"cell {n} fails: {tr['error']}")
            continue
        en_numbers, tr_numbers = numbers_of_output(en["out"]), numbers_of_output(tr["out"])
        # The numbers compared as a text of numbers alone: labels may be translated.
        if not same_numbers(" ".join(en_numbers), " ".join(tr_numbers)):
            problems.append(
                f"cell {n} prints {tr_numbers[:12]}, the English cell {en_numbers[:12]}"
            )
    return problems


def pages() -> list[Path]:
    """Every English page of the site (the notebooks are made from the lessons)."""
    return sorted(p for p in DOCS.rglob("*.md") if not _SUFFIX.search(p.name))


def translation(page: Path, lang: str) -> Path:
    return page.with_name(f"{page.stem}.{lang}.md")


def missing() -> dict[str, list[Path]]:
    return {lang: [p for p in pages() if not translation(p, lang).is_file()] for lang in LANGUAGES}


def main(argv: list[str]) -> int:
    if argv[:1] == ["--run-cells"] and len(argv) == 2:
        import json

        results = run_cells(Path(argv[1]))
        print(_RUN + json.dumps(results))
        return 0
    if argv[:1] == ["cells"] and len(argv) >= 2:
        failed = False
        for name in argv[1:]:
            problems = compare_cells(Path(name).resolve())
            print(f"{Path(name).name}: {'the same numbers as the English' if not problems else ''}")
            for problem in problems:
                print(f"  - {problem}")
            failed |= bool(problems)
        return 1 if failed else 0
    if argv[:1] == ["missing"]:
        for lang, paths in missing().items():
            print(f"{lang}: {len(paths)} of {len(pages())} pages not translated")
            for p in paths:
                print(f"  {p.relative_to(ROOT)}")
        return 0
    if argv[:1] != ["check"] or len(argv) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    failed = False
    for name in argv[1:]:
        path = Path(name).resolve()
        try:
            english = source_of(path)
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
        if not english.is_file():
            print(f"{path.name}: no English page {english.name} beside it", file=sys.stderr)
            return 2
        problems = compare(english.read_text(encoding="utf-8"), path.read_text(encoding="utf-8"))
        print(f"{path.name}: {'same as the English where it must be' if not problems else ''}")
        for problem in problems:
            print(f"  - {problem}")
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
