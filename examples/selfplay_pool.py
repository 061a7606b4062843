"""Self-play against a pool of past selves (numpy only), through the PettingZoo
AEC environment ``bestiary.rl.raw_env``.

    python examples/selfplay_pool.py meat --players 2 --updates 2000 --out meat_selfplay

The learner is ``examples/train_reinforce.py``'s masked linear policy
(``_masked_policy.LinearPolicy``: ``softmax(W @ obs + b)`` over the legal
actions, REINFORCE with a running baseline, Adam), given a row per action the
first time that action is legal (``LinearPolicy.grow``: the same numbers as the
full matrix, and Teratozoic's 74,212 actions fit). Each training game is one
update:

- **Seats.** Game ``u`` seats the learner as ``bestiary rl evaluate`` seats its
  agent (``agent_seats``): seat ``u mod R``, R the seat count, or in a team game
  (M.E.A.T. at 4 and 6 seats) every seat of team ``u mod R``. One pool member,
  drawn for the game, plays every other seat, sampling from its policy.
- **The pool.** It starts with the random policy (a uniformly random legal
  index). Every ``--snapshot-every`` updates a snapshot of the learner (a copy
  of its weights: later updates do not reach it) joins; a pool of
  ``--pool-size`` members drops its oldest to take a new one (the random policy
  is the first to go).
- **Drawing the opponent** (``--sampling``). ``uniform``: every member alike.
  ``pfsp`` (the default; prioritized fictitious self-play): member ``i`` with
  weight ``(1 - x_i) ** --pfsp-power``, ``x_i`` the learner's recent win share
  against it (an average over its games against the learner, moving by
  ``SCORE_RATE`` a game, from the fair share): the members it beats least are
  played most (all weights zero: uniform).
- **Evaluation.** Every ``--eval-every`` updates (and before the first and
  after the last) the learner, greedy (its most probable legal action, the
  policy that is saved), plays the benchmark protocol (``bestiary.rl.evaluate``:
  deals from seed ``--eval-seed``, 10,000 by default, each dealt once with the
  learner in every placement) for ``--eval-games`` games against ``random``
  and against the game's ``heuristic``. Training deals are the AEC
  environment's stream from ``reset(seed=--seed)`` (63-bit game seeds), never
  those.

Writes ``OUT.json`` (the curve, keys below), ``OUT.png`` (with matplotlib
installed) and ``OUT.npz`` (the final policy). The policy plays as an agent
anywhere (``act`` below reads the file named by ``BESTIARY_POLICY``, once per
process, and plays greedily), e.g. the benchmark:

    BESTIARY_POLICY=meat_selfplay.npz PYTHONPATH=examples bestiary rl evaluate \\
        "bestiary.rl.policy:PolicyAgent:policy=selfplay_pool:act" --game meat --players 2 \\
        --games 200 --pool random,heuristic

``OUT.json``: ``game``, ``players``, ``variant``, ``placements`` (R),
``fair_share``, ``updates``, ``snapshot_every``, ``pool_size``, ``sampling``,
``pfsp_power``, ``lr``, ``seed``, ``eval_games``, ``eval_seed``,
``eval_pool`` (name -> spec), ``seconds``, ``interrupted``, ``policy`` (the
``.npz``), ``final_pool`` (``name``, ``games``, ``score``: the learner's
recent win share against it) and ``curve``: one point per evaluation with
``update``, ``seconds`` (since the start, evaluation included), ``pool`` (the
members' names), and for each evaluation opponent NAME ``vs_NAME`` (the
learner's win share) and ``vs_NAME_ci`` (its Wilson 95% interval).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import sys
import time

# One BLAS thread: the matrices are small and the machine may be shared.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from _masked_policy import Array, LinearPolicy, softmax

import bestiary.rl
from bestiary.engine.errors import BestiaryError
from bestiary.engine.protocol import Game
from bestiary.engine.registry import get_game
from bestiary.rl.aec import BestiaryAEC
from bestiary.rl.evaluate import SEED, agent_seats, evaluate, placements

Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
Indices = npt.NDArray[np.int64]

#: How far one game moves a member's score (the learner's recent win share against it).
SCORE_RATE = 0.05
#: How far one game moves the REINFORCE baseline (the learner's recent win share).
BASELINE_RATE = 0.01
#: Rows the learner starts with; it doubles them as actions become legal.
FIRST_ROWS = 64


class Opponent(Protocol):
    """A pool member: picks a legal index for the seats it plays."""

    def sample(self, obs: Obs, mask: Mask, rng: np.random.Generator) -> int: ...


class RandomPolicy:
    """The pool's first member: a uniformly random legal index."""

    def sample(self, obs: Obs, mask: Mask, rng: np.random.Generator) -> int:
        return int(rng.choice(np.flatnonzero(mask)))


@dataclass(frozen=True)
class FrozenPolicy:
    """The learner's weights at one moment, in arrays of their own.

    ``w`` and ``b`` hold a row for each action the learner had seen legal, then
    one zero row: the row (``row_of``) of every action it had not, whose weights
    were still zero. It samples as the learner did then, or plays greedily."""

    w: Array
    b: Array
    row_of: Indices  # global action index -> row of w and b

    def logits(self, obs: Obs, mask: Mask) -> tuple[Indices, Array]:
        legal = np.flatnonzero(mask)
        rows = self.row_of[legal]
        return legal, self.w[rows] @ obs + self.b[rows]

    def sample(self, obs: Obs, mask: Mask, rng: np.random.Generator) -> int:
        legal, logits = self.logits(obs, mask)
        return int(legal[rng.choice(len(legal), p=softmax(logits))])

    def greedy(self, obs: Obs, mask: Mask) -> int:
        """The most probable legal index (the first of equals): deterministic, as
        the benchmark wants."""
        legal, logits = self.logits(obs, mask)
        return int(legal[int(np.argmax(logits))])

    def save(self, path: Path, meta: dict[str, Any]) -> None:
        """The rows of the actions seen (the zero row is implied), their global
        indices, the action count and ``meta`` (game, seats, sizes) as JSON."""
        seen = np.flatnonzero(self.row_of < len(self.b) - 1)
        rows = self.row_of[seen]
        np.savez_compressed(
            path,
            w=self.w[rows],
            b=self.b[rows],
            actions=seen,
            num_actions=len(self.row_of),
            meta=json.dumps(meta),
        )

    @classmethod
    def load(cls, path: str | Path) -> tuple[FrozenPolicy, dict[str, Any]]:
        with np.load(path) as data:
            w, b, actions = data["w"], data["b"], data["actions"]
            row_of = np.full(int(data["num_actions"]), len(b), dtype=np.int64)
            meta = json.loads(str(data["meta"]))
        row_of[actions] = np.arange(len(b))
        return cls(np.vstack([w, np.zeros((1, w.shape[1]))]), np.append(b, 0.0), row_of), meta


@dataclass
class Episode:
    """The learner's decisions in one game: what it saw, its probabilities (over
    its rows at the time) and the rows it chose."""

    observations: list[Array] = field(default_factory=list)
    probs: list[Array] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)


class Learner:
    """:class:`LinearPolicy` over the actions seen legal so far: an action gets
    its row the first time it is legal (``LinearPolicy.grow``)."""

    def __init__(self, obs_size: int, num_actions: int, lr: float, seed: int) -> None:
        self.policy = LinearPolicy(obs_size, 0, lr, seed)
        self.row_of: Indices = np.full(num_actions, -1, dtype=np.int64)
        self.action_of: list[int] = []  # row -> global action index

    @property
    def rows(self) -> int:
        return len(self.action_of)

    def _mask(self, mask: Mask) -> Mask:
        """``mask`` over the learner's rows, adding a row for each action new to it."""
        legal = np.flatnonzero(mask)
        new = legal[self.row_of[legal] < 0]
        if len(new):
            self.row_of[new] = np.arange(self.rows, self.rows + len(new))
            self.action_of.extend(new.tolist())
            if self.rows > len(self.policy.b):
                self.policy.grow(max(self.rows, 2 * len(self.policy.b), FIRST_ROWS))
        rows = np.zeros(len(self.policy.b), dtype=np.int8)
        rows[self.row_of[legal]] = 1
        return rows

    def act(self, obs: Obs, mask: Mask, episode: Episode) -> int:
        """Sample a legal index and remember the decision in ``episode``."""
        row, p = self.policy.act(obs, self._mask(mask))
        episode.observations.append(obs.astype(np.float64))
        episode.probs.append(p)
        episode.rows.append(row)
        return self.action_of[row]

    def update(self, episode: Episode, advantage: float) -> None:
        """One REINFORCE step over the game (probabilities padded to today's rows:
        a row added later had probability 0 then)."""
        probs = np.zeros((len(episode.rows), len(self.policy.b)))
        for t, p in enumerate(episode.probs):
            probs[t, : len(p)] = p
        self.policy.update(np.array(episode.observations), probs, episode.rows, advantage)

    def snapshot(self) -> FrozenPolicy:
        """A copy of the weights now (new arrays: later updates leave it alone)."""
        n, size = self.rows, self.policy.w.shape[1]
        return FrozenPolicy(
            np.vstack([self.policy.w[:n], np.zeros((1, size))]),
            np.append(self.policy.b[:n], 0.0),
            np.where(self.row_of < 0, n, self.row_of),
        )


@dataclass
class Member:
    name: str
    policy: Opponent
    score: float  # the learner's recent win share against it
    games: int = 0


class Pool:
    """The opponents: at most ``capacity`` members, the oldest dropped for a
    new one; drawn uniformly or by PFSP weight ``(1 - score) ** power``."""

    def __init__(
        self,
        capacity: int,
        sampling: str,
        power: float,
        fair_share: float,
        rng: np.random.Generator,
    ) -> None:
        self.capacity, self.sampling, self.power = capacity, sampling, power
        self.fair_share, self.rng = fair_share, rng
        self.members: list[Member] = []

    def add(self, name: str, policy: Opponent) -> Member | None:
        """Add a member; return the one dropped to make room, if any."""
        self.members.append(Member(name, policy, self.fair_share))
        return self.members.pop(0) if len(self.members) > self.capacity else None

    def weights(self) -> Array:
        if self.sampling == "pfsp":
            w = np.array([(1.0 - m.score) ** self.power for m in self.members])
            if w.sum() > 0:
                return w / w.sum()
        return np.full(len(self.members), 1.0 / len(self.members))

    def pick(self) -> Member:
        return self.members[int(self.rng.choice(len(self.members), p=self.weights()))]

    def record(self, member: Member, reward: float) -> None:
        member.games += 1
        member.score += SCORE_RATE * (reward - member.score)


def play(
    env: BestiaryAEC,
    learner: Learner,
    opponent: Opponent,
    seats: Sequence[int],
    rng: np.random.Generator,
    seed: int | None = None,
) -> tuple[float, Episode]:
    """One training game: the learner at ``seats`` (sampling), ``opponent``
    everywhere else. Returns the learner's reward (its first seat's: a team
    shares it) and its decisions."""
    env.reset(seed=seed)
    episode, reward = Episode(), 0.0
    for agent in env.agent_iter():
        obs, r, terminated, truncated, _ = env.last()
        seat = env.possible_agents.index(agent)
        if terminated or truncated:
            if seat == seats[0]:
                reward = float(r)
            env.step(None)
        elif seat in seats:
            env.step(learner.act(obs["observation"], obs["action_mask"], episode))
        else:
            env.step(opponent.sample(obs["observation"], obs["action_mask"], rng))
    return reward, episode


# ---------------------------------------------------------------- the agents
#: The policy ``evaluated`` plays: the protocol names its agents by import
#: path, so the trainer leaves the snapshot under evaluation here (one
#: process: the protocol runs with one worker).
_UNDER_EVALUATION: list[FrozenPolicy] = []
EVALUATED_SPEC = "bestiary.rl.policy:PolicyAgent:policy=selfplay_pool:evaluated"


def evaluated(observation: Obs, mask: Mask) -> int:
    """The snapshot under evaluation, greedy (for the training's own curve)."""
    if not _UNDER_EVALUATION:
        raise ValueError("selfplay_pool:evaluated plays only while selfplay_pool.py evaluates")
    return _UNDER_EVALUATION[-1].greedy(observation, mask)


@functools.cache
def _saved(path: str) -> tuple[FrozenPolicy, dict[str, Any]]:
    try:
        return FrozenPolicy.load(path)
    except (OSError, KeyError, ValueError) as exc:
        raise ValueError(
            f"cannot read the policy {path!r} (a .npz that selfplay_pool.py saved): {exc}"
        ) from None


def act(observation: Obs, mask: Mask) -> int:
    """The saved policy (the ``.npz`` named by ``BESTIARY_POLICY``), greedy."""
    path = os.environ.get("BESTIARY_POLICY")
    if not path:
        raise ValueError("set BESTIARY_POLICY to the .npz file that selfplay_pool.py saved")
    policy, meta = _saved(path)
    if len(mask) != len(policy.row_of) or len(observation) != policy.w.shape[1]:
        raise ValueError(
            f"{path} was trained for {meta['game']} at {meta['players']} seats "
            f"(observation size {policy.w.shape[1]}, {len(policy.row_of)} actions), not for "
            f"this table (observation size {len(observation)}, {len(mask)} actions)"
        )
    return policy.greedy(observation, mask)


# ---------------------------------------------------------------- training
@dataclass(frozen=True)
class Config:
    """One run's settings: the command's options (their defaults are these)."""

    game: str = "meat"
    players: int = 2
    variant: str | None = None
    updates: int = 2000
    snapshot_every: int = 100
    pool_size: int = 8
    sampling: str = "pfsp"
    pfsp_power: float = 2.0
    eval_every: int = 500
    eval_games: int = 60
    eval_seed: int = SEED
    lr: float = 0.01
    seed: int = 0


def eval_pool(game: Game) -> dict[str, str]:
    """The evaluation opponents: random, and the game's heuristic where it has one."""
    return {
        "random": "random",
        **({"heuristic": "heuristic"} if "heuristic" in game.agents() else {}),
    }


def measure(game: Game, policy: FrozenPolicy, cfg: Config) -> dict[str, Any]:
    """The protocol's win shares of ``policy`` (greedy) against the evaluation pool."""
    # The script runs as __main__: the spec must find this very module.
    sys.modules.setdefault("selfplay_pool", sys.modules[__name__])
    _UNDER_EVALUATION[:] = [policy]
    try:
        result = evaluate(
            game,
            EVALUATED_SPEC,
            cfg.players,
            games=cfg.eval_games,
            seed=cfg.eval_seed,
            pool=eval_pool(game),
            variant=cfg.variant,
        )
    finally:
        _UNDER_EVALUATION.clear()
    if result.interrupted:
        raise KeyboardInterrupt
    point: dict[str, Any] = {}
    for p in result.pairings:
        point[f"vs_{p.name}"] = round(p.share, 4)
        point[f"vs_{p.name}_ci"] = [round(p.low, 4), round(p.high, 4)]
    return point


def train(cfg: Config, out: Path, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Train, evaluate, write ``out``.json/.png/.npz; return the JSON's content."""
    game = get_game(cfg.game)
    env = bestiary.rl.raw_env(cfg.game, cfg.players, cfg.variant)
    learner = Learner(env.observer.size, env.num_actions, cfg.lr, cfg.seed)
    rng = np.random.default_rng([cfg.seed, 1])  # the pool's draws and the opponents' moves
    fair = 1.0 / placements(game, cfg.players)
    pool = Pool(cfg.pool_size, cfg.sampling, cfg.pfsp_power, fair, rng)
    pool.add("random", RandomPolicy())
    curve: list[dict[str, Any]] = []
    t0 = time.perf_counter()

    def point(update: int) -> None:
        curve.append(
            {
                "update": update,
                **measure(game, learner.snapshot(), cfg),
                "seconds": round(time.perf_counter() - t0, 1),
                "pool": [m.name for m in pool.members],
            }
        )
        log(json.dumps(curve[-1]))

    baseline, interrupted, done = fair, False, 0
    try:
        point(0)
        for update in range(1, cfg.updates + 1):
            member = pool.pick()
            seats = agent_seats(game, cfg.players, update)
            # The first reset seeds the environment's stream of deals; the rest follow it.
            reward, episode = play(
                env, learner, member.policy, seats, rng, cfg.seed if update == 1 else None
            )
            if episode.rows:
                learner.update(episode, reward - baseline)
            baseline += BASELINE_RATE * (reward - baseline)
            pool.record(member, reward)
            if update % cfg.snapshot_every == 0:
                pool.add(f"update {update}", learner.snapshot())
            done = update
            if update % cfg.eval_every == 0 or update == cfg.updates:
                point(update)
    except KeyboardInterrupt:
        interrupted = True
        log(f"interrupted after {done} updates; writing what there is")
    meta = {"game": game.id, "players": cfg.players, "variant": cfg.variant}
    policy_path = Path(f"{out}.npz")
    learner.snapshot().save(policy_path, {**meta, "updates": done, "obs_size": env.observer.size})
    result = {
        **meta,
        "placements": placements(game, cfg.players),
        "fair_share": fair,
        "updates": done,
        "snapshot_every": cfg.snapshot_every,
        "pool_size": cfg.pool_size,
        "sampling": cfg.sampling,
        "pfsp_power": cfg.pfsp_power,
        "lr": cfg.lr,
        "seed": cfg.seed,
        "eval_games": cfg.eval_games,
        "eval_seed": cfg.eval_seed,
        "eval_pool": eval_pool(game),
        "seconds": round(time.perf_counter() - t0, 1),
        "interrupted": interrupted,
        "policy": str(policy_path),
        "final_pool": [
            {"name": m.name, "games": m.games, "score": round(m.score, 4)} for m in pool.members
        ],
        "curve": curve,
    }
    Path(f"{out}.json").write_text(json.dumps(result, indent=1) + "\n")
    plot(result, Path(f"{out}.png"))
    return result


def plot(result: dict[str, Any], path: Path) -> bool:
    """The curve as a PNG, if matplotlib is installed (False if not)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    curve = result["curve"]
    fig, ax = plt.subplots(figsize=(5.5, 3.2), dpi=100)
    for name in result["eval_pool"]:
        xs = [c["update"] for c in curve if f"vs_{name}" in c]
        ax.plot(xs, [c[f"vs_{name}"] for c in curve if f"vs_{name}" in c], marker="o", label=name)
    ax.axhline(result["fair_share"], color="grey", linestyle="--", label="fair share")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("training games (one update each)")
    ax.set_ylabel(f"win share, {result['eval_games']} games")
    ax.set_title(f"{result['game']}, {result['players']} seats: self-play, pool of past selves")
    ax.legend(loc="center right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


# ---------------------------------------------------------------- command line
def _count(least: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    return parse


def _real(positive: bool) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
        if not math.isfinite(value) or value < 0 or (positive and value == 0):
            raise argparse.ArgumentTypeError(
                f"must be a finite number {'above' if positive else 'at least'} 0, not {text}"
            )
        return value

    return parse


def parse_args(argv: Sequence[str] | None = None) -> tuple[Config, Path]:
    ap = argparse.ArgumentParser(
        description="Self-play with a pool of past policies (numpy only); see the module docstring."
    )
    ap.add_argument("game", nargs="?", default=Config.game, help="game id (default meat)")
    ap.add_argument("--players", type=_count(1), help="seats (default: the game's)")
    ap.add_argument("--variant", help="rules variant (default: the game's)")
    ap.add_argument("--updates", type=_count(1), default=Config.updates, help="training games")
    ap.add_argument(
        "--snapshot-every",
        type=_count(1),
        default=Config.snapshot_every,
        help="updates between snapshots",
    )
    ap.add_argument(
        "--pool-size", type=_count(1), default=Config.pool_size, help="most members of the pool"
    )
    ap.add_argument("--sampling", choices=("pfsp", "uniform"), default=Config.sampling)
    ap.add_argument("--pfsp-power", type=_real(False), default=Config.pfsp_power)
    ap.add_argument(
        "--eval-every",
        type=_count(1),
        default=Config.eval_every,
        help="updates between evaluations",
    )
    ap.add_argument(
        "--eval-games",
        type=_count(1),
        default=Config.eval_games,
        help="games per evaluation opponent (a multiple of the placements R)",
    )
    ap.add_argument(
        "--eval-seed",
        type=_count(0),
        default=Config.eval_seed,
        help="first evaluation deal (the protocol's)",
    )
    ap.add_argument("--lr", type=_real(True), default=Config.lr)
    ap.add_argument("--seed", type=_count(0), default=Config.seed)
    ap.add_argument("--out", help="output prefix (default selfplay_GAME_Pp)")
    args = ap.parse_args(argv)
    try:
        game = get_game(args.game)
        players = args.players or game.default_players
        if players not in game.allowed_players():
            allowed = ", ".join(map(str, game.allowed_players()))
            ap.error(f"--players: {game.id} is played by {allowed} players, not {players}")
        game.ruleset(args.variant, {})
    except BestiaryError as exc:
        ap.error(str(exc))
    r = placements(game, players)
    if args.eval_games % r:
        ap.error(
            f"--eval-games must be a multiple of {r} (the learner's placements at "
            f"{players} seats: each deal is played from each), not {args.eval_games}"
        )
    out = Path(args.out or f"selfplay_{game.id}_{players}p")
    if not out.parent.is_dir():
        ap.error(f"--out: the folder {str(out.parent)!r} does not exist")
    cfg = Config(
        game.id,
        players,
        args.variant,
        args.updates,
        args.snapshot_every,
        args.pool_size,
        args.sampling,
        args.pfsp_power,
        args.eval_every,
        args.eval_games,
        args.eval_seed,
        args.lr,
        args.seed,
    )
    return cfg, out


def main(argv: Sequence[str] | None = None) -> None:
    cfg, out = parse_args(argv)
    result = train(cfg, out)
    examples = Path(__file__).resolve().parent
    if examples.is_relative_to(Path.cwd()):  # the shorter path where it is below this folder
        examples = examples.relative_to(Path.cwd())
    variant = f" --variant {cfg.variant}" if cfg.variant else ""
    print(
        f"{result['updates']} updates in {result['seconds']} s; wrote {out}.json"
        f" and the policy {result['policy']}. Play it:\n"
        f"BESTIARY_POLICY={result['policy']} PYTHONPATH={examples} bestiary rl evaluate "
        f'"bestiary.rl.policy:PolicyAgent:policy=selfplay_pool:act" --game {cfg.game} '
        f"--players {cfg.players}{variant} --games 200 --pool {','.join(result['eval_pool'])}"
    )


if __name__ == "__main__":
    main()
