"""The lessons' part of the navigation, built from the course manifest (course.py).

mkdocs.yml's `nav` holds one placeholder entry where the lessons go:

    nav:
      - Home: index.md
      - lessons/*.md
      - Instructors: ...

On every build (the plugin's `on_config`, before MkDocs turns `nav` into pages) the placeholder becomes
one section a phase, "Phase 1 · Foundations" and so on, each listing its days in day order,
all read from the lessons' front matter. A new lesson needs no line in mkdocs.yml, and a
lesson cannot sit in the wrong phase or out of order. The build stops with a clear message
when the placeholder is missing or repeated, when mkdocs.yml lists a lesson by hand, or
when a lesson's front matter is wrong.

The course plugin (hooks/plugin.py) reads the manifest first, so a missing one is the first
error the build shows. MkDocs must run from the repository root as `python -m mkdocs` (as
`nox -s docs` and the tests do), which puts the root, and so course.py, on the import path.
"""

from __future__ import annotations

try:
    import course
except ModuleNotFoundError as exc:  # pragma: no cover - depends on how mkdocs is started
    raise ModuleNotFoundError(
        "the site's hooks read the course manifest, course.py at the repository root: run "
        "`python -m mkdocs build` from the repository root (nox -s docs does), not the "
        "`mkdocs` script, which leaves the root off the import path"
    ) from exc

from mkdocs.exceptions import PluginError

import translations

PLACEHOLDER = "lessons/*.md"


def lesson_sections(manifest: course.Course, lang: str = translations.DEFAULT) -> list[dict]:
    """[{"Phase 1 · Foundations": [{"Day 1 · The derivative": "lessons/day01_....md"}, ...]},
    ...] in day order, in `lang`: the navigation names each lesson with its day."""
    return [
        {
            course.phase_title(phase, lang): [
                {course.day_title(d.day, manifest.title(d, lang), lang): d.lesson} for d in days
            ]
        }
        for phase, _, days in manifest.phases()
    ]


def _translated(item, lang: str):
    """A nav entry with the titles mkdocs.yml gives in English said in `lang` (the catalog's
    messages include them: tools/catalog.py extracts them from mkdocs.yml)."""
    if isinstance(item, dict):
        return {translations.gettext(lang, k): _translated(v, lang) for k, v in item.items()}
    if isinstance(item, list):
        return [_translated(v, lang) for v in item]
    return item


def _pages(item):
    """Every page path an entry of `nav` names, however deep."""
    if isinstance(item, str):
        yield item
    elif isinstance(item, dict):
        for value in item.values():
            yield from _pages(value)
    elif isinstance(item, list):
        for value in item:
            yield from _pages(value)


def expand(nav: list | None, manifest: course.Course, lang: str = translations.DEFAULT) -> list:
    """`nav` with its placeholder replaced by the lesson sections, in `lang`; PluginError if it
    cannot be."""
    if not nav or sum(item == PLACEHOLDER for item in nav) != 1:
        raise PluginError(
            f"mkdocs.yml: the nav must hold the entry `- {PLACEHOLDER}` once, at its top level, "
            "where the lessons go (hooks/course_nav.py builds that part from the lessons' front "
            "matter)"
        )
    by_hand = [p for item in nav if item != PLACEHOLDER for p in _pages(item)]
    by_hand = [p for p in by_hand if p.lstrip("/").startswith("lessons/")]
    if by_hand:
        raise PluginError(
            f"mkdocs.yml: the nav lists {', '.join(by_hand)} by hand; the lessons' part of the "
            f"nav is built from their front matter where `- {PLACEHOLDER}` stands: remove it"
        )
    out = []
    for item in nav:
        out.extend(
            lesson_sections(manifest, lang) if item == PLACEHOLDER else [_translated(item, lang)]
        )
    return out


def load(docs_dir) -> course.Course:
    """The course manifest as the lessons in `docs_dir` make it; PluginError when one is wrong."""
    try:
        return course.load(docs_dir)
    except course.ManifestError as exc:
        raise PluginError(str(exc)) from exc
