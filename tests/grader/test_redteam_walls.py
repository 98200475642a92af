"""Attacks on the walls between cases and on what the trusted parent believes.

Each test is an attack that must fail at every level it applies to: a case that kills
its neighbours, reads the grader's command line, leaves files behind or fills a disk;
numbers, names and bytes crafted to hang or crash the parent; and a grader that would
fall back to no sandbox at all.
"""

import csv
import io
import json
import os
import random
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import pytest

from grader import sandbox as sandbox_module
from grader.grade import grade
from grader.sandbox import Limits, SandboxError, detect
from grader.submission import Rejected, load

from .helpers import HAS_BWRAP, LEVELS, ROOT, UID_PYTHON, grade_source, make_sandbox, score

REFERENCE = (ROOT / "solutions" / "day05_add_mul.py").read_text()
TOKENS = (ROOT / "solutions" / "day16_tokens.py").read_text()
WALLED = [p for p in LEVELS if p != "process"]  # "process" is not a sandbox (documented)
HELD = '\nif not escaped:\n    raise NotImplementedError("Day 5: the sandbox held")\n\n'


def gated(gate):
    """The reference behind `gate`: full marks only if the gate set `escaped`."""
    return textwrap.dedent(gate) + HELD + REFERENCE


@pytest.mark.parametrize("level", WALLED)
def test_a_case_cannot_kill_its_neighbours(tmp_path, level):
    # One exercise kills every process it may signal, over and over; the other one,
    # graded at the same time by the second worker, must not notice.
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "day05_add_mul.py").write_text(
        "import os, signal, time\n"
        "end = time.monotonic() + 0.8\n"
        "while time.monotonic() < end:\n"
        "    try:\n        os.kill(-1, signal.SIGKILL)\n    except OSError:\n        pass\n"
    )
    (folder / "day16_tokens.py").write_text(TOKENS)
    limits = Limits(wall_seconds=5.0, cpu_seconds=5)
    results = grade(load(folder), make_sandbox(level, limits), None, seed=2)
    tokens = [t for t in results["tests"] if t["exercise"] == "day16_tokens.py"]
    assert tokens and all(t["passed"] for t in tokens), [t["message"] for t in tokens]


@pytest.mark.parametrize("level", WALLED)
def test_a_case_cannot_touch_another_cases_files(tmp_path, level):
    # Two workers grade at once: each case hunts for the other's staged folder (where the
    # uid level used to put it, and where it puts it now) and tries to change its files.
    source = gated(
        """
        import glob, os
        mine = os.path.dirname(os.path.abspath(__file__))
        escaped = False
        for _ in range(200):
            for folder in glob.glob("/tmp/grader-case-*") + glob.glob("/cases/*"):
                if os.path.realpath(folder) == os.path.realpath(mine):
                    continue
                for name in glob.glob(folder + "/*.py"):
                    try:
                        with open(name, "a") as handle:
                            handle.write("# changed by a neighbour")
                        escaped = True
                    except OSError:
                        pass
        """
    )
    assert score(grade_source(tmp_path, source, level=level)) == 0


@pytest.mark.parametrize("level", WALLED)
def test_a_case_cannot_read_the_graders_command_line_or_memory(tmp_path, level):
    source = gated(
        """
        import os
        escaped = False
        for path in (f"/proc/{os.getppid()}/cmdline", "/proc/1/cmdline", "/proc/self/mem"):
            try:
                with open(path, "rb") as handle:
                    escaped = escaped or bool(handle.read(64))
            except OSError:
                pass
        """
    )
    assert score(grade_source(tmp_path, source, level=level)) == 0


@pytest.mark.parametrize("level", WALLED)
def test_a_case_leaves_no_file_behind(tmp_path, level):
    marker = f"grader-redteam-{os.getpid()}-{level}"
    source = textwrap.dedent(
        f"""
        import os
        for folder in ("/tmp", "/var/tmp", "/dev/shm", os.environ.get("TMPDIR", "/tmp"), "."):
            try:
                with open(os.path.join(folder, "{marker}"), "w") as handle:
                    handle.write("left behind")
            except OSError:
                pass
        """
    )
    grade_source(tmp_path, source, level=level)
    for folder in ("/tmp", "/var/tmp", "/dev/shm"):
        assert not Path(folder, marker).exists(), f"{folder}/{marker} was left behind"


@pytest.mark.parametrize("level", WALLED)
def test_a_case_cannot_fill_a_disk(tmp_path, level):
    # 64 MiB in files of 1 MiB (the file-size limit) wherever the case may write: four
    # times what any one writable place holds.
    source = gated(
        """
        import os
        written = 0
        block = b"x" * 2**20
        for folder in ("/dev/shm", "/tmp", os.environ.get("TMPDIR", "/tmp"), "."):
            for i in range(64):
                try:
                    with open(os.path.join(folder, f"fill{i}"), "wb") as handle:
                        handle.write(block)
                    written += len(block)
                except OSError:
                    break
        escaped = written >= 64 * 2**20
        """
    )
    results = grade_source(tmp_path, source, level=level, limits=Limits(wall_seconds=5.0))
    assert score(results) == 0


@pytest.mark.skipif(UID_PYTHON is None, reason="the uid level needs root")
def test_the_uid_level_stages_root_owned_files_and_an_empty_scratch_folder():
    # Root never chowns what a learner could have written: the staged files belong to
    # root, only the case's own group may read them, and the one folder the case owns
    # is new and empty.
    jail = sandbox_module._jail_for(UID_PYTHON)
    uid = jail.acquire()
    try:
        _, child, env = jail.stage(uid, {"child.py": b"", "runners/x.py": b"", "day05.py": b""})
        case_dir = Path(jail.root, child.lstrip("/")).parent
        for path in [case_dir, *case_dir.rglob("*")]:
            info = path.lstat()
            assert info.st_uid == 0 and info.st_gid == uid, path
            assert not info.st_mode & 0o222 or path.is_dir() and not info.st_mode & 0o022
            assert not info.st_mode & 0o007, path  # nothing for other uids
        scratch = Path(jail.root, env["TMPDIR"].lstrip("/"))
        assert scratch.lstat().st_uid == uid and not list(scratch.iterdir())
        assert not Path(jail.root, "proc").exists() and not Path(jail.root, "tmp").exists()
    finally:
        jail.release(uid)


@pytest.mark.skipif(UID_PYTHON is None, reason="the uid level needs root")
def test_concurrent_uid_cases_get_different_uids():
    jail = sandbox_module._jail_for(UID_PYTHON)
    first, second = jail.acquire(), jail.acquire()
    try:
        assert first != second
    finally:
        jail.release(first)
        jail.release(second)


# -- the sandbox is chosen, never assumed ------------------------------------------------


def test_auto_never_falls_back_to_no_sandbox(monkeypatch):
    # No bubblewrap and not root: "auto" fails closed with what to do, instead of
    # running learner code as the grader's user.
    monkeypatch.setattr(sandbox_module.shutil, "which", lambda name, *a, **k: None)
    monkeypatch.setattr(sandbox_module.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(sandbox_module, "_DETECTED", {})
    with pytest.raises(SandboxError, match="install bubblewrap.*--isolation process"):
        detect("auto")


def test_the_process_level_runs_only_by_name_and_says_it_is_no_sandbox(monkeypatch, capsys):
    monkeypatch.setattr(sandbox_module, "_DETECTED", {})
    if os.geteuid() == 0:  # as root it would run learner code as root: refused
        with pytest.raises(SandboxError, match="root"):
            detect("process")
        return
    assert detect("process").level == "process"
    assert "is not a sandbox" in capsys.readouterr().err


def test_gradescope_refuses_to_grade_without_a_sandbox(tmp_path, monkeypatch):
    # run_autograder asks for "auto"; with no sandbox the learner reads why, scores 0,
    # and the grader exits 1: nothing of theirs ran.
    import grader.__main__ as cli

    script = (ROOT / "grader" / "autograder" / "run_autograder").read_text()
    assert "--isolation auto" in script
    monkeypatch.setattr(sandbox_module.shutil, "which", lambda name, *a, **k: None)
    monkeypatch.setattr(sandbox_module.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(sandbox_module, "_DETECTED", {})
    out = tmp_path / "results.json"
    status = cli.main([str(ROOT / "solutions"), "--isolation", "auto", "--json", str(out)])
    assert status == 1
    data = json.loads(out.read_text())
    assert data["score"] == 0 and "no sandbox" in data["output"]


# -- numbers, names and bytes the parent must bound ---------------------------------------

FORGE = """
import json, os, sys
frame = sys._getframe()
while "nonce" not in frame.f_locals:
    frame = frame.f_back
values = %s
line = {"nonce": frame.f_locals["nonce"], "outcome": {"values": values, "invalid": {}}}
os.write(frame.f_locals["fd"], json.dumps(line).encode() + b"\\n")
os._exit(0)
"""


@pytest.mark.parametrize("length", ["1e12", "float('inf')", "float('nan')", "-3.0", "2.5"])
def test_a_forged_length_is_refused_quickly(tmp_path, length):
    values = "{'len(chars)': %s, 'len(ids)': %s, 'len(text)': %s, 'len(current)': %s}" % (
        (length,) * 4
    )
    started = time.monotonic()
    results = grade_source(
        tmp_path, FORGE % values, exercise="day16_tokens.py", level="bwrap" if HAS_BWRAP else "uid"
    )
    assert time.monotonic() - started < 20
    assert score(results) == 0
    assert all(t["message"] for t in results["tests"])


def test_a_lone_surrogate_in_an_error_does_not_crash_the_report(tmp_path):
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "day05_add_mul.py").write_text('raise ValueError("\\ud800 broken")\n')
    run = subprocess.run(
        [sys.executable, "-m", "grader", str(folder), "--exercise", "day05_add_mul.py"],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    assert b"Score: 0/" in run.stdout and b"ValueError" in run.stdout


@pytest.mark.skipif(sys.platform != "linux", reason="file names of raw bytes")
def test_a_learner_named_with_bytes_that_are_not_utf8_gets_a_row(tmp_path):
    from grader.batch import grade_folder

    class_dir = tmp_path / "class"
    for learner in (b"ada", b"b\xffob", b"cy"):
        folder = Path(os.fsdecode(bytes(class_dir) + b"/" + learner))
        folder.mkdir(parents=True)
        (folder / "day05_add_mul.py").write_text(REFERENCE)
    gradebook = tmp_path / "grades.csv"
    status = grade_folder(class_dir, detect(), ["day05_add_mul.py"], gradebook, seed=1, quiet=True)
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(gradebook.read_text(encoding="utf-8"))))
    assert len(rows) == 3 and all(r["score"] == r["max_score"] for r in rows)
    assert any("\\xff" in r["learner"] for r in rows)


def _zip_bytes(entries):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return buffer.getvalue()


def _set_name(data, old, new):
    """Rename an entry in place, in both headers, and set the UTF-8 flag (bit 11)."""
    assert len(old) == len(new)
    data = bytearray(data.replace(old, new))
    for signature, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        start = 0
        while (start := data.find(signature, start)) >= 0:
            data[start + flag_at] |= 0x08
            start += 4
    return bytes(data)


@pytest.mark.parametrize(
    "new_name",
    [b"day05_add_m\xff\xfe.py", b"\x00ay05_add_mul.py", b"day05_add_mul.p\x00"],
    ids=["invalid utf-8", "starts with NUL", "ends with NUL"],
)
def test_a_zip_with_a_broken_entry_name_is_refused(tmp_path, new_name):
    data = _zip_bytes([("day05_add_mul.py", REFERENCE)])
    path = tmp_path / "broken.zip"
    path.write_bytes(_set_name(data, b"day05_add_mul.py", new_name))
    with pytest.raises(Rejected):
        load(path)


def test_no_mutated_zip_crashes_the_loader(tmp_path):
    # A small fuzz: random bytes flipped, cut or repeated in a real submission zip. Each
    # result is a graded dict or a Rejected with a message, never any other exception.
    base = _zip_bytes(
        [("day05_add_mul.py", REFERENCE), ("exercises/day16_tokens.py", TOKENS[:200])]
    )
    rng = random.Random(11)
    path = tmp_path / "fuzz.zip"
    for _ in range(3000):
        data = bytearray(base)
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(data))
            choice = rng.random()
            if choice < 0.6:
                data[at] = rng.randrange(256)
            elif choice < 0.8:
                del data[at : at + rng.randint(1, 40)]
            else:
                data[at:at] = data[at : at + rng.randint(1, 40)]
        path.write_bytes(bytes(data))
        try:
            load(path)
        except Rejected as exc:
            assert str(exc)
