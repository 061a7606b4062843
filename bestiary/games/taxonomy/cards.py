"""Taxonomy cards: the card model, loading and validating the card file, and
the collecting keys derived from it.

A card is a small int (its row in the file, from 0). Everything the rules
need on the hot path is a plain list indexed by card id (`Deck.nature_mask`,
`Deck.keys_of`, `Deck.group_of`), built once per card file and variant.

Collecting keys (RULES.md, reading 1): a card is collected by its type; a
Beastman card by its family. A card that is the only one of its type is an
orphan and is collected into the `Orphans` set; in v0.2 a Beastman card that
is the only one of its family is collected into `Beastman orphans` (the two
orphan sets never mix). Cheerful cards are also collected into `Cheerful`.
"""

from __future__ import annotations

import csv
import io
import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ...engine import datafile
from ...engine.errors import BadCardFile
from ...engine.rng import Dice
from ...i18n import domain

_ = domain("taxonomy", __file__)

DATA = Path(__file__).parent / "data"
DEFAULT_CARDS = DATA / "monsters.csv"
NATURES_FILE = DATA / "natures.toml"

# The game natures, in the order they resolve when one card has several.
NATURES: tuple[str, ...] = (
    "aggressive",
    "cheerful",
    "mean",
    "honest",
    "impatient",
    "proud",
    "loyal",
    "miscellaneous",
)
AGGRESSIVE, CHEERFUL, MEAN, HONEST, IMPATIENT, PROUD, LOYAL, MISC = (1 << i for i in range(8))
NATURE_BIT: dict[str, int] = {n: 1 << i for i, n in enumerate(NATURES)}

PROVENANCES = ("published", "assumed", "unknown")
REQUIRED_COLUMNS = ("name", "type", "family")
OPTIONAL_COLUMNS = ("dispositions", "provenance", "natures", "source")

ORPHANS = "Orphans"
BEASTMAN_ORPHANS = "Beastman orphans"
CHEERFUL_KEY = "Cheerful"
BEASTMAN = "beastman"


# The names of every mask's natures, worked out once: every card a view or an
# event shows asks for them.
_NAMES_OF_MASK: tuple[tuple[str, ...], ...] = tuple(
    tuple(n for i, n in enumerate(NATURES) if mask >> i & 1) for mask in range(1 << len(NATURES))
)


def natures_of_mask(mask: int) -> list[str]:
    return list(_NAMES_OF_MASK[mask])


@dataclass(frozen=True)
class Card:
    id: int
    name: str
    type: str
    family: str
    dispositions: str
    provenance: str
    natures: tuple[str, ...]
    source: str
    line: int

    @property
    def is_beastman(self) -> bool:
        return self.type.casefold() == BEASTMAN

    @property
    def group(self) -> str:
        """What the card is collected by: its type, or its family for a Beastman."""
        return f"Beastman/{self.family}" if self.is_beastman else self.type


@dataclass(frozen=True)
class NatureTable:
    """natures.toml: disposition word -> game nature, and the miscellaneous roll."""

    words: dict[str, str]  # casefolded word -> nature name or "none"
    dice: Dice
    roll: tuple[str, ...]  # roll result i (from 1) -> nature or "none"

    def nature_of_roll(self, result: int) -> str | None:
        """The nature a roll gives, or None when the roll is outside the list."""
        if 1 <= result <= len(self.roll):
            return self.roll[result - 1]
        return None


def read_text(path: str, what: str) -> str:
    """A data file's text: UTF-8, with or without the byte-order mark that
    spreadsheets write ("CSV UTF-8"); anything else is a one-line BadCardFile."""
    return datafile.read_text(
        path, _(' (the {what}: a spreadsheet\'s "CSV UTF-8")').format(what=what)
    )


@lru_cache(maxsize=4)
def load_natures(path: str = str(NATURES_FILE)) -> NatureTable:
    try:
        data = tomllib.loads(read_text(path, _("natures table")))
    except tomllib.TOMLDecodeError as exc:
        raise BadCardFile(path, None, _("not TOML: {error}").format(error=exc)) from None
    words: dict[str, str] = {}
    for nature, items in dict(data.get("words", {})).items():
        if nature not in NATURES and nature != "none":
            raise BadCardFile(
                path,
                None,
                _("[words] has unknown nature {nature!r}; natures: {natures}").format(
                    nature=nature, natures=", ".join(NATURES)
                ),
            )
        for w in items:
            words[str(w).casefold()] = nature
    roll = data.get("roll", {})
    try:
        dice = Dice.parse(str(roll.get("dice", "2d20-4")))
    except Exception as exc:
        raise BadCardFile(path, None, _("[roll] dice: {error}").format(error=exc)) from None
    natures = tuple(str(n) for n in roll.get("natures", ()))
    for n in natures:
        if (n not in NATURES and n != "none") or n == "miscellaneous":
            raise BadCardFile(
                path,
                None,
                _("[roll] natures has {nature!r}; allowed: none and every nature but misc").format(
                    nature=n
                ),
            )
    if not any(dice.minimum <= i <= dice.maximum for i in range(1, len(natures) + 1)):
        raise BadCardFile(
            path, None, _("no result of {dice} falls in the [roll] natures list").format(dice=dice)
        )
    return NatureTable(words, dice, natures)


def _split(text: str) -> list[str]:
    return [w.strip() for w in text.replace(";", ",").split(",") if w.strip()]


def _dispositions_words(text: str) -> list[str]:
    # "Varied (also lustful)": a parenthetical qualifies the words, it is not one.
    out, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            cur.append(ch)
    out = _split("".join(cur))
    return [w.casefold() for w in out]


RESERVED_KEYS = (ORPHANS, BEASTMAN_ORPHANS, CHEERFUL_KEY)


def _check_group(
    type_: str, family: str, path: str, lineno: int, groups: dict[str, tuple[str, int]]
) -> None:
    """A type (a Beastman's family) names a collecting key: it must not be one
    of the keys the rules make (Orphans, Beastman orphans, Cheerful,
    Beastman/<family>) nor differ from another only in case (keys are looked
    up case-insensitively)."""
    beastman = type_.casefold() == BEASTMAN
    group = f"Beastman/{family}" if beastman else type_
    folded = group.casefold()
    if not beastman and (
        folded in (k.casefold() for k in RESERVED_KEYS) or folded.startswith("beastman/")
    ):
        raise BadCardFile(
            path,
            lineno,
            _(
                "type {type!r} is the name of a collecting key the rules make "
                "({keys}, Beastman/<family>); name the type otherwise"
            ).format(type=type_, keys=", ".join(RESERVED_KEYS)),
        )
    first = groups.setdefault(folded, (group, lineno))
    if first[0] != group:
        if beastman:
            problem = _("family {group!r} is written {first!r} on line {line}; write it one way")
        else:
            problem = _("type {group!r} is written {first!r} on line {line}; write it one way")
        raise BadCardFile(path, lineno, problem.format(group=group, first=first[0], line=first[1]))


def parse_cards(text: str, path: str, table: NatureTable) -> list[Card]:
    """Parse a card file (CSV with a header; `#` lines are comments). Every
    problem raises BadCardFile naming the line."""
    lines = text.splitlines()
    header: list[str] | None = None
    cards: list[Card] = []
    seen: dict[str, int] = {}
    groups: dict[str, tuple[str, int]] = {}  # casefolded group -> (as first written, line)
    for lineno, raw in enumerate(lines, 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:
            fields = next(csv.reader(io.StringIO(raw)))
        except csv.Error as exc:
            raise BadCardFile(path, lineno, _("not valid CSV: {error}").format(error=exc)) from None
        fields = [f.strip() for f in fields]
        if header is None:
            header = [f.casefold() for f in fields]
            missing = [c for c in REQUIRED_COLUMNS if c not in header]
            if missing:
                raise BadCardFile(
                    path,
                    lineno,
                    _("the header lacks column(s) {missing}; expected {columns}").format(
                        missing=", ".join(missing),
                        columns=",".join(REQUIRED_COLUMNS + OPTIONAL_COLUMNS),
                    ),
                )
            unknown = [c for c in header if c not in REQUIRED_COLUMNS + OPTIONAL_COLUMNS]
            if unknown:
                raise BadCardFile(
                    path,
                    lineno,
                    _("unknown column(s) {unknown}; columns: {columns}").format(
                        unknown=", ".join(unknown),
                        columns=", ".join(REQUIRED_COLUMNS + OPTIONAL_COLUMNS),
                    ),
                )
            continue
        if len(fields) != len(header):
            raise BadCardFile(
                path,
                lineno,
                _("expected {expected} fields ({header}), got {got}").format(
                    expected=len(header), header=",".join(header), got=len(fields)
                ),
            )
        row = dict(zip(header, fields, strict=True))
        for col in REQUIRED_COLUMNS:
            if not row[col]:
                raise BadCardFile(path, lineno, _("empty {column}").format(column=col))
        _check_group(row["type"], row["family"], path, lineno, groups)
        name = row["name"]
        folded = name.casefold()
        if folded in seen:
            raise BadCardFile(
                path,
                lineno,
                _("card {name!r} already appears on line {line}").format(
                    name=name, line=seen[folded]
                ),
            )
        seen[folded] = lineno
        provenance = row.get("provenance", "") or "unknown"
        if provenance not in PROVENANCES:
            raise BadCardFile(
                path,
                lineno,
                _("provenance {provenance!r}; allowed: {allowed}").format(
                    provenance=provenance, allowed=", ".join(PROVENANCES)
                ),
            )
        dispositions = row.get("dispositions", "")
        natures_text = row.get("natures", "")
        natures: list[str] = []
        # A natures column is taken as written, a blank cell included (no
        # nature): a designer who clears a cell means "no nature". Only a file
        # without the column has its natures worked out from the dispositions.
        if "natures" in row:
            for n in natures_text.replace(",", " ").split():
                n = n.casefold()
                if n == "none":
                    continue
                if n not in NATURES:
                    raise BadCardFile(
                        path,
                        lineno,
                        _("unknown nature {nature!r}; natures: {natures}, none").format(
                            nature=n, natures=", ".join(NATURES)
                        ),
                    )
                if n not in natures:
                    natures.append(n)
        else:
            for w in _dispositions_words(dispositions):
                if w not in table.words:
                    raise BadCardFile(
                        path,
                        lineno,
                        _(
                            "disposition {word!r} has no nature in natures.toml; "
                            "add it to [words] or fill the natures column"
                        ).format(word=w),
                    )
                n = table.words[w]
                if n != "none" and n not in natures:
                    natures.append(n)
        natures.sort(key=NATURES.index)
        cards.append(
            Card(
                id=len(cards),
                name=name,
                type=row["type"],
                family=row["family"],
                dispositions=dispositions,
                provenance=provenance,
                natures=tuple(natures),
                source=row.get("source", ""),
                line=lineno,
            )
        )
    if header is None:
        raise BadCardFile(path, None, _("no header line (name,type,family,...) and no cards"))
    if not cards:
        raise BadCardFile(path, None, _("the file lists no cards"))
    return cards


class Deck:
    """The cards of one card file under one variant's collecting rules."""

    def __init__(self, cards: Sequence[Card], natures: NatureTable, beastman_orphans: bool) -> None:
        self.cards = tuple(cards)
        self.natures = natures
        self.beastman_orphans = beastman_orphans
        self.size = len(cards)
        self.names = tuple(c.name for c in cards)
        self.by_name = {c.name.casefold(): c.id for c in cards}
        # Groups: what a proud monster bans (its type; a Beastman's family).
        groups = sorted({c.group for c in cards})
        self.group_names = tuple(groups)
        gid = {g: i for i, g in enumerate(groups)}
        self.group_of = [gid[c.group] for c in cards]
        group_size = [0] * len(groups)
        for g in self.group_of:
            group_size[g] += 1
        # Collecting keys (reading 1).
        key_names: list[str] = []
        key_id: dict[str, int] = {}

        def key(name: str) -> int:
            if name not in key_id:
                key_id[name] = len(key_names)
                key_names.append(name)
            return key_id[name]

        self.primary = []
        for c in cards:
            single = group_size[self.group_of[c.id]] == 1
            if single and not c.is_beastman:
                self.primary.append(key(ORPHANS))
            elif single and beastman_orphans:
                self.primary.append(key(BEASTMAN_ORPHANS))
            else:
                self.primary.append(key(c.group))
        self.cheerful_key = key(CHEERFUL_KEY)
        self.key_names = tuple(key_names)
        self.key_by_name = {k.casefold(): i for i, k in enumerate(key_names)}
        self.num_keys = len(key_names)
        self.nature_mask = [sum(NATURE_BIT[n] for n in c.natures) for c in cards]
        self.keys_of: list[tuple[int, ...]] = [
            (self.primary[c.id], self.cheerful_key)
            if self.nature_mask[c.id] & CHEERFUL
            else (self.primary[c.id],)
            for c in cards
        ]
        self.key_size = [0] * self.num_keys
        for ks in self.keys_of:
            for k in ks:
                self.key_size[k] += 1
        self.orphan_keys = frozenset(key_id[k] for k in (ORPHANS, BEASTMAN_ORPHANS) if k in key_id)
        # As every view shows them (views copy them: a view is the caller's to change).
        self.key_sizes_by_name = {key_names[k]: n for k, n in enumerate(self.key_size)}
        self.orphan_key_names = tuple(sorted(key_names[k] for k in self.orphan_keys))
        self.misc = [bool(m & MISC) for m in self.nature_mask]

    def card(self, name: str) -> int | None:
        return self.by_name.get(name.casefold())

    def key(self, name: str) -> int | None:
        return self.key_by_name.get(name.casefold())

    def members(self, key: int) -> list[int]:
        return [c for c in range(self.size) if key in self.keys_of[c]]

    def orphans(self) -> dict[str, list[str]]:
        return {
            self.key_names[k]: [self.names[c] for c in self.members(k)]
            for k in sorted(self.orphan_keys)
        }


@lru_cache(maxsize=16)
def _load(path: str, mtime: float, beastman_orphans: bool) -> Deck:
    table = load_natures()
    text = read_text(path, _("card file"))
    return Deck(parse_cards(text, path, table), table, beastman_orphans)


def load_deck(path: str = "", beastman_orphans: bool = True) -> Deck:
    """The deck of a card file ("" = the shipped monsters.csv); cached."""
    p = path or str(DEFAULT_CARDS)
    return _load(p, modified(p), beastman_orphans)


def modified(path: str) -> float:
    """The file's modification time (the cache key), or a one-line BadCardFile."""
    try:
        return os.stat(path).st_mtime  # (not pathlib: this runs at every new game)
    except OSError as exc:
        reason = exc.strerror or exc
        raise BadCardFile(path, None, _("cannot read: {reason}").format(reason=reason)) from None
    except ValueError:  # a NUL byte in the name
        raise BadCardFile(repr(path), None, _("not a file name")) from None
