"""Babel's extraction of the words mkdocs.yml gives the navigation, of the server's
templates and of the grader's case names (babel.cfg names them).

The section titles of mkdocs.yml's `nav` ("Home", "Reference") are the course's words too:
the build says them in each page's language (hooks/course_nav.py), so the catalog holds them.
"""

from __future__ import annotations

import ast
import io

import yaml
from babel.messages.extract import extract_python


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


def _case_names(tree):
    """(line, name) of each case name written as a literal in a check module: the second
    argument of `case(kind, name, ...)` and the argument of `named(name)`."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        position = {"case": 1, "named": 0}.get(node.func.id)
        if position is None or len(node.args) <= position:
            continue
        arg = node.args[position]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            yield arg.lineno, arg.value


def extract_checks(fileobj, keywords, comment_tags, options):
    """Babel extraction method for the grader's check modules: their messages, as Babel's
    Python extractor finds them, and the names of their cases. A name is an id (the case
    dict, the results keep it in English) that the reports show in the reader's language
    (grader/messages.py, `case_name`). It is read from the syntax tree: a check module's
    `case` is also the name of a dict (`case["kind"]`), which a keyword `case` would read
    as calls."""
    source = fileobj.read()
    yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)
    for line, name in _case_names(ast.parse(source)):
        yield line, None, name, ["a case's name, shown in the grader's reports"]
