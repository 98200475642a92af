"""The results of a grading run as a readable report and as Gradescope JSON.

The grade counts the hidden cases only: their inputs are drawn afresh on every run, so
no table of published answers earns a mark. The public cases (published with their
answers, and run by the page's Check button) are reported as feedback worth no points.

Learner text (error messages, file and folder names) reaches every report through
`shown`, which escapes control characters: no learner can move the cursor, clear the
screen or start a line of the report.

The learner's lines are in the language asked for (`lang`, grader/messages.py); the
instructor's (similarity) stay English.
"""

import json
import os
import random
import re
import tempfile
from pathlib import Path

from .checks import check_module
from .messages import case_name, msg, render

# C0 and C1 controls, DEL, line and paragraph separators, and the bidirectional
# overrides and isolates that reorder what a terminal or a browser shows.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def shown(text):
    """`text` safe to show anywhere: every control character written as an escape."""

    def escape(match):
        char = match.group()
        if char in _NAMED:
            return _NAMED[char]
        code = ord(char)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return _CONTROL.sub(escape, str(text))


def shown_lines(text):
    """Text of several lines (a traceback that may quote learner text), each line shown."""
    return "\n".join(shown(line) for line in str(text).splitlines())


def scores(results):
    """{exercise: (score, max_score)} and the totals, over the hidden cases alone.

    A case that could not be run (status "error") counts in max_score, not in score:
    `errors(results)` says the grade is incomplete, and the run's exit status says so.
    """
    per = {exercise: [0, 0] for exercise in results["exercises"]}
    for test in results["tests"]:
        if test["public"]:
            continue
        per[test["exercise"]][1] += 1
        per[test["exercise"]][0] += 1 if test["passed"] else 0
    total = sum(s for s, _ in per.values()), sum(m for _, m in per.values())
    return {k: tuple(v) for k, v in per.items()}, total


def errors(results):
    """The cases that could not be run or judged (not the learner's fault)."""
    return [t for t in results["tests"] if t.get("status") == "error"]


# A case's mark and tag in the text report (its messages "see ERROR above" and "the cases
# marked [hidden]" name them as they are said in the same language).
MARKS = {"passed": msg("pass"), "failed": msg("FAIL"), "error": msg("ERROR")}
TAGS = {True: msg("[public]"), False: msg("[hidden]")}


def _mark(test, lang="en"):
    return render(MARKS[test.get("status", "failed")], lang)


def _mark_width(lang):
    """The marks' column: as wide as the widest mark in `lang` (5 in English)."""
    return max(len(render(mark, lang)) for mark in MARKS.values())


def _not_graded(broken, lang):
    return render(
        msg(
            "Not graded: {count} case(s) could not be run, through no fault of the code "
            "(see ERROR above); grade this submission again.",
            count=len(broken),
        ),
        lang,
    )


def text(results, label, lang="en"):
    """The report a learner reads: per exercise the grade (hidden cases), then each case."""
    per, (score, max_score) = scores(results)
    grading = msg(
        "Grading {label}  (isolation: {isolation}, sha256 {sha})",
        label=shown(label),
        isolation=results["isolation"],
        sha=results["sha256"][:12],
    )
    lines = [
        render(grading, lang),
        render(
            msg("Graded: the cases marked [hidden], with inputs drawn afresh on every run."), lang
        ),
        render(msg("The [public] cases are the page's Check: feedback, worth no points."), lang),
        "",
    ]
    width = _mark_width(lang)
    for exercise in results["exercises"]:
        got, out_of = per[exercise]
        title = render(check_module(exercise).TITLE, lang)
        lines.append(f"{exercise}  {title}  {got}/{out_of}")
        for test in (t for t in results["tests"] if t["exercise"] == exercise):
            tag = render(TAGS[bool(test["public"])], lang)
            name = case_name(test["name"], lang)
            lines.append(f"  {_mark(test, lang):{width}} {tag} {name}")
            if not test["passed"]:
                lines.append(f"        {shown(test['message'])}")
        lines.append("")
    lines += similarity_lines(results.get("similarity"), lang)
    broken = errors(results)
    if broken:
        lines.append(_not_graded(broken, lang))
    seconds = f"{results['seconds']:.1f}"
    score_line = msg(
        "Score: {score}/{max_score}  ({seconds} s)",
        score=score,
        max_score=max_score,
        seconds=seconds,
    )
    lines.append(render(score_line, lang))
    return "\n".join(lines)


NO_SIMILARITY = "not checked: copydetect is not installed (pip install -r requirements/grader.txt)"


def similarity_summary(rows):
    """One line for the instructor: each match as "exercise ~ match 83%", or why none."""
    if rows is None:
        return NO_SIMILARITY
    return "; ".join(
        f"{row['exercise']} ~ {shown(row['match'])} {row['share']:.0%}" for row in rows
    )


def similarity_lines(rows, lang="en"):
    """The text report's similarity section (the score is not changed by it), in `lang`: the
    learner reads the report too (the course server shows it)."""
    if rows is None:
        return [
            render(
                msg(
                    "Similarity: not checked: copydetect is not installed "
                    "(pip install -r requirements/grader.txt)"
                ),
                lang,
            ),
            "",
        ]
    if not rows:
        return []
    heading = msg(
        "Similarity, for the instructor (the score is not changed; see grader/README.md):"
    )
    lines = [render(heading, lang)]
    for row in rows:
        line = msg(
            "{exercise}: {share} of the code written is also in {match}",
            exercise=row["exercise"],
            share=f"{row['share']:.0%}",
            match=shown(row["match"]),
        )
        lines.append("  " + render(line, lang))
    return lines + [""]


def rejected_text(message, label, lang="en"):
    lines = [
        render(msg("Grading {label}", label=shown(label)), lang),
        "",
        render(msg("The submission was not graded: {why}", why=shown(render(message, lang))), lang),
        render(msg("Score: 0"), lang),
    ]
    return "\n".join(lines)


def gradescope(results, lang="en"):
    """Gradescope's results.json: one point per hidden case; public cases worth 0; what the
    learner reads in `lang`."""
    per, (score, max_score) = scores(results)
    tests = []
    for test in results["tests"]:
        public = test["public"]
        kind = msg("public example, not graded") if public else msg("hidden, random inputs")
        message = shown(test["message"])
        if test.get("status") == "error":
            message = render(msg("ERROR, not graded: {message}", message=message), lang)
        tests.append(
            {
                "name": f"{test['exercise']}: {case_name(test['name'], lang)} ({render(kind, lang)})",
                "score": 1 if test["passed"] and not public else 0,
                "max_score": 0 if public else 1,
                "status": "passed" if test["passed"] else "failed",
                "output": message,
                "visibility": "visible",
            }
        )
    summary = ", ".join(f"{e} {s}/{m}" for e, (s, m) in per.items())
    broken = errors(results)
    output = render(
        msg(
            "Score {score}/{max_score} (hidden cases): {summary}.",
            score=score,
            max_score=max_score,
            summary=summary,
        ),
        lang,
    )
    if broken:
        again = msg(
            "Not graded: {count} case(s) could not be run, through no fault of your code; "
            "the autograder will be run again.",
            count=len(broken),
        )
        output = f"{render(again, lang)} {output}"
    return {
        "score": score,
        "max_score": max_score,
        "execution_time": results["seconds"],
        "output": output,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {
            "submission_sha256": results["sha256"],
            "isolation": results["isolation"],
            "seed": results["seed"],
            "exercises": {e: {"score": s, "max_score": m} for e, (s, m) in per.items()},
            "errors": len(broken),
            # Instructor only: Gradescope never shows extra_data to the learner.
            "similarity": results.get("similarity"),
        },
    }


def gradescope_rejected(message, exercises, isolation, lang="en"):
    max_score = sum(len(check_module(e).hidden_cases(random.Random(0))) for e in exercises)
    message = shown(render(message, lang))  # why, in `lang`
    return {
        "score": 0,
        "max_score": max_score,
        "execution_time": 0,
        "output": render(msg("The submission was not graded: {why}", why=message), lang),
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
