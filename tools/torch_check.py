"""Run the lessons' "Check it against PyTorch" blocks and compare what they print.

    python tools/torch_check.py     # needs torch (`nox -s torch` installs the CPU wheel)

A block is a ```torch fence on a lesson page, followed by a ```text fence with the output
the page shows (one line of prose may stand between them, such as "It prints:"). Each block runs on its own in a fresh Python (with the course's `engine`
importable), and its standard output must be exactly the text block. The blocks must be on
days 4, 7, 19, 25 and 41, one on each.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "docs" / "lessons"
DAYS = {4, 7, 19, 25, 41}
_BLOCK = re.compile(
    r"^```torch\n(?P<code>.*?)^```\n\s*(?:^[^`\n][^\n]*\n\s*)?^```text\n(?P<output>.*?)^```$",
    re.S | re.M,
)


def blocks():
    """(page, code, shown output) for every torch block of every lesson, in day order."""
    for page in sorted(LESSONS.glob("day*.md")):
        if re.search(r"\.[a-z]{2}\.md$", page.name):
            continue  # the same block in another language: its English page is checked
        for m in _BLOCK.finditer(page.read_text(encoding="utf-8")):
            yield page, m["code"], m["output"]


def main():
    found = list(blocks())
    days = sorted(int(page.name[3:5]) for page, _, _ in found)
    problems = (
        [] if days == sorted(DAYS) else [f"torch blocks on days {days}, expected {sorted(DAYS)}"]
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONWARNINGS="ignore")
    for page, code, shown in found:
        run = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=300,
        )
        if run.returncode != 0:
            problems.append(f"{page.name}: the block failed:\n{run.stderr}")
        elif run.stdout != shown:
            problems.append(
                f"{page.name}: the block printed\n{run.stdout}but the page shows\n{shown}"
            )
        else:
            print(f"{page.name}: prints what the page shows")
            print("    " + run.stdout.rstrip("\n").replace("\n", "\n    "))
    for problem in problems:
        print("FAIL", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
