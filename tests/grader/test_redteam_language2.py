"""More attacks on the grader's words in the learner's language: the pytest plugin's
messages and the stubs' "Day N: write ..." (grader/pytest_plugin.py, grader/verdict.py).

As a learner (or whoever hands the grader a folder): a file name or an exception's text
with a terminal's escape sequences, a bidirectional override and a line break reaches the
pytest plugin's failure messages, in every language. Whoever runs pytest on the
submission reads each of them escaped, as the report and the Gradescope JSON write them:
nothing clears the screen, reorders a line or starts one that looks like pytest's own.
"""

import pytest

from grader.checks import check_module
from grader.messages import LANGUAGES, render
from grader.protocol import ProtocolError, decode_result
from grader.pytest_plugin import grade_job
from grader.submission import Rejected, load
from grader.verdict import error_message

DAY5 = "day05_add_mul.py"
HOSTILE = "x\x1b[2J\u202eFAKE\n=== 99 passed in 0.1s ==="


def _job():
    return DAY5, check_module(DAY5).public_cases()[0]


class _Ran:
    """A budget whose every case came back as `outcome` (as a child would send it)."""

    def __init__(self, outcome):
        self.outcome = outcome

    def run(self, exercise, case):
        return {"outcome": self.outcome, "seconds": 0.0}


def _safe(message):
    assert "\x1b" not in message and "\u202e" not in message, repr(message)
    assert "\n" not in message and "\r" not in message, repr(message)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_file_name_reaches_pytest_escaped(tmp_path, lang):
    (tmp_path / f"{HOSTILE}.txt").write_text("x")
    with pytest.raises(Rejected) as refused:
        load(tmp_path)
    status, message = grade_job(_job(), refused.value, lang)
    assert status == "failed"
    _safe(message)
    assert "FAKE" in message and "\\x1b" in message and "\\u202e" in message


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", ["ValueError", "NotImplementedError"])
def test_the_learners_exception_reaches_pytest_escaped(lang, kind):
    text = f"Day 4: write {HOSTILE}." if kind == "NotImplementedError" else HOSTILE
    outcome = {"error": {"type": kind, "message": text, "line": 3}}
    status, message = grade_job(_job(), _Ran(outcome), lang)
    assert status == "failed"
    _safe(message)
    assert "FAKE" in message


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("day", ["\u0664", "04", "\uff14"])
def test_a_stub_shaped_text_with_other_digits_is_shown_as_written(lang, day):
    # "Day ٤" (Arabic-Indic digits), "Day 04", "Day ４" (fullwidth) are not a stub's words:
    # the learner's text stays as written (English as before the stubs were translated),
    # never turned into another day.
    text = f"Day {day}: write one_step."
    said = error_message({"type": "NotImplementedError", "message": text, "line": 0}, DAY5, lang)
    assert said.endswith(text), said


def test_every_stub_is_still_a_stub_after_the_digits_fix():
    # the course's own stubs still say their day in the reader's language
    said = error_message(
        {"type": "NotImplementedError", "message": "Day 4: write one_step.", "line": 0}, DAY5, "ru"
    )
    assert "one_step" in said and "Day 4" not in said, said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_duplicate_key_is_named_short_in_every_language(lang):
    # A result line may be 64 KiB; a key sent twice is named by its start, as a key that is
    # not a float is, so one forged line cannot fill every case's message with 64 KiB.
    key = "k" * 30000
    line = f'{{"nonce": "n", "outcome": {{"values": {{"{key}": 1.0, "{key}": 2.0}}, "invalid": {{}}}}}}\n'
    with pytest.raises(ProtocolError) as refused:
        decode_result(line.encode(), "n")
    said = render(refused.value.message, lang)
    assert "duplicate" in str(refused.value) and len(said) < 200, len(said)
