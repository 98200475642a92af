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

from mkdocs.utils import get_relative_url

from tools.notebooks import colab_url, settings

# tools/notebooks.py turns a lesson's link to another lesson into a link to that lesson's
# notebook, `dayNN_slug.ipynb`: right beside it in docs/notebooks/ or a folder of downloads.
# On the site each notebook is a page of its own, so such a link is pointed at that page.
_NOTEBOOK_HREF = re.compile(r'href="(?P<name>day[0-9][0-9]_\w+\.ipynb)(?P<anchor>#[^"]*)?"')
_notebook_urls = {}
_settings = {}


def on_config(config):
    _settings.clear()
    try:
        _settings.update(settings(Path(config.config_file_path)))
    except ValueError as exc:
        from mkdocs.exceptions import Abort

        raise Abort(str(exc)) from exc
    return config


def _notebook_file(page, files):
    slug = posixpath.splitext(posixpath.basename(page.file.src_uri))[0]
    return files.get_file_from_path(f"notebooks/{slug}.ipynb")


def on_page_content(html, page, config, files):
    # A notebook page is its lesson again (with raw LaTeX and "In [ ]:"): the site's search
    # finds the lesson once, as its page. Material's search reads this key of the page's meta
    # (its `search: exclude` front matter, which a notebook cannot carry) when it indexes the
    # page, after this event.
    if page.file.src_uri.startswith("notebooks/"):
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
    return html


def on_page_markdown(markdown, page, config, files):
    if "day" not in page.meta or not page.file.src_uri.startswith("lessons/"):
        return markdown
    nb = _notebook_file(page, files)
    if nb is None:
        raise FileNotFoundError(
            f"{page.file.src_uri} has no notebook: run `nox -s notebooks` "
            "(or python -m tools.notebooks) to write docs/notebooks/"
        )
    # mkdocs-jupyter serves the notebook as a page at nb.url and copies the .ipynb into its folder.
    name = posixpath.basename(nb.src_uri)
    folder = posixpath.dirname(nb.dest_uri)
    download = get_relative_url(posixpath.join(folder, name), page.url)
    view = get_relative_url(nb.url, page.url)
    colab = colab_url(_settings, name) if _settings else None
    line = (
        f'<p class="day-notebook"><a href="{download}" download>Download this day as a Jupyter '
        f'notebook</a> · <a href="{view}">read the notebook</a>'
        + (f' · <a href="{colab}">Open in Colab</a>' if colab else "")
        + "</p>"
    )
    # Right after the badge (day_badge runs first), else at the top.
    marker = "</p>\n\n"
    if markdown.startswith('<p class="day-badge"') and marker in markdown:
        head, _, rest = markdown.partition(marker)
        return f"{head}{marker}{line}\n\n{rest}"
    return f"{line}\n\n{markdown}"


_EMPTY_MATHJAX = '<script src=""> </script>'


def on_env(env, config, files):
    # By now mkdocs-jupyter has made every notebook a page: remember where each one is served.
    _notebook_urls.clear()
    for f in files:
        if f.src_uri.startswith("notebooks/") and f.src_uri.endswith(".ipynb"):
            _notebook_urls[posixpath.basename(f.src_uri)] = f.url
    return env


def link_sibling_notebooks(output, page_url, urls):
    """Point `href="day17_bigrams.ipynb"` in a notebook page at that notebook's page."""

    def repl(m):
        url = urls.get(m["name"])
        if url is None:
            return m[0]
        return f'href="{get_relative_url(url, page_url)}{m["anchor"] or ""}"'

    return _NOTEBOOK_HREF.sub(repl, output)


def on_post_page(output, page, config):
    # mkdocs-jupyter's template loads MathJax from `custom_mathjax_url`; we leave it empty so no
    # request leaves the site, and drop the empty script tag it would still write.
    if page.file.src_uri.startswith("notebooks/"):
        output = link_sibling_notebooks(output, page.url, _notebook_urls)
        return output.replace(_EMPTY_MATHJAX, "")
    return output
