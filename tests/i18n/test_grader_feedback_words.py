"""What a Russian or Estonian learner reads from the grader holds no English: every day's
report of the reference, of the untouched stub and of the planted bugs of
tests/grader/test_mutations.py, with the cases' names, in ru and in et.

A stub's own "Day 4: write one_step. Read docs/lessons/..." is the course's text and is
checked too; what Python says of a planted bug's exception is not. Each file is graded once, in process (tests/grader/mutants.py: our own files only), and
its outcomes are judged and the report rendered in each language, as the CLI does after
the sandbox. A word of the English report that is still in the translated one is English
left over, unless it is code (a name of the exercise file, a Python keyword or builtin, a
word with a digit, an underscore or a dot beside it), a quoted value (a learner's name
'emma'), a word the translations themselves use (a term the language shares: "gradient"
in Estonian), or one of ALLOWED.
"""

import builtins
import functools
import io
import json
import keyword
import random
import re
import tokenize
from pathlib import Path

import pytest

import translations
from grader import report
from grader.checks import EXERCISES, check_module, judge_case
from grader.runners import execute, runner_module
from tests.grader.mutants import SOLUTIONS, load_source, mutant_source
from tests.grader.test_mutations import MUTANTS
from tests.i18n.test_catalog import po

ROOT = Path(__file__).resolve().parents[2]
LANGS = [lang for lang in translations.LANGUAGES if lang != translations.DEFAULT]

# Names of libraries, algorithms, models and hardware, and the sandbox level a report names.
ALLOWED = {
    "Adam", "AdamW", "SGD", "ReLU", "LayerNorm", "MLP", "GPT", "nanoGPT", "microGPT",
    "PyTorch", "GPU", "GPUs", "A100", "BOS", "JSON", "UTF", "bwrap", "seccomp", "nan", "inf",
}  # fmt: skip

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_QUOTED = re.compile(r"(?<![A-Za-z])'[^']*'|`[^`]*`")  # a value ('emma') or code (`=`)


def _identifiers(exercise):
    """Every name the exercise file and its reference write, with Python's own."""
    names = set(keyword.kwlist) | set(dir(builtins))
    for folder in (ROOT / "exercises", SOLUTIONS):
        source = (folder / exercise).read_text()
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NAME:
                names.add(token.string)
    return names


def _words(text):
    """The words of `text` outside quoted values and code: (word, the text around it)."""
    text = _QUOTED.sub(" ", text)
    for match in _WORD.finditer(text):
        word, start, end = match[0], match.start(), match.end()
        before, after = text[start - 1 : start], text[end : end + 1]
        if any(c.isdigit() or c == "_" for c in word) or {before, after} & set("./#"):
            continue  # code or a path: x_i, sha256, math.log, .grad, ru/lessons/...
        if after in "([" and after:
            continue  # a call or an index: std(update), out[0]
        if before == "(" and text[start - 2 : start - 1].isalnum():
            continue  # a call's argument: len(dx)
        yield word, text[max(0, start - 60) : end + 60]


@functools.cache
def translation_words():
    """{lang: the words the translations use, in lower case}."""
    found = {}
    for lang in LANGS:
        strings = [m.string for m in po(lang) if m.id]
        flat = [
            s for string in strings for s in (string if isinstance(string, tuple) else [string])
        ]
        found[lang] = {w.lower() for s in flat for w in _WORD.findall(s)}
    return found


@pytest.fixture(scope="module")
def catalog_words():
    return translation_words()


def english_left(english, shown, exercise, lang):
    """{word: the text around it} of the English report `english`'s words that are still in
    `shown`, its translation into `lang`, and are not code, a quoted value or a shared term."""
    allowed = {w.lower() for w in _identifiers(exercise) | ALLOWED} | translation_words()[lang]
    words = {w for w, _ in _words(english)}
    return {w: where for w, where in _words(shown) if w in words and w.lower() not in allowed}


def _sources(exercise):
    """The reference, the stub and each planted bug of the mutation table."""
    yield "reference", (SOLUTIONS / exercise).read_text()
    yield "stub", (ROOT / "exercises" / exercise).read_text()
    for old, new, bug, _ in MUTANTS.get(exercise, []):
        yield bug, mutant_source(exercise, old, new)


def _outcomes(exercise, source, cases):
    runner, module = runner_module(exercise), load_source(exercise, source)
    outcomes = []
    for case in cases:
        outcome = execute(runner, module, case, exercise)
        error = outcome.get("error")
        if error and error["type"] != "NotImplementedError":  # Python's words, not ours
            outcome = {"error": {**error, "message": ""}}
        outcomes.append(outcome)
    return outcomes


def _results(exercise, cases, outcomes, lang):
    check, tests = check_module(exercise), []
    for case, outcome in zip(cases, outcomes):
        passed, message = judge_case(check, case, outcome, exercise, lang)
        status = "passed" if passed else "failed"
        tests.append(
            {
                "exercise": exercise,
                "name": case["name"],
                "public": case["public"],
                "passed": passed,
                "status": status,
                "message": message,
            }
        )
    return {
        "exercises": [exercise],
        "tests": tests,
        "isolation": "bwrap",
        "sha256": "0" * 64,
        "seed": 0,
        "seconds": 1.0,
        "similarity": [],
    }


def _shown(results, lang):
    """Everything a learner reads of `results` in `lang`: the text report and Gradescope's."""
    graded = report.gradescope(results, lang)
    parts = [report.text(results, "1", lang), graded["output"]]
    parts += [f"{t['name']}\n{t['output']}" for t in graded["tests"]]
    return "\n".join(parts)


@pytest.mark.parametrize("exercise", EXERCISES)
def test_no_english_is_left_in_a_days_feedback(exercise, catalog_words):
    check = check_module(exercise)
    cases = check.public_cases() + check.hidden_cases(random.Random(0))
    allowed = {w.lower() for w in _identifiers(exercise) | ALLOWED}
    left = {lang: {} for lang in LANGS}
    for what, source in _sources(exercise):
        outcomes = _outcomes(exercise, source, cases)
        english = {w for w, _ in _words(_shown(_results(exercise, cases, outcomes, "en"), "en"))}
        for lang in LANGS:
            shown = _shown(_results(exercise, cases, outcomes, lang), lang)
            for word, where in _words(shown):
                known = word.lower() in allowed | catalog_words[lang]  # Softmax at a title's start
                if word in english and not known:
                    left[lang].setdefault(word, f"{what}: …{where}…")
    assert left == {lang: {} for lang in LANGS}, json.dumps(left, ensure_ascii=False, indent=1)


@pytest.mark.parametrize("lang", LANGS)
def test_the_similarity_section_speaks_the_reports_language(lang):
    """The course server shows the learner the whole report, its similarity section too."""
    rows = [{"exercise": "day25_microgpt.py", "match": "engine/gpt.py", "share": 0.83}]
    for found in (None, rows):
        english = "\n".join(report.similarity_lines(found))
        shown = "\n".join(report.similarity_lines(found, lang))
        assert shown != english
        assert english_left(english, shown, "day25_microgpt.py", lang) == {}
    assert "day25_microgpt.py" in shown and "83%" in shown and "engine/gpt.py" in shown
