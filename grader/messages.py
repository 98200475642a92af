"""The grader's words in the reader's language (English, Russian, Estonian).

A message is data until it is shown: the checks write `msg("a = {a}, b = {b}", a=a, b=b)`,
a `Message` that travels as JSON ({"msg": id, "values": {...}}) into the page's public
cases, and `render(message, lang)` turns it into text once, where a reader sees it (the
verdict, the report, the page's Check). Numbers stay values, so a message's id is the same
for every case; a case's inputs are written as Python writes them (exactly, as the
f-strings they replace did), the verdict's received and expected numbers with `fmt`.

The translations are the course's gettext catalog (domain `course`, translations.py):
Babel extracts `msg(...)` calls with the rest of the course (`nox -s translations`). This
module needs the stdlib alone and runs in the browser: it reads the compiled catalogs from
`locales/` beside the package (the site's grader wheel) or beside the grader's folder (the
repository, the Gradescope zip).
"""

import gettext
import math
import os
import string
import sys
from functools import cache
from pathlib import Path

__all__ = [
    "LANGUAGES",
    "DEFAULT",
    "from_environment",
    "Message",
    "msg",
    "fmt",
    "render",
    "render_data",
    "to_data",
    "case_name",
]

DOMAIN = "course"
DEFAULT = "en"
LANGUAGES = ("en", "ru", "et")  # translations.LANGUAGES (tests/i18n/test_grader_catalog.py)
_HERE = Path(__file__).resolve().parent
LOCALE_DIRS = (_HERE / "locales", _HERE.parent / "locales")
_FORMATTER = string.Formatter()


class Message:
    """A message to show: its English text (the gettext id) and the values of its {fields}."""

    __slots__ = ("id", "values")

    def __init__(self, id, values=None):
        self.id, self.values = id, dict(values or {})

    def __eq__(self, other):
        return isinstance(other, Message) and (self.id, self.values) == (other.id, other.values)

    def __repr__(self):
        return f"msg({self.id!r}, **{self.values!r})"


def msg(message, /, **values):
    """Mark `message` for translation (Babel's keyword `msg`); `values` fill its {fields}."""
    return Message(message, values)


def fmt(x):
    """A number as a learner reads it: short floats as Python prints them, others to 6 digits."""
    if isinstance(x, float) and not math.isfinite(x):
        return repr(x)
    text = repr(float(x))
    return text if len(text) <= 10 else f"{x:.6g}"


def from_environment(environ=None):
    """The language the environment asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext
    reads them), if the course speaks it; English otherwise."""
    environ = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if not value:
            continue
        # LANGUAGE may list several ("et:ru"); the others name one locale ("ru_RU.UTF-8")
        for entry in value.split(":") if name == "LANGUAGE" else [value]:
            lang = entry.split("_")[0].split(".")[0].split("@")[0].lower()
            if lang in LANGUAGES:
                return lang
        if name != "LANGUAGE":
            break  # gettext reads the first of the others that is set
    return DEFAULT


@cache
def catalog(lang):
    """The translations into `lang` (English, or a language without a catalog or with one that
    cannot be read: none, the latter said on stderr)."""
    if lang not in LANGUAGES:
        raise ValueError(f"the grader speaks {', '.join(LANGUAGES)}, not {lang!r}")
    if lang == DEFAULT:
        return gettext.NullTranslations()
    for folder in LOCALE_DIRS:
        found = gettext.find(DOMAIN, str(folder), languages=[lang])
        if found:
            try:
                with open(found, "rb") as f:
                    return gettext.GNUTranslations(f)
            except Exception as exc:  # unreadable, truncated, not a catalog: say so, in English
                print(f"grader: {found} cannot be read ({exc!r}): English", file=sys.stderr)
                break
    return gettext.NullTranslations()


def _fields(text):
    """The {fields} of `text` with their conversions and format specs, in order."""
    return [
        (name, conversion or "", spec)
        for _, name, spec, conversion in _FORMATTER.parse(text)
        if name is not None
    ]


@cache
def _same_fields(english, translated):
    """Whether `translated` fills exactly the fields of `english`, as `english` does."""
    try:
        return sorted(_fields(translated)) == sorted(_fields(english))
    except ValueError:  # an unmatched brace
        return False


def _value(value, lang):
    """A value as it fills a field: a message rendered, a list of them joined by commas."""
    if isinstance(value, list):
        return ", ".join(_value(v, lang) for v in value)
    return render(value, lang) if isinstance(value, Message) else str(value)


def render(text, lang=DEFAULT):
    """`text` in `lang`: a Message translated and filled; a plain string (learner text, or
    a check not yet written with `msg`) as it is."""
    if isinstance(text, dict) and "msg" in text:
        text = from_data(text)
    if not isinstance(text, Message):
        return text
    translated = catalog(lang).gettext(text.id)
    if translated != text.id and not _same_fields(text.id, translated):
        translated = text.id  # a translation that would pad, or fill other fields: English
    if not text.values:
        return translated
    return translated.format(**{k: _value(v, lang) for k, v in text.values.items()})


def case_name(name, lang=DEFAULT):
    """A case's name as the reader reads it, in `lang`. The name itself is an id (the case
    dict, the results, the pytest ids keep it in English); the catalog holds each name
    (extracted from `case(kind, name)` and `named(name)`, grader/checks/cases.py)."""
    if not name or not isinstance(name, str):
        return name
    return catalog(lang).gettext(name)


def to_data(value):
    """`value` with every Message in it as JSON data ({"msg": id, "values": {...}})."""
    if isinstance(value, Message):
        return {"msg": value.id, "values": {k: to_data(v) for k, v in value.values.items()}}
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    if isinstance(value, dict):
        return {k: to_data(v) for k, v in value.items()}
    return value


def from_data(value):
    """The reverse of to_data: every {"msg": ..., "values": ...} a Message again."""
    if isinstance(value, dict):
        if set(value) == {"msg", "values"}:
            return Message(value["msg"], {k: from_data(v) for k, v in value["values"].items()})
        return {k: from_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_data(v) for v in value]
    return value


def render_data(value, lang=DEFAULT):
    """`value` (data or JSON data) with every message in it rendered in `lang`."""
    value = from_data(value)
    if isinstance(value, Message):
        return render(value, lang)
    if isinstance(value, (list, tuple)):
        return [render_data(v, lang) for v in value]
    if isinstance(value, dict):
        return {k: render_data(v, lang) for k, v in value.items()}
    return value
