"""Search per language: a reader of the Russian pages searches the Russian course.

mkdocs-static-i18n writes one search index for every language (search/search_index.json),
and Material fetches it from the site's `base`, the same for every page. So each language
gets its own index and sitemap under its folder (ru/search/search_index.json, ru/sitemap.xml),
and each of its pages a `base` that is that folder: Material then searches, and navigates
instantly within, the reader's language. Links to another language are full page loads
(web/language.js makes them so).

A page the language does not have yet is the English page in its place (the i18n plugin's
fallback); its entries, deduplicated away by the plugin, come from the English index.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import translations

_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S)


def language_base(html: str, url: str, lang: str) -> str:
    """The page at `url` ("ru/lessons/day04_x/") with Material's `base` set to its language's
    folder ("../.."), so that search and instant navigation stay in that language."""
    if lang == translations.DEFAULT:
        return html
    # One ".." per folder below the language's: "ru/lessons/day04_x/" -> "../..", "ru/" -> ".".
    base = "/".join([".."] * url.strip("/").count("/")) or "."

    def rebase(m):
        config = json.loads(m[2])
        config["base"] = base
        return m[1] + json.dumps(config) + m[3]

    return _CONFIG.sub(rebase, html, count=1)


def _page(location: str) -> str:
    return location.split("#")[0]


def split_search(site: Path, site_url: str, langs: list[str], translated: set[str]) -> None:
    """Leave the English entries in search/search_index.json and write each other language's
    index (its translated pages' entries, the English ones for the others) and sitemap in its
    folder. `translated`: the addresses of the translated pages ("ru/lessons/day04_x/")."""
    path = site / "search" / "search_index.json"
    if not path.is_file():
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    own = {lang: [] for lang in langs}
    for doc in index["docs"]:
        first, _, rest = doc["location"].partition("/")
        if first in own and first != translations.DEFAULT:
            if _page(doc["location"]) in translated:
                own[first].append({**doc, "location": rest})
        else:
            own[translations.DEFAULT].append(doc)
    english = own[translations.DEFAULT]
    for lang, docs in own.items():
        config = dict(index["config"])
        if lang == translations.DEFAULT:
            config["lang"] = [translations.DEFAULT]
            out = path
        else:
            have = {_page(doc["location"]) for doc in docs}
            docs = docs + [doc for doc in english if _page(doc["location"]) not in have]
            # Lunr's stemmer for the language where it has one (Russian), else none.
            config["lang"] = [lang] if lang in index["config"].get("lang", []) else ["en"]
            out = site / lang / "search" / "search_index.json"
            _write_sitemap(site, site_url, lang)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(
            json.dumps({**index, "config": config, "docs": docs}, ensure_ascii=False),
            encoding="utf-8",
        )


def _write_sitemap(site: Path, site_url: str, lang: str) -> None:
    """<lang>/sitemap.xml: the root sitemap's addresses in that language (Material's instant
    navigation loads only the pages its base's sitemap lists)."""
    source = site / "sitemap.xml"
    if not source.is_file():
        return
    text = source.read_text(encoding="utf-8")
    prefix = site_url.rstrip("/") + f"/{lang}/"
    urls = re.findall(r"<url>.*?</url>", text, re.S)
    kept = [u for u in urls if re.search(rf"<loc>{re.escape(prefix)}", u)]
    head = text[: text.index("<url>")] if urls else text
    (site / lang / "sitemap.xml").write_text(
        head + "\n".join(kept) + "\n</urlset>\n", encoding="utf-8"
    )
