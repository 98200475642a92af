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

A notebook runs wherever a learner opens it (Jupyter, JupyterLab, VS Code, Colab):

- **Setup cell.** Its first code cell makes `engine` importable: nothing to do when it
  already is (a clone with `pip install .`); otherwise it reads `notebooks/wheels.json` from
  the course site (the build writes it: the site paths of the engine wheel and of the public
  checks wheel, whose file names carry a version) and `%pip install`s both from there. The
  site's address is only known when the site is built (`SITE_URL`), while these files are
  committed and must stay the same for every build: so the cell holds the line
  `SITE = None`, and the build writes the notebooks it serves with that line set to its own
  address (`with_site_address`). A notebook opened from the repository (Colab) gets
  `published_url` from mkdocs.yml's `extra` when it is set; with no address it says how
  to install from a clone instead. No network, no address, plain `python`: a message,
  never a traceback. In a Russian or Estonian notebook the cell also makes an engine
  error's traceback end with its message in that language, as the lesson page's output
  does (`engine.errors.show_errors_in`; plain `python` keeps Python's own), and the engine
  writes what it writes itself (a gradcheck report's table) in it (`engine.words.set_language`).
- **My engine cell.** From day 6 on (a learner has a whole `Value` by then), the cell after
  the setup cell holds `MY_ENGINE = None`: set to a folder of the learner's exercise files
  (`"."` for the ones this notebook's exercise cells saved), it installs them as the engine
  (`engine.mine`) and prints which parts are the learner's; the cells after it then run on
  that engine. A file that cannot be used, or a folder that is not there, is a one-line
  message, never a traceback (`my_engine_cell`).
- **Exercise cells.** A page's exercise block becomes its note and hints, the exercise file
  itself as a cell to fill in (`%%writefile`: running it saves the file), and a check cell
  that runs the page's public checks on that file (`grader.notebook`, from the public
  checks wheel the setup cell installs).
- **PyTorch cells.** A page's ```torch block ("Check it against PyTorch", days 4, 7, 19
  and 25) becomes a cell that first tries `import torch`: where torch is missing it prints
  how to get it (Colab has it; elsewhere `%pip install torch`) and skips the block instead of
  stopping "Run all" with a ModuleNotFoundError before the exercise (`torch_cell`).
- **Open in Colab.** With `course_repository` (a public GitHub repository) set in
  mkdocs.yml's `extra`, the first cell links to the notebook in Colab; unset, no link.

Every cell added or changed here carries `metadata.course.cell` ("setup", "my-engine",
"exercise", "check" or "torch"): the page's own cells, as they are, carry none.
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
import translations
from tools.my_engine import FIRST_DAY as MY_ENGINE_FIRST_DAY
from translations import t

ROOT = course.ROOT
LESSONS = course.LESSONS
NOTEBOOKS = course.DOCS / "notebooks"
EXERCISES = ROOT / "exercises"
MKDOCS_YML = ROOT / "mkdocs.yml"
# Where the build puts the list of wheels a setup cell installs, relative to the site.
WHEELS_JSON = "notebooks/wheels.json"

_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)```(?P<name>[\w-]*)")
_ADMONITION = re.compile(r'^(?:!!!|\?\?\?\+?)\s+(?P<kind>[\w-]+)(?:\s+"(?P<title>[^"]*)")?\s*$')
_TAB = re.compile(r'^===\+?\s+"(?P<title>[^"]*)"\s*$')
_BADGE = re.compile(r'^<p class="day-badge">.*</p>\s*$')
# A Markdown link to a page of the site: [text](target.md) or [text](target.md#anchor).
_PAGE_LINK = re.compile(r"\]\((?P<target>[^()\s]+?\.md)(?P<anchor>#[^()\s]*)?\)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def split_page(text: str, lang: str = translations.DEFAULT) -> tuple[dict, list[tuple[str, str]]]:
    """(front matter, [(kind, source), ...]) in page order.

    kind is "markdown", "code", "torch" (a "Check it against PyTorch" block: its code), or
    "exercise" (its source is then the exercise's file name).
    """
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
            if fence["name"] in ("pyodide", "torch"):
                flush()
                kind = "code" if fence["name"] == "pyodide" else "torch"
                cells.append((kind, body.rstrip("\n")))
            elif fence["name"] == "exercise":
                block = yaml.safe_load(body)
                prose.extend(prefix() + s for s in _exercise_note(block, lang).split("\n"))
                flush()
                cells.append(("exercise", block.get("file", "")))
            elif fence["name"] == "question":
                note = _question_note(questions.parse(body), lang)
                prose.extend(prefix() + s for s in note.split("\n"))
            elif fence["name"] == "explorer":
                prose.extend(prefix() + s for s in _explorer_note(body.strip(), lang).split("\n"))
            elif fence["name"] == "model-explorer":
                prose.extend(prefix() + s for s in _model_explorer_note(line, lang).split("\n"))
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


def _exercise_note(block: dict, lang: str = translations.DEFAULT) -> str:
    name = block.get("file", "")
    note = [
        t(
            lang,
            "**Exercise.** The next cell is `exercises/{name}`: fill in the functions it marks "
            "and run it (it saves your code as `{name}` beside this notebook), then run the "
            "check cell after it, which runs the same checks as the lesson page's Check button. "
            "`%run {name}` runs the file's own demo. In the course repository, "
            "`python -m grader --exercise {name}` checks the file itself.",
            name=name,
        ),
    ]
    hints = block.get("hints") or []
    for n, hint in enumerate(hints, 1):
        note += [
            "",
            "<details>",
            "<summary>" + t(lang, "Hint {n} of {count}", n=n, count=len(hints)) + "</summary>",
            "",
            hint,
            "",
            "</details>",
        ]
    return "\n".join(note)


def _question_note(q: questions.Question, lang: str = translations.DEFAULT) -> str:
    """A check for understanding: the question, its options, then its answer folded away."""
    note = [t(lang, "**Check yourself.**") + f" {q.ask}"]
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
        "<summary>" + t(lang, "Answer and why (answer first, then open)") + "</summary>",
        "",
        t(lang, "**Answer:**") + f" {answer}",
        "",
        q.explain,
        "",
        "</details>",
    ]
    return "\n".join(note)


def _quote(text: str) -> str:
    return "\n".join("> " + line for line in textwrap.wrap(text, 92))


def _explorer_note(expression: str, lang: str = translations.DEFAULT) -> str:
    return _quote(
        t(
            lang,
            "**Graph explorer.** On the course site, the lesson page shows the graph explorer "
            "here, starting from `{expression}`: it draws the graph and steps through its "
            "forward and backward passes. It needs the site's JavaScript, so this notebook "
            "cannot show it: open the lesson page, or the site's *Graph explorer* page, and "
            "type the expression there. Here, `engine.graph.trace(L)` gives the same graph of "
            "a `Value` `L` as plain data: every node with its value and grad, every edge with "
            "its local derivative.",
            expression=expression,
        )
    )


_FENCE_OPTION = re.compile(r'(?P<key>prefix|view)="(?P<value>[^"]*)"')
_VIEW_WORDS = {
    "embeddings": translations._("the embeddings"),
    "attention": translations._("each head's attention"),
    "residual": translations._("the residual stream"),
    "probs": translations._("the next-symbol probabilities"),
    "backward": translations._("where the gradient of a name's loss goes"),
    "training": translations._("the model learning while a training cell runs"),
    "forward": translations._("the forward pass"),
}


def _model_explorer_note(fence_line: str, lang: str = translations.DEFAULT) -> str:
    options = {m["key"]: m["value"] for m in _FENCE_OPTION.finditer(fence_line)}
    words = [
        t(lang, _VIEW_WORDS[w])
        for w in re.split(r"[\s,]+", options.get("view", ""))
        if w in _VIEW_WORDS
    ]
    shows = f" ({', '.join(words)})" if words else ""
    prefix = options.get("prefix", "emm")
    return _quote(
        t(
            lang,
            "**Model explorer.** On the course site, the lesson page shows the model explorer "
            "here{shows}, starting from the prefix `{prefix}`. It needs the site's JavaScript, "
            "so this notebook cannot show it: open the lesson page, or the site's *Model "
            "explorer* page. It works on the model trained in the site's own Python, never on "
            "one trained in this notebook.",
            shows=shows,
            prefix=prefix,
        )
    )


def link_notebooks(markdown: str, page: str = "a lesson", lang: str = translations.DEFAULT) -> str:
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
        stem = target[: -len(".md")]
        if lang != translations.DEFAULT and (LESSONS / f"{stem}.{lang}.md").is_file():
            stem = f"{stem}.{lang}"  # that lesson's notebook in the same language
        return f"]({stem}.ipynb{m['anchor'] or ''})"

    return _PAGE_LINK.sub(repl, markdown)


def badge(meta: dict, lang: str = translations.DEFAULT) -> str:
    """ "Phase 2 · Neural networks · Day 10 of 30" from a page's front matter, in `lang`."""
    return course.COURSE.badge(meta["day"], meta["phase"], lang)


def _source(text: str) -> list[str]:
    # nbformat stores a cell's text as lines that keep their newline, the last one without.
    return text.splitlines(keepends=True)


class _ConfigLoader(yaml.SafeLoader):
    """Reads mkdocs.yml, whose `!ENV` values only MkDocs resolves (they are read as None)."""


_ConfigLoader.add_multi_constructor("!", lambda loader, suffix, node: None)


def settings(path: Path | None = None) -> dict:
    """The course's public addresses from mkdocs.yml's `extra` (None where not set).

    {"published_url": "https://.../" or None, "repository": "https://github.com/o/r" or None,
    "branch": "main"}.
    """
    config = yaml.load((path or MKDOCS_YML).read_text(encoding="utf-8"), Loader=_ConfigLoader)
    extra = (config or {}).get("extra") or {}
    published = extra.get("published_url") or None
    if published is not None and not re.fullmatch(r"https?://\S+/", published):
        raise ValueError(
            f"mkdocs.yml: extra.published_url is {published!r}; write the site's full address "
            "with its trailing slash, e.g. https://you.github.io/course/, or null"
        )
    repository = extra.get("course_repository") or None
    if repository is not None:
        repository = repository.rstrip("/").removesuffix(".git")
        if not _GITHUB.fullmatch(repository):
            raise ValueError(
                f"mkdocs.yml: extra.course_repository is {extra['course_repository']!r}; Colab "
                "opens notebooks from a public GitHub repository: write its address, e.g. "
                "https://github.com/you/course, or null"
            )
    return {
        "published_url": published,
        "repository": repository,
        "branch": str(extra.get("course_branch") or "main"),
    }


_GITHUB = re.compile(r"https://github\.com/[\w.-]+/[\w.-]+")


def colab_url(config: dict, name: str) -> str | None:
    """Colab's address of the committed notebook `name` ("day01_derivative.ipynb"), or None."""
    repository = config["repository"]
    if repository is None:
        return None
    path = repository.removeprefix("https://github.com/")
    return (
        f"https://colab.research.google.com/github/{path}/blob/{config['branch']}/"
        f"docs/notebooks/{name}"
    )


# The setup cell's one line that names the course site; the build rewrites its value.
_SITE_LINE = re.compile(r"^SITE = (?P<value>.*?)(?P<comment>  #.*)?$", re.M)


def setup_cell(config: dict, lang: str = translations.DEFAULT) -> str:
    """The first code cell: make `engine` importable (and the public checks), or say how."""
    site = config["published_url"]
    clone = config["repository"] or "<the course repository>"
    no_address = t(
        lang,
        "This notebook does not know the course site's address: download it from the course "
        "site, or install from a clone of the course and run this cell again:",
    )
    no_address += f"\n    git clone {clone} course\n    %pip install ./course"
    nothing_to_do = t(lang, "engine is importable: nothing to set up.")
    installed = t(lang, "engine is installed.")
    not_installed = t(lang, "engine did not install: see pip's message above.")
    return "\n".join(
        [
            "# "
            + t(
                lang,
                "Setup: makes the course's `engine` importable (Jupyter, JupyterLab, VS Code, Colab).",
            ),
            f"SITE = {site!r}  # "
            + t(lang, "the course site's address (the notebook downloaded from the site has it)"),
            "import importlib.util, json, urllib.request",
            "",
            'if importlib.util.find_spec("engine"):',
            f"    print({nothing_to_do!r})",
            "elif SITE is None:",
            f"    print({no_address!r})",
            "else:",
            "    try:  # "
            + t(lang, "the site lists its wheels (their file names carry a version)"),
            f"        with urllib.request.urlopen(SITE + {WHEELS_JSON!r}, timeout=30) as answer:",
            '            wheels = " ".join(SITE + path for path in json.load(answer).values())',
            "    except (OSError, ValueError) as exc:",
            "        print("
            + repr(
                t(
                    lang,
                    "Could not reach the course site at {site} ({error}): connect to the "
                    "network, then run this cell again.",
                )
            )
            + ".format(site=SITE, error=exc))",
            "    else:",
            '        if "get_ipython" in globals():  # Jupyter, JupyterLab, VS Code, Colab',
            '            get_ipython().run_line_magic("pip", f"install --quiet --no-index {wheels}")',
            "            importlib.invalidate_caches()  # "
            + t(lang, "importable now: no restart needed"),
            f'            print({installed!r} if importlib.util.find_spec("engine") else',
            f"                  {not_installed!r})",
            "        else:",
            "            print("
            + repr(t(lang, "Outside Jupyter, install them with:"))
            + ' + "\\n    python -m pip install " + wheels)',
            *([] if lang == translations.DEFAULT else _errors_in(lang)),
        ]
    )


def _errors_in(lang: str) -> list[str]:
    """The setup cell's last lines in a translation's notebook: the engine's errors end their
    traceback in its language, as the lesson page's do (engine.errors.show_errors_in), and
    what the engine writes itself is in it too (engine.words.set_language)."""
    return [
        "",
        'if "get_ipython" in globals() and importlib.util.find_spec("engine"):',
        "    try:  # "
        + t(
            lang,
            "the engine's error messages in this notebook's language (an older engine says "
            "them in English)",
        ),
        "        from engine.errors import show_errors_in",
        f"        show_errors_in({lang!r}, get_ipython())",
        "    except ImportError:",
        "        pass",
        'if importlib.util.find_spec("engine"):',
        "    try:  # "
        + t(
            lang,
            "a gradcheck report's table in this notebook's language (an older engine writes it "
            "in English)",
        ),
        "        from engine.words import set_language",
        f"        set_language({lang!r})",
        "    except ImportError:",
        "        pass",
    ]


def my_engine_cell(lang: str = translations.DEFAULT) -> str:
    """The cell that runs the notebook on the learner's own exercise files (days 6 on).

    `MY_ENGINE = None` leaves the course engine (and turns a learner's engine off again);
    a folder installs its day*.py files with `engine.mine.install` and prints the line that
    says which parts are the learner's. Every way it can go wrong is one printed line."""
    about = t(
        lang,
        "My engine (optional): run the cells below on your own exercise files instead of the "
        "course's engine. Set MY_ENGINE to a folder that holds all of them (day08_more_ops.py, "
        "...): files whose check cells pass (a file is used once it runs, checked or not). In "
        "Colab, upload them first. Your engine is slower than the course's, so training cells "
        "take longer.",
    )
    said = {
        "off": t(lang, "My engine is off: the cells below run on the course engine again."),
        "nowhere": t(
            lang,
            "My engine: there is no folder {folder} (looked in {here}): set MY_ENGINE to the "
            "folder of your exercise files (day08_more_ops.py, ...), or to None.",
        ),
        "empty": t(
            lang,
            "My engine: the folder {folder} has no exercise files (day08_more_ops.py, ...): set "
            "MY_ENGINE to the folder that holds them, or to None.",
        ),
        "import": t(lang, "My engine needs the course's engine: run the setup cell above first."),
        "unread": t(
            lang, "My engine could not read your files ({error}): check them and run this again."
        ),
        "refused": t(lang, "My engine is not on: {error}"),
        "on": t(
            lang,
            "Run the cells below: they use your engine now (each check cell still grades on the "
            "course engine).",
        ),
    }
    lines = ["# " + line for line in textwrap.wrap(about, 94)]
    lines += [
        "MY_ENGINE = None  # " + t(lang, 'or "path/to/your/exercises"'),
        "import sys",
        "from pathlib import Path",
        "",
        "if MY_ENGINE is None:",
        '    if "engine.mine" in sys.modules and sys.modules["engine.mine"].installed():',
        '        sys.modules["engine.mine"].uninstall()',
        f"        print({said['off']!r})",
        "else:",
        "    folder = Path(MY_ENGINE).expanduser()",
        '    files = sorted(folder.glob("day*.py")) if folder.is_dir() else []',
        "    if not folder.is_dir():",
        f"        print({said['nowhere']!r}.format(folder=repr(MY_ENGINE), here=Path.cwd()))",
        "    elif not files:",
        f"        print({said['empty']!r}.format(folder=repr(MY_ENGINE)))",
        "    else:",
        "        try:",
        "            from engine import mine",
        '            sources = {f.name: f.read_text(encoding="utf-8") for f in files}',
        "        except ImportError:",
        f"            print({said['import']!r})",
        "        except (OSError, UnicodeError) as error:",
        f"            print({said['unread']!r}.format(error=error))",
        "        else:",
        "            try:",
        *(
            ['                print(mine.install(sources)["line"])']
            if lang == translations.DEFAULT
            else [
                f'                print(mine.parts_line(mine.install(sources)["parts"], {lang!r}))'
            ]
        ),
        "            except mine.MyEngineError as error:",
        f"                print({said['refused']!r}.format(error=error))"
        if lang == translations.DEFAULT
        else f"                print({said['refused']!r}.format(error=mine.message_in(error, {lang!r})))",
        "            else:",
        f"                print({said['on']!r})",
    ]
    return "\n".join(lines)


def with_site_address(text: str, site_url: str) -> str:
    """A notebook's JSON text with its setup cell set to install from `site_url`."""
    nb = json.loads(text)
    cells = [
        c for c in nb["cells"] if c.get("metadata", {}).get("course", {}).get("cell") == "setup"
    ]
    if len(cells) != 1:
        raise ValueError("a lesson notebook has exactly one setup cell; regenerate the notebooks")
    source = "".join(cells[0]["source"])
    new, count = _SITE_LINE.subn(
        lambda m: f"SITE = {site_url!r}{m['comment'] or ''}", source, count=1
    )
    if count != 1:
        raise ValueError("the setup cell has no `SITE = ...` line; regenerate the notebooks")
    cells[0]["source"] = _source(new)
    return dumps(nb)


# What a PyTorch cell prints where torch is not installed.
TORCH_MISSING = translations._(
    "PyTorch is not installed here, so this optional check is skipped. Colab has it; in your "
    "own Jupyter, run `%pip install torch` in a cell (or `pip install torch` in a terminal), "
    "then run this cell again."
)


def torch_cell(code: str, lang: str = translations.DEFAULT) -> str:
    """A "Check it against PyTorch" block as a notebook cell that skips itself without torch.

    The block runs unchanged, one level in, once `import torch` has worked (its own first
    line, `import torch`, is that import); where torch is missing the cell prints
    TORCH_MISSING and ends without an error, so "Run all" goes on.
    """
    if code.startswith("import torch\n"):
        code = code.removeprefix("import torch\n").lstrip("\n")
    missing = textwrap.wrap(t(lang, TORCH_MISSING), 70, drop_whitespace=False)
    return (
        "# "
        + t(
            lang,
            "Check it against PyTorch (optional): Colab has torch; elsewhere, %pip install torch",
        )
        + "\ntry:\n"
        "    import torch\n"
        "except ImportError:\n"
        "    print(\n" + "".join(f"        {line!r}\n" for line in missing) + "    )\n"
        "else:\n" + textwrap.indent(code, "    ")
    )


def exercise_cells(name: str, lang: str = translations.DEFAULT) -> list[tuple[str, str]]:
    """The exercise file as a cell to fill in, and the cell that checks it like the page (in
    the notebook's language: a translation's check cell names it)."""
    path = EXERCISES / name
    if not name or not path.is_file():
        raise ValueError(f"an exercise block names exercises/{name}, which does not exist")
    # Saved as a file, not run: the file's `__main__` demo stops at the first function still
    # to write, and "Run all" would stop with it (grader/notebook.py says more).
    stub = f"%%writefile {name}\n" + path.read_text(encoding="utf-8").rstrip("\n")
    said = "" if lang == translations.DEFAULT else f', lang="{lang}"'
    check = f'from grader.notebook import check\n\ncheck("{name}"{said})'
    return [("exercise", stub), ("check", check)]


def notebook(page: Path, config: dict | None = None) -> dict:
    """The notebook (a JSON-ready dict) of the lesson page at `page`."""
    config = settings() if config is None else config
    lang = language_of(page)
    meta, cells = split_page(page.read_text(encoding="utf-8"), lang)
    for key in ("day", "title", "phase"):
        if key not in meta:
            raise ValueError(f"{page.name}: front matter needs `{key}:` to make its notebook")
    intro = f"*{badge(meta, lang)}*\n\n" + t(
        lang,
        "The runnable part of the lesson page, as a notebook. Run the setup cell below first "
        "(it installs the course's `engine` package where it is missing), then run the cells "
        "in order.",
    )
    if meta["day"] >= MY_ENGINE_FIRST_DAY:
        intro += " " + t(
            lang,
            "To run them on your own exercise files instead of the course's engine (optional, "
            "and slower), set `MY_ENGINE` in the cell after the setup cell to their folder.",
        )
    colab = colab_url(config, target(page).name)
    if colab:
        intro += "\n\n[" + t(lang, "Open in Colab") + f"]({colab})"
    if cells and cells[0][0] == "markdown" and cells[0][1].startswith("# "):
        heading, _, rest = cells[0][1].partition("\n")
        cells[0] = ("markdown", f"{heading}\n\n{intro}\n{rest}")
    else:
        cells.insert(0, ("markdown", f"# {meta['title']}\n\n{intro}"))
    cells.insert(1, ("setup", setup_cell(config, lang)))
    if meta["day"] >= MY_ENGINE_FIRST_DAY:
        cells.insert(2, ("my-engine", my_engine_cell(lang)))
    expanded = []
    for kind, text in cells:
        if kind == "markdown":
            expanded.append((kind, link_notebooks(text, page.name, lang)))
        elif kind == "exercise":
            expanded.extend(exercise_cells(text, lang))
        elif kind == "torch":
            expanded.append((kind, torch_cell(text, lang)))
        else:
            expanded.append((kind, text))
    out = []
    for n, (kind, text) in enumerate(expanded):
        cell = {
            "cell_type": "markdown" if kind == "markdown" else "code",
            "id": f"{page.stem[:5]}-{n:02d}",  # the same in every language: cells pair up
            "metadata": {} if kind in ("markdown", "code") else {"course": {"cell": kind}},
            "source": _source(text),
        }
        if kind != "markdown":
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
    """Every day's lesson page, in day order, then each translation that exists."""
    english = [course.DOCS / day.lesson for day in course.DAYS]
    translated = [
        p.with_name(f"{p.stem}.{lang}.md")
        for lang in translations.LANGUAGES[1:]
        for p in english
        if p.with_name(f"{p.stem}.{lang}.md").is_file()
    ]
    return english + translated


def language_of(page: Path) -> str:
    """A lesson page's language: its name's ("day04_x.ru.md"), English without one."""
    suffix = Path(page.stem).suffix.lstrip(".")
    return suffix if suffix in translations.LANGUAGES else translations.DEFAULT


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
        f"{len(pages())} lesson pages, {len(written)} notebooks written to {NOTEBOOKS.relative_to(ROOT)}/"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
