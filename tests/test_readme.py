"""What the README, the site's front pages and the project's settings say is what is true:
every nox session and every top-level folder is listed, no text types a number of days
other than the manifest's, and every place that names a Node.js version names the same."""

import ast
import json
import re
import subprocess

import yaml

import course

ROOT = course.ROOT
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(text, title):
    """The Markdown of the `## title` section of `text`."""
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else None]


def _nox_sessions():
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            if "session" not in ast.unparse(decorator):
                continue
            # @nox.session(name="public-tree") is called by that name, not the function's.
            keywords = getattr(decorator, "keywords", [])
            named = [k.value.value for k in keywords if k.arg == "name"]
            names.add(named[0] if named else node.name)
    return names


def test_the_readme_lists_every_nox_session():
    listed = set(re.findall(r"nox -s ([\w-]+)", _section(README, "Every workflow")))
    sessions = _nox_sessions()
    assert sessions - listed == set(), "README.md's 'Every workflow' table misses these sessions"
    assert listed - sessions == set(), "README.md's 'Every workflow' names no such session"


def test_the_readme_says_what_each_top_level_folder_and_module_holds():
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    folders = {p.split("/", 1)[0] for p in tracked if "/" in p and not p.startswith(".")}
    modules = {p for p in tracked if "/" not in p and p.endswith(".py")} - {"noxfile.py"}
    table = _section(README, "What is here")
    named = set(re.findall(r"^\| `([^`/]+)/?` \|", table, re.M))
    assert folders | modules <= named, (
        f"README.md's 'What is here' misses {(folders | modules) - named}"
    )


# A number of days a text may state: 20 to 99, in digits or in words.
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_NUMBER = rf"(?:(?:{_TENS})(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|[2-9][0-9])"
_COUNT = re.compile(rf"\b({_NUMBER})[ -](?:days|lessons|notebooks)\b", re.I)
# Where the course describes itself. (docs/instructors/server.md's "valid 14 days" and
# "They last 30 days" are how long a link and a session last, not the course.)
DESCRIBE_THE_COURSE = [
    "README.md",
    "CONTRIBUTING.md",
    "mkdocs.yml",
    "noxfile.py",
    "docs/index.md",
    "docs/map.md",
    "docs/instructors/publish.md",
    "docs/instructors/grading.md",
]


def test_no_text_types_the_number_of_days():
    # A typed count goes stale the day a day is added: write `{{ days }}` (the course plugin
    # fills in the manifest's count, hooks/day_count.py), or a sentence without a number.
    typed = [
        f"{name}: {m[0]!r}"
        for name in DESCRIBE_THE_COURSE
        for m in _COUNT.finditer((ROOT / name).read_text(encoding="utf-8"))
    ]
    assert not typed, f"these type a number of days; the manifest says {course.TOTAL_DAYS}"


def test_the_site_states_the_manifests_number_of_days():
    from day_count import fill, in_words
    from mkdocs.config import load_config

    words = in_words(course.TOTAL_DAYS)
    config = load_config(str(ROOT / "mkdocs.yml"), site_url="https://example.org/course/")
    config = config.plugins.on_config(config)
    assert f" {words} days" in config.site_description
    for page in ("index.md", "map.md"):
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        assert "{{ Days }} days" in text or "{{ days }} days" in text, page
        assert words.capitalize() + " days" in fill(text, course.TOTAL_DAYS), page
    assert [in_words(n) for n in (7, 20, 30, 41, 99, 120)] == [
        "seven",
        "twenty",
        "thirty",
        "forty-one",
        "ninety-nine",
        "120",
    ]


def _minimum(spec):
    """(major, minor, patch) of an npm engines range ">=20" or ">=18.0.0"."""
    m = re.fullmatch(r">=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?", spec.strip())
    assert m, f"engines range {spec!r}: only >=X.Y.Z is understood here"
    return tuple(int(part or 0) for part in m.groups())


def test_every_place_names_the_same_node_version():
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    node = _minimum(package["engines"]["node"])
    major = node[0]
    assert f"**Node.js {major} or newer and npm**" in README
    assert f">= {major} ? 0 : 1" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text())
    versions = {
        step["with"]["node-version"]
        for job in workflow["jobs"].values()
        for step in job.get("steps", [])
        if step.get("uses", "").startswith("actions/setup-node")
    }
    assert versions == {str(major)}
    # ...and `npm ci` on that Node warns of no package that wants a newer one.
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    newer = {
        path: entry["engines"]["node"]
        for path, entry in lock["packages"].items()
        if "node" in entry.get("engines", {}) and _minimum(entry["engines"]["node"]) > node
    }
    assert not newer, f"these need a newer Node.js than package.json's {node}: {newer}"
