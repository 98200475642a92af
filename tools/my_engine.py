"""Run the lessons' cells on a learner's own engine and compare them with the course engine.

    python -m tools.my_engine EXERCISES [--days 6-14] [--timeout 600]
    nox -s my-engine -- EXERCISES --days 6-14

EXERCISES is a folder of exercise files named as in exercises/ (day08_more_ops.py, ...).
Each day's cells run twice, each time in a fresh Python: once on the course engine and once
with the folder's files as the engine (engine/mine.py). The report says, per day, which
parts were the learner's and how many cells printed the same numbers (to the precision
printed); for a cell that differs, its first differing line both ways.

The folder's code runs as you, with no sandbox, like `python your_file.py`: it is for your own
files. As root it runs only the course's own folders (exercises/, solutions/).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import course  # noqa: E402

# Set to run a folder other than the course's own as root: only for code you trust.
AS_ROOT = "MY_ENGINE_AS_ROOT"
FIRST_DAY = 6  # a learner has a whole Value (days 5 and 6) from here on
_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```pyodide\b(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.S | re.M,
)
# A cell whose numbers describe the engine itself says so (hooks/fences.py): my_engine="...".
_OWN_NUMBERS = re.compile(r'\bmy_engine="(?P<why>[^"]*)"')
# A time measured while the cell ran ("21.0 ms per step", "0.5 s", "21.0 мс") is never the same twice,
# and so is a ratio of two times ("3.3x as fast", "2.9 times faster"), also as a translated
# page prints it (Estonian "3x kiirem", "3 korda aeglasem"; Russian "в 3 раза быстрее").
_TIME = re.compile(  # "с" is also a word ("47 с выбором"): a time only where a word does not follow
    r"[-+]?(?:\d+\.\d*|\.\d+|\d+)\s?"
    r"(?:(?:ms|µs|s|мс|мкс)\b|с\b(?![ \t]*[а-яё])|(?:x|×|times) (?:as fast|as slow|faster|slower)\b"
    r"|(?:x|×|korda) (?:kiirem|aeglasem)\b|(?:x|×|раза?) (?:быстрее|медленнее)\b)"
)
ROUND_OFF = 1e-12
_REPORT = "my-engine-report: "  # the line of a day's run that holds its report
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def cells(day):
    """The source of each runnable cell of `day`'s lesson, in page order."""
    return [source for source, _ in cells_and_notes(day)]


def cells_and_notes(day):
    """(source, note) of each runnable cell of `day`'s lesson: the note says what the cell
    shows on the learner's own engine when its numbers are that engine's (else None)."""
    import textwrap

    text = (course.DOCS / day.lesson).read_text(encoding="utf-8")
    found = []
    for m in _FENCE.finditer(text):
        own = _OWN_NUMBERS.search(m["info"])
        found.append((textwrap.dedent(m["body"]), own["why"] if own else None))
    return found


def run_day(slug, folder=None):
    """Run the cells of lesson `slug` in this Python (on the files of `folder` as the engine
    when given); {"parts": line or None, "cells": [{"out": text, "error": text or None}]}."""
    parts = None
    if folder is not None:
        from engine import mine

        sources = {}
        for path in sorted(Path(folder).glob("day*.py")):
            try:
                sources[path.name] = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                error = f"{path.name} is not UTF-8 text: save it as UTF-8 and run this again"
                return {"parts": None, "error": error, "cells": []}
            except OSError as err:
                error = f"{path.name} could not be read ({err.strerror or err})"
                return {"parts": None, "error": error, "cells": []}
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # what a file prints as it loads
                parts = mine.install(sources)["line"]
        except mine.MyEngineError as err:
            return {"parts": None, "error": str(err), "cells": []}
    day = next(d for d in course.DAYS if d.slug == slug)
    namespace = {"__name__": "__main__"}
    results = []
    for i, source in enumerate(cells(day), 1):
        out = io.StringIO()
        error = None
        with contextlib.redirect_stdout(out):
            try:
                exec(compile(source, f"<{slug} cell {i}>", "exec"), namespace)
            except Exception as err:
                error = "".join(traceback.format_exception_only(type(err), err)).strip()
        results.append({"out": out.getvalue(), "error": error})
        if error is not None:
            break  # the cells below depend on this one
    return {"parts": parts, "cells": results}


def _in_fresh_python(slug, folder, timeout):
    args = [sys.executable, "-m", "tools.my_engine", "--run-day", slug]
    if folder is not None:
        args += ["--folder", str(folder)]
    try:
        done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"parts": None, "error": f"did not finish within {timeout} s", "cells": []}
    found = [line for line in done.stdout.splitlines() if line.startswith(_REPORT)]
    if done.returncode != 0 or not found:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        if not found and done.returncode == 0:
            last = "before it reported (a file that ends Python as it loads, like os._exit?)"
        return {"parts": None, "error": f"Python stopped: {last}", "cells": []}
    return json.loads(found[-1][len(_REPORT) :])


def compare_day(slug, folder, timeout=900):
    """Run lesson `slug`'s cells on the course engine and on the files of `folder`, each in a
    fresh Python, and compare them (`compare`); the report also names the parts used."""
    day = next(d for d in course.DAYS if d.slug == slug)
    theirs = _in_fresh_python(slug, None, timeout)
    mine = _in_fresh_python(slug, folder, timeout)
    report = compare(theirs, mine, [note for _, note in cells_and_notes(day)])
    report["parts"] = mine.get("parts")
    if theirs.get("error") or any(c["error"] for c in theirs["cells"]):
        report["error"] = (
            f"the course engine's run failed: {theirs.get('error') or theirs['cells']}"
        )
    return report


def same_numbers(a, b):
    """Whether texts `a` and `b` are the same but for numbers, and their numbers agree to
    the precision printed (a whole number exactly; else one unit of the last digit shown, or
    1e-9 relative, since the two may round a nearly equal value either way). Times are
    not compared, and numbers below ROUND_OFF count as 0: a float's round-off."""
    # Times go, and so does the padding a wider or narrower number needed.
    a, b = (re.sub(r"[ \t]+", " ", _TIME.sub("(time)", text)) for text in (a, b))
    if NUMBER.sub("#", a) != NUMBER.sub("#", b):
        return False
    for x, y in zip(NUMBER.findall(a), NUMBER.findall(b)):
        digits = x.split("e")[0].split("E")[0]
        places = len(digits.split(".")[1]) if "." in digits else 0
        exponent = int(re.split("[eE]", x)[1]) if re.search("[eE]", x) else 0
        unit = 10.0 ** (exponent - places)
        if NUMBER.fullmatch(x) and "." not in x and "e" not in x.lower():
            if x != y:
                return False  # a count: exactly the same
            continue
        if abs(float(x)) < ROUND_OFF and abs(float(y)) < ROUND_OFF:
            continue  # two round-off sizes ("largest difference: 3.5e-18"), both near 0
        if abs(float(x) - float(y)) > max(unit, 1e-9 * abs(float(x))):
            return False
    return True


def compare(course_run, mine_run, notes=()):
    """{"agree": n, "own": n, "cells": n, "differ": [(cell, course line, mine line)],
    "error": text}. A cell with a note (`cells_and_notes`) need only run: its numbers are
    the engine's own."""
    report = {"agree": 0, "own": 0, "cells": len(course_run["cells"]), "differ": [], "error": None}
    if mine_run.get("error"):
        report["error"] = mine_run["error"]
        return report
    for i, theirs in enumerate(course_run["cells"], 1):
        if i > len(mine_run["cells"]):
            break
        mine = mine_run["cells"][i - 1]
        if mine["error"] and not theirs["error"]:
            report["differ"].append((i, theirs["out"].strip()[-200:], mine["error"]))
            break
        if i <= len(notes) and notes[i - 1] and not mine["error"]:
            report["own"] += 1
            continue
        if same_numbers(theirs["out"], mine["out"]):
            report["agree"] += 1
            continue
        for x, y in zip(theirs["out"].splitlines() + [""], mine["out"].splitlines() + [""]):
            if not same_numbers(x, y):
                report["differ"].append((i, x, y))
                break
    return report


def parse_days(text):
    first, _, last = text.partition("-")
    return int(first), int(last or first)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("exercises", nargs="?", help="a folder of exercise files")
    parser.add_argument(
        "--days",
        default=f"{FIRST_DAY}-{course.TOTAL_DAYS}",
        help="a day or a range, e.g. 7 or 6-14",
    )
    parser.add_argument("--timeout", type=float, default=900, help="seconds per day and engine")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--run-day", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run_day:
        folder = None if args.folder is None else _runnable(parser, args.folder)
        print(_REPORT + json.dumps(run_day(args.run_day, folder)), flush=True)
        return 0
    if not args.exercises or not Path(args.exercises).is_dir():
        parser.error("give a folder of exercise files, e.g. nox -s my-engine -- exercises/")
    # Resolved once: each day's run gets this very folder, whatever a link points to later.
    folder = _runnable(parser, args.exercises)
    try:
        first, last = parse_days(args.days)
    except ValueError:
        parser.error(f"--days takes a day or a range like 6-14, got {args.days!r}")
    if first < FIRST_DAY:
        parser.error(f"my engine starts on day {FIRST_DAY}: a whole Value is written by then")
    days = [d for d in course.DAYS if first <= d.day <= last]
    if not days:
        parser.error(f"no lesson between days {first} and {last}")
    reports = {}
    for day in days:
        report = compare_day(day.slug, folder, args.timeout)
        reports[day.slug] = report
        if not args.json:
            print(_describe(day, report), flush=True)
    if args.json:
        print(json.dumps(reports))
    return 0 if all(not r["differ"] and not r["error"] for r in reports.values()) else 1


def _runnable(parser, folder):
    """`folder` resolved, when its code may run here: as root, only the course's own."""
    folder = Path(folder).resolve()
    own = folder in (ROOT / "exercises", ROOT / "solutions")
    if hasattr(os, "geteuid") and os.geteuid() == 0 and not own and not os.environ.get(AS_ROOT):
        parser.error(
            "this runs the folder's code as you, with no sandbox, and you are root: run it as "
            "your own user. It is for your own files; to grade someone else's, use nox -s grade "
            f"(sandboxed). ({AS_ROOT}=1 runs it anyway, for code you trust.)"
        )
    return str(folder)


def _describe(day, report):
    lines = [f"Day {day.day} ({day.slug}): {report['agree']} of {report['cells']} cells agree"]
    if report["own"]:
        lines[0] += f", {report['own']} show your engine's own numbers (and ran)"
    if report["error"]:
        lines.append(f"  my engine could not be used: {report['error']}")
    for cell, theirs, mine in report["differ"]:
        lines.append(f"  cell {cell}: course engine printed {theirs!r}")
        lines.append(f"           your engine printed   {mine!r}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
