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
is checked as the page checks it, so a message's line numbers are the file's.
"""

import re
from pathlib import Path

from grader.public import run_public_checks

__all__ = ["check", "report"]

# Where the page links to the lesson, the notebook points to the same section in words.
_LESSON_PATH = re.compile(r"Read docs/lessons/(day\d\d_[a-z0-9_]+)\.md\.?")
_FILE_DID_NOT_RUN = "your file did not run: "


def _message(text):
    return _LESSON_PATH.sub(
        r"See the exercise section of the lesson (\1), then run the check cell again.", text
    )


def report(checks):
    """What the page's Check button shows for `checks` (from run_public_checks), as text."""
    passed = sum(1 for c in checks if c["passed"])
    lines = [f"{passed} of {len(checks)} checks passed."]
    messages = {c["message"] for c in checks}
    file_error = None
    if len(messages) == 1 and not passed and checks:
        (only,) = messages
        if only.startswith(_FILE_DID_NOT_RUN):
            file_error = only[len(_FILE_DID_NOT_RUN) :]
    if file_error is not None:
        lines += [
            f"Your file did not run, so none of its {len(checks)} checks could run. "
            "Fix this, then run the exercise cell and the check cell again:",
            _message(file_error),
        ]
    for c in checks:
        lines.append(f"{'✓' if c['passed'] else '✗'} {c['name']}")
        if c["message"] and file_error is None:
            lines += ["    " + line for line in _message(c["message"]).splitlines()]
    return "\n".join(lines)


def check(exercise_id, folder="."):
    """Run the public checks of `exercise_id` on the file the exercise cell saved; print them.

    Nothing is returned: a cell ending in `check(...)` shows only the printed report.
    """
    path = Path(folder) / exercise_id
    if not path.is_file():
        print(
            f"There is no {exercise_id} here yet: run the exercise cell first (it starts with "
            f"`%%writefile {exercise_id}` and saves your code as that file), then this cell."
        )
        return
    print(report(run_public_checks(exercise_id, path.read_text(encoding="utf-8"))))
