"""Monster Maker cards: the card model and loading + validating the data files.

Three piles, three files under ``data/``: ``deck.csv`` (the Monster Maker
cards everyone draws from), ``treasures.csv`` (appendix C) and
``prizes.csv``. A card *type* is a small int (its row); a pile is a list of
those ints.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from bestiary.engine import BadCardFile, Dice

DATA = Path(__file__).parent / "data"

KINDS = ("corridor", "monster", "character", "spell", "detour", "trap")
MONSTER_TYPES = ("human", "undead", "general")
CHARACTER_ABILITIES = frozenset(
    {"casts", "charms", "avoids_traps", "opens_doors", "dispels_undead", "heals"}
)
SPELL_ABILITIES = frozenset({"human_only", "charm"})
SPECIALS = ("", "secret_door", "goddess")

_GOLD = re.compile(r"^\s*(\d+)\s*[dD]\s*(?:[xX*]\s*(\d+))?\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True, slots=True)
class Strength:
    """A character's or spell's strength: dice (``3D+3``) or a fixed number (``10``)."""

    dice: Dice | None
    fixed: int = 0

    @classmethod
    def parse(cls, text: str) -> Strength:
        text = text.strip()
        if text.lstrip("-").isdigit():
            return cls(None, int(text))
        return cls(Dice.parse(text))

    def distribution(self) -> dict[int, float]:
        return self.dice.distribution() if self.dice is not None else {self.fixed: 1.0}

    @property
    def mean(self) -> float:
        return sum(v * p for v, p in self.distribution().items())

    def __str__(self) -> str:
        if self.dice is None:
            return str(self.fixed)
        d = self.dice
        mod = f"{d.modifier:+d}" if d.modifier else ""
        return f"{d.count}D{mod}" if d.sides == 6 else f"{d.count}d{d.sides}{mod}"


@dataclass(frozen=True, slots=True)
class Gold:
    """A treasure's value: fixed, or ``NDxM±K`` rolled when the game is over."""

    fixed: int
    dice: int = 0
    times: int = 1
    plus: int = 0

    @classmethod
    def parse(cls, text: str) -> Gold:
        text = text.strip()
        if text.lstrip("-").isdigit():
            return cls(int(text))
        m = _GOLD.match(text)
        if not m:
            raise ValueError(
                f"gold {text!r} is neither a number nor dice such as 3Dx20 or 4Dx20-200"
            )
        plus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
        return cls(0, int(m.group(1)), int(m.group(2) or 1), plus)

    @property
    def rolled(self) -> bool:
        return self.dice > 0

    def __str__(self) -> str:
        if not self.rolled:
            return str(self.fixed)
        s = f"{self.dice}D" + (f"x{self.times}" if self.times != 1 else "")
        return s + (f"{self.plus:+d}" if self.plus else "")


@dataclass(frozen=True, slots=True)
class CardType:
    index: int
    name: str
    kind: str
    count: int
    value: int = 0  # corridor perch, monster strength
    strength: Strength | None = None  # characters and spells
    mtype: str = ""  # monsters: human / undead / general
    abilities: frozenset[str] = frozenset()

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    def label(self, strength: Strength | None) -> str:
        """``Name (10p)``, ``Name (16, human)``, ``Name (2D)`` or ``Name``.

        ``strength`` is the card's strength under the rules in force (the
        Sleep errata changes it), never the printed one: a label must show
        what the card rolls."""
        if self.kind == "corridor":
            return f"{self.name} ({self.value}p)"
        if self.kind == "monster":
            return f"{self.name} ({self.value}, {self.mtype})"
        if strength is not None:
            return f"{self.name} ({strength})"
        return self.name


@dataclass(frozen=True, slots=True)
class TreasureType:
    index: int
    name: str
    open: bool
    gold: Gold
    return_penalty: int = 0
    battle_penalty: int = 0
    dispels_undead: bool = False
    weapon_bonus: int = 0
    weapon_users: frozenset[str] = frozenset()
    special: str = ""
    once_per_game: bool = False

    @property
    def weapon(self) -> bool:
        return self.weapon_bonus > 0


@dataclass(frozen=True, slots=True)
class PrizeType:
    index: int
    name: str
    count: int
    gold: int


@dataclass(frozen=True)
class CardSet:
    """Everything the game needs from the data files, with derived lookups."""

    cards: tuple[CardType, ...]
    treasures: tuple[TreasureType, ...]
    prizes: tuple[PrizeType, ...]

    def __post_init__(self) -> None:
        # Derived lookups, computed once (the hot loop reads them).
        object.__setattr__(self, "by_name", {c.name.casefold(): c for c in self.cards})
        kinds = {k: tuple(c.index for c in self.cards if c.kind == k) for k in KINDS}
        object.__setattr__(self, "of_kind", kinds)

    by_name: dict[str, CardType] = field(init=False, repr=False, compare=False)
    of_kind: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def deck(self) -> list[int]:
        return [c.index for c in self.cards for _ in range(c.count)]

    def treasure_pile(self) -> list[int]:
        return [t.index for t in self.treasures]

    def prize_pile(self) -> list[int]:
        return [p.index for p in self.prizes for _ in range(p.count)]


def _rows(path: Path) -> list[tuple[int, dict[str, str]]]:
    """The data rows of a CSV file with ``#`` comment lines, with their line numbers."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadCardFile(str(path), None, f"cannot read the file ({exc.strerror})") from None
    lines = [(i + 1, line) for i, line in enumerate(text.splitlines())]
    lines = [(n, line) for n, line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise BadCardFile(str(path), None, "the file has no header line and no cards")
    header = next(csv.reader([lines[0][1]]))
    header = [h.strip() for h in header]
    out = []
    for n, line in lines[1:]:
        values = next(csv.reader([line]))
        if len(values) != len(header):
            raise BadCardFile(
                str(path), n, f"{len(values)} columns, expected {len(header)}: {', '.join(header)}"
            )
        out.append((n, {h: v.strip() for h, v in zip(header, values, strict=True)}))
    return out


def _need(path: Path, rows: list[tuple[int, dict[str, str]]], columns: tuple[str, ...]) -> None:
    if not rows:
        raise BadCardFile(str(path), None, "the file lists no cards")
    missing = [c for c in columns if c not in rows[0][1]]
    if missing:
        raise BadCardFile(str(path), 1, f"missing column(s) {', '.join(missing)}")


def _int(path: Path, line: int, what: str, text: str, low: int = 0) -> int:
    try:
        v = int(text)
    except ValueError:
        raise BadCardFile(str(path), line, f"{what} {text!r} is not a whole number") from None
    if v < low:
        raise BadCardFile(str(path), line, f"{what} {v} must be at least {low}")
    return v


def _yes(path: Path, line: int, what: str, text: str) -> bool:
    t = text.strip().lower()
    if t in ("yes", "y", "true", "1"):
        return True
    if t in ("no", "n", "false", "0", ""):
        return False
    raise BadCardFile(str(path), line, f"{what} {text!r} must be yes or no")


def load_deck(path: Path) -> tuple[CardType, ...]:
    rows = _rows(path)
    _need(path, rows, ("name", "kind", "count", "value", "type", "abilities"))
    cards: list[CardType] = []
    seen: set[str] = set()
    for line, r in rows:
        name, kind = r["name"], r["kind"].lower()
        if not name:
            raise BadCardFile(str(path), line, "a card needs a name")
        if name.casefold() in seen:
            raise BadCardFile(str(path), line, f"card {name!r} is listed twice")
        seen.add(name.casefold())
        if kind not in KINDS:
            raise BadCardFile(str(path), line, f"kind {kind!r} unknown; kinds: {', '.join(KINDS)}")
        count = _int(path, line, "count", r["count"], 1)
        abilities = frozenset(r["abilities"].split())
        value, strength, mtype = 0, None, ""
        if kind == "corridor":
            value = _int(path, line, "corridor length", r["value"], 1)
        elif kind == "monster":
            value = _int(path, line, "monster strength", r["value"], 1)
            mtype = r["type"].lower()
            if mtype not in MONSTER_TYPES:
                raise BadCardFile(
                    str(path), line, f"monster type {mtype!r}; types: {', '.join(MONSTER_TYPES)}"
                )
        elif kind in ("character", "spell"):
            try:
                strength = Strength.parse(r["value"])
            except Exception:
                raise BadCardFile(
                    str(path),
                    line,
                    f"strength {r['value']!r} must be dice such as 2D+3 or a number",
                ) from None
        allowed = {"character": CHARACTER_ABILITIES, "spell": SPELL_ABILITIES}.get(
            kind, frozenset()
        )
        if abilities - allowed:
            raise BadCardFile(
                str(path),
                line,
                f"unknown abilit(ies) {', '.join(sorted(abilities - allowed))} for a {kind}; "
                f"allowed: {', '.join(sorted(allowed)) or 'none'}",
            )
        cards.append(CardType(len(cards), name, kind, count, value, strength, mtype, abilities))
    kinds = {c.kind for c in cards}
    for k in ("corridor", "monster", "character"):
        if k not in kinds:
            raise BadCardFile(str(path), None, f"the deck needs at least one {k} card")
    return tuple(cards)


def load_treasures(path: Path, classes: frozenset[str]) -> tuple[TreasureType, ...]:
    rows = _rows(path)
    cols = ("name", "open", "gold", "return_penalty", "battle_penalty", "dispels_undead")
    _need(path, rows, (*cols, "weapon_bonus", "weapon_users", "special", "once_per_game"))
    out: list[TreasureType] = []
    for line, r in rows:
        try:
            gold = Gold.parse(r["gold"])
        except ValueError as exc:
            raise BadCardFile(str(path), line, str(exc)) from None
        users = frozenset(r["weapon_users"].split())
        unknown = {u for u in users if u not in classes}
        if unknown:
            raise BadCardFile(
                str(path),
                line,
                f"weapon user(s) {', '.join(sorted(unknown))} are not character cards; "
                f"characters: {', '.join(sorted(classes))}",
            )
        special = r["special"].lower()
        if special not in SPECIALS:
            raise BadCardFile(
                str(path), line, f"special {special!r}; allowed: secret_door, goddess"
            )
        bonus = _int(path, line, "weapon_bonus", r["weapon_bonus"])
        if bonus and not users:
            raise BadCardFile(str(path), line, "a weapon needs weapon_users")
        out.append(
            TreasureType(
                len(out),
                r["name"],
                _yes(path, line, "open", r["open"]),
                gold,
                _int(path, line, "return_penalty", r["return_penalty"]),
                _int(path, line, "battle_penalty", r["battle_penalty"]),
                _yes(path, line, "dispels_undead", r["dispels_undead"]),
                bonus,
                users,
                special,
                _yes(path, line, "once_per_game", r["once_per_game"]),
            )
        )
    return tuple(out)


def load_prizes(path: Path) -> tuple[PrizeType, ...]:
    rows = _rows(path)
    _need(path, rows, ("name", "count", "gold"))
    return tuple(
        PrizeType(
            i,
            r["name"],
            _int(path, line, "count", r["count"], 1),
            _int(path, line, "gold", r["gold"]),
        )
        for i, (line, r) in enumerate(rows)
    )


@lru_cache(maxsize=16)
def load_cardset(deck: str = "", treasures: str = "", prizes: str = "") -> CardSet:
    """Load (and cache) a card set; empty paths mean the shipped data files."""
    cards = load_deck(Path(deck) if deck else DATA / "deck.csv")
    classes = frozenset(c.name for c in cards if c.kind == "character")
    return CardSet(
        cards,
        load_treasures(Path(treasures) if treasures else DATA / "treasures.csv", classes),
        load_prizes(Path(prizes) if prizes else DATA / "prizes.csv"),
    )
