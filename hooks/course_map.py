"""The course map: `<!-- course-map -->` in a page becomes the table of phases and days.

Titles and phases are the lessons' front matter and time estimates are derived from the
pages, both by the course manifest (course.py), so nothing is typed twice. Each day carries
`data-exercise="<slug>.py"` and the ids of its questions (`data-questions`, read from the
lesson's `question` blocks); the browser marks the days whose exercise is done and counts
the questions answered right (web/progress.js reads the runtime's saved flags and answers).

Below the progress line, an empty `course-transfer` block gets the buttons "Export my work" and
"Import my work" (web/transferui.js); it carries the course's version (pyproject.toml's), which
an exported file records beside the storage version.
"""

import html
import posixpath
import tomllib
from pathlib import Path

from languages import source_uri

import course
import questions
import translations
from translations import t

PLACEHOLDER = "<!-- course-map -->"


def lessons(files, days=None):
    """[(front matter and the day's estimated "minutes", File)] of every lesson page, in day order (`days`: the manifest's)."""
    found = []
    for day in course.DAYS if days is None else days:
        f = files.get_file_from_path(day.lesson)
        if f is None:
            raise ValueError(f"{day.lesson} is a day of the course but not a page of the site")
        found.append(({**day.meta, "minutes": day.minutes}, f))
    return found


def _minutes(total, lang=translations.DEFAULT):
    hours, minutes = divmod(int(total), 60)
    if hours:
        return t(lang, "{hours} h {minutes:02d} min", hours=hours, minutes=minutes)
    return t(lang, "{minutes} min", minutes=minutes)


def _source(f):
    return Path(f.abs_src_path).read_text(encoding="utf-8")


def course_version(root=course.ROOT):
    """The course's version, as pyproject.toml gives it ("0.1.0")."""
    with open(Path(root) / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["version"]


def render(entries, page_uri, version="", lang=translations.DEFAULT, titles=None):
    """The map's Markdown in `lang`; `titles`: {day: its title in `lang`} (English without)."""
    total = sum(meta["minutes"] for meta, _ in entries)
    titles = titles or {}
    out = [
        translations.ngettext(
            lang,
            "{days} day, about {time} of reading, running and exercises.",
            "{days} days, about {time} of reading, running and exercises.",
            len(entries),
        ).format(days=len(entries), time=_minutes(total, lang))
        + " "
        '<span class="course-map__progress" data-total="' + str(len(entries)) + '"></span>',
        "",
        f'<div class="course-transfer" data-course-version="{html.escape(version)}"></div>',
        "",
    ]
    for phase in course.PHASES:
        days = [(m, f) for m, f in entries if m["phase"] == phase]
        if not days:
            continue
        first, last = days[0][0]["day"], days[-1][0]["day"]
        minutes = sum(m["minutes"] for m, _ in days)
        out += [
            f"## {course.phase_title(phase, lang)}",
            "",
            t(
                lang,
                "Days {first}–{last} · about {time}",
                first=first,
                last=last,
                time=_minutes(minutes, lang),
            ),
            "",
            '<div class="course-map" markdown>',
            "",
            "| {} | {} | {} | {} | {} |".format(
                t(lang, "Day"),
                t(lang, "Lesson"),
                t(lang, "Time"),
                t(lang, "Exercise"),
                t(lang, "Questions"),
            ),
            "|---:|---|---:|:---:|:---:|",
        ]
        for meta, f in days:
            uri = source_uri(f.src_uri)  # progress is kept under the English page's name
            link = posixpath.relpath(uri, posixpath.dirname(source_uri(page_uri)) or ".")
            slug = posixpath.splitext(posixpath.basename(uri))[0]
            title = str(titles.get(meta["day"], meta["title"])).replace("|", "\\|")
            asked = questions.find(_source(f), f.src_uri)
            ids = " ".join(q.id for q in asked)
            page = posixpath.splitext(uri)[0]
            not_done = html.escape(t(lang, "not done yet"))
            time = t(lang, "{minutes} min", minutes=meta["minutes"])
            out.append(
                f"| {meta['day']} | [{title}]({link}) | {time} | "
                f'<span class="course-done" data-exercise="{slug}.py" title="{not_done}">○</span> | '
                f'<span class="course-answers" data-page="{page}" data-questions="{ids}">{len(asked)}</span> |'
            )
        out += ["", "</div>", ""]
    return "\n".join(out)


def add_map(
    markdown: str, page, files, manifest: course.Course | None = None, lang=translations.DEFAULT
) -> str:
    """The page's Markdown with its placeholder made the course map (`manifest`: the course
    as this build reads it, from the plugin; None: as imported), in `lang`."""
    if PLACEHOLDER not in markdown:
        return markdown
    manifest = manifest or course.COURSE
    titles = {d.day: manifest.title(d, lang) for d in manifest.days}
    table = render(lessons(files, manifest.days), page.file.src_uri, course_version(), lang, titles)
    return markdown.replace(PLACEHOLDER, table)
