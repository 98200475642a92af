"""Every lesson page shows its phase and "Day N of <days>", read from its front matter.

A page may type the badge line itself (`<p class="day-badge">…</p>`) so its Markdown reads
well on its own; `add_badge` replaces it with the one computed from `day:` and `phase:`, so
the badge can never disagree with the front matter, and adds the page's `# title` when
the page has no heading of its own. The phases' names and the number of days come from
the course manifest (course.py): the plugin (hooks/plugin.py) passes the course as this
build reads it; without one, the course as imported.
"""

from __future__ import annotations

import re

import course

_TYPED_BADGE = re.compile(r'^[ \t]*<p class="day-badge">.*?</p>[ \t]*\n?', re.M)
_H1 = re.compile(r"^# \S", re.M)


def badge_text(meta, manifest: course.Course | None = None, lang: str = "en") -> str:
    return (manifest or course.COURSE).badge(meta["day"], meta["phase"], lang)


def badge_html(meta, manifest: course.Course | None = None, lang: str = "en") -> str:
    return (
        f'<p class="day-badge" data-day="{meta["day"]}" data-phase="{meta["phase"]}">'
        f"{badge_text(meta, manifest, lang)}</p>"
    )


def add_badge(markdown: str, page, manifest: course.Course | None = None, lang: str = "en") -> str:
    """A lesson page's Markdown with its badge (and title) on top; any other page as it is."""
    meta = page.meta
    if "day" not in meta or not page.file.src_uri.startswith("lessons/"):
        return markdown
    if "phase" not in meta:
        raise ValueError(f"{page.file.src_uri}: front matter has `day:` but no `phase:`")
    body = _TYPED_BADGE.sub("", markdown, count=1).lstrip("\n")
    head = badge_html(meta, manifest, lang) + "\n\n"
    if not _H1.search(body):
        head += f"# {meta.get('title') or page.title}\n\n"
    return head + body
