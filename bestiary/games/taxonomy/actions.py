"""Taxonomy actions: one small frozen class, cached per deck, with a text form
and an index in a fixed action space.

    discard <card>    table <card>    win
    claim <key>       pass
    keep <card>       (a claimer keeps this card out of the laid set)
    draw              stop            (an impatient monster's extra draw)
    attack <seat>     no attack       (an aggressive monster's target)
    rps rock|paper|scissors
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Deck

DISCARD, TABLE, WIN, CLAIM, PASS, DRAW, STOP, ATTACK, NO_ATTACK, RPS, KEEP = range(11)
MAX_SEATS = 6
RPS_NAMES = ("rock", "paper", "scissors")


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """One action. Every Move is a cached singleton of its deck's :class:`Moves`
    (reach them through ``legal``, ``parse`` or ``action_from_index``), so
    equality is identity: the hot path's ``action in legal`` costs no Python call."""

    kind: int
    arg: int = 0
    text: str = ""

    def __str__(self) -> str:
        return self.text


class Moves:
    """Every action object of one deck, built once (the hot path compares by identity)."""

    def __init__(self, deck: Deck) -> None:
        d, k = deck.size, deck.num_keys
        self.size = d
        self.discard = [Move(DISCARD, c, f"discard {deck.names[c]}") for c in range(d)]
        # A hand's discards, all at once: list(map(discard_of, hand)) (bound once:
        # the discard decision is built at every turn).
        self.discard_of = self.discard.__getitem__
        self.table = [Move(TABLE, c, f"table {deck.names[c]}") for c in range(d)]
        self.win = Move(WIN, 0, "win")
        self.claim = [Move(CLAIM, i, f"claim {deck.key_names[i]}") for i in range(k)]
        self.pass_ = Move(PASS, 0, "pass")
        self.draw = Move(DRAW, 0, "draw")
        self.stop = Move(STOP, 0, "stop")
        self.attack = [Move(ATTACK, s, f"attack {s}") for s in range(MAX_SEATS)]
        self.no_attack = Move(NO_ATTACK, 0, "no attack")
        # Tuples: legal() hands these out as they are (a caller cannot change them).
        self.rps = tuple(Move(RPS, i, f"rps {n}") for i, n in enumerate(RPS_NAMES))
        self.impatient = (self.draw, self.stop)
        self.keep = [Move(KEEP, c, f"keep {deck.names[c]}") for c in range(d)]
        # Fixed offsets of the action space (KEEP last: earlier indices are unchanged).
        self._base = {
            DISCARD: 0,
            TABLE: d,
            WIN: 2 * d,
            CLAIM: 2 * d + 1,
            PASS: 2 * d + 1 + k,
            DRAW: 2 * d + 2 + k,
            STOP: 2 * d + 3 + k,
            ATTACK: 2 * d + 4 + k,
            NO_ATTACK: 2 * d + 4 + k + MAX_SEATS,
            RPS: 2 * d + 5 + k + MAX_SEATS,
            KEEP: 2 * d + 8 + k + MAX_SEATS,
        }
        self.count = 3 * d + 8 + k + MAX_SEATS
        self._by_index: list[Move] = [None] * self.count  # type: ignore[list-item]
        for m in [
            *self.discard,
            *self.table,
            self.win,
            *self.claim,
            self.pass_,
            self.draw,
            self.stop,
            *self.attack,
            self.no_attack,
            *self.rps,
            *self.keep,
        ]:
            self._by_index[self.index(m)] = m

    def index(self, move: Move) -> int:
        return self._base[move.kind] + move.arg

    def by_index(self, index: int) -> Move | None:
        if 0 <= index < self.count:
            return self._by_index[index]
        return None


_CACHE: dict[int, tuple[Deck, Moves]] = {}


def moves_for(deck: Deck) -> Moves:
    hit = _CACHE.get(id(deck))
    if hit is None or hit[0] is not deck:
        hit = (deck, Moves(deck))
        _CACHE[id(deck)] = hit
    return hit[1]
