"""``card NAME`` at a prompt: a card's full text from the game's ``catalog`` hook.

Every game's catalog is JSON (``bestiary cards``): lists of records with a
``name``. We search all of them, so a game needs nothing new, and print a
record as "field: value" lines — never a Python dict or list on screen.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..engine.protocol import Game
from ..engine.ruleset import Ruleset
from ..i18n import core
from .textmatch import fold, match

# Fields that say where a card came from, not what it does at the table.
_SKIP = {"id", "provenance", "source", "file", "rarity_pl"}


def records(game: Game, rules: Ruleset) -> list[tuple[str, Mapping[str, Any]]]:
    """Every named record of the catalog, with the section it is in."""
    try:
        cat = game.catalog(rules)
    except Exception:  # a catalog that cannot load leaves card lookup off, not the game
        return []
    found: list[tuple[str, Mapping[str, Any]]] = []

    def walk(section: str, value: Any) -> Iterator[tuple[str, Mapping[str, Any]]]:
        if isinstance(value, Mapping):
            if isinstance(value.get("name"), str):
                yield section, value
            for k, v in value.items():
                if isinstance(v, list | Mapping):
                    yield from walk(str(k), v)
        elif isinstance(value, list):
            for v in value:
                yield from walk(section, v)

    if cat:
        for section, value in cat.items():
            found.extend(walk(str(section), value))
    return found


def plain(value: Any) -> str:
    """A catalog value as words: lists joined, true/false as yes/no, floats trimmed."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return core.gettext("yes") if value else core.gettext("no")
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        return "; ".join(f"{k} {plain(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(plain(v) for v in value)
    return str(value)


def card_lines(section: str, record: Mapping[str, Any]) -> list[str]:
    lines = [f"{record['name']} ({section.rstrip('s') if section.endswith('s') else section})"]
    for key, value in record.items():
        if key == "name" or key in _SKIP or value in (None, "", [], {}, False):
            continue
        lines.append(f"  {key.replace('_', ' ')}: {plain(value)}")
    return lines


def lookup(game: Game, rules: Ruleset, name: str) -> tuple[list[str] | None, list[str]]:
    """The card's lines, or None and the names it might mean (empty: no such card)."""
    recs = records(game, rules)
    # Copies of a card repeat in some catalogs: one entry per (section, name).
    unique: dict[tuple[str, str], Mapping[str, Any]] = {}
    for section, rec in recs:
        unique.setdefault((section, rec["name"]), rec)
    keys = list(unique)
    names = [n for _, n in keys]
    hit = match(name, names)
    if hit.index is not None:
        return card_lines(*_pair(keys[hit.index], unique)), []
    inside = [i for i, n in enumerate(names) if fold(name) in fold(n)]
    if len(inside) == 1:
        return card_lines(*_pair(keys[inside[0]], unique)), []
    pool = hit.candidates or tuple(inside)
    return None, sorted({names[i] for i in pool})


def _pair(
    key: tuple[str, str], unique: Mapping[tuple[str, str], Mapping[str, Any]]
) -> tuple[str, Mapping[str, Any]]:
    return key[0], unique[key]
