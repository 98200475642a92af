"""Checks for understanding: every day has some, every number they expect is what the engine
computes, a broken block is refused with a message, and the page's reading of a typed
number (web/questions.js) is the same as questions.py's."""

import contextlib
import io
import json
import os
import shutil
import subprocess

import pytest
import question_fence

import course
import questions

from .ahead import ahead
from .pages import ROOT, lesson, lesson_paths

PAGES = [lesson(p.stem) for p in lesson_paths()]
ASKED = [(page.slug, q) for page in PAGES for q in questions.find(page.text, page.slug)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.slug)
def test_every_day_asks_two_to_four_questions(page):
    asked = questions.find(page.text, page.slug)
    assert 2 <= len(asked) <= 4, f"{page.slug} has {len(asked)} questions; each day asks 2 to 4"


NUMBER_QUESTIONS = [(slug, q) for slug, q in ASKED if q.blanks]


def run_check(slug, qid):
    """What the check of question `qid` of `slug` sets, as numbers: {"answer": x} (one
    blank) or {"answers": [x, ...]}; {} when it does not set it."""
    (q,) = [q for s, q in NUMBER_QUESTIONS if (s, q.id) == (slug, qid)]
    here = os.getcwd()
    os.chdir(ROOT)  # a check may read the course's data, as a lesson cell does
    try:
        namespace = {"__name__": f"{slug}:{q.id}"}
        with contextlib.redirect_stdout(io.StringIO()):  # what a check prints is not shown
            exec(compile(q.check, f"{slug} question {q.id}", "exec"), namespace)
    finally:
        os.chdir(here)
    key = "answer" if len(q.blanks) == 1 else "answers"
    if key not in namespace:
        return {}
    if key == "answer":
        return {key: float(getattr(namespace[key], "data", namespace[key]))}
    return {key: [float(getattr(a, "data", a)) for a in namespace[key]]}


# each check runs in another process while this one runs the pages' cells
CHECKED = {(s, q.id): ahead(run_check, s, q.id) for s, q in NUMBER_QUESTIONS}


@pytest.mark.parametrize(
    "slug, q", NUMBER_QUESTIONS, ids=[f"{s}:{q.id}" for s, q in NUMBER_QUESTIONS]
)
def test_number_answers_are_what_the_engine_computes(slug, q):
    namespace = CHECKED[slug, q.id]()
    if len(q.blanks) == 1:
        assert "answer" in namespace, "the check sets `answer`"
        computed = [namespace["answer"]]
    else:
        assert "answers" in namespace, "the check sets `answers`, a list in the blanks' order"
        computed = list(namespace["answers"])
    assert len(computed) == len(q.blanks)
    for blank, got in zip(q.blanks, computed):
        got = float(getattr(got, "data", got))
        assert abs(got - blank.value) <= blank.tolerance + 1e-12 * max(1.0, abs(blank.value)), (
            f"{slug} question {q.id!r}: {blank.label} is {got!r} by the engine, "
            f"the lesson expects {blank.written} (within {blank.tolerance})"
        )


def test_ids_are_unique_on_a_page_and_a_broken_block_says_what_to_write():
    good = "id: a-b\nask: What?\nexplain: Because.\n"
    assert questions.parse(good + "answer: 1\ncheck: answer = 1\n").kind == "number"
    twice = f"```question\n{good}answer: 1\ncheck: answer = 1\n```\n"
    with pytest.raises(questions.QuestionError, match="two questions have the id 'a-b'"):
        questions.find(twice + twice)
    cases = {
        "[unclosed": "not valid YAML",
        "- a list": "`id:`, `ask:` and `explain:`",
        good.replace("a-b", "A B") + "answer: 1\ncheck: answer = 1\n": "`id:` is words",
        good + "answer: 1\n": "needs `check:`",
        good + "answer: one\ncheck: answer = 1\n": "is not a number",
        good + "answer: 1\nchoices: ['[x] a', '[ ] b']\n": "one of `answer:`",
        good + "choices: ['[x] a', '[x] b']\n": "exactly one choice",
        good + "choices: ['a', '[x] b']\n": "starts with `[x] `",
        good + "choices: ['[x] a', '[ ] b']\ncheck: answer = 1\n": "no `check:`",
        good + "answer: 1\ncheck: answer = 1\nhint: h\n": "unknown keys ['hint']",
        "id: a\nask: |\nexplain: x\nanswer: 1\ncheck: answer = 1\n": "`ask:` must be text",
    }
    for body, message in cases.items():
        with pytest.raises(questions.QuestionError, match=message.replace("[", r"\[")):
            questions.parse(body)


def test_the_written_answer_sets_how_close_counts():
    def blank(answer, extra=""):
        body = f"id: q\nask: a\nexplain: e\nanswer: {answer}\ncheck: answer = 0\n{extra}"
        return questions.parse(body).blanks[0]

    assert blank("4").tolerance < 1e-6  # an integer is exact
    assert blank("0.76").tolerance == pytest.approx(0.005)
    assert blank('"0.50"').tolerance == pytest.approx(0.005)  # quoted: its zero counts
    assert blank("-2.5").value == -2.5
    assert blank("1", "tolerance: 0.1").tolerance == 0.1


TYPED = {
    "-2": -2.0,
    "\u22122": -2.0,
    " 0.75 ": 0.75,
    "0,75": 0.75,
    "5,163": 5163.0,  # thousands
    "1,234,567": 1234567.0,
    "5 163": 5163.0,
    "0,750": 0.75,  # a leading 0: a decimal comma
    "12,5": 12.5,
    ".5": 0.5,
    "1e-3": 0.001,
    "3/4": 0.75,
    "-1/2": -0.5,
    "+7": 7.0,
    "": None,
    "abc": None,
    "1/0": None,
    "1/2/3": None,
    "2,000,1": None,
    "inf": None,
    "nan": None,
    "0x10": None,
}


def test_a_typed_number_is_read_generously_but_never_guessed():
    for text, value in TYPED.items():
        assert questions.read_number(text) == value, text


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_the_page_reads_a_typed_number_as_the_lessons_do():
    script = (
        'import { readNumber } from "./web/questions.js";'
        f"const typed = {json.dumps(list(TYPED))};"
        "console.log(JSON.stringify(typed.map(readNumber)));"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out) == list(TYPED.values())


def test_a_question_renders_its_hooks_and_keeps_its_answer_for_after():
    q = questions.parse(
        "id: pick\nask: Which?\nexplain: Because **b**.\n"
        "choices:\n  - '[ ] a'\n  - '[x] b'\n  - '[ ] c'\n"
    )
    out = question_fence.render(q)
    assert 'data-question="pick"' in out and 'data-state="unanswered"' in out
    assert out.count('type="radio"') == 3 and out.count("data-right") == 1
    assert '<details class="course-question__explain">' in out
    assert "<strong>Answer:</strong> b" in out and "<strong>b</strong>" in out


def test_the_course_map_counts_each_days_questions(tmp_path):
    day = course.DAYS[6]
    ids = [q.id for q in questions.find((course.DOCS / day.lesson).read_text(encoding="utf-8"))]
    import course_map
    from mkdocs.structure.files import File, Files

    files = Files([File(d.lesson, str(course.DOCS), str(tmp_path), True) for d in course.DAYS])
    out = course_map.render(course_map.lessons(files), "map.md")
    assert f'data-page="lessons/{day.slug}" data-questions="{" ".join(ids)}">{len(ids)}<' in out
