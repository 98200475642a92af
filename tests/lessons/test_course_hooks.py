"""The navigation, the day badge, the notebook link and the course map, as the site build
applies them (the course plugin, hooks/plugin.py, calls these modules). They are importable
by name: pyproject.toml puts hooks/ on pytest's path."""

import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

import course
from course import PHASES, TOTAL_DAYS

from .pages import ROOT, lesson_paths, load

mkdocs_files = pytest.importorskip("mkdocs.structure.files")

import course_map  # noqa: E402  (the hooks need MkDocs)
import course_nav  # noqa: E402
import day_badge  # noqa: E402
import notebook_link  # noqa: E402
from mkdocs.config import load_config  # noqa: E402
from mkdocs.exceptions import PluginError  # noqa: E402


def _files():
    config = {"docs_dir": str(ROOT / "docs"), "site_dir": "/tmp/site", "use_directory_urls": True}
    return mkdocs_files.get_files(_Config(config))


class _Config(dict):
    def __getattr__(self, key):
        return self.get(key)


def _page(src_uri, meta, files):
    f = files.get_file_from_path(src_uri)
    return SimpleNamespace(meta=meta, file=f, url=f.url, title=meta.get("title", ""))


@pytest.mark.parametrize("path", lesson_paths(), ids=[p.stem for p in lesson_paths()])
def test_badge_matches_front_matter(path):
    page = load(path)
    text = day_badge.badge_text(page.meta)
    assert text.endswith(f"Day {page.meta['day']} of {TOTAL_DAYS}")
    assert text.startswith(f"Phase {page.meta['phase']} · ")
    # No page types its badge: the hook writes it, so a new day changes no other page.
    typed = [ln for ln in page.text.splitlines() if 'class="day-badge"' in ln]
    assert not typed, f"{path.name}: types its badge {typed[0]!r}; the build adds it"


def test_badge_hook_replaces_a_typed_badge_and_adds_a_title():
    meta = {"day": 12, "phase": 2, "title": "Loss"}
    page = SimpleNamespace(
        meta=meta, file=SimpleNamespace(src_uri="lessons/day12_loss.md"), title="Loss"
    )
    typed = f'<p class="day-badge">Phase 1 · Wrong · Day 3 of {TOTAL_DAYS}</p>\n\n# Loss\n\nText.'
    out = day_badge.add_badge(typed, page)
    assert (
        out.count("day-badge") == 1 and f"Phase 2 · Neural networks · Day 12 of {TOTAL_DAYS}" in out
    )
    assert "Wrong" not in out and out.count("# Loss") == 1
    out = day_badge.add_badge("Text.", page)
    assert "# Loss\n\nText." in out
    other = SimpleNamespace(meta={}, file=SimpleNamespace(src_uri="index.md"))
    assert day_badge.add_badge("Home", other) == "Home"


def test_notebook_link_points_at_the_copied_notebook():
    plugin_module = pytest.importorskip("mkdocs_jupyter.plugin")
    config = _Config(docs_dir=str(ROOT / "docs"), site_dir="/tmp/site", use_directory_urls=True)
    plugin = plugin_module.Plugin()
    plugin.load_config({"include": ["notebooks/*.ipynb"]})
    files = plugin.on_files(mkdocs_files.get_files(config), config)  # notebooks become pages
    page = _page("lessons/day10_neuron.md", {"day": 10, "phase": 2}, files)
    md = '<p class="day-badge">x</p>\n\n# T\n'
    out = notebook_link.add_notebook_line(md, page, files)
    assert 'href="../../notebooks/day10_neuron/day10_neuron.ipynb" download' in out
    assert 'href="../../notebooks/day10_neuron/"' in out
    assert out.index("day-notebook") > out.index("day-badge")


def test_notebook_link_fails_clearly_without_a_notebook():
    files = _files()
    page = _page("lessons/day10_neuron.md", {"day": 10, "phase": 2}, files)
    page.file = SimpleNamespace(src_uri="lessons/day99_missing.md")
    with pytest.raises(FileNotFoundError, match="nox -s notebooks"):
        notebook_link.add_notebook_line("x", page, files)


def test_course_map_lists_every_day_with_its_time():
    files = _files()
    entries = course_map.lessons(files)
    assert [m["day"] for m, _ in entries] == sorted(load(p).meta["day"] for p in lesson_paths())
    out = course_map.render(entries, "map.md")
    for path in lesson_paths():
        meta = load(path).meta
        minutes = next(d.minutes for d in course.DAYS if d.slug == path.stem)
        row = next(ln for ln in out.splitlines() if f"(lessons/{path.name})" in ln)
        assert row.startswith(f"| {meta['day']} |") and f"| {minutes} min |" in row
        assert f'data-exercise="{path.stem}.py"' in row
    phase2 = sum(d.minutes for d in course.DAYS if d.phase == 2)
    assert course_map._minutes(phase2) in out
    assert course_map._minutes(125) == "2 h 05 min" and course_map._minutes(45) == "45 min"


def test_course_map_carries_the_course_version_for_an_export_of_work():
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert course_map.course_version() == version["version"]
    files = _files()
    out = course_map.render(course_map.lessons(files), "map.md", "1.2.3")
    block = '<div class="course-transfer" data-course-version="1.2.3"></div>'
    assert out.count(block) == 1
    # Below the progress line and above the first phase, where the buttons belong.
    assert out.index("course-map__progress") < out.index(block) < out.index("\n## ")
    page = _page("map.md", {"title": "Course map"}, files)
    built = course_map.add_map(f"# Map\n\n{course_map.PLACEHOLDER}\n", page, files)
    assert f'data-course-version="{version["version"]}"' in built


def test_map_page_has_the_placeholder():
    assert course_map.PLACEHOLDER in (ROOT / "docs" / "map.md").read_text(encoding="utf-8")


def test_notebook_pages_link_sibling_notebooks_as_pages():
    urls = {"day17_bigrams.ipynb": "notebooks/day17_bigrams/"}
    html = '<a href="day17_bigrams.ipynb">day 17</a> <a href="day18_likelihood.ipynb#x">18</a>'
    out = notebook_link.link_sibling_notebooks(html, "notebooks/day16_tokens/", urls)
    assert '<a href="../day17_bigrams/">day 17</a>' in out
    assert 'href="day18_likelihood.ipynb#x"' in out  # no such notebook page: left alone


# -- the navigation (hooks/course_nav.py) ---------------------------------------------------


def _nav_config():
    # A build needs the address it is published at (SITE_URL); any will do here.
    config = load_config(str(ROOT / "mkdocs.yml"), site_url="https://example.org/course/")
    return config.plugins.on_config(config)  # every hook's on_config, as a build runs them


def test_nav_lists_every_lesson_in_its_phase_in_day_order():
    nav = _nav_config().nav
    sections = [next(iter(item.items())) for item in nav if isinstance(item, dict)]
    phases = [(title, pages) for title, pages in sections if title.startswith("Phase ")]
    assert [title for title, _ in phases] == [f"Phase {p} · {name}" for p, name in PHASES.items()]
    entries = [next(iter(entry.items())) for _, pages in phases for entry in pages]
    assert [page for _, page in entries] == [f"lessons/{p.name}" for p in lesson_paths()]
    for title, pages in phases:
        for entry in pages:
            ((name, page),) = entry.items()
            meta = load(ROOT / "docs" / page).meta
            assert title == f"Phase {meta['phase']} · {PHASES[meta['phase']]}", page
            assert name == f"Day {meta['day']} · {meta['title']}"  # the day, with its title
    assert course_nav.PLACEHOLDER not in nav
    # The pages around the lessons stay where mkdocs.yml puts them.
    assert nav[0] == {"Home": "index.md"} and "Instructors" in nav[-1]


def test_nav_placeholder_must_stand_once_and_alone():
    manifest = course.load()
    nav = ["index.md", course_nav.PLACEHOLDER, {"Instructors": ["instructors/grading.md"]}]
    out = course_nav.expand(nav, manifest)
    assert out[0] == "index.md" and out[-1] == nav[-1]
    assert len(out) == 2 + len(manifest.phases())
    with pytest.raises(PluginError, match="must hold the entry"):
        course_nav.expand(["index.md"], manifest)
    with pytest.raises(PluginError, match="must hold the entry"):
        course_nav.expand([course_nav.PLACEHOLDER, course_nav.PLACEHOLDER], manifest)
    with pytest.raises(PluginError, match="must hold the entry"):
        course_nav.expand(None, manifest)
    by_hand = [course_nav.PLACEHOLDER, {"Extra": ["lessons/day05_add_mul.md"]}]
    with pytest.raises(PluginError, match="lists lessons/day05_add_mul.md by hand"):
        course_nav.expand(by_hand, manifest)


def test_a_broken_lesson_stops_the_build_with_its_name(tmp_path):
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "day01_x.md").write_text(
        "---\nday: 2\ntitle: X\nphase: 1\ntime: 5\n---\n"
    )
    with pytest.raises(PluginError, match="day01_x.md: front matter says day 2"):
        course_nav.load(str(tmp_path))


def _lesson_line(configured):
    plugin_module = pytest.importorskip("mkdocs_jupyter.plugin")
    config = _Config(docs_dir=str(ROOT / "docs"), site_dir="/tmp/site", use_directory_urls=True)
    plugin = plugin_module.Plugin()
    plugin.load_config({"include": ["notebooks/*.ipynb"]})
    files = plugin.on_files(mkdocs_files.get_files(config), config)
    page = _page("lessons/day10_neuron.md", {"day": 10, "phase": 2}, files)
    return notebook_link.add_notebook_line("# T\n", page, files, configured).split("\n")[0]


def test_open_in_colab_only_where_the_repository_is_configured():
    configured = {"repository": "https://github.com/someone/course", "branch": "spring"}
    line = _lesson_line({**configured, "published_url": None})
    assert (
        '<a href="https://colab.research.google.com/github/someone/course/blob/spring/'
        'docs/notebooks/day10_neuron.ipynb">Open in Colab</a>'
    ) in line
    line = _lesson_line({"repository": None, "branch": "main", "published_url": None})
    assert "colab" not in line.lower() and "Download this day" in line
    assert line.endswith("read the notebook</a></p>")


def test_the_course_configures_no_repository_so_its_pages_have_no_colab_link():
    # mkdocs.yml leaves it null (it is the publisher's to set): then no notebook links to Colab.
    from tools import notebooks

    assert notebooks.settings()["repository"] is None
    for path in notebooks.NOTEBOOKS.glob("*.ipynb"):
        assert "colab.research.google.com" not in path.read_text(encoding="utf-8"), path.name


# -- the course plugin (hooks/plugin.py) ------------------------------------------------------


def test_the_course_plugin_runs_after_search_and_the_notebooks_and_watches_the_runtime():
    config = load_config(str(ROOT / "mkdocs.yml"), site_url="https://example.org/course/")
    # Last: its contents titles after search read them, its notebook links after
    # mkdocs-jupyter made the notebooks pages, its service worker after every file is written.
    names = list(config.plugins)
    assert "mkdocs-jupyter" in names and any(name.endswith("search") for name in names)
    assert names[-1] == "course"
    assert not config.hooks, "the build is the course plugin's: mkdocs.yml lists no hook"
    # `nox -s serve` (mkdocs serve) rebuilds and reloads on a change to these.
    watched = {Path(p).relative_to(ROOT).as_posix() for p in config.watch}
    assert {"web", "exercises", "engine"} <= watched


def test_the_preview_is_isolated_and_keeps_nothing_offline(tmp_path):
    import course_site
    import site_build

    sent = {}

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html")])
        return [b"page"]

    def start_response(status, headers, exc_info=None):
        sent.update(headers)

    assert course_site.isolated(app)({}, start_response) == [b"page"]
    assert sent == {"Content-Type": "text/html", **site_build.ISOLATION_HEADERS}
    site_build.write_preview_worker(ROOT, tmp_path)
    worker = (tmp_path / "sw.js").read_text(encoding="utf-8")
    assert "skipWaiting" in worker and "caches.delete" in worker
    assert "fetch" not in worker  # every request goes to the preview server


def test_the_build_finds_pyodide_build_where_nox_installs_it_and_never_installs_it(
    tmp_path, monkeypatch
):
    import site_build

    monkeypatch.setattr(site_build.sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("COURSE_PYODIDE", raising=False)
    with pytest.raises(site_build.SiteBuildError, match="nox -s docs"):
        site_build.pyodide_cli()
    (tmp_path / "pyodide").write_text("")  # beside the Python that runs the build: nox's venv
    assert site_build.pyodide_cli() == tmp_path / "pyodide"
    # Under Python 3.11 nox installs it in an environment of its own and names its command.
    own = tmp_path / "env" / "bin" / "pyodide"
    monkeypatch.setenv("COURSE_PYODIDE", str(own))
    with pytest.raises(site_build.SiteBuildError, match="COURSE_PYODIDE names .* not a file"):
        site_build.pyodide_cli()
    own.parent.mkdir(parents=True)
    own.write_text("")
    assert site_build.pyodide_cli() == own
    source = Path(site_build.__file__).read_text(encoding="utf-8")
    assert '"-m", "pip"' not in source and '"-m", "venv"' not in source  # nox installs it
