"""Write the glossary pages and the tooltip abbreviations from the glossaries' YAML.

    python tools/glossary.py           # write every language's glossary page and tooltips
    python tools/glossary.py --check   # exit 1 if one is not what its YAML gives

English: includes/glossary.yml gives docs/glossary.md and includes/abbreviations.md. Each
translation, includes/glossary.<lang>.yml (keyed by the English terms, whose `day` it
takes), gives docs/glossary.<lang>.md and includes/abbreviations.<lang>.md. The course plugin
appends a page's language's abbreviations to it, so each form of a term shows its definition
as a tooltip (Material's `content.tooltips`).
"""

import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: translations.py sits at the root
    sys.path.insert(0, str(ROOT))

from translations import LANGUAGES  # noqa: E402

SOURCE = ROOT / "includes" / "glossary.yml"
PAGE = ROOT / "docs" / "glossary.md"
ABBREVIATIONS = ROOT / "includes" / "abbreviations.md"


def abbreviations_path(lang: str = "en") -> Path:
    """The tooltips of a language's glossary: includes/abbreviations.md, abbreviations.ru.md..."""
    return ABBREVIATIONS if lang == "en" else ABBREVIATIONS.with_name(f"abbreviations.{lang}.md")


def tooltips(lang: str = "en") -> str:
    """The Markdown abbreviations the site's build appends to every page in `lang` (the
    course plugin): each form of each term, with its definition."""
    path = abbreviations_path(lang)
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def entries():
    return yaml.safe_load(SOURCE.read_text(encoding="utf-8"))


def translated_entries(lang):
    """A translation's glossary: (its page's words, its entries with the English `day`), or
    None when the language has no glossary yet. ValueError when it is not the English one's."""
    path = SOURCE.with_name(f"glossary.{lang}.yml")
    if not path.is_file():
        return None
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    english = entries()
    terms = data.get("terms") or []
    keys = [e["term"] for e in english]
    if [e.get("term") for e in terms] != keys:
        raise ValueError(
            f"{path.relative_to(ROOT)}: its terms are not includes/glossary.yml's, one each in the "
            f"same order (missing {sorted(set(keys) - {e.get('term') for e in terms})})"
        )
    items = []
    for source, item in zip(english, terms):
        item = {**item, "day": source["day"], "key": source["term"], "term": item["name"]}
        if "pattern" in source:  # a symbol is written alike in every language
            item["pattern"] = source["pattern"]
        items.append(item)
    return data["page"], items


def lesson_file(day):
    (path,) = [
        p
        for p in (ROOT / "docs" / "lessons").glob(f"day{day:02d}_*.md")
        if not re.search(r"\.[a-z]{2}\.md$", p.name)  # a translation is the same day's page
    ]
    return path.name


def anchor(term):
    return re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-") or "symbol"


def page_text(items, words=None):
    """The glossary page: one heading per term, its definition under it.

    A heading each, so that the site's search finds a term as a short entry of its own
    (Material indexes a page by its headings' sections), and the contents list beside the
    page lists every term. The heading's id stays the term's anchor (glossary/#gradient).
    """
    if words is None:  # English
        lines = [
            "# Glossary",
            "",
            "Every term the course names, in one line, with the lesson that introduces it, in the",
            "order the course introduces them. On every page, a term written in the prose shows "
            "this",
            "definition when you hover over it or move to it with the keyboard. Symbols are "
            "explained",
            "on the [notation](reference/notation.md) page as well.",
        ]
        introduced = "Introduced on [day {day}]({link})."
    else:
        lines = [f"# {words['title']} {{#glossary}}", "", words["intro"].strip()]
        introduced = words["introduced"]
    # Sorted by the English term within a day, so every language lists the terms alike; the
    # anchors are the English terms' (glossary/#gradient in every language).
    for item in sorted(items, key=lambda e: (e["day"], e.get("key", e["term"]).lower())):
        day = item["day"]
        lines += [
            "",
            f"## {item['term']} {{#{anchor(item.get('key', item['term']))} .course-term}}",
            "",
            item["definition"],
            introduced.format(day=day, link=f"lessons/{lesson_file(day)}"),
        ]
    return "\n".join(lines) + "\n"


# The search index (Material's lunr) scores every glossary entry that has the query's word in
# its heading alike: "gradient" finds "gradient", "gradient size" and "gradient descent" with
# the same score, the definitions' words decide, and the term itself may come last. Each
# entry's boost therefore grows as its heading is shorter (the term asked for comes first), and
# SEARCH_BOOST puts a term's definition among the first results, above passing mentions.
SEARCH_BOOST = 2.0


def rank_search_index(site_dir):
    """Give the glossary's entries of the built site's search index their boost (see above).

    Called by the build (hooks/course_site.py) after the search plugin wrote the index and
    before the service worker's list of files and hashes is made.
    """
    site = Path(site_dir)
    # Each language's index: the site's, and ru/'s and et/'s (hooks/language_search.py).
    for path in [site / "search" / "search_index.json", *site.glob("*/search/search_index.json")]:
        if not path.is_file():
            continue
        index = json.loads(path.read_text(encoding="utf-8"))
        for doc in index["docs"]:
            if re.match(r"(?:[a-z]{2}/)?glossary/#", doc["location"]):
                doc["boost"] = round(SEARCH_BOOST * (1 + 1 / len(doc["title"].split())), 3)
        path.write_text(
            json.dumps(index, separators=(",", ":"), ensure_ascii=False), encoding="utf-8"
        )


def abbreviations_text(items, source="includes/glossary.yml"):
    lines = [
        f"<!-- Written by tools/glossary.py from {source}: edit the YAML, not this. -->",
    ]
    for item in items:
        for form in item.get("forms", []):
            spellings = [form]
            if form[0].islower():
                spellings.append(form[0].upper() + form[1:])
            for spelling in spellings:
                lines.append(f"*[{spelling}]: {item['definition']}")
    # A blank line after each: one definition per Markdown block. Python-Markdown's abbr
    # processor takes one definition off a block and parses the rest again, so thousands of
    # lines in one block (Estonian's forms) cost quadratic time on every page.
    return "\n\n".join(lines) + "\n"


def wanted_files():
    """{path: its text} of every glossary page and tooltips file the YAML files give."""
    items = entries()
    wanted = {PAGE: page_text(items), ABBREVIATIONS: abbreviations_text(items)}
    for lang in LANGUAGES[1:]:
        translated = translated_entries(lang)
        if translated is None:
            continue
        words, items = translated
        wanted[PAGE.with_name(f"glossary.{lang}.md")] = page_text(items, words)
        wanted[abbreviations_path(lang)] = abbreviations_text(
            items, f"includes/glossary.{lang}.yml"
        )
    return wanted


def main(argv):
    wanted = wanted_files()
    if "--check" in argv:
        stale = [
            p
            for p, text in wanted.items()
            if not p.is_file() or p.read_text(encoding="utf-8") != text
        ]
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: run python tools/glossary.py")
        return 1 if stale else 0
    for path, text in wanted.items():
        path.write_text(text, encoding="utf-8")
        print("wrote", path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
