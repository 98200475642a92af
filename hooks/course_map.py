"""The course map: `<!-- course-map -->` in a page becomes the table of phases and days.

Titles, phases and time estimates come from each lesson's front matter, so they are
typed once. Each day carries `data-exercise="<slug>.py"`; the browser marks the days whose
exercise is done (web/progress.js reads the runtime's saved flags).
"""

import posixpath
import re

import yaml

PHASES = {1: "Foundations", 2: "Neural networks", 3: "Language models"}
PLACEHOLDER = "<!-- course-map -->"
_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)
_LESSON = re.compile(r"^lessons/day\d\d_[a-z0-9_]+\.md$")


def lessons(files):
    """[(front matter, File)] of every lesson page, in day order."""
    found = []
    for f in files.documentation_pages():
        if not _LESSON.match(f.src_uri):
            continue
        m = _FRONT_MATTER.match(f.content_string)
        meta = (yaml.safe_load(m[1]) if m else None) or {}
        for key in ("day", "title", "phase", "time"):
            if key not in meta:
                raise ValueError(f"{f.src_uri}: front matter needs `{key}:` for the course map")
        found.append((meta, f))
    return sorted(found, key=lambda item: item[0]["day"])


def _minutes(total):
    hours, minutes = divmod(int(total), 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def render(entries, page_uri):
    here = posixpath.dirname(page_uri)
    total = sum(meta["time"] for meta, _ in entries)
    out = [
        f"{len(entries)} days, about {_minutes(total)} of reading, running and exercises. "
        '<span class="course-map__progress" data-total="' + str(len(entries)) + '"></span>',
        "",
    ]
    for phase, name in PHASES.items():
        days = [(m, f) for m, f in entries if m["phase"] == phase]
        if not days:
            continue
        first, last = days[0][0]["day"], days[-1][0]["day"]
        minutes = sum(m["time"] for m, _ in days)
        out += [
            f"## Phase {phase} · {name}",
            "",
            f"Days {first}–{last} · about {_minutes(minutes)}",
            "",
            "| Day | Lesson | Time | Exercise |",
            "|---:|---|---:|:---:|",
        ]
        for meta, f in days:
            link = posixpath.relpath(f.src_uri, here or ".")
            slug = posixpath.splitext(posixpath.basename(f.src_uri))[0]
            title = str(meta["title"]).replace("|", "\\|")
            out.append(
                f"| {meta['day']} | [{title}]({link}) | {meta['time']} min | "
                f'<span class="course-done" data-exercise="{slug}.py" title="not done yet">○</span> |'
            )
        out.append("")
    return "\n".join(out)


def on_page_markdown(markdown, page, config, files):
    if PLACEHOLDER not in markdown:
        return markdown
    return markdown.replace(PLACEHOLDER, render(lessons(files), page.file.src_uri))
