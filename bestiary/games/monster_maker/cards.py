"""Monster Maker cards: the card model and loading + validating the data files.

Three piles, three files under ``data/``: ``deck.csv`` (the Monster Maker
cards everyone draws from), ``treasures.csv`` (appendix C) and
``prizes.csv``. A card *type* is a small int (its row); a pile is a list of
those ints.
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from bestiary.engine import BadCardFile, BestiaryError, Dice
from bestiary.engine.datafile import decode_text

from ...i18n import domain

_ = domain("monster_maker", __file__)

DATA = Path(__file__).parent / "data"

KINDS = ("corridor", "monster", "character", "spell", "detour", "trap")
MONSTER_TYPES = ("human", "undead", "general")
CHARACTER_ABILITIES = frozenset(
    {"casts", "charms", "avoids_traps", "opens_doors", "dispels_undead", "heals"}
)
SPELL_ABILITIES = frozenset({"human_only", "charm"})
SPECIALS = ("", "secret_door", "goddess")

_GOLD = re.compile(r"^\s*([0-9]+)\s*[dD]\s*(?:[xX*]\s*([0-9]+))?\s*(?:([+-])\s*([0-9]+))?\s*$")


@dataclass(frozen=True, slots=True)
class Strength:
    """A character's or spell's strength: dice (``3D+3``) or a fixed number (``10``)."""

    dice: Dice | None
    fixed: int = 0

    @classmethod
    def parse(cls, text: str) -> Strength:
        text = text.strip()
        if re.fullmatch(r"-?[0-9]+", text):
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
        if re.fullmatch(r"-?[0-9]+", text):
            return cls(int(text))
        m = _GOLD.match(text)
        if not m:
            raise ValueError(
                _("gold {text!r} is neither a number nor dice such as 3Dx20 or 4Dx20-200").format(
                    text=text
                )
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
        healers = tuple(c.index for c in self.cards if c.has("heals"))
        object.__setattr__(self, "healers", healers)
        # Names by index, as views and move texts show them.
        object.__setattr__(self, "card_names", tuple(c.name for c in self.cards))
        object.__setattr__(self, "treasure_names", tuple(t.name for t in self.treasures))

    by_name: dict[str, CardType] = field(init=False, repr=False, compare=False)
    of_kind: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    healers: tuple[int, ...] = field(init=False, repr=False, compare=False)  # Heal cards
    card_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    treasure_names: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def deck(self) -> list[int]:
        return [c.index for c in self.cards for _ in range(c.count)]

    def treasure_pile(self) -> list[int]:
        return [t.index for t in self.treasures]

    def prize_pile(self) -> list[int]:
        return [p.index for p in self.prizes for _ in range(p.count)]


# Limits that keep a designer's file playable (and the action space, which
# grows with the square of the card types, small). Far above the shipped data.
MAX_CARD_TYPES = 200
MAX_TREASURES = 100
MAX_PRIZE_TYPES = 100
MAX_COUNT = 100  # copies of one card
MAX_NUMBER = 10_000  # perch, monster strength, penalties, bonuses, prize gold
MAX_DICE = 20  # dice in one strength or gold value
MAX_SIDES = 100
MAX_LISTED = 12  # problems shown in one error
MAX_TEXT = 40  # characters of a number or dice value

DECK_COLUMNS = ("name", "kind", "count", "value", "type", "abilities")
TREASURE_COLUMNS = (
    "name",
    "open",
    "gold",
    "return_penalty",
    "battle_penalty",
    "dispels_undead",
    "weapon_bonus",
    "weapon_users",
    "special",
    "once_per_game",
)
PRIZE_COLUMNS = ("name", "count", "gold")

_WHOLE = re.compile(r"^[0-9]+$")
_SIGNED = re.compile(r"^-?[0-9]+$")


class _Problems:
    """Every problem of one file, reported together in one line."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.items: list[tuple[int | None, str]] = []

    def add(self, line: int | None, problem: str) -> None:
        self.items.append((line, problem))

    def fail(self, line: int | None, problem: str) -> BadCardFile:
        """A problem that stops reading the file at once (with any found before)."""
        self.add(line, problem)
        return self.error()

    def error(self) -> BadCardFile:
        if len(self.items) == 1:
            line, problem = self.items[0]
            return BadCardFile(str(self.path), line, problem)
        shown = "; ".join(
            _("line {line}: {problem}").format(line=line, problem=p) if line is not None else p
            for line, p in self.items[:MAX_LISTED]
        )
        more = len(self.items) - MAX_LISTED
        if more > 0:
            text = _("{n} problems: {problems}; … and {more} more").format(
                n=len(self.items), problems=shown, more=more
            )
        else:
            text = _("{n} problems: {problems}").format(n=len(self.items), problems=shown)
        return BadCardFile(str(self.path), None, text)

    def check(self) -> None:
        if self.items:
            raise self.error()


def _text(path: Path, problems: _Problems) -> str:
    """The file as text: UTF-8, with or without a byte-order mark."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise problems.fail(
            None, _("cannot read the file ({reason})").format(reason=reason)
        ) from None
    return decode_text(str(path), data, _(" (CSV, comma separated)"))


def _split(line: str) -> list[str] | None:
    try:
        return next(csv.reader([line]), [])
    except csv.Error:
        return None


def _rows(
    path: Path, columns: tuple[str, ...], problems: _Problems
) -> list[tuple[int, dict[str, str]]]:
    """The data rows of a CSV file with ``#`` comment lines, with their line numbers.

    The header must name exactly ``columns`` (any order); a row with the wrong
    number of values is reported and skipped."""
    text = _text(path, problems)
    lines = [(i + 1, line) for i, line in enumerate(text.splitlines())]
    lines = [(n, line) for n, line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise problems.fail(
            None,
            _("the file has no header line and no cards; columns: {columns}").format(
                columns=", ".join(columns)
            ),
        )
    head_line, head_text = lines[0]
    header = [h.strip().lower() for h in (_split(head_text) or [])]
    missing = [c for c in columns if c not in header]
    unknown = [h for h in header if h not in columns]
    twice = sorted({h for h in header if header.count(h) > 1})
    if missing:
        problems.add(head_line, _("missing column(s) {missing}").format(missing=", ".join(missing)))
    if unknown:
        problems.add(
            head_line,
            _("unknown column(s) {unknown}").format(unknown=", ".join(map(repr, unknown))),
        )
    if twice:
        problems.add(head_line, _("column(s) {twice} given twice").format(twice=", ".join(twice)))
    if problems.items:
        problems.add(
            head_line,
            _("the header must name the columns {columns}").format(columns=", ".join(columns)),
        )
        problems.check()
    out = []
    for n, line in lines[1:]:
        values = _split(line)
        if values is None:
            problems.add(n, _("is not a CSV line (stray quote or NUL character)"))
        elif len(values) != len(header):
            problems.add(
                n,
                _("{got} values, expected {expected}: {header}").format(
                    got=len(values), expected=len(header), header=", ".join(header)
                ),
            )
        else:
            out.append((n, {h: v.strip() for h, v in zip(header, values, strict=True)}))
    if not out and not problems.items:
        problems.add(None, _("the file lists no cards"))
    return out


def _name(problems: _Problems, line: int, text: str, seen: set[str], what: str) -> str | None:
    """A card name: not empty, printable, unique in its file."""
    if not text:
        problems.add(line, _("a {what} needs a name").format(what=what))
        return None
    if not text.isprintable():
        problems.add(
            line, _("{what} name {text!r} has control characters").format(what=what, text=text)
        )
        return None
    if text.casefold() in seen:
        problems.add(line, _("{what} {text!r} is listed twice").format(what=what, text=text))
        return None
    seen.add(text.casefold())
    return text


def _int(
    problems: _Problems,
    line: int,
    what: str,
    text: str,
    low: int = 0,
    high: int = MAX_NUMBER,
) -> int | None:
    if not _WHOLE.match(text):
        problems.add(
            line,
            _("{what} {text!r} is not a whole number from {low} to {high}").format(
                what=what, text=text, low=low, high=high
            ),
        )
        return None
    # Compare lengths first: int() of thousands of digits is refused by Python.
    if len(text.lstrip("0")) > len(str(high)) or not low <= int(text) <= high:
        shown = text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "…"
        problems.add(
            line,
            _("{what} {shown} must be between {low} and {high}").format(
                what=what, shown=shown, low=low, high=high
            ),
        )
        return None
    return int(text)


def _yes(problems: _Problems, line: int, what: str, text: str) -> bool:
    t = text.strip().lower()
    if t in ("yes", "y", "true", "1"):
        return True
    if t not in ("no", "n", "false", "0", ""):
        problems.add(line, _("{what} {text!r} must be yes or no").format(what=what, text=text))
    return False


def _strength(problems: _Problems, line: int, text: str) -> Strength | None:
    """A character's or spell's strength: ``2D+3``, ``4D``, ``2d20-4`` or a number."""
    allowed = _("dice such as 2D+3 (at most {dice} dice of {sides} sides) or a number").format(
        dice=MAX_DICE, sides=MAX_SIDES
    )
    if len(text) > MAX_TEXT:
        problems.add(
            line,
            _("strength {text!r}… is too long; {allowed}").format(
                text=text[:MAX_TEXT], allowed=allowed
            ),
        )
        return None
    try:
        st = Strength.parse(text) if text and (_SIGNED.match(text) or "d" in text.lower()) else None
    except (BestiaryError, ValueError):
        st = None
    if st is None:
        problems.add(
            line, _("strength {text!r} must be {allowed}").format(text=text, allowed=allowed)
        )
        return None
    d = st.dice
    big = abs(st.fixed) > MAX_NUMBER or (
        d is not None
        and (d.count > MAX_DICE or d.sides > MAX_SIDES or abs(d.modifier) > MAX_NUMBER)
    )
    if big:
        problems.add(
            line, _("strength {text!r} is too large; {allowed}").format(text=text, allowed=allowed)
        )
        return None
    return st


def _gold(problems: _Problems, line: int, text: str) -> Gold | None:
    if len(text) > MAX_TEXT:
        problems.add(line, _("gold {text!r}… is too long").format(text=text[:MAX_TEXT]))
        return None
    try:
        g = Gold.parse(text)
    except ValueError as exc:
        problems.add(line, str(exc))
        return None
    fixed = _SIGNED.match(text.strip()) is not None
    if not fixed and not (1 <= g.dice <= MAX_DICE and g.times <= MAX_NUMBER):
        problems.add(
            line,
            _("gold {text!r}: 1 to {dice} dice, times at most {times}").format(
                text=text, dice=MAX_DICE, times=MAX_NUMBER
            ),
        )
        return None
    if abs(g.fixed) > 10 * MAX_NUMBER or abs(g.plus) > 10 * MAX_NUMBER:
        problems.add(
            line,
            _("gold {text!r} must be between {low} and {high}").format(
                text=text, low=-10 * MAX_NUMBER, high=10 * MAX_NUMBER
            ),
        )
        return None
    return g


def _deck_row(
    problems: _Problems, line: int, r: dict[str, str], index: int, seen: set[str]
) -> CardType | None:
    name = _name(problems, line, r["name"], seen, _("card"))
    kind = r["kind"].lower()
    if kind not in KINDS:
        problems.add(
            line,
            _("kind {kind!r} unknown; kinds: {kinds}").format(
                kind=r["kind"], kinds=", ".join(KINDS)
            ),
        )
    count = _int(problems, line, "count", r["count"], 1, MAX_COUNT)
    abilities = frozenset(r["abilities"].split())
    value, strength, mtype = 0, None, ""
    ok = True
    if kind in ("corridor", "monster"):
        what = _("corridor length") if kind == "corridor" else _("monster strength")
        v = _int(problems, line, what, r["value"], 1)
        ok, value = v is not None, v or 0
    if kind == "monster":
        mtype = r["type"].lower()
        if mtype not in MONSTER_TYPES:
            problems.add(
                line,
                _("monster type {type!r}; types: {types}").format(
                    type=r["type"], types=", ".join(MONSTER_TYPES)
                ),
            )
            ok = False
    elif kind in ("character", "spell"):
        strength = _strength(problems, line, r["value"])
        ok = strength is not None
    allowed = {"character": CHARACTER_ABILITIES, "spell": SPELL_ABILITIES}.get(kind, frozenset())
    if abilities - allowed and kind in KINDS:
        problems.add(
            line,
            _("unknown abilit(ies) {unknown} for a {kind}; allowed: {allowed}").format(
                unknown=", ".join(sorted(abilities - allowed)),
                kind=kind,
                allowed=", ".join(sorted(allowed)) or _("none"),
            ),
        )
        ok = False
    if name is None or kind not in KINDS or count is None or not ok:
        return None
    return CardType(index, name, kind, count, value, strength, mtype, abilities)


def load_deck(path: Path) -> tuple[CardType, ...]:
    problems = _Problems(path)
    rows = _rows(path, DECK_COLUMNS, problems)
    if len(rows) > MAX_CARD_TYPES:
        raise problems.fail(
            None,
            _("{n} cards; at most {most} different cards").format(n=len(rows), most=MAX_CARD_TYPES),
        )
    cards: list[CardType] = []
    seen: set[str] = set()
    for line, r in rows:
        card = _deck_row(problems, line, r, len(cards), seen)
        if card is not None:
            cards.append(card)
    kinds = {c.kind for c in cards}
    if not problems.items:
        for k in ("corridor", "monster", "character"):
            if k not in kinds:
                problems.add(None, _("the deck needs at least one {kind} card").format(kind=k))
    problems.check()
    return tuple(cards)


def _treasure_row(
    problems: _Problems,
    line: int,
    r: dict[str, str],
    index: int,
    seen: set[str],
    classes: frozenset[str],
    deck_names: frozenset[str],
    deck_path: str,
) -> TreasureType | None:
    name = _name(problems, line, r["name"], seen, _("treasure"))
    if name is not None and name.casefold() in deck_names:
        # "dispel with X" names a Cleric or a treasure: the two must differ.
        problems.add(line, _("treasure {name!r} has the name of a deck card").format(name=name))
        name = None
    gold = _gold(problems, line, r["gold"])
    users = frozenset(r["weapon_users"].split())
    unknown = sorted(u for u in users if u not in classes)
    if unknown:
        problems.add(
            line,
            _(
                "weapon user(s) {unknown} are not character cards of the deck {deck}; "
                "characters: {characters}"
            ).format(
                unknown=", ".join(map(repr, unknown)),
                deck=deck_path,
                characters=", ".join(sorted(classes)) or _("none"),
            ),
        )
    special = r["special"].lower()
    if special not in SPECIALS:
        problems.add(
            line,
            _("special {special!r}; allowed: secret_door, goddess, or empty").format(
                special=r["special"]
            ),
        )
    bonus = _int(problems, line, "weapon_bonus", r["weapon_bonus"])
    if bonus and not users:
        problems.add(line, _("a weapon needs weapon_users"))
    if users and not bonus:
        problems.add(line, _("weapon_users need a weapon_bonus of 1 or more"))
    ret = _int(problems, line, "return_penalty", r["return_penalty"])
    fight = _int(problems, line, "battle_penalty", r["battle_penalty"])
    opened = _yes(problems, line, "open", r["open"])
    dispels = _yes(problems, line, "dispels_undead", r["dispels_undead"])
    once = _yes(problems, line, "once_per_game", r["once_per_game"])
    if name is None or gold is None or bonus is None or ret is None or fight is None:
        return None
    return TreasureType(index, name, opened, gold, ret, fight, dispels, bonus, users, special, once)


def load_treasures(
    path: Path,
    classes: frozenset[str],
    deck_names: frozenset[str] = frozenset(),
    deck_path: str = "",
) -> tuple[TreasureType, ...]:
    """The treasure cards; weapons name character classes of the deck (``deck_path``)."""
    problems = _Problems(path)
    rows = _rows(path, TREASURE_COLUMNS, problems)
    if len(rows) > MAX_TREASURES:
        raise problems.fail(
            None, _("{n} treasures; at most {most}").format(n=len(rows), most=MAX_TREASURES)
        )
    out: list[TreasureType] = []
    seen: set[str] = set()
    for line, r in rows:
        t = _treasure_row(problems, line, r, len(out), seen, classes, deck_names, deck_path)
        if t is not None:
            out.append(t)
    problems.check()
    return tuple(out)


def load_prizes(path: Path) -> tuple[PrizeType, ...]:
    problems = _Problems(path)
    rows = _rows(path, PRIZE_COLUMNS, problems)
    if len(rows) > MAX_PRIZE_TYPES:
        raise problems.fail(
            None, _("{n} prizes; at most {most}").format(n=len(rows), most=MAX_PRIZE_TYPES)
        )
    out: list[PrizeType] = []
    seen: set[str] = set()
    for line, r in rows:
        name = _name(problems, line, r["name"], seen, _("prize"))
        count = _int(problems, line, "count", r["count"], 1, MAX_COUNT)
        gold = _int(problems, line, "gold", r["gold"])
        if name is not None and count is not None and gold is not None:
            out.append(PrizeType(len(out), name, count, gold))
    problems.check()
    return tuple(out)


def _stamp(path: str) -> tuple[int, int] | None:
    """When and how big a designer's file is, so an edited file is read again."""
    if not path:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None  # the loader reports the unreadable file
    return st.st_mtime_ns, st.st_size


def load_cardset(deck: str = "", treasures: str = "", prizes: str = "") -> CardSet:
    """The card set of these files (empty paths: the shipped data files).

    Read once and kept while the files are unchanged: a match loads it when
    it starts and keeps it (``State.cs``), bots once per match; a file
    edited between matches is read again."""
    return _cached(deck, treasures, prizes, _stamp(deck), _stamp(treasures), _stamp(prizes))


@lru_cache(maxsize=16)
def _cached(
    deck: str,
    treasures: str,
    prizes: str,
    *stamps: tuple[int, int] | None,
) -> CardSet:
    deck_path = Path(deck) if deck else DATA / "deck.csv"
    cards = load_deck(deck_path)
    classes = frozenset(c.name for c in cards if c.kind == "character")
    names = frozenset(c.name.casefold() for c in cards)
    return CardSet(
        cards,
        load_treasures(
            Path(treasures) if treasures else DATA / "treasures.csv", classes, names, str(deck_path)
        ),
        load_prizes(Path(prizes) if prizes else DATA / "prizes.csv"),
    )
