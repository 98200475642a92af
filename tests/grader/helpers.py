"""Helpers for the grader's tests: grade a submission in the real sandbox, watch the side effects."""

import hashlib
import os
import shutil
import sys
from pathlib import Path

import pytest

from grader.grade import grade
from grader.sandbox import Limits, Sandbox, SandboxError
from grader.submission import load

ROOT = Path(__file__).resolve().parents[2]
PROBE = {"kind": "ops", "name": "probe", "public": True, "inputs": {}}
HAS_BWRAP = (
    shutil.which("bwrap") is not None
    and Sandbox("bwrap").run("day05_add_mul.py", b"", PROBE, False).get("outcome") is not None
)


# The files the attacks aim at (others may be edited by colleagues while the tests run).
TARGETS = [
    "grader/verdict.py",
    "grader/checks/__init__.py",
    "grader/checks/day05_add_mul.py",
    "grader/runners/__init__.py",
    "grader/runners/day05_add_mul.py",
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


def _uid_python():
    """(an interpreter the user nobody can run, None) for the uid level, or (None, why not).

    The uid level runs the child as nobody, so the interpreter and its standard library
    must be readable by nobody: a Python under /root (mode 700) is not, a system Python
    of the same version is.
    """
    if os.geteuid() != 0:
        return None, "the uid level runs the child as the user nobody: it needs root"
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [os.path.realpath(sys.executable)]
    candidates += [shutil.which(version, path=p) for p in ("/usr/local/bin", "/usr/bin")]
    for python in filter(None, candidates):
        try:
            result = Sandbox("uid", python=python).run("day05_add_mul.py", b"", PROBE, False)
        except SandboxError:  # nobody may not even execute it
            continue
        if result.get("outcome"):
            return python, None
    return None, f"no {version} here that the user nobody can run (tried {candidates})"


UID_PYTHON, NO_UID = _uid_python()


def make_sandbox(level, limits=None):
    limits = limits or Limits(wall_seconds=1.0, cpu_seconds=1)
    return Sandbox(level, limits, python=UID_PYTHON if level == "uid" else None)


def grade_source(tmp_path, source, exercise="day05_add_mul.py", level="bwrap", limits=None, seed=1):
    folder = tmp_path / "submission"
    folder.mkdir(exist_ok=True)
    (folder / exercise).write_text(source)
    return grade(load(folder), make_sandbox(level, limits), [exercise], seed)


def score(results):
    return sum(t["passed"] for t in results["tests"])


LEVELS = [
    pytest.param("bwrap", marks=pytest.mark.skipif(not HAS_BWRAP, reason="bubblewrap unavailable")),
    pytest.param("uid", marks=pytest.mark.skipif(UID_PYTHON is None, reason=str(NO_UID))),
    "process",
]
