"""Red team of the submitted zip (and "Export my work" file), the days bundle and the loader.

A learner after marks, and an attacker on the host, each try to get a file graded that
is not the one they show, to reach outside the submission, or to stop the grader. Every
attack is read by grader.submission.load alone (the trusted side, no learner code run),
checking that nothing was written; the last tests grade through the sandbox at the levels
the other red-team tests use.
"""

import hashlib
import io
import json
import random
import stat
import struct
import zipfile

import pytest

from grader.checks import EXERCISES, check_module
from grader.grade import grade_one
from grader.report import gradescope_rejected
from grader.submission import Rejected, load

from .helpers import HAS_BWRAP, NO_UID, ROOT, make_sandbox

pytestmark = pytest.mark.filterwarnings("ignore:Duplicate name")

DAY5 = "day05_add_mul.py"
SOLUTION = (ROOT / "solutions" / DAY5).read_bytes()
STUB = (ROOT / "exercises" / DAY5).read_bytes()


def zipped(entries, compression=zipfile.ZIP_DEFLATED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return buffer.getvalue()


def export(items):
    return json.dumps(
        {"format": "course-work", "course": "derivative-to-gpt", "items": items}
    ).encode()


def _digest(folder):
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        if p.is_file() and not p.is_symlink()
        else ""
        for p in sorted(folder.rglob("*"))
    }


def loaded(tmp_path, files):
    """load() of a submission folder holding `files` ({name: bytes}); it writes nothing."""
    folder = tmp_path / "submission"
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    before = _digest(tmp_path)
    try:
        return load(folder)
    finally:
        assert _digest(tmp_path) == before, "loading the submission wrote to disk"


def _symlink_entry():
    info = zipfile.ZipInfo(DAY5)
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info


def _encrypted():
    data = bytearray(zipped([(DAY5, SOLUTION)]))
    data[6] |= 1  # the "encrypted" flag, in the local header and the central directory
    central = data.rfind(b"PK\x01\x02")
    data[central + 8] |= 1
    return bytes(data)


def _bogus_offset():
    data = bytearray(zipped([(DAY5, SOLUTION)]))
    central = data.rfind(b"PK\x01\x02")
    data[central + 42 : central + 46] = struct.pack("<I", 0xFFFFFFF0)
    return bytes(data)


def _many_entries():
    # 5 000 empty entries in a central directory far under the size limit
    return zipped([(f"{i}", b"") for i in range(5_000)], zipfile.ZIP_STORED)


# Each: what makes the submission folder's files, and what the refusal says.
REFUSED = {
    # (a) two versions of one file, whatever the spelling: never "the last one wins"
    "one name twice": (lambda: {"w.zip": zipped([(DAY5, STUB), (DAY5, SOLUTION)])}, "twice"),
    "./name beside name": (
        lambda: {"w.zip": zipped([(DAY5, STUB), ("./" + DAY5, SOLUTION)])},
        "twice",
    ),
    "exercises//name beside exercises/name": (
        lambda: {"w.zip": zipped([("exercises/" + DAY5, STUB), ("exercises//" + DAY5, SOLUTION)])},
        "twice",
    ),
    "exercises/./name beside exercises/name": (
        lambda: {"w.zip": zipped([("exercises/" + DAY5, STUB), ("exercises/./" + DAY5, SOLUTION)])},
        "twice",
    ),
    "upper case": (lambda: {"w.zip": zipped([(DAY5.upper(), SOLUTION)])}, "not an exercise"),
    "full-width letter": (
        lambda: {"w.zip": zipped([("ｄ" + DAY5[1:], SOLUTION)])},
        "not an exercise",
    ),
    "zero-width space": (
        lambda: {"w.zip": zipped([(DAY5[:-3] + "\u200b.py", SOLUTION)])},
        "not an",
    ),
    "trailing space": (lambda: {"w.zip": zipped([(DAY5 + " ", SOLUTION)])}, "not an exercise"),
    "backslash folder": (lambda: {"w.zip": zipped([("exercises\\" + DAY5, SOLUTION)])}, "outside"),
    "a zip in the zip": (
        lambda: {"w.zip": zipped([("inner.zip", zipped([(DAY5, SOLUTION)]))])},
        "not",
    ),
    "an export in the zip": (lambda: {"w.zip": zipped([("work.json", export({}))])}, "not an"),
    "a results.json in the zip": (
        lambda: {"w.zip": zipped([(DAY5, SOLUTION), ("results.json", b'{"score": 99}')])},
        "not an exercise",
    ),
    "a results.json instead of work": (
        lambda: {"results.json": b'{"score": 99}'},
        "Export my work",
    ),
    "exercise files and a zip": (
        lambda: {DAY5: STUB, "w.zip": zipped([(DAY5, SOLUTION)])},
        "one or",
    ),
    "exercise files and an export": (
        lambda: {DAY5: STUB, "w.json": export({})},
        "one or the other",
    ),
    "a zip and an export": (lambda: {"w.zip": zipped([]), "w.json": export({})}, "2 files"),
    "a zip and a note": (lambda: {"w.zip": zipped([(DAY5, SOLUTION)]), "a.txt": b""}, "2 files"),
    "a zip in a folder in a folder": (lambda: {"a/b/w.zip": zipped([(DAY5, SOLUTION)])}, "folder"),
    # (a) a crafted "Export my work" file
    "export: two versions by a path": (
        lambda: {"w.json": export({"exercise/" + DAY5: {"code": "x"}, "exercise/./" + DAY5: {}})},
        None,  # the second is no exercise key: only the first is read (checked below)
    ),
    "export: code that is not text": (
        lambda: {"w.json": export({"exercise/" + DAY5: {"code": ["print(1)"]}})},
        "holds no code",
    ),
    "export: lone surrogate": (
        lambda: {
            "w.json": b'{"format":"course-work","course":"derivative-to-gpt","items":'
            b'{"exercise/day05_add_mul.py":{"code":"\\ud800"}}}'
        },
        "not valid text",
    ),
    "export: too big a file": (
        lambda: {"w.json": export({"exercise/" + DAY5: {"code": "#" * 300_000}})},
        "at most",
    ),
    "export: items a list": (
        lambda: {
            "w.json": json.dumps(
                {"format": "course-work", "course": "derivative-to-gpt", "items": [DAY5]}
            ).encode()
        },
        "no list of items",
    ),
    "export: nesting 100 000 deep": (
        lambda: {
            "w.json": b'{"format":"course-work","items":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
        },
        "Export my work",
    ),
    "export: a 10 000-digit number": (
        lambda: {"w.json": b'{"format":"course-work","n":' + b"7" * 10_000 + b"}"},
        "Export my work",
    ),
    "export: a byte-order mark and UTF-16": (
        lambda: {"w.json": "{}".encode("utf-16")},
        "Export my",
    ),
    "export: another course": (
        lambda: {
            "w.json": json.dumps({"format": "course-work", "course": "x", "items": {}}).encode()
        },
        "another course",
    ),
    # (b) the host: reaching out, bombs, malformed archives
    "../ traversal": (lambda: {"w.zip": zipped([("../" + DAY5, SOLUTION)])}, "outside"),
    "absolute path": (lambda: {"w.zip": zipped([("/tmp/" + DAY5, SOLUTION)])}, "outside"),
    "drive letter": (lambda: {"w.zip": zipped([("C:/" + DAY5, SOLUTION)])}, "outside"),
    "symlink entry": (lambda: {"w.zip": zipped([(_symlink_entry(), "/etc/shadow")])}, "symbolic"),
    "5 000 entries": (lambda: {"w.zip": _many_entries()}, "entries"),
    "a zip in a zip in a zip": (
        lambda: {"w.zip": zipped([("a.zip", zipped([("b.zip", zipped([(DAY5, SOLUTION)]))]))])},
        "not an exercise",
    ),
    "a bzip2 bomb": (
        lambda: {"w.zip": zipped([(DAY5, b"#" * (8 * 2**20))], zipfile.ZIP_BZIP2)},
        "unpacks to",
    ),
    "an LZMA bomb": (
        lambda: {"w.zip": zipped([(DAY5, b"#" * (8 * 2**20))], zipfile.ZIP_LZMA)},
        "unpacks to",
    ),
    "an encrypted entry": (lambda: {"w.zip": _encrypted()}, "could not be read"),
    "an entry's offset past the end": (lambda: {"w.zip": _bogus_offset()}, "zip"),
    "a truncated zip": (lambda: {"w.zip": zipped([(DAY5, SOLUTION)])[:-30]}, "not a readable zip"),
    "an empty file": (lambda: {"w.zip": b""}, "not a readable zip"),
    "a folder named like a zip": (lambda: {"w.zip/x": b"", "y": b""}, "2 files"),
}


@pytest.mark.parametrize("attack", list(REFUSED))
def test_an_attack_through_the_zip_is_refused_in_one_clear_line(tmp_path, attack):
    make, refusal = REFUSED[attack]
    files = make()
    if refusal is None:
        assert loaded(tmp_path, files) == {DAY5: b"x"}
        return
    with pytest.raises(Rejected, match=refusal) as caught:
        loaded(tmp_path, files)
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message


def test_a_fifo_named_like_a_zip_does_not_hang_the_grader(tmp_path):
    import os

    folder = tmp_path / "submission"
    folder.mkdir()
    os.mkfifo(folder / "w.zip")
    with pytest.raises(Rejected, match="not a regular file"):
        load(folder)


def test_a_rejected_assignment_is_out_of_its_own_days_alone():
    days = ["day05_add_mul.py", "day06_backward.py"]
    data = gradescope_rejected("x", days, "bwrap")
    hidden = sum(len(check_module(e).hidden_cases(random.Random(0))) for e in days)
    assert data["max_score"] == hidden and data["score"] == 0
    assert hidden < sum(len(check_module(e).hidden_cases(random.Random(0))) for e in EXERCISES)


# Code in the zip that tries to grade itself: print a results file, write one beside the
# submission, read the zip it came in. It computes nothing: it must score 0.
SPOOF = b"""
import json, os, sys, glob
print(json.dumps({"score": 99, "max_score": 99, "tests": []}))
for target in ("/autograder/results/results.json", "../results/results.json", "results.json"):
    try:
        open(target, "w").write('{"score": 99}')
    except OSError:
        pass
for z in glob.glob("/autograder/submission/*") + glob.glob("../submission/*"):
    try:
        print(open(z, "rb").read(64))
    except OSError:
        pass
"""

LEVELS = [
    pytest.param(
        "bwrap", marks=pytest.mark.skipif(not HAS_BWRAP, reason="bubblewrap cannot run here")
    ),
    pytest.param("uid", marks=pytest.mark.skipif(bool(NO_UID), reason=str(NO_UID))),
]


@pytest.mark.parametrize("level", LEVELS)
def test_code_in_a_zip_that_spoofs_its_results_scores_nothing(tmp_path, level):
    folder = tmp_path / "submission"
    folder.mkdir()
    day4 = "day04_manual_backward.py"  # the fewest cases of a day without the engine
    (folder / "w.zip").write_bytes(zipped([("exercises/" + day4, SPOOF)]))
    before = _digest(tmp_path)
    gradescope, _, results = grade_one(folder, make_sandbox(level), [day4], 7)
    assert gradescope["score"] == 0 and gradescope["max_score"] > 0
    assert all(not t["passed"] for t in results["tests"])
    assert _digest(tmp_path) == before


def test_the_export_file_given_alone_is_read_as_one(tmp_path):
    # `python -m grader work.json` (or --batch's learner.json): the site's own file, not a
    # broken zip.
    path = tmp_path / "work.json"
    path.write_bytes(export({"exercise/" + DAY5: {"code": "x = 1\n"}}))
    assert load(path) == {DAY5: b"x = 1\n"}
    path.write_bytes(b"{")
    with pytest.raises(Rejected, match="Export my work"):
        load(path)


def test_a_zip_with_a_stray_ds_store_at_the_top_still_reads_its_folder(tmp_path):
    # Finder's zip of exercises/ plus one more click: the folder is still the submission.
    files = {"w.zip": zipped([("exercises/" + DAY5, SOLUTION), (".DS_Store", b"\0")])}
    assert loaded(tmp_path, files) == {DAY5: SOLUTION}
