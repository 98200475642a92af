"""The glossary: every term is defined before, or where, a lesson first uses it.

A term of includes/glossary.yml is *used* on a lesson page when one of its `forms` appears,
as a whole word and in any case, in the page's prose: the text outside code fences, inline
code, math and HTML tags (the text inside SVG figures counts, and so do the words of the
checks for understanding: their questions, options and explanations). A symbol (an entry with a
`pattern`) is used when its pattern matches anywhere outside code, math included.

A page *defines* a term when
  - the term, one of its forms, or (for a symbol) the name in brackets after it (`theta` for
    "θ (theta)") is written in bold on that page (`**loss**`, `**the loss**`), or
  - the paragraph of its first use links to the lesson that introduces the term
    (`[day 20](day20_embeddings.md)`), or
  - for a symbol, the paragraph of its first use says what it is: the symbol followed, within
    the same sentence and 40 characters, by "is", "are", "means" or "stands for" (in a
    translation, its language's verbs: `SAYING`).
(Links to the glossary page cannot count: a lesson's notebook can only link to lessons.)

A lesson before the term's day must define it if it uses it; the introducing lesson must
always define it.
"""

import functools
import re
import subprocess
import sys

import pytest
import yaml

import questions
import translations
from tests.lessons.pages import ROOT, lesson_paths, load
from tools import glossary as glossary_tool

GLOSSARY = yaml.safe_load((ROOT / "includes" / "glossary.yml").read_text(encoding="utf-8"))
LESSONS = {int(load(p).meta["day"]): load(p) for p in lesson_paths()}

# Each translation is held to the same rule with its own glossary (includes/glossary.<lang>.yml,
# whose `forms` are the term's inflected forms in that language), on its translated lessons.
TRANSLATIONS = {}  # language -> (its glossary's entries, {day: its translated lesson})
for _lang in translations.LANGUAGES[1:]:
    _translated = glossary_tool.translated_entries(_lang)
    _pages = {d: p.path.with_name(f"{p.slug}.{_lang}.md") for d, p in LESSONS.items()}
    _pages = {d: load(path) for d, path in _pages.items() if path.is_file()}
    if _translated and _pages:
        TRANSLATIONS[_lang] = (_translated[1], _pages)

_FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[ \t]*$", re.S | re.M)
_INLINE_CODE = re.compile(r"`[^`\n]+`")
_DISPLAY_MATH = re.compile(r"\$\$.*?\$\$", re.S)
_MATH = re.compile(r"\$[^$\n]+\$")
_TAG = re.compile(r"<[^>]+>")
_BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)


def _without_code(text):
    text = questions.prose(text)  # a question block is read, not run: its words are prose
    return _INLINE_CODE.sub(" ", _FENCE.sub(" ", text))


def prose(text):
    """The words a reader reads: no code, no math, no tags."""
    text = _without_code(text)
    text = _MATH.sub(" ", _DISPLAY_MATH.sub(" ", text))
    return _TAG.sub(" ", text)


def _words(text):
    return " ".join(text.split())


def paragraphs(text):
    return re.split(r"\n[ \t]*\n", text)


def _form_pattern(form):
    return re.compile(r"(?<![\w-])" + re.escape(form) + r"(?![\w-])", re.I)


@functools.cache
def _forms_pattern(forms):
    """One pattern for any of `forms` (a tuple), as a whole word, in any case."""
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.I)


@functools.cache
def _read_paragraphs(text):
    """The page's paragraphs without code, each with the words a reader reads in it."""
    return [(para, _words(prose(para))) for para in paragraphs(_without_code(text))]


def uses(entry, text):
    """The paragraphs of the page (without code) that use the term, in page order."""
    forms = _forms_pattern(tuple(entry.get("forms", []))) if entry.get("forms") else None
    found = []
    for para, words in _read_paragraphs(text):
        if "pattern" in entry and re.search(entry["pattern"], para):
            found.append(para)
        elif forms is not None and forms.search(words):
            found.append(para)
    return found


# "the symbol is ...", in each language: the verbs that say what a symbol stands for.
SAYING = {
    "en": r"is|are|means|stands for",
    "et": r"on|tähendab|tähistab",
    "ru": r"это|означает|обозначает|называется",
}


def defines(entry, text, first_use, lessons=None, lang="en"):
    term = entry["term"]
    names = [term.split(" (")[0], *re.findall(r"\((.+?)\)", term), *entry.get("forms", [])]
    for bold in _BOLD.findall(_without_code(text)):
        if any(_form_pattern(name).search(_words(bold)) for name in names):
            return True
    # a link to the introducing lesson (a translation links the English page's name)
    if f"{LESSONS[entry['day']].slug}.md" in first_use:
        return True
    saying = rf"[^.]{{0,40}}?\b({SAYING[lang]})\b"
    return (
        "pattern" in entry and re.search(f"(?:{entry['pattern']}){saying}", first_use) is not None
    )


def _undefined_before_its_day(day):
    """What day `day` uses of the terms introduced later without defining them."""
    text = LESSONS[day].text
    problems = []
    for entry in GLOSSARY:
        if day >= entry["day"]:
            continue
        used = uses(entry, text)
        if used and not defines(entry, text, used[0]):
            problems.append(
                f"day {day} uses {entry['term']!r} (introduced on day {entry['day']}) without "
                f"defining it:\n{used[0][:300]}"
            )
    return problems


@pytest.mark.parametrize("day", sorted(LESSONS), ids=[f"day{d:02d}" for d in sorted(LESSONS)])
def test_no_term_before_its_day_without_a_definition(day):
    problems = _undefined_before_its_day(day)
    assert not problems, "\n\n".join(problems)


def _undefined_in_translation(lang, day):
    """What day `day`'s translation into `lang` uses without defining it (terms of its day
    and before), and the terms of its day it never mentions."""
    entries, pages = TRANSLATIONS[lang]
    text = pages[day].text
    problems = []
    for entry in entries:
        if day > entry["day"]:
            continue
        used = uses(entry, text)
        if day == entry["day"] and not used:
            problems.append(f"{lang}: day {day} never mentions {entry['term']!r} ({entry['key']})")
        elif used and not defines(entry, text, used[0], pages, lang):
            problems.append(
                f"{lang}: day {day} uses {entry['term']!r} ({entry['key']}, introduced on day "
                f"{entry['day']}) without defining it:\n{used[0][:300]}"
            )
    return problems


TRANSLATED_PAGES = [
    (lang, day) for lang, (_, pages) in TRANSLATIONS.items() for day in sorted(pages)
]


@pytest.mark.parametrize(
    "lang, day", TRANSLATED_PAGES, ids=[f"{lang}-day{d:02d}" for lang, d in TRANSLATED_PAGES]
)
def test_a_translation_defines_each_term_before_or_where_it_is_first_used(lang, day):
    problems = _undefined_in_translation(lang, day)
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize("entry", GLOSSARY, ids=[e["term"] for e in GLOSSARY])
def test_the_introducing_day_defines_the_term(entry):
    text = LESSONS[entry["day"]].text
    used = uses(entry, text)
    assert used, f"day {entry['day']} never mentions {entry['term']!r}"
    assert defines(entry, text, used[0]), f"day {entry['day']} does not define {entry['term']!r}"


def test_glossary_page_and_tooltips_agree_with_the_yaml():
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "glossary.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout
