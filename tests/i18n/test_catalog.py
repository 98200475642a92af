"""The gettext catalog (translations.py): every message of the code is in the template, every
language translates every message with the same placeholders, and the compiled files are
those of the sources."""

import gettext
import re
import subprocess
import sys

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

import translations

POT = translations.LOCALES / "course.pot"
LANGS = [lang for lang in translations.LANGUAGES if lang != translations.DEFAULT]
_PLACEHOLDER = re.compile(r"\{([a-z_]*)(?::[^}]*)?\}")


def po(lang):
    with open(translations.LOCALES / lang / "LC_MESSAGES" / "course.po", "rb") as f:
        return read_po(f, locale=lang)


def ids(catalog):
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def test_the_template_holds_every_message_of_the_code(tmp_path):
    """The code's messages now, extracted as `nox -s translations` does, are the template's."""
    fresh = tmp_path / "course.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            "babel.cfg",
            *translations.EXTRACT_KEYWORDS,
            "-o",
            str(fresh),
            ".",
        ],
        cwd=translations.ROOT,
        check=True,
        capture_output=True,
        env={"PYTHONPATH": str(translations.ROOT), "PATH": "/usr/bin:/bin"},
    )
    with open(fresh, "rb") as f:
        now = ids(read_po(f))
    with open(POT, "rb") as f:
        kept = ids(read_po(f))
    assert now == kept, (
        f"locales/course.pot is out of date (new: {sorted(now - kept)}, gone: "
        f"{sorted(kept - now)}): run nox -s translations"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_with_the_same_placeholders(lang):
    catalog = po(lang)
    with open(POT, "rb") as f:
        assert ids(catalog) == ids(read_po(f)), f"{lang}: run nox -s translations"
    for m in catalog:
        if not m.id:
            continue
        sources = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        assert all(strings), f"{lang}: {sources[0]!r} has no translation"
        assert "fuzzy" not in m.flags, f"{lang}: {sources[0]!r} is marked fuzzy: check it"
        wanted = set(_PLACEHOLDER.findall(sources[-1]))
        for s in strings:
            assert set(_PLACEHOLDER.findall(s)) == wanted, (
                f"{lang}: {s!r} has placeholders {set(_PLACEHOLDER.findall(s))}, "
                f"{sources[0]!r} has {wanted}"
            )


@pytest.mark.parametrize("lang", LANGS)
def test_the_compiled_catalog_is_its_source(lang):
    def table(catalog):
        return {
            (m.id if isinstance(m.id, str) else m.id[0]): (
                m.string if isinstance(m.string, str) else tuple(m.string)
            )
            for m in catalog
            if m.id
        }

    with open(translations.LOCALES / lang / "LC_MESSAGES" / "course.mo", "rb") as f:
        compiled = table(read_mo(f))
    source = table(po(lang))
    assert compiled == source, (
        f"locales/{lang}/LC_MESSAGES/course.mo is stale: run nox -s translations"
    )


def test_russian_counts_agree_in_number():
    ru = translations.catalog("ru")
    one, few, many = (
        ru.ngettext(
            "{days} day, about {time} of reading, running and exercises.",
            "{days} days, about {time} of reading, running and exercises.",
            n,
        ).split()[1]
        for n in (41, 42, 45)
    )
    assert (one, few, many) == ("день,", "дня,", "дней,")


def test_the_language_comes_from_the_environment_and_falls_back_to_english():
    assert translations.from_environment({"LANG": "et_EE.UTF-8"}) == "et"
    assert translations.from_environment({"LANGUAGE": "de:ru", "LANG": "et_EE"}) == "ru"
    assert translations.from_environment({"LC_ALL": "C", "LANG": "ru_RU"}) == "en"
    assert translations.from_environment({"LANG": "fr_FR"}) == "en"
    assert translations.from_environment({}) == "en"
    assert isinstance(translations.catalog("en"), gettext.NullTranslations)
    with pytest.raises(ValueError, match="speaks en, ru, et"):
        translations.catalog("de")
