"""The steps that make a built site able to run Python, all from local files.

After MkDocs writes site/, these steps add:
- assets/course/: the bundled runtime (esbuild: course.js, worker.js, CSS);
- pyodide/: Pyodide from node_modules (the npm package pinned in package-lock.json),
  plus wheels of `engine`, of `explorer` (the graph explorer's parser and graph
  builder, which requires engine) and of the public checks (`grader/runners/`, the
  verdict and the public cases with their expectations; never `grader/checks/`),
  registered in pyodide/pyodide-lock.json by pyodide-build's `pyodide lockfile
  add-wheels`, so `import engine` loads locally with its hash checked;
- assets/katex/: KaTeX for the maths (no CDN);
- exercises/: every exercise file, an index.json of them and exercises.zip;
- notebooks/wheels.json: the wheels a notebook's setup cell installs, and every served
  notebook (the download link's target) with that cell set to this build's address;
- _headers: the isolation headers, for hosts that read it (Netlify, Cloudflare Pages);
- sw.js at the root, last: the service worker (web/sw.js) with the list of every file of
  the build and its hash, which isolates pages on any host and keeps the course offline.

Nothing here touches solutions/.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from wheels import package_files, write_wheel

from translations import LANGUAGES

# Files of the npm `pyodide` package that a page needs; the rest (console, types) stays out.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
KATEX_FILES = ("katex.min.js", "katex.min.css", "contrib/auto-render.min.js")


class SiteBuildError(RuntimeError):
    """A step of the site build cannot run; the message says what to install or fix."""


def _copy(src: Path, dst: Path) -> None:
    # Skip unchanged files: `mkdocs serve` rebuilds often, and Pyodide is ~14 MB.
    if (
        dst.exists()
        and dst.stat().st_size == src.stat().st_size
        and dst.stat().st_mtime >= src.stat().st_mtime
    ):
        return
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst)


def node_modules(root: Path) -> Path:
    nm = root / "node_modules"
    if not (nm / "pyodide" / "pyodide.mjs").is_file() or not (nm / "esbuild").is_dir():
        raise SiteBuildError(
            "node_modules/ is missing or incomplete: run `npm ci` in the repository root "
            "(needs Node.js 20+ and npm; `nox -s docs` does it for you)"
        )
    return nm


def bundle_runtime(root: Path, site: Path) -> None:
    node = shutil.which("node")
    if node is None:
        raise SiteBuildError(
            "building the site needs Node.js 20+ on PATH (apt-get install nodejs npm)"
        )
    out = site / "assets" / "course"
    proc = subprocess.run(
        [node, str(root / "web" / "build.mjs"), str(out)], cwd=root, capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise SiteBuildError(f"bundling web/ with esbuild failed:\n{proc.stdout}{proc.stderr}")


def copy_pyodide(nm: Path, site: Path) -> Path:
    dest = site / "pyodide"
    for name in PYODIDE_FILES:
        _copy(nm / "pyodide" / name, dest / name)
    return dest


def copy_katex(nm: Path, site: Path) -> None:
    dist = nm / "katex" / "dist"
    for name in KATEX_FILES:
        _copy(dist / name, site / "assets" / "katex" / name)
    for font in (dist / "fonts").iterdir():
        _copy(font, site / "assets" / "katex" / "fonts" / font.name)


# What makes a page cross-origin isolated (SharedArrayBuffer, so Stop can interrupt Python).
# tools/serve.py sends the same; the service worker adds them where a host cannot.
ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def write_headers_file(site: Path) -> None:
    """_headers: Netlify's and Cloudflare Pages' way to set headers on every path."""
    lines = ["/*"] + [f"  {name}: {value}" for name, value in ISOLATION_HEADERS.items()]
    (site / "_headers").write_text("\n".join(lines) + "\n")


# Files the service worker never keeps: itself, the host's files, the sitemap's gzip twin,
# and source maps (only a browser's developer tools ask for them).
NOT_CACHED = ("sw.js", "_headers", "sitemap.xml.gz")
# Kept once visited, not fetched ahead: the notebooks' pages are half the site (each carries
# Jupyter's styles, ~0.7 MB) and repeat the lessons; their .ipynb downloads are kept ahead.
KEPT_WHEN_VISITED = re.compile(r"^notebooks/[^/]+/$")


def offline_files(site: Path) -> dict[str, list]:
    """{site path: [sha256 prefix, bytes, ahead]} of every file a page may load.

    A page is asked for by its folder ("lessons/day01_derivative/"), so index.html is
    listed under its folder's path ("" for the home page). `ahead`: see `ahead`.
    """
    files = {}
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if not path.is_file() or rel in NOT_CACHED or rel.endswith(".map"):
            continue
        data = path.read_bytes()
        key = rel.removesuffix("index.html") if rel.split("/")[-1] == "index.html" else rel
        digest = hashlib.sha256(data).hexdigest()[:16]
        files[key] = [digest, len(data), ahead(key)]
    return files


def ahead(key: str) -> bool | str:
    """When a learner's browser keeps the file at site path `key`: on the first visit (true),
    once a page asks for it (false), or, for a page in one language ("ru"), on the first visit
    of a page in that language: a learner keeps the course in the language they read."""
    if KEPT_WHEN_VISITED.match(without_language(key)):
        return False
    first = key.split("/")[0]
    if first in LANGUAGES[1:]:
        return first
    english = key == "" or key.endswith("/") or key in ("404.html", "search/search_index.json")
    return "en" if english else True


def without_language(key: str) -> str:
    """ "ru/notebooks/day04_x/" -> "notebooks/day04_x/"."""
    first, _, rest = key.partition("/")
    return rest if first in LANGUAGES[1:] else key


def offline_page_words(root: Path) -> dict:
    """{lang: {key: text}}: the words of the worker's own offline page (web/sw.js, which
    loads no file of the site), the "offlinePage." messages of web/locales/<lang>.json."""
    words = {}
    for lang in LANGUAGES:
        messages = json.loads((root / "web" / "locales" / f"{lang}.json").read_text("utf-8"))
        words[lang] = {
            key.removeprefix("offlinePage."): text
            for key, text in messages.items()
            if key.startswith("offlinePage.")
        }
    return words


def write_service_worker(root: Path, site: Path, server_url: str | None = None) -> dict:
    """site/sw.js: web/sw.js with this build's files; returns what it was given.

    `server_url` (SUBMIT_URL): the course server, whose own paths (api/, signin/,
    instructor/, health) the worker leaves to the network, never to its cache.
    """
    files = offline_files(site)
    version = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]
    build = {
        "version": version,
        "headers": ISOLATION_HEADERS,
        "files": files,
        "offlinePage": offline_page_words(root),
    }
    if server_url:
        build["server"] = server_url
    source = (root / "web" / "sw.js").read_text()
    placeholder = "self.__COURSE_BUILD__"
    if source.count(placeholder) != 1:
        raise SiteBuildError(f"web/sw.js must use {placeholder} exactly once")
    (site / "sw.js").write_text(source.replace(placeholder, json.dumps(build, sort_keys=True)))
    return build


# What the page's Check button needs, and nothing that answers an exercise: the runners
# (child side), the verdict (compares only) and the public cases with their expectations
# precomputed here. Never grader/checks/, which draws hidden cases and computes answers.
PUBLIC_GRADER = (
    "grader/__init__.py",
    "grader/runners",
    "grader/verdict.py",
    "grader/messages.py",  # the messages in the page's language (with grader_catalogs)
    "grader/public.py",
    "grader/notebook.py",  # a notebook's check cell: the same checks, printed
)


def grader_catalogs(root: Path) -> dict[str, bytes]:
    """The compiled catalogs the grader's messages are rendered with, as the wheel ships them:
    grader/locales/<lang>/LC_MESSAGES/course.mo (grader/messages.py reads them there)."""
    return {
        f"grader/{path.relative_to(root).as_posix()}": path.read_bytes()
        for path in sorted((root / "locales").glob("*/LC_MESSAGES/*.mo"))
    }


def public_cases_json() -> bytes:
    """The public cases of every exercise with what each expects, as the wheel ships them.

    The course's own grader: `python -m mkdocs` and pytest both run from the course root.
    """
    from grader.checks import published_cases

    return json.dumps(published_cases(), sort_keys=True).encode()


# The graph explorer's Python side (explorer/): a wheel of its own, loaded only by pages
# with an explorer, so the engine's wheel holds just what a learner reads and imports.
# Its data: the menu's presets, and the model explorer's shipped microGPT checkpoint
# (explorer/model.py reads it when no model was trained in the page).
EXPLORER_DATA = ("presets.json", "data/microgpt.json")


def build_wheels(root: Path, dest: Path) -> list[Path]:
    """The engine and explorer wheels, and the public-checks wheel when grader/public.py exists."""
    pyproject = tomllib.loads((root / "pyproject.toml").read_text())
    project = pyproject["project"]
    version = project["version"]
    setuptools = pyproject.get("tool", {}).get("setuptools", {})
    engine_data = tuple(setuptools.get("package-data", {}).get("engine", []))
    wheels = [
        write_wheel(
            dest,
            "engine",
            version,
            package_files(root, "engine", data=engine_data),
            summary=project.get("description", ""),
            requires_python=project.get("requires-python", ">=3.11"),
        ),
        write_wheel(
            dest,
            "explorer",
            version,
            package_files(root, "explorer", data=EXPLORER_DATA),
            summary="The course's graph explorer: typed expressions built with the engine",
            requires_python=project.get("requires-python", ">=3.11"),
            requires=("engine",),
        ),
    ]
    if (root / "grader" / "public.py").is_file():
        files = package_files(root, "grader", only=PUBLIC_GRADER)
        files["grader/public_cases.json"] = public_cases_json()
        files.update(grader_catalogs(root))
        wheels.append(
            write_wheel(
                dest,
                "grader",
                version,
                files,
                summary="The course's public exercise checks",
                requires=("engine",),
            )
        )
    return wheels


PYODIDE_BUILD_MISSING = (
    "pyodide-build is not installed: `nox -s docs` (and `nox -s serve`, `nox -s tests`) "
    "installs it. Without nox, in a Python >= 3.12 environment: "
    "`pip install -r requirements/pyodide-build.txt`, then run the build with that Python or "
    "put its `pyodide` command on PATH"
)


def pyodide_cli() -> Path:
    """The `pyodide` command of pyodide-build: COURSE_PYODIDE (where nox installed it under a
    Python older than 3.12), beside this Python (nox, under 3.12+), else on PATH."""
    if named := os.environ.get("COURSE_PYODIDE"):
        if not Path(named).is_file():
            raise SiteBuildError(
                f"COURSE_PYODIDE names {named}, which is not a file. {PYODIDE_BUILD_MISSING}"
            )
        return Path(named)
    beside = Path(sys.executable).parent / "pyodide"
    if beside.is_file():
        return beside
    found = shutil.which("pyodide")
    if found is None:
        raise SiteBuildError(PYODIDE_BUILD_MISSING)
    return Path(found)


def register_wheels(root: Path, pyodide_dir: Path, base_lock: Path, wheels: list[Path]) -> None:
    """Write pyodide_dir/pyodide-lock.json: the base lockfile plus our wheels.

    Entries whose wheel the site does not ship are dropped, so importing a package
    the course does not provide fails at once with ModuleNotFoundError.
    """
    key = hashlib.sha256(base_lock.read_bytes())
    for wheel in wheels:
        key.update(wheel.read_bytes())
    key.update((root / "requirements" / "pyodide-build.txt").read_bytes())
    cached = root / "build" / "pyodide-build" / f"lock-{key.hexdigest()[:20]}.json"
    if not cached.is_file():
        cached.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(
            [
                str(pyodide_cli()),
                "lockfile",
                "add-wheels",
                "--input",
                str(base_lock),
                "--output",
                str(cached),
                "--base-path",
                str(pyodide_dir),
                *map(str, wheels),
            ],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise SiteBuildError(
                f"`pyodide lockfile add-wheels` failed:\n{proc.stdout}{proc.stderr}"
            )
    lock = json.loads(cached.read_text())
    lock["packages"] = {
        name: entry
        for name, entry in lock["packages"].items()
        if (pyodide_dir / entry["file_name"]).is_file()
    }
    missing = {w.name for w in wheels} - {e["file_name"] for e in lock["packages"].values()}
    if missing:
        raise SiteBuildError(f"pyodide-lock.json does not list {sorted(missing)}")
    (pyodide_dir / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))


def publish_exercises(root: Path, site: Path) -> None:
    src = root / "exercises"
    files = (
        sorted(
            p.relative_to(src).as_posix() for p in src.rglob("*.py") if "__pycache__" not in p.parts
        )
        if src.is_dir()
        else []
    )
    dest = site / "exercises"
    dest.mkdir(parents=True, exist_ok=True)
    for rel in files:
        _copy(src / rel, dest / rel)
    (dest / "index.json").write_text(json.dumps({"files": files}, indent=1))
    with zipfile.ZipFile(site / "exercises.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for rel in files:
            zf.write(src / rel, f"exercises/{rel}")


# What a notebook's setup cell installs: the engine and the public checks (its check cells).
NOTEBOOK_WHEELS = ("engine", "grader")


def publish_notebooks(site: Path, site_url: str, wheels: list[Path]) -> None:
    """notebooks/wheels.json, and each served notebook's setup cell set to `site_url`.

    The committed notebooks cannot know the address (it is the build's `SITE_URL`), so the
    copies the site serves for download get it here (tools/notebooks.py explains the cell).
    """
    from tools.notebooks import WHEELS_JSON, with_site_address

    by_name = {w.name.split("-", 1)[0]: w for w in wheels}
    listed = {
        name: by_name[name].relative_to(site).as_posix()
        for name in NOTEBOOK_WHEELS
        if name in by_name
    }
    if "engine" not in listed:
        raise SiteBuildError("no engine wheel was built for the notebooks to install")
    (site / WHEELS_JSON).parent.mkdir(parents=True, exist_ok=True)
    (site / WHEELS_JSON).write_text(json.dumps(listed, indent=1, sort_keys=True) + "\n")
    url = site_url if site_url.endswith("/") else site_url + "/"
    # the English notebooks, and each language's (ru/notebooks/...)
    for path in sorted([*site.glob("notebooks/*/*.ipynb"), *site.glob("*/notebooks/*/*.ipynb")]):
        try:
            path.write_text(with_site_address(path.read_text(encoding="utf-8"), url), "utf-8")
        except ValueError as exc:
            raise SiteBuildError(f"{path.relative_to(site)}: {exc}") from exc


def write_preview_worker(root: Path, site: Path) -> None:
    """site/sw.js for a preview (`mkdocs serve`): web/sw-preview.js, which keeps nothing."""
    shutil.copyfile(root / "web" / "sw-preview.js", site / "sw.js")


def build_site_runtime(
    root: Path, site: Path, site_url: str, server_url: str | None = None, offline: bool = True
) -> None:
    """Every step above, in order; `server_url`: the course server (SUBMIT_URL), or None;
    `offline=False` (a preview): a service worker that keeps nothing."""
    nm = node_modules(root)
    bundle_runtime(root, site)
    pyodide_dir = copy_pyodide(nm, site)
    wheels = build_wheels(root, pyodide_dir)
    register_wheels(root, pyodide_dir, nm / "pyodide" / "pyodide-lock.json", wheels)
    copy_katex(nm, site)
    publish_exercises(root, site)
    publish_notebooks(site, site_url, wheels)
    write_headers_file(site)
    if offline:
        write_service_worker(root, site, server_url)  # last: it lists every file above
    else:
        write_preview_worker(root, site)
