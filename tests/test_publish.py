"""Publishing: the GitHub Pages workflow builds with the project's own session, for its address."""

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
