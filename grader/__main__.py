"""python -m grader: grade a submission (or a folder of them) in a sandbox.

    python -m grader [SUBMISSION] [--exercise ID ...] [--json OUT] [--lang en|ru|et]
    python -m grader --batch SUBMISSIONS --csv gradebook.csv

SUBMISSION is a folder laid out like exercises/ (the default: your own exercises/) or a
zip of one. The score counts the hidden cases (drawn afresh every run); the public cases
are shown as feedback. Exit status: 0 whenever grading finished, whatever the score (a
refused submission scores 0); 2 for a usage error; 1 if the grader itself failed or a
case could not be run (the report says which: grade again).
"""

import argparse
import json
import sys
from pathlib import Path

from .checks import EXERCISES
from .grade import grade_one
from .isolation import CHOICES
from .messages import LANGUAGES, from_environment, msg, render
from .report import errors, gradescope_rejected, write_json
from .sandbox import SandboxError, detect

DEFAULT = Path(__file__).resolve().parent.parent / "exercises"


def _exercise_id(text):
    name = text if text.endswith(".py") else f"{text}.py"
    name = Path(name).name
    if name not in EXERCISES:
        raise argparse.ArgumentTypeError(
            f"no exercise {text!r}; the exercises are: {', '.join(EXERCISES)}"
        )
    return name


def parser():
    p = argparse.ArgumentParser(prog="python -m grader", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "submission",
        nargs="?",
        default=str(DEFAULT),
        help="a folder laid out like exercises/, or a zip of one (default: exercises/)",
    )
    p.add_argument(
        "--exercise",
        action="append",
        type=_exercise_id,
        metavar="ID",
        help="grade only this exercise, e.g. day05_add_mul.py (repeatable)",
    )
    p.add_argument(
        "--assignment",
        metavar="FILE",
        help="grade only the exercises FILE lists (the assignment.json that "
        "`python -m grader.gradescope --days` puts into the autograder zip)",
    )
    p.add_argument("--json", metavar="OUT", help="write Gradescope-compatible results here")
    p.add_argument(
        "--batch", metavar="FOLDER", help="grade every subfolder or zip of FOLDER (one per learner)"
    )
    p.add_argument("--csv", metavar="OUT", help="with --batch: write the gradebook here")
    p.add_argument(
        "--isolation",
        choices=CHOICES,
        default=None,
        help="force an isolation level (default: the strongest that works)",
    )
    p.add_argument(
        "--seed", type=int, help="draw the hidden cases from this seed (to reproduce a run)"
    )
    p.add_argument("--quiet", action="store_true", help="print only the score line")
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="the language of the feedback (default: the environment's, LANGUAGE or LANG, "
        "English if the course does not speak it; English with --json and --batch)",
    )
    return p


def language(args, environ=None):
    """--lang; else English for what a platform or a gradebook keeps (--json, --batch),
    and the reader's language (the environment's) for the report printed here."""
    if args.lang:
        return args.lang
    return "en" if args.json or args.batch else from_environment(environ)


def read_assignment(path):
    """The exercises an assignment file lists ({"exercises": [...]}), in day order;
    ValueError says what is wrong with it."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"--assignment {path}: not a readable JSON file ({exc})") from None
    listed = data.get("exercises") if isinstance(data, dict) else None
    if not isinstance(listed, list) or not listed:
        raise ValueError(f'--assignment {path}: it must be {{"exercises": [names]}}, not empty')
    unknown = [e for e in listed if not isinstance(e, str) or e not in EXERCISES]
    if unknown:
        raise ValueError(f"--assignment {path}: {unknown[0]!r} is not an exercise of this course")
    return [e for e in EXERCISES if e in listed]


def main(argv=None):
    # A learner's file name or message may hold bytes no terminal encoding can write.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = parser().parse_args(argv)
    lang = language(args)
    exercises = args.exercise or list(EXERCISES)
    if args.assignment:
        if args.exercise:
            parser().error("--assignment and --exercise both choose the exercises: give one")
        try:
            exercises = read_assignment(args.assignment)
        except ValueError as exc:
            parser().error(str(exc))
    if args.csv and not args.batch:
        parser().error("--csv goes with --batch FOLDER")
    source = Path(args.batch or args.submission)
    if not source.exists():
        parser().error(f"{source} does not exist: give a folder laid out like exercises/ or a zip")
    if args.batch and not source.is_dir():
        parser().error(
            f"--batch needs a folder with one subfolder or zip per learner; {source} is not a folder"
        )
    try:
        sandbox = detect(args.isolation)
    except SandboxError as exc:
        print(f"grader: {exc}", file=sys.stderr)
        if args.json:  # fail closed, and say why where the learner looks
            message = render(
                msg("the autograder has no sandbox to run your code in ({why})", why=exc), lang
            )
            write_json(args.json, gradescope_rejected(message, exercises, "none", lang))
        return 1
    if args.batch:
        from .batch import grade_folder

        return grade_folder(
            source, sandbox, exercises, args.csv, args.seed, quiet=args.quiet, lang=lang
        )
    gradescope, text, results = grade_one(source, sandbox, exercises, args.seed, lang)
    if args.json:
        write_json(args.json, gradescope)
    if args.quiet:
        score = msg(
            "Score: {score}/{max_score}",
            score=gradescope["score"],
            max_score=gradescope["max_score"],
        )
        print(render(score, lang))
    else:
        print(text)
    broken = errors(results) if results else []
    if broken:
        print(f"grader: {len(broken)} case(s) could not be run: grade again", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SandboxError as exc:
        print(f"grader: the sandbox failed: {exc}", file=sys.stderr)
        sys.exit(1)
