"""Helpers for the grader's tests: grade a submission in the real sandbox, watch the side effects."""

import csv
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from grader.grade import grade
from grader.isolation import Level
from grader.jail import remove_tree
from grader.sandbox import Limits, Sandbox, SandboxError, probe
from grader.submission import load

ROOT = Path(__file__).resolve().parents[2]
PROBE = {"kind": "ops", "name": "probe", "public": True, "inputs": {}}  # a day-5 case
HAS_BWRAP = shutil.which("bwrap") is not None and probe(Sandbox(Level.BWRAP))


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
            works = probe(Sandbox(Level.UID, python=python))
        except SandboxError:  # nobody may not even execute it
            continue
        if works:
            return python, None
    return None, f"no {version} here that the user nobody can run (tried {candidates})"


UID_PYTHON, NO_UID = _uid_python()


ROOT_REFUSES_PROCESS = "the process level refuses to run as root (learner code would run as root)"


def make_sandbox(level, limits=None):
    if level == "process" and os.geteuid() == 0:
        pytest.skip(ROOT_REFUSES_PROCESS)
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
    "process",  # as root, make_sandbox skips it: the level refuses root
]


# -- the grader run by a user who is not root ----------------------------------------------

NOBODY = 65534
SYSTEM_PYTHON = f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}"
AS_NOBODY = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


def _nobody_grader():
    """(True, None) if root can run the grader here as the user nobody with bubblewrap
    (unprivileged user namespaces), or (False, why not)."""
    if os.geteuid() != 0:
        return False, "running the grader as the user nobody needs root to switch to it"
    missing = [tool for tool in ("setpriv", "bwrap") if not shutil.which(tool)]
    if missing or not os.access(SYSTEM_PYTHON, os.X_OK):
        return False, f"needs setpriv, bwrap and {SYSTEM_PYTHON} (missing: {missing})"
    probe = [*AS_NOBODY, "bwrap", "--unshare-all", "--ro-bind", "/", "/", "true"]
    if subprocess.run(probe, capture_output=True, timeout=30).returncode != 0:
        return False, "bubblewrap does not work for the user nobody here (no user namespaces)"
    return True, None


HAS_NOBODY_GRADER, NO_NOBODY_GRADER = _nobody_grader()


def grade_class_as_nobody(learners, exercise="day05_add_mul.py", isolation="auto", timeout=300):
    """Grade a class ({learner: source of `exercise`}) with `python -m grader --batch`, run
    by the user nobody on a copy of the grader that only nobody may read; one process,
    learners in name order. Returns ({learner: score}, the finished process)."""
    base = Path(tempfile.mkdtemp(prefix="grader-as-nobody-"))
    try:
        for package in ("grader", "engine"):
            shutil.copytree(
                ROOT / package, base / package, ignore=shutil.ignore_patterns("__pycache__")
            )
        for learner, source in learners.items():
            (base / "class" / learner).mkdir(parents=True)
            (base / "class" / learner / exercise).write_text(source)
        for folder, _, names in os.walk(base):
            for name in [folder, *(os.path.join(folder, n) for n in names)]:
                os.chown(name, NOBODY, NOBODY)
        base.chmod(0o700)
        argv = [*AS_NOBODY, SYSTEM_PYTHON, "-E", "-s", "-m", "grader", "--batch", "class"]
        argv += [
            "--exercise",
            exercise,
            "--isolation",
            isolation,
            "--csv",
            "grades.csv",
            "--seed",
            "1",
        ]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(base)}
        run = subprocess.run(argv, cwd=base, env=env, capture_output=True, timeout=timeout)
        grades = base / "grades.csv"
        rows = csv.DictReader(io.StringIO(grades.read_text())) if grades.exists() else []
        return {row["learner"]: int(float(row["score"])) for row in rows}, run
    finally:
        remove_tree(base)
