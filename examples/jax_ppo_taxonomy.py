"""PPO with action masking on the JAX port of Monster Girl Taxonomy, entirely
inside JAX: rollouts, the advantage estimate and the updates all run under
``jax.jit`` (plain JAX, a small Adam of its own; no other library).

    python examples/jax_ppo_taxonomy.py --opponent random --envs 64 --steps 64 \\
        --iterations 100 --eval-every 20 --eval-games 64 --out ppo_random.json

(docs/RL.md has its curve: on a shared 2-core CPU, 11 minutes, the greedy
learner's win share against ``random`` from 0.50 to about 0.85.)

- **The table.** ``--players`` seats (default 2); in game ``i`` of the batch the
  learner plays seat ``i mod players``, the opponent policy
  (``bestiary.jax.policies``: ``random`` or the ``heuristic``-like one) every
  other seat. ``--envs`` games run side by side under ``jax.vmap``; a finished
  game is dealt again inside the rollout, by the move after its end (``step``
  of ``NEW_GAME`` on a blank table: the one compiled ``step`` serves both).
- **A rollout** is one ``lax.scan`` of ``--steps`` moves of every game: whoever
  acts (``current_seat``) moves, the learner by sampling its masked policy
  (illegal actions get a logit of -1e9), the opponent by its policy. Only the
  learner's moves are trained on; the opponent's moves are part of the
  environment (the rewards they cause go to the learner's previous move).
- **The network**: a small MLP on the engine's observation (``observe``, the
  learner's seat): two hidden layers (``--hidden``), a policy head over the
  648 actions and a value head.
- **Rewards** (all from the port's state): at the end of a game the learner's
  win share, the engine's ``win`` reward (1 shared among the seats with the most
  points, ``state.scores``), centred: ``2*share - 1`` (1 a win, 0 a shared
  win of two, -1 a loss); each round won adds ``--score-weight`` times the
  change in (learner's points - the best opponent's points) / 10; and a
  potential-based shaping term ``--shaping * (phi(s') - phi(s))``, with
  ``phi`` the learner's progress toward a hand: its two largest key counts
  (hand and table) summed, capped at 8, over 8 (0 once the game is over). Its
  sum over a game is ``-phi(first deal)``, whatever the policy, so it changes no
  policy's return; it only tells the learner early that keeping cards of a
  key is progress: random play almost never wins a round of Taxonomy, so
  without it the learner would hardly ever see a reward.
- **PPO**: GAE (``--gamma``, ``--lam``) over the learner's moves of each game
  (bootstrapped from the value of the last state), advantages normalised,
  the clipped objective (``--clip``), a value loss and an entropy bonus over
  the legal actions; ``--epochs`` passes over ``--minibatches`` minibatches.
- **The curve.** Before training, every ``--eval-every`` iterations and after
  the last, the learner plays ``--eval-games`` games against the opponent on
  fixed deals (seeds from ``--eval-seed``, the same at every point; seats
  alternate), taking its most probable legal action (``--eval-sample``: sampling
  instead). Each point: the win share with a Wilson 95% interval over those
  games, the mean points of the learner and of its best opponent, and the win
  share of the training games finished since the last point (sampling, as it
  trains). Printed as it goes and written to ``--out`` (JSON, or CSV when the
  name ends in ``.csv``).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import platform
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

try:
    import jax
    import jax.numpy as jnp
    from jax import Array, lax
except ModuleNotFoundError:
    sys.exit("this example needs JAX: pip install 'bestiary[jax]' (or pip install jax)")

from bestiary.jax import (
    NEW_GAME,
    TaxState,
    blank,
    current_seat,
    legal_action_mask,
    num_actions,
    observation_size,
    observe,
    step,
)
from bestiary.jax.policies import heuristic_policy, random_policy
from bestiary.jax.scoring import in_hand, in_table, key_counts, usable

Params = dict[str, Array]
Opponent = Callable[[Array, TaxState, Array, Array], Array]
MASKED = -1e9  # the logit of an illegal action


class Config(NamedTuple):
    players: int = 2
    envs: int = 64
    steps: int = 64
    hidden: int = 128
    lr: float = 1e-3
    gamma: float = 0.995
    lam: float = 0.95
    clip: float = 0.2
    epochs: int = 4
    minibatches: int = 2
    vf_coef: float = 0.5
    ent_coef: float = 0.01
    max_grad_norm: float = 0.5
    score_weight: float = 0.5
    shaping: float = 1.0


# ------------------------------------------------------------------ opponents
def opponent_policy(name: str) -> Opponent:
    """(key, state, seat, mask) -> action of the named opponent policy."""
    if name == "random":
        return lambda key, st, seat, mask: random_policy(key, mask)
    if name == "heuristic":
        return heuristic_policy
    raise ValueError(f"opponent must be random or heuristic, not {name!r}")


# ------------------------------------------------------------------ the network
def init_params(key: Array, obs_size: int, hidden: int, actions: int) -> Params:
    """An MLP: obs -> hidden -> hidden -> (policy logits, value). Scaled normal
    weights; the policy head starts near zero (a near-uniform legal policy)."""
    k1, k2, k3, k4 = jax.random.split(key, 4)

    def dense(k: Array, n_in: int, n_out: int, scale: float) -> Array:
        return jax.random.normal(k, (n_in, n_out), jnp.float32) * (scale / math.sqrt(n_in))

    return {
        "w1": dense(k1, obs_size, hidden, math.sqrt(2.0)),
        "b1": jnp.zeros(hidden, jnp.float32),
        "w2": dense(k2, hidden, hidden, math.sqrt(2.0)),
        "b2": jnp.zeros(hidden, jnp.float32),
        "wp": dense(k3, hidden, actions, 0.01),
        "bp": jnp.zeros(actions, jnp.float32),
        "wv": dense(k4, hidden, 1, 1.0),
        "bv": jnp.zeros(1, jnp.float32),
    }


def forward(params: Params, obs: Array, mask: Array) -> tuple[Array, Array]:
    """(masked logits [..., A], value [...]) for observations [..., obs]."""
    h = jax.nn.relu(obs @ params["w1"] + params["b1"])
    h = jax.nn.relu(h @ params["w2"] + params["b2"])
    logits = h @ params["wp"] + params["bp"]
    value = (h @ params["wv"] + params["bv"])[..., 0]
    return jnp.where(mask, logits, MASKED), value


# ------------------------------------------------------------------ the environment
def progress(st: TaxState, seat: Array) -> Array:
    """phi: the seat's two largest key counts (usable hand cards and its
    table), summed, capped at 8, over 8; 0 when the game is over."""
    cards = (in_hand(st, seat) & usable(st, seat)) | in_table(st, seat)
    counts = key_counts(cards, st.nat).astype(jnp.float32)
    top2 = lax.top_k(counts, 2)[0]
    return jnp.where(st.over, 0.0, jnp.minimum(jnp.sum(top2), 8.0) / 8.0)


def win_share(st: TaxState, seat: Array) -> Array:
    """The engine's win reward of ``seat`` at the end: 1 shared among the
    seats with the most points."""
    top = jnp.max(st.scores)
    winners = st.scores == top
    return jnp.where(winners[seat], 1.0 / jnp.sum(winners), 0.0)


def margin(st: TaxState, seat: Array) -> Array:
    """The seat's points less the best opponent's."""
    others = jnp.where(jnp.arange(st.scores.shape[0]) == seat, -(1 << 20), st.scores)
    return (st.scores[seat] - jnp.max(others)).astype(jnp.float32)


class Transition(NamedTuple):
    obs: Array  # float32[obs] the learner's observation
    mask: Array  # bool[A] the acting seat's legal actions
    action: Array
    logp: Array
    value: Array
    reward: Array  # the learner's reward of this move (whoever made it)
    done: Array  # the game ended with this move
    learner: Array  # the learner made this move
    share: Array  # the learner's win share, where done


class Move(NamedTuple):
    nxt: TaxState
    obs: Array
    mask: Array
    action: Array  # the move played (NEW_GAME for a deal)
    mine: Array  # the learner's choice (played where it acts)
    logp: Array  # its log-probability
    value: Array
    learner: Array


def play_move(
    opponent: Opponent,
    params: Params,
    st: TaxState,
    seat: Array,
    key: Array,
    deal: Array,
    sample: bool = True,
) -> Move:
    """One move of one game: the learner's (``seat``) or the opponent's; where
    ``deal``, a new game instead (``step`` of ``NEW_GAME`` on a blank table: the
    same compiled ``step``, no ``init`` beside it)."""
    k_act, k_opp, k_step = jax.random.split(key, 3)
    actor = current_seat(st)
    mover = jnp.maximum(actor, 0)
    mask = legal_action_mask(st, mover)
    obs = observe(st, seat)
    logits, value = forward(params, obs, mask)
    drawn = jax.random.categorical(k_act, logits).astype(jnp.int32)
    mine = drawn if sample else jnp.argmax(logits).astype(jnp.int32)
    theirs = opponent(k_opp, st, mover, mask)
    learner = (actor == seat) & ~deal
    action = jnp.where(deal, NEW_GAME, jnp.where(learner, mine, theirs))
    base = jax.tree.map(lambda b, x: jnp.where(deal, b, x), blank(st.scores.shape[0]), st)
    nxt = step(base, action, k_step)
    logp = jax.nn.log_softmax(logits)[mine]
    return Move(nxt, obs, mask, action, mine, logp, value, learner)


def env_move(
    cfg: Config, opponent: Opponent, params: Params, st: TaxState, seat: Array, key: Array
) -> tuple[TaxState, Transition]:
    """One move of one game (the learner's or the opponent's); a game that
    ended is dealt again by the move after its end."""
    deal = st.over
    m = play_move(opponent, params, st, seat, key, deal)
    nxt = m.nxt
    done = nxt.over & ~deal
    reward = (
        cfg.score_weight * (margin(nxt, seat) - margin(st, seat)) / 10.0
        + cfg.shaping * (progress(nxt, seat) - progress(st, seat))
        + jnp.where(done, 2.0 * win_share(nxt, seat) - 1.0, 0.0)
    )
    reward = jnp.where(deal, 0.0, reward)
    share = jnp.where(done, win_share(nxt, seat), 0.0)
    tr = Transition(m.obs, m.mask, m.action, m.logp, m.value, reward, done, m.learner, share)
    return nxt, tr


def learner_seats(cfg: Config) -> Array:
    return jnp.arange(cfg.envs, dtype=jnp.int32) % cfg.players


def to_deal(players: int, n: int) -> TaxState:
    """``n`` tables whose next move (in ``rollout``) deals a new game."""
    st = blank(players)._replace(over=jnp.asarray(True))
    return jax.tree.map(lambda x: jnp.broadcast_to(x, (n, *x.shape)), st)


def rollout(
    cfg: Config, opponent: Opponent, params: Params, st: TaxState, key: Array
) -> tuple[TaxState, Transition, Array]:
    """``cfg.steps`` moves of every game, a game that ends dealt again: (the
    games after, the transitions [steps, envs], the value of each learner's
    last observation [envs])."""
    seats = learner_seats(cfg)
    move = jax.vmap(partial(env_move, cfg, opponent, params))

    def body(games: TaxState, k: Array) -> tuple[TaxState, Transition]:
        return move(games, seats, jax.random.split(k, cfg.envs))

    st, trs = lax.scan(body, st, jax.random.split(key, cfg.steps))
    obs = jax.vmap(observe)(st, seats)
    _, last_value = forward(params, obs, jnp.ones((cfg.envs, num_actions()), bool))
    return st, trs, last_value


def advantages(cfg: Config, trs: Transition, last_value: Array) -> tuple[Array, Array]:
    """GAE over each game's learner moves: the rewards of the moves between two
    of them (the opponent's) go to the first; a game's end cuts the chain.
    (advantages, returns), both [steps, envs], 0 where the learner did not move."""

    def back(
        carry: tuple[Array, Array, Array, Array], t: Transition
    ) -> tuple[tuple[Array, Array, Array, Array], tuple[Array, Array]]:
        gae_next, v_next, r_acc, term = carry
        r = t.reward + jnp.where(t.done, 0.0, r_acc)
        ended = t.done | term
        delta = r + cfg.gamma * jnp.where(ended, 0.0, v_next) - t.value
        adv = delta + cfg.gamma * cfg.lam * jnp.where(ended, 0.0, gae_next)
        zero = jnp.zeros_like(r)
        out = (
            jnp.where(t.learner, adv, gae_next),
            jnp.where(t.learner, t.value, v_next),
            jnp.where(t.learner, zero, r),
            jnp.where(t.learner, False, ended),
        )
        return out, (jnp.where(t.learner, adv, 0.0), jnp.where(t.learner, adv + t.value, 0.0))

    zero = jnp.zeros_like(last_value)
    start = (zero, last_value, zero, jnp.zeros(last_value.shape, bool))
    _, (adv, ret) = lax.scan(back, start, trs, reverse=True)
    return adv, ret


# ------------------------------------------------------------------ PPO
class Batch(NamedTuple):
    obs: Array
    mask: Array
    action: Array
    logp: Array
    adv: Array
    ret: Array
    weight: Array  # 1 for the learner's moves, 0 for the opponent's


def ppo_loss(cfg: Config, params: Params, b: Batch) -> tuple[Array, dict[str, Array]]:
    logits, value = forward(params, b.obs, b.mask)
    logp_all = jax.nn.log_softmax(logits)
    logp = jnp.take_along_axis(logp_all, b.action[:, None], axis=1)[:, 0]
    n = jnp.maximum(jnp.sum(b.weight), 1.0)

    def mean(x: Array) -> Array:
        return jnp.sum(x * b.weight) / n

    ratio = jnp.exp(logp - b.logp)
    clipped = jnp.clip(ratio, 1.0 - cfg.clip, 1.0 + cfg.clip)
    policy = -mean(jnp.minimum(ratio * b.adv, clipped * b.adv))
    value_loss = 0.5 * mean((value - b.ret) ** 2)
    probs = jnp.exp(logp_all)
    entropy = mean(-jnp.sum(jnp.where(b.mask, probs * logp_all, 0.0), axis=1))
    total = policy + cfg.vf_coef * value_loss - cfg.ent_coef * entropy
    kl = mean(b.logp - logp)
    return total, {"policy": policy, "value": value_loss, "entropy": entropy, "kl": kl}


class Adam(NamedTuple):
    m: Params
    v: Params
    t: Array


def adam_init(params: Params) -> Adam:
    zeros = jax.tree.map(jnp.zeros_like, params)
    return Adam(zeros, zeros, jnp.zeros((), jnp.int32))


def adam_step(cfg: Config, params: Params, grads: Params, opt: Adam) -> tuple[Params, Adam]:
    """Adam (0.9, 0.999, 1e-8) after clipping the gradient's global norm."""
    norm = jnp.sqrt(sum(jnp.sum(g * g) for g in jax.tree.leaves(grads)))
    scale = jnp.minimum(1.0, cfg.max_grad_norm / (norm + 1e-6))
    grads = jax.tree.map(lambda g: g * scale, grads)
    t = opt.t + 1
    m = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, opt.m, grads)
    v = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, opt.v, grads)
    c1 = 1.0 - 0.9 ** t.astype(jnp.float32)
    c2 = 1.0 - 0.999 ** t.astype(jnp.float32)
    new = jax.tree.map(
        lambda p, m, v: p - cfg.lr * (m / c1) / (jnp.sqrt(v / c2) + 1e-8), params, m, v
    )
    return new, Adam(m, v, t)


def make_batch(trs: Transition, adv: Array, ret: Array) -> Batch:
    w = trs.learner.astype(jnp.float32)
    n = jnp.maximum(jnp.sum(w), 1.0)
    mu = jnp.sum(adv * w) / n
    sd = jnp.sqrt(jnp.sum(((adv - mu) ** 2) * w) / n) + 1e-8

    def flat(x: Array) -> Array:
        return x.reshape((-1, *x.shape[2:]))

    return Batch(
        flat(trs.obs),
        flat(trs.mask),
        flat(jnp.maximum(trs.action, 0)),
        flat(trs.logp),
        flat((adv - mu) / sd * w),
        flat(ret),
        flat(w),
    )


def update(
    cfg: Config, params: Params, opt: Adam, batch: Batch, key: Array
) -> tuple[Params, Adam, dict[str, Array]]:
    """``cfg.epochs`` passes over ``cfg.minibatches`` shuffled minibatches."""
    size = batch.obs.shape[0]
    per = size // cfg.minibatches
    grad = jax.grad(partial(ppo_loss, cfg), has_aux=True)

    def epoch(carry: tuple[Params, Adam], k: Array) -> tuple[tuple[Params, Adam], dict[str, Array]]:
        order = jax.random.permutation(k, size)[: per * cfg.minibatches]
        shards = jax.tree.map(
            lambda x: x[order].reshape((cfg.minibatches, per, *x.shape[1:])), batch
        )

        def minibatch(
            c: tuple[Params, Adam], b: Batch
        ) -> tuple[tuple[Params, Adam], dict[str, Array]]:
            g, info = grad(c[0], b)
            return adam_step(cfg, c[0], g, c[1]), info

        return lax.scan(minibatch, carry, shards)

    (params, opt), info = lax.scan(epoch, (params, opt), jax.random.split(key, cfg.epochs))
    return params, opt, jax.tree.map(jnp.mean, info)


Iteration = Callable[
    [Params, Adam, TaxState, Array],
    tuple[Params, Adam, TaxState, Transition, dict[str, Array]],
]


def make_iteration(cfg: Config, opponent: Opponent) -> Iteration:
    """One jitted iteration: (params, optimiser, games, key) ->
    (params, optimiser, games, the rollout's transitions, statistics): a
    rollout, the advantages, the PPO update."""

    @jax.jit
    def iteration(
        params: Params, opt: Adam, st: TaxState, key: Array
    ) -> tuple[Params, Adam, TaxState, Transition, dict[str, Array]]:
        k_roll, k_upd = jax.random.split(key)
        st, trs, last_value = rollout(cfg, opponent, params, st, k_roll)
        adv, ret = advantages(cfg, trs, last_value)
        params, opt, info = update(cfg, params, opt, make_batch(trs, adv, ret), k_upd)
        played = jnp.take_along_axis(trs.mask, trs.action[..., None], axis=-1)[..., 0]
        legal = played | (trs.action == NEW_GAME)
        info = {
            **info,
            "games": jnp.sum(trs.done),
            "shares": jnp.sum(trs.share),
            "learner_moves": jnp.sum(trs.learner),
            "illegal": jnp.sum(~legal),
        }
        return params, opt, st, trs, info

    return iteration


# ------------------------------------------------------------------ evaluation
def make_evaluate(
    cfg: Config, opponent: Opponent, games: int, sample: bool, max_moves: int = 4000
) -> Callable[[Params, Array], tuple[Array, Array, Array]]:
    """(params, key) -> (the learner's win share [games], its points, the best
    opponent's points): ``games`` games dealt from ``key`` (the same deals for
    the same key) played to the end, the learner in seat ``i mod players`` of
    game ``i``, greedy (or sampling)."""
    seats = jnp.arange(games, dtype=jnp.int32) % cfg.players

    def move(params: Params, st: TaxState, seat: Array, key: Array, deal: Array) -> TaxState:
        return play_move(opponent, params, st, seat, key, deal, sample).nxt

    @jax.jit
    def evaluate(params: Params, key: Array) -> tuple[Array, Array, Array]:
        st = to_deal(cfg.players, games)

        def going(c: tuple[TaxState, Array]) -> Array:
            return ((c[1] == 0) | ~jnp.all(c[0].over)) & (c[1] < max_moves)

        def once(c: tuple[TaxState, Array]) -> tuple[TaxState, Array]:
            keys = jax.random.split(jax.random.fold_in(key, c[1]), games)
            step_all = jax.vmap(partial(move, params), in_axes=(0, 0, 0, None))
            return step_all(c[0], seats, keys, c[1] == 0), c[1] + 1

        st, _ = lax.while_loop(going, once, (st, jnp.zeros((), jnp.int32)))
        share = jax.vmap(win_share)(st, seats)
        mine = jax.vmap(lambda s, q: s.scores[q])(st, seats)
        lead = jax.vmap(margin)(st, seats)
        mine = mine.astype(jnp.float32)
        return share, mine, mine - lead

    return evaluate


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (a shared win counts its share)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


# ------------------------------------------------------------------ main
def write(path: Path, meta: dict[str, Any], curve: list[dict[str, Any]]) -> None:
    if path.suffix == ".csv":
        with path.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(curve[0]))
            w.writeheader()
            w.writerows(curve)
    else:
        path.write_text(json.dumps({**meta, "curve": curve}, indent=1) + "\n")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--opponent", choices=("random", "heuristic"), default="random")
    ap.add_argument("--players", type=int, default=2, choices=range(2, 7))
    ap.add_argument("--envs", type=int, default=64, help="games played side by side")
    ap.add_argument("--steps", type=int, default=64, help="moves per game per rollout")
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatches", type=int, default=2)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--score-weight", type=float, default=0.5)
    ap.add_argument("--shaping", type=float, default=1.0)
    ap.add_argument("--eval-every", type=int, default=20)
    ap.add_argument("--eval-games", type=int, default=64)
    ap.add_argument("--eval-seed", type=int, default=10_000)
    ap.add_argument("--eval-sample", action="store_true", help="sample instead of argmax")
    ap.add_argument("--out", default=None, help="the curve: .json, or .csv")
    args = ap.parse_args(argv)
    if min(args.envs, args.steps, args.iterations, args.eval_every, args.eval_games) < 1:
        sys.exit("--envs, --steps, --iterations, --eval-every and --eval-games must be >= 1")
    cfg = Config(
        players=args.players,
        envs=args.envs,
        steps=args.steps,
        hidden=args.hidden,
        lr=args.lr,
        epochs=args.epochs,
        minibatches=args.minibatches,
        ent_coef=args.ent_coef,
        score_weight=args.score_weight,
        shaping=args.shaping,
    )
    opponent = opponent_policy(args.opponent)
    dev = jax.devices()[0]
    print(
        f"JAX {jax.__version__} on {dev.platform} ({dev.device_kind}); "
        f"Python {platform.python_version()}; {cfg}",
        flush=True,
    )
    key = jax.random.PRNGKey(args.seed)
    k_params, _, key = jax.random.split(key, 3)  # (the middle key dealt the first games once)
    params = init_params(k_params, observation_size(cfg.players), cfg.hidden, num_actions())
    opt = adam_init(params)
    st = to_deal(cfg.players, cfg.envs)
    iteration = make_iteration(cfg, opponent)
    evaluate = make_evaluate(cfg, opponent, args.eval_games, args.eval_sample)
    eval_key = jax.random.PRNGKey(args.eval_seed)
    curve: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    games = shares = 0.0
    moves = 0

    def point(it: int) -> None:
        nonlocal games, shares
        share, mine, theirs = evaluate(params, eval_key)
        won = float(jnp.sum(share))
        lo, hi = wilson(won, args.eval_games)
        row = {
            "iteration": it,
            "env_steps": it * cfg.envs * cfg.steps,
            "learner_moves": moves,
            "seconds": round(time.perf_counter() - t0, 1),
            "win_rate": round(won / args.eval_games, 4),
            "wilson_lo": round(lo, 4),
            "wilson_hi": round(hi, 4),
            "eval_games": args.eval_games,
            "points": round(float(jnp.mean(mine)), 3),
            "opponent_points": round(float(jnp.mean(theirs)), 3),
            "train_games": int(games),
            "train_win_share": round(shares / games, 4) if games else None,
        }
        curve.append(row)
        games = shares = 0.0
        print(json.dumps(row), flush=True)

    point(0)
    for it in range(1, args.iterations + 1):
        params, opt, st, _, info = iteration(params, opt, st, jax.random.fold_in(key, it))
        games += float(info["games"])
        shares += float(info["shares"])
        moves += int(info["learner_moves"])
        if int(info["illegal"]):
            sys.exit(f"iteration {it}: an illegal action was played")
        if it == 1:
            print(f"  first iteration (with compilation): {time.perf_counter() - t0:.1f} s")
        if it % args.eval_every == 0 or it == args.iterations:
            point(it)
    meta = {
        "opponent": args.opponent,
        "config": cfg._asdict(),
        "seed": args.seed,
        "eval_seed": args.eval_seed,
        "eval_sample": args.eval_sample,
        "device": f"{dev.platform} ({dev.device_kind})",
        "jax": jax.__version__,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    if args.out:
        write(Path(args.out), meta, curve)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
