"""Write the words the engine says itself (engine.mine, engine.gradcheck's table, engine.errors)
in Russian and Estonian from the page's message files.

    python -m tools.engine_words           # write engine/data/words.json
    python -m tools.engine_words --check   # exit 1 if it is not what web/locales gives

The page says "My engine"'s line and refusals with i18next (web/myenginetext.js, web/i18n.js);
a notebook has no page, so engine.mine says them itself (`parts_line(rows, lang)`,
`message_in(error, lang)`) from a copy of the same messages shipped in the engine package
(engine.words), as engine.gradcheck writes its table (`GradCheck.table(lang)`). So does a
Russian or Estonian notebook's traceback of an engine error (engine.errors, "engine.error.*",
as web/errortext.js). English is the engine's own code, so only the other languages are copied.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "web" / "locales"
TARGET = ROOT / "engine" / "data" / "words.json"
# The messages of the rows, their parts' names, the refusals and what a refused file tried.
PREFIXES = (
    "myEngine.part.",
    "myEngine.parts.",
    "myEngine.reason.",
    "myEngine.lent.",
    "myEngine.error.",
    "myEngine.action.",
    "engine.error.",  # the engine's errors (engine.errors.said)
    "engine.gradcheck.",  # engine.gradcheck's report table
)
LANGUAGES = ("ru", "et")


def words() -> str:
    """engine/data/words.json's text: {lang: {key: message}}, keys sorted."""
    table = {}
    for lang in LANGUAGES:
        messages = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
        table[lang] = {k: v for k, v in sorted(messages.items()) if k.startswith(PREFIXES)}
    return json.dumps(table, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    text = words()
    if "--check" in argv:
        if not TARGET.is_file() or TARGET.read_text(encoding="utf-8") != text:
            print(
                f"{TARGET.relative_to(ROOT)} is not what web/locales gives: run python -m tools.engine_words"
            )
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
