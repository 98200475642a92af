"""Attacks on the host around the sandbox: what one case leaves for the next or for the
machine (IPC objects, shared memory, folders too deep to remove), the uid locks, and a
grader run as root at the process level.

Each runs at every level it applies to: bwrap (the grader as root), uid (root without
bubblewrap; with and without an IPC namespace per case) and bwrap with the grader run
by the user nobody (python -m grader --batch, one process for the whole class).
"""

import ctypes
import fcntl
import os
import random
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader import jail as jail_module
from grader import sandbox as sandbox_module
from grader.checks import check_module
from grader.grade import Budget, grade
from grader.jail import SLOTS, UID_BASE, JailError
from grader.messages import render
from grader.sandbox import Limits, Sandbox, SandboxError, detect
from grader.submission import load

from .helpers import (
    HAS_BWRAP,
    HAS_NOBODY_GRADER,
    NO_NOBODY_GRADER,
    NO_UID,
    NOBODY,
    PROBE,
    ROOT,
    UID_PYTHON,
    grade_class_as_nobody,
    make_sandbox,
    score,
)

ATTACKS = Path(__file__).parent / "attacks" / "host"
REFERENCE = (ROOT / "solutions" / "day05_add_mul.py").read_text()
HELD = '\nif not escaped:\n    raise NotImplementedError("Day 5: the sandbox held")\n\n'
EXERCISE = "day05_add_mul.py"
QUICK = Limits(wall_seconds=1.0, cpu_seconds=1)
ROOMY = Limits(wall_seconds=10.0, cpu_seconds=10)

NEED_BWRAP = pytest.mark.skipif(not HAS_BWRAP, reason="bubblewrap unavailable")
NEED_UID = pytest.mark.skipif(UID_PYTHON is None, reason=str(NO_UID))
NEED_NOBODY = pytest.mark.skipif(not HAS_NOBODY_GRADER, reason=str(NO_NOBODY_GRADER))
NEED_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="only root can make or refuse this")

LEVELS = [
    pytest.param("bwrap", marks=NEED_BWRAP),
    pytest.param("uid", marks=NEED_UID),
    pytest.param("uid-without-ipc-namespace", marks=NEED_UID),
    pytest.param("bwrap-as-nobody", marks=NEED_NOBODY),
]
TREE_LEVELS = [p for p in LEVELS if p.values[0] != "uid-without-ipc-namespace"]


def attack(file, **values):
    return (ATTACKS / file).read_text() % values


def in_process_sandbox(level, limits, monkeypatch):
    """The Sandbox of an in-process level; without an IPC namespace, the jail's fallback."""
    if level == "uid-without-ipc-namespace":
        jail = sandbox_module._jail_for(UID_PYTHON)
        monkeypatch.setattr(jail, "ipc_namespace", False)
        level = "uid"
    return make_sandbox(level, limits)


def grade_with(sandbox, tmp_path, source, name="learner"):
    folder = tmp_path / name
    folder.mkdir()
    (folder / EXERCISE).write_text(source)
    return grade(load(folder), sandbox, [EXERCISE], seed=1)


# -- System V and POSIX IPC ------------------------------------------------------------


def _segments(size):
    """{shmid: creator uid} of the host's shared memory segments of `size` bytes."""
    lines = Path("/proc/sysvipc/shm").read_text().splitlines()
    header = lines[0].split()
    rows = [dict(zip(header, line.split())) for line in lines[1:]]
    return {int(r["shmid"]): int(r["cuid"]) for r in rows if int(r["size"]) == size}


def _sandboxed_uid(uid):
    return uid >= UID_BASE or uid == NOBODY


@pytest.fixture
def hog_segments():
    """Segments of the hog's size made by a sandboxed uid during the test (removed after,
    whatever the test found, so a failing run leaves no GiB behind)."""
    size = 256 * 2**20
    before = set(_segments(size))

    def new():
        return {i: u for i, u in _segments(size).items() if i not in before and _sandboxed_uid(u)}

    yield new
    libc = ctypes.CDLL(None, use_errno=True)
    for shmid in new():
        libc.shmctl(shmid, 0, None)  # IPC_RMID


@pytest.mark.parametrize("level", LEVELS)
def test_shared_memory_a_case_holds_is_freed_when_it_ends(level, monkeypatch, hog_segments):
    # The case attaches and touches 4 x 256 MiB of System V shared memory and never
    # removes it: without an IPC namespace (or a cleanup), 1 GiB stays allocated.
    source = attack("ipc_hog.py")
    if level == "bwrap-as-nobody":
        scores, run = grade_class_as_nobody({"hog": source})
        assert run.returncode == 0, run.stderr.decode()[-2000:]
    else:
        sandbox = in_process_sandbox(level, ROOMY, monkeypatch)
        result = sandbox.run(EXERCISE, source.encode(), PROBE, False)
        if level == "uid-without-ipc-namespace":  # capped while it runs, like a tmpfs
            assert "MiB of shared memory" in render(result.get("failure", "")), result
    assert hog_segments() == {}, "shared memory was left allocated after the case"


IPC_KINDS = ["shm", "msg", "sem", "mqueue"]


@pytest.fixture
def ipc_key():
    """A key (and POSIX queue name) of this test alone; whatever holds it is removed after."""
    key = 0x47520000 + os.getpid() % 0x10000
    yield key
    for option in ("-M", "-Q", "-S"):
        subprocess.run(["ipcrm", option, str(key)], capture_output=True, check=False)
    ctypes.CDLL(None).mq_unlink(f"/grader-{key}".encode())


def _ipc_values(key, kind):
    return {"key": key, "secret": f"left-by-{os.getpid()}", "kind": kind}


@pytest.mark.parametrize("kind", IPC_KINDS)
@pytest.mark.parametrize("level", LEVELS)
def test_an_ipc_object_one_case_leaves_is_out_of_reach_of_the_next(
    tmp_path, level, kind, monkeypatch, ipc_key
):
    # One learner's case leaves a secret in an IPC object (mode 666); a later learner's
    # cases look for it and pass only if they find it.
    values = _ipc_values(ipc_key, kind)
    leave = attack("ipc_leave.py", **values)
    find = attack("ipc_find.py", **values) + HELD + REFERENCE
    if level == "bwrap-as-nobody":
        scores, run = grade_class_as_nobody({"a-leaves": leave, "b-finds": find})
        assert run.returncode == 0, run.stderr.decode()[-2000:]
        assert scores["b-finds"] == 0
        return
    sandbox = in_process_sandbox(level, QUICK, monkeypatch)
    assert "outcome" in sandbox.run(EXERCISE, leave.encode(), PROBE, False)
    assert score(grade_with(sandbox, tmp_path, find)) == 0


@pytest.mark.parametrize("kind", IPC_KINDS)
@pytest.mark.parametrize("level", [p for p in LEVELS[:2]])
def test_the_ipc_finder_finds_what_its_own_case_left(tmp_path, level, kind, ipc_key):
    # The control: in one case, the finder does find the secret (full marks), so a 0 above
    # means the object was out of reach, not that the attack is broken. Roomy limits: a case
    # that a busy machine keeps past a 1 s limit would lose a mark the attack did not.
    values = _ipc_values(ipc_key, kind)
    source = attack("ipc_leave.py", **values) + attack("ipc_find.py", **values) + HELD + REFERENCE
    assert score(grade_with(make_sandbox(level, ROOMY), tmp_path, source)) == 12


# -- abstract unix sockets ------------------------------------------------------------------


@pytest.fixture
def host_socket():
    """An unconnected datagram socket of the host, bound to an abstract name."""
    name = f"grader-host-{os.getpid()}-{secrets.token_hex(4)}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(b"\0" + name.encode())
        server.setblocking(False)
        yield name, server


@pytest.mark.parametrize("level", [p for p in LEVELS if p.values[0] != "uid-without-ipc-namespace"])
def test_a_case_cannot_reach_the_hosts_abstract_unix_sockets(tmp_path, level, host_socket):
    name, server = host_socket
    source = attack("abstract_socket.py", name=name) + HELD + REFERENCE
    if level == "bwrap-as-nobody":
        scores, run = grade_class_as_nobody({"sender": source})
        assert run.returncode == 0, run.stderr.decode()[-2000:]
        assert scores["sender"] == 0
    else:
        assert score(grade_with(make_sandbox(level, QUICK), tmp_path, source)) == 0
    with pytest.raises(BlockingIOError):
        server.recv(64)


# -- folders too deep to remove ---------------------------------------------------------


@pytest.mark.parametrize("name_length", [1, 200], ids=["short names", "long names"])
@pytest.mark.parametrize("level", TREE_LEVELS)
def test_a_deep_tree_costs_the_next_learner_nothing(tmp_path, level, name_length):
    # The attack nests folders as deep as it can before it is stopped (thousands deep;
    # with long names, deeper than PATH_MAX). An honest learner graded next, by the same
    # grader, gets full marks, and at the uid level every uid is free again.
    deep = attack("deep_tree.py", name="d" * name_length)
    if level == "bwrap-as-nobody":
        scores, run = grade_class_as_nobody({"a-deep": deep, "b-honest": REFERENCE})
        assert run.returncode == 0, run.stderr.decode()[-2000:]
        # The gradebook's score is the hidden cases' (grader/report.py): all of them.
        hidden = check_module("day05_add_mul.py").hidden_cases(random.Random(0))
        assert scores == {"a-deep": 0, "b-honest": len(hidden)}
        return
    sandbox = make_sandbox(level, QUICK)
    attacked = grade_with(sandbox, tmp_path, deep, "deep")
    assert score(attacked) == 0
    assert not any("grader itself failed" in t["message"] for t in attacked["tests"])
    assert score(grade_with(sandbox, tmp_path, REFERENCE, "honest")) == 12
    if level == "uid":
        jail = sandbox_module._jail_for(UID_PYTHON)
        assert len(jail._free) == SLOTS and not jail._retired
        assert not list(Path(jail.root, "scratch").iterdir())


@NEED_UID
def test_a_uid_whose_folder_cannot_be_removed_is_retired(tmp_path, monkeypatch):
    # Should a case's folder ever resist removal, its uid is never handed out again by
    # this grader, and the next learner is graded on another uid as if nothing happened.
    monkeypatch.setattr(sandbox_module, "_JAILS", {})
    sandbox = make_sandbox("uid", QUICK)
    jail = sandbox_module._jail_for(UID_PYTHON)
    real_remove, resisted = jail_module.remove_tree, []

    def remove_once_failing(path, **kwargs):
        if "scratch" in str(path) and os.path.lexists(path) and not resisted:
            resisted.append(Path(path).name)
            return False
        return real_remove(path, **kwargs)

    monkeypatch.setattr(jail_module, "remove_tree", remove_once_failing)
    given = []
    real_acquire = jail.acquire
    monkeypatch.setattr(jail, "acquire", lambda *a: given.append(real_acquire(*a)) or given[-1])
    assert "outcome" in sandbox.run(EXERCISE, b"", PROBE, False)
    assert list(jail._retired) == [int(resisted[0])]
    assert score(grade_with(sandbox, tmp_path, REFERENCE)) == 12
    assert given.count(int(resisted[0])) == 1


# -- the uid locks -------------------------------------------------------------------------


@NEED_ROOT
def test_a_lock_folder_that_is_a_link_is_refused(tmp_path, monkeypatch):
    # A local user who could put a link where the locks go would make root create files
    # wherever it points.
    target = tmp_path / "target"
    target.mkdir()
    link = tmp_path / "locks"
    link.symlink_to(target)
    with pytest.raises(JailError, match="not a folder"):
        jail_module.lock_folder(link)
    if UID_PYTHON is not None:  # the same, through the sandbox
        monkeypatch.setattr(jail_module, "LOCKS", link)
        monkeypatch.setattr(sandbox_module, "_JAILS", {})
        with pytest.raises(SandboxError, match="lock folder"):
            make_sandbox("uid").run(EXERCISE, b"", PROBE, False)
    assert not list(target.iterdir()), "files were made where the link points"


@NEED_ROOT
@pytest.mark.parametrize("owner, mode", [(NOBODY, 0o700), (0, 0o777), (0, 0o1777)])
def test_a_lock_folder_others_may_write_to_is_refused(tmp_path, owner, mode):
    folder = tmp_path / "locks"
    folder.mkdir()
    os.chown(folder, owner, owner)
    folder.chmod(mode)
    with pytest.raises(JailError, match="must be root's and writable by root only"):
        jail_module.lock_folder(folder)


@NEED_UID
def test_a_lock_file_that_is_a_link_is_refused(tmp_path, monkeypatch):
    locks, target = tmp_path / "locks", tmp_path / "target"
    locks.mkdir(mode=0o700)
    for slot in range(SLOTS):
        (locks / str(UID_BASE + slot)).symlink_to(target)
    monkeypatch.setattr(jail_module, "LOCKS", locks)
    monkeypatch.setattr(sandbox_module, "_JAILS", {})
    with pytest.raises(SandboxError, match="uid lock"):
        make_sandbox("uid").run(EXERCISE, b"", PROBE, False)
    assert not target.exists()


@NEED_UID
def test_with_every_uid_busy_a_case_comes_back_as_an_error_in_time(tmp_path, monkeypatch):
    # Another grader holds all 64 uids: the case waits its bound, then is reported as not
    # run (not the learner's fault) instead of crashing the run or scoring 0.
    locks = tmp_path / "locks"
    locks.mkdir(mode=0o700)
    monkeypatch.setattr(jail_module, "LOCKS", locks)
    monkeypatch.setattr(sandbox_module, "_JAILS", {})
    sandbox = make_sandbox("uid", Limits(wall_seconds=5.0, slot_wait_seconds=1.0))
    sandbox_module._jail_for(UID_PYTHON)  # built first, so the wait alone is timed
    held = []
    for slot in range(SLOTS):
        handle = open(locks / str(UID_BASE + slot), "a")  # noqa: SIM115 -- closed below
        fcntl.flock(handle, fcntl.LOCK_EX)
        held.append(handle)
    try:
        started = time.monotonic()
        result = sandbox.run(EXERCISE, REFERENCE.encode(), PROBE, False)
        assert time.monotonic() - started < 5.0
        assert "no sandbox uid came free within 1 s" in render(result["error"]), result
        assert "outcome" not in result and "failure" not in result
        passed_on = Budget({EXERCISE: REFERENCE.encode()}, sandbox).run(EXERCISE, PROBE)
        assert "error" in passed_on
        held.pop().close()  # one uid comes free: the next case runs
        assert "outcome" in sandbox.run(EXERCISE, REFERENCE.encode(), PROBE, False)
    finally:
        for handle in held:
            handle.close()


# -- the process level as root -------------------------------------------------------------


@NEED_ROOT
def test_the_process_level_refuses_to_run_as_root(tmp_path, monkeypatch):
    # As root, the process level would run learner code as root (one os.kill(-1, 9) and
    # every process on the host is gone): it refuses before any code runs.
    with pytest.raises(SandboxError, match="root"):
        Sandbox("process")
    monkeypatch.setattr(sandbox_module, "_DETECTED", {})
    with pytest.raises(SandboxError, match="normal user"):
        detect("process")
    marker = tmp_path / "ran"
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / EXERCISE).write_text(f"open({str(marker)!r}, 'w').close()\n" + REFERENCE)
    argv = [sys.executable, "-m", "grader", str(folder), "--exercise", EXERCISE]
    run = subprocess.run(
        [*argv, "--isolation", "process"], cwd=ROOT, capture_output=True, timeout=120
    )
    assert run.returncode == 1 and b"root" in run.stderr
    assert not marker.exists(), "learner code ran as root"


@NEED_UID
def test_auto_picks_the_uid_level_as_root_without_bubblewrap(monkeypatch):
    real_which = sandbox_module.shutil.which
    monkeypatch.setattr(
        sandbox_module.shutil,
        "which",
        lambda name, *a, **k: None if name == "bwrap" else real_which(name, *a, **k),
    )
    monkeypatch.setattr(sandbox_module, "_interpreter", lambda: UID_PYTHON)
    monkeypatch.setattr(sandbox_module, "_DETECTED", {})
    assert detect("auto").level == "uid"
