"""Grade a folder of submissions -- one subfolder or zip per learner -- into a CSV gradebook."""

import csv
import sys
import traceback
from pathlib import Path

from . import grade as grading
from . import report, similarity
from .sandbox import SandboxError
from .submission import load, printable

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as a formula


def csv_cell(value):
    """A gradebook cell: learner text escaped, and never a formula (as OWASP advises,
    a cell that a spreadsheet would evaluate gets a leading apostrophe)."""
    if not isinstance(value, str):
        return value
    text = report.shown(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def grade_folder(folder, sandbox, exercises, csv_path, seed=None, quiet=False, lang="en"):
    """Grade every entry; 0 when all were graded (or refused), 1 if any was not fully graded.

    A grader failure on one submission, or a case that could not be run, is recorded in
    its row (status "error") and the batch goes on. The rows' messages are in `lang`.
    """
    entries = sorted(
        p
        for p in Path(folder).iterdir()
        if not p.name.startswith(".") and (p.is_dir() or p.suffix == ".zip")
    )
    rows, failed, graded, labels = [], 0, {}, set()
    for entry in entries:
        # A file name with bytes that are not UTF-8 still gets a row, escaped, and a label
        # of its own: "\xff" typed and the byte 0xff print alike, as may "ada" and "ada.zip".
        learner = _unique(printable(entry.stem if entry.suffix == ".zip" else entry.name), labels)
        try:
            gradescope, text, results = grading.grade_one(entry, sandbox, exercises, seed, lang)
        except SandboxError:
            raise  # the sandbox cannot start at all: no submission could be graded
        except Exception as exc:  # one submission must not stop the class
            failed += 1
            trace = "".join(traceback.format_exception(exc))
            print(
                f"grader: internal error on {report.shown(learner)}:\n{report.shown_lines(trace)}",
                file=sys.stderr,
            )
            rows.append(_error_row(learner, exercises, sandbox, exc))
            if not quiet:
                print(
                    f"{report.shown(learner)}: not graded (the grader failed: {type(exc).__name__})"
                )
            continue
        extra = gradescope["extra_data"]
        per = extra.get("exercises", {})
        broken = report.errors(results) if results else []
        if broken:
            failed += 1
        status = "refused" if extra.get("rejected") else "error" if broken else "graded"
        row = {
            "learner": learner,
            "status": status,
            "score": gradescope["score"],
            "max_score": gradescope["max_score"],
        }
        for exercise in exercises:
            row[exercise] = per.get(exercise, {}).get("score", 0)
        row["sha256"] = extra.get("submission_sha256") or ""
        row["isolation"] = extra["isolation"]
        row["message"] = "" if status == "graded" else gradescope["output"]
        row["similarity"] = results.get("similarity") if results else []
        rows.append(row)
        if results:
            graded[learner] = (row, entry)
        if not quiet:
            print(f"{report.shown(learner)}: {row['score']}/{row['max_score']} ({status})")
    _add_class_matches(rows, graded, exercises, quiet)
    for row in rows:
        row["similarity"] = report.similarity_summary(row.get("similarity", []))
    if csv_path:
        Path(csv_path).parent.mkdir(parents=True, exist_ok=True)
        with open(csv_path, "w", newline="", encoding="utf-8", errors="backslashreplace") as handle:
            fields = [
                "learner",
                "status",
                "score",
                "max_score",
                *exercises,
                "sha256",
                "isolation",
                "message",
                "similarity",
            ]
            writer = csv.DictWriter(handle, fieldnames=fields)
            writer.writeheader()
            writer.writerows({k: csv_cell(v) for k, v in row.items()} for row in rows)
        print(f"Gradebook of {len(rows)} submission(s) written to {csv_path}", file=sys.stderr)
    if failed:
        print(
            f"grader: {failed} submission(s) not fully graded (status error); see above",
            file=sys.stderr,
        )
    return 1 if failed else 0


def _unique(label, labels):
    """`label`, or `label #2`, `label #3`, ...: the first that no other entry has."""
    candidate, n = label, 1
    while candidate in labels:
        n += 1
        candidate = f"{label} #{n}"
    labels.add(candidate)
    return candidate


def _add_class_matches(rows, graded, exercises, quiet):
    """Add to each row the learners whose files share most of its own code (instructor only)."""
    if not similarity.available():
        print(f"grader: similarity {report.NO_SIMILARITY}", file=sys.stderr)
        for row in rows:
            row["similarity"] = None
        return
    files = {}
    for label, (_, entry) in graded.items():
        loaded = load(entry)  # read again: it was graded, so it loads
        files[label] = {e: loaded[e] for e in exercises if e in loaded}
    for match in similarity.class_matches(files):
        graded[match["learner"]][0]["similarity"].append(match)
    flagged = [row for row in rows if row.get("similarity")]
    if flagged and not quiet:
        print(
            f"Similarity: {len(flagged)} submission(s) share most of an exercise with the "
            "engine or a classmate (the 'similarity' column; the score is not changed)",
            file=sys.stderr,
        )


def _error_row(learner, exercises, sandbox, exc):
    message = f"the grader failed on this submission ({type(exc).__name__}: {exc})"
    max_score = report.gradescope_rejected(message, exercises, sandbox.description)["max_score"]
    row = {"learner": learner, "status": "error", "score": 0, "max_score": max_score}
    row.update({exercise: 0 for exercise in exercises})
    row.update(sha256="", isolation=sandbox.description, message=message, similarity=[])
    return row
