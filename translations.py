"""The course's words in the reader's language: English, Russian and Estonian.

One gettext catalog (domain `course`) holds every message the Python side shows a reader: the
site's build (navigation, badges, the notebook line, the course map) and, through it, the
pages; and the grader's feedback (grader/messages.py reads the same compiled files, in the
repository, the Gradescope zip and the site's grader wheel). Its files, under locales/:

    locales/course.pot                    the messages, extracted from the code by Babel
    locales/<lang>/LC_MESSAGES/course.po  a language's translations (edited by hand)
    locales/<lang>/LC_MESSAGES/course.mo  the same, compiled (what gettext reads)

`nox -s translations` extracts, updates and compiles them (pybabel); tests/i18n/ fails when a
message has no translation, a placeholder differs, or a compiled catalog is older than its
source. English is the messages themselves: it needs no catalog.
"""

from __future__ import annotations

import gettext as _gettext
from functools import cache
from pathlib import Path

# The language the environment asks for: the grader's (it runs where this file may not be).
from grader.messages import from_environment  # noqa: F401

ROOT = Path(__file__).resolve().parent
LOCALES = ROOT / "locales"
DOMAIN = "course"
DEFAULT = "en"
LANGUAGES = ("en", "ru", "et")  # the default first; the site builds one copy of the course each
# Babel's keywords for the calls that say a message: gettext(lang, message), ngettext(lang,
# singular, plural, n), the hooks' t(lang, message, **values), and the grader's
# msg(message, **values) (grader/messages.py: a message kept as data until it is shown).
EXTRACT_KEYWORDS = ("-k", "gettext:2", "-k", "ngettext:2,3", "-k", "t:2", "-k", "msg")


def check_language(lang: str) -> str:
    """`lang` if the course speaks it, else ValueError naming the ones it does."""
    if lang not in LANGUAGES:
        raise ValueError(f"the course speaks {', '.join(LANGUAGES)}, not {lang!r}")
    return lang


@cache
def catalog(lang: str) -> _gettext.NullTranslations:
    """The translations into `lang` (English: the messages as written)."""
    if check_language(lang) == DEFAULT:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALES, languages=[lang])


def gettext(lang: str, message: str) -> str:
    return catalog(lang).gettext(message)


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    return catalog(lang).ngettext(singular, plural, n)


def t(lang: str, message: str, **values) -> str:
    """`message` in `lang`, its {placeholders} filled (the one call most code needs)."""
    text = gettext(lang, message)
    return text.format(**values) if values else text


def _(message: str) -> str:
    """Marks a message for extraction (Babel's default keyword); the caller translates it."""
    return message
