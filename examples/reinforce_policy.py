"""The REINFORCE example's linear policy, trained, saved and played as an agent.

Train (``examples/train_reinforce.py``'s policy and loop, without its
evaluation curve) and save the weights:

    python examples/reinforce_policy.py meat --episodes 1000 --opponent random --out meat.npz

then play it anywhere an agent goes, e.g. the benchmark (docs/LEADERBOARD.md):

    BESTIARY_POLICY=meat.npz PYTHONPATH=examples bestiary rl evaluate \\
        "bestiary.rl.policy:PolicyAgent:policy=reinforce_policy:act" --game meat --players 2

``act`` plays the most probable legal action (greedy: the protocol wants an
agent that is deterministic given the seeds), with the weights named by
``BESTIARY_POLICY``, loaded once per process.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt


def _example() -> Any:
    """``examples/train_reinforce.py`` as a module (examples/ is not a package)."""
    path = Path(__file__).with_name("train_reinforce.py")
    spec = importlib.util.spec_from_file_location("train_reinforce", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_reinforce"] = module
    spec.loader.exec_module(module)
    return module


@functools.cache
def _weights() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    path = os.environ.get("BESTIARY_POLICY")
    if not path:
        raise ValueError("set BESTIARY_POLICY to the .npz file that train saved")
    data = np.load(path)
    return data["w"], data["b"]


def act(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
    """The legal index of the highest logit."""
    w, b = _weights()
    legal = np.flatnonzero(mask)
    logits = w[legal] @ observation + b[legal]
    return int(legal[int(np.argmax(logits))])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game", nargs="?", default="meat")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--episodes", type=int, default=1000)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    example = _example()
    from bestiary.rl import single_agent_env

    envs = [
        single_agent_env(args.game, args.players, seat=s, opponents=args.opponent)
        for s in range(args.players)
    ]
    first, _ = envs[0].reset(seed=0)
    size = len(first["observation"])
    policy = example.LinearPolicy(size, envs[0].num_actions, args.lr, args.seed)
    baseline, t0 = 1.0 / args.players, time.perf_counter()
    for ep in range(1, args.episodes + 1):
        # The training seeds of train_reinforce.py (below the protocol's 10,000 up to
        # 9,999 episodes).
        reward, obs, probs, actions = example.play(
            envs[ep % args.players], policy, args.seed * 10**5 + ep
        )
        if actions:
            policy.update(np.array(obs), np.array(probs), actions, reward - baseline)
        baseline += 0.01 * (reward - baseline)
    np.savez(args.out, w=policy.w, b=policy.b)
    print(f"{args.episodes} episodes in {time.perf_counter() - t0:.0f} s; saved {args.out}")


if __name__ == "__main__":
    main()
