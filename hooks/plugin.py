"""The course's MkDocs plugin: `plugins: - course` in mkdocs.yml, the one owner of the build.

pyproject.toml registers it (`[project.entry-points."mkdocs.plugins"]`), so `pip install .`
(every nox session that builds the site does it) makes `course` a plugin MkDocs knows. Its
code is this folder, imported from the repository root: run MkDocs there as
`python -m mkdocs`, which puts the root, and so course.py and hooks/, on the import path.

What it does, each part in a module of this folder that the tests import by name:
- the course manifest (course.py), read once a build, from the lessons' front matter;
- the lessons' part of the navigation (course_nav.py);
- the five custom fences and the runtime: Pyodide, wheels, KaTeX, exercises, the service
  worker (course_site.py, fences.py, site_build.py);
- on each lesson page, the day badge (day_badge.py) and the notebook line (notebook_link.py);
- the course map (course_map.py); `{{ days }}` and `{{ Days }}` in a page or in
  `site_description`: the number of days in words ("forty-one", "Forty-one");
- focusable glossary terms (abbr_focus.py) and plain-text math in the contents (toc_math.py).

It must come after `search` and `mkdocs-jupyter` in `plugins:`: its `on_page_context` runs
after the search plugin has read the page's contents, its `on_env` after mkdocs-jupyter has
made the notebooks pages, and its `on_post_build` last, since the service worker lists every
file of the build.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.plugins import BasePlugin, event_priority

HOOKS = Path(__file__).resolve().parent
if str(HOOKS) not in sys.path:  # the modules of this folder import each other by name
    sys.path.insert(0, str(HOOKS))

import abbr_focus  # noqa: E402
import course_map  # noqa: E402
import course_nav  # noqa: E402  (first: it explains a missing course.py)
import course_site  # noqa: E402
import day_badge  # noqa: E402
import day_count  # noqa: E402
import language_search  # noqa: E402
import languages  # noqa: E402
import notebook_link  # noqa: E402
import toc_math  # noqa: E402

import translations  # noqa: E402
from tools import glossary  # noqa: E402

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from jinja2 import Environment
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page
    from mkdocs.utils.templates import TemplateContext

    import course


class CourseConfig(base.Config):
    # The course server's address (mkdocs.yml: `!ENV [SUBMIT_URL, null]`): every page then
    # names it and offers Submit (course_site.py); unset, a static site with no server.
    submit_url = c.Optional(c.Type(str))
    # Whether every page must have its translation into every language of mkdocs.yml's `i18n`
    # (day04_x.ru.md, day04_x.et.md beside day04_x.md): true, a page without one stops the
    # build, naming it. False while the translations are being written: a missing one is shown
    # in English with a note that says so (languages.fallback_note).
    translations_whole = c.Type(bool, default=True)


class CoursePlugin(BasePlugin[CourseConfig]):
    """The course's build: see the module's docstring for what each event does."""

    def __init__(self) -> None:
        self.serving = False  # `mkdocs serve` (nox -s serve): a preview that reloads on changes
        self.manifest: course.Course | None = None  # read once a build, in on_config
        self.server: str | None = None  # the checked SUBMIT_URL
        self.notebook_settings: dict = {}  # the course's public addresses (Colab links)
        self.notebook_urls: dict[str, str] = {}  # "day17_bigrams.ipynb" -> its page's url
        self.nav: list | None = None  # mkdocs.yml's nav, as written (each language expands it)
        self.lang = "en"  # the language the current build writes (languages.py)
        self.glossary: dict[str, str] = {}  # language -> its tooltips' Markdown
        self.translated_urls: set[str] = set()  # "ru/lessons/day04_x/": a translated page's

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"
        languages.keep_instant_navigation()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        # Once per language: mkdocs-static-i18n runs a whole build for each on this config.
        self.lang = languages.build_language(config)
        if self.lang == translations.DEFAULT:  # the first of a build's languages
            self.translated_urls = set()
        self.manifest = course_nav.load(config.docs_dir)
        if self.config.translations_whole:
            languages.require_translations(config)
        if self.nav is None:
            self.nav = config.nav
        config.nav = course_nav.expand(self.nav, self.manifest, self.lang)
        self.server = course_site.configure(config, self.config.submit_url)
        self.notebook_settings = notebook_link.read_settings(config.config_file_path)
        if config.site_description:
            config.site_description = day_count.fill(
                config.site_description, self.manifest.total, self.lang
            )
        return config

    @event_priority(-110)  # after mkdocs-static-i18n's (-100), which remade every file
    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        return languages.notebooks_as_pages(files, config, self.lang)

    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        lang = self.lang
        markdown = day_badge.add_badge(markdown, page, self.manifest, lang)
        markdown = notebook_link.add_notebook_line(
            markdown, page, files, self.notebook_settings, lang
        )
        markdown = course_map.add_map(markdown, page, files, self.manifest, lang)
        markdown = languages.fallback_note(markdown, page, lang)
        markdown = day_count.fill(markdown, self.manifest.total, lang)
        return markdown + "\n\n" + glossary.tooltips(lang)

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        notebook_link.exclude_from_search(page)  # before `search` indexes it (on_page_context)
        return abbr_focus.focusable_abbr(html)

    def on_page_context(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        toc_math.plain_toc(page.toc)
        return context

    def on_env(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> Environment:
        self.notebook_urls = notebook_link.notebook_urls(
            files, [d.slug for d in self.manifest.days]
        )
        return env

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        output = languages.without_head_alternates(output)
        output = language_search.language_base(output, page.url, self.lang)
        if self.lang != translations.DEFAULT and languages.page_language(page) == self.lang:
            self.translated_urls.add(page.url)
        output = course_site.finish_page(output, page, self.server)
        return notebook_link.finish_notebook_page(output, page, self.notebook_urls)

    @event_priority(-110)  # after mkdocs-static-i18n's (-100), which builds ru/ and et/
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        # Last, once: after every language is built (see the module's docstring). A preview
        # keeps nothing offline, so that each reload shows the latest build.
        if languages.other_languages_building(config):
            return
        language_search.split_search(
            Path(config.site_dir),
            config.site_url or "",
            languages.built_languages(config),
            self.translated_urls,
        )
        course_site.build_runtime(config, self.server, offline=not self.serving)

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Callable
    ) -> LiveReloadServer:
        # The preview is cross-origin isolated, as the published course: Stop interrupts.
        server.set_app(course_site.isolated(server.get_app()))
        return server
