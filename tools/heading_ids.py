"""Print each heading of a page with the id the site gives it.

    python tools/heading_ids.py docs/lessons/day04_manual_backward.md

A translated page (day04_manual_backward.ru.md) keeps the English page's heading ids, written as
`{#id}` after its translated heading, so that every link to an anchor works in every language and
the tests can pair a page's sections across languages (tests/i18n/).
"""

import functools
import re
import sys
from pathlib import Path

import markdown

ROOT = Path(__file__).resolve().parents[1]


@functools.lru_cache(maxsize=128)  # an English page is compared with each translation
def heading_ids(text: str) -> list[tuple[int, str, str]]:
    """(level, id, text) of every heading of a page's Markdown, as the site's build makes them."""
    md = markdown.Markdown(
        extensions=[
            "attr_list",
            "md_in_html",
            "tables",
            "toc",
            "pymdownx.superfences",
            "admonition",
            "pymdownx.details",
            "pymdownx.arithmatex",
        ],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    body = text.split("\n---\n", 1)[1] if text.startswith("---\n") else text
    # The site's own fences (```model-explorer prefix="emm") are the build's to parse: here
    # each is a plain code block, so that it hides no heading after it.
    body = re.sub(r"^([ \t]*`{3,})[^`\n]+$", r"\1text", body, flags=re.M)
    md.convert(body)
    found = []

    def walk(tokens):
        for token in tokens:
            found.append((token["level"], token["id"], token["name"]))
            walk(token["children"])

    walk(md.toc_tokens)
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    for level, anchor, name in heading_ids(Path(argv[0]).read_text(encoding="utf-8")):
        print(f"{'#' * level} {name} {{#{anchor}}}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
