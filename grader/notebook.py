"""The check cell of a lesson notebook: the page's Check button, as printed text.

A day's notebook holds the exercise file as a cell the learner fills in. The cell starts
with `%%writefile day05_add_mul.py`, so running it saves the code as that file beside the
notebook (running the code itself would run the file's `__main__` demo, which stops at the
first function still to write: "Run all" would stop there). The check cell after it,

    from grader.notebook import check

    check("day05_add_mul.py")

runs the same public checks as the page (`grader.public`, shipped in the site's public
checks wheel that the notebook's setup cell installs) on that file and prints what the
page shows: "2 of 5 checks passed." and each check with ✓ or ✗ and its message. The file
is checked as the page checks it, so a message's line numbers are the file's. A translated
notebook's check cell names its language, `check("day05_add_mul.py", lang="ru")`, and the
report is in it, as the page's Check speaks the page's language.
"""

import re
from pathlib import Path

from grader.messages import DEFAULT, case_name, msg, render
from grader.public import file_error, run_public_checks

__all__ = ["check", "report"]

# Where the page links to the lesson, the notebook points to the same section in words.
_LESSON_PATH = re.compile(r"Read docs/lessons/(day\d\d_[a-z0-9_]+)\.md\.?")


def _message(text, lang=DEFAULT):
    return _LESSON_PATH.sub(
        lambda m: render(
            msg(
                "See the exercise section of the lesson ({lesson}), then run the check cell again.",
                lesson=m[1],
            ),
            lang,
        ),
        text,
    )


def report(checks, lang=DEFAULT):
    """What the page's Check button shows for `checks` (from run_public_checks), as text in
    `lang` (the checks' messages are already in it)."""
    passed = sum(1 for c in checks if c["passed"])
    lines = [
        render(msg("{passed} of {count} checks passed.", passed=passed, count=len(checks)), lang)
    ]
    messages = {c["message"] for c in checks}
    why = None
    if len(messages) == 1 and not passed and checks:
        (only,) = messages
        why = file_error(only, lang)
    if why is not None:
        did_not_run = msg(
            "Your file did not run, so none of its {count} checks could run. "
            "Fix this, then run the exercise cell and the check cell again:",
            count=len(checks),
        )
        lines += [render(did_not_run, lang), _message(why, lang)]
    for c in checks:
        lines.append(f"{'✓' if c['passed'] else '✗'} {case_name(c['name'], lang)}")
        if c["message"] and why is None:
            lines += ["    " + line for line in _message(c["message"], lang).splitlines()]
    return "\n".join(lines)


def check(exercise_id, folder=".", lang=DEFAULT):
    """Run the public checks of `exercise_id` on the file the exercise cell saved; print them
    in `lang` (the notebook's: tools/notebooks.py writes it into a translation's check cell).

    Nothing is returned: a cell ending in `check(...)` shows only the printed report.
    """
    path = Path(folder) / exercise_id
    if not path.is_file():
        not_yet = msg(
            "There is no {file} here yet: run the exercise cell first (it starts with "
            "`%%writefile {file}` and saves your code as that file), then this cell.",
            file=exercise_id,
        )
        print(render(not_yet, lang))
        return
    checks = run_public_checks(exercise_id, path.read_text(encoding="utf-8"), lang)
    print(report(checks, lang))
