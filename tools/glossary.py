"""Write the glossary page and the tooltip abbreviations from includes/glossary.yml.

    python tools/glossary.py           # write docs/glossary.md and includes/abbreviations.md
    python tools/glossary.py --check   # exit 1 if either file is not what the YAML gives

The abbreviations file is appended to every page by `pymdownx.snippets` (mkdocs.yml), so
each form of a term shows its definition as a tooltip (Material's `content.tooltips`).
"""

import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "includes" / "glossary.yml"
PAGE = ROOT / "docs" / "glossary.md"
ABBREVIATIONS = ROOT / "includes" / "abbreviations.md"


def entries():
    return yaml.safe_load(SOURCE.read_text(encoding="utf-8"))


def lesson_file(day):
    (path,) = (ROOT / "docs" / "lessons").glob(f"day{day:02d}_*.md")
    return path.name


def anchor(term):
    return re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-") or "symbol"


def page_text(items):
    """The glossary page: one heading per term, its definition under it.

    A heading each, so that the site's search finds a term as a short entry of its own
    (Material indexes a page by its headings' sections), and the contents list beside the
    page lists every term. The heading's id stays the term's anchor (glossary/#gradient).
    """
    lines = [
        "# Glossary",
        "",
        "Every term the course names, in one line, with the lesson that introduces it, in the",
        "order the course introduces them. On every page, a term written in the prose shows this",
        "definition when you hover over it or move to it with the keyboard. Symbols are explained",
        "on the [notation](reference/notation.md) page as well.",
    ]
    for item in sorted(items, key=lambda e: (e["day"], e["term"].lower())):
        day = item["day"]
        lines += [
            "",
            f"## {item['term']} {{#{anchor(item['term'])} .course-term}}",
            "",
            item["definition"],
            f"Introduced on [day {day}](lessons/{lesson_file(day)}).",
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
    path = Path(site_dir) / "search" / "search_index.json"
    if not path.is_file():
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    for doc in index["docs"]:
        if doc["location"].startswith("glossary/#"):
            doc["boost"] = round(SEARCH_BOOST * (1 + 1 / len(doc["title"].split())), 3)
    path.write_text(json.dumps(index, separators=(",", ":")), encoding="utf-8")


def abbreviations_text(items):
    lines = [
        "<!-- Written by tools/glossary.py from includes/glossary.yml: edit the YAML, not this. -->",
    ]
    for item in items:
        for form in item.get("forms", []):
            spellings = [form]
            if form[0].islower():
                spellings.append(form[0].upper() + form[1:])
            for spelling in spellings:
                lines.append(f"*[{spelling}]: {item['definition']}")
    return "\n".join(lines) + "\n"


def main(argv):
    items = entries()
    wanted = {PAGE: page_text(items), ABBREVIATIONS: abbreviations_text(items)}
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
