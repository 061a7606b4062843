"""Forgiving matching of what a player types against a list of choices.

A newcomer types ``rock`` for ``rps rock``, ``Rzeznik`` for ``draft Rzeźnik``
or ``hold hydra`` for ``hold Hydra``. We fold case and diacritics (``ł`` has
no Unicode decomposition, so it is mapped by hand), then accept an exact
match, else a unique choice whose text — or its text after any leading
words — starts with what was typed. Several candidates are an ambiguity the
caller reports as "did you mean", never a silent guess. Last, typed words may
each start a word of the choice, in order (``straznik front``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

# Letters NFKD leaves whole (they are not a base letter plus a mark).
_EXTRA = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss"})


def fold(text: str) -> str:
    """Lower case, no diacritics, single spaces: what two spellings share."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_EXTRA))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


@dataclass(frozen=True)
class Match:
    """``index`` of the chosen item, or the candidate indices when it is ambiguous."""

    index: int | None
    candidates: tuple[int, ...] = ()


def _tails(text: str) -> list[str]:
    """The text and what is left after dropping each leading word; punctuation
    counts as a space here, so ``battle`` is a whole word of ``Bitwa (Battle)``."""
    words = re.sub(r"[^\w\s]", " ", text).split()
    return [" ".join(words[i:]) for i in range(len(words))]


def match(typed: str, choices: Sequence[str]) -> Match:
    """Find the one choice ``typed`` names (see the module docstring)."""
    want = fold(typed)
    if not want:
        return Match(None)
    folded = [fold(c) for c in choices]
    exact = [i for i, f in enumerate(folded) if f == want]
    if len(exact) == 1:
        return Match(exact[0])
    # "rock" names "rps rock" exactly once its verb is dropped.
    loose = " ".join(re.sub(r"[^\w\s]", " ", want).split()) or want
    tails = [_tails(f) for f in folded]
    tail_exact = [i for i, t in enumerate(tails) if loose in t]
    if len(tail_exact) == 1:
        return Match(tail_exact[0])
    prefix = [i for i, t in enumerate(tails) if any(x.startswith(loose) for x in t)]
    if len(prefix) == 1:
        return Match(prefix[0])
    # "straznik front" names "place Strażnik Bramy front": every typed word starts
    # a word of the choice, in order.
    typed_words = loose.split()
    spread = [i for i, t in enumerate(tails) if t and _in_order(typed_words, t[0].split())]
    if len(spread) == 1 and not prefix:
        return Match(spread[0])
    return Match(None, tuple(tail_exact or prefix or spread))


def _in_order(typed: list[str], words: list[str]) -> bool:
    at = 0
    for w in typed:
        while at < len(words) and not words[at].startswith(w):
            at += 1
        if at == len(words):
            return False
        at += 1
    return True
