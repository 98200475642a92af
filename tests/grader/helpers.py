"""Helpers for the grader's tests: grade a submission in the real sandbox, watch the side effects."""

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from grader.grade import grade
from grader.sandbox import Limits, Sandbox
from grader.submission import load

ROOT = Path(__file__).resolve().parents[2]
HAS_BWRAP = (
    shutil.which("bwrap") is not None
    and Sandbox("bwrap")
    .run(
        "day05_add_mul.py",
        b"",
        {"kind": "ops", "name": "probe", "public": True, "inputs": {}},
        False,
    )
    .get("outcome")
    is not None
)


# The files the attacks aim at (others may be edited by colleagues while the tests run).
TARGETS = [
    "grader/checks/_kit.py",
    "grader/checks/day05_add_mul.py",
    "grader/child.py",
    "solutions/day05_add_mul.py",
    "exercises/day05_add_mul.py",
    "engine/value.py",
]


def tree_digest():
    """A digest of the course files the attacks try to change (and whether they exist)."""
    digest = hashlib.sha256()
    for name in TARGETS:
        path = ROOT / name
        digest.update(name.encode() + (path.read_bytes() if path.exists() else b"<missing>"))
    return digest.hexdigest()


def processes_with(marker):
    """PIDs whose command line contains `marker`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if marker.encode() in handle.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


def grade_source(tmp_path, source, exercise="day05_add_mul.py", level="bwrap", limits=None, seed=1):
    folder = tmp_path / "submission"
    folder.mkdir(exist_ok=True)
    (folder / exercise).write_text(source)
    sandbox = Sandbox(level, limits or Limits(wall_seconds=1.0, cpu_seconds=1))
    return grade(load(folder), sandbox, [exercise], seed)


def score(results):
    return sum(t["passed"] for t in results["tests"])


LEVELS = [
    pytest.param("bwrap", marks=pytest.mark.skipif(not HAS_BWRAP, reason="bubblewrap unavailable")),
    "process",
]
