"""The page's table of contents shows a heading's math as plain text.

A heading such as "two steps on $L = w^2$" is typeset by KaTeX on the page, but the
contents list beside it is built from the heading's text, where the math is TeX source
("\\(L = w^2\\)", or "$L = w^2$" on a notebook's page). `plain_toc` writes that math the way one would type it: "L = w²".
"""

from __future__ import annotations

import re

# \( ... \) on a lesson page (arithmatex), $ ... $ on a notebook's page (mkdocs-jupyter).
_INLINE = re.compile(r"\\\((.*?)\\\)|\$(.+?)\$")
_SYMBOLS = {
    r"\cdot": "·",
    r"\times": "×",
    r"\eta": "η",
    r"\sigma": "σ",
    r"\theta": "θ",
    r"\partial": "∂",
    r"\nabla": "∇",
    r"\sum": "Σ",
    r"\to": "→",
    r"\top": "ᵀ",
    r"\log": "log",
    r"\exp": "exp",
}
_SUPERSCRIPTS = str.maketrans("0123456789+-n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ⁿ")


def plain_math(tex: str) -> str:
    """TeX of a short formula as plain text: L = w^2 → L = w², \\eta = 0.1 → η = 0.1."""
    for command, text in _SYMBOLS.items():
        tex = re.sub(re.escape(command) + r"(?![A-Za-z])", text, tex)
    tex = re.sub(
        r"\^\{([0-9+\-n]+)\}|\^([0-9n])", lambda m: (m[1] or m[2]).translate(_SUPERSCRIPTS), tex
    )
    tex = re.sub(r"\\[A-Za-z]+\s*", "", tex)  # any other command: its name goes
    return tex.replace("{", "").replace("}", "").replace("\\", "")


def plain_title(title: str) -> str:
    return _INLINE.sub(lambda m: plain_math(m[1] if m[1] is not None else m[2]), title)


def plain_toc(items) -> None:
    """Every heading of a page's table of contents (and its children) with plain-text math."""
    for item in items:
        item.title = plain_title(item.title)
        plain_toc(item.children)
