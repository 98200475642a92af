"""The `model-explorer` fence: the model explorer (web/model/) in a page.

    ```model-explorer
    ```

    ```model-explorer prefix="emm" view="probs"
    ```

Options (both optional):
    prefix  the letters the explorer starts from (a-z; BOS and the prefix must fit in the
            model's block of positions); default "emm"
    view    which views to show, separated by commas: embeddings, attention, residual,
            probs, backward, training; "forward" is the first four, "all" (the default)
            every one; "no-sampling" leaves the temperature slider and Sample out of probs
            (for a page before day 27, which introduces them); "filters" adds the top-k and
            top-p sliders beside the temperature (for day 40 on, which introduces them)

The block has no body. It renders a box the page's runtime fills in (its numbers come from
`explorer.model` in the page's Python), with a sentence for readers without JavaScript.
The fence's former name, `gpt-explorer`, stops the build with a message that gives the new one.
"""

from __future__ import annotations

import html
import re

from pymdownx.superfences import SuperFencesException

from engine.gpt import GPTConfig

__all__ = [
    "FENCE",
    "ModelExplorerError",
    "VIEWS",
    "format_model_explorer",
    "former_model_fence",
    "model_fence",
]

FENCE = "model-explorer"  # the fence's name; also the page's data-model-explorer attribute
FORMER = "gpt-explorer"  # its name until the model explorer had one name everywhere

VIEWS = ("embeddings", "attention", "residual", "probs", "backward", "training")
GROUPS = {"all": VIEWS, "forward": VIEWS[:4]}
NO_SAMPLING = "no-sampling"  # a word of `view` that is no view: probs without T and Sample
FILTERS = "filters"  # another: the top-k and top-p sliders beside the temperature
DEFAULT_PREFIX = "emm"
# BOS takes the first position, so the prefix gets the rest of the block.
LONGEST_PREFIX = GPTConfig().block_size - 1
_HELP = f'write ```{FENCE} prefix="emm" view="probs,attention"'


class ModelExplorerError(SuperFencesException):
    """A broken `model-explorer` block: the build stops and says why."""


def _prefix(text: str) -> str:
    if not re.fullmatch(r"[a-z]*", text):
        bad = next(ch for ch in text if not "a" <= ch <= "z")
        raise ModelExplorerError(
            f"{FENCE} block: prefix={text!r}: only the letters a-z, and {bad!r} is not one"
        )
    if len(text) > LONGEST_PREFIX:
        raise ModelExplorerError(
            f"{FENCE} block: prefix={text!r} has {len(text)} letters; the model reads at "
            f"most {LONGEST_PREFIX} after BOS"
        )
    return text


def _views(text: str) -> str:
    words = [w for w in re.split(r"[\s,]+", text) if w]
    words_only = (NO_SAMPLING, FILTERS)
    unknown = [w for w in words if w not in VIEWS and w not in GROUPS and w not in words_only]
    if unknown or not [w for w in words if w not in words_only]:
        raise ModelExplorerError(
            f"{FENCE} block: view={text!r}: choose from {', '.join((*GROUPS, *VIEWS))}, "
            f"separated by commas (and {NO_SAMPLING} to leave out the temperature and Sample, "
            f"or {FILTERS} to add the top-k and top-p sliders)"
        )
    if NO_SAMPLING in words and FILTERS in words:
        raise ModelExplorerError(
            f"{FENCE} block: view={text!r}: {FILTERS} adds sliders beside the temperature, "
            f"which {NO_SAMPLING} leaves out: keep one of the two"
        )
    return ",".join(words)


def validate_model_explorer(language, inputs, options, attrs, md):
    """Accept `prefix="..."` and `view="..."`; anything else is a mistake."""
    for key, value in inputs.items():
        if key == "prefix":
            options["prefix"] = _prefix(value)
        elif key == "view":
            options["view"] = _views(value)
        else:
            raise ModelExplorerError(
                f"{FENCE} block: unknown option {key!r}; the options are prefix and view ({_HELP})"
            )
    return True


def format_model_explorer(source, language, class_name, options, md, **kwargs):
    if source.strip():
        raise ModelExplorerError(
            f"{FENCE} block: it takes no body, only options ({_HELP}, then ``` on the next line)"
        )
    prefix = (options or {}).get("prefix", DEFAULT_PREFIX)
    views = (options or {}).get("view", "all")
    return (
        f'<div class="course-{FENCE}" data-{FENCE} data-prefix="{html.escape(prefix)}"'
        f' data-views="{html.escape(views)}">'
        '<p class="gm-fallback">The model explorer shows here, computed by Python in this '
        "page: it needs JavaScript to run.</p></div>"
    )


def model_fence() -> dict:
    """The superfences `custom_fences` entry."""
    return {
        "name": FENCE,
        "class": f"course-{FENCE}",
        "format": format_model_explorer,
        "validator": validate_model_explorer,
    }


def _former(language, inputs, options, attrs, md):
    raise ModelExplorerError(
        f"the {FORMER} fence is now called {FENCE}: write ```{FENCE} with the same options"
    )


def former_model_fence() -> dict:
    """The fence's former name: a block that still uses it stops the build and says why."""
    return {
        "name": FORMER,
        "class": f"course-{FENCE}",
        "format": format_model_explorer,
        "validator": _former,
    }
