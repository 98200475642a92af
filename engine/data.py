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
"""

import random
from pathlib import Path

__all__ = ["NAMES_PATH", "load_names", "split_names"]

NAMES_PATH = Path(__file__).with_name("data") / "names.txt"


def load_names(path=NAMES_PATH):
    """Every name in the file, one per line, blank lines skipped."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(
            f"no names file at {path}; it ships with the engine package (engine/data/names.txt). "
            "Reinstall the package, or pass the path of a file with one name a line."
        ) from None
    return [line.strip() for line in text.splitlines() if line.strip()]


def split_names(names, seed=0, fraction=0.9):
    """Shuffle a copy of `names` with `seed` and cut it: the first `fraction` trains."""
    if not 0.0 < fraction < 1.0:
        raise ValueError(f"fraction must be between 0 and 1, got {fraction!r}")
    shuffled = list(names)
    random.Random(seed).shuffle(shuffled)
    cut = round(len(shuffled) * fraction)
    return shuffled[:cut], shuffled[cut:]
