"""Which language a build and a page are in, and the words the build writes in it.

mkdocs-static-i18n (mkdocs.yml's `i18n`) builds the site once per language: English at the
root, then Russian into ru/ and Estonian into et/, each a whole MkDocs build on the same
config. A page's translation sits beside it (`day04_x.ru.md`); where one is missing, the
plugin's fallback puts the English page in its place, and `fallback_note` says so on it.

The course plugin asks this module, in each event, which language it is writing, and says
every word it adds to a page (navigation, badge, notebook line, course map) through the
course's gettext catalog (translations.py).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from mkdocs.exceptions import PluginError

import translations
from translations import t

_SUFFIX = re.compile(r"\.(?P<lang>[a-z]{2})\.md$")


def build_language(config) -> str:
    """The language the current build writes: the i18n plugin's, English without it."""
    i18n = config.plugins.get("i18n")
    lang = getattr(i18n, "current_language", None) or getattr(i18n, "default_language", None)
    return lang or translations.DEFAULT


def other_languages_building(config) -> bool:
    """True inside the i18n plugin's builds of the other languages (ru/, et/)."""
    return bool(getattr(config.plugins.get("i18n"), "building", False))


def page_language(page) -> str:
    """The language a page's Markdown is written in (its file's suffix; English without one)."""
    m = _SUFFIX.search(page.file.src_uri)
    return m["lang"] if m else translations.DEFAULT


def source_uri(src_uri: str) -> str:
    """The English page's path for a page or its translation: "lessons/day04_x.ru.md" ->
    "lessons/day04_x.md". Progress and links are kept under this one name in every language."""
    return _SUFFIX.sub(".md", src_uri)


def built_languages(config) -> list[str]:
    """The languages mkdocs.yml's `i18n` builds, the default first (English alone without it)."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return [translations.DEFAULT]
    return [lang.locale for lang in i18n.config.languages if lang.build]


def missing_translations(docs_dir, langs) -> dict[str, list[str]]:
    """{language: the pages (paths inside docs/) that have no translation into it}."""
    docs_dir = Path(docs_dir)
    pages = sorted(
        p.relative_to(docs_dir).as_posix()
        for p in docs_dir.rglob("*.md")
        if not _SUFFIX.search(p.name)
    )
    out = {}
    for lang in langs:
        if lang == translations.DEFAULT:
            continue
        out[lang] = [p for p in pages if not (docs_dir / f"{p[:-3]}.{lang}.md").is_file()]
    return {lang: pages for lang, pages in out.items() if pages}


def require_translations(config) -> None:
    """PluginError naming each page that lacks a translation into a language the site builds."""
    missing = missing_translations(config.docs_dir, built_languages(config))
    if missing:
        lines = [
            f"{lang}: {', '.join(pages[:8])}"
            + (f" and {len(pages) - 8} more" if len(pages) > 8 else "")
            for lang, pages in missing.items()
        ]
        raise PluginError(
            "every page is translated into every language the site builds, and these are not: "
            + "; ".join(lines)
            + ". Write each translation beside its page (day04_x.ru.md next to day04_x.md; "
            "python -m tools.translation check compares it with the English)."
        )


def fallback_note(markdown: str, page, lang: str) -> str:
    """An English page standing in for its missing translation says so, in the build's language."""
    if lang == translations.DEFAULT or page_language(page) == lang:
        return markdown
    note = t(lang, "This page is not translated yet: it is shown in English.")
    return f'!!! note ""\n    {note}\n\n{markdown}'


_HEAD_ALTERNATE = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[a-z]{2}">\n?')


def without_head_alternates(html: str) -> str:
    """The page without the `<link rel="alternate" hreflang>` tags of its head.

    Material's script fetches `<link>/sitemap.xml` for each, expecting a language's root; the
    i18n plugin points them at this page in each language, so each fetch fails (a 404 per
    language per page). The same alternates are in the site's sitemap.xml, where search
    engines read them, and the header's switch links each page in each language.
    """
    return _HEAD_ALTERNATE.sub("", html)


def notebooks_as_pages(files, config, lang: str):
    """The notebooks of the build's language, rendered by mkdocs-jupyter as pages.

    mkdocs-jupyter wraps each notebook in a NotebookFile (a page) in its `on_files`; the
    i18n plugin, after it, remakes every file as a plain File, and a notebook would then be
    copied as it is (its JSON as notebooks/<day>/index.html). The wrapper is put back on the
    notebooks of this build's language, with the destination the i18n plugin gave them
    (ru/notebooks/...). The other builds leave the English notebooks out: they are the
    English build's pages, at the site's root, which the Russian and Estonian pages link to
    until their own notebook exists (notebook_link.py).
    """
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is None:
        return files
    from mkdocs_jupyter.plugin import NotebookFile

    for file in list(files):
        if isinstance(file, NotebookFile) or not jupyter.should_include(file):
            continue
        files.remove(file)
        if getattr(file, "locale", translations.DEFAULT) != lang:
            continue  # an English notebook in the Russian or Estonian build
        page = NotebookFile(file, config.use_directory_urls, config.site_dir)
        page.dest_path, page.abs_dest_path, page.url = file.dest_path, file.abs_dest_path, file.url
        files.append(page)
    return files


class _InstantNavigationNote(logging.Filter):
    """mkdocs-static-i18n warns that Material's instant navigation keeps the header's language
    switch pointing at the first page loaded. The course keeps instant navigation (one Python
    for every page) and points the switch at the page shown on every navigation instead
    (web/language.js), so the warning does not hold here; under `strict` it would stop the build."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "not compatible with theme.features = navigation.instant" not in record.getMessage()


def keep_instant_navigation() -> None:
    # A logging filter acts on the logger a record is made on: the plugin's module's own.
    for module in ("plugin", "reconfigure"):
        logger = logging.getLogger(f"mkdocs.plugins.mkdocs_static_i18n.{module}")
        if not any(isinstance(f, _InstantNavigationNote) for f in logger.filters):
            logger.addFilter(_InstantNavigationNote())
