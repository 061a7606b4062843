"""Issue 30, part 1 (learning at scale): N tables stepped together with NumPy
arrays (``bestiary.rl.vector``, Gymnasium's vector API) and a PettingZoo
Parallel environment (``bestiary.rl.parallel_env``)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode, VectorEnv
from pettingzoo.test import parallel_api_test

from bestiary.engine.errors import IllegalAction
from bestiary.rl import parallel_env, raw_env, vector
from bestiary.rl.aec import win_rewards
from bestiary.rl.encoding import action_mask, observation

# Each game at a table size it allows, with options that end a random game in
# a few hundred moves (so the differential test sees games end and restart).
SHORT: list[tuple[str, int, dict[str, Any], int]] = [
    ("taxonomy", 2, {"rounds": 1}, 300),
    ("meat", 2, {"vitality_1v1": 5}, 120),
    ("monster-maker", 2, {"max_dungeons": 1}, 250),
    ("teratozoic", 2, {}, 640),
]
GAMES = ("taxonomy", "monster-maker", "meat", "teratozoic")


def _pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal index in each row of ``masks``."""
    return np.array([int(rng.choice(np.flatnonzero(row))) for row in masks], dtype=np.int64)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_vector_env_keeps_gymnasiums_vector_contract(game_id: str) -> None:
    """Gymnasium 1.x ships no vector-env checker; these are the points its
    VectorEnv documents: a VectorEnv subclass, batched spaces built from the
    single ones, reset -> (obs, info dict), step -> five values batched over
    the tables, every observation inside observation_space, and the
    autoreset mode named in metadata."""
    n = 3
    v = vector(game_id, num_envs=n, seed=5)
    assert isinstance(v, VectorEnv)
    assert v.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert v.num_envs == n
    single = v.single_observation_space
    size, actions = single["observation"].shape[0], v.single_action_space.n  # type: ignore[index,attr-defined]
    assert v.observation_space["observation"].shape == (n, size)  # type: ignore[index]
    assert v.observation_space["action_mask"].shape == (n, actions)  # type: ignore[index]
    assert v.action_space.shape == (n,)
    obs, info = v.reset()
    assert isinstance(info, dict)
    assert v.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    for _ in range(20):
        assert obs["action_mask"].dtype == np.bool_ and obs["action_mask"].any(axis=1).all()
        obs, rewards, terms, truncs, info = v.step(_pick(obs["action_mask"], rng))
        assert v.observation_space.contains(obs)
        assert rewards.shape == (n, v.players) and terms.shape == truncs.shape == (n,)
        assert terms.dtype == truncs.dtype == np.bool_
        assert isinstance(info, dict)
    v.close()
    assert v.closed


@pytest.mark.parametrize(
    ("game_id", "players", "options", "steps"), SHORT, ids=[s[0] for s in SHORT]
)
def test_the_vector_env_equals_separate_aec_envs_on_the_same_seeds(
    game_id: str, players: int, options: dict[str, Any], steps: int
) -> None:
    """Issue 30: "the batched env must give exactly the same observations,
    masks and rewards as N separate AEC envs on the same seeds". Table i
    reset with seed s plays the AEC env reset with seed s + i, its next games
    those of the AEC env's unseeded resets."""
    n, seed = (1 if game_id == "teratozoic" else 2), 40  # Teratozoic: ~600 moves a game
    v = vector(game_id, num_envs=n, players=players, seed=seed, **options)
    aecs = [raw_env(game_id, players=players, options=options) for _ in range(n)]
    for i, e in enumerate(aecs):
        e.reset(seed=seed + i)
    obs, _ = v.reset()
    rng = np.random.default_rng(seed)
    finished = 0
    for _ in range(steps):
        for i, e in enumerate(aecs):
            agent = e.agent_selection
            assert int(obs["seat"][i]) == e.possible_agents.index(agent)
            mine = e.observe(agent)
            np.testing.assert_array_equal(obs["observation"][i], mine["observation"])
            np.testing.assert_array_equal(obs["action_mask"][i], mine["action_mask"].astype(bool))
        actions = _pick(obs["action_mask"], rng)
        obs, rewards, terms, truncs, info = v.step(actions)
        for i, e in enumerate(aecs):
            mover = e.agent_selection
            e.step(int(actions[i]))
            assert bool(terms[i]) == e.terminations[mover]
            assert not truncs[i]
            expected = [e.rewards[a] for a in e.possible_agents]
            assert rewards[i].tolist() == expected
            if terms[i]:
                finished += 1
                assert sum(expected) > 0, "a finished game pays its winners"
                final = info["final_obs"][i]
                np.testing.assert_array_equal(final["observation"], e.observe(mover)["observation"])
                assert not final["action_mask"].any()
                e.reset()  # the AEC env's next game: the next seed of its stream
    assert finished >= 1, "no game ended: the comparison never reached the rewards"


def test_a_finished_table_restarts_in_the_same_step_keeping_its_final_observation() -> None:
    """Issue 30: "automatic reset (a finished env starts its next game with the
    next seed, and its final observation/info are kept in infos as Gymnasium
    does)". A truncation at max_steps exercises it on every table at once."""
    n, seed = 3, 7
    v = vector("taxonomy", num_envs=n, players=3, seed=seed, max_steps=4)
    obs, _ = v.reset()
    rng = np.random.default_rng(1)
    for _ in range(3):
        obs, _, _, truncs, info = v.step(_pick(obs["action_mask"], rng))
        assert not truncs.any() and info == {}
    before = obs
    obs, rewards, terms, truncs, info = v.step(_pick(before["action_mask"], rng))
    assert truncs.all() and not terms.any() and not rewards.any()
    assert info["_final_obs"].all() and info["_final_info"].all()
    assert [int(x) for x in info["final_info"]["steps"]] == [4] * n
    for i in range(n):
        assert not info["final_obs"][i]["action_mask"].any()
        # The returned row is already the next game's first observation:
        # the AEC env's second (unseeded) reset on the same seed.
        e = raw_env("taxonomy", players=3)
        e.reset(seed=seed + i)
        e.reset()
        first = e.observe(e.agent_selection)
        np.testing.assert_array_equal(obs["observation"][i], first["observation"])
        np.testing.assert_array_equal(obs["action_mask"][i], first["action_mask"].astype(bool))
    # The restarted tables play on.
    obs, _, _, truncs, info = v.step(_pick(obs["action_mask"], rng))
    assert not truncs.any() and info == {}


def test_seeds_reproduce_and_differ() -> None:
    """The same seed deals the same games (as reset(seed=) promises in docs/RL.md);
    another seed deals others; a list gives each table its own."""

    def run(**reset: Any) -> list[np.ndarray]:
        v = vector("meat", num_envs=4, seed=0)
        obs, _ = v.reset(**reset)
        rng = np.random.default_rng(3)
        out = [obs["observation"].copy()]
        for _ in range(40):
            obs, *_ = v.step(_pick(obs["action_mask"], rng))
            out.append(obs["observation"].copy())
        return out

    a, b, c = run(seed=11), run(seed=11), run(seed=12)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], c[0])
    d = run(seed=[11, 12, 13, 14])
    np.testing.assert_array_equal(d[0], a[0])  # seed=11 gives tables 11, 12, 13, 14
    assert run(seed=None)[0].tolist() == run(seed=None)[0].tolist()  # the constructor's seed=0


def test_a_bad_batch_is_refused_and_changes_nothing() -> None:
    """Charter: bad input gets a clear error and leaves state unchanged. One
    masked-out index refuses the whole batch, so no table moved."""
    v = vector("taxonomy", num_envs=2, players=2, seed=3)
    obs, _ = v.reset()
    good = _pick(obs["action_mask"], np.random.default_rng(0))
    bad = good.copy()
    bad[1] = int(np.flatnonzero(~obs["action_mask"][1])[0])
    with pytest.raises(IllegalAction, match="table 1"):
        v.step(bad)
    with pytest.raises(ValueError, match="2 integer indices"):
        v.step(good[:1])
    with pytest.raises(ValueError, match="2 integer indices"):
        v.step(good.astype(float))
    after, _, _, _, _ = v.step(good)
    w = vector("taxonomy", num_envs=2, players=2, seed=3)
    w.reset()
    fresh, _, _, _, _ = w.step(good)
    np.testing.assert_array_equal(after["observation"], fresh["observation"])
    with pytest.raises(ValueError, match="num_envs"):
        vector("taxonomy", num_envs=0)
    for seed in ([1], "12", [1, 2.5]):
        with pytest.raises(ValueError, match="2 ints"):
            v.reset(seed=seed)  # type: ignore[arg-type]
    again = _pick(
        after["action_mask"], np.random.default_rng(1)
    )  # the refused resets changed nothing
    np.testing.assert_array_equal(v.step(again)[0]["observation"], w.step(again)[0]["observation"])


# ---------------------------------------------------------------- Parallel


@pytest.mark.parametrize(
    ("game_id", "players"), [("taxonomy", 4), ("meat", 4), ("monster-maker", 3), ("teratozoic", 3)]
)
def test_pettingzoo_parallel_api_test_passes(game_id: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # its complaints are warnings: make them fail
        parallel_api_test(parallel_env(game_id, players=players, seed=1), num_cycles=80)


def _owing(obs: dict[str, Any]) -> list[str]:
    return [a for a, o in obs.items() if o["action_mask"].any()]


def test_the_seats_that_choose_at_once_choose_in_one_step() -> None:
    """Teratozoic's growth: every seat builds at once. In the Parallel env both
    seats owe it in the same step, each sees the state before anyone chose,
    and one step with both choices ends the phase for both."""
    e = parallel_env("teratozoic", players=2, seed=11)
    obs, infos = e.reset()
    rng = np.random.default_rng(0)
    while e.state.phase != "growth":  # type: ignore[attr-defined]
        owing = _owing(obs)
        assert len(owing) == 1, "outside the growth the game is sequential here"
        assert [a for a in infos if infos[a]["to_act"]] == owing
        obs, _, _, _, infos = e.step(
            {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in owing}
        )
    assert _owing(obs) == ["player_0", "player_1"]
    with pytest.raises(ValueError, match="owes a decision"):
        e.step({"player_0": int(np.flatnonzero(obs["player_0"]["action_mask"])[0])})
    assert len(e.state.to_act()) == 2, "the refused step played nothing"
    obs, _, _, _, infos = e.step(
        {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in ("player_0", "player_1")}
    )
    assert infos["player_0"]["played"] and infos["player_1"]["played"]
    assert e.state.phase != "growth" or len(e.state.to_act()) != 2  # type: ignore[attr-defined]


def test_a_seat_that_owes_nothing_has_an_empty_mask_and_its_action_is_ignored() -> None:
    """docs/RL.md (Parallel): in a sequential phase only the seat to act has a
    mask; an action given for another seat is not played."""
    e = parallel_env("taxonomy", players=3, seed=2)
    obs, _ = e.reset()
    (owing,) = _owing(obs)
    idle = next(a for a in e.possible_agents if a != owing)
    bad = int(np.flatnonzero(obs[idle]["action_mask"] == 0)[0])
    obs, _, _, _, infos = e.step(
        {owing: int(np.flatnonzero(obs[owing]["action_mask"])[0]), idle: bad}
    )
    assert infos[owing]["played"] and "played" not in infos[idle]
    with pytest.raises(IllegalAction):  # a masked-out index of the seat that owes
        (owing,) = _owing(obs)
        e.step({owing: int(np.flatnonzero(obs[owing]["action_mask"] == 0)[0])})


def test_the_parallel_env_pays_every_seat_at_the_end() -> None:
    e = parallel_env("meat", players=4, seed=5, options={"vitality_2v2": 8})
    obs, _ = e.reset()
    rng = np.random.default_rng(5)
    rewards: dict[str, float] = {}
    while e.agents:
        obs, rewards, terms, _, _ = e.step(
            {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in _owing(obs)}
        )
    assert all(terms.values()) and e.state.over
    assert [rewards[a] for a in e.possible_agents] == win_rewards(e.state)
    assert sum(rewards.values()) == 2.0, "M.E.A.T.: each member of the winning team gets 1"


def test_an_action_the_earlier_ones_made_moot_is_not_played() -> None:
    """docs/RL.md (Parallel): M.E.A.T.'s activation lets either member of the
    acting team act, and the first one's action can end the other's turn. The
    owing seats' actions go in seat order; one the state no longer asks for is
    not played (infos say so), so the step equals the first seat's move alone."""
    e = parallel_env("meat", players=4, seed=3)
    obs, _ = e.reset()
    rng = np.random.default_rng(0)
    for _ in range(2000):
        owing = _owing(obs)
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in owing}
        before = e.state.clone()
        obs, _, _, _, infos = e.step(actions)
        if any(infos[a].get("played") is False for a in owing):
            break
    else:
        pytest.fail("no action was made moot in 2000 steps")
    played = [a for a in owing if infos[a]["played"]]
    moot = [a for a in owing if not infos[a]["played"]]
    assert played and moot and min(played) < min(moot), "the earlier seat's action counts"
    for agent in played:
        seat = e.possible_agents.index(agent)
        before.apply(seat, before.action_from_index(seat, actions[agent]))
    assert before.view(None) == e.state.view(None)


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [("taxonomy", 3, {}), ("meat", 4, {"vitality_2v2": 8}), ("teratozoic", 2, {})],
    ids=["taxonomy", "meat", "teratozoic"],
)
def test_the_parallel_env_plays_the_aec_envs_game(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    """The Parallel env is the AEC env's table with the simultaneous choices
    taken together (one decision per owing seat per step; in Teratozoic's
    growth and M.E.A.T.'s tactics a seat places card after card, so the AEC
    env may ask the same seat twice in a row). On the same seed every seat's
    observation and mask are the AEC encoding of its view of the state before
    anyone in the step has chosen (the AEC env would tell a seat asked second
    that the first has decided, not what), the owing seats are the state's,
    and playing their actions in seat order on the AEC env's state gives the
    same table and, at the end, the same rewards."""
    par = parallel_env(game_id, players=players, seed=21, options=options)
    aec = raw_env(game_id, players=players, options=options)
    aec.reset(seed=21)
    obs, _ = par.reset()
    rng = np.random.default_rng(21)
    simultaneous = 0
    for _ in range(150):
        for seat, agent in enumerate(par.possible_agents):
            expected = observation(aec.observer, aec.state, seat)
            np.testing.assert_array_equal(obs[agent]["observation"], expected)
            np.testing.assert_array_equal(
                obs[agent]["action_mask"], action_mask(aec.state, seat, aec.num_actions)
            )
        owing = _owing(obs)
        assert owing == [par.possible_agents[s] for s in sorted(aec.state.to_act())]
        simultaneous += len(owing) > 1
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in owing}
        moot = []
        for agent in owing:  # seat order, as docs/RL.md says
            seat = par.possible_agents.index(agent)
            if seat not in aec.state.to_act():
                moot.append(agent)
                continue
            aec.state.apply(seat, aec.state.action_from_index(seat, actions[agent]))
        obs, rewards, terms, _, infos = par.step(actions)
        assert [a for a in owing if not infos[a]["played"]] == moot
        assert par.state.view(None) == aec.state.view(None)
        if not par.agents:
            assert all(terms.values())
            assert [rewards[a] for a in par.possible_agents] == win_rewards(aec.state)
            break
    assert simultaneous >= 1, "the game never reached a simultaneous choice"
