"""The custom superfences of the course's Markdown.

```pyodide            a runnable cell; optional: ```pyodide timeout="600" (seconds), and
                      my_engine="<part>: what it shows on the learner's engine" on a cell
                      whose output describes that part of the engine itself (a node count),
                      so it differs once the part is the learner's (engine/mine.py); the
                      page says so then
```exercise           an exercise block; the body is YAML:
    file: day05_add_mul.py
    hints:
      - first hint
      - second hint
```explorer           the graph explorer on an expression (hooks/explorer_fence.py)
```model-explorer     the model explorer (hooks/model_fence.py)
```question           a check for understanding (questions.py, hooks/question_fence.py)

The first two render plain HTML that reads fine without JavaScript (the code in a <pre>);
the browser runtime turns them into editors. An exercise block takes its code from
`exercises/<file>`, the one source of the learner's stub.
"""

from __future__ import annotations

import html
import logging
from pathlib import Path

import markdown
import yaml
from explorer_fence import explorer_fence
from model_fence import former_model_fence, model_fence
from pymdownx.superfences import SuperFencesException
from question_fence import question_fence

from engine.mine import PARTS

__all__ = ["custom_fences", "ExerciseError"]

MAX_TIMEOUT = 3600
# The parts a learner's own code can replace: a cell's my_engine="<part>: ..." names one.
MY_ENGINE_PARTS = frozenset(part.name for part in PARTS)

log = logging.getLogger("mkdocs.hooks.course_site")


class ExerciseError(SuperFencesException):
    """A broken `pyodide` or `exercise` block: the build stops and says where."""


def _code_block(source: str) -> str:
    return f'<pre class="course-source"><code class="language-python">{html.escape(source)}</code></pre>'


def validate_cell(language, inputs, options, attrs, md):
    """Accept `timeout="<seconds>"` and `my_engine="<why it differs>"` on a cell; anything
    else is a mistake."""
    for key, value in inputs.items():
        if key == "my_engine":
            part, _, what = value.partition(":")
            if part.strip() not in MY_ENGINE_PARTS or not what.strip():
                raise ExerciseError(
                    f'pyodide cell: my_engine="{value}" must be "<part>: <what the cell shows '
                    "on the learner's engine>\", with a part of engine/mine.py's PARTS: "
                    + ", ".join(sorted(MY_ENGINE_PARTS))
                )
            options["my_engine"] = what.strip()
            options["my_engine_part"] = part.strip()
            continue
        if key != "timeout":
            raise ExerciseError(
                f'pyodide cell: unknown option {key}="{value}"; the options are '
                'timeout="<seconds>" and my_engine="<what it shows on the learner\'s engine>"'
            )
        try:
            seconds = float(value)
        except ValueError:
            seconds = -1.0
        if not 0 < seconds <= MAX_TIMEOUT:
            raise ExerciseError(
                f'pyodide cell: timeout="{value}" must be a number of seconds in (0, {MAX_TIMEOUT}]'
            )
        options["timeout"] = str(seconds).removesuffix(".0")
    return True


def format_cell(source, language, class_name, options, md, **kwargs):
    timeout = options.get("timeout")
    data = f' data-timeout="{timeout}"' if timeout else ""
    if options.get("my_engine"):
        data += f' data-my-engine="{html.escape(options["my_engine"], quote=True)}"'
        data += f' data-my-engine-part="{html.escape(options["my_engine_part"], quote=True)}"'
    return f'<div class="course-cell" data-cell data-state="idle"{data}>{_code_block(source)}</div>'


def _parse_exercise(source: str) -> tuple[str, list[str]]:
    try:
        spec = yaml.safe_load(source)
    except yaml.YAMLError as exc:
        raise ExerciseError(f"exercise block: its body is not valid YAML ({exc})") from exc
    if not isinstance(spec, dict) or not isinstance(spec.get("file"), str):
        raise ExerciseError(
            "exercise block: write `file: dayNN_slug.py` (the file under exercises/)"
        )
    unknown = set(spec) - {"file", "hints"}
    if unknown:
        raise ExerciseError(
            f"exercise block: unknown keys {sorted(unknown)}; use `file:` and `hints:`"
        )
    hints = spec.get("hints") or []
    if not isinstance(hints, list) or not all(isinstance(h, str) for h in hints):
        raise ExerciseError("exercise block: `hints:` must be a list of strings")
    return spec["file"], hints


def _hint_html(text: str) -> str:
    return markdown.markdown(
        text,
        extensions=["pymdownx.arithmatex"],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )


def make_exercise_formatter(exercises_dir: Path):
    """A formatter reading exercise files from `exercises_dir`."""
    root = exercises_dir.resolve()

    def format_exercise(source, language, class_name, options, md, **kwargs):
        file, hints = _parse_exercise(source)
        path = (root / file).resolve()
        if root not in path.parents or path.suffix != ".py":
            raise ExerciseError(f"exercise block: {file!r} must be a .py file inside exercises/")
        if not path.is_file():
            # A warning, not a crash: `mkdocs build --strict` still fails on it, with this
            # message, while `mkdocs serve` shows the page with the gap marked.
            log.warning(
                "exercise block: exercises/%s does not exist; write it or fix the name", file
            )
            return (
                '<div class="admonition failure"><p class="admonition-title">Missing exercise</p>'
                f"<p>exercises/{html.escape(file)} does not exist yet.</p></div>"
            )
        code = path.read_text(encoding="utf-8")
        rel = path.relative_to(root).as_posix()
        items = "".join(f'<li class="course-exercise__hint">{_hint_html(h)}</li>' for h in hints)
        hint_list = f'<ol class="course-exercise__hintsrc" hidden>{items}</ol>' if items else ""
        return (
            f'<div class="course-exercise" data-exercise="{html.escape(rel)}" data-state="idle">'
            f"{_code_block(code)}{hint_list}</div>"
        )

    return format_exercise


def custom_fences(exercises_dir: Path) -> list[dict]:
    """The superfences `custom_fences` entries for this course."""
    return [
        {
            "name": "pyodide",
            "class": "course-cell",
            "format": format_cell,
            "validator": validate_cell,
        },
        {
            "name": "exercise",
            "class": "course-exercise",
            "format": make_exercise_formatter(exercises_dir),
        },
        explorer_fence(),
        model_fence(),
        former_model_fence(),
        question_fence(),
    ]
