"""Make a copy of the course that can be a public repository: `nox -s public-tree -- OUT`.

A public repository hands every learner what it holds, so the course's own repository,
which holds the reference solutions, stays private, and the public one is made from this
copy: every file git tracks, less what only an instructor may see (LEFT_OUT). The copy
builds the site (`nox -s docs`), publishes it (.github/workflows/pages.yml) and grades
(`python -m grader`, `nox -s gradescope`): none of these reads what is left out. Its
PUBLIC_TREE.md says what is missing and why (docs/instructors/publish.md). A solution
kept under another name (a copy, a notebook's cell, a symbolic link into solutions/ or out
of the course, a submodule) stops the copy before anything is written (check_no_leak).

    python -m tools.public_tree OUT [--root ROOT]
"""

from __future__ import annotations

import argparse
import ast
import json
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


SOLUTIONS = "solutions"  # the folder of LEFT_OUT whose code may be nowhere in the copy


def _lines(text: str) -> str:
    """`text` with each line stripped and blank lines dropped: a copy reindented,
    with tabs or other blank lines, is still the same code."""
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def _code(text: str) -> str:
    """A solution's code: its text after the module docstring (which the stub shares)."""
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError):
        return _lines(text)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        text = "\n".join(text.splitlines()[body[0].end_lineno :])
    return _lines(text)


def _readable(path: Path) -> str:
    """A file's text as a reader sees it: a notebook's cells joined as well."""
    text = path.read_bytes().decode("utf-8", "replace")
    if path.suffix == ".ipynb":
        try:
            cells = json.loads(text).get("cells", [])
            text += "\n" + "\n".join(
                "".join(c.get("source", "")) for c in cells if isinstance(c, dict)
            )
        except (ValueError, AttributeError, TypeError):
            pass
    return _lines(text)


def check_no_leak(root: Path, paths: list[str]) -> None:
    """PublicTreeError if a file to copy would hand out a reference solution: a symbolic
    link that leads out of the copy (into solutions/, or anywhere outside the course), or
    a file that holds a solution's code under another name (a copy, a notebook's cell)."""
    for path in paths:
        source = root / path
        if source.is_dir() and not source.is_symlink():
            raise PublicTreeError(
                f"{path} is a folder git tracks as one entry (a submodule): the public copy "
                "holds files only and cannot tell what it holds; remove it from the course, "
                "or add its files themselves, and make the copy again"
            )
        if not source.is_symlink():
            continue
        target = os.readlink(source)
        inside = os.path.normpath(os.path.join(os.path.dirname(path), target))
        if os.path.isabs(target) or inside.startswith("..") or left_out(inside):
            raise PublicTreeError(
                f"{path} is a symbolic link to {target}, which the public copy must not "
                f"reach (solutions/ or outside the course): replace it with the file it "
                "stands for, or remove it, and make the copy again"
            )
    codes = {}
    for solution in sorted((root / SOLUTIONS).glob("*.py")):
        code = _code(solution.read_text(encoding="utf-8", errors="replace"))
        stub = root / "exercises" / solution.name
        if code and not (stub.is_file() and code in _lines(stub.read_text(errors="replace"))):
            codes[f"{SOLUTIONS}/{solution.name}"] = code
    for path in paths:
        source = root / path
        if source.is_symlink() or not source.is_file():
            continue
        text = _readable(source)
        for name, code in codes.items():
            if code in text:
                raise PublicTreeError(
                    f"{path} holds the code of {name}, a reference solution: take it out "
                    "of that file (or stop tracking the file) and make the copy again"
                )


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
    files = [
        path
        for path in tracked_files(root)
        if not left_out(path) and ((root / path).exists() or (root / path).is_symlink())
    ]  # a file tracked but deleted in the working tree is not copied
    check_no_leak(root, files)  # before anything is written: no half-made copy
    copied = []
    for path in files:
        source, target = root / path, out / path
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
