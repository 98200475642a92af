"""The whole suite in two halves at once, one per core: `python -m tests.halves [PYTEST ARGS]`.

The "site" half is every test that needs the built site, a browser or the lessons' cells
under Pyodide (tests/conftest.py `needs_site`); the "rest" half is every other test. Each
half is a pytest run of its own (its own temporary folder, its own early work: the rest
half never builds the site), started together; the site half's report is shown as it runs,
the rest half's when it ends. The exit status is the first failing half's, else 0.

    nox -s tests               # this
    nox -s tests -- tests/x    # a selection: one pytest run, as usual
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HALVES = ("site", "rest")


def main(args: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="course-tests-") as folder:
        running = {}
        for half in HALVES:
            log = (Path(folder) / f"{half}.log").open("w+", encoding="utf-8")
            command = [
                sys.executable,
                "-m",
                "pytest",
                "-p",
                "no:cacheprovider",
                f"--basetemp={folder}/{half}",
            ]
            command += args
            running[half] = (
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env={**os.environ, "COURSE_TEST_HALF": half},
                    stdout=None if half == "site" else log,
                    stderr=subprocess.STDOUT if half != "site" else None,
                ),
                log,
            )
        statuses = {}
        for half in HALVES:
            process, log = running[half]
            statuses[half] = process.wait()
            if half != "site":
                log.seek(0)
                print(f"\n===== the {half} half of the tests =====\n", flush=True)
                sys.stdout.write(log.read())
            log.close()
        print(f"\nhalves: {statuses}", flush=True)
        return next((status for status in statuses.values() if status != 0), 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
