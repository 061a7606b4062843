"""What each seat sees of a Teratozoic match (RULES.md, "Hidden information").

'Recessive genes (unplayed cards from your hand) are placed face down on the
table' and 'All players lay out the cards they have chosen to play at the
same time': a seat sees its own hand, held cards, hand-placed cards and the
contents (not the order) of its own Gene Pool; everyone sees the Era cards,
pile sizes, the Gene Pool discard piles ('All gained cards go directly to a
player's own Gene Pool Discard Pile', face up), how many cards each player
holds back, the plays once Growth resolves, and every gain.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .cards import Era
from .solver import PoolScore
from .tiles import Build, Placement


class TeratozoicState(Protocol):
    """What a view reads of the state (:class:`.rules.TeratozoicState`; written
    out here so that this module imports downward only)."""

    players: int
    rules: Any
    generation: int
    eras: list[Era]
    era_discard: list[Era]
    mutations: list[int]
    mut_discard: list[int]
    pool: list[list[int]]
    gdiscard: list[list[int]]
    hand: list[list[int]]
    held: list[list[int]]
    eliminated: list[bool]
    competing: list[int]
    expr_pos: int
    choice: list[str | None]
    builds: list[Build | None]
    placing: list[list[Placement]]
    final: list[PoolScore | None]
    previous_winner: int
    winner: int | None
    taken: list[int]
    kept: list[int]
    gains_left: int
    replays: int
    replaying: tuple[int, ...] | None

    @property
    def phase(self) -> str: ...

    @property
    def era(self) -> Era: ...

    @property
    def over(self) -> bool: ...

    def to_act(self) -> tuple[int, ...]: ...

    def played(self, seat: int) -> Sequence[int]: ...


def public_played(state: TeratozoicState) -> bool:
    """The plays are face up from the end of Growth to the end of Breeding."""
    return state.phase in ("breed-play", "breed-hand")


def seat_view(state: TeratozoicState, seat: int | None) -> dict[str, Any]:
    """The JSON-safe view of ``seat`` (None: a spectator)."""
    public = public_played(state)
    over = state.over
    competing = state.competing
    expression = state.phase == "expression"
    players = []
    for s in range(state.players):
        b = state.builds[s] if public else None
        playing = s in competing
        players.append(
            {
                "seat": s,
                "eliminated": state.eliminated[s],
                "competing": playing and not over,
                "gene_pool": len(state.pool[s]),
                "discard": list(state.gdiscard[s]),
                "hand_size": len(state.hand[s]),
                "held_count": len(state.held[s]),
                "declared": (not expression or competing.index(s) < state.expr_pos)
                if playing
                else False,
                "chosen": state.choice[s] is not None,
                "played": state.played(s) if public else None,
                "build": b.to_json() if b is not None else None,
                "score": b.score if b is not None else None,
                "final": _final_json(state, s),
            }
        )
    v: dict[str, Any] = {
        "game": "teratozoic",
        "cards_file": state.rules.cards,
        "phase": state.phase,
        "generation": state.generation,
        "era": era_json(state.era),
        "eras_left": [e.name for e in state.eras[1:]],
        "eras_past": [e.name for e in state.era_discard],
        "mutations_deck": len(state.mutations),
        "mutations_discard": len(state.mut_discard),
        "previous_winner": state.previous_winner,
        "winner": state.winner,
        "to_act": list(state.to_act()),
        "taken": list(state.taken) if public else [],
        "kept": list(state.kept) if public else [],
        "gains_left": state.gains_left if state.phase.startswith("breed") else 0,
        "players": players,
        "final_replays": state.replays,
        "replaying": list(state.replaying) if state.replaying is not None else None,
        "seat": seat,
    }
    if seat is not None:
        v["hand"] = list(state.hand[seat])
        v["held_cards"] = list(state.held[seat])
        v["my_gene_pool"] = sorted(state.pool[seat])  # its cards, not their order
        v["my_choice"] = state.choice[seat]
        v["placing"] = [p.to_json() for p in state.placing[seat]]
    return v


# The entries of a seat's view that ``partial_view`` builds alone (what the
# heuristic bot reads where it needs no more), each as ``seat_view`` builds it.
_PARTS: dict[str, Callable[[TeratozoicState, int], Any]] = {
    "phase": lambda state, seat: state.phase,
    "generation": lambda state, seat: state.generation,
    "hand": lambda state, seat: list(state.hand[seat]),
    "held_cards": lambda state, seat: list(state.held[seat]),
}
PARTIAL_FIELDS = frozenset(_PARTS)


def partial_view(state: TeratozoicState, seat: int, fields: frozenset[str]) -> dict[str, Any]:
    """The entries ``fields`` of ``seat_view(state, seat)``: those of
    ``PARTIAL_FIELDS`` alone, any other through the whole view."""
    if not fields <= PARTIAL_FIELDS or not 0 <= seat < state.players:
        whole = seat_view(state, seat)
        return {k: whole[k] for k in fields if k in whole}
    return {f: _PARTS[f](state, seat) for f in fields}


def _final_json(state: TeratozoicState, s: int) -> dict[str, Any] | None:
    f = state.final[s]
    if f is None:
        return None
    return {
        "cards": f.cards,
        "monsters": {c: m.size for c, m in f.by_colour.items()},
        "exact": f.exact,
    }


def era_json(e: Era) -> dict[str, Any]:
    return {
        "name": e.name,
        "mutations": e.mutations,
        "gene_pool": e.gene_pool,
        "min_play": e.min_play,
        "winner_play": e.winner_play,
        "winner_hand": e.winner_hand,
        "others_hand": e.others_hand,
    }


def hidden_hand(state: TeratozoicState, s: int) -> list[int]:
    """Positions in seat ``s``'s hand that others cannot see: the whole hand
    before Growth; afterwards the recessive genes, unless kept (a kept card
    goes face up to the Gene Pool discard pile)."""
    hand = state.hand[s]
    if not public_played(state):
        return list(range(len(hand)))
    held = state.held[s]
    if not held:
        return []
    kept = state.kept
    return [i for i, c in enumerate(hand) if c in held and c not in kept]
