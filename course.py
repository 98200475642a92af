"""The course manifest: which days the course has, read from the lessons' front matter.

A day is described once, at the top of its lesson page `docs/lessons/dayNN_slug.md`:

    ---
    day: 12                 # the NN of the file name
    title: "The loss"
    phase: 2                # a key of PHASES
    ---

A day's time estimate is not typed: `estimate_minutes` derives it from the page and its
exercise with one rule (below), so it follows the page when the page changes.

Everything else is derived from here: the lessons' part of the navigation
(hooks/course_nav.py), the day badge (hooks/day_badge.py), the course map
(hooks/course_map.py), the notebooks (tools/notebooks.py) and the tests' lists of days.

    import course

    course.DAYS             # (Day(day=1, slug="day01_derivative", ...), ...) in day order
    course.TOTAL_DAYS       # how many days the course has
    course.PHASES           # {1: "Foundations", ...}: the phases' names, here and nowhere else
    course.badge(12, 2)     # "Phase 2 · Neural networks · Day 12 of <TOTAL_DAYS>"
    course.EXERCISES        # ("day01_derivative.py", ...): the days with an exercise file

The grader does not import this module: it also runs from a Gradescope zip that has no
docs/, so its EXERCISES are the check modules it finds (grader/checks/__init__.py), and
tests/grader/test_exercises.py holds the two lists equal.

The site's hooks call `load(config.docs_dir)` on every build, so `mkdocs serve` sees a
page whose front matter changed; the module-level names are the course as imported.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

import translations
from translations import _

ROOT = Path(__file__).resolve().parent
DOCS = ROOT / "docs"
LESSONS = DOCS / "lessons"

PHASES = {
    1: _("Foundations"),
    2: _("Neural networks"),
    3: _("Language models"),
    4: _("Toward nanoGPT"),
}

# The one front-matter pattern: a page opens with a `---` line, YAML, and a `---` line.
FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)
# A lesson's file name: "day" and the day in two digits, then the slug's words.
LESSON_NAME = re.compile(r"day(?P<day>[0-9]{2})_[a-z0-9_]+\.md")
KEYS = ("day", "title", "phase")
# A page's translation: the English page's name with the language before ".md".
TRANSLATION = re.compile(r"\.[a-z]{2}\.md$")

# The time rule, in minutes. A learner reads technical prose with formulas at about 120 words
# a minute, reads, runs and changes a cell at about 15 seconds per line of code, answers a
# check for understanding in about 3 minutes, and spends about 10 minutes on each function
# the exercise asks for (write it, check it, read the feedback, fix it) plus 5 to open it.
# A learner's walk through day 7 took 70 to 90 minutes; this rule gives it 90.
WORDS_PER_MINUTE = 120
MINUTES_PER_CODE_LINE = 0.25
MINUTES_PER_QUESTION = 3
MINUTES_PER_FUNCTION = 10
MINUTES_PER_EXERCISE = 5
FENCE = re.compile(r"^(```+)(\S*)[^\n]*\n(.*?)^\1[ \t]*$", re.S | re.M)
WORD = re.compile(r"[^\W_]+")


class ManifestError(ValueError):
    """A lesson page that cannot take its place in the course; the message says why."""


def split_front_matter(text: str) -> tuple[dict, str]:
    """(front matter as a dict, the rest of the page); ({}, text) for a page without one."""
    m = FRONT_MATTER.match(text)
    if not m:
        return {}, text
    meta = yaml.safe_load(m[1]) or {}
    if not isinstance(meta, dict):
        raise ManifestError(f"front matter must be a YAML mapping (key: value lines), got {meta!r}")
    return meta, text[m.end() :]


def estimate_minutes(page: str, exercise: str = "") -> int:
    """A day's minutes from its page (without front matter) and its exercise stub's source,
    by the time rule above, rounded up to 5."""
    code_lines = questions = 0
    prose = page
    for block in FENCE.finditer(page):
        kind, body = block[2], block[3]
        if kind == "pyodide":
            code_lines += sum(1 for line in body.splitlines() if line.strip())
        elif kind == "question":
            questions += 1
        prose = prose.replace(block[0], " ")
    prose = re.sub(r"<svg.*?</svg>", " ", prose, flags=re.S)
    words = len(WORD.findall(prose))
    functions = exercise.count("raise NotImplementedError")
    minutes = (
        words / WORDS_PER_MINUTE
        + code_lines * MINUTES_PER_CODE_LINE
        + questions * MINUTES_PER_QUESTION
        + (functions * MINUTES_PER_FUNCTION + MINUTES_PER_EXERCISE if functions else 0)
    )
    return max(5, 5 * math.ceil(minutes / 5))


def phase_title(phase: int, lang: str = translations.DEFAULT) -> str:
    """ "Phase 2 · Neural networks": a section of the navigation and of the course map."""
    if phase not in PHASES:
        *most, last = PHASES
        choices = f"{', '.join(map(str, most))} or {last}" if most else str(last)
        raise ManifestError(f"front matter phase must be {choices}, got {phase!r}")
    name = translations.gettext(lang, PHASES[phase])
    return translations.gettext(lang, "Phase {phase} · {name}").format(phase=phase, name=name)


def badge_text(day: int, phase: int, total: int, lang: str = translations.DEFAULT) -> str:
    """ "Phase 2 · Neural networks · Day 12 of 30": the badge on a lesson and its notebook."""
    of_total = translations.gettext(lang, "Day {day} of {total}").format(day=day, total=total)
    return f"{phase_title(phase, lang)} · {of_total}"


def day_title(day: int, title: str, lang: str = translations.DEFAULT) -> str:
    """ "Day 12 · The loss": a lesson's name in the navigation."""
    return translations.gettext(lang, "Day {day} · {title}").format(day=day, title=title)


@dataclass(frozen=True)
class Day:
    """One day of the course, as its lesson's front matter describes it."""

    day: int
    slug: str  # the lesson's file stem, "day12_loss": every file of the day is named after it
    title: str
    phase: int
    minutes: int
    meta: dict = field(default_factory=dict, compare=False, repr=False)  # all the front matter

    @property
    def phase_name(self) -> str:
        return PHASES[self.phase]

    @property
    def lesson(self) -> str:
        """The page's path inside docs/ (MkDocs' src_uri): "lessons/day12_loss.md"."""
        return f"lessons/{self.slug}.md"

    @property
    def exercise(self) -> str:
        """The exercise's file name, in exercises/, solutions/, grader/checks/ and grader/runners/."""
        return f"{self.slug}.py"

    @property
    def notebook(self) -> str:
        """The notebook's file name in docs/notebooks/ (written by tools/notebooks.py)."""
        return f"{self.slug}.ipynb"


def read_day(path: Path) -> Day:
    """The day that the lesson page at `path` describes; ManifestError says what is wrong."""
    path = Path(path)
    where = f"docs/lessons/{path.name}"
    name = LESSON_NAME.fullmatch(path.name)
    if not name:
        raise ManifestError(f"{where}: a lesson is named dayNN_slug.md (slug: a-z, 0-9 and _)")
    try:
        meta, body = split_front_matter(path.read_text(encoding="utf-8"))
    except (ManifestError, yaml.YAMLError) as exc:
        raise ManifestError(f"{where}: {exc}") from exc
    missing = [f"`{key}:`" for key in KEYS if key not in meta]
    if missing:
        raise ManifestError(f"{where}: front matter needs {', '.join(missing)}")
    if meta["day"] != int(name["day"]):
        raise ManifestError(
            f"{where}: front matter says day {meta['day']!r}, the file name says {int(name['day'])}"
        )
    try:
        phase_title(meta["phase"])
    except ManifestError as exc:
        raise ManifestError(f"{where}: {exc}") from None
    if "time" in meta:
        raise ManifestError(
            f"{where}: front matter `time:` is not typed any more: the course map derives a "
            "day's minutes from its page (course.estimate_minutes); remove the line"
        )
    exercise = path.parent.parent.parent / "exercises" / f"{path.stem}.py"
    return Day(
        day=meta["day"],
        slug=path.stem,
        title=str(meta["title"]),
        phase=meta["phase"],
        minutes=estimate_minutes(
            body, exercise.read_text(encoding="utf-8") if exercise.is_file() else ""
        ),
        meta=meta,
    )


@dataclass(frozen=True)
class Course:
    """Every day of the course, in order, from the lessons in `docs_dir`/lessons/."""

    docs_dir: Path
    days: tuple[Day, ...]

    @property
    def total(self) -> int:
        return len(self.days)

    @property
    def root(self) -> Path:
        """The repository: the folder that holds docs/, exercises/ and grader/."""
        return self.docs_dir.parent

    def badge(self, day: int, phase: int, lang: str = translations.DEFAULT) -> str:
        return badge_text(day, phase, self.total, lang)

    def title(self, day: Day, lang: str = translations.DEFAULT) -> str:
        """The day's title in `lang`: its translation's front matter, English while it has none."""
        page = self.docs_dir / "lessons" / f"{day.slug}.{lang}.md"
        if lang == translations.DEFAULT or not page.is_file():
            return day.title
        meta, _ = split_front_matter(page.read_text(encoding="utf-8"))
        return str(meta.get("title") or day.title)

    def phases(self) -> list[tuple[int, str, tuple[Day, ...]]]:
        """[(phase, its name, its days)] in order, for the phases that have a day."""
        out = []
        for phase, name in PHASES.items():
            days = tuple(d for d in self.days if d.phase == phase)
            if days:
                out.append((phase, name, days))
        return out

    @property
    def exercises(self) -> tuple[str, ...]:
        """The exercise file names of the days that have one (exercises/dayNN_slug.py)."""
        return tuple(
            d.exercise for d in self.days if (self.root / "exercises" / d.exercise).is_file()
        )


def load(docs_dir: Path | str = DOCS) -> Course:
    """Read every lesson's front matter afresh; ManifestError says which page is wrong."""
    docs_dir = Path(docs_dir)
    lessons = docs_dir / "lessons"
    if not lessons.is_dir():
        raise ManifestError(f"no lessons: {lessons} is not a folder")
    # The English pages: a translation (day12_loss.ru.md) is the same day in another language.
    pages = [p for p in lessons.glob("day*.md") if not TRANSLATION.search(p.name)]
    days = sorted(map(read_day, pages), key=lambda d: d.day)
    numbers = [d.day for d in days]
    if numbers != list(range(1, len(days) + 1)):
        repeated = sorted({n for n in numbers if numbers.count(n) > 1})
        missing = sorted(set(range(1, max(numbers, default=0) + 1)) - set(numbers))
        problems = [f"missing {missing}"] if missing else []
        problems += [f"repeated {repeated}"] if repeated else []
        raise ManifestError(
            "the lessons' days must run 1, 2, 3, ... with none missing or repeated: "
            + "; ".join(problems)
        )
    for before, after in zip(days, days[1:]):
        if after.phase < before.phase:
            raise ManifestError(
                f"docs/lessons/{after.slug}.md: day {after.day} is in phase {after.phase}, "
                f"but day {before.day} before it is in phase {before.phase}: phases run in day order"
            )
    return Course(docs_dir, tuple(days))


def badge(day: int, phase: int) -> str:
    """The badge of day `day` in phase `phase`, out of this course's TOTAL_DAYS."""
    return COURSE.badge(day, phase)


COURSE = load()
DAYS = COURSE.days
TOTAL_DAYS = COURSE.total
EXERCISES = COURSE.exercises
