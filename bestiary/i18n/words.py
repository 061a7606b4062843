"""Words of a game's card data in another language: the values a card file
holds (a kind, an ability, a disposition, a rarity) that no sentence of the
code says, so no extracted message covers them.

They are data, beside the game's catalog: ``locale/<lang>/words.toml``, a
table of the English value → the word a reader of ``lang`` reads. A value
missing there stays as it is (a designer's own card file may hold any).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path


@cache
def words_of(localedir: str, lang: str) -> Mapping[str, str]:
    """English value → word for one language (empty without a file)."""
    path = Path(localedir) / lang / "words.toml"
    if not path.exists():
        return {}
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    return {str(k): str(v) for k, v in data.items() if isinstance(v, str)}
