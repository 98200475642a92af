"""The `question` fence: a check for understanding in a lesson (questions.py says how to write one).

It renders a form that works from the keyboard with the browser's own controls: text
inputs for numbers, radio buttons for a choice, a Check button. The answer and its
explanation are in a <details> after the form, so a page read without JavaScript (or
printed) still has them; web/questions.js checks answers, keeps them and shows the
explanation once the learner has answered. Stable hooks for tests and styles: the form
is `[data-question]` with `data-state` unanswered | right | wrong.
"""

from __future__ import annotations

import html

import markdown
from pymdownx.superfences import SuperFencesException

from questions import (  # the course's module: mkdocs runs from its root
    Question,
    QuestionError,
    parse,
)

__all__ = ["QuestionFenceError", "question_fence", "render"]


class QuestionFenceError(SuperFencesException):
    """A broken `question` block: the build stops and says why."""


def _md(text: str, inline: bool = False) -> str:
    out = markdown.markdown(
        text,
        extensions=["pymdownx.arithmatex", "pymdownx.superfences", "tables"],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    if inline and out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1:
        out = out[3:-4]
    return out


def _number_inputs(q: Question) -> str:
    rows = []
    for i, blank in enumerate(q.blanks):
        rows.append(
            f'<label class="course-question__blank"><span>{_md(blank.label, inline=True)}</span> '
            f'<input type="text" name="b{i}" autocomplete="off" spellcheck="false" '
            f'data-value="{blank.value!r}" data-tolerance="{blank.tolerance!r}"></label>'
        )
    return f'<div class="course-question__blanks">{"".join(rows)}</div>'


def _choice_inputs(q: Question) -> str:
    rows = []
    for i, (text, right) in enumerate(q.choices):
        mark = " data-right" if right else ""
        rows.append(
            f'<label class="course-question__choice"><input type="radio" name="choice" '
            f'value="{i}"{mark}> <span>{_md(text, inline=True)}</span></label>'
        )
    return (
        '<fieldset class="course-question__choices"><legend>Choose one</legend>'
        f"{''.join(rows)}</fieldset>"
    )


def _answer(q: Question) -> str:
    if q.blanks:
        parts = [
            html.escape(b.written)
            if len(q.blanks) == 1
            else f"{_md(b.label, inline=True)} = {html.escape(b.written)}"
            for b in q.blanks
        ]
        return "; ".join(parts)
    return next(_md(text, inline=True) for text, right in q.choices if right)


def render(q: Question) -> str:
    inputs = _number_inputs(q) if q.blanks else _choice_inputs(q)
    return (
        f'<form class="course-question" data-question="{q.id}" data-kind="{q.kind}" '
        f'data-state="unanswered" novalidate>'
        '<p class="course-question__title">Check yourself</p>'
        f'<div class="course-question__ask">{_md(q.ask)}</div>'
        f"{inputs}"
        '<p class="course-question__actions"><button type="submit" class="md-button">Check</button> '
        '<span class="course-question__feedback" role="status" aria-live="polite"></span></p>'
        '<details class="course-question__explain"><summary>Answer and why</summary>'
        f'<p class="course-question__answer"><strong>Answer:</strong> {_answer(q)}</p>'
        f"{_md(q.explain)}</details></form>"
    )


def format_question(source, language, class_name, options, md, **kwargs):
    try:
        return render(parse(source))
    except QuestionError as exc:
        raise QuestionFenceError(str(exc)) from exc


def question_fence() -> dict:
    """The superfences `custom_fences` entry of the `question` block."""
    return {"name": "question", "class": "course-question", "format": format_question}
