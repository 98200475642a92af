"""Publishing: the GitHub Pages workflow builds with the project's own session, for its address."""

from pathlib import Path

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
