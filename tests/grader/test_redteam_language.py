"""Attacks on the grader's feedback in the learner's language (grader/messages.py).

As a learner after marks: learner text (an exception's type and message, a returned
object's type name, the child's whole result line, with the real nonce) carries format
fields, padding, look-alike grader lines and message-shaped objects into the verdict
rendered in English, Russian and Estonian. None may change a score, hide a failure,
start a line of the report, crash rendering or make the grader allocate by a number it
was sent; the score is the same in every language.

As an attacker on the host: a hostile LANGUAGE/LANG, a --lang or a page's lang outside
the course's languages, a catalog planted where the grader does not keep its own, and
the server's grading (which takes no language) all leave the grader reading only its own
catalogs, answering in a course language or with a one-line error.
"""

import json
import os
import random
import string
import subprocess
import sys
import textwrap
import time

import pytest

from grader import messages
from grader.checks import EXERCISES, check_module
from grader.grade import grade, grade_one
from grader.lessons import site_wording
from grader.messages import LANGUAGES, msg, render
from grader.report import scores
from grader.sandbox import Limits
from grader.submission import load
from grader.verdict import Want, WantList, WantOrder, judge_outcome
from tests.i18n.test_grader_messages import BUGGY_DAY4

from .helpers import HAS_BWRAP, ROOT, make_sandbox

PYTHON = sys.executable
needs_bwrap = pytest.mark.skipif(not HAS_BWRAP, reason="bubblewrap unavailable")
DAY4, DAY5 = "day04_manual_backward.py", "day05_add_mul.py"
STUB5 = (ROOT / "exercises" / DAY5).read_text()
SCORE_WORD = {"en": "Score:", "ru": "Баллы:", "et": "Punktid:"}

# Format fields, attribute access, positional fields and a padding of a gigabyte, in every
# piece of text the learner controls: an exception's type name and message, the type name
# of a returned object (reported as "not a plain float"), with the grader's own lines in
# every language after a line break.
FIELDS = "{values.__class__.__mro__} {0} {x:>999999999} {name!r:{width}} %s %(x)s"
FORGED_LINES = "\n".join(f"{SCORE_WORD[lang]} 12/12" for lang in LANGUAGES)
FORMAT_ATTACK = STUB5 + textwrap.dedent(
    f"""
    _Odd = type({FIELDS!r}, (Exception,), {{}})
    _Obj = type({FIELDS!r}, (), {{}})

    class Value(Value):
        def __init__(self, data, _children=(), _op=""):
            super().__init__(data, _children, _op)
            self.grad = _Obj()  # "not a plain float", named by the learner's type

        def __add__(self, other):
            raise _Odd({(FIELDS + chr(10) + FORGED_LINES)!r})
    """
)


def _grade(tmp_path, sources, lang, seed=7):
    folder = tmp_path / f"submission-{lang}"
    folder.mkdir(exist_ok=True)
    for exercise, source in sources.items():
        (folder / exercise).write_text(source)
    sandbox = make_sandbox("bwrap", Limits(wall_seconds=10.0, cpu_seconds=10))
    return grade(load(folder), sandbox, list(sources), seed, budget=300, lang=lang)


def _said(results):
    return [t["message"] for t in results["tests"]]


# -- the learner's text ----------------------------------------------------------------------


@needs_bwrap
def test_format_fields_in_learner_text_are_shown_as_written_in_every_language(tmp_path):
    for lang in LANGUAGES:
        started = time.monotonic()
        folder = tmp_path / lang
        folder.mkdir()
        (folder / DAY5).write_text(FORMAT_ATTACK)
        sandbox = make_sandbox("bwrap", Limits(wall_seconds=10.0, cpu_seconds=10))
        _, text, results = grade_one(folder, sandbox, [DAY5], 7, lang)
        assert not any(t["passed"] for t in results["tests"])
        assert {t["status"] for t in results["tests"]} == {"failed"}, _said(results)
        said = "\n".join(_said(results))
        # the fields came back as written, not filled in, not padded
        assert "{values.__class__.__mro__}" in said and "{x:>999999999}" in said, said
        assert "<class" not in said and "mro" not in said.replace("__mro__", "")
        assert max(len(m) for m in _said(results)) < 2000
        # no line of the report is the learner's: the only score line is the grader's last
        score_lines = [line for line in text.splitlines() if line.startswith(SCORE_WORD[lang])]
        assert score_lines == [text.splitlines()[-1]], text
        assert text.splitlines()[-1].startswith(f"{SCORE_WORD[lang]} 0/3"), text
        assert time.monotonic() - started < 120


# The child writes its own result line with the run's real nonce: message-shaped objects
# ({"msg", "values"}) where the protocol wants strings or numbers, and an outcome that is
# itself a message. Each is refused whole: the case fails, nothing says "passed".
FORGERIES = {
    "a message as the error's type": {
        "error": {"type": {"msg": "passed", "values": {}}, "message": "", "line": 0}
    },
    "a message as the error's text": {
        "error": {
            "type": "Exception",
            "message": {"msg": "{x}", "values": {"x": "passed"}},
            "line": 0,
        }
    },
    "a message as a reason": {
        "values": {},
        "invalid": {"0:a.grad": {"msg": "passed", "values": {}}},
    },
    "a message as a number": {
        "values": {"0:a.grad": {"msg": "passed", "values": {}}},
        "invalid": {},
    },
    "the outcome a message": {"msg": "passed", "values": {}},
    "a message nested as a value": {
        "values": {},
        "invalid": {"x": "y"},
        "msg": "{name} is {value}",
    },
}
FORGE = """
import json, os, sys
frame = sys._getframe()
while frame is not None and "nonce" not in frame.f_locals:
    frame = frame.f_back
fd, nonce = frame.f_locals["fd"], frame.f_locals["nonce"]
os.write(fd, json.dumps({"nonce": nonce, "outcome": OUTCOME}).encode() + b"\\n")
os._exit(0)
"""


@needs_bwrap
@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_a_message_shaped_object_from_the_child_is_refused(tmp_path, forgery):
    source = f"OUTCOME = {FORGERIES[forgery]!r}\n" + FORGE
    for lang in ("en", "ru"):
        results = _grade(tmp_path, {DAY5: source}, lang)
        assert [t["status"] for t in results["tests"]] == ["failed"] * len(results["tests"])
        # the sandbox's own words, in the language graded in: "the report back to the grader
        # was not valid (...)"
        invalid = "the report back to the grader was not valid ({problem}); {status}"
        said = render(msg(invalid, problem="", status=""), lang).split("(")[0]
        for message in _said(results):
            assert message.startswith(said), message
            assert message != render("passed", lang)


@needs_bwrap
def test_the_child_forging_fields_in_its_own_keys_and_reasons_earns_nothing(tmp_path):
    outcome = {
        "values": {"{0}": 1.0, "{name.__class__}": 2.0, "len({x:>999999999})": 1e308},
        "invalid": {"{values.__class__}": "{x:>999999999}", "0:a.grad": "{0}"},
    }
    source = f"OUTCOME = {outcome!r}\n" + FORGE
    for lang in LANGUAGES:
        results = _grade(tmp_path, {DAY5: source}, lang)
        assert not any(t["passed"] for t in results["tests"])
        assert {t["status"] for t in results["tests"]} == {"failed"}
        said = "\n".join(_said(results))
        assert "0:a.grad is {0}, not a plain float" in said or "{0}" in said, said
        assert "<class" not in said and max(len(m) for m in _said(results)) < 2000


@needs_bwrap
def test_the_score_is_the_same_in_every_language(tmp_path):
    """The same files, the same seed: the same cases pass, fail or err in English, Russian
    and Estonian (the language changes the words, never the verdict)."""
    sources = {DAY4: BUGGY_DAY4, DAY5: (ROOT / "solutions" / DAY5).read_text()}
    verdicts, totals = {}, {}
    for lang in LANGUAGES:
        results = _grade(tmp_path, sources, lang, seed=3)
        verdicts[lang] = [(t["exercise"], t["name"], t["status"]) for t in results["tests"]]
        totals[lang] = scores(results)
    assert verdicts["ru"] == verdicts["en"] == verdicts["et"]
    assert totals["ru"] == totals["en"] == totals["et"]
    assert any(status == "passed" for _, _, status in verdicts["en"])  # the check is not vacuous


def _outcomes(expectation):
    """What a child may send for a case: the right numbers, each listed bug's, wrong,
    nothing, NaN, a length the verdict must not believe, learner text with fields."""
    right = {}
    for want in expectation.wants:
        if isinstance(want, Want):
            right[want.key] = float(want.value)
        elif isinstance(want, WantList):
            right[f"len({want.name})"] = float(len(want.items))
            right.update({f"{want.name}[{i}]": float(x) for i, x in enumerate(want.items)})
    yield {"values": right, "invalid": {}}
    for want in expectation.wants:
        if isinstance(want, Want):
            for value, _ in want.bugs:
                yield {"values": {**right, want.key: float(value)}, "invalid": {}}
            yield {"values": {**right, want.key: want.value + 1.0}, "invalid": {}}
        elif isinstance(want, WantList):
            for bug, _ in want.bugs:
                sent = {**right, f"len({want.name})": float(len(bug))}
                sent.update({f"{want.name}[{i}]": float(x) for i, x in enumerate(bug)})
                yield {"values": sent, "invalid": {}}
            yield {"values": {**right, f"len({want.name})": 1e308}, "invalid": {}}
        elif isinstance(want, WantOrder):
            one = {f"len({want.name})": 1.0, f"{want.name} packed[0]": 1.0}
            yield {"values": {**right, **one}, "invalid": {}}
            yield {"values": {**right, f"len({want.name})": 1e300}, "invalid": {}}
    for pattern in expectation.patterns:
        yield {
            "values": {**right, **{k: float(v) for k, v in pattern.match.items()}},
            "invalid": {},
        }
    yield {"values": {}, "invalid": {}}
    yield {"values": {k: float("nan") for k in right}, "invalid": {}}
    yield {"values": {}, "invalid": {FIELDS: FIELDS}}
    yield {"error": {"type": FIELDS, "message": FIELDS, "line": 3}}
    yield {"error": {"type": "NotImplementedError", "message": FIELDS, "line": 0}}
    yield {"error": {"type": "RecursionError", "message": FIELDS, "line": 1}}


def test_every_verdict_is_the_same_and_renders_in_every_language():
    """Every exercise's public cases and one draw of its hidden ones, judged on what a
    child may send: no language raises, pads or passes what another fails."""
    judged = 0
    for exercise in EXERCISES:
        check = check_module(exercise)
        for case in check.public_cases() + check.hidden_cases(random.Random(1)):
            expectation = check.expect(case)
            for outcome in _outcomes(expectation):
                said = {
                    lang: judge_outcome(expectation, outcome, exercise, lang) for lang in LANGUAGES
                }
                assert len({passed for passed, _ in said.values()}) == 1, (exercise, case, said)
                for lang, (_, message) in said.items():
                    message = site_wording(message)
                    assert len(message) < 5000, (exercise, lang, message[:300])
                    assert "<class" not in message, (exercise, lang, message[:300])
                judged += 1
    assert judged > 5000


# -- the host --------------------------------------------------------------------------------

HOSTILE = [
    "../../../tmp/x",
    "ru/../../../../tmp/x",
    "../locales/ru",
    "/etc/passwd",
    "{0}{x:>999999999}",
    "%s%n",
    "x" * 200_000,
    ":" * 100_000 + "zz",
    "\udcff\udcfe",
    "ru\x7f",
    "C",
    "",
]


@pytest.mark.parametrize("name", ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"])
def test_a_hostile_environment_gives_a_course_language(name):
    for value in HOSTILE:
        started = time.monotonic()
        assert messages.from_environment({name: value}) in LANGUAGES
        assert messages.from_environment({name: value, "LANG": "et_EE"}) in LANGUAGES
        assert time.monotonic() - started < 1
    assert messages.from_environment({name: "ru_RU.UTF-8@../../x"}) == "ru"


def test_a_language_not_spoken_never_reaches_the_file_system(monkeypatch):
    def no_files(*args, **kwargs):
        raise AssertionError(f"a catalog was looked up: {args} {kwargs}")

    monkeypatch.setattr(messages.gettext, "find", no_files)
    for lang in HOSTILE + [None, "EN", "ru_RU", "en/../ru", "ru\x00"]:
        with pytest.raises(ValueError, match="the grader speaks en, ru, et"):
            render(msg("not written yet"), lang)
    assert render("learner text", "../../x") == "learner text"  # a string is never looked up


@pytest.mark.parametrize("value", ["../../../tmp/x", "ru/../../x", "{0}", "x" * 5000, "RU"])
def test_a_hostile_lang_option_is_a_one_line_usage_error(value):
    run = subprocess.run(
        [PYTHON, "-m", "grader", "--lang", value],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and "--lang" in run.stderr.strip().splitlines()[-1]


def _catalog(path, translations):
    """A compiled catalog at `path/LANG/LC_MESSAGES/course.mo` for ru and et."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    for lang in ("ru", "et"):
        catalog = Catalog(locale=lang, domain="course")
        for english, translated in translations.items():
            catalog.add(english, translated)
        mo = path / lang / "LC_MESSAGES" / "course.mo"
        mo.parent.mkdir(parents=True, exist_ok=True)
        with open(mo, "wb") as handle:
            write_mo(handle, catalog)


PLANTED = {"Score: {score}/{max_score}": "Score: 12/12{score:>99999999}"}


@needs_bwrap
def test_a_catalog_planted_where_the_grader_does_not_keep_its_own_is_not_read(tmp_path):
    """Catalogs in the working folder, HOME, TMPDIR and every folder a
    locale variable could name, and a hostile LANGUAGE: the grader reads its own."""
    planted = tmp_path / "planted"
    _catalog(planted / "locales", PLANTED)
    _catalog(planted, PLANTED)
    submission = planted / "submission"
    submission.mkdir()
    (submission / DAY4).write_text((ROOT / "solutions" / DAY4).read_text())
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "HOME": str(planted),
        "TMPDIR": str(planted),
        "LOCPATH": str(planted),
        "NLSPATH": f"{planted}/%L/LC_MESSAGES/%N.mo",
        "TEXTDOMAINDIR": str(planted),
        "LANGUAGE": "../../../../" + str(planted) + ":ru",
    }
    started = time.monotonic()
    run = subprocess.run(
        [PYTHON, "-m", "grader", str(submission), "--exercise", DAY4, "--seed", "1", "--quiet"],
        cwd=planted,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "Баллы: 3/3", run.stdout[:300]
    assert time.monotonic() - started < 90


def test_the_pages_check_in_a_language_not_spoken_is_an_error_not_a_file(tmp_path, monkeypatch):
    """The page's lang (web/worker.js) outside the course's languages: the Check answers
    with an error record, and no catalog is looked up for it."""
    import grader.public as public
    from grader.checks import published_cases

    cases = tmp_path / "public_cases.json"
    cases.write_text(json.dumps({DAY4: published_cases([DAY4])[DAY4]}))
    monkeypatch.setattr(public, "CASES_FILE", cases)
    public._shipped.cache_clear()
    from web import cellrun

    looked_up = []
    real_find = messages.gettext.find
    monkeypatch.setattr(
        messages.gettext, "find", lambda *a, **k: looked_up.append(a) or real_find(*a, **k)
    )
    for lang in ["../../../tmp/x", "de", None, "{0}"]:
        answer = json.loads(cellrun.check_exercise(DAY4, BUGGY_DAY4, lang))
        assert answer["ok"] is False and "ValueError" in json.dumps(answer), answer
    assert all(args[2] in (["ru"], ["et"]) for args in looked_up), looked_up
    assert json.loads(cellrun.check_exercise(DAY4, BUGGY_DAY4, "et"))["ok"] is True
    public._shipped.cache_clear()


@needs_bwrap
def test_the_server_grades_in_english_whatever_the_workers_environment(monkeypatch):
    """The course server calls the grader without a language (server/jobs.py): a worker
    started with LANGUAGE or LANG of another language still writes the English report
    the gradebook keeps, and the same score."""
    from server.jobs import grade_files

    sandbox = make_sandbox("bwrap", Limits(wall_seconds=10.0, cpu_seconds=10))
    answers = {}
    for env in ({"LANGUAGE": "ru", "LANG": "ru_RU.UTF-8"}, {"LANGUAGE": "", "LANG": "C"}):
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        answers[env["LANG"]] = grade_files(DAY4, BUGGY_DAY4.encode(), sandbox, seed=2)
    ru, en = answers["ru_RU.UTF-8"], answers["C"]
    assert ru[:2] == en[:2]
    assert "the gradient of a product is the OTHER factor" in ru[2]
    assert "градиент" not in ru[2] and SCORE_WORD["ru"] not in ru[2]


# -- the catalogs themselves -------------------------------------------------------------------


def _fields(text):
    return sorted(
        (name, spec, conversion)
        for _, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    )


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_grader_translation_has_exactly_its_messages_fields(lang):
    """Not only the same names (tests/i18n): no format spec, conversion, attribute or index
    of its own, so no translation pads, reaches into a value or fails on one."""
    from tests.i18n.test_grader_messages import grader_messages

    catalog = messages.catalog(lang)
    for english in grader_messages():
        translated = catalog.gettext(english)
        assert _fields(translated) == _fields(english), (lang, english, translated)
        assert all(spec == "" and conv is None for _, spec, conv in _fields(english)), english


# -- a catalog the grader cannot use -----------------------------------------------------------


@pytest.fixture
def own_catalogs(tmp_path, monkeypatch):
    """The grader's catalogs read from a folder of the test's (as if its own were replaced)."""
    folder = tmp_path / "locales"
    folder.mkdir()
    monkeypatch.setattr(messages, "LOCALE_DIRS", (folder,))
    messages.catalog.cache_clear()
    yield folder
    messages.catalog.cache_clear()


@pytest.mark.parametrize(
    "content",
    [b"not a catalog", b"\xde\x12\x04\x95" + b"\xff" * 12, b""],
    ids=["garbage", "truncated", "empty"],
)
def test_a_catalog_that_cannot_be_read_gives_english_and_a_warning_not_a_traceback(
    own_catalogs, content, tmp_path, capsys
):
    mo = own_catalogs / "ru" / "LC_MESSAGES" / "course.mo"
    mo.parent.mkdir(parents=True)
    mo.write_bytes(content)
    assert render(msg("your code raised {kind}", kind="ValueError"), "ru") == (
        "your code raised ValueError"
    )
    assert "course.mo" in capsys.readouterr().err
    # the whole report, not one case in error and a traceback after it
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / DAY4).write_text(BUGGY_DAY4)
    sandbox = make_sandbox("bwrap", Limits(wall_seconds=10.0, cpu_seconds=10))
    _, text, results = grade_one(folder, sandbox, [DAY4], 1, "ru")
    assert {t["status"] for t in results["tests"]} == {"failed"}, _said(results)
    assert "the gradient of a product is the OTHER factor" in text
    assert text.splitlines()[-1].startswith("Score: 0/3"), text


def test_a_translation_with_fields_of_its_own_is_not_used(own_catalogs):
    """A catalog whose translation pads, reaches into a value's attributes or names a field
    its message has not: that message in English, fast; the others translated."""
    _catalog(
        own_catalogs,
        {
            "Score: {score}/{max_score}": "Баллы: {score}/{max_score:>99999}",
            "your code raised {kind}": "{kind.__class__.__mro__} {kind[0]}",
            "{name}: no value came back.": "{name} {missing}",
            "not written yet": "ещё не написано",
        },
    )
    started = time.monotonic()
    assert render(msg("Score: {score}/{max_score}", score=1, max_score=2), "ru") == "Score: 1/2"
    assert render(msg("your code raised {kind}", kind="OSError"), "et") == (
        "your code raised OSError"
    )
    assert render(msg("{name}: no value came back.", name="x"), "ru") == "x: no value came back."
    assert render(msg("not written yet"), "ru") == "ещё не написано"
    assert time.monotonic() - started < 1


@needs_bwrap
def test_a_class_graded_in_russian_keeps_each_learners_text_in_its_own_row(tmp_path):
    """A batch in Russian: the learner whose text carries fields, line breaks and score
    lines of every language changes nothing in a classmate's row, and its own Gradescope
    outputs stay one escaped line each."""
    import csv

    from grader.batch import grade_folder

    for learner, source in {
        "ada": FORMAT_ATTACK,
        "bob": (ROOT / "solutions" / DAY5).read_text(),
    }.items():
        (tmp_path / "class" / learner).mkdir(parents=True)
        (tmp_path / "class" / learner / DAY5).write_text(source)
    sandbox = make_sandbox("bwrap", Limits(wall_seconds=10.0, cpu_seconds=10))
    gradebook = tmp_path / "grades.csv"
    assert grade_folder(tmp_path / "class", sandbox, [DAY5], gradebook, 5, True, "ru") == 0

    rows = {row["learner"]: row for row in csv.DictReader(gradebook.open(encoding="utf-8"))}
    assert (rows["bob"]["status"], rows["bob"]["score"], rows["bob"]["message"]) == (
        "graded",
        "3",
        "",
    )
    assert rows["ada"]["score"] == "0" and rows["ada"]["status"] == "graded"
    gradescope, text, _ = grade_one(tmp_path / "class" / "ada", sandbox, [DAY5], 5, "ru")
    for test in gradescope["tests"]:
        assert "\n" not in test["output"] and "\x1b" not in test["output"]
    assert gradescope["score"] == 0 and gradescope["output"].startswith("Баллы 0/3")


@needs_bwrap
def test_a_terminal_that_cannot_write_the_language_gets_escapes_not_a_traceback(tmp_path):
    """LANGUAGE=ru on an ASCII terminal: the report in Russian, written as escapes."""
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / DAY4).write_text(BUGGY_DAY4)
    run = subprocess.run(
        [PYTHON, "-m", "grader", str(folder), "--exercise", DAY4, "--seed", "1"],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "ascii", "LANGUAGE": "ru", "LC_ALL": ""},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout.decode("ascii")
    assert out.splitlines()[-1].startswith("\\u0411\\u0430\\u043b\\u043b\\u044b: 0/3"), out[-300:]
    assert b"Traceback" not in run.stderr
