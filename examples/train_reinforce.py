"""A masked linear policy trained with REINFORCE (numpy only), one seat
against bots, through the Gymnasium environment ``bestiary.rl``.

    python examples/train_reinforce.py meat --episodes 3000 --opponent random

The policy is ``softmax(W @ observation + b)`` restricted to the action mask;
after each game every decision's log-probability gradient is scaled by the
game's reward minus a running baseline (the recent win rate). Seats alternate
between games. Every ``--eval-every`` episodes the current policy (sampling,
as it trains) plays ``--eval-games`` fresh games on held-out seeds; the
curve of those win rates is written as JSON and, with matplotlib installed,
as a PNG.
"""

from __future__ import annotations

import argparse
import json
import os
import time

# One BLAS thread: the matrices are small and the machine may be shared.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
from pathlib import Path

import numpy as np
from _masked_policy import Array, LinearPolicy

from bestiary.rl import single_agent_env
from bestiary.rl.single import SingleAgentEnv


def play(
    env: SingleAgentEnv, policy: LinearPolicy, seed: int
) -> tuple[float, list[Array], list[Array], list[int]]:
    obs, _ = env.reset(seed=seed)
    observations: list[Array] = []
    probs: list[Array] = []
    actions: list[int] = []
    done, reward = False, 0.0
    while not done:
        a, p = policy.act(obs["observation"], obs["action_mask"])
        observations.append(obs["observation"].astype(np.float64))
        probs.append(p)
        actions.append(a)
        obs, reward, done, _, _ = env.step(a)
    return float(reward), observations, probs, actions


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game", nargs="?", default="meat")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--variant", default=None)
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--episodes", type=int, default=3000)
    ap.add_argument("--eval-every", type=int, default=250)
    ap.add_argument("--eval-games", type=int, default=100)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="docs/rl_curve")
    args = ap.parse_args()
    envs = [
        single_agent_env(
            args.game, args.players, seat=s, opponents=args.opponent, variant=args.variant
        )
        for s in range(args.players)
    ]
    space = envs[0].observation_space["observation"]
    assert space.shape is not None
    policy = LinearPolicy(space.shape[0], envs[0].num_actions, args.lr, args.seed)

    def evaluate() -> float:
        # Held-out seeds (far from the training ones), every seat in turn.
        wins = sum(
            play(envs[i % args.players], policy, 10**6 + i)[0] for i in range(args.eval_games)
        )
        return wins / args.eval_games

    curve = [{"episode": 0, "win_rate": evaluate()}]
    print(json.dumps(curve[-1]), flush=True)
    baseline, t0 = 1.0 / args.players, time.perf_counter()
    for ep in range(1, args.episodes + 1):
        reward, obs, probs, actions = play(envs[ep % args.players], policy, args.seed * 10**5 + ep)
        if actions:
            policy.update(np.array(obs), np.array(probs), actions, reward - baseline)
        baseline += 0.01 * (reward - baseline)
        if ep % args.eval_every == 0:
            curve.append({"episode": ep, "win_rate": evaluate()})
            print(json.dumps({**curve[-1], "seconds": round(time.perf_counter() - t0)}), flush=True)
    out = Path(args.out)
    meta = {
        "game": args.game,
        "players": args.players,
        "variant": args.variant,
        "opponent": args.opponent,
        "eval_games": args.eval_games,
        "fair_share": 1.0 / args.players,
        "seconds": round(time.perf_counter() - t0),
        "curve": curve,
    }
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(5, 3), dpi=100)
    ax.plot([c["episode"] for c in curve], [c["win_rate"] for c in curve], marker="o")
    ax.axhline(1.0 / args.players, color="grey", linestyle="--", label="random (fair share)")
    ax.set_xlabel("training games")
    ax.set_ylabel(f"win rate vs {args.opponent}")
    ax.set_title(f"{args.game}: masked linear REINFORCE")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(out.with_suffix(".png"))


if __name__ == "__main__":
    main()
