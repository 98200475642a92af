"""A "download this day's notebook" line under the badge of every lesson page.

The notebook `docs/notebooks/<slug>.ipynb` is written from the page by
`tools/notebooks.py`; mkdocs-jupyter renders it as a page and (`include_source`) copies the
`.ipynb` beside it. The links are computed from the built files, so no page types them.
With `extra.course_repository` set in mkdocs.yml (a public GitHub repository), the line
also offers "Open in Colab"; without it, no such link (tools/notebooks.py reads the setting).
The notebook pages are left out of the site's search: each lesson is found once, as its page.
"""

import posixpath
import re
from pathlib import Path

from languages import source_uri
from mkdocs.utils import get_relative_url

import translations
from tools.notebooks import colab_url, settings

# tools/notebooks.py turns a lesson's link to another lesson into a link to that lesson's
# notebook, `dayNN_slug.ipynb`: right beside it in docs/notebooks/ or a folder of downloads.
# On the site each notebook is a page of its own, so such a link is pointed at that page.
_NOTEBOOK_HREF = re.compile(
    r'href="(?P<name>day[0-9][0-9]_\w+(?:\.[a-z]{2})?\.ipynb)(?P<anchor>#[^"]*)?"'
)


def read_settings(config_file: str | Path) -> dict:
    """The course's public addresses (tools/notebooks.py); Abort when they are wrong."""
    try:
        return settings(Path(config_file))
    except ValueError as exc:
        from mkdocs.exceptions import Abort

        raise Abort(str(exc)) from exc


def _notebook_file(page, files):
    slug = posixpath.splitext(posixpath.basename(source_uri(page.file.src_uri)))[0]
    return files.get_file_from_path(f"notebooks/{slug}.ipynb")


def exclude_from_search(page) -> None:
    """A notebook page is its lesson again (with raw LaTeX and "In [ ]:"): the site's search
    finds the lesson once, as its page. Material's search reads this key of the page's meta
    (its `search: exclude` front matter, which a notebook cannot carry) when it indexes the
    page, after the page's content is made."""
    if page.file.src_uri.startswith("notebooks/"):
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}


def add_notebook_line(
    markdown: str, page, files, settings: dict | None = None, lang: str = translations.DEFAULT
) -> str:
    """A lesson page's Markdown with the notebook line under its badge; any other page as it is.

    `settings`: the course's public addresses (`read_settings`), for "Open in Colab"; `lang`:
    the language of the line's words.
    """
    if "day" not in page.meta or not page.file.src_uri.startswith("lessons/"):
        return markdown
    nb = _notebook_file(page, files)
    # mkdocs-jupyter serves the notebook as a page at nb.url and copies the .ipynb into its folder.
    if nb is not None:
        name = posixpath.basename(nb.src_uri)
        folder, url = posixpath.dirname(nb.dest_uri), nb.url
    elif lang != translations.DEFAULT:  # not translated yet: the English one, at the root
        slug = posixpath.splitext(posixpath.basename(source_uri(page.file.src_uri)))[0]
        name, folder, url = f"{slug}.ipynb", f"notebooks/{slug}", f"notebooks/{slug}/"
    else:
        raise FileNotFoundError(
            f"{page.file.src_uri} has no notebook: run `nox -s notebooks` "
            "(or python -m tools.notebooks) to write docs/notebooks/"
        )
    download = get_relative_url(posixpath.join(folder, name), page.url)
    view = get_relative_url(url, page.url)
    colab = colab_url(settings, name) if settings else None
    words = [
        f'<a href="{download}" download>'
        + translations.gettext(lang, "Download this day as a Jupyter notebook")
        + "</a>",
        f'<a href="{view}">' + translations.gettext(lang, "read the notebook") + "</a>",
    ]
    if colab:
        words.append(f'<a href="{colab}">' + translations.gettext(lang, "Open in Colab") + "</a>")
    line = f'<p class="day-notebook">{" · ".join(words)}</p>'
    # Right after the badge (day_badge runs first), else at the top.
    marker = "</p>\n\n"
    if markdown.startswith('<p class="day-badge"') and marker in markdown:
        head, _, rest = markdown.partition(marker)
        return f"{head}{marker}{line}\n\n{rest}"
    return f"{line}\n\n{markdown}"


_EMPTY_MATHJAX = '<script src=""> </script>'


def notebook_urls(files, slugs=()) -> dict[str, str]:
    """{"day17_bigrams.ipynb": its page's url}: once mkdocs-jupyter has made notebooks pages.
    `slugs`: every lesson's; an English notebook not in this build (a Russian or Estonian
    one's) is the English build's page at the site's root."""
    urls = {f"{slug}.ipynb": f"notebooks/{slug}/" for slug in slugs}
    urls.update(
        (posixpath.basename(f.src_uri), f.url)
        for f in files
        if f.src_uri.startswith("notebooks/") and f.src_uri.endswith(".ipynb")
    )
    return urls


def link_sibling_notebooks(output, page_url, urls):
    """Point `href="day17_bigrams.ipynb"` in a notebook page at that notebook's page."""

    def repl(m):
        url = urls.get(m["name"])
        if url is None:
            return m[0]
        return f'href="{get_relative_url(url, page_url)}{m["anchor"] or ""}"'

    return _NOTEBOOK_HREF.sub(repl, output)


def finish_notebook_page(output: str, page, urls: dict[str, str]) -> str:
    """A notebook's page: links to other notebooks made page links, no empty MathJax tag."""
    # mkdocs-jupyter's template loads MathJax from `custom_mathjax_url`; we leave it empty so no
    # request leaves the site, and drop the empty script tag it would still write.
    if page.file.src_uri.startswith("notebooks/"):
        output = link_sibling_notebooks(output, page.url, urls)
        return output.replace(_EMPTY_MATHJAX, "")
    return output
