"""Translated text that games define once at import time and show later.

``LazyHelp`` and ``LazyLines`` hold English source messages (marked ``N_``)
and translate each one, in the language current when it is read, through the
game's own catalog. ``fill`` puts styled Rich ``Text`` parts into a translated
sentence, so the sentence stays whole in the catalog.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from string import Formatter
from typing import SupportsIndex, overload

from rich.text import Text

from . import Domain


class LazyHelp(Mapping[str, str]):
    """``verb -> help`` in the language current when it is read."""

    def __init__(self, catalog: Domain, texts: Mapping[str, str]) -> None:
        self._catalog = catalog
        self._texts = dict(texts)

    def __getitem__(self, key: str) -> str:
        return self._catalog.gettext(self._texts[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)


class LazyLines(tuple[str, ...]):
    """Legend lines in the language current when they are read."""

    _catalog: Domain

    def __new__(cls, catalog: Domain, lines: tuple[str, ...]) -> LazyLines:
        made = super().__new__(cls, lines)
        made._catalog = catalog
        return made

    def __iter__(self) -> Iterator[str]:
        return (self._catalog.gettext(line) for line in tuple.__iter__(self))

    @overload
    def __getitem__(self, i: SupportsIndex) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[str, ...]: ...
    def __getitem__(self, i: SupportsIndex | slice) -> str | tuple[str, ...]:
        got = tuple.__getitem__(self, i)
        tr = self._catalog.gettext
        return tuple(tr(x) for x in got) if isinstance(got, tuple) else tr(got)


def fill(template: str, **values: str | Text) -> Text:
    """A translated sentence whose placeholders may be styled ``Text`` (a card in
    its colours): the sentence stays whole in the catalog, the parts keep their style."""
    out = Text()
    for literal, field, _spec, _conv in Formatter().parse(template):
        out.append(literal)
        if field is not None:
            value = values[field]
            if isinstance(value, Text):
                out.append_text(value)
            else:
                out.append(str(value))
    return out
