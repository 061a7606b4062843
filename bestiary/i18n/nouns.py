"""Names a translated sentence can decline: ``{card:acc}``, ``{card:g:opłacony|opłacona|opłacone}``.

Polish puts a card's name in the case its sentence needs ("kładzie Kolczastą
Zbroję", "walczy z Dzikim Wilkiem") and makes words agree with its gender.
That is a property of the Polish *sentence*, so the translator chooses it in
the ``msgstr`` through the placeholder's format spec, and the English ``msgid``
keeps a plain ``{card}``:

    msgid  "{player} places {card} on the {lane}"
    msgstr "{player} kładzie {card:acc} na pozycji: {lane}"

The cases are data, kept beside the catalog as ``locale/<lang>/nouns.toml``
(one table per name as the code spells it: ``gender`` and the cases ``gen dat
acc ins loc``); ``Domain.noun(text)`` wraps a name so that formatting looks its
forms up in the language current at that moment. A name that is itself
translated (Monster Maker's ``Corridor 10``, keyed by its English name) also
carries ``name``, its nominative in that language (``Korytarz 10``); the
``str`` of a ``Noun`` stays the name as given (the protocol's), its format is
the reader's. A spec:

- none or ``nom``: the name as the reader says it (``name``, else as given);
- ``gen dat acc ins loc``: the name in that case (a name without data,
  or a language without a file, keeps its own form);
- ``g:<m>|<f>|<n>`` (or with a fourth ``|<pl>``): the word that agrees with
  the name's gender, e.g. ``{card:g:opłacony|opłacona|opłacone}``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path

CASES = ("nom", "gen", "dat", "acc", "ins", "loc")
GENDERS = ("m", "f", "n", "pl")


@cache
def forms_of(localedir: str, lang: str) -> Mapping[str, Mapping[str, str]]:
    """nominative → {gender, case: form} for one language (empty without a file)."""
    path = Path(localedir) / lang / "nouns.toml"
    if not path.exists():
        return {}
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    return {str(k): {str(a): str(b) for a, b in v.items()} for k, v in data.items()}


class Noun(str):
    """A name (a ``str``) whose format spec picks its case or its gender's word."""

    __slots__ = ("_localedir",)
    _localedir: str

    def __new__(cls, text: str, localedir: str) -> Noun:
        made = super().__new__(cls, text)
        made._localedir = localedir
        return made

    def forms(self) -> Mapping[str, str]:
        from . import language

        return forms_of(self._localedir, language()).get(str(self), {})

    def shown(self) -> str:
        """The name as the reader says it: its translated nominative, if any."""
        return self.forms().get("name", str(self))

    def __format__(self, spec: str) -> str:
        if not spec:
            return self.shown()
        if spec in CASES:
            forms = self.forms()
            return forms.get(spec) or forms.get("name", str(self))
        if spec.startswith("g:"):
            words = spec[2:].split("|")
            gender = self.forms().get("gender", "m")
            index = GENDERS.index(gender) if gender in GENDERS else 0
            return words[index] if index < len(words) else words[0]
        # A spec this module does not know is a catalog's slip (tests/test_polish_whole.py
        # checks every catalog): the name as it is, never a log line lost to it.
        return self.shown()


def names_of(localedir: str, lang: str) -> dict[str, str]:
    """name as given → the reader's nominative, for the names the file translates."""
    return {k: v["name"] for k, v in forms_of(localedir, lang).items() if "name" in v}
