"""examples/selfplay_pool.py: self-play against a pool of past snapshots.

The brief (issue 32): "the learner plays against opponents sampled from a pool
of its own past snapshots (a snapshot added every K updates, the pool capped at
M …; the pool starts with the random policy)", "writes a JSON curve" and
"saves the final policy in the format bestiary/rl/policy.py loads". A tiny
training (a few games, two evaluation games per opponent) checks all of it.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import bestiary.rl
from bestiary.engine.registry import get_game
from bestiary.rl.policy import PolicyAgent, load_policy
from bestiary.sim.runner import play_game

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: The keys the module docstring documents for OUT.json and for each curve point.
RESULT_KEYS = {
    "game", "players", "variant", "placements", "fair_share", "updates", "snapshot_every",
    "pool_size", "sampling", "pfsp_power", "lr", "seed", "eval_games", "eval_seed",
    "eval_pool", "seconds", "interrupted", "policy", "final_pool", "curve",
}  # fmt: skip
POINT_KEYS = {
    "update", "seconds", "pool", "vs_random", "vs_random_ci", "vs_heuristic", "vs_heuristic_ci",
}  # fmt: skip


@pytest.fixture(scope="module")
def sp() -> Iterator[ModuleType]:
    """The example as a module (examples/ is a folder of scripts, not a package)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(EXAMPLES))
        yield importlib.import_module("selfplay_pool")


def _meat_env() -> bestiary.rl.BestiaryAEC:
    return bestiary.rl.raw_env("meat", 2)


def test_a_tiny_training_writes_the_curve_and_a_policy_that_plays_as_an_agent(
    sp: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = sp.Config(updates=3, snapshot_every=1, pool_size=2, eval_every=2, eval_games=2)
    out = tmp_path / "run"
    lines: list[str] = []
    plotted: list[Path] = []
    # Importing matplotlib would be most of this test's time: the picture is not checked.
    monkeypatch.setattr(sp, "plot", lambda result, path: plotted.append(path))
    result = sp.train(cfg, out, log=lines.append)
    assert plotted == [tmp_path / "run.png"]

    written = json.loads((tmp_path / "run.json").read_text())
    assert written == result
    assert set(written) == RESULT_KEYS
    curve = written["curve"]
    assert [p["update"] for p in curve] == [0, 2, 3]  # and after the last update
    assert all(set(p) == POINT_KEYS for p in curve)
    assert all(0 <= p["vs_random"] <= 1 and 0 <= p["vs_heuristic"] <= 1 for p in curve)
    # "The pool starts with the random policy", a snapshot joins every K = 1
    # updates, and at M = 2 members the oldest (random first) makes room.
    assert [p["pool"] for p in curve] == [
        ["random"],
        ["update 1", "update 2"],
        ["update 2", "update 3"],
    ]
    assert [m["name"] for m in written["final_pool"]] == ["update 2", "update 3"]
    assert len(lines) == 3  # one line per evaluation

    # The saved policy, named as docs and the command print it, is a
    # policy(observation, mask) for bestiary.rl.policy, and plays a whole game
    # (PolicyAgent raises IllegalAction on an index outside the mask).
    monkeypatch.setenv("BESTIARY_POLICY", written["policy"])
    policy = load_policy("selfplay_pool:act")
    game = get_game("meat")
    outcome = play_game(game, ["bestiary.rl.policy:PolicyAgent:policy=selfplay_pool:act",
                               "random"], seed=7, allow_import=True)  # fmt: skip
    assert outcome.result is not None and outcome.decisions > 0
    agent = PolicyAgent(policy=policy)
    assert agent.policy is sp.act


def test_a_snapshot_is_a_copy_that_later_updates_leave_alone(sp: ModuleType) -> None:
    env = _meat_env()
    learner = sp.Learner(env.observer.size, env.num_actions, 0.05, seed=1)
    rng = np.random.default_rng(0)
    _, episode = sp.play(env, learner, sp.RandomPolicy(), [0], rng, seed=3)
    learner.update(episode, 1.0)
    snapshot = learner.snapshot()
    kept = [snapshot.w.copy(), snapshot.b.copy(), snapshot.row_of.copy()]
    before = learner.policy.w.copy()
    learner.update(episode, -1.0)  # the same game again: no new rows, the same arrays updated
    assert not np.array_equal(learner.policy.w, before)  # the learner moved
    for now, then in zip((snapshot.w, snapshot.b, snapshot.row_of), kept, strict=True):
        assert np.array_equal(now, then)  # the snapshot did not
    # and it plays as the opponent it was (its own rows, new actions at zero)
    _, episode = sp.play(env, learner, snapshot, [1], rng)
    assert episode.rows


def test_the_pool_grows_to_its_cap_drops_the_oldest_and_draws_pfsp(sp: ModuleType) -> None:
    rng = np.random.default_rng(0)
    pool = sp.Pool(3, "pfsp", 2.0, 0.5, rng)
    assert pool.add("random", sp.RandomPolicy()) is None
    for name in ("a", "b"):
        assert pool.add(name, sp.RandomPolicy()) is None
    assert [m.name for m in pool.members] == ["random", "a", "b"]
    dropped = pool.add("c", sp.RandomPolicy())
    assert dropped is not None and dropped.name == "random"
    assert [m.name for m in pool.members] == ["a", "b", "c"]
    # PFSP: weight (1 - score)^2, the member the learner beats least played most.
    for member, score in zip(pool.members, (0.9, 0.5, 0.0), strict=True):
        member.score = score
    weights = pool.weights()
    assert weights == pytest.approx(np.array([0.01, 0.25, 1.0]) / 1.26)
    for member in pool.members:
        member.score = 1.0  # beaten always: no weight anywhere, so uniform
    assert pool.weights() == pytest.approx([1 / 3] * 3)
    pool.record(pool.members[0], 0.0)
    assert pool.members[0].score == pytest.approx(1 - sp.SCORE_RATE)
    assert pool.members[0].games == 1
    assert sp.Pool(3, "uniform", 2.0, 0.5, rng).add("x", sp.RandomPolicy()) is None


def test_rows_added_on_demand_compute_what_the_full_matrix_does(sp: ModuleType) -> None:
    """The learner is train_reinforce's LinearPolicy grown a row at a time; it must
    give the full-size policy's probabilities after the same updates."""
    env = _meat_env()
    from _masked_policy import LinearPolicy

    full = LinearPolicy(env.observer.size, env.num_actions, 0.05, seed=2)
    learner = sp.Learner(env.observer.size, env.num_actions, 0.05, seed=2)
    rng = np.random.default_rng(1)
    compared = 0
    for game, advantage in ((0, 0.7), (1, -0.4)):
        env.reset(seed=game)
        seen: list[np.ndarray] = []
        full_probs: list[np.ndarray] = []
        chosen: list[int] = []
        episode = sp.Episode()
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            o, mask = obs["observation"], obs["action_mask"]
            p_full = full.probs(o, mask)
            p_rows = learner.policy.probs(o, learner._mask(mask))
            # The same distribution, each action at its own row.
            assert p_rows[learner.row_of[np.flatnonzero(mask)]] == pytest.approx(
                p_full[np.flatnonzero(mask)], abs=1e-12
            )
            compared += 1
            action = int(rng.choice(len(p_full), p=p_full))
            seen.append(o.astype(np.float64))
            full_probs.append(p_full)
            chosen.append(action)
            episode.observations.append(o.astype(np.float64))
            episode.probs.append(p_rows)
            episode.rows.append(int(learner.row_of[action]))
            env.step(action)
        full.update(np.array(seen), np.array(full_probs), chosen, advantage)
        learner.update(episode, advantage)
    assert compared > 100  # both games, the second after an update


def test_the_saved_file_is_the_snapshot(sp: ModuleType, tmp_path: Path) -> None:
    learner = sp.Learner(5, 9, 0.1, seed=0)
    learner._mask(np.array([0, 1, 0, 1, 1, 0, 0, 0, 0], dtype=np.int8))
    learner.policy.w[:] = np.random.default_rng(0).normal(size=learner.policy.w.shape)
    learner.policy.b[:] = np.random.default_rng(1).normal(size=learner.policy.b.shape)
    snapshot = learner.snapshot()
    snapshot.save(tmp_path / "p.npz", {"game": "x", "players": 2})
    loaded, meta = sp.FrozenPolicy.load(tmp_path / "p.npz")
    assert meta == {"game": "x", "players": 2}
    for a, b in ((loaded.w, snapshot.w), (loaded.b, snapshot.b), (loaded.row_of, snapshot.row_of)):
        assert np.array_equal(a, b)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nope"], "unknown game 'nope'"),
        (["meat", "--players", "3"], "meat is played by 2, 4, 6 players, not 3"),
        (["--eval-games", "3"], "--eval-games must be a multiple of 2"),
        (["--lr", "0"], "must be a finite number above 0"),
        (["--pool-size", "0"], "must be at least 1, not 0"),
        (["--updates", "many"], "expected a whole number, not 'many'"),
        (["--variant", "v9"], "meat has no variant 'v9'"),
        (["--out", "/no/such/folder/run"], "the folder '/no/such/folder' does not exist"),
    ],
)
def test_bad_arguments_are_refused_with_what_is_allowed(
    sp: ModuleType, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        sp.parse_args(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_defaults_are_meat_at_two_seats(sp: ModuleType) -> None:
    cfg, out = sp.parse_args([])
    assert (cfg.game, cfg.players) == ("meat", 2)
    assert out == Path("selfplay_meat_2p")
    assert sys.modules["selfplay_pool"] is sp
