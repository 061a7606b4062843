"""Invariants over random games: cards are conserved, hidden cards never reach an
opponent, teammates see each other's hands, seeds reproduce."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from bestiary.engine import Rng
from bestiary.games.meat import GAME
from bestiary.games.meat.rules import P_TACTICS, MeatState

from .helpers import all_cards


def _random_game(players: int, seed: int, check: Callable[[MeatState], None]) -> MeatState:
    st = GAME.new(players, seed=seed)
    assert isinstance(st, MeatState)
    rng = Rng(seed + 99)
    total = len(st.cs.kind)
    steps = 0
    while not st.over:
        owed = st.to_act()
        seat = owed[rng.randrange(len(owed))]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
        cards = all_cards(st)
        assert len(cards) == total and len(set(cards)) == total, "a card was lost or duplicated"
        if st.phase == P_TACTICS:
            # "Maksymalna liczba kart ... na KONIEC Fazy Otwarcia ... to 8".
            assert all(len(h) <= st.rules.hand_limit for h in st.hand)
        # Vitality and Telestarion are never negative while the game runs.
        assert min(st.tel) >= 0 and (st.over or min(st.vit) > 0)
        if steps % 5 == 0:
            check(st)
        steps += 1
    return st


def _secrets(st: MeatState, seat: int) -> set[str]:
    """Names only ``seat``'s team knows right now: its hands, pending tactics and
    face-down cards (minus any name that is public anyway)."""
    names: set[str] = set()
    for c in st.hand[seat]:
        names.add(st.name(c))
    for slot in range(seat * 3, seat * 3 + 3):
        if st.field[slot] >= 0 and not st.up[slot]:
            names.add(st.name(st.field[slot]))
    for c in st.dfield[seat]:
        if st.dstat[c] == 1:
            names.add(st.name(c))
    public = json.dumps(st.view(None), ensure_ascii=False)
    return {n for n in names if n not in public}


def _check_views(st: MeatState) -> None:
    for seat in range(st.players):
        secret = _secrets(st, seat)
        for other in range(st.players):
            text = json.dumps(st.view(other), ensure_ascii=False)
            if (other & 1) == (seat & 1):
                # Teammates share information: a hand is in every teammate's view.
                for c in st.hand[seat]:
                    assert st.name(c) in text
            else:
                own = set().union(*(_secrets(st, m) for m in range(other & 1, st.players, 2)))
                leaked = [n for n in secret - own if f'"{n}"' in text]
                assert not leaked, f"seat {other} sees {leaked} of seat {seat}"


@pytest.mark.parametrize("players", [2, 4, 6])
def test_cards_conserved_and_views_leak_nothing(players: int) -> None:
    for seed in range(3):
        _random_game(players, seed, _check_views)


def test_opponent_events_never_name_hidden_cards() -> None:
    st = _random_game(4, 7, lambda s: None)
    for e in st.log.events:
        if e.kind in ("drew_cards", "placing", "setting"):
            seat = e.data["seat"]
            assert e.visible_to == frozenset(range(seat & 1, 4, 2))
            for other in range(4):
                assert (e in st.events_since(0, other)) == ((other & 1) == (seat & 1))


def test_face_down_cards_hidden_until_revealed() -> None:
    st = GAME.new(2, seed=3)
    assert isinstance(st, MeatState)
    rng = Rng(3)
    while not (st.phase > P_TACTICS and any(c >= 0 for c in st.field)):
        seat = st.to_act()[0]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
    if all(st.up):  # already revealed (no instant window)
        return
    for slot, c in enumerate(st.field):
        if c >= 0 and not st.up[slot]:
            other = (slot // 3) ^ 1
            cell = st.view(other)["field"][slot // 3]["creatures"][slot % 3]
            assert "card" not in cell and cell["face_up"] is False


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 10_000), players=hs.sampled_from([2, 4, 6]))
def test_same_seed_same_moves_same_game(seed: int, players: int) -> None:
    def play() -> list[str]:
        st = GAME.new(players, seed=seed)
        rng = Rng(seed)
        moves = []
        while not st.over:
            seat = st.to_act()[0]
            legal = st.legal(seat)
            m = legal[rng.randrange(len(legal))]
            moves.append(f"{seat}:{m}")
            st.apply(seat, m)
        return [*moves, json.dumps(st.view(None), sort_keys=True)]

    assert play() == play()


def test_determinize_keeps_the_view_and_own_team_cards() -> None:
    st = GAME.new(4, seed=12)
    assert isinstance(st, MeatState)
    rng = Rng(1)
    for _ in range(60):
        seat = st.to_act()[0]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
    for seat in range(4):
        det = st.determinize(seat, Rng(5))
        assert det.view(seat) == st.view(seat)
        for mate in range(seat & 1, 4, 2):
            assert det.hand[mate] == st.hand[mate]
        assert sorted(all_cards(det)) == sorted(all_cards(st))
