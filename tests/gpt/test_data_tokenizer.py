"""The shipped names and the character tokenizer."""

import hashlib
import re

import pytest

from engine.data import NAMES_PATH, load_names, split_names
from engine.tokenizer import Tokenizer


def test_names_are_lowercase_letters_unique_and_sorted():
    names = load_names()
    assert len(names) == 5163
    assert all(re.fullmatch(r"[a-z]+", n) for n in names)
    assert len(set(names)) == len(names)
    assert names == sorted(names)
    assert {"mary", "james", "emma"} <= set(names)


def test_provenance_note_states_the_file_hash_and_size():
    readme = (NAMES_PATH.parent / "README.md").read_text(encoding="utf-8")
    digest = hashlib.sha256(NAMES_PATH.read_bytes()).hexdigest()
    assert digest in readme
    assert "5,163" in readme and "public domain" in readme


def test_split_is_seeded_disjoint_and_complete():
    names = load_names()
    train, test = split_names(names, seed=0)
    assert (train, test) == split_names(names, seed=0)
    assert len(test) == round(0.1 * len(names)) and not set(train) & set(test)
    assert sorted(train + test) == names
    with pytest.raises(ValueError):
        split_names(names, fraction=1.0)


def test_missing_names_file_says_what_to_do(tmp_path):
    with pytest.raises(FileNotFoundError, match="one name a line"):
        load_names(tmp_path / "nope.txt")


def test_tokenizer_round_trip_and_bos():
    tok = Tokenizer()
    assert (tok.bos, tok.vocab_size) == (26, 27)
    assert tok.encode("abz") == [26, 0, 1, 25, 26]
    assert tok.encode("abz", bos=False) == [0, 1, 25]
    assert tok.decode(tok.encode("emma")) == ".emma."
    assert tok.decode(tok.encode("emma"), skip_bos=True) == "emma"
    assert Tokenizer.from_text(load_names()).chars == tok.chars


def test_tokenizer_explains_bad_input():
    tok = Tokenizer()
    with pytest.raises(ValueError, match="not in the vocabulary"):
        tok.encode("Emma")
    with pytest.raises(ValueError, match="outside"):
        tok.symbol(27)
    with pytest.raises(ValueError, match="distinct"):
        Tokenizer("aa")


def test_the_names_file_ships_in_the_wheel():
    import tomllib

    root = NAMES_PATH.parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    assert "data/names.txt" in config["tool"]["setuptools"]["package-data"]["engine"]


@pytest.mark.parametrize("name", ["engine.gpt", "engine.tokenizer", "engine.data"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_split_three_is_seeded_disjoint_and_complete():
    from engine.data import split_three

    names = load_names()
    train, dev, test = split_three(names, seed=0)
    assert (train, dev, test) == split_three(names, seed=0)
    assert (len(train), len(dev), len(test)) == (4130, 516, 517)
    assert sorted(train + dev + test) == names
    assert not set(train) & set(dev) and not set(dev) & set(test) and not set(train) & set(test)
    assert split_three(names, seed=1) != (train, dev, test)
    assert names == sorted(names)  # the caller's list is left as it was
    assert split_names(names, seed=0)[0] != train  # split_names is unchanged and separate
    for bad in [(0.8, 0.2), (0.8, 0.1, 0.2), (1.0, 0.0, 0.0)]:
        with pytest.raises(ValueError, match="fractions"):
            split_three(names, fractions=bad)
