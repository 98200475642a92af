"""The number of days, where a page or mkdocs.yml's `site_description` says it.

`{{ days }}` becomes the course's number of days in words ("forty-one") and `{{ Days }}` the
same at the start of a sentence ("Forty-one"): the manifest's count (course.py), so adding a
day changes no page that states the total.
"""

from __future__ import annotations

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
MARKER, CAPITALISED = "{{ days }}", "{{ Days }}"


def in_words(n: int) -> str:
    """0 to 99 in words ("forty-one"); a larger number in digits."""
    if not 0 <= n < 100:
        return str(n)
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")


def fill(text: str, days: int, lang: str = "en") -> str:
    """`text` with its `{{ days }}` and `{{ Days }}` markers made the number of days: in words
    in English, in digits in Russian and Estonian (where the words' case follows the sentence)."""
    if "{{" not in text:
        return text
    words = in_words(days) if lang == "en" else str(days)
    return text.replace(MARKER, words).replace(CAPITALISED, words[:1].upper() + words[1:])
