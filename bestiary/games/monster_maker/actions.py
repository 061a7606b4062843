"""Monster Maker actions: one fixed, cached table per card set.

Every action is a :class:`Move` with a stable text form and an index in a
fixed action space. Combinatorial choices are steps: a battle is "fight
with X" (repeated), "cast S by X", "wield T by X", then "roll"; falling in a
trap is "lose X" three times.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .cards import CardSet

MAX_SEATS = 6

# Kinds with no argument, in index order.
SIMPLE = ("pass", "roll", "end", "detour", "leave_door")
# Kinds with one deck-card argument.
PER_CARD = ("discard", "corridor", "fight", "lose", "heal", "dispel", "door", "avoid")


@dataclass(frozen=True, slots=True)
class Move:
    """One action. Equal (and hashed) by its index; ``kind``/``a``/``b`` say what it does."""

    index: int
    kind: str = field(compare=False)
    a: int = field(default=-1, compare=False)  # a deck card, a treasure or a seat
    b: int = field(default=-1, compare=False)  # a second card (caster) or a seat
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.text


class ActionSpace:
    """All moves of a card set, built once; lookups by (kind, a, b) and by index."""

    def __init__(self, cs: CardSet) -> None:
        names = [c.name for c in cs.cards]
        tnames = [t.name for t in cs.treasures]
        k, q = len(names), len(tnames)
        moves: list[Move] = []
        self.table: dict[tuple[str, int, int], Move] = {}

        def add(kind: str, text: str, a: int = -1, b: int = -1) -> None:
            m = Move(len(moves), kind, a, b, text)
            moves.append(m)
            self.table[(kind, a, b)] = m

        texts = {
            "pass": "pass",
            "roll": "roll",
            "end": "end turn",
            "detour": "detour",
            "leave_door": "leave door",
        }
        for kind in SIMPLE:
            add(kind, texts[kind])
        per_card = {
            "discard": "discard {}",
            "corridor": "play {}",
            "fight": "fight with {}",
            "lose": "lose {}",
            "heal": "heal {}",
            "dispel": "dispel with {}",
            "door": "open door with {}",
            "avoid": "avoid trap with {}",
        }
        for kind in PER_CARD:
            for i in range(k):
                add(kind, per_card[kind].format(names[i]), i)
        for i in range(k):
            for s in range(MAX_SEATS):
                add("monster", f"place {names[i]} before seat {s}", i, s)
        for s in range(MAX_SEATS):
            add("send", f"send monster to seat {s}", s)
        for i in range(k):
            for j in range(k):
                add("cast", f"cast {names[i]} by {names[j]}", i, j)
        for t in range(q):
            add("tdispel", f"dispel with {tnames[t]}", t)
        for t in range(q):
            for j in range(k):
                add("wield", f"wield {tnames[t]} by {names[j]}", t, j)
        self.moves: tuple[Move, ...] = tuple(moves)
        # Direct lookups for the legal-move builders' hot path:
        # ``by_card["discard"][card]``, ``monster_at[card][seat]``.
        self.by_card: dict[str, tuple[Move, ...]] = {
            kind: tuple(self.table[(kind, i, -1)] for i in range(k)) for kind in PER_CARD
        }
        self.monster_at: tuple[tuple[Move, ...], ...] = tuple(
            tuple(self.table[("monster", i, s)] for s in range(MAX_SEATS)) for i in range(k)
        )

    def get(self, kind: str, a: int = -1, b: int = -1) -> Move:
        return self.table[(kind, a, b)]

    def __len__(self) -> int:
        return len(self.moves)


@lru_cache(maxsize=16)
def action_space(cs: CardSet) -> ActionSpace:
    return ActionSpace(cs)
