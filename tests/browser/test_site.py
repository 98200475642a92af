"""The built site itself: local Pyodide, registered wheels, nothing of solutions/."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from course import TOTAL_DAYS

ROOT = Path(__file__).resolve().parents[2]


def test_the_lockfile_lists_the_shipped_wheels_with_their_hashes(site_dir):
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    engine = lock["packages"]["engine"]
    assert engine["imports"] == ["engine"]
    wheel = site_dir / "pyodide" / engine["file_name"]
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == engine["sha256"]
    # Every listed package is a file the site really has.
    for entry in lock["packages"].values():
        assert (site_dir / "pyodide" / entry["file_name"]).is_file(), entry["file_name"]


def test_the_engine_wheel_holds_the_engine_and_a_valid_record(site_dir):
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    wheel = site_dir / "pyodide" / lock["packages"]["engine"]["file_name"]
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        for source in (ROOT / "engine").glob("*.py"):
            assert f"engine/{source.name}" in names
            assert zf.read(f"engine/{source.name}") == source.read_bytes()
        # Package data ships too (lessons load the names file from the engine).
        if (ROOT / "engine" / "data" / "names.txt").is_file():
            assert (
                zf.read("engine/data/names.txt")
                == (ROOT / "engine" / "data" / "names.txt").read_bytes()
            )
        record = zf.read("engine-0.1.0.dist-info/RECORD").decode().splitlines()
        for line in record:
            path, digest, _size = line.rsplit(",", 2)
            if digest:
                data = zf.read(path)
                expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                assert digest == "sha256=" + expected.decode()


def test_only_public_checks_of_the_grader_are_shipped(site_dir):
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    assert "grader" in lock["packages"], "the exercise blocks need the grader's public checks"
    wheel = site_dir / "pyodide" / lock["packages"]["grader"]["file_name"]
    with zipfile.ZipFile(wheel) as zf:
        code = [n for n in zf.namelist() if not n.startswith("grader-")]
    assert "grader/__init__.py" in code and "grader/public_cases.json" in code
    public = (
        "grader/__init__.py",
        "grader/verdict.py",
        "grader/public.py",
        "grader/notebook.py",  # a notebook's check cell: runs grader.public, prints its report
        "grader/messages.py",  # the feedback in the page's language
        "grader/public_cases.json",
    )
    # ... and the compiled catalogs that language is read from (words, no code)
    catalog = re.compile(r"grader/locales/(ru|et)/LC_MESSAGES/course\.mo")
    assert all(
        n in public or n.startswith("grader/runners/") or catalog.fullmatch(n) for n in code
    ), code


def test_nothing_of_solutions_is_published(site_dir):
    solutions = [p for p in (ROOT / "solutions").rglob("*.py") if "__pycache__" not in p.parts]
    assert not list(site_dir.rglob("solutions*"))
    # No page, index or asset holds a solution file's text.
    for path in site_dir.rglob("*"):
        if path.is_file() and path.suffix in {".html", ".json", ".js", ".py", ".xml"}:
            text = path.read_text(errors="replace")
            for solution in solutions:
                assert solution.read_text().strip() not in text, f"{solution.name} is in {path}"


def test_exercise_files_and_public_checks_hold_no_piece_of_a_solution(site_dir):
    solutions = [p for p in (ROOT / "solutions").rglob("*.py") if "__pycache__" not in p.parts]
    # The exercise files and the public checks hold none of a solution's own lines
    # (lessons may quote a line while they teach it, and the engine is public code
    # a late exercise rebuilds, so neither is searched here).
    texts = {}
    for path in (site_dir / "exercises").rglob("*.py"):
        texts[path] = path.read_text()
    archives = [*site_dir.rglob("grader-*.whl"), site_dir / "exercises.zip"]
    for archive in archives:
        with zipfile.ZipFile(archive) as zf:
            for name in zf.namelist():
                texts[Path(f"{archive}!{name}")] = zf.read(name).decode(errors="replace")

    def lines(text):
        return [line.strip() for line in text.splitlines() if line.strip()]

    flat = {where: "\n".join(lines(text)) for where, text in texts.items()}
    for solution in solutions:
        stub = ROOT / "exercises" / solution.name
        stub_lines = set(lines(stub.read_text())) if stub.is_file() else set()
        own = [line for line in lines(solution.read_text()) if line not in stub_lines]
        # Three of the solution's own lines in a row would be a piece of its answer.
        for k in range(len(own) - 2):
            piece = "\n".join(own[k : k + 3])
            for where, text in flat.items():
                assert piece not in text, f"{solution.name}: {piece!r} is published in {where}"


def test_a_bad_block_stops_the_build_with_a_clear_message():
    from fences import ExerciseError, _parse_exercise, format_cell, validate_cell

    with pytest.raises(ExerciseError, match="timeout"):
        validate_cell("pyodide", {"timeout": "soon"}, {}, {}, None)
    # The message lists the options there are (a cell takes two since my engine came).
    with pytest.raises(ExerciseError, match='the options are timeout="<seconds>" and my_engine='):
        validate_cell("pyodide", {"hidden": "1"}, {}, {}, None)
    for bad in (" ", "counts the nodes", "Gadget: counts the nodes", "GPT: "):
        with pytest.raises(ExerciseError, match="with a part of engine/mine.py's PARTS: GPT, MLP"):
            validate_cell("pyodide", {"my_engine": bad}, {}, {}, None)
    options = {}
    assert validate_cell("pyodide", {"timeout": "600"}, options, {}, None)
    assert options == {"timeout": "600"}
    options = {}
    assert validate_cell("pyodide", {"my_engine": 'GPT: counts "your" nodes'}, options, {}, None)
    html = format_cell("print(1)", "pyodide", "", options, None)
    assert 'data-my-engine="counts &quot;your&quot; nodes" data-my-engine-part="GPT"' in html
    with pytest.raises(ExerciseError, match="file: dayNN_slug.py"):
        _parse_exercise("hints: [a]")
    with pytest.raises(ExerciseError, match="list of strings"):
        _parse_exercise("file: day05_add_mul.py\nhints: just one")
    assert _parse_exercise("file: a.py\nhints:\n  - one\n  - two") == ("a.py", ["one", "two"])


# What would make a reader's browser fetch code or styles from another host.
FOREIGN_LOAD = re.compile(
    r"""import\(\s*["']https?://"""
    r"""|<script[^>]*\bsrc=["']https?://"""
    r"""|<link[^>]*\bhref=["']https?://[^"']*\.(?:css|js|woff2?)"""
    r"""|@import\s+(?:url\()?["']?https?://""",
    re.I,
)


def test_no_page_or_asset_loads_anything_from_another_host(site_dir):
    checked = 0
    for path in site_dir.rglob("*"):
        if path.is_file() and path.suffix in {".html", ".js", ".mjs", ".css"}:
            found = FOREIGN_LOAD.search(path.read_text(errors="replace"))
            assert found is None, f"{path.relative_to(site_dir)} loads {found.group(0)!r}"
            checked += 1
    assert checked > 100  # every page, the notebooks' pages and the bundled assets


def test_the_foreign_load_pattern_catches_what_it_must():
    for text in (
        '<script src="https://cdn.example/x.js">',
        'await import("https://cdnjs.cloudflare.com/m.mjs")',
        '<link rel="stylesheet" href="https://fonts.googleapis.com/x.css">',
        "@import url('https://fonts.example/f.css');",
    ):
        assert FOREIGN_LOAD.search(text), text
    assert not FOREIGN_LOAD.search('<a href="https://squidfunk.github.io/">Material</a>')


def test_the_map_and_the_navigation_show_the_learners_progress(course_page, base_url):
    page = course_page
    page.goto(base_url + "map/")
    done = page.locator(".course-done[data-exercise='day05_add_mul.py']")
    assert done.inner_text() == "○"
    assert f"0 of {TOTAL_DAYS}" in page.locator(".course-map__progress").inner_text()
    # What an exercise block saves when its checks pass (web/storage.js).
    page.evaluate(
        "localStorage.setItem('derivative-to-gpt/v1/exercise/day05_add_mul.py/done', '1')"
    )
    page.reload()
    assert done.inner_text() == "✓"
    assert f"1 of {TOTAL_DAYS}" in page.locator(".course-map__progress").inner_text()
    other = page.locator(".course-done[data-exercise='day06_backward.py']")
    assert other.inner_text() == "○"
    nav = page.locator(".md-nav__link.course-nav--done")
    assert nav.count() >= 1
    assert all("day05_add_mul" in nav.nth(i).get_attribute("href") for i in range(nav.count()))


def test_a_done_lesson_marks_its_nav_link_not_its_own_headings(course_page, base_url):
    # Material rewrites the contents list's links to absolute addresses of the same lesson;
    # only the lesson's entry in the navigation may get the mark, not every heading.
    page = course_page
    page.goto(base_url + "map/")
    page.evaluate(
        "localStorage.setItem('derivative-to-gpt/v1/exercise/day05_add_mul.py/done', '1')"
    )
    page.goto(base_url + "lessons/day05_add_mul/")
    page.wait_for_selector(".md-nav__link.course-nav--done", state="attached")
    marked = page.locator(".md-nav__link.course-nav--done")
    hrefs = [marked.nth(i).get_attribute("href") for i in range(marked.count())]
    assert hrefs and not [h for h in hrefs if "#" in h], hrefs
    assert page.locator(".md-nav--secondary .course-nav--done").count() == 0


def test_a_build_without_site_url_stops_and_says_what_to_set(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode != 0
    said = proc.stdout + proc.stderr
    assert "SITE_URL is not set" in said and "SITE_URL=https://" in said, said[-2000:]
    assert "Traceback" not in said
    assert not (tmp_path / "site" / "index.html").exists()


def test_the_sitemap_and_canonical_links_point_where_the_site_is_published(site_dir, site_port):
    published = f"http://127.0.0.1:{site_port}/"
    sitemap = (site_dir / "sitemap.xml").read_text()
    locs = re.findall(r"<loc>([^<]+)</loc>", sitemap)
    assert f"{published}lessons/day01_derivative/" in locs
    assert all(loc.startswith(published) for loc in locs), locs[:3]
    lesson = (site_dir / "lessons" / "day01_derivative" / "index.html").read_text()
    assert f'<link rel="canonical" href="{published}lessons/day01_derivative/">' in lesson
    # No link of any page points at a reader's own machine (pages may name it in prose).
    local = re.compile(r"""(?:href|src|content)=["']https?://(?:127\.0\.0\.1|localhost):8000""")
    for page in site_dir.rglob("*.html"):
        assert not local.search(page.read_text(errors="replace")), page


def _search_docs(site_dir):
    return json.loads((site_dir / "search" / "search_index.json").read_text())["docs"]


def test_search_finds_each_lesson_once_and_each_glossary_term_on_its_own(site_dir):
    docs = _search_docs(site_dir)
    # A lesson's notebook page is the lesson again (raw LaTeX, "In [ ]:"): not in the index.
    assert not [d["location"] for d in docs if d["location"].startswith("notebooks/")]
    assert not [d["location"] for d in docs if "Copied!" in d["text"]]
    lesson = "lessons/day05_add_mul/"
    assert sum(d["location"] == lesson for d in docs) == 1
    # The glossary: one short entry per term (a heading each), under the term's anchor.
    glossary = [d for d in docs if d["location"].startswith("glossary/")]
    terms = yaml.safe_load((ROOT / "includes" / "glossary.yml").read_text(encoding="utf-8"))
    assert len(glossary) == len(terms) + 1  # and the page's short introduction
    assert max(len(d["text"]) for d in glossary) < 600, "a glossary entry is one definition"
    (gradient,) = [d for d in glossary if d["title"] == "gradient"]
    assert gradient["location"] == "glossary/#gradient"
    text = re.sub(r"<[^>]+>", "", gradient["text"])
    assert text.startswith("The derivative of the output with respect to one input"), text
    assert text.endswith("Introduced on day 4."), text


def search(page, query):
    """Type `query` into Material's search box, key by key as a reader does, until results
    show. Material reads the box on keyup, on focus and when its index is ready, never on
    `input`: a value set at once (Playwright's fill) while the box already has focus and the
    index is ready is never searched. A query typed while the search worker is still building
    its index (a busy machine) shows none, and a reader then types again."""
    page.locator("label.md-search__icon, .md-search__input").first.click()
    box = page.locator("input.md-search__input")
    for _ in range(3):
        box.fill("")
        box.press_sequentially(query)
        try:
            page.locator(".md-search-result__link").first.wait_for(timeout=20_000)
            return
        except PlaywrightTimeoutError:
            continue


def test_typing_a_term_in_the_search_box_shows_its_glossary_entry(course_page, base_url):
    page = course_page
    page.goto(base_url + "map/")
    search(page, "gradient")
    entry = page.locator(".md-search-result__link[href$='glossary/#gradient']")
    expect(entry).to_be_visible(timeout=30_000)
    expect(entry.locator("h2")).to_have_text("gradient")
    assert "with respect to one input" in entry.inner_text()
    # Each lesson is found as its page, never as its notebook's copy.
    assert page.locator(".md-search-result__link[href*='/notebooks/']").count() == 0
    # Only the English course: the translations have indexes of their own.
    assert (
        page.locator(
            ".md-search-result__link[href*='/et/'], .md-search-result__link[href*='/ru/']"
        ).count()
        == 0
    )
    entry.click()
    expect(page).to_have_url(re.compile(r"/glossary/#gradient$"))
    expect(page.locator("#gradient")).to_be_in_viewport()


def test_the_search_of_a_translated_page_finds_that_language_s_pages(course_page, base_url):
    page = course_page
    page.goto(base_url + "et/map/")
    search(page, "gradientlaskumine")
    entry = page.locator(".md-search-result__link[href$='/et/glossary/#gradient-descent']")
    expect(entry).to_be_visible(timeout=30_000)
    results = page.locator(".md-search-result__link")
    hrefs = results.evaluate_all("links => links.map(a => a.href)")
    assert hrefs and all(href.startswith(base_url + "et/") for href in hrefs), hrefs
    # Material's own words in Estonian, and a page reached by instant navigation stays Estonian.
    entry.click()
    expect(page).to_have_url(re.compile(r"/et/glossary/#gradient-descent$"))
    expect(page.locator("html")).to_have_attribute("lang", "et")
