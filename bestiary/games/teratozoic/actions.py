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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

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
# attach actions of every card that fits there (a read-only mapping).
Slot = tuple[tuple[int, int], Mapping[int, tuple[Attach, ...]]]


def _attach_key(deck: Sequence[Card], card: int, edge: int, anchor: int, turned: int) -> int:
    return ((card * len(deck) + anchor) * 4 + edge) * 2 + turned


@dataclass(frozen=True, slots=True, eq=False)
class ActionTable:
    """Every action of one card set, built once (:meth:`of`): ``hold[c]``,
    ``take[c]``, ``keep[c]``, ``start[c][t]`` (t = 1: turned) and
    ``attach(...)``, ``edges[c][t]``, the four edges of card ``c`` in
    orientation ``t``, and ``slots_of(c, turned)``, where cards attach to it.
    Immutable values only, so every state of every match with this card set
    shares one table.

    Everything is built up front (the attach actions of every fitting
    placement: about 20,000 for the standard deck, a tenth of a second once
    per card set) and the table is frozen, its mappings read-only: a table
    filled on first use changed under whoever read it at the same time (a
    server thread pickling a bot's copy of the state while the live game
    listed its moves: "dictionary changed size during iteration")."""

    deck: Sequence[Card]
    hold: tuple[Hold, ...]
    take: tuple[Take, ...]
    keep: tuple[Keep, ...]
    start: tuple[tuple[Start, ...], ...]
    # Per card and orientation: its four edges (N, E, S, W), for placing.
    edges: tuple[tuple[tuple[int, ...], ...], ...]
    # fits[side * 8 + ends]: card -> its orientations whose edge ``side``
    # meets some of ``ends`` (a 3-bit edge), for attaching by hand.
    fits: tuple[Mapping[int, tuple[int, ...]], ...]
    # The attach actions of every fitting placement, by ``_attach_key``.
    attached: Mapping[int, Attach]
    # The open sides of a placed card, by (card, turned): every one.
    slots: Mapping[tuple[int, bool], tuple[Slot, ...]]

    @classmethod
    def of(cls, deck: Sequence[Card]) -> ActionTable:
        edges = tuple(tuple(edges_of(m) for m in c.orients) for c in deck)
        fits = tuple(
            MappingProxyType(
                {
                    c.id: ts
                    for c in deck
                    if (ts := tuple(t for t, es in enumerate(edges[c.id]) if es[side] & ends))
                }
            )
            for side in range(4)
            for ends in range(8)
        )
        attached: dict[int, Attach] = {}

        def attach(card: int, edge: int, anchor: int, turned: int) -> Attach:
            key = _attach_key(deck, card, edge, anchor, turned)
            got = attached.get(key)
            if got is None:
                got = attached[key] = _new_attach(deck, card, edge, anchor, turned)
            return got

        slots = {
            (c.id, t == 1): _slots(edges, fits, c.id, t == 1, attach)
            for c in deck
            for t in range(len(c.orients))
        }
        return cls(
            deck=deck,
            hold=tuple(Hold(c.id, c.name) for c in deck),
            take=tuple(Take(c.id, c.name) for c in deck),
            keep=tuple(Keep(c.id, c.name) for c in deck),
            start=tuple(
                tuple(Start(c.id, c.name, t == 1) for t in range(len(c.orients))) for c in deck
            ),
            edges=edges,
            fits=fits,
            attached=MappingProxyType(attached),
            slots=MappingProxyType(slots),
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Read-only mappings do not pickle; the receiver builds (or has) its own.
        return (action_table, (self.deck,))

    def attach(self, card: int, edge: int, anchor: int, turned: int) -> Attach:
        """The one instance of this attach action (one that fits no placement,
        never listed as legal, is made afresh)."""
        got = self.attached.get(_attach_key(self.deck, card, edge, anchor, turned))
        return got if got is not None else _new_attach(self.deck, card, edge, anchor, turned)

    def slots_of(self, card: int, turned: bool) -> tuple[Slot, ...]:
        """Where cards may attach to ``card`` placed upright or turned: per side
        with ends (N, E, S, W order), the step to the neighbouring cell and, per
        card, the attach actions whose ends meet that side (orientations in
        order). Listing the legal placements is then a lookup per free card."""
        got = self.slots.get((card, turned))
        return got if got is not None else _slots(self.edges, self.fits, card, turned, self.attach)


def _new_attach(deck: Sequence[Card], card: int, edge: int, anchor: int, turned: int) -> Attach:
    return Attach(card, deck[card].name, edge, anchor, deck[anchor].name, turned == 1)


def _slots(
    edges: tuple[tuple[tuple[int, ...], ...], ...],
    fits: tuple[Mapping[int, tuple[int, ...]], ...],
    card: int,
    turned: bool,
    attach: Callable[[int, int, int, int], Attach],
) -> tuple[Slot, ...]:
    mine = edges[card]
    ends4 = mine[-1] if turned else mine[0]
    out: list[Slot] = []
    for d in range(4):
        ends = ends4[d]
        if not ends:
            continue
        fit = fits[OPPOSITE[d] * 8 + ends]
        by_card = {c: tuple(attach(c, d, card, t) for t in ts) for c, ts in fit.items()}
        out.append((STEP[d], MappingProxyType(by_card)))
    return tuple(out)


_TABLES: dict[int, tuple[Sequence[Card], ActionTable]] = {}


def action_table(deck: Sequence[Card]) -> ActionTable:
    """The table of a card set (card sets are long-lived: cached per file version)."""
    got = _TABLES.get(id(deck))
    if got is None or got[0] is not deck:
        if len(_TABLES) > 16:
            _TABLES.clear()
        got = _TABLES[id(deck)] = (deck, ActionTable.of(deck))
    return got[1]
