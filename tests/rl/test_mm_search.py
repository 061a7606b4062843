"""Monster Maker's search hooks: the heuristic's playout options ``odds_cache``
(each battle's odds computed once per match) and ``lite`` (a smaller view built
the same way), both the same moves as the default heuristic."""

from __future__ import annotations

import dataclasses

import pytest

from bestiary.agents import AgentContext, make_agent
from bestiary.agents.ismcts import ISMCTSAgent
from bestiary.agents.rollout import BotRollout
from bestiary.engine import Rng, get_game
from bestiary.games.monster_maker import battle
from bestiary.games.monster_maker.bots import HeuristicAgent
from bestiary.games.monster_maker.view import PARTIAL_FIELDS


def _game(cache: bool, seed: int, players: int, lite: bool = False) -> tuple[list[str], int]:
    """A heuristic self-play game's moves, and how often the bots computed odds."""
    calls = [0]
    real = battle.win_chance

    def counting(*args: object, **kwargs: object) -> float:
        calls[0] += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    mp = pytest.MonkeyPatch()
    mp.setattr(battle, "win_chance", counting)
    try:
        game = get_game("monster-maker")
        state = game.new(players, seed=seed)
        state.quiet()
        bots = [HeuristicAgent(seed=seed + s, odds_cache=cache, lite=lite) for s in range(players)]
        rngs = [Rng(seed * 3 + s) for s in range(players)]
        moves = []
        while not state.over:
            seat = state.to_act()[0]
            action = bots[seat].act(AgentContext(state, seat, rngs[seat]))
            moves.append(str(action))
            state.apply(seat, action)
    finally:
        mp.undo()
    return moves, calls[0]


def test_the_odds_cache_plays_exactly_the_heuristics_moves_with_fewer_odds_computed() -> None:
    """``odds_cache=1``: whole games move for move the same as the default heuristic
    (2 and 4 seats), while the exact odds are computed at most as often and, over
    the games, fewer times (a party met again is looked up)."""
    saved = total = 0
    for seed, players in ((1, 2), (2, 2), (3, 4)):
        moves, plain = _game(False, seed, players)
        assert len(moves) > 50
        cached_moves, cached = _game(True, seed, players)
        assert cached_moves == moves
        assert cached <= plain
        saved += plain - cached
        total += plain
    assert total > 0 and saved > 0


def test_lite_playouts_make_exactly_the_heuristics_moves() -> None:
    """``lite=1`` (with and without the cache): whole games move for move the same
    as the default heuristic, 2 and 3 seats."""
    for seed, players in ((4, 2), (5, 3)):
        moves, _ = _game(False, seed, players)
        assert _game(False, seed, players, lite=True)[0] == moves
        assert _game(True, seed, players, lite=True)[0] == moves


def test_the_lite_view_shows_what_the_seats_view_shows() -> None:
    """Every entry of the partial view the lite bot reads equals the seat's own
    view's, for every seat at every step of a game (battles, the road back,
    traps and the endgame included)."""
    game = get_game("monster-maker")
    state = game.new(3, seed=6)
    state.quiet()
    bots = [HeuristicAgent(seed=s) for s in range(3)]
    rng = Rng(6)
    phases: set[str] = set()
    while not state.over:
        for seat in range(3):
            full = state.view(seat)
            lite = state.partial_view(seat, PARTIAL_FIELDS)
            assert lite == {k: full[k] for k in PARTIAL_FIELDS}
            phases.add(full["phase"])
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].act(AgentContext(state, seat, rng)))
    assert {"battle", "after"} <= phases


def test_the_playout_options_are_on_by_default_and_reach_playout_bots() -> None:
    """Issue 31: the heuristic remembers battle odds and reads the part of the
    view it uses by default (the same moves: tests/sim/test_same_games.py);
    ``ismcts:playout=odds_cache=1;lite=1`` still names both for its playouts."""
    assert HeuristicAgent().odds_cache is True and HeuristicAgent().lite is True
    game = get_game("monster-maker")
    assert make_agent(game, "heuristic").odds_cache is True  # type: ignore[attr-defined]
    spec = "ismcts:iterations=1,rollout=heuristic,playout=odds_cache=1;lite=1"
    bot = make_agent(game, spec)
    assert isinstance(bot, ISMCTSAgent)
    policy = bot._policy(game.new(2, seed=0))
    assert isinstance(policy, BotRollout)
    assert all(b.odds_cache is True and b.lite is True for b in policy.bots)


def test_a_cached_bot_forgets_the_odds_when_the_match_changes() -> None:
    """The cache belongs to one match's rules: other rules (first edition's Sleep
    rolls 1D, so the same party has other odds) start it afresh."""
    game = get_game("monster-maker")
    bot = HeuristicAgent(odds_cache=True)
    state = game.new(2, seed=1)
    state.quiet()
    rng = Rng(1)
    while not state.over and not bot._odds:
        seat = state.to_act()[0]
        state.apply(seat, bot.act(AgentContext(state, seat, rng)))
    assert bot._odds
    other = dataclasses.replace(state.rules, sleep_errata=False)  # type: ignore[attr-defined]
    bot._cards(other)
    assert bot._odds == {} and bot._means == {}
