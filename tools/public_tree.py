"""Make a copy of the course that can be a public repository: `nox -s public-tree -- OUT`.

A public repository hands every learner what it holds, so the course's own repository,
which holds the reference solutions, stays private, and the public one is made from this
copy: every file git tracks, less what only an instructor may see (LEFT_OUT). The copy
builds the site (`nox -s docs`), publishes it (.github/workflows/pages.yml) and grades
(`python -m grader`, `nox -s gradescope`): none of these reads what is left out. Its
PUBLIC_TREE.md says what is missing and why (docs/instructors/publish.md).

    python -m tools.public_tree OUT [--root ROOT]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What only an instructor may see, each with why: left out of the public copy.
LEFT_OUT = {
    "solutions": "the reference solutions, one per exercise",
    "tests": (
        "the test suite: it grades the reference solutions and quotes their lines (each "
        "planted bug of the mutation tests is a line of a reference, changed), so it needs "
        "solutions/ and would show it in part"
    ),
    ".ci": "the script that runs that test suite",
}
NOTE = "PUBLIC_TREE.md"


class PublicTreeError(Exception):
    """The copy cannot be made; the message says why."""


def tracked_files(root: Path) -> list[str]:
    """Every file git tracks in `root`, as relative POSIX paths (no build output, no
    node_modules, no file left lying about)."""
    try:
        run = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z"],
            capture_output=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        raise PublicTreeError(f"{root} is not a git checkout that git can list ({exc})") from None
    return sorted(p for p in run.stdout.decode("utf-8", "surrogateescape").split("\0") if p)


def left_out(path: str) -> bool:
    return path.split("/", 1)[0] in LEFT_OUT


def note() -> str:
    lines = [
        "# This is the public copy of the course",
        "",
        "It was made from the course's private repository by `nox -s public-tree -- OUT`",
        "(tools/public_tree.py), which copies every file but these:",
        "",
    ]
    lines += [f"- `{name}/`: {why}." for name, why in LEFT_OUT.items()]
    lines += [
        "",
        "Everything else works here: `nox -s docs` builds the site, the Pages workflow",
        "publishes it, `python -m grader` and `nox -s gradescope` grade. `nox -s tests` does",
        "not: the test suite lives in the private repository, with the solutions it grades.",
        "Change the course there and make this copy again; do not add solutions/ here.",
        "",
    ]
    return "\n".join(lines)


def make_public_tree(out: Path | str, root: Path | str = ROOT) -> list[str]:
    """Copy `root`'s tracked files, less LEFT_OUT, into the new folder `out`; return the
    paths copied. `out` must not exist yet (nothing is ever overwritten) and must lie
    outside `root`."""
    root, out = Path(root).resolve(), Path(out).absolute()
    if out.exists() or out.is_symlink():
        raise PublicTreeError(f"{out} already exists: give a new folder for the public copy")
    if out.resolve() == root or out.resolve().is_relative_to(root):
        raise PublicTreeError(f"{out} is inside the course's own files: give a folder elsewhere")
    files = tracked_files(root)
    copied = []
    for path in files:
        if left_out(path):
            continue
        source, target = root / path, out / path
        if not source.exists() and not source.is_symlink():
            continue  # tracked but deleted in the working tree
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            os.symlink(os.readlink(source), target)
        else:
            shutil.copy2(source, target)
        copied.append(path)
    (out / NOTE).write_text(note(), encoding="utf-8")
    return copied


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.public_tree", description=__doc__.split("\n")[0]
    )
    parser.add_argument("out", help="the new folder to write the public copy into")
    parser.add_argument("--root", default=str(ROOT), help="the course checkout to copy")
    args = parser.parse_args(argv)
    try:
        copied = make_public_tree(args.out, args.root)
    except PublicTreeError as exc:
        print(f"public-tree: {exc}", file=sys.stderr)
        return 1
    left = ", ".join(f"{name}/" for name in LEFT_OUT)
    print(f"wrote {args.out}: {len(copied)} files, without {left} (see {NOTE} there)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
