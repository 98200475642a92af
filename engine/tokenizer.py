"""Characters to token ids and back, with one extra token that marks a name's edges.

A language model only sees integers. The course's tokenizer gives each letter an id
in alphabetical order (`a` -> 0, ..., `z` -> 25) and adds one more token, BOS
("beginning of sequence", id 26), that stands before and after every name: the model
reads BOS to start a name and predicts BOS to say "the name ends here".

>>> tok = Tokenizer()
>>> tok.vocab_size
27
>>> tok.encode("emma")
[26, 4, 12, 12, 0, 26]
>>> tok.decode([4, 12, 12, 0])
'emma'

API (stable; lessons import it):
    Tokenizer(chars="abcdefghijklmnopqrstuvwxyz")
        .chars       the symbols, in id order (a string)
        .bos         the id of BOS (== len(chars))
        .vocab_size  len(chars) + 1
        .encode(text, bos=True) -> list[int]   BOS + ids + BOS (bos=False: ids only)
        .decode(ids) -> str                     BOS shown as "." (skipped with skip_bos=True)
        .symbol(id) -> str                      one token as text ("." for BOS)
    Tokenizer.from_text(docs) -> Tokenizer      every character that occurs, sorted
"""

from .errors import said

__all__ = ["Tokenizer", "BOS_SYMBOL"]

BOS_SYMBOL = "."  # how BOS is printed; it is not a character of any name


class Tokenizer:
    """Character-level tokenizer: one id per character plus the BOS token."""

    def __init__(self, chars="abcdefghijklmnopqrstuvwxyz"):
        chars = "".join(chars)
        if not chars:
            raise said(
                ValueError,
                "tokenizer.empty",
                "a tokenizer needs at least one character, e.g. Tokenizer('ab')",
            )
        if len(set(chars)) != len(chars):
            raise said(
                ValueError,
                "tokenizer.repeated",
                f"characters must be distinct, got {chars!r}",
                chars=repr(chars),
            )
        if BOS_SYMBOL in chars:
            raise said(
                ValueError,
                "tokenizer.bosReserved",
                f"{BOS_SYMBOL!r} is reserved for printing BOS; remove it from chars",
                symbol=repr(BOS_SYMBOL),
            )
        self.chars = chars
        self.bos = len(chars)
        self.vocab_size = len(chars) + 1
        self._id = {c: i for i, c in enumerate(chars)}

    @classmethod
    def from_text(cls, docs):
        """A tokenizer for exactly the characters that occur in `docs` (strings), sorted."""
        return cls("".join(sorted(set("".join(docs)))))

    def encode(self, text, bos=True):
        """The ids of `text`, wrapped in BOS on both sides unless `bos=False`."""
        try:
            ids = [self._id[c] for c in text]
        except KeyError as err:
            raise said(
                ValueError,
                "tokenizer.notInVocabulary",
                f"{err.args[0]!r} in {text!r} is not in the vocabulary {self.chars!r}; "
                "lowercase the text and keep only these characters",
                char=repr(err.args[0]),
                text=repr(text),
                chars=repr(self.chars),
            ) from None
        return [self.bos, *ids, self.bos] if bos else ids

    def symbol(self, token_id):
        """One token as text: its character, or "." for BOS."""
        if not 0 <= token_id < self.vocab_size:
            raise said(
                ValueError,
                "tokenizer.tokenId",
                f"token id {token_id} is outside 0..{self.vocab_size - 1}",
                token=token_id,
                last=self.vocab_size - 1,
            )
        return BOS_SYMBOL if token_id == self.bos else self.chars[token_id]

    def decode(self, ids, skip_bos=False):
        """The text of `ids`; BOS prints as "." unless `skip_bos=True` drops it."""
        return "".join(self.symbol(i) for i in ids if not (skip_bos and i == self.bos))

    def __repr__(self):
        return f"Tokenizer({self.chars!r}) with BOS={self.bos}, vocab_size={self.vocab_size}"
