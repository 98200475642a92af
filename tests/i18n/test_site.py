"""The built site holds the course in every language: every page, in its language's words."""

import re

import pytest

import course
import translations
from tools.translation import pages

OTHERS = [lang for lang in translations.LANGUAGES if lang != translations.DEFAULT]


def _url_path(page):
    rel = page.relative_to(course.DOCS).with_suffix("").as_posix()
    return "" if rel == "index" else rel.removesuffix("/index") + "/"


@pytest.mark.parametrize("lang", OTHERS)
def test_every_page_is_built_in_every_language(site_dir, lang):
    missing, wrong = [], []
    for page in pages():
        built = site_dir / lang / _url_path(page) / "index.html"
        if not built.is_file():
            missing.append(_url_path(page))
        elif f'<html lang="{lang}"' not in built.read_text(encoding="utf-8")[:2000]:
            wrong.append(_url_path(page))
    assert not missing, f"not built in {lang}: {missing}"
    assert not wrong, f"built in {lang} but not marked as {lang}: {wrong}"


def test_a_lessons_badge_navigation_and_switch_speak_its_language(site_dir):
    html = (site_dir / "ru" / "lessons" / "day04_manual_backward" / "index.html").read_text(
        encoding="utf-8"
    )
    total = course.TOTAL_DAYS
    assert f"Часть 1 · Основы · день 4 из {total}</p>" in html
    assert "Скачать этот день как блокнот Jupyter" in html
    assert re.search(r">\s*Часть 3 · Языковые модели\s*<", html)  # a section of the navigation
    # Material's language switch offers this very page in each language
    for lang, href in (
        ("en", "../../../lessons/day04_manual_backward/"),
        ("et", "../../../et/lessons/day04_manual_backward/"),
    ):
        assert f'<a href="{href}" hreflang="{lang}" class="md-select__link"' in html


def test_the_english_site_keeps_its_english_words(site_dir):
    html = (site_dir / "lessons" / "day04_manual_backward" / "index.html").read_text(
        encoding="utf-8"
    )
    assert f"Phase 1 · Foundations · Day 4 of {course.TOTAL_DAYS}</p>" in html
    assert "This page is not translated yet" not in html


def test_a_page_without_its_translation_says_it_is_shown_in_english(site_dir):
    for lang, note in (
        ("ru", "Эта страница ещё не переведена"),
        ("et", "Seda lehte pole veel tõlgitud"),
    ):
        for page in pages():
            if not page.with_name(f"{page.stem}.{lang}.md").is_file():
                html = (site_dir / lang / _url_path(page) / "index.html").read_text(
                    encoding="utf-8"
                )
                assert note in html, f"{lang}/{_url_path(page)}"
                break


class _Languages:
    """What the course plugin reads of mkdocs.yml's i18n: the languages it builds."""

    def __init__(self, *locales):
        from types import SimpleNamespace

        langs = [SimpleNamespace(locale=lang, build=True) for lang in locales]
        self.plugins = {"i18n": SimpleNamespace(config=SimpleNamespace(languages=langs))}


def test_a_whole_course_refuses_a_page_without_its_translations(tmp_path):
    import languages
    from mkdocs.exceptions import PluginError

    docs = tmp_path / "docs"
    (docs / "lessons").mkdir(parents=True)
    for name in ("index", "lessons/day01_x"):
        for suffix in ("", ".ru", ".et"):
            (docs / f"{name}{suffix}.md").write_text("# page\n", encoding="utf-8")
    config = _Languages("en", "ru", "et")
    config.docs_dir = str(docs)
    languages.require_translations(config)  # every page in every language: nothing to say
    (docs / "lessons" / "day02_y.md").write_text("# a new day\n", encoding="utf-8")
    (docs / "lessons" / "day02_y.ru.md").write_text("# новый день\n", encoding="utf-8")
    with pytest.raises(PluginError, match=r"et: lessons/day02_y\.md\.") as error:
        languages.require_translations(config)
    assert "ru:" not in str(error.value)  # Russian has it
    # a site that builds English alone asks for no translation
    english_only = _Languages("en")
    english_only.docs_dir = str(docs)
    languages.require_translations(english_only)
