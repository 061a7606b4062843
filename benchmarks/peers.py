"""Bestiary's four games beside RLCard and OpenSpiel: random self-play, one process.

Every engine plays whole games with uniformly random legal moves for about
``--seconds`` per repeat; the repeats are interleaved (engine A, B, C, …,
then A again) so the machine's load hits all of them alike. We report the
median µs per decision and ratios, measured in this one run.

- **Bestiary** (taxonomy, monster-maker, meat, teratozoic): exactly what
  ``bestiary bench`` times (``state.legal`` + ``state.apply``, events off).
- **RLCard** (``pip install rlcard``, the ``bench`` extra): the raw game
  loop, ``game.step`` on a random legal action, as RLCard's own agents see
  it without the observation encoding: mahjong (4 players) and gin-rummy
  (2 players). Pure Python, like Bestiary.
- **OpenSpiel** (``pip install open_spiel``, optional): ``gin_rummy`` and
  ``hearts`` through ``pyspiel`` — C++ games driven from Python, so a
  different class of engine; listed for scale, not as a like-for-like peer.
  Chance steps (deals) are timed but not counted as decisions.

    python benchmarks/peers.py [--seconds 1] [--repeats 5] [--json]

A missing library is reported and skipped; RLCard and OpenSpiel are only run,
never copied.
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

Run = Callable[[float, int], tuple[int, float]]

#: The ratios the "Speed" issue asks for: (ours, peer, at least this many times faster).
TARGETS = [
    ("taxonomy", "rlcard mahjong", 35.0),
    ("taxonomy", "rlcard gin-rummy", 2.0),
    ("monster-maker", "rlcard gin-rummy", 2.0),
    ("meat", "rlcard gin-rummy", 2.0),
    ("teratozoic", "rlcard gin-rummy", 2.0),
]


def bestiary_run(game_id: str) -> Run:
    game = get_game(game_id)

    def run(seconds: float, seed: int) -> tuple[int, float]:
        d, _, el = selfplay_once(game, game.default_players, seconds, seed, None, None)
        return d, el

    return run


def rlcard_run(name: str) -> Run:
    """RLCard's raw game: ``init_game``, then ``step`` on random legal actions."""
    import numpy as np

    if name == "mahjong":
        from rlcard.games.mahjong.game import MahjongGame

        game = MahjongGame()

        def legal(state: object) -> list[object]:
            return list(game.get_legal_actions(state))
    else:
        from rlcard.games.gin_rummy.game import GinRummyGame

        game = GinRummyGame()

        def legal(state: object) -> list[object]:
            return list(game.judge.get_legal_actions())

    def run(seconds: float, seed: int) -> tuple[int, float]:
        game.np_random = np.random.RandomState(seed)
        rng = random.Random(seed)
        steps = 0
        t0 = time.perf_counter()
        deadline = t0 + seconds
        while True:
            state, _ = game.init_game()
            while not game.is_over():
                acts = legal(state)
                state, _ = game.step(acts[rng.randrange(len(acts))])
                steps += 1
            now = time.perf_counter()
            if now >= deadline:
                return steps, now - t0

    return run


def openspiel_run(name: str) -> Run:
    import pyspiel

    game = pyspiel.load_game(name)

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        steps = 0
        t0 = time.perf_counter()
        deadline = t0 + seconds
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                acts = state.legal_actions()
                state.apply_action(acts[rng.randrange(len(acts))])
                steps += 1
            now = time.perf_counter()
            if now >= deadline:
                return steps, now - t0

    return run


def engines() -> tuple[dict[str, Run], list[str]]:
    runs: dict[str, Run] = {}
    missing: list[str] = []
    for gid in ("taxonomy", "monster-maker", "meat", "teratozoic"):
        runs[gid] = bestiary_run(gid)
    try:
        runs["rlcard mahjong"] = rlcard_run("mahjong")
        runs["rlcard gin-rummy"] = rlcard_run("gin-rummy")
    except ImportError as exc:
        missing.append(f"rlcard ({exc}; pip install rlcard)")
    try:
        runs["openspiel gin_rummy (C++)"] = openspiel_run("gin_rummy")
        runs["openspiel hearts (C++)"] = openspiel_run("hearts")
    except ImportError as exc:
        missing.append(f"open_spiel ({exc}; pip install open_spiel)")
    return runs, missing


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="seconds per engine per repeat")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    runs, missing = engines()
    us: dict[str, list[float]] = {k: [] for k in runs}
    for fn in runs.values():
        fn(min(0.2, args.seconds), 1)  # warm-up: imports, card tables, caches
    for r in range(args.repeats):
        for name, fn in runs.items():  # interleaved: noise hits every engine alike
            steps, elapsed = fn(args.seconds, 1000 + r)
            us[name].append(elapsed / steps * 1e6)
    med = {k: statistics.median(v) for k, v in us.items()}
    targets = [
        {
            "ours": ours,
            "peer": peer,
            "times_faster": med[peer] / med[ours],
            "target": want,
            "met": med[peer] / med[ours] >= want,
        }
        for ours, peer, want in TARGETS
        if ours in med and peer in med
    ]
    if args.json:
        print(
            json.dumps(
                {
                    "us_per_decision_median": med,
                    "us_per_decision_all": us,
                    "targets": targets,
                    "missing": missing,
                    "repeats": args.repeats,
                    "seconds_per_repeat": args.seconds,
                },
                indent=2,
            )
        )
        return
    gin = med.get("rlcard gin-rummy")
    print(f"random self-play, µs per decision, median of {args.repeats} × {args.seconds:g}s")
    for k, v in med.items():
        rel = f"   speed {gin / v:6.2f}× rlcard gin-rummy" if gin else ""
        print(f"  {k:28s} {v:9.2f}{rel}")
    for t in targets:
        mark = "met" if t["met"] else "NOT met"
        print(
            f"  {t['ours']} vs {t['peer']}: {t['times_faster']:.2f}× faster "
            f"(target ≥ {t['target']:g}×: {mark})"
        )
    for m in missing:
        print(f"  skipped: {m}")


if __name__ == "__main__":
    main()
