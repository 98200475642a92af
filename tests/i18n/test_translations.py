"""Every translated page keeps what a translation may not change (tools/translation.py), and
the comparison itself catches each kind of change it promises to."""

import pytest

from tools import translation

TRANSLATED = sorted(
    p for lang in translation.LANGUAGES for p in translation.DOCS.rglob(f"*.{lang}.md")
)


@pytest.mark.parametrize(
    "path", TRANSLATED, ids=[p.relative_to(translation.DOCS).as_posix() for p in TRANSLATED]
)
def test_a_translation_keeps_the_english_pages_cells_numbers_questions_and_hints(path):
    english = translation.source_of(path)
    assert english.is_file(), f"{path.name} translates no page: {english.name} does not exist"
    problems = translation.compare(
        english.read_text(encoding="utf-8"), path.read_text(encoding="utf-8")
    )
    assert not problems, f"{path.name}:\n" + "\n".join(problems)


ENGLISH = """---
day: 4
title: "The backward pass by hand"
phase: 1
---

# The backward pass by hand

## Run it

So the leaves' gradients are **a: 6, b: −4**, and the step moves $L$ by 0.72; 69,631 nodes.
See [day 2](day02_chain_rule.md).

```pyodide
x = 2.0 * 3
print("forward: x =", x)  # the product
```

```question
id: predict-x
ask: |
  What is x?
answer: 6
check: |
  answer = 2.0 * 3
explain: |
  Two times three.
```

```question
id: pick-one
ask: Which?
choices:
  - '[ ] this one'
  - '[x] that one'
explain: Because.
```

```exercise
file: day04_manual_backward.py
hints:
  - "first"
  - "second"
```
"""

RUSSIAN = """---
day: 4
title: "Обратный проход вручную"
phase: 1
---

# Обратный проход вручную {#the-backward-pass-by-hand}

## Запустите {#run-it}

Итак, градиенты листьев **a: 6, b: −4**, а шаг сдвигает $L$ на 0.72; 69\u00a0631 узел.
См. [день 2](day02_chain_rule.md).

```pyodide
x = 2.0 * 3
print("прямой проход: x =", x)  # произведение
```

```question
id: predict-x
ask: |
  Чему равно x?
answer: 6
check: |
  answer = 2.0 * 3
explain: |
  Два на три.
```

```question
id: pick-one
ask: Какой?
choices:
  - '[ ] этот'
  - '[x] тот'
explain: Потому что.
```

```exercise
file: day04_manual_backward.py
hints:
  - "первая"
  - "вторая"
```
"""


def test_a_faithful_translation_passes():
    assert translation.compare(ENGLISH, RUSSIAN) == []


@pytest.mark.parametrize(
    "change, complaint",
    [
        (("на 0.72", "на 0.73"), "numbers"),
        (("69\u00a0631", "69,631.5"), "numbers"),
        (("x = 2.0 * 3\nprint", "x = 2.0 * 4\nprint"), "not the same program"),
        (('print("прямой', 'print(x, "прямой'), "not the same program"),
        (("answer: 6", "answer: 7"), "answer"),
        (("  - '[ ] этот'\n  - '[x] тот'", "  - '[x] этот'\n  - '[ ] тот'"), "choices"),
        (('  - "вторая"\n', ""), "hints"),
        (("{#run-it}", ""), "headings"),
        (("(day02_chain_rule.md)", "(day03_value.md)"), "links"),
        (("phase: 1", "phase: 2"), "front matter"),
        # a paragraph that starts "1. ..." is a numbered list in Markdown
        (("Итак, градиенты листьев", "1. Итак, градиенты листьев"), "lists"),
        (("```pyodide\n", "```text\n"), "fences"),
        (("answer = 2.0 * 3\nexplain", "answer = 2.0 * 3 + 1\nexplain"), "check"),
    ],
)
def test_each_change_a_translation_may_not_make_is_named(change, complaint):
    old, new = change
    assert old in RUSSIAN
    problems = translation.compare(ENGLISH, RUSSIAN.replace(old, new, 1))
    assert any(complaint in p for p in problems), problems


def test_a_page_named_like_no_translation_is_refused():
    with pytest.raises(ValueError, match=r"\.ru\.md or \.et\.md"):
        translation.source_of(translation.DOCS / "index.md")
