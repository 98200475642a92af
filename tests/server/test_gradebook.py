"""The instructor's pages: the gradebook, a submission, the CSV and JSON, grading again.

Every test runs on SQLite and on PostgreSQL. Submissions are written into the database
as the API and a worker would; a few are graded for real in the sandbox.
"""

from __future__ import annotations

import csv
import hashlib
import io
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from server import jobs, people
from server.app import create_app
from server.config import Settings
from server.db import Database
from server.models import Deadline, Regrade, Submission, now

ROOT = Path(__file__).resolve().parents[2]
ADD_MUL = "day05_add_mul.py"
VALUE = "day03_value.py"
SOLVED = (ROOT / "solutions" / ADD_MUL).read_bytes()
STUB = (ROOT / "exercises" / ADD_MUL).read_bytes()
SCRIPT_NAME = "<script>alert(1)</script>"
FORMULA_NAMES = ("=cmd|' /C calc'!A0", "@SUM(1)")
BASE = now() - timedelta(days=2)


@dataclass
class World:
    settings: Settings
    db: Database
    app: object
    course: int
    other_course: int
    users: dict = field(default_factory=dict)  # label -> user id

    def client(self, label: str | None) -> tuple[TestClient, str]:
        """A browser signed in as `label` (None: signed out) and its CSRF token."""
        client = TestClient(self.app, base_url="http://127.0.0.1:8000")
        csrf = client.get("/api/session").json()["csrf"]
        if label is None:
            return client, csrf
        with self.db.session() as s:
            from server.models import User

            link = people.signin_link(s, s.get(User, self.users[label]), self.settings.public_url)
        answer = client.post(
            "/api/signin-link",
            json={"token": link.rsplit("/", 1)[1]},
            headers={"x-csrf-token": csrf},
        )
        assert answer.status_code == 200, answer.text
        return client, answer.json()["csrf"]

    def submit(self, label, exercise, code=STUB, minutes=0, course=None, **row) -> str:
        """Store a submission as the API does, with the result a worker would write."""
        sub_id = str(uuid.uuid4())
        values = dict(state="queued", attempts=0, late=False)
        values.update(row)
        if values["state"] == "graded":
            values.setdefault("attempts", 1)
            values.setdefault("feedback", f"Score: {values.get('score')}")
            values.setdefault("results", {"tests": [], "similarity": []})
            values.setdefault("graded_at", now())
        with self.db.session() as s:
            s.add(
                Submission(
                    id=sub_id,
                    user_id=self.users[label],
                    class_id=course or self.course,
                    exercise=exercise,
                    code=code,
                    sha256=hashlib.sha256(code).hexdigest(),
                    created_at=BASE + timedelta(minutes=minutes),
                    **values,
                )
            )
        return sub_id

    def row(self, sub_id) -> Submission:
        with self.db.session() as s:
            return s.get(Submission, sub_id)


@pytest.fixture
def world(database_url, tmp_path):
    settings = Settings.from_env(
        {"COURSE_DATA_DIR": str(tmp_path), "DATABASE_URL": database_url, "SECRET_KEY": "k" * 40}
    )
    db = Database(settings.database_url)
    db.migrate()
    users = {}
    with db.session() as s:
        course = people.create_class(s, "Autumn class")
        other = people.create_class(s, "Spring class")
        users["teacher"] = people.add_member(s, course, "Teacher", role="instructor").id
        users["ada"] = people.add_member(s, course, "Ada Lovelace").id
        users["grace"] = people.add_member(s, course, "Grace Hopper").id
        users["script"] = people.add_member(s, course, SCRIPT_NAME, login="scripted").id
        users["formula"] = people.add_member(s, course, FORMULA_NAMES[0], login="formula").id
        users["sum"] = people.add_member(s, course, FORMULA_NAMES[1], login="summed").id
        users["other_teacher"] = people.add_member(s, other, "Other Teacher", role="instructor").id
        users["bob"] = people.add_member(s, other, "Bob Other").id
        course_id, other_id = course.id, other.id
    app = create_app(settings, db)
    yield World(settings, db, app, course_id, other_id, users)
    db.dispose()


# --- reading the pages -----------------------------------------------------------------


class Tables(HTMLParser):
    """Every table of a page: its caption, and its rows as lists of cell texts."""

    def __init__(self, html: str):
        super().__init__()
        self.tables: list[dict] = []
        self._text: list[str] | None = None
        self._in_caption = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append({"caption": "", "rows": []})
        elif tag == "caption":
            self._in_caption, self._text = True, []
        elif tag == "tr":
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th"):
            self._text = []

    def handle_endtag(self, tag):
        if tag == "caption":
            self.tables[-1]["caption"] = " ".join("".join(self._text).split())
            self._in_caption, self._text = False, None
        elif tag in ("td", "th") and self._text is not None:
            self.tables[-1]["rows"][-1].append(" ".join("".join(self._text).split()))
            self._text = None

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)

    def grid(self, caption_word: str) -> dict[str, dict[str, str]]:
        """{row's first cell: {column heading: cell text}} of the table with that caption."""
        (table,) = [t for t in self.tables if caption_word in t["caption"]]
        heading, *rows = table["rows"]
        return {row[0]: dict(zip(heading, row)) for row in rows}


def learner_row(grid, name):
    (key,) = [k for k in grid if k.startswith(name)]
    return grid[key]


# --- the gradebook ---------------------------------------------------------------------


def test_home_lists_the_classes_taught(world):
    client, _ = world.client("teacher")
    page = client.get("/instructor/")
    assert page.status_code == 200
    grid = Tables(page.text).grid("classes you teach")
    assert list(grid) == ["Autumn class"]
    with world.db.session() as s:
        from server.models import Course

        code = s.get(Course, world.course).invite_code
    assert grid["Autumn class"]["Invite code"] == code
    assert grid["Autumn class"]["Learners"] == "5"
    assert f'href="/instructor/classes/{world.course}"' in page.text

    signed_out, _ = world.client(None)
    answer = signed_out.get("/instructor/", follow_redirects=False)
    assert answer.status_code in (302, 303) and answer.headers["location"].endswith("/signin/")


def test_gradebook_shows_best_score_tries_late_and_state(world):
    ada = [
        world.submit("ada", ADD_MUL, minutes=1, state="graded", score=1.0, max_score=3.0),
        world.submit(
            "ada", ADD_MUL, minutes=2, state="graded", score=2.4, max_score=3.0, late=True
        ),
        world.submit("ada", ADD_MUL, minutes=3, state="graded", score=2.0, max_score=3.0),
    ]
    world.submit("grace", ADD_MUL, minutes=4, state="graded", score=3.0, max_score=3.0)
    world.submit("grace", ADD_MUL, minutes=5, state="queued")
    world.submit("grace", VALUE, minutes=6, state="error", feedback="the grader failed")
    world.submit(
        "bob",
        ADD_MUL,
        minutes=7,
        state="graded",
        score=0.0,
        max_score=3.0,
        course=world.other_course,
    )
    with world.db.session() as s:
        s.add(
            Deadline(
                class_id=world.course,
                exercise="day06_backward.py",
                due_at=now() + timedelta(days=3),
                late_policy="penalty",
                penalty_percent=20,
            )
        )
    client, _ = world.client("teacher")
    page = client.get(f"/instructor/classes/{world.course}")
    assert page.status_code == 200
    tables = Tables(page.text)
    grid = tables.grid("Learners")
    heading = next(iter(grid.values()))
    # The exercises with submissions or a deadline, in the course's order.
    assert list(heading)[1:] == [VALUE, ADD_MUL, "day06_backward.py"]
    assert not any(name.startswith("Bob") for name in grid)  # another class's learner

    cell = learner_row(grid, "Ada Lovelace")[ADD_MUL]
    assert cell.startswith("2.4 / 3") and "3 tries" in cell and "late" in cell
    assert f'href="/instructor/submissions/{ada[-1]}"' in page.text  # the latest try

    grace = learner_row(grid, "Grace Hopper")
    assert grace[ADD_MUL].startswith("3 / 3") and "2 tries" in grace[ADD_MUL]
    assert "late" not in grace[ADD_MUL] and "queued" in grace[ADD_MUL]
    assert grace[VALUE].startswith("– /") and "1 try" in grace[VALUE] and "error" in grace[VALUE]
    assert "no submission" in learner_row(grid, SCRIPT_NAME)[ADD_MUL]

    deadlines = tables.grid("deadlines")
    assert list(deadlines) == ["day06_backward.py"]
    assert "20%" in deadlines["day06_backward.py"]["After the deadline"]
    # A re-grade form for each exercise that has submissions, with the session's token.
    assert page.text.count(f'action="/instructor/classes/{world.course}/regrade"') == 2


def test_a_real_grading_lands_in_the_gradebook(world):
    from grader.sandbox import detect

    solved = world.submit("ada", ADD_MUL, code=SOLVED, minutes=1)
    stub = world.submit("grace", ADD_MUL, code=STUB, minutes=2)
    sandbox = detect("auto")
    assert jobs.grade_submission(world.db, world.settings, sandbox, solved) == "graded"
    assert jobs.grade_submission(world.db, world.settings, sandbox, stub) == "graded"
    client, _ = world.client("teacher")
    grid = Tables(client.get(f"/instructor/classes/{world.course}").text).grid("Learners")
    maximum = world.row(solved).max_score
    assert maximum > 0
    assert learner_row(grid, "Ada Lovelace")[ADD_MUL].startswith(f"{maximum:g} / {maximum:g}")
    assert learner_row(grid, "Grace Hopper")[ADD_MUL].startswith(f"0 / {maximum:g}")
    page = client.get(f"/instructor/submissions/{solved}").text
    assert "Grading exercises/day05_add_mul.py" in page  # the grader's report


def test_others_get_404_on_every_instructor_url(world):
    sub_id = world.submit("ada", ADD_MUL, minutes=1, state="graded", score=3.0, max_score=3.0)
    teacher, csrf = world.client("teacher")
    answer = teacher.post(
        f"/instructor/classes/{world.course}/regrade",
        data={"exercise": ADD_MUL, "csrf": csrf},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    regrade_id = answer.headers["location"].rsplit("/", 1)[1]
    world.submit("ada", ADD_MUL, minutes=2, state="graded", score=1.0, max_score=3.0)
    c, u = world.course, world.users["ada"]
    pages = [
        f"/instructor/classes/{c}",
        f"/instructor/classes/{c}/gradebook.csv",
        f"/instructor/classes/{c}/learners/{u}.json",
        f"/instructor/submissions/{sub_id}",
        f"/instructor/regrades/{regrade_id}",
        f"/api/regrades/{regrade_id}",
    ]
    for label in ("ada", "other_teacher", None):
        client, their_csrf = world.client(label)
        for url in pages:
            assert client.get(url, follow_redirects=False).status_code == 404, (label, url)
        answer = client.post(
            f"/instructor/classes/{c}/regrade",
            data={"exercise": ADD_MUL, "csrf": their_csrf},
            follow_redirects=False,
        )
        assert answer.status_code == 404, label
    # Nothing was queued again by them: only the teacher's one re-grade exists.
    with world.db.session() as s:
        assert s.scalars(select(Regrade.id)).all() == [int(regrade_id)]
    # The teacher sees all of it; ids that are not there are 404 too.
    for url in pages:
        assert teacher.get(url).status_code == 200, url
    for url in (
        f"/instructor/classes/{world.other_course}",
        f"/instructor/classes/{c}/learners/{world.users['bob']}.json",
        f"/instructor/classes/{c}/learners/{world.users['teacher']}.json",
        f"/instructor/classes/{2**40}",
        f"/instructor/submissions/{uuid.uuid4()}",
        f"/api/regrades/{2**40}",
    ):
        assert teacher.get(url).status_code == 404, url
    assert world.client("ada")[0].get("/instructor/").status_code == 404


def test_csv_neutralises_formulas(world):
    world.submit("formula", ADD_MUL, minutes=1, state="graded", score=2.0, max_score=3.0)
    world.submit("sum", ADD_MUL, minutes=2, state="graded", score=3.0, max_score=3.0, late=True)
    world.submit("sum", ADD_MUL, minutes=3, state="queued")
    client, _ = world.client("teacher")
    answer = client.get(f"/instructor/classes/{world.course}/gradebook.csv")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["content-disposition"].startswith("attachment")
    header, *rows = list(csv.reader(io.StringIO(answer.text)))
    assert header[:2] == ["login", "name"]
    assert header[2:] == [
        f"{ADD_MUL} score",
        f"{ADD_MUL} max",
        f"{ADD_MUL} tries",
        f"{ADD_MUL} late",
        f"{ADD_MUL} similar",
    ]
    by_login = {row[0]: row for row in rows}
    assert by_login["formula"][1] == "'" + FORMULA_NAMES[0]
    assert by_login["summed"][1] == "'" + FORMULA_NAMES[1]
    assert by_login["formula"][2:] == ["2.0", "3.0", "1", "", ""]
    assert by_login["summed"][2:] == ["3.0", "3.0", "2", "late", ""]
    assert by_login["ada.lovelace"][2:] == ["", "", "0", "", ""]
    assert len(rows) == 5  # every learner, no instructor
    for row in rows:
        for value in row:
            assert not value.startswith(("=", "+", "-", "@")), row


def test_learner_json_has_each_try(world):
    results = {"tests": [{"name": "case", "passed": True}], "similarity": [], "seed": 7}
    first = world.submit(
        "ada", ADD_MUL, minutes=1, state="graded", score=1.0, max_score=3.0, results=results
    )
    second = world.submit("ada", ADD_MUL, minutes=2, state="queued", late=True)
    third = world.submit("ada", VALUE, minutes=3, state="error", feedback="x")
    world.submit("grace", ADD_MUL, minutes=4, state="graded", score=3.0, max_score=3.0)
    client, _ = world.client("teacher")
    data = client.get(f"/instructor/classes/{world.course}/learners/{world.users['ada']}.json")
    assert data.status_code == 200
    data = data.json()
    assert data["learner"]["login"] == "ada.lovelace"
    assert set(data["exercises"]) == {ADD_MUL, VALUE}
    tries = data["exercises"][ADD_MUL]
    assert [t["id"] for t in tries] == [first, second]
    assert tries[0]["state"] == "graded" and tries[0]["score"] == 1.0
    assert tries[0]["max_score"] == 3.0 and tries[0]["late"] is False
    assert tries[0]["results"] == results
    assert tries[1]["state"] == "queued" and tries[1]["late"] is True
    assert tries[1]["score"] is None and tries[1]["results"] is None
    assert tries[0]["created_at"] < tries[1]["created_at"]
    assert [t["id"] for t in data["exercises"][VALUE]] == [third]


# --- grading again ---------------------------------------------------------------------


def test_regrade_needs_the_token_and_requeues_that_exercise_of_that_class(world):
    from grader.sandbox import detect

    ours = [
        world.submit(
            "ada", ADD_MUL, code=SOLVED, minutes=1, state="graded", score=3.0, max_score=3.0
        ),
        world.submit("ada", ADD_MUL, code=STUB, minutes=2, state="error", attempts=3),
        world.submit(
            "grace", ADD_MUL, code=SOLVED, minutes=3, state="graded", score=1.0, max_score=3.0
        ),
    ]
    held = world.submit("script", ADD_MUL, code=SOLVED, minutes=4)
    token = jobs.claim(world.db, held, world.settings.lease_seconds)  # a worker has it now
    ours.append(held)
    other_exercise = world.submit("ada", VALUE, minutes=5, state="graded", score=2.0, max_score=4.0)
    other_class = world.submit(
        "bob",
        ADD_MUL,
        minutes=6,
        state="graded",
        score=2.0,
        max_score=3.0,
        course=world.other_course,
    )
    client, csrf = world.client("teacher")
    url = f"/instructor/classes/{world.course}/regrade"

    refused = [
        client.post(url, data={"exercise": ADD_MUL}, follow_redirects=False),
        client.post(url, data={"exercise": ADD_MUL, "csrf": "0" * 64}, follow_redirects=False),
        client.post(url, data={"exercise": ADD_MUL, "csrf": world.client("other_teacher")[1]}),
    ]
    assert [r.status_code for r in refused] == [403, 403, 403]
    assert world.row(ours[0]).state == "graded" and world.row(ours[0]).regrade_id is None

    foreign = {"origin": "https://elsewhere.example"}
    answer = client.post(url, data={"exercise": ADD_MUL, "csrf": csrf}, headers=foreign)
    assert answer.status_code == 403
    # A browser sends the page's origin with the form only if the page lets it.
    book = client.get(f"/instructor/classes/{world.course}")
    assert book.headers["referrer-policy"] == "same-origin"
    answer = client.post(
        url,
        data={"exercise": ADD_MUL, "csrf": csrf},
        headers={"origin": "http://127.0.0.1:8000"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    location = answer.headers["location"]
    regrade_id = int(location.rsplit("/", 1)[1])
    for sub_id in ours:
        row = world.row(sub_id)
        assert (row.state, row.claim, row.lease_until, row.attempts) == ("queued", None, None, 0)
        assert row.regrade_id == regrade_id and row.enqueued_at is None
    for sub_id in (other_exercise, other_class):
        row = world.row(sub_id)
        assert row.state == "graded" and row.score == 2.0 and row.regrade_id is None
    # The worker that held one loses it: its (old) result is not stored.
    assert not jobs.finish(world.db, held, token, {"state": "graded", "score": 0.0})

    page = client.get(location)
    assert page.status_code == 200
    assert "0 of 4 graded" in page.text
    assert 'src="/instructor/static/regrade.js"' in page.text
    script = client.get("/instructor/static/regrade.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert "/api/regrades/" in page.text and "<script>" not in page.text  # no inline script

    progress = f"/api/regrades/{regrade_id}"
    assert client.get(progress).json() == {"total": 4, "done": 0, "state": "running"}
    sandbox = detect("auto")
    for done, sub_id in enumerate(ours, start=1):
        assert jobs.grade_submission(world.db, world.settings, sandbox, sub_id) == "graded"
        expected = "done" if done == len(ours) else "running"
        assert client.get(progress).json() == {"total": 4, "done": done, "state": expected}
    assert world.row(ours[1]).score == 0.0  # the stub: graded this time, no error
    assert world.row(ours[2]).score == world.row(ours[2]).max_score  # the solution, in full


def test_regrade_of_an_exercise_nobody_submitted_is_refused(world):
    client, csrf = world.client("teacher")
    url = f"/instructor/classes/{world.course}/regrade"
    assert client.post(url, data={"exercise": ADD_MUL, "csrf": csrf}).status_code == 400
    assert client.post(url, data={"exercise": "../x.py", "csrf": csrf}).status_code == 400
    with world.db.session() as s:
        assert s.scalars(select(Regrade)).all() == []


# --- what learners wrote, shown ----------------------------------------------------------


def test_pages_escape_learner_names_and_code(world):
    code = b"x = 1\n</pre><script>alert(2)</script>\n# \xe2\x80\xae reversed\n"
    sub_id = world.submit(
        "script",
        ADD_MUL,
        code=code,
        minutes=1,
        state="graded",
        score=0.0,
        max_score=3.0,
        feedback="</pre><b>feedback</b>",
    )
    client, _ = world.client("teacher")
    book = client.get(f"/instructor/classes/{world.course}").text
    assert "<script" not in book
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in book
    page = client.get(f"/instructor/submissions/{sub_id}")
    assert page.status_code == 200
    assert "<script" not in page.text and "<b>" not in page.text
    assert "&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text  # the learner's name
    assert "\u202e" not in page.text and "\\u202e reversed" in page.text  # shown, not obeyed


# --- similarity --------------------------------------------------------------------------


def test_similarity_flags_the_latest_try(world):
    engine_row = {"exercise": ADD_MUL, "match": "engine/value.py", "share": 0.9}
    # Ada's older try matched the engine, her latest does not: no flag.
    world.submit(
        "ada",
        ADD_MUL,
        minutes=1,
        state="graded",
        score=1.0,
        max_score=3.0,
        results={"tests": [], "similarity": [engine_row]},
    )
    world.submit("ada", ADD_MUL, minutes=2, state="graded", score=2.0, max_score=3.0)
    # Grace's latest matched it.
    graces = world.submit(
        "grace",
        ADD_MUL,
        minutes=3,
        state="graded",
        score=3.0,
        max_score=3.0,
        results={"tests": [], "similarity": [engine_row]},
    )
    client, _ = world.client("teacher")
    grid = Tables(client.get(f"/instructor/classes/{world.course}").text).grid("Learners")
    assert "similar" not in learner_row(grid, "Ada Lovelace")[ADD_MUL]
    assert "similar" in learner_row(grid, "Grace Hopper")[ADD_MUL]
    page = client.get(f"/instructor/submissions/{graces}").text
    assert "engine/value.py" in page and "90%" in page

    rows = list(
        csv.reader(
            io.StringIO(client.get(f"/instructor/classes/{world.course}/gradebook.csv").text)
        )
    )
    by_login = {row[0]: row for row in rows}
    assert by_login["grace.hopper"][-1] == "similar" and by_login["ada.lovelace"][-1] == ""


def test_similarity_compares_classmates_latest_files(world):
    pytest.importorskip("copydetect")
    solved = (ROOT / "solutions" / VALUE).read_bytes()
    stub = (ROOT / "exercises" / VALUE).read_bytes()
    ada = world.submit(
        "ada", VALUE, code=solved, minutes=1, state="graded", score=4.0, max_score=4.0
    )
    grace = world.submit(
        "grace", VALUE, code=solved, minutes=2, state="graded", score=4.0, max_score=4.0
    )
    world.submit("formula", VALUE, code=solved, minutes=3, state="graded", score=4.0, max_score=4.0)
    world.submit("formula", VALUE, code=stub, minutes=4, state="graded", score=0.0, max_score=4.0)
    world.submit("bob", VALUE, code=solved, minutes=5, course=world.other_course)
    client, _ = world.client("teacher")
    grid = Tables(client.get(f"/instructor/classes/{world.course}").text).grid("Learners")
    assert "similar" in learner_row(grid, "Ada Lovelace")[VALUE]
    assert "similar" in learner_row(grid, "Grace Hopper")[VALUE]
    # Formula's latest is the untouched stub: nothing of their own to compare.
    assert "similar" not in learner_row(grid, FORMULA_NAMES[0])[VALUE]
    page = client.get(f"/instructor/submissions/{ada}").text
    assert "Grace Hopper" in page and f'href="/instructor/submissions/{grace}"' in page
    assert "Bob" not in page  # another class's learner is never compared
