"""The table of a taxonomy game: the cards in every zone, the counts the
rules read on every turn, what each seat knows of hidden cards, and the
card as views show it. ``natures.py``, ``claims.py`` and ``rules.py`` build
the game on it (each a class over the one below: modules import downward).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress
from typing import Any

from ...engine.events import EventLog
from ...engine.protocol import Game, Result, State
from ...engine.rng import Rng
from .actions import Move, Moves
from .cards import Deck, natures_of_mask
from .ruleset import TaxonomyRules
from .scoring import HAND_SIZE, Score, ScoringTable, best_score


class Board(State):
    """The state's data (filled by ``TaxonomyState``) and the bookkeeping on it.

    Every field below is a slot (``__slots__`` is their list). Why: with more
    than 30 attributes, CPython 3.11 gives up the shared-key instance dict, and
    then every ``self.method()`` call takes the slow generic lookup and every
    field read a dict probe; slots keep both on the specialised fast paths (about
    a tenth of random self-play's time). ``TaxonomyState._copy`` copies them
    one by one, so a new field must be added there too (tests/test_trust.py
    fails otherwise: a slot left empty changes the copy's fingerprint).
    For the same reason of speed the functions on the hot path hold no list
    comprehension reading their locals (``map`` instead, or a method of its
    own): in CPython 3.11 such a local becomes a cell, made at every call.
    """

    game: Game
    rules: TaxonomyRules
    players: int
    deck: Deck
    mv: Moves
    scoring: ScoringTable
    rng: Rng
    log: EventLog
    seven_plus_one: bool
    loyal_rule: bool
    window_all: bool
    group_of: list[int]
    after: tuple[tuple[int, ...], ...]
    alone: tuple[tuple[int], ...]
    attack_moves: tuple[tuple[Move, ...], ...]
    # rounds and score
    scores: list[int]
    bans: list[set[int]]
    round: int
    dealer: int
    round_results: tuple[RoundResult, ...]
    _rr_json: list[dict[str, Any]] | None
    round_turns: list[int]
    turns: int
    over: bool  # the protocol's ``over``: a plain field, read after every move
    _result: Result | None
    # whose decision
    epoch: int
    phase: str
    actor: int
    _to_act: tuple[int, ...]
    _legal: Sequence[Move] | None
    # the cards (ids): per card its natures now, its roll, its keys now
    nat: list[int]
    roll: list[int]
    ckeys: list[tuple[int, ...]]
    _cc: list[dict[str, Any] | None]
    stock: list[int]
    discards: list[int]
    hands: list[list[int]]
    tables: list[list[tuple[int, list[int]]]]
    aside: list[list[int]]
    claims: list[int]
    skips: list[int]
    # counts (below)
    kc: list[list[int]]
    hk: list[list[int]]
    big: list[int]
    tabled: list[int]
    threes: list[int]
    # knowledge (below)
    knows: bool
    kstock: list[list[int]]
    khand: list[dict[int, set[int]]]
    watched: set[int]
    peeks: list[tuple[tuple[int, ...], int] | None]
    seen_hands: list[dict[int, tuple[int, ...]]]
    # the turn: effects queued, cards drawn, the discard that may be claimed
    queue: list[tuple[int, int]]
    drawn: list[int]
    last_discard: int
    fresh_draw: bool
    attack_card: int
    duel: tuple[int, int, int] | None
    duel_choice: dict[int, int]
    duel_ties: int
    # the claim window (claims.py)
    claim_card: int
    claim_from: int
    claim_seats: tuple[int, ...]
    claim_keys: dict[int, tuple[int, ...]]
    claim_choice: dict[int, Move]
    claim_keep: dict[int, tuple[int, ...]]

    __slots__ = tuple(__annotations__)

    # The turn flow (rules.py) that the effects and claims hand back to.
    def _begin_turn(self, s: int) -> None:
        raise NotImplementedError

    def _run(self, begin: int = -1) -> None:
        raise NotImplementedError

    def _end_round(self, winner: int | None, score: Score | None, reason: str) -> None:
        raise NotImplementedError

    def _set_phase(self, phase: str, seats: tuple[int, ...]) -> None:
        self.phase = phase
        self._to_act = seats
        self._legal = None

    # ------------------------------------------------------------------ counts
    # kc[s][k]: the cards of key k that s holds (hand and table sets; a banned
    # type counts for nothing); hk[s][k]: those in hand; big[s]: the keys held
    # 4 or more times; tabled[s]: the cards in s's table sets; threes[k]: the
    # seats holding 3 or more of key k in hand (who might claim it). _draw and
    # _discard keep them card by card (the hot path); _recount counts again
    # after any other change (a claim, a tabled card, a ban).
    def _usable(self, s: int, c: int) -> bool:
        bans = self.bans[s]
        return not bans or self.deck.group_of[c] not in bans

    def _recount(self, s: int) -> None:
        """Count again every key of ``s`` (hand and table) after a change that
        is not one card in or out: a claim, a tabled card, a ban, a sampled hand."""
        tables = self.tables[s]
        self.tabled[s] = sum(len(cs) for _, cs in tables) if tables else 0
        threes = self.threes
        old = self.hk[s]
        if max(old) >= 3:  # often none (a round's start): one C scan, not a call per key
            for k in compress(range(len(old)), map((3).__le__, old)):  # the keys s held 3 of
                threes[k] -= 1
        kc = self.kc[s] = [0] * self.deck.num_keys
        hk = self.hk[s] = [0] * self.deck.num_keys
        ck = self.ckeys
        bans, group_of = self.bans[s], self.group_of
        big = 0
        for c in self.hands[s]:
            if not bans or group_of[c] not in bans:
                for k in ck[c]:
                    x = hk[k] = hk[k] + 1
                    if x == 3:
                        threes[k] += 1
                    x = kc[k] = kc[k] + 1
                    if x == 4:
                        big += 1
        for _, cards in tables:
            for c in cards:
                if not bans or group_of[c] not in bans:
                    for k in ck[c]:
                        kc[k] += 1
                        if kc[k] == 4:
                            big += 1
        self.big[s] = big

    def _excess(self, s: int) -> int:
        """Cards ``s`` holds beyond 8, hand and table sets together (reading 4)."""
        return len(self.hands[s]) + self.tabled[s] - HAND_SIZE

    def _table_count(self, s: int) -> int:
        return self.tabled[s]  # kept by _recount, which every change of a table calls

    def _score(self, s: int) -> Score | None:
        """The best winning split of the hand and table sets of ``s`` (or None)."""
        if self.big[s] == 0:
            return None  # every pattern needs 4 cards of one key
        # ... and a second key of 3 or more (4+4, 5+3), or 7 of one (8; 7 orphans and
        # one other). The counts hold at least what best_score counts, so this only
        # skips the search where it would find nothing.
        counts = sorted(self.kc[s])
        if counts[-1] < 7 and counts[-2] < 3:
            return None
        unusable: set[int] = set()
        if self.bans[s]:
            g = self.deck.group_of
            unusable = {c for c in self.hands[s] if g[c] in self.bans[s]}
            for _, cs in self.tables[s]:
                if any(g[c] in self.bans[s] for c in cs):
                    return None  # "may not [...] win with that type"
        return best_score(
            self.deck,
            self.hands[s],
            self.tables[s],
            self.claims[s],
            self.seven_plus_one,
            self.ckeys,
            unusable,
            scoring=self.scoring,
        )

    # ------------------------------------------------------------------ knowledge
    # What each seat knows of hidden cards through honest monsters (reading 23),
    # kept so that determinize() resamples only the rest. A card move pays one
    # set lookup (``watched``: the cards someone knows the place of; it may hold
    # stale cards, which only cost a no-op update). ``knows``: someone learned
    # something this round.
    def _forget_all(self) -> None:
        self.knows = False
        n = self.players
        # kstock[s]: cards s peeked that are still on top of the stock, top first.
        self.kstock: list[list[int]] = [[] for _ in range(n)]
        # khand[s][q]: cards s knows are in q's hand (seen, or peeked then drawn by q).
        self.khand: list[dict[int, set[int]]] = [{} for _ in range(n)]
        self.watched: set[int] = set()

    def _learn(self) -> None:
        self.knows = True

    def _drawn_from_stock(self, q: int, c: int) -> None:
        """``q`` drew the top card ``c``: the peeked cards below move up, and a
        seat that had peeked at ``c`` now knows it is in ``q``'s hand."""
        known = False
        for s, ks in enumerate(self.kstock):
            if not ks:
                continue
            if ks[0] != c:
                ks.clear()  # not the top any more (a sampled state): forget it
                continue
            del ks[0]
            if s != q:
                self.khand[s].setdefault(q, set()).add(c)
                known = True
        if not known:
            self.watched.discard(c)

    def _left_hand(self, q: int, c: int) -> None:
        """``c`` left ``q``'s hand in public (discarded, set aside, laid, tabled)."""
        for d in self.khand:
            known = d.get(q)
            if known:
                known.discard(c)
        self.watched.discard(c)

    def _card(self, c: int) -> dict[str, Any]:
        """The card as views and events show it. Cached until its nature changes
        (a roll), so a view of a long discard pile stays cheap; views share these
        dicts, so readers must not mutate them."""
        d = self._cc[c]
        if d is None:
            card = self.deck.cards[c]
            d = self._cc[c] = {
                "name": card.name,
                "type": card.type,
                "family": card.family,
                "keys": list(map(self.deck.key_names.__getitem__, self.ckeys[c])),
                "natures": natures_of_mask(self.nat[c]),
                "roll": self.roll[c] or None,
            }
        return d

    def results_json(self) -> list[dict[str, Any]]:
        """Every finished round as JSON (cached; views share it: readers must not mutate)."""
        if self._rr_json is None:
            self._rr_json = [r.to_json(self.deck) for r in self.round_results]
        return self._rr_json


@dataclass(frozen=True)
class RoundResult:
    """A finished round: its winner and winning hand's score (None: no winner)."""

    round: int
    winner: int | None
    score: Score | None
    reason: str

    @property
    def pattern(self) -> str | None:
        return self.score.pattern if self.score else None

    @property
    def points(self) -> int:
        return self.score.points if self.score else 0

    def to_json(self, deck: Deck) -> dict[str, Any]:
        score = self.score
        return {
            "round": self.round,
            "winner": self.winner,
            "pattern": self.pattern,
            "points": self.points,
            "sets": score.to_json(deck)["sets"] if score else [],
            "breakdown": score.breakdown() if score else [],
            "reason": self.reason,
        }
