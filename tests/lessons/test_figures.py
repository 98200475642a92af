"""Every lesson figure reads in both palettes of the site, the light and the dark ("slate").

A figure's text and lines take the page's text colour (`currentColor`); accent colours stay.
A hard-coded black, grey or white vanishes on one of the two backgrounds, and so does a light
box drawn behind text that turns light in the dark palette.
"""

import re
import xml.etree.ElementTree as ET

import pytest

from .pages import lesson_paths, load

SVG = "{http://www.w3.org/2000/svg}"
SHAPES = {"rect", "circle", "ellipse", "polygon", "polyline", "path"}
NAMED = {"black": "#000000", "white": "#ffffff", "gray": "#808080", "grey": "#808080"}


def _figures():
    for path in lesson_paths():
        for n, m in enumerate(re.finditer(r"<svg\b.*?</svg>", load(path).text, re.S), 1):
            yield pytest.param(m[0], id=f"{path.stem}-{n}")


FIGURES = list(_figures())


def _rgb(value):
    """(r, g, b) of a hard-coded colour, or None for currentColor, none, var(...), url(...)."""
    value = NAMED.get(value.strip().lower(), value.strip().lower())
    if not value.startswith("#"):
        return None
    hex_ = value[1:] if len(value) > 4 else "".join(c * 2 for c in value[1:])
    return tuple(int(hex_[i : i + 2], 16) for i in (0, 2, 4))


def _neutral(rgb):
    return max(rgb) - min(rgb) < 30  # black, a grey or white: no hue to carry it


def _luminance(rgb):
    r, g, b = (c / 255 for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _paint(element, key):
    value = element.get(key)
    style = dict(
        (k.strip(), v.strip())
        for k, _, v in (d.partition(":") for d in element.get("style", "").split(";"))
        if k.strip()
    )
    return style.get(key, value)


def _walk(element, inherited, in_clip=False):
    """(element, tag, resolved paint properties, inside a clip path) for every element."""
    tag = element.tag.removeprefix(SVG)
    props = dict(inherited)
    for key in ("fill", "stroke", "fill-opacity"):
        if _paint(element, key) is not None:
            props[key] = _paint(element, key)
    in_clip = in_clip or tag == "clipPath"
    yield element, tag, props, in_clip
    for child in element:
        yield from _walk(child, props, in_clip)


def test_there_are_figures():
    assert len(FIGURES) >= 30


def test_the_check_catches_the_old_style():
    old = '<svg xmlns="http://www.w3.org/2000/svg"><text>x</text><rect fill="#fff"/></svg>'
    assert _problems(old) == [
        "text without a fill: default black",
        "rect: fill #fff is black, grey or white",
    ]
    light_box = (
        '<svg xmlns="http://www.w3.org/2000/svg" fill="currentColor"><rect fill="#fdf2d8"/></svg>'
    )
    assert _problems(light_box) == ["rect: a light fill #fdf2d8 under text that turns light"]
    grey_line = '<svg xmlns="http://www.w3.org/2000/svg"><line stroke="#333"/></svg>'
    assert _problems(grey_line) == ["line: stroke #333 is black, grey or white"]


def _problems(svg):
    root = ET.fromstring(svg)
    problems = []
    for element, tag, props, in_clip in _walk(root, {}):
        for key in ("fill", "stroke"):
            value = _paint(element, key)
            rgb = _rgb(value) if value else None
            if rgb and _neutral(rgb):
                problems.append(f"{tag}: {key} {value} is black, grey or white")
        if tag == "text" and "fill" not in props:
            problems.append("text without a fill: default black")
        if tag in SHAPES and not in_clip:
            fill = props.get("fill")
            rgb = _rgb(fill) if fill else None
            if fill is None:
                problems.append(f"{tag} without a fill: default black")
            elif rgb and not _neutral(rgb) and _luminance(rgb) > 0.75:
                if float(props.get("fill-opacity", "1")) >= 0.5:
                    problems.append(f"{tag}: a light fill {fill} under text that turns light")
    return problems


@pytest.mark.parametrize("svg", FIGURES)
def test_figure_reads_in_light_and_dark(svg):
    problems = sorted(set(_problems(svg)))
    assert not problems, "; ".join(problems)
