"""Cards as tiles: ends on edges, placed on a grid, and scoring a build.

The model (RULES.md, "Building monsters"):

- A card is a tile on one cell of a square grid. Each of its four edges
  (N, E, S, W) may carry ends (connection points): centred, or off-centre
  (the blue card's). Cards may be turned 180° (the art upside down, the
  card still upright on the table) but not 90°: a portrait card turned a
  quarter would not fit the grid of its neighbours.
- Two cards on neighbouring cells connect where an end of one meets an end
  of the other at the same spot of their shared edge. An end that meets no
  end is loose. A monster is a group of cards joined by connections; cards
  never overlap (one card per cell).

The geometry of one card (its ends as 12-bit masks, turning it) is in
:mod:`.edges`; its names are re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bestiary.engine import BadInput
from bestiary.i18n import domain

from .cards import Card
from .edges import (
    EDGE_NAMES,
    OPPOSITE,
    STEP,
    E,
    N,
    S,
    W,
    edge,
    end_count,
    orientations,
    pack,
    parse_ends,
    turned,
)

_ = domain("teratozoic", __file__)

__all__ = [
    "EDGE_NAMES",
    "OPPOSITE",
    "STEP",
    "Build",
    "E",
    "Monster",
    "N",
    "Placement",
    "S",
    "W",
    "draw_grid",
    "edge",
    "end_count",
    "monster_value",
    "orientations",
    "pack",
    "parse_ends",
    "score_layout",
    "turned",
]


# ---------------------------------------------------------------- scoring rules
def monster_value(cards: Sequence[Card], closed: bool, doubling_ignores_colour: bool) -> int:
    """Face values (doubled per doubling card) plus the single-colour bonus.

    'Add up the face values'; '+1 bonus point for each single-color monster
    with no loose ends (Three-color cards are *not* single-color!)'; 'If you
    need to double a monster's value, double both face values and bonus
    points. (Doubled twice = quadrupled.)'. A doubling card doubles the cards
    of its own colour in its monster (itself included) unless the
    experienced players' option lets it ignore colour.
    """
    doublers = [c.colour for c in cards if c.doubler]
    total = 0
    for c in cards:
        k = len(doublers) if doubling_ignores_colour else doublers.count(c.colour)
        total += c.value << k
    if (
        closed
        and cards
        and cards[0].single_colour
        and all(c.colour == cards[0].colour for c in cards)
    ):
        total += 1 << len(doublers)
    return total


@dataclass(frozen=True, slots=True)
class Placement:
    """One card of a build: its cell and whether it is turned 180°."""

    card: int
    x: int
    y: int
    turned: bool = False

    def to_json(self) -> list[int]:
        return [self.card, self.x, self.y, int(self.turned)]


@dataclass(frozen=True)
class Monster:
    cards: tuple[int, ...]
    placements: tuple[Placement, ...]
    closed: bool  # no loose ends
    value: int


@dataclass(frozen=True)
class Build:
    """A scored play: its monsters and the total."""

    monsters: tuple[Monster, ...]
    score: int
    all_closed: bool  # '+1 more bonus point if ... there are no loose ends on any cards'

    @property
    def cards(self) -> list[int]:
        return [c for m in self.monsters for c in m.cards]

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "all_closed": self.all_closed,
            "monsters": [
                {
                    "cards": list(m.cards),
                    "closed": m.closed,
                    "value": m.value,
                    # ``Placement.to_json`` of each, written out (a view holds every build)
                    "placements": [[p.card, p.x, p.y, int(p.turned)] for p in m.placements],
                }
                for m in self.monsters
            ],
        }


def score_layout(
    deck: Sequence[Card], placements: Iterable[Placement], doubling_ignores_colour: bool = False
) -> Build:
    """Score cards laid out on the table exactly as given (checks a claimed build).

    Monsters are the groups joined by connections; cards on neighbouring
    cells whose ends do not meet are simply next to each other.
    Raises BadInput when two cards share a cell or a card is laid twice.
    """
    cells: dict[tuple[int, int], tuple[Placement, int]] = {}
    seen: set[int] = set()
    for p in placements:
        if p.card in seen:
            raise BadInput(_("card {name!r} is laid out twice").format(name=deck[p.card].name))
        if not 0 <= p.card < len(deck):
            raise BadInput(_("no card {card}").format(card=p.card))
        if (p.x, p.y) in cells:
            raise BadInput(
                _("two cards on cell ({x}, {y}): cards cannot overlap").format(x=p.x, y=p.y)
            )
        seen.add(p.card)
        orients = deck[p.card].orients
        mask = orients[-1] if p.turned else orients[0]
        cells[(p.x, p.y)] = (p, mask)
    # Union the cells joined by a connection; count loose ends per cell.
    parent = {cell: cell for cell in cells}

    def find(c: tuple[int, int]) -> tuple[int, int]:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    loose: dict[tuple[int, int], int] = {}
    get = cells.get
    for (x, y), (_placement, mask) in cells.items():
        n_loose = 0
        for d in range(4):
            mine = (mask >> (3 * d)) & 7
            if not mine:
                continue
            dx, dy = STEP[d]
            other = get((x + dx, y + dy))
            if other is None:
                n_loose += mine.bit_count()
                continue
            theirs = (other[1] >> (3 * OPPOSITE[d])) & 7
            n_loose += (mine & ~theirs).bit_count()
            if mine & theirs:
                parent[find((x, y))] = find((x + dx, y + dy))
        loose[(x, y)] = n_loose
    groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for cell in cells:
        groups.setdefault(find(cell), []).append(cell)
    monsters = []
    for members in groups.values():
        members.sort()
        ps = tuple(cells[c][0] for c in members)
        closed = all(loose[c] == 0 for c in members)
        ids = tuple(p.card for p in ps)
        value = monster_value([deck[i] for i in ids], closed, doubling_ignores_colour)
        monsters.append(Monster(ids, ps, closed, value))
    all_closed = all(m.closed for m in monsters)
    score = sum(m.value for m in monsters) + (1 if monsters and all_closed else 0)
    return Build(tuple(monsters), score, all_closed)


def draw_grid(
    deck: Sequence[Card], placements: Sequence[Placement], labels: bool = True
) -> list[str]:
    """Text art of one monster: each card a 7x3 box, ends drawn on its edges.

    ::

        +--|--+
        - G6  -
        +-----+
    """
    if not placements:
        return []
    xs = [p.x for p in placements]
    ys = [p.y for p in placements]
    x0, y1 = min(xs), max(ys)
    width, height = (max(xs) - x0 + 1) * 7, (y1 - min(ys) + 1) * 3
    grid = [[" "] * width for _ in range(height)]
    for p in placements:
        card = deck[p.card]
        mask = card.orients[-1] if p.turned else card.orients[0]
        cx, cy = (p.x - x0) * 7, (y1 - p.y) * 3
        top = list("+-----+")
        bottom = list("+-----+")
        n, e, s, w = (edge(mask, d) for d in range(4))
        for bit, col in ((1, 1), (2, 3), (4, 5)):
            if n & bit:
                top[col] = "|"
            if s & bit:
                bottom[col] = "|"
        label = f"{card.colour[0].upper()}{card.value}{'x' if card.doubler else ''}"
        mid = list(" " + label.center(5)[:5] + " ")
        mid[0] = "=" if w else "|"
        mid[6] = "=" if e else "|"
        for i, ch in enumerate(top):
            grid[cy][cx + i] = ch
        for i, ch in enumerate(mid):
            grid[cy + 1][cx + i] = ch
        for i, ch in enumerate(bottom):
            grid[cy + 2][cx + i] = ch
    return ["".join(row).rstrip() for row in grid]
