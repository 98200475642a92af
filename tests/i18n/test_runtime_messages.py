"""The runtime's messages (web/locales/*.json, read through i18next by web/i18n.js) say the same
things in every language: the same keys, the same {{placeholders}}, and each count's message in
every plural form its language has (Intl.PluralRules' categories, which i18next picks from)."""

import json
import re
from pathlib import Path

import pytest

LOCALES = Path(__file__).resolve().parents[2] / "web" / "locales"
# new Intl.PluralRules(lang).resolvedOptions().pluralCategories, for whole numbers and fractions.
PLURAL_FORMS = {
    "en": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "et": {"one", "other"},
}
SUFFIX = re.compile(r"^(?P<base>.+)_(?P<form>zero|one|two|few|many|other)$")
PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")


def load(lang):
    return json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))


def messages(catalog):
    """{base key: {plural form or None: text}}."""
    out = {}
    for key, text in catalog.items():
        m = SUFFIX.match(key)
        base, form = (m["base"], m["form"]) if m else (key, None)
        out.setdefault(base, {})[form] = text
    return out


def placeholders(forms):
    return {name for text in forms.values() for name in PLACEHOLDER.findall(text)}


def problems(english, other, lang):
    """What `other` (the messages of `lang`) gets wrong against `english`, as sentences."""
    found = []
    en, them = messages(english), messages(other)
    for key in sorted(en.keys() - them.keys()):
        found.append(f"{key}: missing in {lang}")
    for key in sorted(them.keys() - en.keys()):
        found.append(f"{key}: in {lang} but not in en")
    for key in sorted(en.keys() & them.keys()):
        if placeholders(en[key]) != placeholders(them[key]):
            found.append(
                f"{key}: placeholders {sorted(placeholders(them[key]))} in {lang}, "
                f"{sorted(placeholders(en[key]))} in en"
            )
        plural = en[key].keys() != {None} or them[key].keys() != {None}
        if plural and set(them[key]) != PLURAL_FORMS[lang]:
            found.append(
                f"{key}: plural forms {sorted(map(str, them[key]))} in {lang}, "
                f"needs {sorted(PLURAL_FORMS[lang])}"
            )
    return found


def test_english_has_its_own_plural_forms_and_nothing_empty():
    english = load("en")
    assert all(isinstance(v, str) and v.strip() for v in english.values())
    for key, forms in messages(english).items():
        if forms.keys() != {None}:
            assert set(forms) == PLURAL_FORMS["en"], key


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_every_message_is_in_each_language_with_its_placeholders_and_plural_forms(lang):
    other = load(lang)
    assert all(isinstance(v, str) and v.strip() for v in other.values())
    assert problems(load("en"), other, lang) == []


def test_the_comparison_catches_each_kind_of_mistake():
    english = {"a": "x {{n}}", "b_one": "{{count}} b", "b_other": "{{count}} bs", "c": "c"}
    russian = {
        "a": "y {{m}}",
        "b_one": "{{count}} б",
        "b_few": "{{count}} ба",
        "b_other": "{{count}} бы",
        "d": "d",
    }
    found = problems(english, russian, "ru")
    assert "c: missing in ru" in found
    assert "d: in ru but not in en" in found
    assert any(f.startswith("a: placeholders ['m']") for f in found)
    assert any(f.startswith("b: plural forms") and "many" in f for f in found)
    assert len(found) == 4


def test_the_fixed_button_names():
    for lang, names in {
        "ru": {"run": "Запустить", "check": "Проверить", "reset": "Сбросить", "stop": "Остановить"},
        "et": {"run": "Käivita", "check": "Kontrolli", "reset": "Lähtesta", "stop": "Peata"},
    }.items():
        catalog = load(lang)
        for button, name in names.items():
            assert catalog[f"{button}.button"].endswith(f" {name}"), (lang, button)


# -- no English left in the converted modules ----------------------------------------------

WEB = LOCALES.parent
# The modules whose learner-visible words are all in the message files. Not yet: web/sw.js
# (the offline fallback page it writes).
CONVERTED = sorted(
    p
    for p in [
        *WEB.glob("*.js"),
        *WEB.glob("explorer/*.js"),
        *WEB.glob("model/*.js"),
        WEB / "model" / "views" / "attention.js",
        WEB / "model" / "views" / "embeddings.js",
        WEB / "model" / "views" / "residual.js",
        WEB / "model" / "views" / "training.js",
        WEB / "model" / "views" / "backward.js",
        WEB / "model" / "views" / "probs.js",
    ]
    if p.name not in {"sw.js", "sw-preview.js"}
)
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`|\'((?:[^\'\\\n]|\\.)*)\'')
PROSE = re.compile(r"[A-Za-z]{2,}[,:;]? [A-Za-z]{2,} [a-z]{2,}")
# Words in code that a learner never reads, or reads in Python's words (each with its why),
# by how the literal starts.
NOT_PROSE = {
    ("editor.js", "2px solid var(--md-accent-fg-color)"),  # CSS
    ("myenginetext.js", "softmax and cross-entropy"),  # engine.mine's name of a part
    ("myengine.js", " (or in the file)"),  # cut out of engine.mine's message
    ("storage.js", "storage is disabled"),  # an Error caught inside storage.js
    ("worker.js", "This site was built without the exercise checks."),  # the page says its own
    ("worker.js", "unknown message type "),  # a programming error
    ("worker.js", "\\n… output cut after   characters …\\n"),  # in the output: see below
    ("explorer.js", "data-explorer-values is not JSON:"),  # console
    ("tasks.js", "no guided task is called "),  # console
    ("words.js", "something went wrong"),  # the fallback of Python's own message
}


def english_literals(path):
    """(line, text) of each string literal of `path` that reads like an English phrase."""
    found = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip().startswith(("//", "*", "/*", "import ")):
            continue
        code = re.sub(r"\s//\s.*$", "", line)
        for m in LITERAL.finditer(code):
            text = next(g for g in m.groups() if g is not None)
            text = re.sub(r"\$\{[^}]*\}", " ", text)
            known = any(path.name == f and text.startswith(s) for f, s in NOT_PROSE)
            if PROSE.search(text) and not known:
                found.append((n, text))
    return found


@pytest.mark.parametrize("path", CONVERTED, ids=[p.relative_to(WEB).as_posix() for p in CONVERTED])
def test_a_converted_module_says_nothing_in_english_of_its_own(path):
    assert english_literals(path) == []


def test_the_search_for_english_finds_a_sentence(tmp_path):
    js = tmp_path / "x.js"
    js.write_text(
        '// "a comment is fine here"\nel.textContent = `Stopped after ${n} s: fix your code`;\n'
    )
    assert english_literals(js) == [(2, "Stopped after   s: fix your code")]
