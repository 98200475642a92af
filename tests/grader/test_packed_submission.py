"""A submission folder that holds the site's zip (or its "Export my work" file) instead of
the exercise files: read from it in memory, with every refusal a zip submission has.

The loader never writes: each test also checks that the folder and its parent are left
exactly as they were (nothing extracted, nothing overwritten).
"""

import hashlib
import io
import json
import os
import stat
import subprocess
import sys
import zipfile

import pytest

from grader.checks import EXERCISES
from grader.submission import MAX_FILE, Rejected, load

from .helpers import ROOT

pytestmark = pytest.mark.filterwarnings("ignore:Duplicate name")

SOLUTION = (ROOT / "solutions" / "day05_add_mul.py").read_bytes()
STUB = (ROOT / "exercises" / "day06_backward.py").read_bytes()


def zip_bytes(entries, compression=zipfile.ZIP_DEFLATED):
    """A zip of [(name or ZipInfo, bytes)]."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return buffer.getvalue()


def site_zip():
    """As web/exercises.js's downloadAll makes it: every file under exercises/."""
    return zip_bytes(
        [("exercises/day05_add_mul.py", SOLUTION), ("exercises/day06_backward.py", STUB)]
    )


def export_file(items, **over):
    """A file as web/transfer.js's exportWork writes it."""
    data = {
        "format": "course-work",
        "course": "derivative-to-gpt",
        "storageVersion": 1,
        "siteVersion": "1",
        "exported": "2026-11-26T10:00:00.000Z",
        "items": items,
    }
    data.update(over)
    return json.dumps(data).encode()


def snapshot(folder):
    return {
        str(p.relative_to(folder)): (
            hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() and not p.is_symlink() else ""
        )
        for p in sorted(folder.rglob("*"))
    }


@pytest.fixture
def submission(tmp_path):
    folder = tmp_path / "submission"
    folder.mkdir()

    def put(name, data):
        (folder / name).write_bytes(data)
        return folder

    return put


def read(folder):
    """read(folder), checking that it wrote nothing anywhere near it."""
    before = snapshot(folder.parent)
    try:
        return load(folder)
    finally:
        assert snapshot(folder.parent) == before, "loading the submission wrote to disk"


def test_the_sites_zip_left_unextracted_is_read(submission):
    files = read(submission("exercises.zip", site_zip()))
    assert files == {"day05_add_mul.py": SOLUTION, "day06_backward.py": STUB}


def test_a_flat_zip_and_macos_leftovers_are_read(submission, tmp_path):
    folder = submission("work.ZIP", zip_bytes([("day05_add_mul.py", SOLUTION)]))
    (folder / ".DS_Store").write_bytes(b"\0")
    assert read(folder) == {"day05_add_mul.py": SOLUTION}


def test_the_export_my_work_file_is_read(submission):
    items = {
        "exercise/day05_add_mul.py": {"code": SOLUTION.decode(), "base": "", "saved": 1},
        "exercise/day05_add_mul.py/done": "1",
        "page/lessons/day05_add_mul/cell/0": {"code": "x = 1", "saved": 1},
        "page/lessons/day05_add_mul/question/q1": {"state": "right", "answer": ["a"]},
    }
    files = read(submission("derivative-to-gpt-work-2026-11-26.json", export_file(items)))
    assert files == {"day05_add_mul.py": SOLUTION}


BAD_ZIPS = {
    "a ../ path": ([("../day05_add_mul.py", SOLUTION)], "points outside"),
    "a ../ path inside the folder": ([("exercises/../../day05_add_mul.py", SOLUTION)], "outside"),
    "an absolute path": ([("/tmp/day05_add_mul.py", SOLUTION)], "points outside"),
    "a backslash path": ([("..\\day05_add_mul.py", SOLUTION)], "points outside"),
    "a drive letter": ([("C:/day05_add_mul.py", SOLUTION)], "points outside"),
    "a nested zip": ([("inner.zip", site_zip())], "not an exercise file"),
    "a nested zip named like an exercise": (
        [("exercises/day05_add_mul.py", SOLUTION), ("exercises/day06_backward.py", site_zip())],
        None,  # read as text: a zip is no Python, graded as a file that does not run
    ),
    "a file that is not an exercise": ([("exercises/notes.txt", b"hi")], "not an exercise"),
    "a conftest.py": ([("conftest.py", b"")], "conftest.py"),
    "a sitecustomize.py": ([("sitecustomize.py", b"")], "sitecustomize.py"),
    "an exercise twice": (  # zipfile warns of the duplicate it is asked to write
        [("day05_add_mul.py", SOLUTION), ("day05_add_mul.py", SOLUTION)],
        "appears twice",
    ),
    "a folder deeper than one": ([("a/b/day05_add_mul.py", SOLUTION)], "not an exercise"),
    "too many entries": ([(f"d{i}/", b"") for i in range(300)], "entries"),
}


@pytest.mark.parametrize("name", list(BAD_ZIPS))
def test_a_malicious_zip_is_refused(submission, name):
    entries, refusal = BAD_ZIPS[name]
    folder = submission("exercises.zip", zip_bytes(entries))
    if refusal is None:
        assert read(folder)["day06_backward.py"].startswith(b"PK")
        return
    with pytest.raises(Rejected, match=refusal):
        read(folder)


def test_a_symlink_entry_is_refused(submission):
    info = zipfile.ZipInfo("exercises/day05_add_mul.py")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    folder = submission("exercises.zip", zip_bytes([(info, b"/etc/passwd")]))
    with pytest.raises(Rejected, match="symbolic link"):
        read(folder)


def test_a_zip_bomb_is_refused_without_unpacking_it(submission):
    bomb = zip_bytes([("exercises/day05_add_mul.py", b"#" * (64 * 2**20))])
    assert len(bomb) < 2**20  # 64 MiB of text in well under 1 MiB
    with pytest.raises(Rejected, match="unpacks to"):
        read(submission("exercises.zip", bomb))


def test_a_zip_whose_header_lies_about_the_size_is_read_no_further(submission):
    data = bytearray(zip_bytes([("day05_add_mul.py", b"#" * (MAX_FILE * 4))]))
    # Write a small uncompressed size into both headers: the reader must still stop.
    real = (MAX_FILE * 4).to_bytes(4, "little")
    assert data.count(real) == 2
    data = data.replace(real, (100).to_bytes(4, "little"))
    with pytest.raises(Rejected):
        read(submission("exercises.zip", bytes(data)))


def test_a_zip_larger_than_the_limit_is_not_opened(submission):
    big = zip_bytes([("day05_add_mul.py", os.urandom(5 * 2**20))], zipfile.ZIP_STORED)
    with pytest.raises(Rejected, match="larger than"):
        read(submission("exercises.zip", big))


def test_a_file_named_zip_that_is_not_one_is_refused(submission):
    with pytest.raises(Rejected, match="not a readable zip"):
        read(submission("exercises.zip", b"not a zip at all"))


def test_a_zip_beside_exercise_files_is_refused(submission):
    folder = submission("exercises.zip", site_zip())
    (folder / "day05_add_mul.py").write_bytes(SOLUTION)
    with pytest.raises(Rejected, match="one or the other"):
        read(folder)


def test_two_zips_are_refused(submission):
    folder = submission("a.zip", site_zip())
    (folder / "b.zip").write_bytes(site_zip())
    with pytest.raises(Rejected, match="one zip"):
        read(folder)


def test_a_zip_that_is_a_symlink_is_refused(submission, tmp_path):
    outside = tmp_path / "elsewhere.zip"
    outside.write_bytes(site_zip())
    folder = submission("placeholder", b"")
    (folder / "placeholder").unlink()
    (folder / "exercises.zip").symlink_to(outside)
    with pytest.raises(Rejected, match="not a regular file|symbolic link"):
        read(folder)


def test_a_folder_named_zip_is_refused(submission):
    folder = submission("placeholder", b"")
    (folder / "placeholder").unlink()
    (folder / "exercises.zip").mkdir()  # a folder: read as the folder it is
    (folder / "exercises.zip" / "day05_add_mul.py").symlink_to("/etc/passwd")
    with pytest.raises(Rejected, match="symbolic link"):
        read(folder)


BAD_EXPORTS = {
    "not JSON": (b"{", "not a file of the site"),
    "another format": (json.dumps({"format": "x"}).encode(), "not a file of the site"),
    "another course": (export_file({}, course="other"), "another course"),
    "no items": (export_file(None), "no list of items"),
    "no exercise": (export_file({"exercise/day05_add_mul.py/done": "1"}), "no exercise"),
    "code that is not text": (
        export_file({"exercise/day05_add_mul.py": {"code": 5}}),
        "holds no code",
    ),
    "a lone surrogate": (
        export_file({"exercise/day05_add_mul.py": {"code": "\ud800"}}),
        "not valid text",
    ),
    "a path as a name": (
        export_file({"exercise/../../etc/passwd": {"code": "x"}}),
        "no exercise",
    ),
    "code over the limit": (
        export_file({"exercise/day05_add_mul.py": {"code": "#" * (MAX_FILE + 1)}}),
        "at most",
    ),
    "nested past the recursion limit": (
        b'{"format": "course-work", "items": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        "not a file of the site",
    ),
    "over 5 MiB": (b" " * (5 * 2**20 + 1), "larger than"),
}


@pytest.mark.parametrize("name", list(BAD_EXPORTS))
def test_a_bad_export_file_is_refused(submission, name):
    data, refusal = BAD_EXPORTS[name]
    with pytest.raises(Rejected, match=refusal):
        read(submission("work.json", data))


def test_the_grader_grades_a_submission_that_is_the_sites_zip(tmp_path):
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "exercises.zip").write_bytes(site_zip())
    out = tmp_path / "results.json"
    run = subprocess.run(
        [sys.executable, "-m", "grader", str(folder), "--exercise", "day05_add_mul.py"]
        + ["--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    data = json.loads(out.read_text())
    assert data["score"] == data["max_score"] > 0
    assert sorted(os.listdir(folder)) == ["exercises.zip"]
    assert "day05_add_mul.py" in EXERCISES
