"""Card geometry: ends on the four edges of a tile, as bit masks.

An orientation is a 12-bit mask: edge ``d`` (0=N, 1=E, 2=S, 3=W) owns bits
``3d..3d+2``; within an edge bit 0/1/2 is the spot at offset -1/0/+1 along
the edge in table coordinates (x for N/S edges, y for E/W edges), so two
facing edges meet exactly where their 3-bit masks share a bit. Cards may be
turned 180° but not 90° (RULES.md, "Building monsters").

This module knows no card: :mod:`.cards` reads the ends of each card with
it, and :mod:`.tiles` lays cards out and scores them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bestiary.i18n import domain

_ = domain("teratozoic", __file__)

N, E, S, W = 0, 1, 2, 3
EDGE_NAMES = "NESW"
# Table coordinates: x grows to the east, y to the north.
STEP = ((0, 1), (1, 0), (0, -1), (-1, 0))
OPPOSITE = (S, W, N, E)
_OFFSET_BIT = {"-": 0, "": 1, "+": 2}


def edge(mask: int, d: int) -> int:
    return (mask >> (3 * d)) & 7


def _flip3(bits: int) -> int:
    """Reverse the three spots of an edge (offset -1 <-> +1)."""
    return ((bits & 1) << 2) | (bits & 2) | ((bits >> 2) & 1)


def parse_ends(text: str) -> tuple[int, int, int, int]:
    """``"N E S W"`` / ``"N+ S-"`` -> the four 3-bit edge masks of the upright card."""
    edges = [0, 0, 0, 0]
    for token in text.split():
        d = EDGE_NAMES.find(token[0].upper()) if token else -1
        off = token[1:]
        if d < 0 or off not in _OFFSET_BIT:
            raise ValueError(
                _("bad end {token!r}: write N, E, S or W, optionally followed by + or -").format(
                    token=token
                )
            )
        bit = 1 << _OFFSET_BIT[off]
        if edges[d] & bit:
            raise ValueError(_("end {token!r} is listed twice").format(token=token))
        edges[d] |= bit
    return edges[0], edges[1], edges[2], edges[3]


def pack(edges: Sequence[int]) -> int:
    return edges[0] | edges[1] << 3 | edges[2] << 6 | edges[3] << 9


def turned(mask: int) -> int:
    """The same card turned 180°: N <-> S and E <-> W, offsets mirrored."""
    n, e, s, w = (edge(mask, d) for d in range(4))
    return pack((_flip3(s), _flip3(w), _flip3(n), _flip3(e)))


def orientations(edges: Sequence[int]) -> tuple[int, ...]:
    """(upright, turned) masks; a single mask when turning changes nothing."""
    up = pack(edges)
    down = turned(up)
    return (up,) if down == up else (up, down)


def end_count(mask: int) -> int:
    return mask.bit_count()


def edges_of(mask: int) -> tuple[int, int, int, int]:
    """The four 3-bit edges (N, E, S, W) of an orientation mask."""
    return mask & 7, (mask >> 3) & 7, (mask >> 6) & 7, (mask >> 9) & 7
