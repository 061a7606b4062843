"""RLCard's mahjong and Bestiary's taxonomy, random self-play, side by side.

Both run 4-player games with uniformly random legal moves in this one
process, alternating repeats so that machine noise hits both alike. We
report microseconds per decision (median of repeats) and the ratio.

RLCard is measured two ways: through its environment (``env.step``, which
also encodes the observation, as RL users call it) and through its raw game
(``game.step`` + ``get_legal_actions``, no encoding).

    pip install rlcard        # the `bench` extra
    python benchmarks/rlcard_mahjong_vs_taxonomy.py [--seconds 1] [--repeats 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from bestiary.engine import get_game
from bestiary.sim.bench import selfplay_once


def rlcard_env_run(seconds: float, seed: int) -> tuple[int, float]:
    import rlcard

    env = rlcard.make("mahjong", config={"seed": seed})
    rng = random.Random(seed)
    steps = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
        now = time.perf_counter()
        if now >= deadline:
            return steps, now - t0


def rlcard_game_run(seconds: float, seed: int) -> tuple[int, float]:
    import numpy as np
    from rlcard.games.mahjong.game import MahjongGame

    game = MahjongGame()
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    steps = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        state, _ = game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions(state)
            state, _ = game.step(legal[rng.randrange(len(legal))])
            steps += 1
        now = time.perf_counter()
        if now >= deadline:
            return steps, now - t0


def taxonomy_run(seconds: float, seed: int) -> tuple[int, float]:
    d, _, el = selfplay_once(get_game("taxonomy"), 4, seconds, seed, None, None)
    return d, el


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    runs: dict[str, Callable[[float, int], tuple[int, float]]] = {
        "bestiary taxonomy": taxonomy_run,
        "rlcard mahjong (env.step)": rlcard_env_run,
        "rlcard mahjong (raw game)": rlcard_game_run,
    }
    us: dict[str, list[float]] = {k: [] for k in runs}
    for r in range(args.repeats):
        for name, fn in runs.items():  # interleaved: noise hits all alike
            steps, elapsed = fn(args.seconds, 1000 + r)
            us[name].append(elapsed / steps * 1e6)
    med = {k: statistics.median(v) for k, v in us.items()}
    ours = med["bestiary taxonomy"]
    out = {
        "us_per_decision_median": med,
        "ratio_vs_bestiary": {k: v / ours for k, v in med.items()},
        "repeats": args.repeats,
        "seconds_per_repeat": args.seconds,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"random self-play, 4 players, median of {args.repeats} × {args.seconds:g}s")
    for k, v in med.items():
        print(f"  {k:28s} {v:8.2f} µs/decision   {v / ours:6.1f}× bestiary")


if __name__ == "__main__":
    main()
