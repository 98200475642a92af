"""Build dist/autograder.zip in Gradescope's layout: python -m grader.gradescope [--out PATH].

At the top of the zip: setup.sh and run_autograder (Gradescope runs them from
/autograder/source), requirements/grader.txt (what setup.sh installs), then the grader,
the engine and the stubs as stubs/ (the similarity report takes the code a learner was
given out of its comparisons; the stubs are public). Never solutions/, never tests:
the checks take their expected values from mathematics, not from a reference.
"""

import argparse
import stat
import zipfile
from pathlib import Path

GRADER = Path(__file__).resolve().parent
ROOT = GRADER.parent
FIXED_TIME = (2020, 1, 1, 0, 0, 0)  # the same inputs give the same zip, byte for byte


def members():
    """(name in the zip, file on disk, executable?) for everything the autograder needs."""
    out = [
        ("setup.sh", GRADER / "autograder" / "setup.sh", True),
        ("run_autograder", GRADER / "autograder" / "run_autograder", True),
        ("requirements/grader.txt", ROOT / "requirements" / "grader.txt", False),
    ]
    for package in ("grader", "grader/checks", "grader/runners", "engine"):
        for path in sorted((ROOT / package).glob("*.py")):
            out.append((f"{package}/{path.name}", path, False))
    # Not as exercises/: in the zip that name would be the grader's default submission.
    for path in sorted((ROOT / "exercises").glob("*.py")):
        out.append((f"stubs/{path.name}", path, False))
    return out


def build(out):
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path, executable in members():
            info = zipfile.ZipInfo(name, FIXED_TIME)
            mode = 0o755 if executable else 0o644
            info.external_attr = (stat.S_IFREG | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m grader.gradescope", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--out", default=str(ROOT / "dist" / "autograder.zip"))
    args = parser.parse_args(argv)
    path = build(args.out)
    print(
        f"wrote {path} ({path.stat().st_size} bytes): upload it as the autograder of the assignment"
    )


if __name__ == "__main__":
    main()
