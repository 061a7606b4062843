"""Teratozoic's actions: one small frozen value per decision, and their table.

=============================  ==============================================
``hold <card>``                Expression: hold a card back as a recessive gene
``express``                    Expression: declare (play everything not held)
``build best|flat|placed``     Growth: the solver's build, no connections, or
                               the cards placed by hand
``start <card> [turned]``      Growth, placing by hand: begin a monster
``attach <card> <N|E|S|W> of   Growth, placing by hand: lay a card where one
<card> [turned]``              of its ends meets an open end of a placed card
``take <card>``                Breeding: the winner takes a card from play
``keep <card>``                Breeding: keep a card from one's own hand
=============================  ==============================================

The state never builds an action it has built before: :class:`ActionTable`
holds one instance per card (and per placement) for a card set, so listing
the legal actions is a few lookups and ``apply`` recognises a listed action
by identity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import Card
from .edges import OPPOSITE, STEP, edges_of


@dataclass(frozen=True, slots=True)
class Hold:
    card: int
    name: str

    def __str__(self) -> str:
        return f"hold {self.name}"


@dataclass(frozen=True, slots=True)
class Express:
    def __str__(self) -> str:
        return "express"


@dataclass(frozen=True, slots=True)
class BuildChoice:
    kind: Literal["best", "flat", "placed"]

    def __str__(self) -> str:
        return f"build {self.kind}"


@dataclass(frozen=True, slots=True)
class Take:
    card: int
    name: str

    def __str__(self) -> str:
        return f"take {self.name}"


@dataclass(frozen=True, slots=True)
class Keep:
    card: int
    name: str

    def __str__(self) -> str:
        return f"keep {self.name}"


@dataclass(frozen=True, slots=True)
class Start:
    """Lay a card down as the first card of a new monster (placing by hand)."""

    card: int
    name: str
    turned: bool = False

    def __str__(self) -> str:
        return f"start {self.name}" + (" turned" if self.turned else "")


@dataclass(frozen=True, slots=True)
class Attach:
    """Lay a card on the side ``edge`` of an already placed card, its ends meeting."""

    card: int
    name: str
    edge: int  # 0..3 = N, E, S, W of the anchor
    anchor: int
    anchor_name: str
    turned: bool = False

    def __str__(self) -> str:
        side = "NESW"[self.edge]
        return f"attach {self.name} {side} of {self.anchor_name}" + (
            " turned" if self.turned else ""
        )


EXPRESS = Express()
BUILD_BEST = BuildChoice("best")
BUILD_FLAT = BuildChoice("flat")
BUILD_PLACED = BuildChoice("placed")

# One open side of a placed card: the step to its neighbour cell, and the
# attach actions of every card that fits there.
Slot = tuple[tuple[int, int], dict[int, tuple[Attach, ...]]]


class ActionTable:
    """Every action of one card set, built once: ``hold[c]``, ``take[c]``,
    ``keep[c]``, ``start[c][t]`` (t = 1: turned) and ``attach(...)`` (built on
    first use; a card set has 8 n² of them), ``edges[c][t]``, the four edges
    of card ``c`` in orientation ``t``, and ``slots_of(c, turned)``, where cards
    attach to it. Immutable values only, so every state of every match with
    this card set shares one table."""

    __slots__ = ("attached", "deck", "edges", "fits", "hold", "keep", "slots", "start", "take")

    def __init__(self, deck: Sequence[Card]) -> None:
        self.deck = deck
        self.hold = tuple(Hold(c.id, c.name) for c in deck)
        self.take = tuple(Take(c.id, c.name) for c in deck)
        self.keep = tuple(Keep(c.id, c.name) for c in deck)
        self.start = tuple(
            tuple(Start(c.id, c.name, t == 1) for t in range(len(c.orients))) for c in deck
        )
        # The attach actions made so far, by ``key`` (see ``attach``).
        self.attached: dict[int, Attach] = {}
        # Per card and orientation: its four edges (N, E, S, W), for placing.
        self.edges = tuple(tuple(edges_of(m) for m in c.orients) for c in deck)
        # fits[side * 8 + ends]: card -> its orientations whose edge ``side``
        # meets some of ``ends`` (a 3-bit edge), for attaching by hand.
        self.fits = tuple(
            {
                c.id: ts
                for c in deck
                if (ts := tuple(t for t, es in enumerate(self.edges[c.id]) if es[side] & ends))
            }
            for side in range(4)
            for ends in range(8)
        )
        # The open sides of a placed card, by (card, turned): built on first use.
        self.slots: dict[tuple[int, bool], tuple[Slot, ...]] = {}

    def attach(self, card: int, edge: int, anchor: int, turned: int) -> Attach:
        key = ((card * len(self.deck) + anchor) * 4 + edge) * 2 + turned
        got = self.attached.get(key)
        if got is None:
            deck = self.deck
            got = self.attached[key] = Attach(
                card, deck[card].name, edge, anchor, deck[anchor].name, turned == 1
            )
        return got

    def slots_of(self, card: int, turned: bool) -> tuple[Slot, ...]:
        """Where cards may attach to ``card`` placed upright or turned: per side
        with ends (N, E, S, W order), the step to the neighbouring cell and, per
        card, the attach actions whose ends meet that side (orientations in
        order). Listing the legal placements is then a lookup per free card."""
        got = self.slots.get((card, turned))
        if got is None:
            mine = self.edges[card]
            ends4 = mine[-1] if turned else mine[0]
            out = []
            for d in range(4):
                ends = ends4[d]
                if not ends:
                    continue
                fit = self.fits[OPPOSITE[d] * 8 + ends]
                by_card = {
                    c: tuple(self.attach(c, d, card, t) for t in ts) for c, ts in fit.items()
                }
                out.append((STEP[d], by_card))
            got = self.slots[(card, turned)] = tuple(out)
        return got


_TABLES: dict[int, tuple[Sequence[Card], ActionTable]] = {}


def action_table(deck: Sequence[Card]) -> ActionTable:
    """The table of a card set (card sets are long-lived: cached per file version)."""
    got = _TABLES.get(id(deck))
    if got is None or got[0] is not deck:
        if len(_TABLES) > 16:
            _TABLES.clear()
        got = _TABLES[id(deck)] = (deck, ActionTable(deck))
    return got[1]
