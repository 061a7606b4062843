"""Environment steps per second for every game: a PettingZoo loop with
uniformly random masked actions, observing every step (``env.last()``).

    python examples/bench_envs.py --steps 3000
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from bestiary.engine import game_ids, get_game
from bestiary.rl import env


def steps_per_second(game_id: str, players: int, steps: int, seed: int = 0) -> float:
    e = env(game_id, players=players)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    t0 = time.perf_counter()
    while done < steps:
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += 1
            if done >= steps:
                break
        else:
            e.reset()
    return done / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=3000)
    args = ap.parse_args()
    for gid in game_ids():
        game = get_game(gid)
        for players in sorted({min(game.allowed_players()), game.default_players}):
            rate = steps_per_second(gid, players, args.steps)
            print(json.dumps({"game": gid, "players": players, "steps_per_s": round(rate)}))


if __name__ == "__main__":
    main()
