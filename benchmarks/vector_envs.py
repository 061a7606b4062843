"""Steps per second per core: the batched environment (``bestiary.rl.vector``)
at N = 1, 64, 1024 tables beside the PettingZoo AEC environment, every game,
in one run (issue 30).

Both loops pick uniformly random legal actions and read every observation:
the AEC loop is ``examples/bench_envs.py``'s (``env.last()`` each step, then
``rng.choice`` over the mask); the batched loop draws one action per table
from the mask array with a few NumPy calls. Only stepping is timed (not the
first reset). A "step" is one move at one table, so a batched step of N
tables counts N.

"Per core" is moves per second of the process's CPU time
(``time.process_time``): the benchmark is one process on one core, and on a
shared machine its CPU time is what it got. Three tables: the CPU time spent
inside the environment's calls (``last``/``step``; ``step``), which is what
the batching changes; the CPU time of the whole loop, the random masked
choice included (for Teratozoic's 74 212 actions that choice is much of it);
and wall-clock time. Each figure is the median of ``--repeats`` runs, the runs of every
configuration interleaved so a change in the machine's load hits them alike.

    python benchmarks/vector_envs.py                       # the full run
    python benchmarks/vector_envs.py --steps 1000 --big-steps 2   # a loaded machine

The load averages before and after are printed too: on a shared machine
they say how much the figures can be trusted. To set two versions of the
code side by side, run this script from outside the checkout with
``PYTHONPATH`` naming each version's tree in turn, alternating the runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable

import numpy as np

from bestiary.engine import game_ids
from bestiary.rl import env, vector

# moves played; CPU seconds inside the environment's calls; CPU and wall
# seconds of the whole loop (the random masked choice included)
Timing = tuple[int, float, float, float]


def aec_run(game_id: str, steps: int, seed: int) -> Timing:
    e = env(game_id)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    clock = time.process_time
    done, in_env = 0, 0.0
    c0, t0 = clock(), time.perf_counter()
    while done < steps:
        for _agent in e.agent_iter():
            c = clock()
            obs, _, term, trunc, _ = e.last()
            in_env += clock() - c
            if term or trunc:
                e.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            c = clock()
            e.step(action)
            in_env += clock() - c
            done += 1
            if done >= steps:
                break
        else:
            e.reset()
    return done, in_env, clock() - c0, time.perf_counter() - t0


def sample(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random True column per row (every row has one)."""
    rows, cols = np.nonzero(masks)
    counts = np.bincount(rows, minlength=masks.shape[0])
    starts = np.cumsum(counts) - counts
    return cols[starts + (rng.random(masks.shape[0]) * counts).astype(np.int64)]


def vector_run(game_id: str, num_envs: int, batches: int, seed: int) -> Timing:
    v = vector(game_id, num_envs=num_envs, seed=seed)
    obs, _ = v.reset()
    rng = np.random.default_rng(seed)
    clock = time.process_time
    in_env = 0.0
    c0, t0 = clock(), time.perf_counter()
    for _ in range(batches):
        actions = sample(obs["action_mask"], rng)
        c = clock()
        obs, *_ = v.step(actions)
        in_env += clock() - c
    return num_envs * batches, in_env, clock() - c0, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=3000, help="moves per run for AEC, N=1, N=64")
    ap.add_argument("--big-steps", type=int, default=6, help="batched steps per run at N=1024")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--games", nargs="*", default=None, help="default: every game")
    ap.add_argument("--json", action="store_true", help="one JSON line per figure too")
    args = ap.parse_args()
    games = args.games or list(game_ids())
    configs: dict[tuple[str, str], Callable[[int], Timing]] = {}
    for gid in games:
        configs[gid, "aec"] = lambda s, g=gid: aec_run(g, args.steps, s)
        configs[gid, "N=1"] = lambda s, g=gid: vector_run(g, 1, args.steps, s)
        configs[gid, "N=64"] = lambda s, g=gid: vector_run(g, 64, max(1, args.steps // 64), s)
        configs[gid, "N=1024"] = lambda s, g=gid: vector_run(g, 1024, args.big_steps, s)
    rates: dict[str, dict[tuple[str, str], list[float]]] = {
        m: {k: [] for k in configs} for m in ("env", "loop", "wall")
    }
    load_before = os.getloadavg()
    for rep in range(args.repeats):
        for key, run in configs.items():
            steps, in_env, loop_cpu, loop_wall = run(rep)
            rates["env"][key].append(steps / in_env)
            rates["loop"][key].append(steps / loop_cpu)
            rates["wall"][key].append(steps / loop_wall)
    load_after = os.getloadavg()
    print(
        "load averages (1, 5, 15 min): before "
        + " / ".join(f"{x:.2f}" for x in load_before)
        + ", after "
        + " / ".join(f"{x:.2f}" for x in load_after)
    )
    kinds = ("aec", "N=1", "N=64", "N=1024")
    titles = {
        "env": "moves per CPU-second inside the environment (policy excluded)",
        "loop": "moves per CPU-second of the whole loop (random masked choice included)",
        "wall": "moves per wall-clock second of the whole loop",
    }
    for m, title in titles.items():
        print(f"\n{title}, median of {args.repeats}:\n")
        print("| game | " + " | ".join(kinds) + " | N=1024 / AEC |")
        print("|---|" + "---:|" * (len(kinds) + 1))
        for gid in games:
            med = {k: statistics.median(rates[m][gid, k]) for k in kinds}
            cells = " | ".join(f"{med[k]:,.0f}" for k in kinds)
            print(f"| {gid} | {cells} | {med['N=1024'] / med['aec']:.2f}x |")
    if args.json:
        for (gid, k), _ in configs.items():
            # "config": the environment measured ("env" names the first figure)
            print(json.dumps({"game": gid, "config": k, **{m: rates[m][gid, k] for m in rates}}))


if __name__ == "__main__":
    main()
