"""Teratozoic's cards and Era cards: the model and loading the data files.

Cards are small ints (their row in ``data/cards.csv``); everything a rule
needs about a card is in the :class:`Card` tuple-like record, and the tile
geometry (its ends in both orientations) is precomputed by :mod:`.edges`.
Both data files are reconstructions (see RULES.md): the text lost the
card faces and the numbers on the Era cards.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bestiary.engine import BadCardFile
from bestiary.engine.datafile import decode_text, read_bytes
from bestiary.i18n import domain

from .edges import orientations, parse_ends

_ = domain("teratozoic", __file__)

DATA = Path(__file__).parent / "data"

COLOURS = ("orange", "red", "purple", "blue", "green", "yellow", "grey", "three-colour")
# Colours a single-colour monster can be built of (grey and three-colour never).
SINGLE_COLOURS = ("orange", "red", "purple", "blue", "green", "yellow")
SETS = ("starting", "basic", "advanced")
THIRDS = ("orange", "purple", "green")
POOLS = ("sun", "cross")
SYMBOL = {
    "orange": "#",
    "red": "//",
    "purple": "∅",
    "blue": "O",
    "green": "Θ",
    "yellow": "=",
    "grey": "☢",
    "three-colour": "✿",
}


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    name: str
    set: str
    pool: str  # "sun"/"cross" for the starting Gene Pools, "" otherwise
    colour: str
    value: int
    ends: str  # the data file's text, e.g. "N E S W"
    doubler: bool
    third: str
    # Edge masks of the two orientations (upright, turned 180°): see edges.py.
    orients: tuple[int, ...]

    @property
    def single_colour(self) -> bool:
        return self.colour in SINGLE_COLOURS

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Era:
    index: int
    name: str
    min_players: int
    mutations: int  # cards drawn from the Mutations Deck
    gene_pool: int  # then from one's Gene Pool
    min_play: int
    winner_play: int
    winner_hand: int
    others_hand: int

    @property
    def final(self) -> bool:
        return self.name == FINAL_ERA

    def describe(self) -> str:
        return (
            f"draw {self.mutations} + {self.gene_pool}, play at least {self.min_play}; "
            f"winner gains {self.winner_play} from play + {self.winner_hand} from hand; "
            f"others gain {self.others_hand} from hand"
        )


FINAL_ERA = "Teratozoic Era"

_CARD_COLUMNS = ["name", "set", "pool", "colour", "value", "ends", "doubler", "third"]
_ERA_COLUMNS = [
    "name",
    "min_players",
    "mutations",
    "gene_pool",
    "min_play",
    "winner_play",
    "winner_hand",
    "others_hand",
]


def _rows(path: Path, columns: list[str]) -> list[tuple[int, dict[str, str]]]:
    """Data rows with their line numbers; '#' lines are comments."""
    return _parse_rows(str(path), read_bytes(path), columns)


def _parse_rows(where: str, raw: bytes, columns: list[str]) -> list[tuple[int, dict[str, str]]]:
    text = decode_text(where, raw, _(" CSV"))
    if "\0" in text:
        raise BadCardFile(where, None, _("contains a NUL character; save the file as UTF-8 CSV"))
    lines = text.splitlines()
    numbered = [(i + 1, ln) for i, ln in enumerate(lines) if ln.strip() and not ln.startswith("#")]
    if not numbered:
        raise BadCardFile(where, None, _("no header line"))
    out = []
    header: list[str] | None = None
    for lineno, line in numbered:
        try:
            rows = list(csv.reader([line]))
        except csv.Error as exc:
            raise BadCardFile(
                where, lineno, _("not a CSV line: {error}").format(error=exc)
            ) from None
        row = rows[0] if rows else []
        if header is None:
            header = row
            if [h.strip() for h in header] != columns:
                raise BadCardFile(
                    where, lineno, _("header must be: {columns}").format(columns=",".join(columns))
                )
            continue
        if len(row) != len(columns):
            raise BadCardFile(
                where,
                lineno,
                _("expected {expected} fields, got {got}").format(
                    expected=len(columns), got=len(row)
                ),
            )
        out.append((lineno, {k: v.strip() for k, v in zip(columns, row, strict=True)}))
    return out


def _int(path: Path, lineno: int, field: str, text: str, lo: int, hi: int) -> int:
    try:
        v = int(text)
    except ValueError:
        raise BadCardFile(
            str(path),
            lineno,
            _("{field} must be a whole number, not {text!r}").format(field=field, text=text),
        ) from None
    if not lo <= v <= hi:
        raise BadCardFile(
            str(path),
            lineno,
            _("{field} must be {low}..{high}, not {value}").format(
                field=field, low=lo, high=hi, value=v
            ),
        )
    return v


def load_cards(path: Path | str = DATA / "cards.csv") -> tuple[Card, ...]:
    """Every monster card, validated (BadCardFile names the line and the problem)."""
    path = Path(path)
    return _build_cards(path, _rows(path, _CARD_COLUMNS))


def parse_cards(where: str, raw: bytes) -> tuple[Card, ...]:
    """A card file's bytes -> its cards (``where`` names it in errors)."""
    return _build_cards(Path(where), _parse_rows(where, raw, _CARD_COLUMNS))


def _build_cards(path: Path, rows: list[tuple[int, dict[str, str]]]) -> tuple[Card, ...]:
    cards: list[Card] = []
    names: set[str] = set()
    for lineno, r in rows:
        if r["name"].casefold() in names:
            raise BadCardFile(
                str(path), lineno, _("duplicate card name {name!r}").format(name=r["name"])
            )
        for field, allowed in (("set", SETS), ("colour", COLOURS), ("third", THIRDS)):
            if r[field] not in allowed:
                raise BadCardFile(
                    str(path),
                    lineno,
                    _("{field} {value!r} is not one of {allowed}").format(
                        field=field, value=r[field], allowed=", ".join(allowed)
                    ),
                )
        if r["pool"] not in ("", *POOLS):
            raise BadCardFile(
                str(path),
                lineno,
                _("pool must be empty, sun or cross: {pool!r}").format(pool=r["pool"]),
            )
        if (r["set"] == "starting") != bool(r["pool"]):
            raise BadCardFile(str(path), lineno, _("starting cards (and only they) name a pool"))
        try:
            edges = parse_ends(r["ends"])
        except ValueError as exc:
            raise BadCardFile(str(path), lineno, str(exc)) from None
        value = _int(path, lineno, "value", r["value"], 0, 9)
        doubler = _int(path, lineno, "doubler", r["doubler"] or "0", 0, 1) == 1
        names.add(r["name"].casefold())
        cards.append(
            Card(
                len(cards),
                r["name"],
                r["set"],
                r["pool"],
                r["colour"],
                value,
                r["ends"],
                doubler,
                r["third"],
                orientations(edges),
            )
        )
    _check_pools(path, cards)
    return tuple(cards)


def _check_pools(path: Path, cards: list[Card]) -> None:
    """'A Gene Pool consists of six cards of a single color with each value (1-6).'"""
    pools: dict[tuple[str, str], list[Card]] = {}
    for c in cards:
        if c.pool:
            pools.setdefault((c.colour, c.pool), []).append(c)
    for (colour, pool), members in pools.items():
        if sorted(c.value for c in members) != [1, 2, 3, 4, 5, 6]:
            raise BadCardFile(
                str(path),
                None,
                _("starting Gene Pool {colour}/{pool} must hold one card of each value 1-6").format(
                    colour=colour, pool=pool
                ),
            )
    if len(pools) < 6:
        raise BadCardFile(
            str(path),
            None,
            _("six starting Gene Pools are needed, found {n}").format(n=len(pools)),
        )


def load_eras(path: Path | str = DATA / "eras.csv") -> tuple[Era, ...]:
    path = Path(path)
    eras: list[Era] = []
    for lineno, r in _rows(path, _ERA_COLUMNS):
        nums = {k: _int(path, lineno, k, r[k], 0, 6) for k in _ERA_COLUMNS[1:]}
        if nums["mutations"] + nums["gene_pool"] != 5:
            raise BadCardFile(str(path), lineno, _("an Era's draws must make a hand of 5 cards"))
        eras.append(Era(len(eras), r["name"], **nums))
    if not eras or eras[-1].name != FINAL_ERA:
        raise BadCardFile(
            str(path), None, _("the last Era card must be the {era}").format(era=FINAL_ERA)
        )
    if eras[-1].mutations != 0:
        raise BadCardFile(str(path), None, _("the Teratozoic Era draws only from the Gene Pool"))
    return tuple(eras)


@lru_cache(maxsize=1)
def default_cards() -> tuple[Card, ...]:
    return load_cards()


@lru_cache(maxsize=1)
def default_eras() -> tuple[Era, ...]:
    return load_eras()


def cards_from(path: str) -> tuple[Card, ...]:
    """The card set of a match: the standard deck, or a designer's file. A file is
    read once per version (its size and modification time): a match and its
    bots keep one card table, and a file edited between matches is read again."""
    if not path:
        return default_cards()
    try:
        st = Path(path).stat()
    except OSError as exc:
        raise BadCardFile(
            path, None, _("cannot read: {reason}").format(reason=exc.strerror)
        ) from None
    return _cards_version(path, st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=8)
def _cards_version(path: str, mtime_ns: int, size: int) -> tuple[Card, ...]:
    return load_cards(path)
