"""Build dist/autograder.zip in Gradescope's layout: python -m grader.gradescope [--out PATH]
[--days SPEC].

At the top of the zip: setup.sh and run_autograder (Gradescope runs them from
/autograder/source), requirements/grader.txt (what setup.sh installs), then the grader,
the engine and the stubs as stubs/ (the similarity report takes the code a learner was
given out of its comparisons; the stubs are public). Never solutions/, never tests:
the checks take their expected values from mathematics, not from a reference.

`--days 1-7` (or `5,6,8`, or `1-3,7`) makes the autograder of one assignment: the zip
then holds assignment.json, run_autograder grades those days' exercises alone, and the
score is out of their hidden cases (a week's assignment shows no 0 for days not yet
reached). Without it every exercise is graded.
"""

import argparse
import json
import re
import stat
import zipfile
from pathlib import Path

GRADER = Path(__file__).resolve().parent
ROOT = GRADER.parent
FIXED_TIME = (2020, 1, 1, 0, 0, 0)  # the same inputs give the same zip, byte for byte
ASSIGNMENT = (
    "assignment.json"  # which exercises run_autograder grades (python -m grader --assignment)
)
MAX_SPEC = 400  # characters of a --days spec: 41 days written one by one fit in 150


class DaySpecError(ValueError):
    """A --days spec that names no set of the course's days; the message says why."""


def _exercise_days():
    from grader.checks import EXERCISES

    return {int(name[3:5]): name for name in EXERCISES}


def parse_days(spec):
    """The exercises of the days `spec` names ("1-7", "5,6,8", "1-3, 7"), in day order.

    DaySpecError for anything else: an empty spec or part, a part that is not a day
    number or a range lo-hi of them (ASCII digits only), a range that runs backwards,
    or a day the course has no exercise for.
    """
    by_day = _exercise_days()
    known = f"the days with an exercise are {min(by_day)} to {max(by_day)}"
    if not isinstance(spec, str) or not spec.strip():
        raise DaySpecError(f"--days needs a list of days, e.g. 1-7 or 5,6,8 ({known})")
    if len(spec) > MAX_SPEC:
        raise DaySpecError(f"--days is {len(spec)} characters long; write ranges, e.g. 1-41")
    days = set()
    for part in spec.split(","):
        part = part.strip()
        m = re.fullmatch(r"([0-9]{1,3})(?:\s*-\s*([0-9]{1,3}))?", part)
        if not m:
            raise DaySpecError(
                f"--days {spec!r}: {part!r} is not a day or a range of days; write e.g. "
                f"1-7 or 5,6,8 ({known})"
            )
        lo = int(m[1])
        hi = int(m[2]) if m[2] is not None else lo
        if lo > hi:
            raise DaySpecError(
                f"--days {spec!r}: the range {part!r} runs backwards; write {hi}-{lo}"
            )
        missing = [d for d in range(lo, hi + 1) if d not in by_day]
        if missing:
            raise DaySpecError(f"--days {spec!r}: day {missing[0]} has no exercise ({known})")
        days.update(range(lo, hi + 1))
    return [by_day[d] for d in sorted(days)]


def members():
    """(name in the zip, file on disk, executable?) for everything the autograder needs."""
    out = [
        ("setup.sh", GRADER / "autograder" / "setup.sh", True),
        ("run_autograder", GRADER / "autograder" / "run_autograder", True),
        ("requirements/grader.txt", ROOT / "requirements" / "grader.txt", False),
        # the feedback's languages: --lang and its default (translations.py), the catalogs
        ("translations.py", ROOT / "translations.py", False),
    ]
    for path in sorted((ROOT / "locales").glob("*/LC_MESSAGES/*.mo")):
        out.append((path.relative_to(ROOT).as_posix(), path, False))
    for package in ("grader", "grader/checks", "grader/runners", "engine"):
        for path in sorted((ROOT / package).glob("*.py")):
            out.append((f"{package}/{path.name}", path, False))
    # Not as exercises/: in the zip that name would be the grader's default submission.
    for path in sorted((ROOT / "exercises").glob("*.py")):
        out.append((f"stubs/{path.name}", path, False))
    return out


def lesson_titles():
    """grader/lessons.json of the zip: {lang: {slug: title}} from the course manifest, so
    that the messages name each lesson as the site does, in each of its languages, where
    there is no course.py (lessons.py)."""
    import course
    from grader.messages import LANGUAGES

    titles = {
        lang: {day.slug: course.COURSE.title(day, lang) for day in course.DAYS}
        for lang in LANGUAGES
    }
    return json.dumps(titles, indent=1, ensure_ascii=False).encode() + b"\n"


def assignment(exercises):
    """assignment.json of the zip: the exercises its run_autograder grades."""
    return json.dumps({"exercises": list(exercises)}, indent=1).encode() + b"\n"


def build(out, exercises=None):
    """Write the zip to `out`; with `exercises` (parse_days), an assignment of those alone."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    entries = [(name, path.read_bytes(), executable) for name, path, executable in members()]
    entries.append(("grader/lessons.json", lesson_titles(), False))
    if exercises is not None:
        entries.append((ASSIGNMENT, assignment(exercises), False))
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data, executable in entries:
            info = zipfile.ZipInfo(name, FIXED_TIME)
            mode = 0o755 if executable else 0o644
            info.external_attr = (stat.S_IFREG | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m grader.gradescope", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--out", default=str(ROOT / "dist" / "autograder.zip"))
    parser.add_argument(
        "--days",
        metavar="SPEC",
        help="grade only these days, e.g. 1-7 or 5,6,8 (default: every exercise)",
    )
    args = parser.parse_args(argv)
    exercises = None
    if args.days is not None:
        try:
            exercises = parse_days(args.days)
        except DaySpecError as exc:
            parser.error(str(exc))
    path = build(args.out, exercises)
    graded = "every exercise" if exercises is None else f"{len(exercises)} exercise(s): "
    if exercises is not None:
        graded += ", ".join(exercises)
    print(
        f"wrote {path} ({path.stat().st_size} bytes), grading {graded}: upload it as the "
        "autograder of the assignment"
    )


if __name__ == "__main__":
    main()
