"""Grade one submission: every case of every exercise in its own sandboxed child.

The trusted side draws the cases (hidden ones afresh from a secret seed), sends each to
a child, and judges the numbers that come back. Learner code is never imported here.
"""

import hashlib
import random
import secrets
import sys
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

from . import report, similarity
from .checks import EXERCISES, check_module, judge_case
from .messages import msg, render
from .sandbox import SandboxError
from .submission import Rejected, load

BUDGET_SECONDS = 50.0  # a submission that hangs everywhere still finishes within a minute:
# no case starts after the budget is spent, and none runs past it (plus half a second)
HANGS_BEFORE_SKIP = 2  # after this many timeouts, the rest of that exercise is not run
WORKERS = 2


def submission_hash(files):
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()


def grader_failure(exc, exercise, case):
    """A bug of the trusted side on one case: that case fails, the run goes on.

    The traceback goes to stderr for the instructor; the learner is told it is not them.
    """
    trace = report.shown_lines("".join(traceback.format_exception(exc)))
    print(f"grader: internal error on {exercise}, case {case['name']!r}:\n{trace}", file=sys.stderr)
    return msg(
        "the grader itself failed on this case ({problem}); "
        "this is not a fault of your code: tell your instructor.",
        problem=f"{type(exc).__name__}: {str(exc)[:200]}",
    )


def plan(exercises, seed):
    """[(exercise, case), ...]: public cases, then hidden cases drawn from `seed`."""
    rng = random.Random(seed)
    jobs = []
    for exercise in exercises:
        check = check_module(exercise)
        for case in check.public_cases() + check.hidden_cases(rng):
            jobs.append((exercise, case))
    return jobs


class Budget:
    """One submission's grading time and its hangs, shared by every case it runs.

    No case starts after `budget` seconds are spent and none runs past them (plus half a
    second); after HANGS_BEFORE_SKIP timeouts, the rest of that exercise is not run.
    `python -m grader` and the pytest plugin both grade through one of these.
    """

    def __init__(self, files, sandbox, budget=BUDGET_SECONDS):
        self.files, self.sandbox, self.budget = files, sandbox, budget
        self.started = time.monotonic()
        self.hangs = {}
        self.lock = threading.Lock()

    def run(self, exercise, case):
        """The sandbox's result for one case: {"outcome": ...} or {"failure": message}."""
        if exercise not in self.files:
            return {"failure": msg("{exercise} is not in the submission.", exercise=exercise)}
        with self.lock:
            skip = self.hangs.get(exercise, 0) >= HANGS_BEFORE_SKIP
        if skip:
            return {"failure": msg("not run: earlier cases of this exercise never finished.")}
        left = self.started + self.budget - time.monotonic()
        if left <= 0:
            budget = f"{self.budget:g}"
            return {
                "failure": msg(
                    "not run: grading took longer than {budget} s in total.", budget=budget
                )
            }
        check = check_module(exercise)
        # No case may run past the budget, whatever its own limit.
        wall = min(self.sandbox.limits.wall_seconds, max(left, 0.5))
        try:
            result = self.sandbox.run(
                exercise, self.files[exercise], case, check.NEEDS_ENGINE, wall
            )
        except SandboxError:
            raise  # the sandbox cannot start at all: no case could be graded
        except Exception as exc:  # one case's bug must not stop the run
            return {"error": grader_failure(exc, exercise, case)}
        if result.get("timeout"):
            with self.lock:
                self.hangs[exercise] = self.hangs.get(exercise, 0) + 1
        return result


def judge(exercise, case, result, lang="en"):
    """(status, message) for one case's result: the trusted side's verdict.

    status is "passed", "failed" (the learner's code) or "error" (the case could not be
    run or judged: never the learner's fault, never counted as a 0).
    """
    if "error" in result:
        return "error", render(result["error"], lang)
    if "outcome" not in result:
        return "failed", render(result["failure"], lang)
    try:
        passed, message = judge_case(
            check_module(exercise), case, result["outcome"], exercise, lang
        )
    except Exception as exc:  # a judge's bug: this case is an error, the run goes on
        return "error", render(grader_failure(exc, exercise, case), lang)
    return ("passed" if passed else "failed"), message


def grade(
    files, sandbox, exercises=None, seed=None, budget=BUDGET_SECONDS, workers=WORKERS, lang="en"
):
    """Grade `files` ({exercise file name: bytes}); return the results as a plain dict.

    Every case is run; the public ones (published with their answers) are feedback, the
    hidden ones (drawn from `seed`) are the grade (report.scores). Exercises missing from
    `files` score 0 with a message; `exercises` limits the run. The verdicts' messages are
    in `lang`.
    """
    exercises = list(exercises or EXERCISES)
    seed = secrets.randbits(64) if seed is None else seed
    jobs = plan(exercises, seed)
    run = Budget(files, sandbox, budget)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(lambda job: run.run(*job), jobs))
    # Every child is dead here: Sandbox.run kills and reaps each before it returns.

    tests = []
    for (exercise, case), result in zip(jobs, results):
        status, message = judge(exercise, case, result, lang)
        tests.append(
            {
                "exercise": exercise,
                "name": case["name"],
                "public": case["public"],
                "passed": status == "passed",
                "status": status,
                "message": message,
                "seconds": round(result.get("seconds", 0.0), 4),
            }
        )
    return {
        "tests": tests,
        "exercises": exercises,
        "seed": seed,
        "isolation": sandbox.description,
        "sha256": submission_hash(files),
        "seconds": round(time.monotonic() - run.started, 3),
    }


def grade_one(path, sandbox, exercises, seed, lang="en"):
    """(gradescope dict, text report, results or None) for the submission at `path`, the
    messages and the text report in `lang`."""
    label = str(path)
    try:
        files = load(path)
    except Rejected as exc:
        return (
            report.gradescope_rejected(exc.message, exercises, sandbox.description, lang),
            report.rejected_text(exc.message, label, lang),
            None,
        )
    results = grade(files, sandbox, exercises, seed, lang=lang)
    results["similarity"] = engine_similarity({e: files[e] for e in exercises if e in files})
    return report.gradescope(results, lang), report.text(results, label, lang), results


def engine_similarity(files):
    """The submission's matches with the course's engine (for the instructor), or None
    where copydetect is not installed (`pip install -r requirements/grader.txt`)."""
    if not similarity.available():
        return None
    return similarity.engine_matches(files)
