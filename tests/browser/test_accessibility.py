"""Readable in both palettes and usable by keyboard: axe-core (the pinned npm package) finds
no serious or critical violation of WCAG 2.1 A/AA on any page of the site, wide and narrow,
light and dark (the explorer with its 3-D view on too); every control shows a focus ring;
inputs labelled by math have names; what scrolls sideways takes keyboard focus; figures
follow the dark palette; editors neither hide lines nor trap the page in a scroll area;
a notebook's page typesets its math; the contents list shows math as plain text."""

from __future__ import annotations

import base64
import os
import re
import time
from collections import Counter

import pytest
from helpers import PLAYGROUND, cell, run

from tests.browser.conftest import ROOT
from translations import LANGUAGES

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
_RUN_AXE = """
async (only) => {
  const result = await axe.run(document, {
    runOnly: only || { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    resultTypes: ["violations"],
  });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ` + v.nodes.slice(0, 3).map((n) => n.target.join(" ")
      + " :: " + ((n.any[0] || n.all[0] || n.none[0] || {}).message || "")).join(" | "));
}
"""


def _palette(page, scheme):
    page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
    page.wait_for_timeout(400)  # Material's colour transitions end before anything is measured


# Every page of the built site, axe-checked in four configurations from one page load: the
# viewport and the palette are changed in place, and each configuration runs the rules its
# change can affect: everything once (wide, light), colour in the dark palette, and at a
# phone's width what scrolls (the course's colours are the same at both widths).
_EVERYTHING = {
    "type": "tag",
    "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
}
_COLOUR = {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}
_NARROW = {"type": "rule", "values": ["scrollable-region-focusable"]}
CONFIGURATIONS = [
    (1280, "default", _EVERYTHING),
    (1280, "slate", _COLOUR),
    (390, "default", _NARROW),
    (390, "slate", _NARROW),
]
# Python is not needed to check a page: its worker is given an empty script, so it takes
# no time (the page shows "Loading Python…", as it does while Python loads).
_NO_PYTHON = """(() => {
  const Native = Worker;
  globalThis.Worker = function (url, options) {
    if (options?.name === "python") url = URL.createObjectURL(new Blob([""], { type: "text/javascript" }));
    return new Native(url, options);
  };
})()"""
# No transitions: a palette or a width set in place is what the next frame shows.
_NO_TRANSITIONS = (
    "*, *::before, *::after { transition: none !important; animation: none !important }"
)
_TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


# `nox -s tests` checks a sample of the pages that are made from the same template as others
# (`everything=False`); `nox -s accessibility` checks every page (COURSE_A11Y_PAGES=all).
SAMPLE_NOTEBOOKS = ("day01_derivative", "day15_classifier", "day41_pytorch")  # plots, math, torch
SAMPLE_TRANSLATED = (
    "",
    "lessons/day04_manual_backward/",
    "notebooks/day04_manual_backward/",
    "glossary/",
)


def _features(index):
    """What can differ in colour or structure between two lessons made from one template: the
    classes, tags, inline styles and SVG colours inside the page's article."""
    html = index.read_text(encoding="utf-8")
    article = html[html.find("<article") : html.find("</article>")]
    found = {"<" + tag for tag in re.findall(r"<([a-z][a-z0-9-]*)", article)}
    for names in re.findall(r'class="([^"]*)"', article):
        found.update(names.split())
    found.update("style:" + v for v in re.findall(r'style="([^"]*)"', article))
    found.update("colour:" + v for v in re.findall(r'(?:fill|stroke|color)="([^"]*)"', article))
    return found


def covering_lessons(site_dir):
    """The fewest lesson pages (greedily, ties by name) that between them hold every feature
    (`_features`) of every lesson page: each kind of block, table, figure and colour once."""
    features = {
        index.parent.name: _features(index)
        for index in sorted(site_dir.glob("lessons/*/index.html"))
    }
    left, chosen = set().union(*features.values()), []
    while left:
        best = max(sorted(features), key=lambda name: len(features[name] & left))
        chosen.append(best)
        left -= features[best]
    return set(chosen)


def site_pages(site_dir, everything=True):
    """The pages of the built site, each as a path under its address ("" for the home page).

    Of the other languages, only the translated pages and one English page in a translation's
    place per language (the others are the English pages again, with the same note). Unless
    `everything`: of the lessons (one template) those that between them hold every kind of
    content (`covering_lessons`), of the notebooks' pages (one template, the lesson's cells as
    code) those of SAMPLE_NOTEBOOKS, and of each translation (the English page's structure and
    colours in other words) the pages of SAMPLE_TRANSLATED and the page in a translation's place.
    """
    lessons = None if everything else covering_lessons(site_dir)
    pages, fallback = [], set()
    for index in sorted(site_dir.glob("**/index.html")):
        folder = index.parent.relative_to(site_dir)
        if folder.parts[:1] == ("assets",):
            continue
        path = "" if folder.parts == () else folder.as_posix() + "/"
        lang = folder.parts[0] if folder.parts and folder.parts[0] in LANGUAGES[1:] else None
        if lang is None:
            top, _, rest = path.partition("/")
            if (
                everything
                or top not in ("notebooks", "lessons")
                or rest.rstrip("/") in (lessons if top == "lessons" else SAMPLE_NOTEBOOKS)
            ):
                pages.append(path)
        elif _translated(lang, path):
            if everything or path.removeprefix(f"{lang}/") in SAMPLE_TRANSLATED:
                pages.append(path)
        elif lang not in fallback:
            fallback.add(lang)
            pages.append(path)
    return pages


def _translated(lang, path):
    """Whether the page at `path` ("et/lessons/day08_x/") is written in `lang` (docs/…/x.et.md)."""
    source = path.removeprefix(f"{lang}/").rstrip("/") or "index"
    source = re.sub(r"^notebooks/", "lessons/", source)  # a lesson's notebook page
    return (ROOT / "docs" / f"{source}.{lang}.md").is_file()


def test_axe_finds_no_serious_violation_on_any_page(course_page, base_url, site_dir):
    page = course_page
    page.add_init_script(_NO_PYTHON)
    axe = AXE.read_text(encoding="utf-8")
    everything = os.environ.get("COURSE_A11Y_PAGES") == "all"
    pages = site_pages(site_dir, everything)
    assert len(pages) > (200 if everything else 25), pages
    assert len([p for p in pages if p.startswith("lessons/")]) > (40 if everything else 5), pages
    assert "et/lessons/day04_manual_backward/" in pages, pages
    assert [p for p in pages if p.startswith("ru/")], pages  # the translations are checked too
    found, start = [], time.monotonic()
    for path in pages:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(base_url + path)
        # The course's runtime has mounted the page (it names the search dialog).
        page.wait_for_function("document.querySelector('.md-search[aria-label]') !== null")
        page.add_script_tag(content=axe)
        page.add_style_tag(content=_NO_TRANSITIONS)
        # A translation has the English page's structure and colours in other words: its
        # words are checked light, at both widths (longer words may need scrolling).
        translated = path.split("/")[0] in LANGUAGES[1:]
        for width, scheme, rules in CONFIGURATIONS:
            if translated and scheme != "default":
                continue
            page.set_viewport_size({"width": width, "height": 900})
            page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
            page.evaluate(_TWO_FRAMES)
            found += [f"/{path} {width}px {scheme}: {v}" for v in page.evaluate(_RUN_AXE, rules)]
    print(f"axe on {len(pages)} pages: {time.monotonic() - start:.0f} s")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_finds_no_serious_violation_with_the_3d_view_on(course_page, base_url, scheme):
    page = course_page
    page.goto(base_url + "explorer/")
    page.wait_for_selector("[data-explorer][data-state=ready]", timeout=120_000)
    _palette(page, scheme)
    page.click("[data-action=view-3d]")
    page.wait_for_selector(".gx-stage[data-step] canvas")
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(_RUN_AXE)
    assert not violations, "\n".join(violations)


def test_an_editor_grows_with_its_code_and_wraps_long_lines(course_page, base_url):
    page = course_page
    page.set_viewport_size({"width": 700, "height": 900})
    page.goto(base_url + "lessons/day05_add_mul/")
    editors = page.locator(".course-editor .cm-scroller")
    editors.first.wait_for()
    sizes = editors.evaluate_all(
        "els => els.map(e => [e.scrollWidth - e.clientWidth, e.scrollHeight - e.clientHeight])"
    )
    assert sizes and all(dx <= 1 and dy <= 1 for dx, dy in sizes), sizes  # nothing to scroll


def test_an_exercise_editor_starts_at_the_line_to_write(course_page, base_url):
    page = course_page
    page.goto(base_url + "lessons/day05_add_mul/")
    stub = (ROOT / "exercises" / "day05_add_mul.py").read_text(encoding="utf-8").split("\n")
    want = next(i for i, line in enumerate(stub, 1) if "your code" in line)
    editor = page.locator("[data-exercise='day05_add_mul.py'] .cm-editor")
    editor.wait_for()
    line = editor.evaluate(
        "el => { const s = el.courseEditor.state; return s.doc.lineAt(s.selection.main.head).number }"
    )
    assert line == want


def test_a_notebook_page_typesets_its_math(course_page, base_url):
    page = course_page
    page.goto(base_url + "notebooks/day14_optimizers/")
    page.wait_for_selector(".jupyter-wrapper .katex", state="attached")
    text = page.locator(".jupyter-wrapper").inner_text()
    assert "$" not in text.replace("$ ", ""), "raw TeX left on the notebook's page"


@pytest.mark.parametrize("path", ["lessons/day14_optimizers/", "notebooks/day14_optimizers/"])
def test_the_contents_list_shows_math_as_plain_text(course_page, base_url, path):
    page = course_page
    page.goto(base_url + path)
    toc = page.locator(".md-nav--secondary").first.inner_text()
    assert "L = w² from w = 1, η = 0.1" in toc
    assert "\\(" not in toc and "$" not in toc


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_the_guided_tasks_read_well_with_their_messages_showing(course_page, base_url, scheme):
    """A task done and a task refused, in each palette: their colours and live lines pass axe."""
    page = course_page
    page.goto(base_url + "explorer/")
    page.wait_for_selector("[data-explorer][data-state=ready]", timeout=120_000)
    predict = page.locator("[data-task=predict]")
    predict.locator("[data-task-action=load]").click()
    page.wait_for_selector("[data-explorer][data-expression='(a+b)*c'][data-state=ready]")
    for box, x in zip(predict.locator("input[data-answer]").all(), ["10", "10", "-1"]):
        box.fill(x)
    predict.locator("[data-task-action=check]").click()
    two = page.locator("[data-task=two-paths]")
    two.locator("input[data-answer]").fill("x")
    two.locator("[data-task-action=check]").click()
    assert predict.get_attribute("data-state") == "done"
    assert "Type a number" in two.locator("[role=status]").text_content()
    _palette(page, scheme)
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(_RUN_AXE)
    assert not violations, "\n".join(violations)


def _contrast(a, b):
    def lum(rgb):
        c = [x / 255 for x in rgb[:3]]
        c = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# The focused element's ring (an editor's is round its box) and the page's background.
_FOCUSED = """() => {
  const el = document.activeElement;
  const ring = el.matches(".cm-content") ? el.closest(".cm-editor") : el;
  const s = getComputedStyle(ring);
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const what = el.outerHTML.slice(0, 90);
  return { inArticle: !!el.closest("article"), what, style: s.outlineStyle,
           width: parseFloat(s.outlineWidth), color: rgb(s.outlineColor), shadow: s.boxShadow,
           page: rgb(getComputedStyle(document.body).backgroundColor) };
}"""


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_every_control_shows_a_focus_ring_when_tabbed_to(course_page, base_url, scheme):
    """Day 4 has them all: links, cells' buttons and editors, number inputs, radios, Check."""
    page = course_page
    page.goto(base_url + "lessons/day04_manual_backward/")
    page.wait_for_selector("form[data-question] input")
    _palette(page, scheme)
    page.evaluate(
        "() => { const h = document.querySelector('article h1'); h.tabIndex = -1; h.focus() }"
    )
    seen, missing = set(), []
    for _ in range(400):
        page.keyboard.press("Tab")
        f = page.evaluate(_FOCUSED)
        if not f["inArticle"]:
            break
        kind = f["what"].split(" ", 2)[:2]
        seen.add(" ".join(kind))
        ring = f["style"] not in ("none", "hidden") and f["width"] >= 2
        ring = ring and _contrast(f["color"], f["page"]) >= 3
        if not ring and f["shadow"] in ("none", ""):
            missing.append(f["what"])
    assert any('type="text"' in k for k in seen) and any('type="radio"' in k for k in seen), seen
    assert not missing, "no visible focus ring on:\n" + "\n".join(missing)


def test_inputs_labelled_by_math_have_names(course_page, base_url):
    """Day 4's checks: two number boxes labelled ∂L/∂a and ∂L/∂c, and choices that are math."""
    page = course_page
    page.goto(base_url + "lessons/day04_manual_backward/")
    page.wait_for_function("document.querySelector('.md-search[aria-label]') !== null")
    names = page.locator("form[data-question] input").evaluate_all(
        "els => els.map((el) => [el.type, el.getAttribute('aria-label')])"
    )
    assert ["text", "∂L/∂a"] in names and ["text", "∂L/∂c"] in names, names
    assert page.get_by_role("textbox", name="∂L/∂a", exact=True).count() == 1, names
    assert all(name and name.strip() for kind, name in names if kind == "radio"), names
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(_RUN_AXE, {"type": "rule", "values": ["label"]})
    assert not violations, "\n".join(violations)


# Every element of the page that scrolls sideways, and what keys can do with it.
_SIDEWAYS = """() => [...document.querySelectorAll("article *")]
  .filter((el) => /auto|scroll/.test(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
  .map((el) => ({ what: el.outerHTML.slice(0, 80), tab: el.tabIndex, role: el.getAttribute("role"),
                  name: el.getAttribute("aria-label") }))"""


@pytest.mark.parametrize(
    "path", ["lessons/day26_training_gpt/", "lessons/day22_attention/"]
)  # a wide formula; a wide table
def test_what_scrolls_sideways_on_a_phone_is_reached_and_scrolled_by_keys(
    course_page, base_url, path
):
    page = course_page
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(base_url + path)
    page.wait_for_function("document.querySelector('.md-search[aria-label]') !== null")
    page.evaluate(_TWO_FRAMES)
    wide = page.evaluate(_SIDEWAYS)
    assert wide, "nothing scrolls sideways at 390 px"
    for el in wide:
        assert el["tab"] == 0 and el["role"] and el["name"], el
    names = [el["name"] for el in wide]
    assert len(set(names)) == len(names), names  # each region has a name of its own
    # Reached by Tab from the element before it, then scrolled with the arrow key.
    target = page.locator("article [data-course-scroll]").first
    target.evaluate("el => el.scrollLeft = 0")
    target.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("el => el.scrollLeft > 0", arg=target.element_handle())
    # Wide again, it fits: it is no longer a stop for Tab.
    page.set_viewport_size({"width": 1600, "height": 800})
    page.evaluate(_TWO_FRAMES)
    assert all(el["tab"] == 0 for el in page.evaluate(_SIDEWAYS))


_PIXELS = """async (png) => {
  const img = new Image();
  img.src = "data:image/png;base64," + png;
  await img.decode();
  const canvas = Object.assign(document.createElement("canvas"), { width: img.width, height: img.height });
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, img.width, img.height).data;
  const pixels = [];
  for (let i = 0; i < data.length; i += 4 * 7) pixels.push([data[i], data[i + 1], data[i + 2]]);
  return pixels;
}"""


def test_a_figure_follows_the_dark_palette(course_page, base_url):
    """A figure drawn by engine/plot.py: on the page's background, with its text and lines
    readable, in both palettes."""
    page = course_page
    page.goto(base_url + PLAYGROUND)
    block = cell(page, 3)
    assert run(block) == "done"
    img = block.locator("[data-output] img")
    page.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=img.element_handle())
    for scheme in ("default", "slate"):
        _palette(page, scheme)
        shot = base64.b64encode(img.screenshot()).decode()
        pixels = [tuple(p) for p in page.evaluate(_PIXELS, shot)]
        background = Counter(pixels).most_common(1)[0][0]
        body = page.evaluate(
            "() => getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number)"
        )
        assert _contrast(background, body) < 1.5, (scheme, background, body)
        ink = max(_contrast(p, background) for p in pixels)  # text and axes
        assert ink >= 4.5, (scheme, ink)
        colours = [p for p in pixels if max(p) - min(p) > 60]  # the series' coloured line
        assert colours and max(_contrast(p, background) for p in colours) >= 3, scheme
