"""The results of a grading run as a readable report and as Gradescope JSON."""

import json
import os
import random
import tempfile
from pathlib import Path

from .checks import check_module


def scores(results):
    """{exercise: (score, max_score)} and the totals."""
    per = {exercise: [0, 0] for exercise in results["exercises"]}
    for test in results["tests"]:
        per[test["exercise"]][1] += 1
        per[test["exercise"]][0] += 1 if test["passed"] else 0
    total = sum(s for s, _ in per.values()), sum(m for _, m in per.values())
    return {k: tuple(v) for k, v in per.items()}, total


def text(results, label):
    """The report a learner reads: per exercise and per check, pass/fail and a message."""
    per, (score, max_score) = scores(results)
    lines = [
        f"Grading {label}  (isolation: {results['isolation']}, sha256 {results['sha256'][:12]})",
        "",
    ]
    for exercise in results["exercises"]:
        got, out_of = per[exercise]
        lines.append(f"{exercise}  {check_module(exercise).TITLE}  {got}/{out_of}")
        for test in (t for t in results["tests"] if t["exercise"] == exercise):
            mark = "pass" if test["passed"] else "FAIL"
            tag = "" if test["public"] else "  [random inputs, new every run]"
            lines.append(f"  {mark}  {test['name']}{tag}")
            if not test["passed"]:
                lines.append(f"        {test['message']}")
        lines.append("")
    lines.append(f"Score: {score}/{max_score}  ({results['seconds']:.1f} s)")
    return "\n".join(lines)


def rejected_text(message, label):
    return f"Grading {label}\n\nThe submission was not graded: {message}\nScore: 0"


def gradescope(results):
    """Gradescope's results.json: one test per case, one point each."""
    per, (score, max_score) = scores(results)
    tests = []
    for test in results["tests"]:
        kind = "" if test["public"] else " (random inputs)"
        tests.append(
            {
                "name": f"{test['exercise']}: {test['name']}{kind}",
                "score": 1 if test["passed"] else 0,
                "max_score": 1,
                "status": "passed" if test["passed"] else "failed",
                "output": test["message"],
                "visibility": "visible",
            }
        )
    summary = ", ".join(f"{e} {s}/{m}" for e, (s, m) in per.items())
    return {
        "score": score,
        "max_score": max_score,
        "execution_time": results["seconds"],
        "output": f"Score {score}/{max_score}: {summary}.",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {
            "submission_sha256": results["sha256"],
            "isolation": results["isolation"],
            "seed": results["seed"],
            "exercises": {e: {"score": s, "max_score": m} for e, (s, m) in per.items()},
        },
    }


def gradescope_rejected(message, exercises, isolation):
    max_score = sum(
        len(check_module(e).public_cases()) + len(check_module(e).hidden_cases(random.Random(0)))
        for e in exercises
    )
    return {
        "score": 0,
        "max_score": max_score,
        "execution_time": 0,
        "output": f"The submission was not graded: {message}",
        "visibility": "visible",
        "tests": [
            {
                "name": "submission",
                "score": 0,
                "max_score": max_score,
                "status": "failed",
                "output": message,
                "visibility": "visible",
            }
        ],
        "extra_data": {"submission_sha256": None, "isolation": isolation, "rejected": True},
    }


def write_json(path, data):
    """Write atomically, so a reader never sees half a results file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".results-")
    with os.fdopen(fd, "w") as handle:
        json.dump(data, handle, indent=2)
        handle.write("\n")
    os.replace(tmp, path)
