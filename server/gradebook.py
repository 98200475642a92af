"""The instructor's pages: a class's gradebook, one submission, the CSV and JSON exports,
and grading an exercise again with its progress.

Only an instructor of the class sees any of it. Everyone else (a learner, an instructor
of another class, a visitor who is signed out) gets 404, as for an id that does not
exist: ids say nothing about what is there.

The pages speak the instructor's language (English, Russian, Estonian), chosen as the
learner's pages choose theirs (pages.page_language: ?lang=, else Accept-Language, else
English), with the same catalog; a language chosen with ?lang= stays on the links between
them. The CSV and the JSON are data and stay English.
"""

from __future__ import annotations

import csv
import io
import threading
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from urllib.parse import parse_qs

from sqlalchemy import func, or_, select, update
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from grader import similarity
from grader.batch import csv_cell
from grader.checks import EXERCISES
from grader.messages import msg

from .models import Course, Deadline, Membership, Regrade, Submission, User
from .pages import course_root, language_query, page_language, translated_templates
from .security import Viewer, check_csrf, csrf_token, viewer
from .submissions import SUBMISSION_ID

HERE = Path(__file__).resolve().parent
NO_STORE = {"Cache-Control": "no-store"}  # learners' grades: never kept by a cache
# ...and their words may be in the browser's language
PAGE_HEADERS = {**NO_STORE, "Vary": "Accept-Language"}
MAX_ID = 2**31 - 1  # a larger id is in no table (and PostgreSQL would refuse to compare it)
PENDING = ("grading", "queued")  # shown in a cell in this order of precedence
# A number of each CLDR plural category the language has for whole numbers: the re-grade
# page hands its script the progress text in each form, and the script picks one with
# Intl.PluralRules (the catalog's plural formulas agree with CLDR on whole numbers).
PLURAL_SAMPLES = {
    "en": {"one": 1, "other": 0},
    "ru": {"one": 1, "few": 2, "many": 5},
    "et": {"one": 1, "other": 0},
}


def score_text(value) -> str:
    """3.0 -> "3", 2.4 -> "2.4", None -> an en dash."""
    return "\u2013" if value is None else f"{value:g}"


@cache
def _templates(lang: str) -> Jinja2Templates:
    """The instructor's templates in `lang` (one environment per language)."""
    env = translated_templates(HERE / "templates", lang)
    env.filters["score"] = score_text
    env.filters["utc"] = lambda moment: f"{moment:%Y-%m-%d %H:%M} UTC"
    return Jinja2Templates(env=env)


# --- who may look ---------------------------------------------------------------------


def _not_found():
    return HTTPException(404, msg("Not found."))


# Where a refused page leads back to (app.html_error): a form's refusal to the gradebook
# it was sent from, anything else to the instructor's classes.
BACK_TO_GRADEBOOK = msg("Back to the gradebook")
BACK_TO_CLASSES = msg("Back to your classes")


def way_back(request):
    """(link, its words) back from a refused instructor's page, keeping ?lang=; None for a
    viewer who teaches no class (back to the course, as from any refusal). A class the
    viewer does not teach leads where an id that does not exist leads: it says nothing."""
    found = viewer(request)
    if found is None or "instructor" not in found.roles.values():
        return None
    query = language_query(request)
    class_id = request.path_params.get("id")
    in_class = request.url.path.startswith("/instructor/classes/")
    if in_class and isinstance(class_id, int) and 0 < class_id <= MAX_ID:
        if found.teaches(class_id):
            return f"/instructor/classes/{class_id}{query}", BACK_TO_GRADEBOOK
    return f"/instructor/{query}", BACK_TO_CLASSES


def _teacher_of(request, class_id: int) -> Viewer:
    found = viewer(request)
    if found is None or not 0 < class_id <= MAX_ID or not found.teaches(class_id):
        raise _not_found()
    return found


def _page(request, name: str, who: Viewer, **context):
    lang = page_language(request)
    context.update(
        viewer=who,
        csrf=csrf_token(request.app.state.settings, who.session_token),
        lang_query=language_query(request),
        course_root=course_root(lang),
        plural_samples=PLURAL_SAMPLES[lang],
    )
    return _templates(lang).TemplateResponse(request, name, context, headers=PAGE_HEADERS)


# --- the gradebook's numbers ----------------------------------------------------------


@dataclass
class Cell:
    """One learner's submissions of one exercise, summed up."""

    tries: int = 0
    best: float | None = None  # the best graded score (late penalty applied by the worker)
    max_score: float | None = None
    late: bool = False  # the best was late
    latest_id: str | None = None
    latest_state: str | None = None
    pending: set = field(default_factory=set)
    similar: list = field(default_factory=list)

    def add(self, row) -> None:
        """Count one submission; rows come oldest first."""
        self.tries += 1
        self.latest_id, self.latest_state = row.id, row.state
        if row.state in PENDING:
            self.pending.add(row.state)
        if row.state == "graded" and row.score is not None:
            if self.best is None or row.score > self.best:  # a tie keeps the earlier one
                self.best, self.max_score, self.late = row.score, row.max_score, row.late
        elif self.best is None and row.max_score is not None:
            self.max_score = row.max_score

    @property
    def state(self) -> str | None:
        """What is still happening to this learner's work, if anything."""
        for state in PENDING:
            if state in self.pending:
                return state
        return "error" if self.latest_state == "error" else None


@dataclass
class Gradebook:
    course: Course
    learners: list[User]
    exercises: list[str]
    cells: dict[tuple[int, str], Cell]
    deadlines: list[Deadline]
    class_checked: bool  # False: copydetect is missing here, classmates were not compared

    def cell(self, user_id: int, exercise: str) -> Cell | None:
        return self.cells.get((user_id, exercise))


def _exercise_order(exercise: str):
    known = exercise in EXERCISES
    return (0, EXERCISES.index(exercise), "") if known else (1, 0, exercise)


def learners_of(s, class_id: int) -> list[User]:
    return list(
        s.scalars(
            select(User)
            .join(Membership, Membership.user_id == User.id)
            .where(Membership.class_id == class_id, Membership.role == "learner")
            .order_by(User.name, User.login)
        )
    )


def build_gradebook(s, course: Course) -> Gradebook:
    learners = learners_of(s, course.id)
    ids = {user.id for user in learners}
    rows = s.execute(
        select(
            Submission.id,
            Submission.user_id,
            Submission.exercise,
            Submission.late,
            Submission.state,
            Submission.score,
            Submission.max_score,
        )
        .where(Submission.class_id == course.id)
        .order_by(Submission.created_at, Submission.id)
    ).all()
    cells: dict[tuple[int, str], Cell] = {}
    for row in rows:
        if row.user_id in ids:
            cells.setdefault((row.user_id, row.exercise), Cell()).add(row)
    deadlines = list(
        s.scalars(select(Deadline).where(Deadline.class_id == course.id).order_by(Deadline.due_at))
    )
    exercises = {exercise for _, exercise in cells} | {d.exercise for d in deadlines}
    latest = {key: cell.latest_id for key, cell in cells.items()}
    for key, rows_found in similar_rows(s, latest).items():
        cells[key].similar = rows_found
    return Gradebook(
        course=course,
        learners=learners,
        exercises=sorted(exercises, key=_exercise_order),
        cells=cells,
        deadlines=deadlines,
        class_checked=similarity.available(),
    )


# --- similarity -------------------------------------------------------------------------

_class_cache: OrderedDict = OrderedDict()
_class_cache_lock = threading.Lock()
CLASS_CACHE_SIZE = 16


def similar_rows(s, latest: dict[tuple[int, str], str]) -> dict[tuple[int, str], list[dict]]:
    """{(learner id, exercise): rows} for each latest submission that shares most of its
    code with the engine (the worker's results) or with a classmate's latest file.

    A row is {"match": "engine/x.py"} or {"match_user": id, "match_submission": id}, with
    its "share" (0 to 1) of the learner's own code.
    """
    if not latest:
        return {}
    found = defaultdict(list)
    for user_id, exercise, results in s.execute(
        select(Submission.user_id, Submission.exercise, Submission.results).where(
            Submission.id.in_(list(latest.values()))
        )
    ):
        for row in (results or {}).get("similarity") or []:
            if row.get("exercise") == exercise:
                found[(user_id, exercise)].append({"match": row["match"], "share": row["share"]})
    for row in class_matches(s, latest):
        user_id, match = int(row["learner"]), int(row["match"])
        found[(user_id, row["exercise"])].append(
            {
                "match_user": match,
                "match_submission": latest[(match, row["exercise"])],
                "share": row["share"],
            }
        )
    return dict(found)


def class_matches(s, latest: dict[tuple[int, str], str]) -> list[dict]:
    """similarity.class_matches over each learner's latest file of each exercise
    (learners labelled by id); [] where copydetect is not installed."""
    if not similarity.available():
        return []
    # Comparing a class takes seconds and the files of given ids never change: a page
    # seen again with no new submission reuses the last answer.
    key = tuple(sorted(latest.values()))
    with _class_cache_lock:
        if key in _class_cache:
            _class_cache.move_to_end(key)
            return _class_cache[key]
    files = defaultdict(dict)
    for user_id, exercise, code in s.execute(
        select(Submission.user_id, Submission.exercise, Submission.code).where(
            Submission.id.in_(list(latest.values()))
        )
    ):
        files[str(user_id)][exercise] = bytes(code)
    matches = similarity.class_matches(dict(files))
    with _class_cache_lock:
        _class_cache[key] = matches
        while len(_class_cache) > CLASS_CACHE_SIZE:
            _class_cache.popitem(last=False)
    return matches


def latest_of_class(s, class_id: int) -> dict[tuple[int, str], str]:
    """{(learner id, exercise): id of their latest submission} for the class's learners."""
    learners = select(Membership.user_id).where(
        Membership.class_id == class_id, Membership.role == "learner"
    )
    latest = {}
    for sub_id, user_id, exercise in s.execute(
        select(Submission.id, Submission.user_id, Submission.exercise)
        .where(Submission.class_id == class_id, Submission.user_id.in_(learners))
        .order_by(Submission.created_at, Submission.id)
    ):
        latest[(user_id, exercise)] = sub_id
    return latest


# --- pages ------------------------------------------------------------------------------


def home(request):
    found = viewer(request)
    if found is None:
        # The sign-in page in the language ?lang= chose for these pages.
        return RedirectResponse(f"/signin/{language_query(request)}", status_code=303)
    taught = [cid for cid, role in found.roles.items() if role == "instructor"]
    if not taught:
        raise _not_found()
    with request.app.state.db.session() as s:
        courses = list(s.scalars(select(Course).where(Course.id.in_(taught)).order_by(Course.name)))
        counts = dict(
            s.execute(
                select(Membership.class_id, func.count())
                .where(Membership.class_id.in_(taught), Membership.role == "learner")
                .group_by(Membership.class_id)
            ).all()
        )
    return _page(request, "instructor/home.html", found, courses=courses, counts=counts)


def class_page(request):
    class_id = request.path_params["id"]
    found = _teacher_of(request, class_id)
    with request.app.state.db.session() as s:
        book = build_gradebook(s, s.get(Course, class_id))
        regrades = list(
            s.scalars(
                select(Regrade)
                .where(Regrade.class_id == class_id)
                .order_by(Regrade.id.desc())
                .limit(5)
            )
        )
    submitted = {exercise for _, exercise in book.cells}
    return _page(
        request,
        "instructor/gradebook.html",
        found,
        book=book,
        regrades=regrades,
        regradable=[e for e in book.exercises if e in submitted],
    )


def submission_page(request):
    found, sub_id = viewer(request), request.path_params["id"]
    # Only an id's shape reaches the database (PostgreSQL refuses a NUL in a text).
    if found is None or not SUBMISSION_ID.fullmatch(sub_id):
        raise _not_found()
    with request.app.state.db.session() as s:
        sub = s.get(Submission, sub_id)
        if sub is None or not found.teaches(sub.class_id):
            raise _not_found()
        learner = s.get(User, sub.user_id)
        course = s.get(Course, sub.class_id)
        tries = s.execute(
            select(
                Submission.id,
                Submission.created_at,
                Submission.state,
                Submission.score,
                Submission.max_score,
                Submission.late,
            )
            .where(
                Submission.class_id == sub.class_id,
                Submission.user_id == sub.user_id,
                Submission.exercise == sub.exercise,
            )
            .order_by(Submission.created_at, Submission.id)
        ).all()
        is_latest = tries[-1].id == sub.id
        if is_latest:
            rows = similar_rows(s, latest_of_class(s, sub.class_id))
            similar = rows.get((sub.user_id, sub.exercise), [])
        else:  # classmates are compared on their latest files only
            similar = [
                {"match": row["match"], "share": row["share"]}
                for row in (sub.results or {}).get("similarity") or []
                if row.get("exercise") == sub.exercise
            ]
        names = _names(s, {row["match_user"] for row in similar if "match_user" in row})
    return _page(
        request,
        "instructor/submission.html",
        found,
        sub=sub,
        # The report speaks the learner's language, which may not be the page's.
        feedback_lang=sub.report_language,
        learner=learner,
        course=course,
        code=shown_code(sub.code),
        tries=tries,
        similar=similar,
        names=names,
        is_latest=is_latest,
        class_checked=similarity.available(),
        engine_checked=sub.results is None or sub.results.get("similarity") is not None,
    )


def _names(s, user_ids) -> dict[int, User]:
    if not user_ids:
        return {}
    return {u.id: u for u in s.scalars(select(User).where(User.id.in_(user_ids)))}


def shown_code(code: bytes) -> str:
    """The learner's file as text to read, each control character (the bidirectional
    overrides that reorder what is shown included) written as an escape; tabs expanded."""
    from grader.report import shown

    text = bytes(code).decode("utf-8", "replace")
    return "\n".join(shown(line.expandtabs(4)) for line in text.splitlines())


# --- exports ----------------------------------------------------------------------------


def gradebook_csv(request):
    # English in every language: a data format, its headings and marks read by programs.
    class_id = request.path_params["id"]
    _teacher_of(request, class_id)
    with request.app.state.db.session() as s:
        book = build_gradebook(s, s.get(Course, class_id))
    out = io.StringIO()
    writer = csv.writer(out)
    header = ["login", "name"]
    for exercise in book.exercises:
        header += [f"{exercise} {part}" for part in ("score", "max", "tries", "late", "similar")]
    writer.writerow([csv_cell(text) for text in header])
    for learner in book.learners:
        row = [learner.login, learner.name]
        for exercise in book.exercises:
            cell = book.cell(learner.id, exercise) or Cell()
            row += [
                "" if cell.best is None else cell.best,
                "" if cell.max_score is None else cell.max_score,
                cell.tries,
                "late" if cell.late else "",
                "similar" if cell.similar else "",
            ]
        writer.writerow([csv_cell(value) for value in row])
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={
            **NO_STORE,
            "Content-Disposition": f'attachment; filename="gradebook-class-{class_id}.csv"',
        },
    )


def learner_json(request):
    class_id, user_id = request.path_params["id"], request.path_params["user_id"]
    _teacher_of(request, class_id)
    with request.app.state.db.session() as s:
        member = s.get(Membership, (user_id, class_id)) if user_id <= MAX_ID else None
        if member is None or member.role != "learner":
            raise _not_found()
        user = s.get(User, user_id)
        subs = s.scalars(
            select(Submission)
            .where(Submission.class_id == class_id, Submission.user_id == user_id)
            .order_by(Submission.created_at, Submission.id)
        )
        exercises: dict[str, list] = {}
        for sub in subs:
            exercises.setdefault(sub.exercise, []).append(
                {
                    "id": sub.id,
                    "created_at": sub.created_at.isoformat(),
                    "state": sub.state,
                    "score": sub.score,
                    "max_score": sub.max_score,
                    "late": sub.late,
                    "results": sub.results,
                }
            )
    ordered = {e: exercises[e] for e in sorted(exercises, key=_exercise_order)}
    return JSONResponse(
        {
            "class_id": class_id,
            "learner": {"id": user.id, "login": user.login, "name": user.name},
            "exercises": ordered,
        },
        headers=NO_STORE,
    )


# --- grading again ----------------------------------------------------------------------


def _form(request) -> dict[str, str]:
    """The form's fields (the size-limit middleware read the body); the first of each."""
    body = getattr(request.state, "body", None) or b""
    fields = parse_qs(body.decode("utf-8", "replace"), max_num_fields=20)
    return {name: values[0] for name, values in fields.items()}


def regrade(request):
    class_id = request.path_params["id"]
    form = _form(request)
    check_csrf(request, token=form.get("csrf", ""))
    _teacher_of(request, class_id)
    exercise = form.get("exercise", "")
    if exercise not in EXERCISES:
        raise HTTPException(400, msg("Choose an exercise of the course to grade again."))
    db = request.app.state.db
    with db.session() as s:
        mine = (Submission.class_id == class_id) & (Submission.exercise == exercise)
        if not s.scalar(select(func.count()).select_from(Submission).where(mine)):
            raise HTTPException(
                400, msg("No one in this class has submitted {exercise} yet.", exercise=exercise)
            )
        job = Regrade(class_id=class_id, exercise=exercise, total=0)
        s.add(job)
        s.flush()
        # Back to the queue as if just submitted: a worker grading one now loses its claim,
        # so its result (of the old grading) is dropped and the new one is the one kept.
        ids = list(
            s.scalars(
                update(Submission)
                # Never from a newer re-grade (two started at once, committed out of order):
                # each submission belongs to the newest, whose page then follows it.
                .where(
                    mine,
                    or_(Submission.regrade_id.is_(None), Submission.regrade_id < job.id),
                )
                .values(
                    state="queued",
                    claim=None,
                    lease_until=None,
                    attempts=0,
                    enqueued_at=None,
                    regrade_id=job.id,
                    score=None,
                    raw_score=None,
                    feedback=None,
                    results=None,
                    graded_at=None,
                )
                .returning(Submission.id)
                .execution_options(synchronize_session=False)
            )
        )
        job.total = len(ids)
        regrade_id = job.id
    request.app.state.queue.send(db, ids)
    # The form's action carries ?lang= when the gradebook's language came from it.
    where = f"/instructor/regrades/{regrade_id}{language_query(request)}"
    return RedirectResponse(where, status_code=303)


def _regrade_of(request) -> tuple[Viewer, Regrade]:
    regrade_id = request.path_params["id"]
    found = viewer(request)
    if found is None or not 0 < regrade_id <= MAX_ID:
        raise _not_found()
    with request.app.state.db.session() as s:
        job = s.get(Regrade, regrade_id)
    if job is None or not found.teaches(job.class_id):
        raise _not_found()
    return found, job


def progress(db, job: Regrade) -> dict:
    """How far a re-grade is: its submissions that have a result again (graded or error);
    "overtaken" (with the newer one's id) once a newer re-grade of the exercise took them."""
    with db.session() as s:
        newer = s.scalar(
            select(func.max(Regrade.id)).where(
                Regrade.class_id == job.class_id,
                Regrade.exercise == job.exercise,
                Regrade.id > job.id,
            )
        )
        if newer is not None:
            return {"total": job.total, "done": 0, "state": "overtaken", "newer": newer}
        done = s.scalar(
            select(func.count())
            .select_from(Submission)
            .where(Submission.regrade_id == job.id, Submission.state.in_(("graded", "error")))
        )
    return {"total": job.total, "done": done, "state": "done" if done >= job.total else "running"}


def regrade_page(request):
    found, job = _regrade_of(request)
    with request.app.state.db.session() as s:
        course = s.get(Course, job.class_id)
    return _page(
        request,
        "instructor/regrade.html",
        found,
        job=job,
        course=course,
        progress=progress(request.app.state.db, job),
    )


def regrade_progress(request):
    _, job = _regrade_of(request)
    return JSONResponse(progress(request.app.state.db, job), headers=NO_STORE)


routes = [
    Route("/instructor/", home, methods=["GET"]),
    Route("/instructor/classes/{id:int}", class_page, methods=["GET"]),
    Route("/instructor/classes/{id:int}/gradebook.csv", gradebook_csv, methods=["GET"]),
    Route(
        "/instructor/classes/{id:int}/learners/{user_id:int}.json", learner_json, methods=["GET"]
    ),
    Route("/instructor/classes/{id:int}/regrade", regrade, methods=["POST"]),
    Route("/instructor/regrades/{id:int}", regrade_page, methods=["GET"]),
    Route("/instructor/submissions/{id}", submission_page, methods=["GET"]),
    Route("/api/regrades/{id:int}", regrade_progress, methods=["GET"]),
    Mount("/instructor/static", StaticFiles(directory=HERE / "static"), name="instructor-static"),
]
