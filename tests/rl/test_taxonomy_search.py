"""Taxonomy's search hooks: the heuristic's ``lite`` playout option (the same
moves from a smaller view), the fitted last-round scale of its value estimate,
and the search's ``last_guide`` report."""

from __future__ import annotations

import math

import pytest

from bestiary.agents import AgentContext, make_agent
from bestiary.agents.ismcts import ISMCTSAgent
from bestiary.agents.rollout import BotRollout
from bestiary.engine import Rng, get_game
from bestiary.games.taxonomy import value as tax_value
from bestiary.games.taxonomy.bots import HeuristicAgent
from bestiary.games.taxonomy.view import PARTIAL_FIELDS


def _moves(lite: bool, seed: int, players: int) -> list[str]:
    game = get_game("taxonomy")
    state = game.new(players, seed=seed)
    state.quiet()
    bots = [HeuristicAgent(seed=seed + s, lite=lite) for s in range(players)]
    rngs = [Rng(seed * 3 + s) for s in range(players)]
    out = []
    while not state.over:
        seat = state.to_act()[0]
        action = bots[seat].act(AgentContext(state, seat, rngs[seat]))
        out.append(str(action))
        state.apply(seat, action)
    return out


def test_lite_playouts_make_exactly_the_heuristics_moves() -> None:
    """``lite=1`` reads a smaller view built the same way: whole games move for move
    the same as the default heuristic (2, 3 and 4 seats)."""
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        moves = _moves(False, seed, players)
        assert len(moves) > 50
        assert _moves(True, seed, players) == moves


def test_the_lite_view_shows_what_the_seats_view_shows() -> None:
    """Every field of the partial view the lite bot reads equals the seat's own
    view's, in every phase a game passes through (claim windows included), for
    the seat to act and the others."""
    game = get_game("taxonomy")
    state = game.new(3, seed=5)
    state.quiet()
    bots = [HeuristicAgent(seed=s) for s in range(3)]
    rng = Rng(5)
    phases = set()
    while not state.over:
        for seat in range(3):
            full = state.view(seat)
            lite = state.partial_view(seat, PARTIAL_FIELDS)
            assert lite == {k: full[k] for k in lite}
            phases.add(full["phase"])
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].act(AgentContext(state, seat, rng)))
    assert "claim" in phases or "claim_window" in phases or len(phases) >= 3


def test_the_search_passes_lite_to_taxonomys_playout_bots() -> None:
    game = get_game("taxonomy")
    bot = make_agent(game, "ismcts:iterations=1,rollout=heuristic,playout=lite=1")
    assert isinstance(bot, ISMCTSAgent)
    policy = bot._policy(game.new(2, seed=0))
    assert isinstance(policy, BotRollout)
    assert all(isinstance(b, HeuristicAgent) and b.lite for b in policy.bots)
    assert HeuristicAgent(seed=0).lite  # on by default since issue 31 (the same moves)


def test_two_seats_in_the_last_round_use_the_fitted_flatter_scale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """fit_value found the two-seat estimate overconfident in the last round
    (k = 0.5): its softmax scale there is LAST_ROUND_SCALE_2P, flatter than
    SCALE; with rounds to come, and with more seats, the old scales stay."""
    game = get_game("taxonomy")

    def position(players: int, last: bool) -> object:
        state = game.new(players, seed=4)
        state.quiet()
        state.scores[0] += 6  # type: ignore[attr-defined]
        if last:
            state.round = state.rules.rounds - 1  # type: ignore[attr-defined]
        return state

    assert tax_value.LAST_ROUND_SCALE_2P > tax_value.SCALE
    fitted = {
        (p, last): tax_value.value_estimate(position(p, last))
        for p in (2, 4)
        for last in (False, True)
    }
    assert fitted[(2, True)][0] > 0.5 and math.isclose(sum(fitted[(2, True)]), 1.0)
    monkeypatch.setattr(tax_value, "LAST_ROUND_SCALE_2P", tax_value.SCALE)
    old = {key: tax_value.value_estimate(position(*key)) for key in fitted}
    # only two seats in the last round change, and they are less sure of the leader
    assert old[(2, True)][0] > fitted[(2, True)][0] > 0.5
    for key in ((2, False), (4, False), (4, True)):
        assert old[key] == fitted[key]


def test_the_search_reports_the_guides_move() -> None:
    """``last_guide`` is the heuristic's move for the position searched (None
    without a guide), so a measurement can count how often the search overrules it."""
    game = get_game("taxonomy")
    state = game.new(2, seed=7)
    state.quiet()
    rng = Rng(7)
    while len(state.legal(state.to_act()[0])) < 3:
        seat = state.to_act()[0]
        state.apply(seat, HeuristicAgent(seed=1).act(AgentContext(state, seat, rng)))
    seat = state.to_act()[0]
    legal = [str(a) for a in state.legal(seat)]
    guided = make_agent(game, "ismcts:iterations=4,rollout=heuristic,rollout_limit=10")
    assert isinstance(guided, ISMCTSAgent)
    guided.act(AgentContext(state, seat, Rng(0)))
    assert guided.last_guide in legal
    plain = make_agent(game, "ismcts:iterations=4,rollout=random,rollout_limit=10")
    assert isinstance(plain, ISMCTSAgent)
    plain.act(AgentContext(state, seat, Rng(0)))
    assert plain.last_guide is None


def test_the_estimate_is_ready_at_a_rounds_end_not_in_its_middle() -> None:
    """``value_ready`` (the search's ``ready=auto``): a round goes to "the first
    seat whose eight cards form a pattern" (RULES.md reading 2), so at the next
    round's first turn the round's points are known and the estimate is worth
    asking; in the middle of a round it is not, and at the end it always is."""
    value_ready = tax_value.value_ready
    game = get_game("taxonomy")
    state = game.new(2, seed=1)
    state.quiet()
    rng = Rng(1)
    seen = {"start of a round": 0, "middle": 0}
    last_round = state.round
    while not state.over:
        seat = state.to_act()[0]
        legal = state.legal(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
        if state.over:
            break
        if state.round != last_round:
            assert value_ready(state)
            seen["start of a round"] += 1
            last_round = state.round
        elif state.turns > 2:
            assert not value_ready(state)
            seen["middle"] += 1
    assert value_ready(state)
    assert seen["start of a round"] >= 1 and seen["middle"] > 10
