"""The grader from the outside: CLI, exit codes, Gradescope JSON, submissions, zips,
batch grading and the Gradescope package."""

import csv
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from grader import protocol
from grader.checks import EXERCISES
from grader.submission import Rejected, load

ROOT = Path(__file__).resolve().parents[2]
FIVE = ["--exercise", "day05_add_mul.py"]


def grader(*args, cwd=ROOT):
    return subprocess.run(
        [sys.executable, "-m", "grader", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_solutions_get_full_marks_and_gradescope_json(tmp_path):
    out = tmp_path / "out" / "results.json"
    run = grader("solutions", "--json", out)
    assert run.returncode == 0, run.stderr
    data = json.loads(out.read_text())
    assert data["score"] == data["max_score"] > 0
    assert {"score", "max_score", "execution_time", "tests", "extra_data"} <= set(data)
    for test in data["tests"]:
        assert set(test) >= {"name", "score", "max_score", "status", "output", "visibility"}
        # One point per hidden case; the public cases are feedback worth none.
        points = 0 if "(public example, not graded)" in test["name"] else 1
        assert test["status"] == "passed" and test["score"] == test["max_score"] == points
    graded = [t for t in data["tests"] if t["max_score"]]
    assert graded and all("(hidden, random inputs)" in t["name"] for t in graded)
    assert data["max_score"] == len(graded) < len(data["tests"])
    assert len(data["extra_data"]["submission_sha256"]) == 64
    assert data["extra_data"]["isolation"].startswith(("bwrap", "uid"))
    assert sorted(data["extra_data"]["exercises"]) == sorted(EXERCISES)
    assert "Score: " in run.stdout


def test_untouched_exercises_score_zero_with_exit_code_zero(tmp_path):
    out = tmp_path / "r.json"
    run = grader("--json", out)  # the default submission is exercises/
    assert run.returncode == 0, run.stderr
    data = json.loads(out.read_text())
    assert data["score"] == 0 and data["max_score"] > 0
    assert all("not written yet" in t["output"] for t in data["tests"])
    # The stubs' "Read docs/lessons/day05_add_mul.md", said as the site names the lesson.
    assert "FAIL" in run.stdout and "(lessons/day05_add_mul/#exercise-day05_add_mul)" in run.stdout
    assert "docs/lessons/" not in run.stdout


@pytest.mark.parametrize(
    "args, phrase",
    [
        (["does-not-exist"], "does not exist"),
        (["solutions", "--exercise", "day99_nope.py"], "no exercise"),
        (["solutions", "--csv", "x.csv"], "--batch"),
    ],
)
def test_usage_errors_exit_2(args, phrase):
    run = grader(*args)
    assert run.returncode == 2
    assert phrase in run.stderr


def test_seed_reproduces_the_hidden_cases(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    grader("solutions", *FIVE, "--seed", "7", "--json", a)
    grader("solutions", *FIVE, "--seed", "7", "--json", b)
    names = lambda p: [t["output"] for t in json.loads(p.read_text())["tests"]]  # noqa: E731
    assert names(a) == names(b)


# -- what a submission may contain ---------------------------------------------------------


def folder_with(tmp_path, **extra):
    folder = tmp_path / "sub"
    folder.mkdir()
    shutil.copy(ROOT / "solutions" / "day05_add_mul.py", folder)
    for name, text in extra.items():
        (folder / name.replace("__", ".")).write_text(text)
    return folder


@pytest.mark.parametrize(
    "name",
    ["conftest__py", "sitecustomize__py", "evil__pth", "notes__txt", "day31_bonus__py"],
)
def test_non_exercise_files_are_refused_with_a_message(tmp_path, name):
    folder = folder_with(tmp_path, **{name: "x = 1\n"})
    with pytest.raises(Rejected, match="only exercise files"):
        load(folder)
    out = tmp_path / "r.json"
    run = grader(folder, *FIVE, "--json", out)
    assert run.returncode == 0
    data = json.loads(out.read_text())
    assert data["score"] == 0 and "not graded" in data["output"]


def test_symlinks_and_folders_are_refused(tmp_path):
    folder = folder_with(tmp_path)
    (folder / "day06_backward.py").symlink_to(ROOT / "solutions" / "day06_backward.py")
    with pytest.raises(Rejected, match="symbolic link"):
        load(folder)
    (folder / "day06_backward.py").unlink()
    (folder / "more").mkdir()
    (folder / "more" / "x.py").write_text("")
    with pytest.raises(Rejected, match="folder"):
        load(folder)


def test_one_wrapping_folder_and_pycache_are_accepted(tmp_path):
    outer = tmp_path / "download"
    inner = outer / "exercises"
    inner.mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / "day05_add_mul.py", inner)
    (inner / "__pycache__").mkdir()
    assert set(load(outer)) == {"day05_add_mul.py"}


# -- zips ------------------------------------------------------------------------------------


def make_zip(path, entries):
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in entries:
            if isinstance(name, zipfile.ZipInfo):
                archive.writestr(name, data)
            else:
                archive.writestr(name, data)
    return path


def test_a_zip_like_the_sites_download_is_graded(tmp_path):
    source = (ROOT / "solutions" / "day05_add_mul.py").read_text()
    archive = make_zip(tmp_path / "work.zip", [("exercises/day05_add_mul.py", source)])
    out = tmp_path / "r.json"
    run = grader(archive, *FIVE, "--json", out)
    assert run.returncode == 0
    data = json.loads(out.read_text())
    assert data["score"] == data["max_score"] > 0


def test_hostile_and_broken_zips_are_refused(tmp_path):
    slip = make_zip(tmp_path / "slip.zip", [("../day05_add_mul.py", "x")])
    with pytest.raises(Rejected, match="outside"):
        load(slip)
    absolute = make_zip(tmp_path / "abs.zip", [("/etc/day05_add_mul.py", "x")])
    with pytest.raises(Rejected, match="outside"):
        load(absolute)
    link = zipfile.ZipInfo("day05_add_mul.py")
    link.external_attr = (0o120777) << 16
    with pytest.raises(Rejected, match="symbolic link"):
        load(make_zip(tmp_path / "link.zip", [(link, "/work/main/solutions/day05_add_mul.py")]))
    big = make_zip(tmp_path / "big.zip", [("day05_add_mul.py", "#" * (300 * 1024))])
    with pytest.raises(Rejected, match="bytes"):
        load(big)
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04 this is not really a zip")
    with pytest.raises(Rejected, match="zip"):
        load(broken)
    out = tmp_path / "r.json"
    run = grader(broken, *FIVE, "--json", out)
    assert run.returncode == 0 and json.loads(out.read_text())["score"] == 0


def corrupted_zip(path, method):
    """A real zip of the reference whose compressed stream is damaged after its header."""
    source = (ROOT / "solutions" / "day05_add_mul.py").read_bytes()
    with zipfile.ZipFile(path, "w", method) as archive:
        archive.writestr("day05_add_mul.py", source)
    data = bytearray(path.read_bytes())
    start = 30 + len("day05_add_mul.py")  # the local header, then the compressed data
    for i in range(start + 20, start + 60):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    "method",
    [zipfile.ZIP_DEFLATED, zipfile.ZIP_LZMA, zipfile.ZIP_BZIP2],
    ids=["deflate", "lzma", "bzip2"],
)
def test_a_zip_with_a_corrupted_stream_is_refused_not_a_crash(tmp_path, method):
    broken = corrupted_zip(tmp_path / "broken.zip", method)
    with pytest.raises(Rejected, match="could not be read"):
        load(broken)
    out = tmp_path / "r.json"
    run = grader(broken, *FIVE, "--json", out)
    assert run.returncode == 0, run.stderr
    data = json.loads(out.read_text())
    assert data["score"] == 0 and "not graded" in data["output"]
    assert "broken.zip could not be read" in data["output"]


# -- the result channel ------------------------------------------------------------------


@pytest.mark.parametrize(
    "line, why",
    [
        (b"", "no result"),
        (b'{"nonce": "n", "outcome": {"values": {"a": true}, "invalid": {}}}\n', "not a float"),
        (b'{"nonce": "n", "outcome": {"values": {"a": 1}, "invalid": {}}}\n', "not a float"),
        (b'{"nonce": "n", "outcome": {"values": {"a": "1.0"}, "invalid": {}}}\n', "not a float"),
        (b'{"nonce": "m", "outcome": {"values": {}, "invalid": {}}}\n', "wrong nonce"),
        (b'{"nonce": "n", "outcome": {"values": {}, "invalid": {}}}\n{"nonce": "n"}\n', "one line"),
        (b'{"nonce": "n", "score": 1, "outcome": {"values": {}, "invalid": {}}}\n', "unexpected"),
        (
            b'{"nonce": "n", "outcome": {"values": {"a": 1.0, "a": 2.0}, "invalid": {}}}\n',
            "duplicate",
        ),
    ],
)
def test_the_protocol_rejects_anything_but_plain_floats_with_the_nonce(line, why):
    with pytest.raises(protocol.ProtocolError, match=why):
        protocol.decode_result(line, "n")


@pytest.mark.parametrize(
    "line",
    [
        b'{"nonce": "n", "outcome": ' + b"[" * 50000 + b"\n",
        b'{"nonce": "n", "outcome": ' + b'{"a": ' * 20000 + b"\n",
        b'{"nonce": "n", "outcome": {"values": {"a": '
        + b"[" * 30
        + b"1.0"
        + b"]" * 30
        + b'}, "invalid": {}}}\n',
        b'{"nonce": "n", "outcome": {"values": {"a": ' + b"9" * 5000 + b'}, "invalid": {}}}\n',
    ],
    ids=["50,000 [", "20,000 objects", "30 lists", "5,000 digits"],
)
def test_a_report_nested_too_deep_or_too_long_is_a_protocol_error(line):
    # json.loads raises RecursionError (not ValueError) on deep nesting: it must not escape.
    with pytest.raises(protocol.ProtocolError):
        protocol.decode_result(line, "n")


def test_the_protocol_reads_a_hostile_line_in_linear_time():
    # Escapes and quotes that make a naive string-skipping regex quadratic (tens of seconds).
    for body in (b'"\\' * 32000, b'\\"' * 32000, b'"' * 65000, b"[" * 65000):
        started = time.monotonic()
        with pytest.raises(protocol.ProtocolError):
            protocol.decode_result(body + b"\n", "n")
        assert time.monotonic() - started < 1.0, body[:4]


def test_the_protocol_passes_nan_on_to_the_judge():
    outcome = protocol.decode_result(
        b'{"nonce": "n", "outcome": {"values": {"a": NaN}, "invalid": {}}}\n', "n"
    )
    assert outcome["values"]["a"] != outcome["values"]["a"]


def test_a_case_that_breaks_the_trusted_side_fails_alone(tmp_path, monkeypatch):
    from grader.checks import check_module
    from grader.grade import grade
    from grader.sandbox import detect

    check = check_module("day05_add_mul.py")
    names = [c["name"] for c in check.public_cases()]
    real_expect, sandbox = check.expect, detect()

    def expect(case):
        if case["name"] == names[0]:
            raise KeyError("a bug in a judge")
        return real_expect(case)

    class Flaky:
        limits, description = sandbox.limits, sandbox.description

        def run(self, exercise, source, case, *args):
            if case["name"] == names[1]:
                raise RuntimeError("a bug in the sandbox")
            return sandbox.run(exercise, source, case, *args)

    monkeypatch.setattr(check, "expect", expect)
    files = load(folder_with(tmp_path))
    results = grade(files, Flaky(), ["day05_add_mul.py"], seed=1)
    by_name = {t["name"]: t for t in results["tests"]}
    for name, bug in [(names[0], "KeyError"), (names[1], "RuntimeError")]:
        assert not by_name[name]["passed"]
        assert "the grader itself failed on this case" in by_name[name]["message"]
        assert bug in by_name[name]["message"]
    others = [t for t in results["tests"] if t["name"] not in names[:2]]
    assert others and all(t["passed"] for t in others)


def test_a_submission_that_breaks_the_grader_does_not_stop_the_batch(tmp_path, monkeypatch):
    import grader.grade as cli
    from grader.batch import grade_folder
    from grader.sandbox import detect

    class_dir = tmp_path / "class"
    for learner in ("ada", "bob", "cy"):
        (class_dir / learner).mkdir(parents=True)
        shutil.copy(ROOT / "solutions" / "day05_add_mul.py", class_dir / learner)
    real = cli.grade_one

    def grade_one(path, *args):
        if path.name == "bob":
            raise OSError("a disk error while reading bob")
        return real(path, *args)

    monkeypatch.setattr(cli, "grade_one", grade_one)
    gradebook = tmp_path / "grades.csv"
    status = grade_folder(class_dir, detect(), ["day05_add_mul.py"], gradebook, seed=1, quiet=True)
    assert status == 1  # the grader failed on one submission: say so, after grading the rest
    rows = {r["learner"]: r for r in csv.DictReader(gradebook.open())}
    assert set(rows) == {"ada", "bob", "cy"}
    assert rows["ada"]["score"] == rows["cy"]["score"] == rows["ada"]["max_score"]
    assert rows["bob"]["status"] == "error" and rows["bob"]["score"] == "0"
    assert "a disk error while reading bob" in rows["bob"]["message"]


# -- classes at scale ------------------------------------------------------------------------


def test_batch_grading_writes_a_gradebook(tmp_path):
    class_dir = tmp_path / "class"
    (class_dir / "ada").mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / "day05_add_mul.py", class_dir / "ada")
    (class_dir / "bob").mkdir()
    shutil.copy(ROOT / "exercises" / "day05_add_mul.py", class_dir / "bob")
    (class_dir / "eve").mkdir()
    (class_dir / "eve" / "conftest.py").write_text("")
    make_zip(
        class_dir / "cy.zip",
        [("day05_add_mul.py", (ROOT / "solutions" / "day05_add_mul.py").read_text())],
    )
    gradebook = tmp_path / "grades.csv"
    run = grader("--batch", class_dir, "--csv", gradebook, *FIVE)
    assert run.returncode == 0, run.stderr
    rows = {r["learner"]: r for r in csv.DictReader(gradebook.open())}
    assert set(rows) == {"ada", "bob", "cy", "eve"}
    full = rows["ada"]["max_score"]
    assert rows["ada"]["score"] == rows["cy"]["score"] == rows["ada"]["day05_add_mul.py"] == full
    assert rows["bob"]["score"] == "0" and rows["bob"]["status"] == "graded"
    assert rows["eve"]["status"] == "refused" and "conftest.py" in rows["eve"]["message"]


def test_the_gradescope_package_grades_a_sample_submission(tmp_path):
    zip_path = tmp_path / "dist" / "autograder.zip"
    build = subprocess.run(
        [sys.executable, "-m", "grader.gradescope", "--out", str(zip_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert build.returncode == 0, build.stderr
    with zipfile.ZipFile(zip_path) as archive:
        names = archive.namelist()
        assert {
            "setup.sh",
            "run_autograder",
            "grader/__main__.py",
            "grader/verdict.py",
            "grader/checks/day05_add_mul.py",
            "grader/runners/day05_add_mul.py",
            "engine/value.py",
        } <= set(names)
        assert not any(n.startswith(("solutions/", "tests/", "exercises/")) for n in names)
        archive.extractall(tmp_path / "autograder" / "source")
    home = tmp_path / "autograder"
    script = home / "run_autograder"
    shutil.copy(home / "source" / "run_autograder", script)
    script.chmod(0o755)
    submission = home / "submission"
    shutil.copytree(ROOT / "solutions", submission, ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, AUTOGRADER_ROOT=str(home), AUTOGRADER_PYTHON=sys.executable)
    run = subprocess.run([str(script)], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    data = json.loads((home / "results" / "results.json").read_text())
    assert data["score"] == data["max_score"] > 0
