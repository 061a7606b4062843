"""Scoring a winning hand: pure functions, hand + table sets + claims -> the
best pattern and its points, with a breakdown (RULES.md, reading 7).

The points come from a :class:`ScoringTable` (loaded from
``data/scoring.toml``, or from a designer's file with ``-o scoring=FILE``,
by ``scoring_file.py``; nothing here reads a file). The shipped table, as
``ScoringTable.summary()`` writes it (a test keeps the two equal):

    method points (by claims this round: none, one, two):
      4+4: 3, 2, 1
      5+3: 3, 2, 2
      8:   5, 4, 4 (no claims: concealed; else exposed)
    content of a set of 4 (and of the 5 of a 5+3), by the size of its key:
      at most 4 cards: 3; at most 7 cards: 2; more: 0; a set of 4 orphans: 2
    the 3 of a 5+3: 0
    content of a set of 8, by the size of its key:
      at most 8 cards: 6; at most 12 cards: 3; more: 0;
      7 orphans and one other monster (v0.1: 8 orphans): 12

A hand may be split several ways (a cheerful card also belongs to its type's
key); it scores its best split.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from ...i18n import domain
from .cards import Deck

_ = domain("taxonomy", __file__)

HAND_SIZE = 8
PATTERNS = ("4+4", "5+3", "8")


@dataclass(frozen=True)
class Band:
    """Points for a set whose key has at most ``up_to`` cards (None: any size)."""

    up_to: int | None
    points: int


@dataclass(frozen=True)
class ScoringTable:
    """Every number of the scoring rules (reading 7). Immutable: states share it."""

    # points with 0, 1, 2 claims this round, per pattern
    method_four_four: tuple[int, int, int]
    method_five_three: tuple[int, int, int]
    method_eight: tuple[int, int, int]
    four_sizes: tuple[Band, ...]
    four_orphans: int
    three_of_five_three: int
    eight_sizes: tuple[Band, ...]
    eight_orphans: int

    def method_row(self, pattern: str) -> tuple[int, int, int]:
        if pattern == "4+4":
            return self.method_four_four
        if pattern == "5+3":
            return self.method_five_three
        return self.method_eight

    def method_points(self, pattern: str, claims: int) -> int:
        return self.method_row(pattern)[min(claims, 2)]

    def summary(self) -> str:
        """The table in words (the module docstring shows the shipped one)."""
        row = self.method_row
        return "\n".join(
            [
                "method points (by claims this round: none, one, two):",
                f"  4+4: {_triple(row('4+4'))}",
                f"  5+3: {_triple(row('5+3'))}",
                f"  8:   {_triple(row('8'))} (no claims: concealed; else exposed)",
                "content of a set of 4 (and of the 5 of a 5+3), by the size of its key:",
                f"  {_bands(self.four_sizes)}; a set of 4 orphans: {self.four_orphans}",
                f"the 3 of a 5+3: {self.three_of_five_three}",
                "content of a set of 8, by the size of its key:",
                f"  {_bands(self.eight_sizes)};",
                "  7 orphans and one other monster (v0.1: 8 orphans): " + str(self.eight_orphans),
            ]
        )


def _triple(points: tuple[int, int, int]) -> str:
    return ", ".join(map(str, points))


def _bands(bands: Sequence[Band]) -> str:
    return "; ".join(
        f"at most {b.up_to} cards: {b.points}" if b.up_to is not None else f"more: {b.points}"
        for b in bands
    )


def band_points(bands: Sequence[Band], size: int) -> int:
    for b in bands:
        if b.up_to is None or size <= b.up_to:
            return b.points
    return 0  # unreachable for a validated table: its last band has no bound


@dataclass(frozen=True)
class ScoredSet:
    key: int
    cards: tuple[int, ...]
    points: int
    rule: str


@dataclass(frozen=True)
class Score:
    pattern: str  # "4+4", "5+3" or "8"
    points: int
    method: int
    method_rule: str
    sets: tuple[ScoredSet, ...]

    def breakdown(self) -> list[dict[str, object]]:
        rows: list[dict[str, object]] = [{"rule": self.method_rule, "points": self.method}]
        rows += [{"rule": s.rule, "points": s.points} for s in self.sets]
        return rows

    def to_json(self, deck: Deck) -> dict[str, Any]:
        return {
            "pattern": self.pattern,
            "points": self.points,
            "sets": [
                {
                    "key": deck.key_names[s.key],
                    "cards": [deck.names[c] for c in s.cards],
                    "points": s.points,
                }
                for s in self.sets
            ],
            "breakdown": self.breakdown(),
        }


# -- the table of reading 7 ----------------------------------------------------------
def method_points(scoring: ScoringTable, pattern: str, claims: int) -> tuple[int, str]:
    """Points for how the hand was collected."""
    n = "no claims" if claims == 0 else ("1 claim" if claims == 1 else f"{claims} claims")
    pts = scoring.method_points(pattern, claims)
    if pattern == "4+4":
        return pts, f"two sets of 4, {n}"
    if pattern == "5+3":
        return pts, f"a set of 5 and a set of 3, {n}"
    if claims == 0:
        return pts, "a set of 8, concealed (no claims)"
    return pts, f"a set of 8, exposed ({n})"


def four_points(scoring: ScoringTable, deck: Deck, key: int) -> tuple[int, str]:
    """Content points of a set of 4 (or the 5 of a 5+3, scored as a set of 4)."""
    name = deck.key_names[key]
    if key in deck.orphan_keys:
        return scoring.four_orphans, f"set of 4 {name}"
    size = deck.key_size[key]
    return band_points(scoring.four_sizes, size), f"set of 4 {name} (a key of {size} cards)"


def eight_points(
    scoring: ScoringTable, deck: Deck, key: int, seven_plus_one: bool
) -> tuple[int, str]:
    name = deck.key_names[key]
    if key in deck.orphan_keys:
        what = "7 orphans and one other monster" if seven_plus_one else "a set of 8 orphans"
        return scoring.eight_orphans, f"{what} ({name})"
    size = deck.key_size[key]
    return band_points(scoring.eight_sizes, size), f"set of 8 {name} (a key of {size} cards)"


# Content points per key of one deck under one table: best_score runs on the hot
# path (every discard decision of a seat holding 4 of a key), so the table is
# read once per (deck, table), not per call. A memo: the functions stay pure.
Points = tuple[list[int], list[int], list[tuple[int, int, int]]]
_CONTENT: dict[tuple[int, int], tuple[Deck, ScoringTable, Points]] = {}


def table_points(scoring: ScoringTable, deck: Deck) -> Points:
    """Per key: the points of a set of 4 of it and of a set of 8; per number of
    claims (0, 1, 2): the method points of 4+4, 5+3 and 8."""
    memo = (id(deck), id(scoring))
    hit = _CONTENT.get(memo)
    if hit is None or hit[0] is not deck or hit[1] is not scoring:
        keys = range(deck.num_keys)
        four = [four_points(scoring, deck, k)[0] for k in keys]
        eight = [eight_points(scoring, deck, k, True)[0] for k in keys]
        methods = [
            (
                scoring.method_points("4+4", c),
                scoring.method_points("5+3", c),
                scoring.method_points("8", c),
            )
            for c in range(3)
        ]
        hit = _CONTENT[memo] = (deck, scoring, (four, eight, methods))
    return hit[2]


# -- finding the best split -----------------------------------------------------------
def best_score(
    deck: Deck,
    hand: Sequence[int],
    table: Sequence[tuple[int, Sequence[int]]],
    claims: int,
    seven_plus_one: bool = True,
    keys_of: Sequence[tuple[int, ...]] | None = None,
    unusable: Collection[int] = (),
    *,
    scoring: ScoringTable,
) -> Score | None:
    """The best-scoring 8-card winning hand in ``hand`` plus the ``table`` sets
    (each ``(key, cards)``; every table card must be in the set of its key),
    or None when there is none. ``keys_of`` overrides the deck's card keys
    (a miscellaneous card rolled cheerful); ``unusable`` cards (a proud ban)
    belong to no set."""
    keys_of = keys_of if keys_of is not None else deck.keys_of
    total = len(hand) + sum(len(cs) for _, cs in table)
    if total < HAND_SIZE:
        return None
    tcount: dict[int, int] = {}
    for k, cs in table:
        tcount[k] = tcount.get(k, 0) + len(cs)
    table_keys = set(tcount)
    # Per key: hand cards that have it (usable ones only).
    hkeys: dict[int, list[int]] = {}
    for c in hand:
        if c in unusable:
            continue
        for k in keys_of[c]:
            hkeys.setdefault(k, []).append(c)
    count = {k: len(v) + tcount.get(k, 0) for k, v in hkeys.items()}
    for k, n in tcount.items():
        count.setdefault(k, n)
    best: tuple[int, str, tuple[int, ...], tuple[int, ...]] | None = None

    four, eight, methods = table_points(scoring, deck)
    m44, m53, m8 = methods[min(claims, 2)]
    three = scoring.three_of_five_three

    def consider(points: int, pattern: str, keys: tuple[int, ...], sizes: tuple[int, ...]) -> None:
        nonlocal best
        if best is None or points > best[0]:
            best = (points, pattern, keys, sizes)

    cands = sorted(k for k, n in count.items() if n >= 3)
    for k in cands:
        if not table_keys <= {k}:
            continue
        n = count[k]
        if n >= HAND_SIZE or (seven_plus_one and k in deck.orphan_keys and n >= HAND_SIZE - 1):
            consider(m8 + eight[k], "8", (k,), (min(n, HAND_SIZE),))
    for a in cands:
        if count[a] < 4:
            continue
        for b in cands:
            if b == a or not table_keys <= {a, b}:
                continue
            for x, y, pattern in ((4, 4, "4+4"), (5, 3, "5+3")):
                if pattern == "4+4" and b < a:
                    continue  # the same split as (b, a)
                if _fits(hkeys, tcount, a, b, x, y):
                    pts = m44 + four[a] + four[b] if pattern == "4+4" else m53 + four[a] + three
                    consider(pts, pattern, (a, b), (x, y))
    if best is None:
        return None
    return _build(deck, best, hand, table, claims, seven_plus_one, keys_of, unusable, scoring)


def _fits(
    hkeys: dict[int, list[int]], tcount: dict[int, int], a: int, b: int, x: int, y: int
) -> bool:
    """Can disjoint sets of x cards of key a and y of key b be chosen, the
    table cards of each key included?"""
    ta, tb = tcount.get(a, 0), tcount.get(b, 0)
    if ta > x or tb > y:
        return False
    ha, hb = hkeys.get(a, ()), hkeys.get(b, ())
    both = len(set(ha) & set(hb)) if ha and hb else 0
    only_a, only_b = len(ha) - both, len(hb) - both
    need_a, need_b = x - ta, y - tb
    return (
        only_a + both >= need_a
        and only_b + both >= need_b
        and only_a + only_b + both >= need_a + need_b
    )


def _build(
    deck: Deck,
    best: tuple[int, str, tuple[int, ...], tuple[int, ...]],
    hand: Sequence[int],
    table: Sequence[tuple[int, Sequence[int]]],
    claims: int,
    seven_plus_one: bool,
    keys_of: Sequence[tuple[int, ...]],
    unusable: Collection[int],
    scoring: ScoringTable,
) -> Score:
    points, pattern, keys, sizes = best
    method, method_rule = method_points(scoring, pattern, claims)
    chosen: dict[int, list[int]] = {k: [] for k in keys}
    for k, cs in table:
        chosen[k].extend(cs)
    usable = [c for c in hand if c not in unusable]
    used: set[int] = set()
    # Cards with a single wanted key first, so that shared cards stay free.
    for k, size in zip(keys, sizes, strict=True):
        for c in usable:
            if len(chosen[k]) >= size:
                break
            shared = any(o in keys_of[c] for o in keys if o != k)
            if c not in used and k in keys_of[c] and not shared:
                chosen[k].append(c)
                used.add(c)
    for k, size in zip(keys, sizes, strict=True):
        for c in usable:
            if len(chosen[k]) >= size:
                break
            if c not in used and k in keys_of[c]:
                chosen[k].append(c)
                used.add(c)
    sets: list[ScoredSet] = []
    if pattern == "8":
        k = keys[0]
        cards = chosen[k][:HAND_SIZE]
        if len(cards) < HAND_SIZE:  # 7 orphans and one other monster
            other = next(c for c in hand if c not in used)
            cards.append(other)
        pts, rule = eight_points(scoring, deck, k, seven_plus_one)
        sets.append(ScoredSet(k, tuple(cards), pts, rule))
    else:
        for i, k in enumerate(keys):
            if pattern == "5+3" and i == 1:
                pts = scoring.three_of_five_three
                rule = f"set of 3 {deck.key_names[k]} (the 3 of a 5+3)"
            else:
                pts, rule = four_points(scoring, deck, k)
                if pattern == "5+3":
                    rule = rule.replace("set of 4", "set of 5", 1) + ", scored as a set of 4"
            sets.append(ScoredSet(k, tuple(chosen[k]), pts, rule))
    assert method + sum(s.points for s in sets) == points
    return Score(pattern, points, method, method_rule, tuple(sets))


# -- `bestiary score taxonomy` ------------------------------------------------------------
PAYLOAD_FIELDS = ("variant", "hand", "exposed", "claims")


def _names(deck: Deck, value: object, what: str) -> list[int]:
    from ...engine.errors import BadInput, UnknownCard

    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise BadInput(_("{what} must be a list of card names (strings)").format(what=what))
    out = []
    for n in value:
        c = deck.card(n)
        if c is None:
            raise UnknownCard(n, deck.names)
        out.append(c)
    return out


def score_payload(
    deck: Deck, payload: dict[str, object], seven_plus_one: bool, scoring: ScoringTable
) -> dict[str, object]:
    """JSON in, JSON out, as the issue specifies:

    in:  {"variant": "v0.2", "hand": [...], "exposed": [[...], ...], "claims": 1}
    out: {"valid": true, "pattern", "points", "sets": [...], "breakdown": [...]}
         or {"valid": false, "reason": "..."}

    An exposed set is a list of names or ``{"key": ..., "cards": [...]}``.
    ``claims`` defaults to the number of exposed sets. Malformed input raises
    BadInput, an unknown card UnknownCard.
    """
    from itertools import product

    from ...engine.errors import BadInput

    extra = sorted(set(payload) - set(PAYLOAD_FIELDS))
    if extra:
        # repr: a field name is the caller's text (it may hold a line break).
        raise BadInput(
            _("unknown field(s) {extra}; fields: {fields}").format(
                extra=", ".join(map(repr, extra)), fields=", ".join(PAYLOAD_FIELDS)
            )
        )
    if "hand" not in payload:
        raise BadInput(_('the input needs "hand": a list of card names'))
    hand = _names(deck, payload["hand"], '"hand"')
    raw_exposed = payload.get("exposed", [])
    if not isinstance(raw_exposed, list):
        raise BadInput(_('"exposed" must be a list of sets (lists of card names)'))
    exposed: list[tuple[int | None, list[int]]] = []
    for i, item in enumerate(raw_exposed):
        if isinstance(item, dict):
            unknown = sorted(set(item) - {"key", "cards"})
            if unknown or "cards" not in item:
                raise BadInput(
                    _('exposed set {n}: an object needs "cards" (and may give "key")').format(
                        n=i + 1
                    )
                )
            cards = _names(deck, item["cards"], _("exposed set {n} cards").format(n=i + 1))
            key: int | None = None
            if item.get("key") is not None:
                if not isinstance(item["key"], str) or deck.key(item["key"]) is None:
                    raise BadInput(
                        _("exposed set {n}: unknown key {key!r}; keys: {keys}").format(
                            n=i + 1, key=item.get("key"), keys=", ".join(deck.key_names)
                        )
                    )
                key = deck.key(item["key"])
            exposed.append((key, cards))
        else:
            exposed.append((None, _names(deck, item, _("exposed set {n}").format(n=i + 1))))
    claims = payload.get("claims", len(exposed))
    if not isinstance(claims, int) or isinstance(claims, bool) or not 0 <= claims <= 2:
        raise BadInput(_('"claims" must be 0, 1 or 2 (a hand of 8 holds at most two claimed sets)'))
    if claims < len(exposed):
        raise BadInput(
            _(
                '"claims" is {claims} but {exposed} set(s) are exposed; '
                "every exposed set was laid by a claim"
            ).format(claims=claims, exposed=len(exposed))
        )
    every = hand + [c for _, cs in exposed for c in cs]
    seen: set[int] = set()
    for c in every:
        if c in seen:
            raise BadInput(
                _("card {name!r} appears twice; the deck has one of each").format(
                    name=deck.names[c]
                )
            )
        seen.add(c)
    if len(every) != HAND_SIZE:
        return {
            "valid": False,
            "reason": f"a winning hand has {HAND_SIZE} cards (hand plus exposed sets); "
            f"this one has {len(every)}",
        }
    # The key(s) each exposed set may be laid under.
    options: list[list[int]] = []
    for i, (key, cards) in enumerate(exposed):
        if len(cards) < 4:
            return {"valid": False, "reason": f"exposed set {i + 1} has fewer than 4 cards"}
        common = set(deck.keys_of[cards[0]])
        for c in cards[1:]:
            common &= set(deck.keys_of[c])
        if key is not None:
            if key not in common:
                return {
                    "valid": False,
                    "reason": f"exposed set {i + 1} is not all {deck.key_names[key]}",
                }
            common = {key}
        if not common:
            return {
                "valid": False,
                "reason": f"exposed set {i + 1} has no collecting key in common",
            }
        options.append(sorted(common))
    best: Score | None = None
    for keys in product(*options):
        table = [(k, cs) for k, (_, cs) in zip(keys, exposed, strict=True)]
        s = best_score(deck, hand, table, claims, seven_plus_one, scoring=scoring)
        if s is not None and (best is None or s.points > best.points):
            best = s
    if best is None:
        return {
            "valid": False,
            "reason": "not a winning hand: it is not a set of 8, two sets of 4 of different "
            "keys, or a set of 5 and a set of 3 of different keys"
            + ("" if not seven_plus_one else " (nor 7 orphans and one other monster)"),
        }
    return {"valid": True, **best.to_json(deck)}
