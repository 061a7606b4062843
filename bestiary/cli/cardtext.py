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
from ..i18n import N_, core, language
from ..i18n.labels import game_catalog
from .textmatch import fold, match

# Fields that say where a card came from, not what it does at the table; and
# ``texts`` (every language's text: the reader's is shown as ``text``).
_SKIP = {"id", "provenance", "source", "file", "rarity_pl", "texts"}

# The catalog's fields and sections in the reader's language (a field of a
# designer's own card file that is not here keeps its name).
FIELDS = {
    "type": N_("type"),
    "family": N_("family"),
    "keys": N_("collecting keys"),
    "dispositions": N_("dispositions"),
    "natures": N_("natures"),
    "kind": N_("kind"),
    "count": N_("copies in the deck"),
    "copies": N_("copies in the deck"),
    "value": N_("value"),
    "abilities": N_("abilities"),
    "battle_penalty": N_("penalty in battles on the way back"),
    "return_penalty": N_("longer road back"),
    "dispels_undead": N_("dispels the undead"),
    "gold": N_("gold"),
    "once_per_game": N_("once per game"),
    "open": N_("OPEN"),
    "special": N_("special"),
    "weapon_bonus": N_("weapon bonus"),
    "weapon_users": N_("who may wield it"),
    "attack": N_("attack"),
    "defence": N_("defence"),
    "boost": N_("boost"),
    "cost": N_("cost"),
    "en": N_("English name"),
    "faction": N_("faction"),
    "fusion": N_("FUSION"),
    "instant": N_("INSTANT"),
    "passive": N_("passive ability"),
    "rarity": N_("rarity"),
    "text": N_("text"),
    "colour": N_("colour"),
    "doubler": N_("doubling card"),
    "draw": N_("draw (Mutations Deck, Gene Pool)"),
    "ends": N_("ends"),
    "min_play": N_("play at least"),
    "min_players": N_("fewest players"),
    "others": N_("the others gain"),
    "winner": N_("the winner gains"),
    "pool": N_("Gene Pool"),
    "set": N_("set"),
    "third": N_("third colour"),
}
SECTIONS = {
    "cards": N_("card"),
    "deck": N_("card"),
    "treasures": N_("treasure"),
    "prizes": N_("prize"),
    "creatures": N_("creature"),
    "destiny": N_("destiny card"),
    "leaders": N_("leader"),
    "eras": N_("Era"),
}


def shown_name(game: Game, name: str) -> str:
    """A card's name as the reader's language shows it ("Korytarz 10" for
    Monster Maker's "Corridor 10" in Polish; the name itself where the game
    gives none)."""
    catalog = game_catalog(game)
    if catalog is None:
        return name
    try:
        return f"{catalog.noun(name)}"
    except Exception:  # a name is a courtesy: never lose the card over it
        return name


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


def _word(game: Game | None) -> Any:
    """A value in the reader's language where the game's catalog or word list
    has it ("corridor" → "korytarz", "avoids_traps" → "unika pułapek"), else as it is."""
    catalog = game_catalog(game) if game is not None else None
    if catalog is None:
        return lambda v: v

    def word(value: Any) -> Any:
        if isinstance(value, str):
            return catalog.word(value) if value else value
        if isinstance(value, list | tuple):
            return [word(v) for v in value]
        return value

    return word


def card_lines(
    section: str, record: Mapping[str, Any], shown: str | None = None, game: Game | None = None
) -> list[str]:
    """The card as "field: value" lines under its name, in the reader's language
    where the catalog has it (fields, section, a card's own text)."""
    kind = SECTIONS.get(section)
    what = core.gettext(kind) if kind else section.removesuffix("s")
    name = str(record["name"])
    title = f"{shown} ({name}, {what})" if shown and shown != name else f"{name} ({what})"
    lines = [title]
    word = _word(game)
    texts = record.get("texts") if isinstance(record.get("texts"), Mapping) else {}
    for key, value in record.items():
        if key == "name" or key in _SKIP or value in (None, "", [], {}, False):
            continue
        if key == "text" and texts and texts.get(language()):
            value = texts[language()]
        # A field the card file gives in the reader's language too ("rarity_pl").
        own = record.get(f"{key}_{language()}")
        if isinstance(own, str) and own:
            value = own
        label = FIELDS.get(key)
        said = core.gettext(label) if label else key.replace("_", " ")
        if key not in ("text", "en", "name"):
            value = word(value)
        lines.append(f"  {said}: {plain(value)}")
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
    # A name as the reader's language shows it finds the card too ("Korytarz 10").
    shown = [shown_name(game, n) for n in names]

    def found(i: int) -> list[str]:
        section, rec = _pair(keys[i], unique)
        return card_lines(section, rec, shown[i], game)

    for pool_names in (names, shown):
        hit = match(name, pool_names)
        if hit.index is not None:
            return found(hit.index), []
    folded = fold(name)
    inside = [i for i, n in enumerate(names) if folded in fold(n) or folded in fold(shown[i])]
    if len(inside) == 1:
        return found(inside[0]), []
    hits = match(name, names).candidates + match(name, shown).candidates
    pool = hits or tuple(inside)
    return None, sorted({shown[i] for i in pool})


def _pair(
    key: tuple[str, str], unique: Mapping[tuple[str, str], Mapping[str, Any]]
) -> tuple[str, Mapping[str, Any]]:
    return key[0], unique[key]
