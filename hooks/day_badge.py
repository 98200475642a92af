"""Every lesson page shows its phase and "Day N of 30", read from its front matter.

A page may type the badge line itself (`<p class="day-badge">…</p>`) so its Markdown reads
well on its own; this hook replaces it with the one computed from `day:` and `phase:`, so
the badge can never disagree with the front matter, and adds the page's `# title` when
the page has no heading of its own.
"""

import re

PHASES = {1: "Foundations", 2: "Neural networks", 3: "Language models"}
TOTAL_DAYS = 30

_TYPED_BADGE = re.compile(r'^[ \t]*<p class="day-badge">.*?</p>[ \t]*\n?', re.M)
_H1 = re.compile(r"^# \S", re.M)


def badge_text(meta):
    day, phase = meta["day"], meta["phase"]
    if phase not in PHASES:
        raise ValueError(f"front matter phase must be 1, 2 or 3, got {phase!r}")
    return f"Phase {phase} · {PHASES[phase]} · Day {day} of {TOTAL_DAYS}"


def badge_html(meta):
    return (
        f'<p class="day-badge" data-day="{meta["day"]}" data-phase="{meta["phase"]}">'
        f"{badge_text(meta)}</p>"
    )


def on_page_markdown(markdown, page, config, files):
    meta = page.meta
    if "day" not in meta or not page.file.src_uri.startswith("lessons/"):
        return markdown
    if "phase" not in meta:
        raise ValueError(f"{page.file.src_uri}: front matter has `day:` but no `phase:`")
    body = _TYPED_BADGE.sub("", markdown, count=1).lstrip("\n")
    head = badge_html(meta) + "\n\n"
    if not _H1.search(body):
        head += f"# {meta.get('title') or page.title}\n\n"
    return head + body
