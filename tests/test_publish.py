"""Publishing: the GitHub Pages workflow builds with the project's own session, for its address."""

import json
import os
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_the_pages_workflow_builds_with_nox_for_the_pages_address_and_deploys():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text())
    build = workflow["jobs"]["build"]["steps"]
    runs = [step for step in build if "run" in step]
    docs = [step for step in runs if step["run"].endswith("nox -s docs")]
    assert len(docs) == 1, runs
    assert docs[0]["env"]["SITE_URL"] == "${{ steps.pages.outputs.base_url }}/"
    assert any(step.get("id") == "pages" for step in build)
    python = next(s for s in build if s.get("uses", "").startswith("actions/setup-python"))
    assert tuple(map(int, python["with"]["python-version"].split("."))) >= (3, 12)
    upload = next(s for s in build if "upload-pages-artifact" in s.get("uses", ""))
    assert upload["with"]["path"] == "site"
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert any("deploy-pages" in s.get("uses", "") for s in deploy["steps"])
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}


def test_the_nox_session_the_workflow_calls_exists():
    import ast

    tree = ast.parse((ROOT / "noxfile.py").read_text())
    sessions = {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and any("session" in ast.unparse(d) for d in node.decorator_list)
    }
    assert {"docs", "serve", "tests"} <= sessions


# -- a public repository: the copy without solutions/ (tools/public_tree.py) ----------------

BUILD_INPUTS = ["mkdocs.yml", "course.py", "questions.py", "hooks"]  # what `mkdocs build` reads


def test_the_public_tree_leaves_out_the_solutions_and_the_tests_that_need_them(tmp_path):
    import subprocess

    from tools.public_tree import LEFT_OUT, NOTE, left_out, make_public_tree, tracked_files

    tree = tmp_path / "public"
    copied = make_public_tree(tree)
    assert not (tree / "solutions").exists() and not (tree / "tests").exists()
    assert {"solutions", "tests"} <= set(LEFT_OUT)
    assert copied == [p for p in tracked_files(ROOT) if not left_out(p)]
    for path in ("exercises/day06_backward.py", "grader/checks/day06_backward.py", "mkdocs.yml"):
        assert (tree / path).read_bytes() == (ROOT / path).read_bytes()
    assert "solutions/" in (tree / NOTE).read_text()
    # No reference solution's text is anywhere in the copy.
    texts = [p.read_bytes() for p in tree.rglob("*") if p.is_file()]
    for solution in (ROOT / "solutions").glob("*.py"):
        assert not any(solution.read_bytes() in t for t in texts), solution.name
    # What the site build reads never names what is left out...
    for name in BUILD_INPUTS:
        for path in [tree / name] if (tree / name).is_file() else (tree / name).glob("*.py"):
            text = path.read_text()
            for folder in ("solutions/", "tests/", ".ci/"):
                assert f'"{folder}' not in text and f"'{folder}" not in text, (path, folder)
    # ...and its grader part runs there: the wheel of the page's checks, from the copy.
    script = (
        "import sys; from pathlib import Path; sys.path[:0] = ['.', 'hooks']; "
        "import course, site_build; assert len(course.DAYS) == course.TOTAL_DAYS; "
        "w = site_build.build_wheels(Path('.'), Path(sys.argv[1])); print(len(w))"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "wheels")],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0 and run.stdout.strip() == "3", run.stderr


def test_the_public_tree_is_never_written_over_an_existing_folder(tmp_path):
    from tools.public_tree import PublicTreeError, make_public_tree

    (tmp_path / "public").mkdir()
    with pytest.raises(PublicTreeError, match="already exists"):
        make_public_tree(tmp_path / "public")
    with pytest.raises(PublicTreeError, match="inside the course"):
        make_public_tree(ROOT / "grader" / "copy")


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("COURSE_PUBLIC_TREE_BUILD"),
    reason="a whole site build (a minute or more): set COURSE_PUBLIC_TREE_BUILD=1",
)
def test_the_public_tree_builds_the_site(tmp_path):
    import subprocess

    from tools.public_tree import make_public_tree

    tree = tmp_path / "public"
    make_public_tree(tree)
    (tree / "node_modules").symlink_to((ROOT / "node_modules").resolve())
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=tree,
        env=dict(os.environ, SITE_URL="http://127.0.0.1:8000/"),
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert (tmp_path / "site" / "lessons" / "day06_backward" / "index.html").is_file()


def test_publishing_waits_for_the_linters_and_the_tests():
    # The same commands as .ci/run: `nox -s lint`, then the README's `nox -s tests`.
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text())
    jobs = workflow["jobs"]
    assert set(jobs["build"]["needs"]) == {"lint", "tests"}
    ci = (ROOT / ".ci" / "run").read_text()
    for job, command in (("lint", "nox -s lint"), ("tests", "nox -s tests")):
        runs = [step["run"] for step in jobs[job]["steps"] if "run" in step]
        assert any(run.strip().endswith(command) for run in runs), (job, runs)
        assert f"python3 -m {command}\n" in ci


# The public copy against an instructor's slips: a fake course repository with a leak planted.
PLANTED_SOLUTION = (
    '"""Day 5."""\n\n\ndef add(a, b):\n    """a + b."""\n    total = a + b\n'
    "    return total  # the reference answer\n"
)


def _course(tmp_path, plant):
    """A git repository laid out like the course, with `plant(root)` added and tracked."""
    import subprocess

    root = tmp_path / "course"
    (root / "solutions").mkdir(parents=True)
    (root / "exercises").mkdir()
    (root / "solutions" / "day05_add_mul.py").write_text(PLANTED_SOLUTION)
    (root / "exercises" / "day05_add_mul.py").write_text('"""Day 5."""\n\n\ndef add(a, b):\n')
    plant(root)
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "course"], check=True)
    return root


def _notebook(root):
    cell = {"cell_type": "code", "source": PLANTED_SOLUTION.splitlines(True), "metadata": {}}
    (root / "docs").mkdir()
    (root / "docs" / "day05.ipynb").write_text(json.dumps({"cells": [cell]}, indent=1))


LEAKS = {
    "a solution copied under another name": lambda root: (
        (root / "docs").mkdir(),
        (root / "docs" / "answer.py").write_text(PLANTED_SOLUTION),
    ),
    "a solution reformatted into a folder of its own": lambda root: (
        (root / "grader" / "data").mkdir(parents=True),
        (root / "grader" / "data" / "ref.txt").write_text(
            "notes\n" + PLANTED_SOLUTION.replace("    ", "\t")
        ),
    ),
    "a solution in a notebook's cell": _notebook,
    "a symlink into solutions/": lambda root: os.symlink(
        "../solutions/day05_add_mul.py", root / "exercises" / "answer.py"
    ),
    "a symlink to an absolute path": lambda root: os.symlink(
        str(root / "solutions"), root / "answers"
    ),
    "a symlink out of the course": lambda root: os.symlink("../../elsewhere", root / "notes"),
}


@pytest.mark.parametrize("leak", list(LEAKS))
def test_the_public_tree_refuses_a_solution_left_under_another_name(tmp_path, leak):
    from tools.public_tree import PublicTreeError, main, make_public_tree

    root = _course(tmp_path, LEAKS[leak])
    out = tmp_path / "public"
    with pytest.raises(PublicTreeError, match="solutions/"):
        make_public_tree(out, root)
    assert not out.exists()  # nothing half-made is left to publish
    assert main([str(out), "--root", str(root)]) == 1


def test_the_public_tree_copies_no_git_history_and_no_untracked_file(tmp_path):
    from tools.public_tree import make_public_tree

    def plant(root):
        (root / "site").mkdir()
        (root / ".gitignore").write_text("site/\n")
        (root / "site" / "answer.py").write_text(PLANTED_SOLUTION)  # a build, ignored

    root = _course(tmp_path, plant)
    (root / "untracked.py").write_text(PLANTED_SOLUTION)
    copied = make_public_tree(tmp_path / "public", root)
    assert sorted(copied) == [".gitignore", "exercises/day05_add_mul.py"]
    names = {
        p.relative_to(tmp_path / "public").as_posix() for p in (tmp_path / "public").rglob("*")
    }
    assert names == {".gitignore", "exercises", "exercises/day05_add_mul.py", "PUBLIC_TREE.md"}


def test_the_public_tree_refuses_a_submodule_in_one_line(tmp_path):
    # A gitlink is a folder in the working tree: copying it raised IsADirectoryError.
    import subprocess

    from tools.public_tree import main

    root = _course(tmp_path, lambda root: None)
    head = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    subprocess.run(
        ["git", "-C", str(root), "update-index", "--add", "--cacheinfo", f"160000,{head},vendor"],
        check=True,
    )
    (root / "vendor").mkdir()
    (root / "vendor" / "answer.py").write_text(PLANTED_SOLUTION)
    assert main([str(tmp_path / "public"), "--root", str(root)]) == 1
    assert not (tmp_path / "public").exists()
