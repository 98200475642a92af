"""The similarity report: engine code pasted into an exercise and classmates' copies are
found; honest work, untouched stubs and unreadable files are not."""

import io
import time
from pathlib import Path

import pytest

copydetect = pytest.importorskip("copydetect")

from grader import similarity  # noqa: E402

from .similarity.disguise import disguise, paste_engine, synthetic_class  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HONEST = Path(__file__).resolve().parent / "similarity" / "honest"
# The two exercises whose whole answer is a few short lines (day 5: four `grad +=` lines,
# day 9: one update line): every correct solution looks the same, so they are not judged.
TOO_SHORT = {"day05_add_mul.py", "day09_gradient_descent.py"}


def folder(path):
    return {p.name: p.read_bytes() for p in sorted(path.glob("*.py"))}


REFERENCES = folder(ROOT / "solutions")
STUBS = folder(ROOT / "exercises")
HONEST_SOLUTIONS = folder(HONEST)


def stub_text(name):
    return (ROOT / "exercises" / name).read_text()


# -- the engine --------------------------------------------------------------------------


def test_the_engines_gpt_pasted_into_day25_is_found():
    pasted, modules = paste_engine(stub_text("day25_microgpt.py"), {"gpt"})
    assert modules == {"gpt.py"} and "trace" in pasted  # the engine's own gpt, as it is
    found = similarity.engine_matches({"day25_microgpt.py": pasted.encode()})
    assert [(m["exercise"], m["match"]) for m in found] == [("day25_microgpt.py", "engine/gpt.py")]
    assert found[0]["share"] > 0.9


def test_the_engines_attention_pasted_into_day22_is_found():
    pasted, _ = paste_engine(stub_text("day22_attention.py"), {"attention_head"})
    found = similarity.engine_matches({"day22_attention.py": pasted.encode()})
    assert ("day22_attention.py", "engine/gpt.py") in [(m["exercise"], m["match"]) for m in found]


def test_a_renamed_paste_of_the_engine_is_still_found():
    pasted, _ = paste_engine(stub_text("day19_softmax.py"), {"softmax", "cross_entropy"})
    found = similarity.engine_matches({"day19_softmax.py": disguise(pasted).encode()})
    assert [m["match"] for m in found] == ["engine/gpt.py"]


def test_the_references_and_honest_solutions_are_not_taken_for_the_engine():
    assert similarity.engine_matches(REFERENCES) == []
    assert similarity.engine_matches(HONEST_SOLUTIONS) == []


def test_untouched_stubs_are_not_taken_for_the_engine():
    assert similarity.engine_matches(STUBS) == []


def test_every_match_has_the_shape_the_reports_use():
    pasted, _ = paste_engine(stub_text("day25_microgpt.py"))
    (match,) = similarity.engine_matches({"day25_microgpt.py": pasted.encode()})
    assert set(match) == {"exercise", "match", "share"}
    assert isinstance(match["share"], float) and 0 <= match["share"] <= 1


# -- the class ---------------------------------------------------------------------------


def test_a_renamed_copy_of_a_classmates_file_is_found_both_ways():
    original = (HONEST / "day22_attention.py").read_text()
    copy = disguise(original)
    assert copy != original and "_val" in copy and "checked this step" in copy
    found = similarity.class_matches(
        {
            "ada": {"day22_attention.py": original.encode()},
            "bob": {"day22_attention.py": copy.encode()},
        }
    )
    pairs = {(m["learner"], m["match"]) for m in found}
    assert pairs == {("ada", "bob"), ("bob", "ada")}
    assert all(m["exercise"] == "day22_attention.py" for m in found)


def test_identical_references_are_found_for_every_exercise_that_is_judged():
    found = similarity.class_matches({"ada": REFERENCES, "bob": REFERENCES})
    assert {m["exercise"] for m in found} == set(REFERENCES) - TOO_SHORT
    assert len(found) == 2 * (len(REFERENCES) - len(TOO_SHORT))
    assert {m["share"] for m in found} == {1.0}


def test_honest_independent_solutions_are_not_taken_for_copies():
    assert len(HONEST_SOLUTIONS) >= 4
    references = {name: REFERENCES[name] for name in HONEST_SOLUTIONS}
    assert similarity.class_matches({"ada": references, "bob": HONEST_SOLUTIONS}) == []


def test_untouched_stubs_of_two_learners_are_not_taken_for_copies():
    assert similarity.class_matches({"ada": STUBS, "bob": STUBS}) == []


def test_a_stub_with_a_line_or_two_filled_in_is_not_judged():
    text = stub_text("day19_softmax.py").replace(
        'raise NotImplementedError("Day 19: write cross_entropy. Read docs/lessons/day19_softmax.md")',
        "return -softmax(logits)[target].log()",
    )
    assert "return -softmax" in text
    files = {"day19_softmax.py": text.encode()}
    assert similarity.class_matches({"ada": files, "bob": files}) == []


def test_without_the_stub_nothing_is_judged(tmp_path):
    # The stub's given code would otherwise count as the learner's own.
    assert similarity.class_matches({"ada": REFERENCES, "bob": REFERENCES}, stub_dir=tmp_path) == []
    pasted, _ = paste_engine(stub_text("day25_microgpt.py"))
    files = {"day25_microgpt.py": pasted.encode()}
    assert similarity.engine_matches(files, stub_dir=tmp_path) == []


# -- what a learner may hand in ------------------------------------------------------------

BAD = {
    "empty": b"",
    "binary": bytes(range(256)) * 4,
    "nul bytes": b"def f():\n    return 1\x00\n",
    "not UTF-8": "x = 'caf\u00e9'\n".encode("latin-1"),
    "syntax error": b"def gpt(model:\n    return [\n",
    "deep nesting": b"x = " + b"(" * 5000 + b"1" + b")" * 5000 + b"\n",
    "too big": b"x = 1\n" * (similarity.MAX_SOURCE // 6 + 1),
    "not bytes": "x = 1\n",
}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_file_that_cannot_be_read_gets_no_match_and_no_error(kind):
    files = {"day25_microgpt.py": BAD[kind], "day22_attention.py": BAD[kind]}
    assert similarity.engine_matches(files) == []
    assert similarity.class_matches({"ada": files, "bob": files}) == []


def test_names_are_carried_never_opened():
    pasted, _ = paste_engine(stub_text("day25_microgpt.py"))
    files = {"../../engine/gpt.py": pasted.encode(), "/etc/passwd": b"x = 1\n"}
    assert similarity.engine_matches(files) == []
    label = "../../../tmp/\udcff"
    copy = {"day25_microgpt.py": pasted.encode()}
    found = similarity.class_matches({label: copy, "bob": copy})
    assert {m["learner"] for m in found} == {label, "bob"}


def test_a_file_with_a_byte_order_mark_is_read():
    pasted, _ = paste_engine(stub_text("day25_microgpt.py"))
    found = similarity.engine_matches({"day25_microgpt.py": b"\xef\xbb\xbf" + pasted.encode()})
    assert [m["match"] for m in found] == ["engine/gpt.py"]


# -- how it is computed ----------------------------------------------------------------------


def test_the_share_is_what_copydetect_compare_files_gives():
    stub = similarity._stub_hashes(ROOT / "exercises" / "day22_attention.py", similarity.NOISE_T)
    texts = [
        (HONEST / "day22_attention.py").read_text(),
        (ROOT / "solutions" / "day22_attention.py").read_text(),
        disguise((ROOT / "solutions" / "day22_attention.py").read_text()),
        (ROOT / "engine" / "gpt.py").read_text(),
    ]
    prints = [similarity._without(similarity._fingerprint(t), stub) for t in texts]
    for a in prints:
        for b in prints:
            _, (expected, _), _ = copydetect.compare_files(a, b)
            got = similarity.share(similarity.Kgrams(a), similarity.Kgrams(b))
            assert got == pytest.approx(float(expected))


def test_a_repeated_line_of_the_learners_stays_the_learners():
    # copydetect 0.5.0's own boilerplate= argument drops repeats of non-stub k-grams too.
    given = "def given(a, b):\n    return [a, b, a + b, a * b]\n"  # filtered: 29 characters
    text = given + "total = total + step * scale\n" * 6  # 6 x "V=V+V*V"
    stub = similarity._fingerprint(given).hashes
    own = similarity._without(similarity._fingerprint(text), stub)
    library = copydetect.CodeFingerprint(
        "x.py",
        similarity.NOISE_T,
        1,
        boilerplate=list(stub),
        fp=io.StringIO(text),
        language="python",
    )
    # Only the stub's first 29 - k + 1 k-gram starts lie wholly in the given code.
    assert own.token_coverage == 29 + 6 * 7 - (29 - similarity.NOISE_T + 1)
    starts = sum(len(i) for i in own.hash_idx.values())
    k = similarity.NOISE_T
    assert starts == (29 + 6 * 7 - k + 1) - (29 - k + 1)  # every k-gram start, less the stub's
    assert sum(len(i) for i in library.hash_idx.values()) < starts


# -- a class ------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("size", [12, pytest.param(100, marks=pytest.mark.heavy)])  # nox -s heavy
def test_a_class_is_compared_and_the_copies_found(size):
    """How long it takes is measured by `python -m benchmarks grading`, not asserted here."""
    texts = {name: data.decode() for name, data in REFERENCES.items()}
    honest = {name: data.decode() for name, data in HONEST_SOLUTIONS.items()}
    submissions = synthetic_class(size, texts, honest)
    assert len({files["day25_microgpt.py"] for files in submissions.values()}) == size
    start = time.perf_counter()
    found = similarity.class_matches(submissions)
    seconds = time.perf_counter() - start
    print(f"{size} learners x {len(texts)} exercises: {seconds:.1f} s, {len(found)} matches")
    assert found


# -- the Gradescope zip -----------------------------------------------------------------------


def test_the_gradescope_zip_ships_the_stubs_and_finds_a_paste_from_them(tmp_path):
    import json
    import subprocess
    import sys
    import zipfile

    from grader.gradescope import build

    with zipfile.ZipFile(build(tmp_path / "autograder.zip")) as archive:
        names = set(archive.namelist())
        archive.extractall(tmp_path / "source")
    assert {f"stubs/{name}" for name in STUBS} <= names
    assert "requirements/grader.txt" in names
    assert not any(n.startswith(("exercises/", "solutions/", "tests/")) for n in names)
    pasted, _ = paste_engine(stub_text("day25_microgpt.py"))
    (tmp_path / "submission.py").write_text(pasted)
    script = (
        "import json, sys; from grader.similarity import engine_matches; "
        "data = open(sys.argv[1], 'rb').read(); "
        "print(json.dumps(engine_matches({'day25_microgpt.py': data})))"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "submission.py")],
        cwd=tmp_path / "source",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert [m["match"] for m in json.loads(run.stdout)] == ["engine/gpt.py"]


# -- in the reports: the instructor sees it, the score does not change -------------------------


def _grade_class(tmp_path, learners):
    from grader.batch import grade_folder
    from grader.sandbox import detect

    class_dir = tmp_path / "class"
    for learner, files in learners.items():
        (class_dir / learner).mkdir(parents=True)
        for name, text in files.items():
            (class_dir / learner / name).write_text(text)
    gradebook = tmp_path / "grades.csv"
    exercises = sorted({name for files in learners.values() for name in files})
    status = grade_folder(class_dir, detect(), exercises, gradebook, seed=3, quiet=True)
    import csv

    return status, {row["learner"]: row for row in csv.DictReader(gradebook.open())}


def test_the_gradebook_names_pasted_engine_code_and_copies_without_changing_scores(tmp_path):
    day = "day22_attention.py"
    reference = REFERENCES[day].decode()
    honest = HONEST_SOLUTIONS[day].decode()
    status, rows = _grade_class(
        tmp_path,
        {
            "ada": {day: reference},
            "bob": {day: disguise(reference)},  # a renamed copy of ada's
            "cy": {day: honest},  # written independently
            "dee": {day: paste_engine(STUBS[day].decode())[0]},
        },
    )
    assert status == 0
    assert "bob" in rows["ada"]["similarity"] and "ada" in rows["bob"]["similarity"]
    assert rows["cy"]["similarity"] == ""
    assert "engine/gpt.py" in rows["dee"]["similarity"]
    # Every one of them works, so every one earns full marks: the report is for the instructor.
    assert {rows[n]["score"] for n in ("ada", "bob", "cy")} == {rows["ada"]["max_score"]}, rows


def test_the_results_json_carries_engine_matches_for_the_instructor_only(tmp_path):
    from grader.grade import grade_one
    from grader.sandbox import detect

    day = "day25_microgpt.py"
    folder = tmp_path / "dee"
    folder.mkdir()
    (folder / day).write_text(paste_engine(STUBS[day].decode())[0])
    gradescope, text, _ = grade_one(folder, detect(), [day], 3)
    rows = gradescope["extra_data"]["similarity"]
    assert [row["match"] for row in rows][:1] == ["engine/gpt.py"] and rows[0][
        "share"
    ] >= similarity.THRESHOLD
    # extra_data is what Gradescope keeps from the learner; the tests they see say nothing.
    assert not any("engine/gpt.py" in t["output"] for t in gradescope["tests"])
    assert "also in engine/gpt.py" in text


def test_learners_whose_names_print_alike_keep_rows_and_comparisons_of_their_own(tmp_path):
    # A folder named with the text "\xff" and one named with the byte 0xff print alike:
    # each keeps a row, and a copy between one of them and a classmate is still found.
    import csv
    import os

    from grader.batch import grade_folder
    from grader.sandbox import detect

    day = "day22_attention.py"
    reference = REFERENCES[day]
    class_dir = tmp_path / "class"
    root = os.fsencode(class_dir)
    for name, data in ((b"\\xff", reference), (b"\xff", STUBS[day]), (b"carol", reference)):
        os.makedirs(root + b"/" + name)
        with open(root + b"/" + name + b"/" + day.encode(), "wb") as handle:
            handle.write(data)
    gradebook = tmp_path / "grades.csv"
    grade_folder(class_dir, detect(), [day], gradebook, seed=3, quiet=True)
    rows = list(csv.DictReader(gradebook.open()))
    labels = [row["learner"] for row in rows]
    assert len(rows) == 3 and len(set(labels)) == 3, labels
    copier = next(r for r in rows if r["score"] == r["max_score"] and r["learner"] != "carol")
    assert "carol" in copier["similarity"]
    assert copier["learner"] in next(r for r in rows if r["learner"] == "carol")["similarity"]


def test_engine_code_run_from_a_string_is_still_found():
    # The engine's attention pasted inside exec("..."): copydetect drops strings, so the
    # code held in string literals is fingerprinted too.
    data = (HONEST.parent / "exec_paste_day22_attention.py").read_bytes()
    rows = similarity.engine_matches({"day22_attention.py": data})
    assert [row["match"] for row in rows][:1] == ["engine/gpt.py"], rows
