"""The check cell of a lesson notebook: the page's Check button, as printed text.

A day's notebook holds the exercise file as a cell the learner fills in, then

    from grader.notebook import check
    check("day05_add_mul.py")

which runs the same public checks as the page (`grader.public`, shipped in the site's
public grader wheel that the notebook's setup cell installs) on the exercise cell's
code and prints what the page shows: "2 of 5 checks passed." and each check with ✓ or ✗
and its message.

The exercise cell is found in IPython's history (Jupyter, Colab and VS Code keep every
cell run): the latest one that holds the file's own line
`python -m grader --exercise day05_add_mul.py`. The code is checked as one file, so a
message's line numbers are the cell's, as on the page.
"""

import re

from grader.public import run_public_checks

__all__ = ["check", "exercise_source", "report"]

# Where the page links to the lesson, the notebook points to the same section in words.
_LESSON_PATH = re.compile(r"Read docs/lessons/(day\d\d_[a-z0-9_]+)\.md\.?")
_FILE_DID_NOT_RUN = "your file did not run: "


def _marker(exercise_id):
    return f"python -m grader --exercise {exercise_id}"


def exercise_source(exercise_id, history):
    """The latest cell in `history` (cell sources, oldest first) that is the exercise, or None."""
    marker = _marker(exercise_id)
    for source in reversed(history):
        if marker in source and "grader.notebook" not in source:
            return source
    return None


def _history():
    """The cells run so far in this IPython session, or None outside IPython."""
    import sys

    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return None
    return list(shell.user_ns.get("In", []))


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
            "Fix this, then run the check cell again:",
            _message(file_error),
        ]
    for c in checks:
        lines.append(f"{'✓' if c['passed'] else '✗'} {c['name']}")
        if c["message"] and file_error is None:
            lines += ["    " + line for line in _message(c["message"]).splitlines()]
    return "\n".join(lines)


def check(exercise_id, source=None):
    """Run the public checks of `exercise_id` on the exercise cell (or `source`) and print them.

    Nothing is returned: a cell ending in `check(...)` shows only the printed report.
    """
    if source is None:
        history = _history()
        if history is None:
            print(
                "This check reads the exercise cell from Jupyter's history, so it runs in "
                "Jupyter, JupyterLab, VS Code or Colab. Here, save your code as "
                f"exercises/{exercise_id} in the course repository and run: "
                f"python -m grader --exercise {exercise_id}"
            )
            return
        source = exercise_source(exercise_id, history)
        if source is None:
            print(
                "Run the exercise cell first (the one above that says "
                f"`{_marker(exercise_id)}`), then run this check cell again."
            )
            return
    print(report(run_public_checks(exercise_id, source)))
