"""The day badge, the notebook link and the course map, as the site build applies them."""

import importlib.util
from types import SimpleNamespace

import pytest

from .pages import ROOT, lesson_paths, load

mkdocs_files = pytest.importorskip("mkdocs.structure.files")


def _hook(name):
    spec = importlib.util.spec_from_file_location(f"hook_{name}", ROOT / "hooks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


day_badge, notebook_link, course_map = (
    _hook("day_badge"),
    _hook("notebook_link"),
    _hook("course_map"),
)


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
    assert text.endswith(f"Day {page.meta['day']} of 30")
    assert text.startswith(f"Phase {page.meta['phase']} · ")
    # A badge the page types itself must say the same, since the hook replaces it.
    typed = [ln for ln in page.text.splitlines() if 'class="day-badge"' in ln]
    for line in typed:
        assert text in line, f"{path.name}: typed badge {line!r} disagrees with front matter"


def test_badge_hook_replaces_a_typed_badge_and_adds_a_title():
    meta = {"day": 12, "phase": 2, "title": "Loss"}
    page = SimpleNamespace(
        meta=meta, file=SimpleNamespace(src_uri="lessons/day12_loss.md"), title="Loss"
    )
    typed = '<p class="day-badge">Phase 1 · Wrong · Day 3 of 30</p>\n\n# Loss\n\nText.'
    out = day_badge.on_page_markdown(typed, page, None, None)
    assert out.count("day-badge") == 1 and "Phase 2 · Neural networks · Day 12 of 30" in out
    assert "Wrong" not in out and out.count("# Loss") == 1
    out = day_badge.on_page_markdown("Text.", page, None, None)
    assert "# Loss\n\nText." in out
    other = SimpleNamespace(meta={}, file=SimpleNamespace(src_uri="index.md"))
    assert day_badge.on_page_markdown("Home", other, None, None) == "Home"


def test_notebook_link_points_at_the_copied_notebook():
    plugin_module = pytest.importorskip("mkdocs_jupyter.plugin")
    config = _Config(docs_dir=str(ROOT / "docs"), site_dir="/tmp/site", use_directory_urls=True)
    plugin = plugin_module.Plugin()
    plugin.load_config({"include": ["notebooks/*.ipynb"]})
    files = plugin.on_files(mkdocs_files.get_files(config), config)  # notebooks become pages
    page = _page("lessons/day10_neuron.md", {"day": 10, "phase": 2}, files)
    md = '<p class="day-badge">x</p>\n\n# T\n'
    out = notebook_link.on_page_markdown(md, page, None, files)
    assert 'href="../../notebooks/day10_neuron/day10_neuron.ipynb" download' in out
    assert 'href="../../notebooks/day10_neuron/"' in out
    assert out.index("day-notebook") > out.index("day-badge")


def test_notebook_link_fails_clearly_without_a_notebook():
    files = _files()
    page = _page("lessons/day10_neuron.md", {"day": 10, "phase": 2}, files)
    page.file = SimpleNamespace(src_uri="lessons/day99_missing.md")
    with pytest.raises(FileNotFoundError, match="nox -s notebooks"):
        notebook_link.on_page_markdown("x", page, None, files)


def test_course_map_lists_every_day_with_its_time():
    files = _files()
    entries = course_map.lessons(files)
    assert [m["day"] for m, _ in entries] == sorted(load(p).meta["day"] for p in lesson_paths())
    out = course_map.render(entries, "map.md")
    for path in lesson_paths():
        meta = load(path).meta
        row = next(ln for ln in out.splitlines() if f"(lessons/{path.name})" in ln)
        assert row.startswith(f"| {meta['day']} |") and f"| {meta['time']} min |" in row
        assert f'data-exercise="{path.stem}.py"' in row
    phase2 = sum(load(p).meta["time"] for p in lesson_paths() if load(p).meta["phase"] == 2)
    assert course_map._minutes(phase2) in out
    assert course_map._minutes(125) == "2 h 05 min" and course_map._minutes(45) == "45 min"


def test_map_page_has_the_placeholder():
    assert course_map.PLACEHOLDER in (ROOT / "docs" / "map.md").read_text(encoding="utf-8")


def test_notebook_pages_link_sibling_notebooks_as_pages():
    urls = {"day17_bigrams.ipynb": "notebooks/day17_bigrams/"}
    html = '<a href="day17_bigrams.ipynb">day 17</a> <a href="day18_likelihood.ipynb#x">18</a>'
    out = notebook_link.link_sibling_notebooks(html, "notebooks/day16_tokens/", urls)
    assert '<a href="../day17_bigrams/">day 17</a>' in out
    assert 'href="day18_likelihood.ipynb#x"' in out  # no such notebook page: left alone
