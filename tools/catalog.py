"""Babel's extraction of the words mkdocs.yml gives the navigation, and of the server's
templates (babel.cfg names both).

The section titles of mkdocs.yml's `nav` ("Home", "Reference") are the course's words too:
the build says them in each page's language (hooks/course_nav.py), so the catalog holds them.
"""

from __future__ import annotations

import yaml


class _Loader(yaml.SafeLoader):
    """mkdocs.yml's own tags (`!ENV`) read as plain values: only `nav` matters here."""


_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)


def _titles(item):
    if isinstance(item, dict):
        for key, value in item.items():
            yield key
            yield from _titles(value)
    elif isinstance(item, list):
        for value in item:
            yield from _titles(value)


def extract_nav(fileobj, keywords, comment_tags, options):
    """Babel extraction method: (line, funcname, message, comments) of each nav title."""
    text = fileobj.read().decode("utf-8")
    nav = (yaml.load(text, Loader=_Loader) or {}).get("nav") or []
    lines = text.splitlines()
    for title in dict.fromkeys(_titles(nav)):
        line = next((n for n, s in enumerate(lines, 1) if f"- {title}:" in s), 0)
        yield line, None, title, ["a title in mkdocs.yml's nav"]


def extract_jinja(fileobj, keywords, comment_tags, options):
    """Babel extraction method for the server's Jinja2 templates (jinja2.ext.babel_extract).

    A template's `{% trans %}` block is a call `gettext(message)` (`ngettext(singular,
    plural, n)` with a plural); the course's keywords take the language first (gettext:2,
    ngettext:2,3, translations.EXTRACT_KEYWORDS), so each call's messages are given an empty
    first argument here, and Babel reads them where it reads the Python calls'.
    """
    from jinja2.ext import babel_extract

    for line, funcname, messages, comments in babel_extract(
        fileobj, keywords, comment_tags, options
    ):
        if funcname in ("gettext", "ngettext"):
            messages = (None, *(messages if isinstance(messages, tuple) else (messages,)))
        yield line, funcname, messages, comments
