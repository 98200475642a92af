"""Attacks on a submission's language (submissions.language): the page's language chooses the
words of the grader's report and nothing else. The same code earns the same marks in every
language; a hostile ?lang=, Accept-Language or body field stores a language the course speaks;
a row that holds another value (hand-written, or an older server's) is graded, shown and
served as English; the migration keeps a class's work on the way up, down and up again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import inspect, text

from grader.messages import DEFAULT, LANGUAGES
from server import jobs
from server.models import Deadline, Submission, now

from .client import EXERCISE, make_server
from .rows_0001 import add_submission, first_schema
from .test_jobs import row
from .test_jobs import stored as stored_job

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = (ROOT / "solutions" / EXERCISE).read_bytes()
# A learner's usual mistake: a sum that subtracts (some cases pass, some fail).
BUGGY = SOLUTION.replace(b"Value(self.data + other.data", b"Value(self.data - other.data")
assert BUGGY != SOLUTION


def stored(db, code, language, late=False, deadline=False) -> str:
    """A queued submission of a new learner, as submit() stores it (test_jobs.stored), with
    a 30 % late penalty on its exercise if `deadline`; its id."""
    sub_id = stored_job(db, EXERCISE, code, late=late, language=language)
    if deadline:
        with db.session() as s:
            sub = s.get(Submission, sub_id)
            s.add(
                Deadline(
                    class_id=sub.class_id,
                    exercise=EXERCISE,
                    due_at=now(),
                    late_policy="penalty",
                    penalty_percent=30,
                )
            )
    return sub_id


# --- (1) a learner after marks: the language changes words, never marks ---------------------

CODES = {
    "solution": SOLUTION,
    "buggy": BUGGY,
    "stub": (ROOT / "exercises" / EXERCISE).read_bytes(),
    "syntax error": b"def (:\n",
    "not UTF-8": b"x = '\xff\xfe'\n",
    "exits": b"import sys\nsys.exit(3)\n",
    "raises a stub's words": b"raise NotImplementedError('Day 5: write add. Read x')\n",
    "braces in its error": b"raise ValueError('{lang} {0} {score!r} %s')\n",
    "dies after printing": b"print('{x} Last output: 1')\nimport os\nos._exit(0)\n",
    "an int for a float": SOLUTION.replace(b"self.grad = 0.0", b"self.grad = 0"),
}


def _marks(sub: Submission):
    cases = [
        (t["name"], t["public"], t["passed"], t["status"])
        for t in (sub.results or {}).get("tests", [])
    ]
    return sub.state, sub.score, sub.raw_score, sub.max_score, cases


@pytest.mark.parametrize("late", [False, True], ids=["on time", "late"])
@pytest.mark.parametrize("code", CODES)
def test_the_same_code_earns_the_same_marks_in_every_language(db, settings, sandbox, code, late):
    ids = {lang: stored(db, CODES[code], lang, late=late, deadline=True) for lang in LANGUAGES}
    for sub_id in ids.values():
        assert jobs.grade_submission(db, settings, sandbox, sub_id) in ("graded", "error")
    marks = {lang: _marks(row(db, sub_id)) for lang, sub_id in ids.items()}
    assert marks["ru"] == marks["en"] and marks["et"] == marks["en"]
    state, score, raw, max_score, _ = marks["en"]
    assert state == "graded", f"{code}: graded, a 0 if it is wrong, never an error"
    assert max_score and max_score > 0
    if late and raw:
        assert score == pytest.approx(raw * 0.7)


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def _numbers(feedback: str) -> set[str]:
    # The last line's grading time differs from run to run.
    return set(_NUMBER.findall("\n".join(feedback.splitlines()[:-1])))


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("code", ["buggy", "stub", "dies after printing", "an int for a float"])
@pytest.mark.parametrize("lang", ["ru", "et"])
def test_a_translated_report_tells_no_number_the_english_one_does_not(
    db, settings, sandbox, lang, code
):
    """Hidden cases' inputs and answers: a learner reading in another language sees no more
    of them than an English reader of the same grading."""
    english, translated = stored(db, CODES[code], "en"), stored(db, CODES[code], lang)
    for sub_id in (english, translated):
        assert jobs.grade_submission(db, settings, sandbox, sub_id) == "graded"
    english, translated = row(db, english), row(db, translated)
    assert translated.feedback != english.feedback
    assert _numbers(translated.feedback) <= _numbers(english.feedback)


# --- (2) hostile languages at the door --------------------------------------------------------


@pytest.fixture
def srv(tmp_path):
    server = make_server(tmp_path, f"sqlite:///{tmp_path / 'course.db'}")
    yield server
    server.db.dispose()


HOSTILE = {
    "path": ({"lang": "../../../etc/passwd"}, {}, "en"),
    "NUL": ({"lang": "ru\x00"}, {}, "en"),
    "CRLF": ({"lang": "ru\r\nX-Evil: 1"}, {}, "en"),
    "upper case": ({"lang": "RU"}, {}, "en"),
    "region": ({"lang": "ru-RU"}, {}, "en"),
    "Cyrillic": ({"lang": "ру"}, {}, "en"),
    "huge": ({"lang": "ru" * 10_000}, {}, "en"),
    # Starlette reads the last: the language every page of the server would speak.
    "twice": ([("lang", "de"), ("lang", "et")], {}, "et"),
    "header path": ({}, {"Accept-Language": "../ru"}, "en"),
    "header huge": ({}, {"Accept-Language": "x" * 100_000 + ",ru"}, "en"),
    "header weights": ({}, {"Accept-Language": "ru;q=0.2, et;q=0.9, en;q=0.1"}, "et"),
    "header weight over 1": ({}, {"Accept-Language": "en, ru;q=99999"}, "ru"),
    "header bad weight": ({}, {"Accept-Language": "ru;q=1.2.3, de"}, "en"),
    "header many": ({}, {"Accept-Language": ",".join(["de"] * 60 + ["ru"])}, "en"),
    "query beats header": ({"lang": "et"}, {"Accept-Language": "ru"}, "et"),
    "bad query, header": ({"lang": "<b>"}, {"Accept-Language": "ru"}, "ru"),
}


@pytest.mark.parametrize("case", HOSTILE)
def test_a_hostile_language_stores_one_the_course_speaks(srv, case):
    params, headers, expected = HOSTILE[case]
    class_id, _ = srv.new_class()
    learner = srv.signed_in("eve", class_id)
    body = {"exercise": EXERCISE, "code": "x = 1\n"}
    answer = learner.post("/api/submissions", body, params=params, headers=headers)
    assert answer.status_code == 202, answer.text
    shown = answer.json()["submission"]
    assert shown["language"] == expected
    assert row(srv.db, shown["id"]).language == expected


@pytest.mark.parametrize("value", ["xx", "<b>", "ru", None, 7, ["et"]])
def test_a_language_in_the_body_is_not_used(srv, value):
    """Only the page's language counts: a body field cannot choose (nor break) it."""
    class_id, _ = srv.new_class()
    learner = srv.signed_in("eve", class_id)
    body = {"exercise": EXERCISE, "code": "x = 1\n", "language": value, "lang": value}
    answer = learner.post("/api/submissions", body, headers={"Accept-Language": "et"})
    assert answer.status_code == 202, answer.text
    assert answer.json()["submission"]["language"] == "et"


# --- (2) a row that holds a language the course does not speak ----------------------------------
# Written by hand or by an older server: five characters at most on PostgreSQL (below), any
# text on SQLite, which does not hold a VARCHAR to its length (the server's tests use SQLite).
UNSPOKEN = ["xx", "RU", "ru ", "", '"><b>', "de-DE", "ru\x00", "ру", "<script>" * 40, "../ru"]


def _graded_in(monkeypatch) -> list[str]:
    """Replace the sandboxed grading by one that records the language it was asked for."""
    asked = []

    def grade_files(exercise, code, sandbox, seed=None, lang=DEFAULT):
        asked.append(lang)
        return 1.0, 1.0, f"report in {lang}", {"tests": []}

    monkeypatch.setattr(jobs, "grade_files", grade_files)
    return asked


@pytest.mark.parametrize("value", UNSPOKEN)
def test_an_unspoken_language_is_graded_shown_and_served_as_english(srv, monkeypatch, value):
    class_id, _ = srv.new_class()
    learner = srv.signed_in("eve", class_id)
    answer = learner.post("/api/submissions", {"exercise": EXERCISE, "code": "x = 1\n"})
    sub_id = answer.json()["submission"]["id"]
    with srv.db.session() as s:
        s.get(Submission, sub_id).language = value
    asked = _graded_in(monkeypatch)
    assert jobs.grade_submission(srv.db, srv.settings, None, sub_id) == "graded"
    assert asked == ["en"]
    # The API says the language the report is in: the page marks its <pre> with it.
    served = learner.get(f"/api/submissions/{sub_id}").json()["submission"]
    assert served["language"] == "en"
    listed = learner.get("/api/submissions").json()["submissions"]
    assert [s["language"] for s in listed] == ["en"]
    teacher = srv.signed_in("teacher", class_id, role="instructor")
    page = teacher.get(f"/instructor/submissions/{sub_id}").text
    assert '<pre class="feedback" lang="en">' in page
    assert "<b>" not in page and "<script>" not in page


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_postgresql_refuses_a_hand_written_language_over_five_characters(db):
    from sqlalchemy.exc import DataError

    sub_id = stored(db, b"x = 1\n", "en")
    with pytest.raises(DataError):
        with db.session() as s:
            s.get(Submission, sub_id).language = "ru-RU-x"
    assert row(db, sub_id).language == "en"


def test_a_language_longer_than_the_column_is_never_written(srv):
    """PostgreSQL refuses a sixth character: the server writes only the course's languages."""
    from sqlalchemy import String

    width = Submission.__table__.c.language.type
    assert isinstance(width, String) and all(len(lang) <= width.length for lang in LANGUAGES)


# --- re-grades, gradebook, CSV with a class of several languages -----------------------------


def test_a_regrade_keeps_each_learners_language_and_the_csv_is_the_same(srv, monkeypatch):
    asked = _graded_in(monkeypatch)
    class_id, _ = srv.new_class()
    ids = {}
    for lang in LANGUAGES:
        learner = srv.signed_in(f"l{lang}", class_id)
        answer = learner.post(
            "/api/submissions", {"exercise": EXERCISE, "code": "x = 1\n"}, params={"lang": lang}
        )
        ids[lang] = answer.json()["submission"]["id"]
    for sub_id in ids.values():
        jobs.grade_submission(srv.db, srv.settings, None, sub_id)
    teacher = srv.signed_in("teacher", class_id, role="instructor")
    before = teacher.get(f"/instructor/classes/{class_id}/gradebook.csv").text
    answer = teacher.client.post(
        f"/instructor/classes/{class_id}/regrade?lang=ru",
        data={"exercise": EXERCISE, "csrf": teacher.csrf()},
        headers={"Accept-Language": "et"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    asked.clear()
    for lang, sub_id in ids.items():
        jobs.grade_submission(srv.db, srv.settings, None, sub_id)
        assert row(srv.db, sub_id).language == lang
    assert sorted(asked) == sorted(LANGUAGES)
    after = teacher.get(f"/instructor/classes/{class_id}/gradebook.csv").text
    assert after == before
    lines = before.splitlines()[1:]
    assert len(lines) == 3 and len({line.split(",", 2)[2] for line in lines}) == 1


# --- the migration on a class's work: up, down, up again --------------------------------------


def _schema(conn):
    found = inspect(conn)
    return (
        sorted(tuple(sorted(i["column_names"])) for i in found.get_indexes("submissions")),
        sorted(
            (tuple(f["constrained_columns"]), f["referred_table"])
            for f in found.get_foreign_keys("submissions")
        ),
    )


def test_the_migration_keeps_a_class_s_work_up_down_and_up_again(database_url):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from server.models import Base

    with first_schema(database_url) as (db, config):
        with db.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO regrades (id, class_id, exercise, total, created_at) "
                    "VALUES (1, 1, 'day05_add_mul.py', 2, CURRENT_TIMESTAMP)"
                )
            )
            for sub_id, regrade in (("old-1", None), ("old-2", 1)):
                add_submission(
                    conn,
                    sub_id,
                    b"\x00\xff",
                    late=True,
                    regrade_id=regrade,
                    score=2.5,
                    max_score=3.0,
                    feedback="Score",
                )
            old_schema = _schema(conn)
        kept = "SELECT id, code, late, regrade_id, score, feedback FROM submissions ORDER BY id"
        with db.engine.connect() as conn:
            old_rows = conn.execute(text(kept)).all()
        for _ in range(2):
            command.upgrade(config, "head")
            with db.session() as s:
                assert {sub.language for sub in s.query(Submission)} == {"en"}
            with db.engine.connect() as conn:
                assert conn.execute(text(kept)).all() == old_rows
                context = MigrationContext.configure(conn, opts={"compare_type": True})
                assert compare_metadata(context, Base.metadata) == []
            command.downgrade(config, "0001")
            with db.engine.connect() as conn:
                assert conn.execute(text(kept)).all() == old_rows
                assert _schema(conn) == old_schema
        # A new submission after the second upgrade says English unless told otherwise.
        command.upgrade(config, "head")
        with db.engine.begin() as conn:
            add_submission(conn, "new-1", b"x", state="queued", attempts=0)
        assert row(db, "new-1").language == "en"


# --- both queues, as real processes ---------------------------------------------------------


@pytest.mark.parametrize("database, broker", [("sqlite", "database"), ("postgresql", "redis")])
def test_each_queue_grades_in_the_language_of_the_page(
    request, tmp_path, sandbox, database, broker
):
    from .processes import Course, reference

    if database == "sqlite":
        url = f"sqlite:///{tmp_path / 'course.db'}"
    else:
        url = request.getfixturevalue("postgres_cluster").new_database("redteam_sublang")
    broker_url = request.getfixturevalue("redis_url") if broker == "redis" else "database"
    c = Course(tmp_path / "course", url, broker_url)
    try:
        c.serve(workers=1)
        learner = c.learner("Eve")
        code = reference(EXERCISE).replace("self.data + other.data", "self.data - other.data")
        asks = {
            "ru": {"params": {"lang": "ru"}},
            "et": {"headers": {"Accept-Language": "et-EE, ru;q=0.5"}},
            "en": {"params": {"lang": "../et"}, "headers": {"Accept-Language": "de"}},
        }
        ids = {}
        for lang, ask in asks.items():
            headers = {"X-CSRF-Token": learner.csrf, **ask.get("headers", {})}
            answer = learner.client.post(
                "/api/submissions",
                json={"exercise": EXERCISE, "code": code},
                params=ask.get("params"),
                headers=headers,
            )
            assert answer.status_code == 202, answer.text
            ids[lang] = answer.json()["submission"]["id"]
        rows = {sub.id: sub for sub in c.wait_done(ids.values())}
        english = rows[ids["en"]]
        for lang, sub_id in ids.items():
            sub = rows[sub_id]
            assert (sub.state, sub.score, sub.max_score) == (
                english.state,
                english.score,
                english.max_score,
            )
            served = learner.get(sub_id)
            assert served["language"] == lang
            graded = GRADED_LINE if lang == "en" else _said(GRADED_LINE, lang)
            assert graded in served["feedback"].splitlines()
        learner.close()
    finally:
        c.close()


GRADED_LINE = "Graded: the cases marked [hidden], with inputs drawn afresh on every run."


def _said(english, lang):
    from grader.messages import catalog

    translated = catalog(lang).gettext(english)
    assert translated != english
    return translated
