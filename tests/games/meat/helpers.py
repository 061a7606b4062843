"""Scenario helpers: drive a real match to a phase, then arrange the cards."""

from __future__ import annotations

from typing import Any

from bestiary.games.meat import GAME
from bestiary.games.meat.rules import (
    P_ACTIVATION,
    P_TACTICS,
    P_WINDOW,
    MeatState,
)


def new(players: int = 2, seed: int = 0, **options: Any) -> MeatState:
    st = GAME.new(players, seed=seed, options=options or None)
    assert isinstance(st, MeatState)
    return st


def first_legal_until(st: MeatState, phase: int) -> None:
    """Play the first legal action of the first owed seat until ``phase``."""
    for _ in range(10_000):
        if st.phase == phase or st.over:
            return
        seat = st.to_act()[0]
        st.apply(seat, st.legal(seat)[0])
    raise AssertionError("phase never reached")


def take(st: MeatState, name: str) -> int:
    """An instance of card ``name`` taken out of a deck or graveyard."""
    k = st.cs.card(name).index
    for pile in (st.cdeck, st.ddeck, st.cgrave, st.dgrave):
        for c in pile:
            if st.kind[c] == k:
                pile.remove(c)
                return c
    raise AssertionError(f"no free copy of {name}")


def set_hand(st: MeatState, seat: int, names: list[str]) -> None:
    for c in st.hand[seat]:
        (st.cdeck if c < st.ncre else st.ddeck).append(c)
    st.hand[seat] = [take(st, n) for n in names]


def at_tactics(
    players: int = 2,
    seed: int = 0,
    hands: dict[int, list[str]] | None = None,
    tel: int = 7,
    **options: Any,
) -> MeatState:
    st = new(players, seed, **options)
    first_legal_until(st, P_TACTICS)
    # Leaders' passives would change the numbers the scenarios check.
    st.leader = [-1] * players
    st.lb_atk = [[0] * 4 for _ in range(players)]
    st.lb_def = [[0] * 4 for _ in range(players)]
    for s in range(players):
        set_hand(st, s, (hands or {}).get(s, []))
        st.tel[s] = tel
    st._start_tactics()
    st._memo = None  # the scenario changed the state behind apply()'s back
    return st


def place(st: MeatState, seat: int, lanes: dict[str, str], destiny: tuple[str, ...] = ()) -> None:
    for lane, name in lanes.items():
        st.apply_text(seat, f"place {name} {lane}")
    for name in destiny:
        st.apply_text(seat, f"set {name}")
    if st.phase == P_TACTICS and seat in st.to_act():
        st.apply_text(seat, "done")


def pass_window(st: MeatState) -> None:
    while st.phase == P_WINDOW:
        st.apply_text(st.to_act()[0], "pass")


def to_activation(
    st: MeatState,
    setup: dict[int, dict[str, str]],
    destiny: dict[int, tuple[str, ...]] | None = None,
) -> None:
    for s in range(st.players):
        place(st, s, setup.get(s, {}), (destiny or {}).get(s, ()))
    pass_window(st)
    assert st.phase == P_ACTIVATION


def pass_all(st: MeatState) -> None:
    """Everyone passes in Activation and in the battle window: the battle runs."""
    rnd = st.round
    while st.round == rnd and not st.over and st.phase in (P_ACTIVATION, P_WINDOW):
        st.apply_text(st.to_act()[0], "pass")


def kinds(st: MeatState, cards: list[int]) -> list[str]:
    return [st.name(c) for c in cards]


def events(st: MeatState, kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    return [e.data for e in st.events_since(0, seat) if e.kind == kind]


def all_cards(st: MeatState) -> list[int]:
    """Every card instance, wherever it is (for conservation checks)."""
    out = [*st.cdeck, *st.ddeck, *st.cgrave, *st.dgrave, *st.row]
    for h in st.hand:
        out += h
    out += [c for c in st.field if c >= 0]
    for d in st.dfield:
        out += d
    out += [e[1] for e in st.stack]
    out += [d for d in st.cs.destiny_ids if st.attached_to[d] >= 0]
    return out
