"""Glossary tooltips from the keyboard: every `<abbr title>` can take focus.

The tooltips themselves are Material's (`content.tooltips`), shown on hover and on focus;
an `<abbr>` is not focusable by default, so this adds `tabindex="0"` to each one.
"""

import re

_ABBR = re.compile(r"<abbr(?![^>]*\btabindex=)(?=[^>]*\btitle=)")


def focusable_abbr(html: str) -> str:
    return _ABBR.sub('<abbr tabindex="0"', html)
