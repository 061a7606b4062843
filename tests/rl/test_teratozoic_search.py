"""Teratozoic's value estimate with two seats: the scales fitted to heuristic
self-play (flatter than the former hand-set ones, flatter still per Era to come)."""

from __future__ import annotations

import math

from bestiary.engine import get_game
from bestiary.games.teratozoic import value


def _lead(state: object, cards: int) -> None:
    """Give seat 0 ``cards`` more single-colour cards of its best colour than seat 1."""
    deck = state.deck  # type: ignore[attr-defined]
    gap = value.colour_cards(state, 0) - value.colour_cards(state, 1)
    best = max(
        {deck[c].colour for c in state.owned(0) if deck[c].single_colour},  # type: ignore[attr-defined]
        key=lambda col: sum(1 for c in state.owned(0) if deck[c].colour == col),  # type: ignore[attr-defined]
    )
    spare = [c for c in state.mutations if deck[c].colour == best and deck[c].single_colour]  # type: ignore[attr-defined]
    extra = [c for c in spare if c not in state.owned(0)][: cards - gap]  # type: ignore[attr-defined]
    state.pool[0].extend(extra)  # type: ignore[attr-defined]
    assert value.colour_cards(state, 0) - value.colour_cards(state, 1) == cards


def test_two_seat_odds_follow_the_fitted_scales() -> None:
    """A lead of three cards: in the final Era e^(3/2.0) : 1 for the leader (the
    former hand-set 1.5 said e^2:1, overconfident by the fit), and flatter with
    every Era still to come (2.0 + 2.1 per Era)."""
    state = get_game("teratozoic").new(2, seed=3)
    state.quiet()
    _lead(state, 3)
    eras = list(state.eras)  # type: ignore[attr-defined]
    assert len(eras) >= 3
    odds = []
    for to_come in (0, 1, 2):
        state.eras = eras[len(eras) - 1 - to_come :]  # type: ignore[attr-defined]
        assert value.value_stage(state) == to_come
        p = value.value_estimate(state)
        assert math.isclose(sum(p), 1.0) and p[0] > 0.5 > p[1]
        scale = value.SCALE + value.SCALE_PER_ERA * to_come
        assert math.isclose(p[0] / p[1], math.exp(3 / scale), rel_tol=1e-9)
        odds.append(p[0])
    assert odds[0] > odds[1] > odds[2]
    assert 0.80 < odds[0] < 0.85 < 1 / (1 + math.exp(-3 / 1.5))  # the former final-Era chance
    assert odds[2] < 0.65


def test_equal_counts_are_even_odds_and_more_seats_keep_their_own_scales() -> None:
    """Equal counts: a coin with two seats in every Era; the 3+-seat scales are not
    the two-seat ones (each fitted on its own table size)."""
    state = get_game("teratozoic").new(2, seed=4)
    state.quiet()
    if value.colour_cards(state, 0) == value.colour_cards(state, 1):
        assert value.value_estimate(state) == [0.5, 0.5]
    assert (value.SCALE, value.SCALE_PER_ERA) != (value.SCALE_MANY, value.SCALE_PER_ERA_MANY)
