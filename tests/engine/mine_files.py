"""The files the my-engine tests install: the course's solutions and stubs, read once."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "solutions").glob("day*.py")}
STUBS = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "exercises").glob("day*.py")}


def rows(report):
    """install's report as {part: its row}."""
    return {row["part"]: row for row in report["parts"]}


def run_cli(*args, env=None, timeout=120):
    """`python -m tools.my_engine ARGS` from the repository root; `env` None: this process's
    environment without MY_ENGINE_AS_ROOT (as root, only the course's own folders run)."""
    if env is None:
        env = {k: v for k, v in os.environ.items() if k != "MY_ENGINE_AS_ROOT"}
    return subprocess.run(
        [sys.executable, "-m", "tools.my_engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
