"""Write each lesson's Jupyter notebook from its page: one source, two forms.

    python -m tools.notebooks           # (re)write docs/notebooks/dayNN_slug.ipynb
    python -m tools.notebooks --check   # exit 1 and name the notebooks that are out of date

Run it from the repository root: the lessons are the course manifest's (course.py), one
notebook a day, named after the day's lesson.

A notebook holds the page's `pyodide` cells as code cells, in page order, and the
prose between them as Markdown cells. MkDocs-only syntax is turned into plain Markdown
a notebook shows well: an admonition becomes a quote with a bold title, a content tab
a bold heading, an exercise block a note that names the exercise file and its hints, a
question (a check for understanding) its text with the answer folded away, and
a graph-explorer or model-explorer block (they run only on the course site) a note that
says so. A link to another lesson page points to that lesson's notebook beside this one.
Notebooks are nbformat 4 with no outputs, written byte-for-byte reproducibly.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from pathlib import Path

import yaml

import course
import questions

ROOT = course.ROOT
LESSONS = course.LESSONS
NOTEBOOKS = course.DOCS / "notebooks"

_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)```(?P<name>[\w-]*)")
_ADMONITION = re.compile(r'^(?:!!!|\?\?\?\+?)\s+(?P<kind>[\w-]+)(?:\s+"(?P<title>[^"]*)")?\s*$')
_TAB = re.compile(r'^===\+?\s+"(?P<title>[^"]*)"\s*$')
_BADGE = re.compile(r'^<p class="day-badge">.*</p>\s*$')
# A Markdown link to a page of the site: [text](target.md) or [text](target.md#anchor).
_PAGE_LINK = re.compile(r"\]\((?P<target>[^()\s]+?\.md)(?P<anchor>#[^()\s]*)?\)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def split_page(text: str) -> tuple[dict, list[tuple[str, str]]]:
    """(front matter, [(kind, source), ...]) with kind "markdown" or "code", in page order."""
    meta, body = course.split_front_matter(text)
    lines = body.split("\n")
    cells: list[tuple[str, str]] = []
    prose: list[str] = []
    containers: list[tuple[int, bool]] = []  # (indent of the body, is it a quote?)

    def prefix() -> str:
        return "".join("> " for _, quote in containers if quote)

    def flush():
        while prose and not prose[0].strip(" >"):
            prose.pop(0)
        while prose and not prose[-1].strip(" >"):
            prose.pop()
        if prose:
            cells.append(("markdown", "\n".join(prose)))
        prose.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            prose.append(prefix().rstrip())
            i += 1
            continue
        while containers and _indent(line) < containers[-1][0]:
            containers.pop()
            prose.append(prefix().rstrip())  # a blank line ends the quote: no lazy continuation
        body_indent = containers[-1][0] if containers else 0
        stripped = line[body_indent:]
        fence = _FENCE_OPEN.match(line)
        if fence:
            indent = fence["indent"]
            end = i + 1
            while end < len(lines) and lines[end].rstrip() != indent + "```":
                end += 1
            body = textwrap.dedent("\n".join(lines[i + 1 : end]))
            # torch: Colab has it; elsewhere, pip install torch
            if fence["name"] in ("pyodide", "torch"):
                flush()
                cells.append(("code", body.rstrip("\n")))
            elif fence["name"] == "exercise":
                prose.extend(prefix() + s for s in _exercise_note(yaml.safe_load(body)).split("\n"))
            elif fence["name"] == "question":
                note = _question_note(questions.parse(body))
                prose.extend(prefix() + s for s in note.split("\n"))
            elif fence["name"] == "explorer":
                prose.extend(prefix() + s for s in _explorer_note(body.strip()).split("\n"))
            elif fence["name"] == "gpt-explorer":
                prose.extend(prefix() + s for s in _model_explorer_note(line).split("\n"))
            else:
                prose.extend(prefix() + s for s in [line.strip(), *body.split("\n"), "```"])
            i = end + 1
            continue
        adm = _ADMONITION.match(stripped)
        tab = _TAB.match(stripped)
        if adm or tab:
            title = tab["title"] if tab else adm["title"]
            if title is None:
                title = adm["kind"].capitalize()
            containers.append((_indent(line) + 4, bool(adm)))
            if title:
                prose.append(prefix() + f"**{title}**")
                prose.append(prefix().rstrip())
            i += 1
            continue
        if _BADGE.match(stripped):
            i += 1  # the title cell states the day and phase
            continue
        prose.append(prefix() + stripped)
        i += 1
    flush()
    return meta, cells


def _exercise_note(block: dict) -> str:
    name = block.get("file", "")
    note = [
        f"**Exercise.** Open `exercises/{name}` from the course repository, fill in the functions "
        "it marks, and check your work with",
        "",
        f"    python -m grader --exercise {name}",
    ]
    hints = block.get("hints") or []
    for n, hint in enumerate(hints, 1):
        note += [
            "",
            "<details>",
            f"<summary>Hint {n} of {len(hints)}</summary>",
            "",
            hint,
            "",
            "</details>",
        ]
    return "\n".join(note)


def _question_note(q: questions.Question) -> str:
    """A check for understanding: the question, its options, then its answer folded away."""
    note = [f"**Check yourself.** {q.ask}"]
    if q.choices:
        note += ["", *(f"- {text}" for text, _ in q.choices)]
        answer = next(text for text, right in q.choices if right)
    elif len(q.blanks) == 1:
        answer = q.blanks[0].written
    else:
        answer = "; ".join(f"{b.label} = {b.written}" for b in q.blanks)
    note += [
        "",
        "<details>",
        "<summary>Answer and why (answer first, then open)</summary>",
        "",
        f"**Answer:** {answer}",
        "",
        q.explain,
        "",
        "</details>",
    ]
    return "\n".join(note)


def _explorer_note(expression: str) -> str:
    return "\n".join(
        "> " + line
        for line in [
            "**Graph explorer.** On the course site, the lesson page shows the graph explorer here,",
            f"starting from `{expression}`: it draws the graph and steps through its forward and",
            "backward passes. It needs the site's JavaScript, so this notebook cannot show it: open",
            "the lesson page, or the site's *Graph explorer* page, and type the expression there.",
            "Here, `engine.graph.trace(L)` gives the same graph of a `Value` `L` as plain data:",
            "every node with its value and grad, every edge with its local derivative.",
        ]
    )


_FENCE_OPTION = re.compile(r'(?P<key>prefix|view)="(?P<value>[^"]*)"')
_VIEW_WORDS = {
    "embeddings": "the embeddings",
    "attention": "each head's attention",
    "residual": "the residual stream",
    "probs": "the next-symbol probabilities",
    "backward": "where the gradient of a name's loss goes",
    "training": "the model learning while a training cell runs",
    "forward": "the forward pass",
}


def _model_explorer_note(fence_line: str) -> str:
    options = {m["key"]: m["value"] for m in _FENCE_OPTION.finditer(fence_line)}
    words = [
        _VIEW_WORDS[w] for w in re.split(r"[\s,]+", options.get("view", "")) if w in _VIEW_WORDS
    ]
    shows = f" ({', '.join(words)})" if words else ""
    prefix = options.get("prefix", "emm")
    return "\n".join(
        "> " + line
        for line in [
            f"**Model explorer.** On the course site, the lesson page shows the microGPT explorer here{shows},",
            f"starting from the prefix `{prefix}`. It needs the site's JavaScript, so this notebook cannot",
            "show it: open the lesson page, or the site's *Model explorer* page. It works on the",
            "model trained in the site's own Python, never on one trained in this notebook.",
        ]
    )


def link_notebooks(markdown: str, page: str = "a lesson") -> str:
    """Point each link to a lesson page (`day17_bigrams.md`) at its notebook (`.ipynb`).

    A notebook is read beside the other notebooks (in docs/notebooks/ or a folder of
    downloads), where the `.md` pages are not. A link to any other page of the site has
    no notebook to go to, so it is refused rather than left broken.
    """
    lessons = {f"{day.slug}.md" for day in course.DAYS}

    def repl(m: re.Match) -> str:
        target = m["target"]
        if target not in lessons:
            raise ValueError(
                f"{page}: the link to {target} has no notebook to point to; link a lesson page "
                "(dayNN_slug.md) or write the page's full address"
            )
        return f"]({target[: -len('.md')]}.ipynb{m['anchor'] or ''})"

    return _PAGE_LINK.sub(repl, markdown)


def badge(meta: dict) -> str:
    """ "Phase 2 · Neural networks · Day 10 of 30" from a page's front matter."""
    return course.badge(meta["day"], meta["phase"])


def _source(text: str) -> list[str]:
    # nbformat stores a cell's text as lines that keep their newline, the last one without.
    return text.splitlines(keepends=True)


def notebook(page: Path) -> dict:
    """The notebook (a JSON-ready dict) of the lesson page at `page`."""
    meta, cells = split_page(page.read_text(encoding="utf-8"))
    for key in ("day", "title", "phase"):
        if key not in meta:
            raise ValueError(f"{page.name}: front matter needs `{key}:` to make its notebook")
    intro = f"*{badge(meta)}*\n\nThe runnable part of the lesson page, as a notebook. " + (
        "It needs the course's `engine` package: run it from the course repository "
        "(or `pip install` it there) and run the cells in order."
    )
    if cells and cells[0][0] == "markdown" and cells[0][1].startswith("# "):
        heading, _, rest = cells[0][1].partition("\n")
        cells[0] = ("markdown", f"{heading}\n\n{intro}\n{rest}")
    else:
        cells.insert(0, ("markdown", f"# {meta['title']}\n\n{intro}"))
    cells = [(k, link_notebooks(s, page.name) if k == "markdown" else s) for k, s in cells]
    out = []
    for n, (kind, text) in enumerate(cells):
        cell = {
            "cell_type": kind,
            "id": f"{page.stem[:5]}-{n:02d}",
            "metadata": {},
            "source": _source(text),
        }
        if kind == "code":
            cell["execution_count"] = None
            cell["outputs"] = []
        out.append(cell)
    return {
        "cells": out,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "course": {"day": meta["day"], "title": meta["title"], "phase": meta["phase"]},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def dumps(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def target(page: Path) -> Path:
    return NOTEBOOKS / f"{page.stem}.ipynb"


def pages() -> list[Path]:
    """Every day's lesson page, in day order."""
    return [course.DOCS / day.lesson for day in course.DAYS]


def stale() -> list[str]:
    """Names of notebooks that are missing, out of date, or left over from a removed page."""
    wanted = {target(p).name: dumps(notebook(p)) for p in pages()}
    bad = [
        n
        for n, text in wanted.items()
        if not (NOTEBOOKS / n).is_file() or (NOTEBOOKS / n).read_text(encoding="utf-8") != text
    ]
    bad += [p.name for p in NOTEBOOKS.glob("*.ipynb") if p.name not in wanted]
    return sorted(bad)


def write_all() -> list[Path]:
    NOTEBOOKS.mkdir(parents=True, exist_ok=True)
    written = []
    keep = set()
    for page in pages():
        path = target(page)
        keep.add(path.name)
        text = dumps(notebook(page))
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    for leftover in NOTEBOOKS.glob("*.ipynb"):
        if leftover.name not in keep:
            leftover.unlink()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only report notebooks out of date")
    args = parser.parse_args(argv)
    if args.check:
        bad = stale()
        for name in bad:
            print(f"docs/notebooks/{name} is out of date: run `nox -s notebooks`")
        return 1 if bad else 0
    written = write_all()
    print(
        f"{len(pages())} lessons, {len(written)} notebooks written to {NOTEBOOKS.relative_to(ROOT)}/"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
