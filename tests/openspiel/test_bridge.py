"""The OpenSpiel bridge (issue 32, part 1): every Bestiary game registered as an
OpenSpiel Python game, passing OpenSpiel's own checks, searchable by its MCTS.

Skipped when ``open_spiel`` is not installed (``pip install bestiary[openspiel]``).
The tables use the games' own options for short matches (one Era, one dungeon,
low vitality) so the whole file stays well under a minute on a loaded machine.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

import numpy as np  # noqa: E402 - after the skip

import bestiary.openspiel as bridge  # noqa: E402
from bestiary.engine.errors import BadRecord, BestiaryError, IllegalAction  # noqa: E402
from bestiary.engine.registry import get_game  # noqa: E402
from bestiary.rl.encoding import observation, observer_for  # noqa: E402

#: Short tables: OpenSpiel name -> load_game parameters.
SHORT: dict[str, dict[str, Any]] = {
    "bestiary_meat": {"players": 2, "options": json.dumps({"vitality_1v1": 5})},
    "bestiary_taxonomy": {"players": 2, "variant": "v0.1"},
    "bestiary_teratozoic": {
        "players": 2,
        "variant": "basic",
        "options": json.dumps({"eras": ["Teratozoic Era"]}),
    },
    "bestiary_monster_maker": {
        "players": 2,
        "options": json.dumps({"max_dungeons": 1, "treasure_distance": 20}),
    },
}
NAMES = sorted(SHORT)


def _load(name: str, **extra: Any) -> Any:
    return pyspiel.load_game(name, {**SHORT[name], "seed": 7, **extra})


def _play_randomly(state: Any, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


def test_every_registered_game_is_an_openspiel_game() -> None:
    """Issue 32: "each game registered as an OpenSpiel Python game ... named e.g.
    bestiary_taxonomy", sequential, sampled chance, imperfect information,
    zero-sum, with our fixed action space and every table size the game allows."""
    assert bridge.names() == NAMES
    assert set(NAMES) <= set(pyspiel.registered_names())
    for name, game_id in bridge.register_all().items():
        ours = get_game(game_id)
        game = pyspiel.load_game(name)
        gtype = game.get_type()
        assert gtype.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert gtype.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert gtype.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert gtype.utility == pyspiel.GameType.Utility.ZERO_SUM
        assert gtype.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert (gtype.min_num_players, gtype.max_num_players) == (
            min(ours.allowed_players()),
            max(ours.allowed_players()),
        )
        assert game.get_parameters()["variant"] == ours.default_variant
        rules = ours.ruleset()
        assert game.num_distinct_actions() == ours.num_actions(game.num_players(), rules)
        size = observer_for(ours, game.num_players(), rules).size
        assert game.observation_tensor_shape() == [size]
        assert game.information_state_tensor_shape() == [size]
        assert game.max_chance_outcomes() == 0
        assert game.utility_sum() == 0.0


@pytest.mark.parametrize("name", NAMES)
def test_openspiels_random_simulation_checks_pass(name: str) -> None:
    """Issue 32: "OpenSpiel's own game checks pass on every game": its
    random_sim_test checks legal actions (sorted, in range), tensors against
    their shapes, strings, clones and returns within the announced bounds.
    (serialize=False as for every Python game in OpenSpiel: its serialize
    check needs the game's RNG state, which only C++ games expose; our own
    serialisation test follows.)"""
    game = _load(name)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_a_serialized_state_is_our_record_and_rebuilds_the_state(name: str) -> None:
    """Issue 32: "serialize/deserialize (our records: game, variant, options,
    players, seed, moves rebuild the state)"."""
    game = _load(name)
    rng = random.Random(3)
    state = game.new_initial_state()
    _play_randomly(state, 12, rng)
    text = state.serialize()
    record = json.loads(text)
    assert record["format"] == "bestiary-record/1"
    assert record["game"] == bridge.register_all()[name]
    assert record["players"] == 2 and record["seed"] == state.seed
    assert len(record["moves"]) == len(state.history())
    again = game.deserialize_state(text)
    assert again.history() == state.history()
    assert again.serialize() == text
    for p in range(game.num_players()):
        assert again.information_state_string(p) == state.information_state_string(p)
        assert again.observation_tensor(p) == state.observation_tensor(p)
    assert again.legal_actions() == state.legal_actions()
    # Same seed, same moves: the rest of the match is the same, to the returns.
    follow = random.Random(5)
    twin = random.Random(5)
    _play_randomly(state, 10_000, follow)
    _play_randomly(again, 10_000, twin)
    assert again.is_terminal() and again.returns() == state.returns()


def test_a_record_of_another_table_is_refused_with_what_does_not_fit() -> None:
    """Charter: bad input gets a clear error that says what is allowed."""
    meat = _load("bestiary_meat")
    record = json.loads(meat.new_initial_state().serialize())
    four = pyspiel.load_game("bestiary_meat", {"players": 4})
    with pytest.raises(BadRecord, match="the record is for game, players"):
        four.deserialize_state(json.dumps(record))
    record["moves"] = [[1, "no such move"]]
    with pytest.raises(BadRecord, match="move 1 is seat 1's, but seat 0 is to act"):
        meat.deserialize_state(json.dumps(record))
    with pytest.raises(BestiaryError):
        meat.deserialize_state("[1, 2")


@pytest.mark.parametrize("name", NAMES)
def test_observations_are_the_seats_own_view(name: str) -> None:
    """Issue 32: "information-state and observation tensors and strings built
    from our views (bestiary/rl/encoding.py)"; and hidden information is
    sacred: a state resampled for a seat (``resample_from_infostate``, our
    ``determinize``) looks exactly the same to that seat."""
    game = _load(name)
    state = game.new_initial_state()
    _play_randomly(state, 6, random.Random(1))
    ours = get_game(bridge.register_all()[name])
    encoder = observer_for(ours, game.num_players(), state.spec.rules)
    for p in range(game.num_players()):
        want = observation(encoder, state.engine, p)
        assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), want)
        assert json.loads(state.observation_string(p)) == json.loads(
            json.dumps(state.engine.view(p), default=str)
        )
        other = state.resample_from_infostate(p, random.Random(p).random)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.observation_tensor(p) == state.observation_tensor(p)


@pytest.mark.parametrize("name", NAMES)
def test_legal_actions_are_our_action_indices(name: str) -> None:
    """Issue 32: "legal actions as our fixed action indices", each named by
    its text form."""
    game = _load(name)
    state = game.new_initial_state()
    _play_randomly(state, 4, random.Random(2))
    seat = state.current_player()
    engine = state.engine
    want = sorted(engine.action_index(a) for a in engine.legal(seat))
    assert state.legal_actions() == want
    assert len(set(want)) == len(want)
    texts = {state.action_to_string(seat, i) for i in want}
    assert texts == {str(a) for a in engine.legal(seat)}
    # Charter: bad input gets a clear error and leaves the state unchanged.
    illegal = next(i for i in range(game.num_distinct_actions()) if i not in want)
    before = state.serialize()
    with pytest.raises(IllegalAction, match="allowed"):
        state.apply_action(illegal)
    assert state.serialize() == before and len(state.history()) == 4


@pytest.mark.parametrize("name", NAMES)
def test_openspiels_mcts_plays_a_game(name: str) -> None:
    """Issue 32: "its MCTS (MCTSBot with a RandomRolloutEvaluator) plays a short
    game on each": seat 0 is the bot (up to 40 of its decisions: the whole
    match on three of the short tables; Taxonomy's round is longer), the other
    seat plays at random; every choice of the bot is legal, the match ends,
    and the returns are zero-sum within the announced bounds."""
    game = _load(name)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=3,
        evaluator=mcts.RandomRolloutEvaluator(1, rng),
        random_state=rng,
    )
    state = game.new_initial_state()
    other = random.Random(4)
    searched = 0
    while not state.is_terminal():
        if state.current_player() == 0 and searched < 40:
            action = bot.step(state)
            assert action in state.legal_actions()
            searched += 1
        else:
            action = other.choice(state.legal_actions())
        state.apply_action(action)
    assert searched > 5
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


def test_a_sole_winner_gets_one_and_the_others_share_minus_one() -> None:
    """docs/RL.md, "OpenSpiel": zero-sum returns from who wins; in M.E.A.T. the
    two teams win or lose together."""
    from bestiary.engine.protocol import Result
    from bestiary.openspiel.utility import zero_sum_returns

    assert zero_sum_returns(Result([3, 1, 0], [0]), 3, None) == [1.0, -0.5, -0.5]
    assert zero_sum_returns(Result([5, 5], [0, 1]), 2, None) == [0.0, 0.0]
    assert zero_sum_returns(Result([0, 9, 0, 9], [1, 3]), 4, [0, 1, 0, 1]) == [-1, 1, -1, 1]
    assert zero_sum_returns(None, 4, None) == [0.0] * 4
