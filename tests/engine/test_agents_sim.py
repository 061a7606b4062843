from __future__ import annotations

import pytest

from bestiary.agents import AgentContext, make_agent
from bestiary.engine import BadAgentSpec, Rng, register
from bestiary.sim.bench import bench_selfplay
from bestiary.sim.runner import aggregate_stats, simulate

from .toygame import GAME

register(GAME)


def test_agent_context_gives_only_the_seats_view() -> None:
    s = GAME.new(3, seed=1)
    ctx = AgentContext(s, 1, Rng(0))
    assert ctx.view()["hand"] == s.hands[1]
    assert not hasattr(ctx, "state")
    d = ctx.determinize()
    assert d.hands[1] == s.hands[1]


def test_agent_specs() -> None:
    agent = make_agent(GAME, "ismcts:iterations=20", seed=1)
    assert agent.iterations == 20  # type: ignore[attr-defined]
    with pytest.raises(BadAgentSpec, match="agents: ismcts, random"):
        make_agent(GAME, "genius")
    with pytest.raises(BadAgentSpec, match="name=value"):
        make_agent(GAME, "ismcts:fast")


def test_ismcts_finds_the_sure_win_when_one_trick_decides() -> None:
    """With one trick the highest card takes it: a card higher than every card
    the seat has not seen wins for sure, and a search must bid one. (Over three
    tricks against a random opponent every order of bids wins equally often,
    so a win-rate test there would be a coin flip.)"""
    tried = 0
    for seed in range(60):
        state = GAME.new(2, seed=seed, options={"tricks": 1})
        unseen = [c for c in range(1, 10) if c not in state.hands[0]]
        sure = [c for c in state.hands[0] if c > max(unseen)]
        if not sure or len(sure) == len(state.hands[0]):
            continue
        tried += 1
        agent = make_agent(GAME, "ismcts:iterations=300", seed=seed)
        action = agent.act(AgentContext(state, 0, Rng(seed)))
        assert action.card in sure, (state.hands[0], action)  # type: ignore[attr-defined]
    assert tried >= 5


def test_simulate_counts_every_game_and_shares_tied_wins() -> None:
    summary = simulate(GAME, ["random", "random"], games=40, seed=0)
    assert summary.games == 40
    assert sum(summary.wins) == pytest.approx(40)
    assert summary.stats["tricks"]["mean"] == 3


def test_parallel_simulation_gives_the_same_numbers() -> None:
    """Game i uses seed + i whichever process plays it, so workers change nothing but speed.
    (Worker processes find games through the entry points, so this uses a real game.)"""
    from bestiary.engine import get_game

    game = get_game("taxonomy")
    specs = ["random", "random", "random"]
    one = simulate(game, specs, games=12, seed=5, options={"rounds": 3})
    two = simulate(game, specs, games=12, seed=5, options={"rounds": 3}, workers=2)
    assert one.games == two.games == 12
    assert one.wins == two.wins and one.mean_scores == two.mean_scores
    assert one.stats == two.stats


def test_aggregate_stats_means_numbers_and_counts_strings() -> None:
    agg = aggregate_stats([{"n": 1, "p": "a", "l": [1, 2]}, {"n": 3, "p": "b", "l": [3]}])
    assert agg["n"]["mean"] == 2 and agg["p"] == {"a": 1, "b": 1} and agg["l"]["n"] == 3


def test_bench_reports_medians() -> None:
    res = bench_selfplay(GAME, players=3, seconds=0.05, repeats=3)
    assert res["us_per_decision"] > 0 and len(res["us_per_decision_all"]) == 3


def test_a_team_win_counts_in_full_for_each_member() -> None:
    """M.E.A.T. is played by two teams: a heuristic team that always wins should read 100%,
    not 50% (a tie between two seats of different teams still splits)."""
    from bestiary.engine import Result
    from bestiary.sim.runner import summarize

    outcomes = [(Result([1, 0, 1, 0], [0, 2]), 10, ["h", "r", "h", "r"])] * 3
    team = summarize("meat", ["h", "r", "h", "r"], outcomes, 1.0, 0, False, teams=[0, 1, 0, 1])
    assert team.agent_win_rates() == {"h": 1.0, "r": 0.0}
    ffa = summarize("toy", ["h", "r", "h", "r"], outcomes, 1.0, 0, False)
    assert ffa.agent_win_rates() == {"h": 0.5, "r": 0.0}
