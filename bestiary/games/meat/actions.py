"""Actions: small frozen values with a stable text form and a fixed index.

Cards are named by their definition (copies of one card are interchangeable),
so the action space does not grow with the deck. A chosen target is a
battlefield slot written ``@ s<seat> <lane>`` (``cast Krwawy Grom @ s1 front``);
slots are coded ``1 + seat * 3 + lane`` (0 = no target) for up to 6 seats.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import LANES, CardSet

LEADER, DRAFT, PLACE, DONE, SET, DISCARD, PASS, CAST, RESOLVE, ABILITY, PAY = range(11)
MAX_SEATS = 6
TARGETS = 1 + MAX_SEATS * 3


@dataclass(frozen=True, slots=True)
class Move:
    kind: int
    a: int = 0  # card definition, leader or lane
    b: int = 0  # lane (place) or target code
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.text


def target_text(code: int) -> str:
    if code <= 0:
        return ""
    seat, lane = divmod(code - 1, 3)
    return f" @ s{seat} {LANES[lane]}"


class ActionSpace:
    """Builds (and caches) the Move values of one card set and their indices."""

    def __init__(self, cs: CardSet) -> None:
        self.cs = cs
        c, d, n_l = cs.creature_defs, cs.destiny_defs, len(cs.leaders)
        self.sizes = [n_l, c, 3 * c, 1, d, c + d, 1, d * TARGETS, d * TARGETS, 3 * TARGETS, d]
        self.offsets = [sum(self.sizes[:k]) for k in range(len(self.sizes))]
        self.total = sum(self.sizes)
        # Every move is built up front: the space is shared by a state and its
        # clones (MeatState.SHARED), so it must never change afterwards.
        self._cache: dict[tuple[int, int, int], Move] = {}
        for index in range(self.total):
            m = self._build(index)
            self._cache[(m.kind, m.a, m.b)] = m
        # ``place[kind][lane]``: the Tactics moves, looked up in the hot path.
        self.place = tuple(
            tuple(self._cache[(PLACE, k, lane)] for lane in range(3)) for k in range(c)
        )

    def _local(self, kind: int, a: int, b: int) -> int:
        c = self.cs.creature_defs
        if kind in (LEADER, DRAFT, DISCARD):
            return a
        if kind == PLACE:
            return a * 3 + b
        if kind in (SET, PAY):
            return a - c
        if kind in (CAST, RESOLVE):
            return (a - c) * TARGETS + b
        if kind == ABILITY:
            return a * TARGETS + b
        return 0

    def index(self, m: Move) -> int:
        return self.offsets[m.kind] + self._local(m.kind, m.a, m.b)

    def from_index(self, index: int) -> Move | None:
        if not 0 <= index < self.total:
            return None
        return self._build(index)

    def _build(self, index: int) -> Move:
        kind = max(k for k in range(len(self.offsets)) if self.offsets[k] <= index)
        local = index - self.offsets[kind]
        c = self.cs.creature_defs
        if kind in (LEADER, DRAFT, DISCARD):
            return self.get(kind, local)
        if kind == PLACE:
            return self.get(kind, local // 3, local % 3)
        if kind in (SET, PAY):
            return self.get(kind, local + c)
        if kind in (CAST, RESOLVE):
            return self.get(kind, local // TARGETS + c, local % TARGETS)
        if kind == ABILITY:
            return self.get(kind, local // TARGETS, local % TARGETS)
        return self.get(kind)

    def get(self, kind: int, a: int = 0, b: int = 0) -> Move:
        m = self._cache.get((kind, a, b))
        if m is None:  # not in the space (never stored: the space stays unchanged)
            m = Move(kind, a, b, self._text(kind, a, b))
        return m

    def _text(self, kind: int, a: int, b: int) -> str:
        defs = self.cs.defs
        if kind == LEADER:
            return f"leader {self.cs.leaders[a].name}"
        if kind == DRAFT:
            return f"draft {defs[a].name}"
        if kind == PLACE:
            return f"place {defs[a].name} {LANES[b]}"
        if kind == DONE:
            return "done"
        if kind == SET:
            return f"set {defs[a].name}"
        if kind == DISCARD:
            return f"discard {defs[a].name}"
        if kind == PASS:
            return "pass"
        if kind == CAST:
            return f"cast {defs[a].name}{target_text(b)}"
        if kind == RESOLVE:
            return f"resolve {defs[a].name}{target_text(b)}"
        if kind == PAY:
            return f"pay {defs[a].name}"
        return f"ability {LANES[a]}{target_text(b)}"


_SPACES: dict[int, ActionSpace] = {}


def space_for(cs: CardSet) -> ActionSpace:
    sp = _SPACES.get(id(cs))
    if sp is None or sp.cs is not cs:
        sp = ActionSpace(cs)
        _SPACES[id(cs)] = sp
    return sp
