"""examples/jax_ppo_taxonomy.py and bestiary/jax/policies.py.

Issue 30: "A training example that learns against the JAX random and
heuristic-like policies entirely inside JAX (e.g. PPO with masking, written
for this project)". One tiny PPO iteration against the heuristic-like policy
(a rollout of a few hundred moves under ``lax.scan``, the advantages, the
update) checks that every move played — the learner's masked samples and the
opponent's choices — is legal, that the update changes the parameters and
that the loss pieces are finite; the advantage estimate and the random
policy are checked on arrays made by hand (no game to compile).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from bestiary.jax import num_actions, observation_size  # noqa: E402
from bestiary.jax.policies import random_policy  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def ppo() -> ModuleType:
    sys.path.insert(0, str(EXAMPLES))
    try:
        return importlib.import_module("jax_ppo_taxonomy")
    finally:
        sys.path.remove(str(EXAMPLES))


def test_one_iteration_plays_only_legal_moves_and_learns(ppo: ModuleType) -> None:
    cfg = ppo.Config(players=2, envs=4, steps=64, hidden=16, epochs=1, minibatches=2)
    key = jax.random.PRNGKey(7)
    params = ppo.init_params(key, observation_size(2), cfg.hidden, num_actions())
    opt = ppo.adam_init(params)
    iteration = ppo.make_iteration(cfg, ppo.opponent_policy("heuristic"))
    st = ppo.to_deal(cfg.players, cfg.envs)
    new, opt, st, trs, info = iteration(params, opt, st, jax.random.PRNGKey(9))
    mask, action = np.asarray(trs.mask), np.asarray(trs.action)
    learner = np.asarray(trs.learner)
    # The first move of each table deals (NEW_GAME, -1); the 252 others are
    # the learner's sampled moves and the heuristic-like policy's.
    assert (action[0] == -1).all() and (action[1:] >= 0).all()
    legal = np.take_along_axis(mask[1:], action[1:, :, None], axis=-1)[..., 0]
    assert legal.shape == (63, 4) and legal.all()
    # Dealt and playing (a heuristic-like seat may win a round this soon, not a game).
    assert not np.asarray(st.over).any() and (np.asarray(st.stock_n) < 201 - 16).all()
    assert 50 <= learner.sum() <= 206, "both seats move in a two-seat game"
    assert int(info["illegal"]) == 0
    # The masked distribution puts no mass on an illegal action.
    logits, _ = ppo.forward(params, trs.obs[1], trs.mask[1])
    probs = np.asarray(jax.nn.softmax(logits))
    assert probs[~mask[1]].max() < 1e-30
    for name in ("policy", "value", "entropy", "kl"):
        assert np.isfinite(float(info[name])), name
    assert float(info["entropy"]) > 0.5  # a near-uniform policy over several legal moves
    changed = [k for k in params if not np.array_equal(np.asarray(params[k]), np.asarray(new[k]))]
    assert {"w1", "wp", "wv"} <= set(changed)


def _transitions(
    ppo: ModuleType, rewards: list[float], done: list[bool], learner: list[bool]
) -> Any:
    """One game column of hand-made transitions (the fields GAE reads)."""
    t = len(rewards)

    def col(x: list[float] | list[bool], dtype: Any) -> Any:
        return jnp.asarray(x, dtype)[:, None]

    zeros = jnp.zeros((t, 1), jnp.float32)
    return ppo.Transition(
        obs=jnp.zeros((t, 1, 1)),
        mask=jnp.ones((t, 1, 2), bool),
        action=jnp.zeros((t, 1), jnp.int32),
        logp=zeros,
        value=zeros,
        reward=col(rewards, jnp.float32),
        done=col(done, bool),
        learner=col(learner, bool),
        share=zeros,
    )


def test_advantages_credit_the_learner_move_before_the_reward(ppo: ModuleType) -> None:
    """With gamma = lambda = 1 and zero values, a learner move's advantage is
    the rewards until its game ends: the opponent's moves in between included,
    nothing of the next game (and a move after the end is bootstrapped)."""
    cfg = ppo.Config(gamma=1.0, lam=1.0)
    # moves: L  O  L  O(end)  L  O
    trs = _transitions(
        ppo,
        rewards=[0.1, 0.2, 0.3, 1.0, 0.5, 0.25],
        done=[False, False, False, True, False, False],
        learner=[True, False, True, False, True, False],
    )
    adv, ret = ppo.advantages(cfg, trs, jnp.asarray([2.0]))
    got = np.asarray(adv)[:, 0]
    np.testing.assert_allclose(got, [1.6, 0.0, 1.3, 0.0, 2.75, 0.0], rtol=1e-6)
    np.testing.assert_allclose(np.asarray(ret)[:, 0], got, rtol=1e-6)


def test_random_policy_is_uniform_over_the_legal_actions() -> None:
    mask = np.zeros(num_actions(), bool)
    legal = [3, 201, 402, 436, 647]
    mask[legal] = True
    keys = jax.random.split(jax.random.PRNGKey(0), 2000)
    picks = np.asarray(jax.jit(jax.vmap(random_policy, in_axes=(0, None)))(keys, jnp.asarray(mask)))
    assert set(picks.tolist()) == set(legal)
    counts = np.bincount(picks, minlength=num_actions())[legal]
    assert counts.min() > 300  # 400 expected each


def test_wilson_interval(ppo: ModuleType) -> None:
    lo, hi = ppo.wilson(32, 64)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9
    assert ppo.wilson(64, 64)[1] == 1.0 and ppo.wilson(0, 64)[0] == 0.0
