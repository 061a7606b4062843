"""A fixed-size numeric encoding of one seat's view, for learning agents.

Built only from ``state.view(seat)``: my hand, held cards, Gene Pool and
choice; of the others only what the view shows (sizes, declared/chosen
flags, and plays once they are public). Conventions (values in [0, 1],
seats relative to the observer, unknown names skipped) are those of
:mod:`bestiary.agents.features`.

Fields, in order (``n`` cards, ``E`` Era cards, ``P`` seats):

============  ===========  ===============================================
phase         6            expression/growth/breed-play/breed-hand/over/other
era           E+1+6        the Era (one-hot), its six numbers /10
progress      5            generation /20, Eras left /8, Mutations Deck and
                           discard /n, gains left /5
winners       2P           previous winner, this generation's winner
to_act        P
hand          n            my hand
held          n            my recessive genes held back
gene_pool     n            my Gene Pool
placing       n            cards I have placed on the grid
my_choice     4            best/flat/placed/other
taken, kept   2n           cards taken from plays and kept from hands
players       P*(9+2n)     per seat: eliminated, competing, declared,
                           chosen, Gene Pool /30, hand /8, held /5, score
                           /40, replaying; its public play; its discards
present       P            only with ``max_players``: 1 per seat at the table
============  ===========  ===============================================

``P`` is the table's seats, or ``max_players`` when given: every per-seat
block is then laid out for ``max_players`` seats, the seats the table lacks
stay zero after the real ones (still counted from the observer), and the
``present`` bits at the end say which blocks are real, so one policy reads
every table size with the same vector length.

There is no running score: a generation's ``score`` in the view is that
build's, not points kept, and the game is scored once, at the end, from the
whole Gene Pool (not all of it public). ``public_scores`` is therefore None and
the ``score`` reward of :mod:`bestiary.rl` pays the final margin only;
``score_scale`` is 20 cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...agents.features import Layout, Writer, index_of
from ...engine.ruleset import Ruleset
from .cards import cards_from, default_eras
from .ruleset import TeratozoicRules

PHASES = ("expression", "growth", "breed-play", "breed-hand", "over")
CHOICES = ("best", "flat", "placed")
ERA_NUMBERS = ("mutations", "gene_pool", "min_play", "winner_play", "winner_hand", "others_hand")
SEAT = 9


def _ids(values: Any, n: int) -> list[int]:
    """Card ids from a list of ints (the view names cards by id)."""
    out = []
    for v in values or ():
        if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n:
            out.append(v)
    return out


class Observer:
    """Encodes views of one table size and ruleset into ``size`` floats."""

    #: The ``score`` reward's unit: a margin of 20 cards counts 1.
    score_scale = 20.0
    #: Scored only at the end (see the module docstring).
    running_score = False
    score_fields: frozenset[str] = frozenset()

    def __init__(self, players: int, rules: Ruleset, max_players: int | None = None) -> None:
        assert isinstance(rules, TeratozoicRules)
        if max_players is not None and max_players < players:
            raise ValueError(f"max_players must be at least the table's {players} seats")
        p = players if max_players is None else max_players
        self.players = players
        self.p = p
        self.padded = max_players is not None
        self.n = n = len(cards_from(rules.cards))
        self.era = index_of(e.name for e in default_eras())
        self.seat_width = SEAT + 2 * n
        self.layout = Layout(
            players,
            [
                ("phase", len(PHASES) + 1),
                ("era", len(self.era) + 1 + len(ERA_NUMBERS)),
                ("progress", 5),
                ("winners", 2 * p),
                ("to_act", p),
                ("hand", n),
                ("held", n),
                ("gene_pool", n),
                ("placing", n),
                ("my_choice", len(CHOICES) + 1),
                ("taken", n),
                ("kept", n),
                ("players", p * self.seat_width),
                *([("present", p)] if self.padded else []),
            ],
        )
        self.size = self.layout.size

    def _cards(self, w: Writer, field: str, values: Any, block: int = 0) -> None:
        for c in _ids(values, self.n):
            w.set(field, block + c)

    def encode(self, view: Mapping[str, Any]) -> list[float]:
        w = self.layout.writer(view.get("seat"))
        n, p = self.n, self.p
        w.one_hot("phase", PHASES, view.get("phase"))
        era = view.get("era") or {}
        e = len(self.era)
        i = self.era.get(str(era.get("name", "")).casefold())
        w.set("era", i if i is not None else e)
        for j, key in enumerate(ERA_NUMBERS):
            w.scalar("era", era.get(key), 10, e + 1 + j)
        w.scalar("progress", view.get("generation"), 20)
        w.scalar("progress", len(view.get("eras_left") or ()), 8, 1)
        w.scalar("progress", view.get("mutations_deck"), n, 2)
        w.scalar("progress", view.get("mutations_discard"), n, 3)
        w.scalar("progress", view.get("gains_left"), 5, 4)
        w.seat("winners", view.get("previous_winner"))
        w.seat("winners", view.get("winner"), block=p)
        for s in view.get("to_act") or ():
            w.seat("to_act", s)
        self._cards(w, "hand", view.get("hand"))
        self._cards(w, "held", view.get("held_cards"))
        self._cards(w, "gene_pool", view.get("my_gene_pool"))
        placing = [pl[0] for pl in view.get("placing") or () if isinstance(pl, list | tuple) and pl]
        self._cards(w, "placing", placing)
        choice = view.get("my_choice")
        if choice is not None:
            w.one_hot("my_choice", CHOICES, choice)
        self._cards(w, "taken", view.get("taken"))
        self._cards(w, "kept", view.get("kept"))
        replaying = view.get("replaying") or ()
        for pl in view.get("players") or ():
            if isinstance(pl, Mapping):
                self._player(w, pl, replaying)
        if self.padded:
            for r in range(self.players):
                w.set("present", r)
        return w.out

    def public_scores(self, view: Mapping[str, Any]) -> list[float] | None:
        """None: nothing is scored before the end (see the module docstring)."""
        return None

    def _player(self, w: Writer, pl: Mapping[str, Any], replaying: Any) -> None:
        r = w.rel(pl.get("seat"))
        if r is None:
            return
        base = r * self.seat_width
        for j, key in enumerate(("eliminated", "competing", "declared", "chosen")):
            w.flag("players", pl.get(key), base + j)
        w.scalar("players", pl.get("gene_pool"), 30, base + 4)
        w.scalar("players", pl.get("hand_size"), 8, base + 5)
        w.scalar("players", pl.get("held_count"), 5, base + 6)
        w.scalar("players", pl.get("score"), 40, base + 7)
        w.flag("players", pl.get("seat") in replaying, base + 8)
        self._cards(w, "players", pl.get("played"), base + SEAT)
        self._cards(w, "players", pl.get("discard"), base + SEAT + self.n)
