"""The search's paired root (``root=paired``): every candidate move played out on
the same samples, the budget spent by sequential halving, the guide's move kept
unless another beats it on the same samples."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import pytest

from bestiary.agents import AgentContext, make_agent
from bestiary.agents.ismcts import ISMCTSAgent
from bestiary.agents.paired import PairedResult, paired_search
from bestiary.agents.rollout import BotRollout, RandomRollout, bot_factory, play_out
from bestiary.engine import BadAgentSpec, Rng, get_game


def _decision(game_id: str, seed: int, choices: int = 3) -> object:
    """A two-seat position whose seat to act has at least ``choices`` legal moves."""
    state = get_game(game_id).new(2, seed=seed)
    rng = Rng(seed)
    while len(state.legal(state.to_act()[0])) < choices:
        seat = state.to_act()[0]
        legal = state.legal(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    return state


class _Coin:
    """A stand-in sample: playing it out gives a reward set by the move applied
    and a shared luck term drawn from the sample's own seed (as a deck order
    would be), so only a paired comparison sees the moves' small difference."""

    def __init__(self, luck: float) -> None:
        self.luck = luck
        self.move = ""

    def quiet(self) -> None:
        pass

    def clone(self) -> _Coin:
        return _Coin(self.luck)

    def apply(self, seat: int, action: str) -> None:
        self.move = action


def _search(
    legal: list[str],
    determinize: Callable[[], _Coin],
    playout: Callable[[_Coin, int], list[float]],
    rng: Rng,
    budget: int,
    deadline: float,
    guide: str | None,
) -> PairedResult:
    """Seat 0's paired search over stand-in samples, at one standard error."""
    args: Any = (legal, 0, determinize, playout, rng, budget, deadline, guide, 1.0)
    return paired_search(*args)


def _coin_search(edge: dict[str, float], guide: str | None, budget: int) -> PairedResult:
    rng = Rng(4)
    luck = Rng(5)

    def determinize() -> _Coin:
        return _Coin(luck.random())

    def playout(state: _Coin, seed: int) -> list[float]:
        return [state.luck + edge[state.move], 0.0]

    return _search(list(edge), determinize, playout, rng, budget, math.inf, guide)


def test_a_small_edge_shows_on_shared_samples_and_overrules_the_guide() -> None:
    """Luck of ±0.5 per sample, an edge of 0.01: on the same samples the edge is
    all that differs, so the better move is found and played over the guide's."""
    found = _coin_search({"a": 0.0, "b": 0.01, "c": -0.01, "d": 0.0}, "a", 64)
    assert found.action == "b"
    assert found.playouts <= 64


def test_equal_moves_leave_the_guides_move() -> None:
    """No move beats the guide's on the shared samples: the guide's is played."""
    found = _coin_search({"a": 0.0, "b": 0.0, "c": 0.0}, "a", 60)
    assert found.action == "a"


def test_sequential_halving_spends_the_budget_on_the_better_moves() -> None:
    """Eight moves, three rounds: the worse half leaves after each round, so the
    best move is played out more often than the worst, and the guide's move
    stays in to the end whatever its rank."""
    edge = {str(i): i / 100 for i in range(8)}
    found = _coin_search(edge, "0", 96)
    counts = {k: len(r) for k, r in found.rewards.items()}
    assert counts["7"] > counts["1"]
    assert counts["0"] == counts["7"]  # the guide (the worst) was kept
    assert found.action == "7"
    assert found.playouts <= 96


def test_a_budget_smaller_than_the_moves_tries_only_some_of_them() -> None:
    """Forty moves and a budget of ten: the guide's move and four others are
    tried, not one playout each for all forty."""
    edge = {str(i): 0.0 for i in range(40)}
    found = _coin_search(edge, "7", 10)
    assert "7" in found.rewards and len(found.rewards) == 5
    assert found.playouts <= 12


def test_a_deadline_stops_the_search_after_one_sample_a_round() -> None:
    """A deadline already past still plays one sample per round (a move must be
    chosen from something) and no more."""
    edge = {"a": 0.0, "b": 1.0, "c": 0.0, "d": 0.0}
    rng = Rng(1)

    def playout(state: _Coin, seed: int) -> list[float]:
        return [edge[state.move], 0.0]

    found = _search(list(edge), lambda: _Coin(0.0), playout, rng, 10**6, time.perf_counter(), "a")
    assert found.samples == 2  # log2(4) rounds, one sample each
    assert found.action == "b"  # ahead by 1 on both samples the two shared


def test_reseeded_playouts_of_one_sample_are_equal() -> None:
    """Common random numbers: the same sample and move, the policy reseeded alike,
    give the same playout, for the heuristic and for random moves alike."""
    state = _decision("taxonomy", 3)
    seat = state.to_act()[0]  # type: ignore[attr-defined]
    sample = AgentContext(state, seat, Rng(2)).determinize()  # type: ignore[arg-type]
    sample.quiet()
    factory = bot_factory(sample, "heuristic")
    for policy in (BotRollout(factory, 2, Rng(7)), RandomRollout(Rng(7))):
        runs = []
        for _ in range(2):
            s = sample.clone()
            policy.reseed(11)
            runs.append(play_out(s, policy, None, 0, 40)[0] + [str(s.view(seat))])
        assert runs[0] == runs[1]


@pytest.mark.parametrize("game_id", ["taxonomy", "monster-maker", "meat", "teratozoic"])
def test_the_paired_search_plays_a_legal_move_within_its_budget(game_id: str) -> None:
    state = _decision(game_id, 6)
    seat = state.to_act()[0]  # type: ignore[attr-defined]
    bot = make_agent(get_game(game_id), "ismcts:iterations=24,rollout=auto,root=paired", seed=2)
    action = bot.act(AgentContext(state, seat, Rng(1)))  # type: ignore[arg-type]
    assert str(action) in {str(a) for a in state.legal(seat)}  # type: ignore[attr-defined]
    assert isinstance(bot, ISMCTSAgent)
    assert 1 <= bot.last_iterations <= 24
    assert sum(n for _, n, _ in bot.last_ranking) == bot.last_iterations


def test_equal_seeds_give_equal_paired_searches() -> None:
    state = _decision("monster-maker", 6)
    seat = state.to_act()[0]  # type: ignore[attr-defined]
    runs = []
    for _ in range(2):
        bot = make_agent(get_game("monster-maker"), "ismcts:iterations=20,root=paired", seed=9)
        action = bot.act(AgentContext(state.clone(), seat, Rng(2)))  # type: ignore[attr-defined]
        runs.append((str(action), bot.last_ranking))  # type: ignore[attr-defined]
    assert runs[0] == runs[1]


def test_a_bad_root_is_refused_with_the_choices_named() -> None:
    with pytest.raises(BadAgentSpec, match="tree, paired"):
        make_agent(get_game("taxonomy"), "ismcts:root=flat")


def test_a_decision_left_to_the_guide_is_not_searched() -> None:
    """``leave=rps``: at Taxonomy's rock-paper-scissors (RULES.md reading 14,
    an aggressive monster's attack: "Both choose in secret") the search plays
    the guide's move and spends no playouts; at a discard it searches."""
    game = get_game("taxonomy")
    state = game.new(2, seed=4)
    state.quiet()
    rng = Rng(4)
    heuristic = [make_agent(game, "heuristic", seed=s) for s in range(2)]
    spec = "ismcts:iterations=16,rollout=heuristic,root=paired,leave=rps"
    seen: set[str] = set()
    while not state.over and len(seen) < 2:
        seat = state.to_act()[0]
        legal = [str(a) for a in state.legal(seat)]
        kind = "rps" if all(m.startswith("rps ") for m in legal) else "other"
        if len(legal) > 1 and kind not in seen:
            seen.add(kind)
            bot = make_agent(game, spec, seed=1)
            move = bot.act(AgentContext(state.clone(), seat, Rng(2)))
            assert isinstance(bot, ISMCTSAgent)
            if kind == "rps":
                assert bot.last_iterations == 0 and str(move) == bot.last_guide
            else:
                assert bot.last_iterations > 0
        state.apply(seat, heuristic[seat].act(AgentContext(state, seat, rng)))
    assert seen == {"rps", "other"}


def test_guide_options_reach_the_guide_and_only_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """``guide=greed=0``: the guide's heuristic is built with the options (the
    ones it takes; the rest are dropped, as for ``playout=``), the playouts'
    bots without them."""
    import bestiary.agents.ismcts as ismcts_module

    built: list[dict[str, Any]] = []
    real = ismcts_module.bot_factory

    def recording(state: Any, name: str) -> Any:
        factory = real(state, name)

        def make(seed: int = 0, greed: float | str = 0.3, lite: bool | str = False) -> Any:
            built.append({"greed": greed, "lite": lite})
            return factory(seed=seed, greed=greed, lite=lite)

        return make

    monkeypatch.setattr(ismcts_module, "bot_factory", recording)
    state = _decision("taxonomy", 6)
    seat = state.to_act()[0]  # type: ignore[attr-defined]
    spec = "ismcts:iterations=4,rollout=heuristic,root=paired,guide=greed=0;nonsense=1"
    bot = make_agent(get_game("taxonomy"), spec, seed=3)
    bot.act(AgentContext(state, seat, Rng(1)))  # type: ignore[arg-type]
    assert isinstance(bot, ISMCTSAgent)
    guides = [b for b in built if b["greed"] == "0"]
    assert len(guides) == 1 and len(built) == 1 + 2  # the guide, then a bot per seat
    assert all(b["greed"] == 0.3 for b in built if b is not guides[0])


def test_a_malformed_guide_option_is_named() -> None:
    with pytest.raises(BadAgentSpec, match="guide option 'greed' must be written name=value"):
        make_agent(get_game("taxonomy"), "ismcts:guide=greed")
