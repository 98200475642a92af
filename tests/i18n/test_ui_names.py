"""A translated page names the runtime's buttons as the runtime says them in its language.

Pages name a control in bold (**Run**, **All gradients**); the runtime takes its words from
web/locales/<lang>.json. A translation that kept the English name in bold would send its reader
looking for a button that, on their page, says something else.
"""

import json
import re

import pytest

from tools import translation

LOCALES = translation.ROOT / "web" / "locales"
MESSAGES = {
    lang: json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    for lang in ("en", *translation.LANGUAGES)
}
# The messages that are the label of a control pages name; with the name the English pages
# use where it is shorter than the label ("Sample" for "Sample the next symbol").
CONTROLS = {
    "run.button": None,
    "check.button": None,
    "reset.button": None,
    "stop.button": None,
    "submit.button": None,
    "transfer.export": None,
    "transfer.import": None,
    "myEngine.switch": None,
    "explorer.forward": None,
    "explorer.backward": None,
    "explorer.next": None,
    "explorer.prev": None,
    "explorer.play": None,
    "explorer.fit": None,
    "explorer.finish": None,
    "explorer.view3d": None,
    "explorer.toggleFinal": None,
    "explorer.toggleLocals": None,
    "model.forget": None,
    "probs.newName": None,
    "probs.sample": "Sample",
}
_SYMBOLS = re.compile(r"^[^\w«»]+|[\s…]+$")


def label(lang, key):
    """A control's words without its symbol: "▶ Run" -> "Run"."""
    return _SYMBOLS.sub("", MESSAGES[lang][key])


def english_name(key):
    return CONTROLS[key] or label("en", key)


def named(name):
    """A page's bold mention of a control: **Run**, **▶ Run**, or its words wrapped over lines."""
    words = r"\s+".join(re.escape(w) for w in name.split())
    return re.compile(rf"\*\*(?:[^\w\s*«»]+\s)?{words}\*\*")


TRANSLATED = sorted(
    p for lang in translation.LANGUAGES for p in translation.DOCS.rglob(f"*.{lang}.md")
)


def test_every_control_is_in_every_language():
    for key in CONTROLS:
        assert all(key in MESSAGES[lang] for lang in MESSAGES), key


@pytest.mark.parametrize(
    "path", TRANSLATED, ids=[p.relative_to(translation.DOCS).as_posix() for p in TRANSLATED]
)
def test_a_translation_names_the_controls_in_its_language(path):
    lang = path.name.rsplit(".", 2)[1]
    english = translation.source_of(path).read_text(encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    left = [
        f"**{english_name(key)}** (the {lang} runtime says {label(lang, key)!r})"
        for key in CONTROLS
        if named(english_name(key)).search(english)
        and english_name(key) != label(lang, key)
        and named(english_name(key)).search(text)
    ]
    assert not left, f"{path.name} names controls in English: {', '.join(left)}"
