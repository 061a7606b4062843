"""A fixed-size numeric encoding of one seat's view, for learning agents.

Built only from ``state.view(seat)`` (the same dict the terminal and the web
client get), so it holds nothing the seat may not know. The conventions
(values in [0, 1], seats relative to the observer, unknown names skipped)
are those of :mod:`bestiary.agents.features`.

Fields, in order (``d`` cards, ``k`` collecting keys, ``g`` ban groups,
``P`` seats):

==================  =========  ==============================================
phase               8          discard/attack/duel/impatient/claim/declare/over/other
turn, dealer        2P         whose turn, who dealt (relative one-hot)
to_act              P          seats this seat knows owe a decision
progress            3          round/rounds, turns/80, stock/d
hand                d          cards in my hand
hand_keys           k          my hand's count per collecting key /8
drawn               d          cards I drew this turn (may be tabled)
hand_counts         P          cards in hand per seat /9
tables              P*d        tabled sets per seat
discards, top       2d         the whole discard pile, its top card
set_aside           d          proud monsters set aside (all seats)
bans                P*g        groups each seat may no longer collect
claims, skips       2P         claims this round /8, turns to skip /3
scores              P          points /30
can_win             1
claim               3+2d+P+2k  open?, decided?, the card, discarder, my keys,
                               the key I claimed, cards I keep, cards to drop /8
duel                5+2P       open?, ties/5, my choice (3), attacker, target
attack              1          I must choose an aggressive target
peek                d          cards seen on top of the stock (honest)
seen_hands          P*d        hands seen through a claimed honest monster
present             P          only with ``max_players``: 1 per seat at the table
==================  =========  ==============================================

``P`` is the table's seats, or ``max_players`` when given: every per-seat
block is then laid out for ``max_players`` seats, the seats the table lacks
stay zero after the real ones (still counted from the observer), and the
``present`` bits at the end say which blocks are real, so one policy reads
every table size with the same vector length.

``public_scores`` gives each seat's points as every seat sees them (the
``score`` reward of :mod:`bestiary.rl`); ``score_scale`` is 10 points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...agents.features import Layout, Writer, index_of
from ...engine.ruleset import Ruleset
from .rules import TaxonomyRules

PHASES = ("discard", "attack", "duel", "impatient", "claim", "declare", "over")
RPS = ("rock", "paper", "scissors")


def _names(cards: Any) -> list[Any]:
    """Card dicts (or bare names) -> names."""
    return [c.get("name") if isinstance(c, dict) else c for c in cards or ()]


class Observer:
    """Encodes views of one table size and ruleset into ``size`` floats."""

    #: The ``score`` reward's unit: a margin of 10 points counts 1.
    score_scale = 10.0
    #: The points change during the game (at each round's end).
    running_score = True
    #: The view entries ``public_scores`` reads (every seat sees them alike).
    score_fields = frozenset({"scores"})

    def __init__(self, players: int, rules: Ruleset, max_players: int | None = None) -> None:
        assert isinstance(rules, TaxonomyRules)
        if max_players is not None and max_players < players:
            raise ValueError(f"max_players must be at least the table's {players} seats")
        deck = rules.deck()
        p = players if max_players is None else max_players
        d, k, g = deck.size, deck.num_keys, len(deck.group_names)
        self.players = players
        self.padded = max_players is not None
        self.d, self.g, self.p, self.k = d, g, p, k
        self.card = index_of(deck.names)
        self.key = index_of(deck.key_names)
        self.group = index_of(deck.group_names)
        self.layout = Layout(
            players,
            [
                ("phase", len(PHASES) + 1),
                ("turn", p),
                ("dealer", p),
                ("to_act", p),
                ("progress", 3),
                ("hand", d),
                ("hand_keys", k),
                ("drawn", d),
                ("hand_counts", p),
                ("tables", p * d),
                ("discards", d),
                ("discard_top", d),
                ("set_aside", d),
                ("bans", p * g),
                ("claims", p),
                ("skips", p),
                ("scores", p),
                ("can_win", 1),
                ("claim", 3 + 2 * d + p + 2 * k),
                ("duel", 5 + 2 * p),
                ("attack", 1),
                ("peek", d),
                ("seen_hands", p * d),
                *([("present", p)] if self.padded else []),
            ],
        )
        self.size = self.layout.size

    def encode(self, view: Mapping[str, Any]) -> list[float]:
        w = self.layout.writer(view.get("seat"))
        d = self.d
        w.one_hot("phase", PHASES, view.get("phase"))
        w.seat("turn", view.get("turn"))
        w.seat("dealer", view.get("dealer"))
        for s in view.get("to_act") or ():
            w.seat("to_act", s)
        w.scalar("progress", view.get("round"), max(1, int(view.get("rounds") or 1)))
        w.scalar("progress", view.get("turns"), 80, 1)
        w.scalar("progress", view.get("stock"), d, 2)
        w.names("hand", self.card, _names(view.get("hand")))
        for key, n in (view.get("hand_keys") or {}).items():
            w.names("hand_keys", self.key, [key], cap=8 / max(1, int(n)))
        w.names("drawn", self.card, view.get("drawn") or ())
        w.per_seat("hand_counts", view.get("hand_counts"), 9)
        for s, sets in enumerate(view.get("tables") or ()):
            r = w.rel(s)
            for st in sets if r is not None else ():
                w.names("tables", self.card, _names(st.get("cards")), block=(r or 0) * d)
        w.names("discards", self.card, _names(view.get("discards")))
        w.names("discard_top", self.card, _names([view.get("discard_top")]))
        for aside in view.get("set_aside") or ():
            w.names("set_aside", self.card, _names(aside))
        for s, bans in enumerate(view.get("bans") or ()):
            r = w.rel(s)
            if r is not None:
                w.names("bans", self.group, bans, block=r * self.g)
        w.per_seat("claims", view.get("claims"), 8)
        w.per_seat("skips", view.get("skips"), 3)
        w.per_seat("scores", view.get("scores"), 30)
        w.flag("can_win", view.get("can_win"))
        self._claim(w, view.get("claim"))
        self._duel(w, view.get("duel"))
        w.flag("attack", view.get("attack"))
        peek = view.get("peek")
        if isinstance(peek, Mapping):
            w.names("peek", self.card, _names(peek.get("cards")))
        for s, cards in (view.get("seen_hands") or {}).items():
            r = w.rel(int(s)) if str(s).isdigit() else None
            if r is not None:
                w.names("seen_hands", self.card, _names(cards), block=r * d)
        if self.padded:
            for r in range(self.players):
                w.set("present", r)
        return w.out

    def public_scores(self, view: Mapping[str, Any]) -> list[float] | None:
        """Each seat's points so far, as the view shows them to everyone."""
        scores = view.get("scores")
        if not isinstance(scores, list) or len(scores) != self.players:
            return None
        return [float(x) for x in scores]

    def _claim(self, w: Writer, claim: Any) -> None:
        if not isinstance(claim, Mapping):
            return
        d, p = self.d, self.p
        w.set("claim", 0)
        w.flag("claim", claim.get("decided"), 1)
        w.names("claim", self.card, _names([claim.get("card")]), block=2)
        w.seat("claim", claim.get("discarder"), block=2 + d)
        w.names("claim", self.key, claim.get("keys") or (), block=2 + d + p)
        # Choosing the laid set (keep <card>): the key claimed, the cards kept so far
        # and how many of the key's cards in hand must still be dropped.
        k = self.k
        chosen = claim.get("key")
        if chosen is not None:
            w.names("claim", self.key, [chosen], block=2 + d + p + k)
        w.names("claim", self.card, claim.get("kept") or (), block=2 + d + p + 2 * k)
        to_keep = claim.get("to_keep")
        if isinstance(to_keep, int):
            w.scalar("claim", min(to_keep, 8), 8, 2 + 2 * d + p + 2 * k)

    def _duel(self, w: Writer, duel: Any) -> None:
        if not isinstance(duel, Mapping):
            return
        w.set("duel", 0)
        w.scalar("duel", duel.get("ties"), 5, 1)
        choice = duel.get("your_choice")
        if choice in RPS:
            w.set("duel", 2 + RPS.index(choice))
        w.seat("duel", duel.get("attacker"), block=5)
        w.seat("duel", duel.get("target"), block=5 + self.p)
