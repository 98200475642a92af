"""The checks for understanding: the `question` blocks of the lessons.

A question sits in a lesson where its idea is taught, as a fence whose body is YAML:

    ```question
    id: predict-a-grad          # a-z, 0-9 and -; unique on its page, never renamed
    ask: |
      Before you press **Run**, predict `a.grad`.
    answer: 4                   # a number the learner types...
    check: |                    # ...recomputed with the engine by the tests: set `answer`
      from engine import Value
      a, b = Value(2.0), Value(3.0)
      d = a * b + a
      d.backward()
      answer = a.grad
    explain: |
      Two roads reach `a`: ...
    ```

Several numbers: `answers:` maps each input's label (Markdown) to its number, and `check`
sets `answers` to the list of numbers in the same order. A choice: `choices:` lists the
options, each starting `[x] ` (the right one, exactly one) or `[ ] `; a choice question
has no `check`.

A number is right when it is within `tolerance` of the answer. Without `tolerance:`, an
answer written with decimals is matched to those decimals (0.76 accepts 0.755 to 0.765),
and an integer must be exact. Quote an answer whose trailing zeros count ("0.50").

The site renders each block (hooks/question_fence.py), the notebooks show it with its
answer folded away (tools/notebooks.py), and tests/lessons/test_questions.py runs every
`check` against the engine.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import yaml

__all__ = [
    "FENCE",
    "Blank",
    "Question",
    "QuestionError",
    "find",
    "parse",
    "prose",
    "read_number",
    "texts",
]

# A `question` fence in a page's Markdown, possibly indented inside an admonition or a tab.
FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```question[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.S | re.M
)
_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_CHOICE = re.compile(r"\[(?P<mark>[ xX])\] (?P<text>.+)", re.S)
KEYS = {"id", "ask", "answer", "answers", "tolerance", "check", "choices", "explain"}


class QuestionError(ValueError):
    """A `question` block the site cannot show; the message says what to write instead."""


@dataclass(frozen=True)
class Blank:
    """One number the learner types: its label (Markdown), the answer and how close counts."""

    label: str
    value: float
    tolerance: float
    written: str  # the answer as the lesson writes it, shown after the learner answers


@dataclass(frozen=True)
class Question:
    id: str
    ask: str  # Markdown
    explain: str  # Markdown
    blanks: tuple[Blank, ...] = ()  # a number question
    choices: tuple[tuple[str, bool], ...] = ()  # a choice question: (text, is it the right one)
    check: str = ""  # Python that recomputes the blanks' answers with the engine

    @property
    def kind(self) -> str:
        return "number" if self.blanks else "choice"


def read_number(text: str) -> float | None:
    """A number as a learner may type it: -2, −2, 0.75, 0,75, 1e-3, 3/4, 5,163 or 5 163
    (thousands); None otherwise. A comma followed by groups of three digits, after 1 to 3
    digits that do not start with 0, separates thousands; any other single comma is a
    decimal point."""
    text = text.strip().replace("\u2212", "-").replace(" ", "").replace("\u202f", "")
    if re.fullmatch(r"[+-]?[1-9]\d{0,2}(,\d{3})+", text):
        text = text.replace(",", "")
    elif re.fullmatch(r"[+-]?\d+,\d+", text):
        text = text.replace(",", ".")
    top, slash, bottom = text.partition("/")
    try:
        value = float(top) / float(bottom) if slash else float(text)
    except (ValueError, ZeroDivisionError):
        return None
    return value if math.isfinite(value) else None


def _default_tolerance(written: str) -> float:
    """Half a unit of the last decimal written; an integer must be exact (up to rounding)."""
    decimals = len(written.split(".", 1)[1]) if "." in written and "e" not in written.lower() else 0
    return 0.5 * 10.0**-decimals if decimals else 1e-9


def _text(spec: dict, key: str, where: str, required: bool = True) -> str:
    value = spec.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip():
        raise QuestionError(f"{where}: `{key}:` must be text (use `{key}: |` and indent the lines)")
    return value.strip()


def _blank(label: str, written, tolerance: float | None, where: str) -> Blank:
    value = read_number(written) if isinstance(written, str) else None
    if value is None:
        raise QuestionError(f"{where}: the answer {written!r} for {label!r} is not a number")
    tol = _default_tolerance(written.strip()) if tolerance is None else tolerance
    return Blank(label=label, value=value, tolerance=tol, written=written.strip())


def _blanks(spec: dict, where: str) -> tuple[Blank, ...]:
    tolerance = None
    if "tolerance" in spec:
        tolerance = read_number(str(spec["tolerance"]))
        if tolerance is None or tolerance < 0:
            raise QuestionError(f"{where}: `tolerance:` must be a number >= 0")
    if "answer" in spec:
        return (_blank("Your answer", spec["answer"], tolerance, where),)
    answers = spec["answers"]
    if not isinstance(answers, dict) or not answers:
        raise QuestionError(f"{where}: `answers:` maps each label to its number, one per line")
    return tuple(_blank(str(label), value, tolerance, where) for label, value in answers.items())


def _choices(spec: dict, where: str) -> tuple[tuple[str, bool], ...]:
    items = spec["choices"]
    if not isinstance(items, list) or len(items) < 2:
        raise QuestionError(f"{where}: `choices:` lists at least two options, one per line")
    choices = []
    for item in items:
        m = _CHOICE.fullmatch(item.strip()) if isinstance(item, str) else None
        if not m:
            raise QuestionError(
                f"{where}: each choice starts with `[x] ` (the right one) or `[ ] `, got {item!r}"
            )
        choices.append((m["text"].strip(), m["mark"] != " "))
    if sum(right for _, right in choices) != 1:
        raise QuestionError(f"{where}: exactly one choice is marked `[x]`")
    return tuple(choices)


def parse(source: str, where: str = "question block") -> Question:
    """The question a fence's body describes; QuestionError says what is wrong."""
    try:
        # BaseLoader: every scalar stays the text the author wrote ("0.50" keeps its zero).
        spec = yaml.load(source, Loader=getattr(yaml, "CBaseLoader", yaml.BaseLoader))
    except yaml.YAMLError as exc:
        raise QuestionError(f"{where}: its body is not valid YAML ({exc})") from exc
    if not isinstance(spec, dict):
        raise QuestionError(f"{where}: its body is YAML with `id:`, `ask:` and `explain:`")
    unknown = set(spec) - KEYS
    if unknown:
        raise QuestionError(f"{where}: unknown keys {sorted(unknown)}; known: {sorted(KEYS)}")
    qid = spec.get("id")
    if not isinstance(qid, str) or not _ID.fullmatch(qid):
        raise QuestionError(f"{where}: `id:` is words of a-z and 0-9 joined by -, got {qid!r}")
    where = f"{where} {qid!r}"
    kinds = [key for key in ("answer", "answers", "choices") if key in spec]
    if len(kinds) != 1:
        raise QuestionError(f"{where}: give one of `answer:`, `answers:` or `choices:`")
    ask, explain = _text(spec, "ask", where), _text(spec, "explain", where)
    if kinds[0] == "choices":
        if "check" in spec or "tolerance" in spec:
            raise QuestionError(f"{where}: a choice question has no `check:` or `tolerance:`")
        return Question(qid, ask, explain, choices=_choices(spec, where))
    check = _text(spec, "check", where, required=False)
    if not check:
        raise QuestionError(
            f"{where}: a number question needs `check:`, Python that recomputes the answer "
            "with the engine and sets `answer` (or `answers`, a list)"
        )
    return Question(qid, ask, explain, blanks=_blanks(spec, where), check=check)


def texts(q: Question) -> list[str]:
    """The Markdown a reader reads in a question: the ask, the labels or choices, the explanation."""
    return [q.ask, *(b.label for b in q.blanks), *(text for text, _ in q.choices), q.explain]


def _body(m: re.Match) -> str:
    return "\n".join(line.removeprefix(m["indent"]) for line in m["body"].split("\n"))


def prose(markdown: str) -> str:
    """The page with each question block replaced by the text a reader reads in it."""
    return FENCE.sub(lambda m: "\n\n" + "\n\n".join(texts(parse(_body(m)))) + "\n\n", markdown)


def find(markdown: str, where: str = "page") -> list[Question]:
    """Every question of a page, in page order; ids must be unique on the page."""
    found = []
    for m in FENCE.finditer(markdown):
        found.append(parse(_body(m), f"{where}: question block"))
    seen = set()
    for q in found:
        if q.id in seen:
            raise QuestionError(f"{where}: two questions have the id {q.id!r}; ids are unique")
        seen.add(q.id)
    return found
