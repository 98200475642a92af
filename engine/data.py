"""The course's training data: 5,163 first names shipped inside the package.

`engine/data/names.txt` holds one lowercase name a line (letters a-z, deduplicated,
sorted); `engine/data/README.md` states where they come from (the public-domain 1990
US Census first-name lists, as carried by PyPI's `names` 0.3.0). Nothing is downloaded.

>>> names = load_names()
>>> len(names), names[:3]
(5163, ['aaron', 'abbey', 'abbie'])

API (stable; lessons import it):
    NAMES_PATH                      where the file is (a pathlib.Path)
    load_names() -> list[str]       every name, in file order
    split_names(names, seed=0, fraction=0.9) -> (train, test)
                                    a seeded shuffle cut in two, for a held-out loss
    split_three(names, seed=0, fractions=(0.8, 0.1, 0.1)) -> (train, dev, test)
                                    a seeded shuffle cut in three (day 35)
"""

import random
from pathlib import Path

from .errors import said

__all__ = ["NAMES_PATH", "load_names", "split_names", "split_three"]

NAMES_PATH = Path(__file__).with_name("data") / "names.txt"


def load_names(path=NAMES_PATH):
    """Every name in the file, one per line, blank lines skipped."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise said(
            FileNotFoundError,
            "data.noNamesFile",
            f"no names file at {path}; it ships with the engine package (engine/data/names.txt). "
            "Reinstall the package, or pass the path of a file with one name a line.",
            path=path,
        ) from None
    return [line.strip() for line in text.splitlines() if line.strip()]


def split_names(names, seed=0, fraction=0.9):
    """Shuffle a copy of `names` with `seed` and cut it: the first `fraction` trains."""
    if not 0.0 < fraction < 1.0:
        raise said(
            ValueError,
            "data.fraction",
            f"fraction must be between 0 and 1, got {fraction!r}",
            fraction=repr(fraction),
        )
    shuffled = list(names)
    random.Random(seed).shuffle(shuffled)
    cut = round(len(shuffled) * fraction)
    return shuffled[:cut], shuffled[cut:]


def split_three(names, seed=0, fractions=(0.8, 0.1, 0.1)):
    """Shuffle a copy of `names` with `seed` and cut it in three: (train, dev, test).

    The training set fits the weights, the dev set chooses (settings, when to stop), the
    test set reports once at the end (day 35). The first round(n * fractions[0]) names of
    the shuffle train, the next round(n * fractions[1]) are the dev set, the rest the test
    set; the same seed gives the same three lists.

    >>> split_three(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"], seed=1)
    (['g', 'i', 'j', 'h', 'f', 'd', 'a', 'e'], ['b'], ['c'])
    """
    fractions = tuple(fractions)
    if len(fractions) != 3 or not all(0.0 < f < 1.0 for f in fractions):
        raise said(
            ValueError,
            "data.fractions",
            f"fractions must be three numbers between 0 and 1 (train, dev, test), got {fractions!r}",
            fractions=repr(fractions),
        )
    if abs(sum(fractions) - 1.0) > 1e-9:
        raise said(
            ValueError,
            "data.fractionsSum",
            f"fractions must add up to 1, got {fractions!r} (sum {sum(fractions)!r})",
            fractions=repr(fractions),
            sum=repr(sum(fractions)),
        )
    shuffled = list(names)
    random.Random(seed).shuffle(shuffled)
    n_train = round(len(shuffled) * fractions[0])
    n_dev = round(len(shuffled) * fractions[1])
    return shuffled[:n_train], shuffled[n_train : n_train + n_dev], shuffled[n_train + n_dev :]
