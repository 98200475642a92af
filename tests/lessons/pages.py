"""Read lesson pages the way the site does: front matter, runnable cells, exercise blocks.

Lesson tests use these helpers to run a page's cells and to check that every number the
page states is what the code computes (`assert_states`).
"""

import hashlib
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import day_badge
import yaml

import course

ROOT = course.ROOT
LESSONS = course.LESSONS

# A fence may sit indented inside an admonition or a content tab; the closing fence
# has the same indentation as the opening one.
_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```(?P<name>pyodide|exercise|torch)\b[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.S | re.M,
)


@dataclass
class Lesson:
    path: Path
    meta: dict
    text: str

    @property
    def slug(self):
        return self.path.stem

    @property
    def badge(self):
        """The badge the build puts on the page (hooks/day_badge.py, from the front matter)."""
        return day_badge.badge_text(self.meta)

    @property
    def cells(self):
        """The source of each `pyodide` cell, in page order."""
        return [body for name, body in self._fences() if name == "pyodide"]

    @property
    def notebook_cells(self):
        """The code cells of the day's notebook: the `pyodide` cells and the `torch` blocks
        (which the browser cannot run; a notebook can, with torch installed), in page order."""
        return [body for _, body in self.notebook_fences]

    @property
    def notebook_fences(self):
        """(fence name, body) of each `pyodide` cell and `torch` block, in page order."""
        return [(name, body) for name, body in self._fences() if name in ("pyodide", "torch")]

    @property
    def exercises(self):
        """The parsed YAML of each `exercise` block."""
        return [yaml.safe_load(body) for name, body in self._fences() if name == "exercise"]

    def _fences(self):
        for m in _FENCE.finditer(self.text):
            yield m["name"], textwrap.dedent(m["body"])

    def run_cells(self):
        """Run every cell in one namespace, as the page does; return the namespace."""
        namespace = {"__name__": "__lesson__"}
        for i, source in enumerate(self.cells, 1):
            code = compile(source, f"{self.slug} cell {i}", "exec")
            exec(code, namespace)
        RAN.add(self._cells_key())
        return namespace

    def ran_in_this_session(self):
        """Whether these very cells already ran to the end in this test process (a lesson
        test's fixture runs them; running the training cells again would only cost time)."""
        return self._cells_key() in RAN

    def _cells_key(self):
        return (self.slug, hashlib.sha256("\0".join(self.cells).encode()).hexdigest())


# (slug, digest of the cells) of every page whose cells ran to the end in this process
RAN = set()


def lesson_paths():
    """Every day's lesson page, in day order (the course manifest's days)."""
    return [course.DOCS / day.lesson for day in course.DAYS]


def load(path):
    path = Path(path)
    meta, text = course.split_front_matter(path.read_text(encoding="utf-8"))
    return Lesson(path, meta, text)


def lesson(slug):
    """The lesson `docs/lessons/<slug>.md`, e.g. lesson("day01_derivative")."""
    return load(LESSONS / f"{slug}.md")


def _normalise(text):
    # Pages may write minus signs as U+2212 and group digits with commas or thin spaces.
    return text.replace("\u2212", "-").replace("\u2009", "").replace("\u202f", "")


def assert_states(page, number, text=None):
    """Assert that the lesson's text states `number` as `text` (default: str(number)).

    The test computes `number` itself; `text` is how the page writes it, e.g.
    assert_states(page, L.data, "-7.286496") checks both that the code gives -7.286496
    (to the digits shown) and that the page says so.
    """
    shown = text if text is not None else str(number)
    value = float(_normalise(shown).replace(",", ""))
    digits = _normalise(shown).split(".")[1] if "." in shown else ""
    tolerance = 0.5 * 10 ** -len(digits) if digits else 0.5
    assert abs(number - value) <= tolerance, f"code gives {number}, the page says {shown}"
    body = _normalise(page.text)
    assert _normalise(shown) in body, f"{page.slug} does not state {shown!r}"
