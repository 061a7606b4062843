"""What a page in Polish may say: the words of the Polish catalogs, the
games' proper names and the numbers — and which words would be English.

Used by tests/web/test_games_to_the_end.py (issue 26: "every visible text
in Polish mode comes from the Polish catalog (no English fallback; a list of
allowed proper names only)"). A text passes when, with the proper names and
the players' names taken out, none of its words is a word of the English
source texts (the catalogs' msgids) that no Polish translation uses.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from bestiary.engine import get_game

PACKAGE = Path(__file__).resolve().parents[2] / "bestiary"
# A placeholder: {name}, {card:acc}, {card:g:opłacony|opłacona|opłacone}.
PLACEHOLDER = re.compile(r"\{(\w+)(?::([^{}]*))?\}")
# A word: letters only (apostrophes and hyphens split it); a token with a
# digit is a number, a die roll or a version ("2D+3", "10p", "v0.2").
TOKEN = re.compile(r"[\w'’.+\-/]+")
LETTERS = re.compile(r"[^\W\d_]+")

# Proper names that are not in the games' card lists: the project, the games'
# titles (a title is a name, kept in every language) and the rulebooks' own
# words that the Polish catalogs keep as they are.
NAMES = (
    "Bestiary",
    "Monster Girl Taxonomy",
    "Monster Maker",
    "M.E.A.T.: The Cult",
    "Teratozoic",
    "Telestarion",
    # Monster Maker's treasure keyword: the Polish log and rules keep it.
    "OPEN",
    "EN",
    "PL",
)
# Words that are Polish as they are: the catalogs keep them from the English
# ("twój front", "faza: DRAFT", "Link z zaproszeniem", "stół solo"), so the
# rule above cannot tell them from a fallback.
POLISH_TOO = frozenset({"front", "draft", "link", "solo"})


def catalogs() -> list[Path]:
    """Every Polish catalog: the pages' and server's, the game pages', each game's."""
    return sorted(PACKAGE.glob("**/locale/pl/LC_MESSAGES/*.po"))


def _placeholder_words(text: str) -> str:
    """A msgstr with its placeholders' names dropped and the words a gender
    spec chooses from kept ("{card:g:opłacony|opłacona}" → "opłacony opłacona")."""

    def keep(m: re.Match[str]) -> str:
        spec = m.group(2) or ""
        return " ".join(spec.removeprefix("g:").split("|")) if spec.startswith("g:") else " "

    return PLACEHOLDER.sub(keep, text)


def words(text: str) -> Iterator[str]:
    """The words of ``text``, lower case; numbers, die rolls, single letters
    (a card's ends "N E S W") and a word cut short on a card ("tylk…") are
    no words."""
    for token in TOKEN.findall(re.sub(r"\w*…", " ", text)):
        if any(ch.isdigit() for ch in token):
            continue
        yield from (w.lower() for w in LETTERS.findall(token) if len(w) > 1)


def _messages() -> Iterator[tuple[list[str], list[str]]]:
    """(English forms, Polish forms) of every translated message."""
    for path in catalogs():
        with path.open("rb") as fh:
            catalog = read_po(fh, locale="pl")
        for message in catalog:
            if not message.id or message.fuzzy:
                continue
            ids = list(message.id) if isinstance(message.id, (tuple, list)) else [message.id]
            strs = (
                list(message.string)
                if isinstance(message.string, (tuple, list))
                else [message.string or ""]
            )
            yield [str(i) for i in ids], [str(s) for s in strs if s]


@cache
def _nouns() -> dict[str, dict[str, str]]:
    """Every game's Polish name forms (``locale/pl/nouns.toml``), by the name as the
    code spells it: M.E.A.T.'s Polish nominatives, and the English card names of
    Monster Maker and Teratozoic with their Polish ``name``."""
    found: dict[str, dict[str, str]] = {}
    for path in sorted(PACKAGE.glob("**/locale/pl/nouns.toml")):
        with path.open("rb") as fh:
            for key, forms in tomllib.load(fh).items():
                found[key] = {str(k): str(v) for k, v in forms.items()}
    return found


@cache
def translated_names(game_id: str | None = None) -> frozenset[str]:
    """The card names a Polish page shows translated (a ``name`` in nouns.toml:
    "Corridor 10" is "Korytarz 10", "orange 1 elbow" "pomarańczowy łokieć 1"):
    no proper names, so on a Polish page their English words are English.
    With ``game_id``, only that game's."""
    if game_id is not None:
        path = PACKAGE / "games" / game_id.replace("-", "_") / "locale" / "pl" / "nouns.toml"
        if not path.is_file():
            return frozenset()
        with path.open("rb") as fh:
            return frozenset(k for k, f in tomllib.load(fh).items() if "name" in f)
    return frozenset(k for k, forms in _nouns().items() if "name" in forms)


@cache
def polish_words() -> frozenset[str]:
    """Every word a Polish translation uses, with the declined forms of the
    names (locale/pl/nouns.toml; an English key with a Polish name is not one)."""
    found: set[str] = set()
    for ids, strs in _messages():
        # A word the translation keeps from its English source (a command,
        # a field name: "wpisz undo", "(left, front, right)") is no evidence.
        kept = {w for i in ids for w in words(PLACEHOLDER.sub(" ", i))}
        for s in strs:
            found.update(w for w in words(_placeholder_words(s)) if w not in kept)
    for name, forms in _nouns().items():
        if "name" not in forms:  # a Polish nominative is itself a Polish name
            found.update(words(name))
        for value in forms.values():
            found.update(words(value))
    return frozenset(found)


@cache
def english_words() -> frozenset[str]:
    """Every word of the English source texts (msgids) that no Polish
    translation uses: on a Polish page, such a word is an English fallback."""
    found: set[str] = set()
    for ids, _ in _messages():
        for i in ids:
            found.update(words(PLACEHOLDER.sub(" ", i)))
    # The English card names that a Polish page shows in Polish ("elbow", "corridor").
    for name in translated_names():
        found.update(words(name))
    return frozenset(found - polish_words() - POLISH_TOO)


def _strings(value: Any, keys: frozenset[str]) -> Iterator[str]:
    """The strings under ``keys`` anywhere in a card list (JSON)."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            if k in keys:
                if isinstance(v, str):
                    yield v
                elif isinstance(v, list):
                    yield from (x for x in v if isinstance(x, str))
            yield from _strings(v, keys)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v, keys)


# The fields of the games' card lists that hold names as the data gives them:
# cards, treasures, prizes and Eras (name), Taxonomy's types, families and
# collecting keys, M.E.A.T.'s factions. Not "en": M.E.A.T. names its cards in
# Polish, and their English names are for English pages.
NAME_FIELDS = frozenset({"name", "type", "family", "keys", "faction"})


@cache
def proper_names(game_id: str) -> tuple[str, ...]:
    """The game's proper names (its card list's names) and the shared ones,
    longest first (a longer name is taken out before a name inside it). A name
    the Polish page shows translated (Monster Maker's and Teratozoic's cards,
    treasures, prizes and Eras: ``translated_names``) is no proper name."""
    game = get_game(game_id)
    catalog = game.catalog(game.ruleset(None)) or {}
    names = set(_strings(catalog, NAME_FIELDS)) | set(NAMES)
    names.update(k for k in (catalog.get("keys") or {}) if isinstance(k, str))
    # A card face may print the part of a name after its number (Teratozoic's
    # "green 3 left arm" shows "left arm").
    names.update(m.group(1) for n in list(names) if (m := re.search(r"\d+ (\D+)$", n)))
    # Only this game's own translated names: Taxonomy's Ogre is a monster's
    # proper name though Monster Maker's Ogre card is "Ogr" in Polish.
    names -= translated_names(game_id)
    return tuple(sorted((n for n in names if n.strip()), key=len, reverse=True))


@cache
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for the names, whole words only, longest first; a card's
    banner writes a name in capitals."""
    forms = {f for n in names if n.strip() for f in (n, n.upper())}
    ordered = sorted(forms, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, ordered)) + r")(?!\w)")


@cache
def _name_lines(names: tuple[str, ...]) -> frozenset[str]:
    """The runs of whole words of each name: a card face breaks a long name
    over lines ("Statue of" / "Goddess") or cuts it to fit ("nuclear slud")."""
    runs: set[str] = set()
    for name in names:
        parts = name.split()
        runs.update(
            " ".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts) + 1)
        )
    return frozenset(runs)


def english_in(text: str, names: Iterable[str]) -> list[str]:
    """The English words in ``text`` once ``names`` (proper names, players'
    names) are taken out of it."""
    names = tuple(names)
    line = text.strip()
    runs = _name_lines(names)
    # A whole line of a name, or a long start of one (a short word such as
    # "of" would start too many names to tell anything).
    if line in runs or (len(line) >= 8 and any(r.startswith(line) for r in runs)):
        return []
    rest = _names_pattern(names).sub(" ", text)
    foreign = english_words()
    return [w for w in words(rest) if w in foreign]
