"""Do the lab's tests claim changes no more often than they say? (issue 28)

    python benchmarks/lab_error_rates.py [--pool 12000] [--reps 400] [--workers 2] [--json F]

M.E.A.T. between random bots (about 40 games/s a core), four checks:

1. **A/A, sequential** (``bestiary ab``'s test, :mod:`bestiary.lab.sequential`):
   the same rules twice on *different* seeds (with the same seeds and the
   same rules random bots play the very same games and every difference is
   0, which tests nothing). A pool of ``--pool`` games is played once;
   each replicate draws 2 × 400 distinct games from it at random, A's and
   B's, and looks at seat 0's win share every 50 games a side with the
   always-valid interval at α = 5%. A claim is an interval that excludes 0
   at any look. Beside it the naive procedure (a paired z test at p < 0.05
   after every batch) shows what repeated looks do without the correction.
2. **A/A, BH-corrected compare** (:func:`bestiary.lab.compare.compare_tables`):
   two runs of 100 games each drawn from the pool (different seeds, so
   unpaired); a claim is any metric of the few hundred with q < 0.05.
   Under no change at all, BH keeps the chance of any claim at most 5%.
3. **A/B, sequential, a planted effect**: B seats a heuristic bot against a
   random one (A: two random bots), on the same seeds; each replicate its own
   seeds. Found: the interval excludes 0 (upwards) within 400 games a side.
4. **A/B, compare, a planted card**: the leader Kat z Wieży's summary bonus
   2 → 12 (much stronger), 300 games a side (``--ab-games``) on the same seeds; found: the
   metric "leader Kat z Wieży: its seat wins" has q < 0.05.

The replicates of 1 and 2 share one pool of games (drawn without
replacement within a replicate, with across replicates): the Wilson
interval of each rate treats them as independent, so it is a little too
narrow. Rates are printed with their 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from bestiary.lab.compare import compare_tables
from bestiary.lab.metrics import load
from bestiary.lab.paired import per_game
from bestiary.lab.runs import RunConfig, play_rows, rows_table
from bestiary.lab.sequential import Sequential, run_ab
from bestiary.lab.stats import normal_sf, wilson
from bestiary.lab.tune import set_field

SHIPPED = Path(__file__).resolve().parent.parent / "bestiary/games/meat/data/cards.toml"
RANDOM = RunConfig("meat", ("random", "random"), 0)
BUDGET, BATCH, SMALL_RUN = 400, 50, 100


def rate(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {"claims": k, "reps": n, "rate": k / n, "low": low, "high": high}


def shown(r: dict[str, Any]) -> str:
    return f"{r['claims']}/{r['reps']} = {r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]"


def play(cfg: RunConfig, indexes: range, workers: int) -> list[dict[str, Any]]:
    return [row for batch in play_rows(cfg, indexes, workers=workers) for row in batch]


def seq_aa(values: np.ndarray, reps: int, rng: np.random.Generator) -> dict[str, Any]:
    claims = naive = 0
    for _ in range(reps):
        pick = rng.choice(len(values), 2 * BUDGET, replace=False)
        d = values[pick[BUDGET:]] - values[pick[:BUDGET]]
        test = Sequential(0.05, BUDGET)
        peeked = False
        for s in range(0, BUDGET, BATCH):
            test.add(d[s : s + BATCH])
            seen = d[: s + BATCH]
            se = float(seen.std(ddof=1)) / math.sqrt(len(seen))
            peeked |= se > 0 and 2 * normal_sf(abs(float(seen.mean())) / se) < 0.05
            if test.decision != "open":
                break
        claims += test.decision in ("up", "down")
        naive += peeked
    return {"sequential": rate(claims, reps), "naive_peeking": rate(naive, reps)}


def reindexed(rows: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    return [r | {"index": i, "seed": seed + i} for i, r in enumerate(rows)]


_POOL: list[dict[str, Any]] = []  # set before the workers fork: they read it, never copy it


def _one_compare(job: tuple[int, np.ndarray]) -> tuple[bool, int, float]:
    rep, pick = job
    a_cfg = RunConfig("meat", RANDOM.seats, 10_000_000 + rep)
    b_cfg = RunConfig("meat", RANDOM.seats, 20_000_000 + rep)
    a = rows_table(a_cfg, reindexed([_POOL[i] for i in pick[:SMALL_RUN]], a_cfg.seed))
    b = rows_table(b_cfg, reindexed([_POOL[i] for i in pick[SMALL_RUN:]], b_cfg.seed))
    t = time.perf_counter()
    rows = compare_tables(a, b)
    return any(r.significant for r in rows), len(rows), time.perf_counter() - t


def compare_aa(
    pool: list[dict[str, Any]], reps: int, rng: np.random.Generator, workers: int
) -> dict[str, Any]:
    _POOL[:] = pool
    jobs = [(rep, rng.choice(len(pool), 2 * SMALL_RUN, replace=False)) for rep in range(reps)]
    with multiprocessing.get_context("fork").Pool(workers) as procs:
        got = procs.map(_one_compare, jobs, chunksize=1)
    out = rate(sum(c for c, _, _ in got), reps)
    out["metrics_tested_median"] = statistics.median(n for _, n, _ in got)
    out["seconds_per_compare_median"] = round(statistics.median(t for _, _, t in got), 2)
    return out


def seq_ab(reps: int, workers: int) -> dict[str, Any]:
    found, games = 0, []
    for rep in range(reps):
        a = RunConfig("meat", RANDOM.seats, 30_000_000 + 1000 * rep)
        b = RunConfig("meat", ("heuristic", "random"), a.seed)
        res = run_ab(a, b, "seat0_win", batch=20, budget=BUDGET, workers=workers)
        found += res.decision == "up"
        games.append(res.looks[-1].games)
    return rate(found, reps) | {"games_a_side_median": statistics.median(games)}


def compare_ab(reps: int, workers: int, tmp: Path, games: int = 300) -> dict[str, Any]:
    strong = tmp / "kat12.toml"
    strong.write_text(set_field(SHIPPED.read_text(), "Kat z Wieży", "passive.amount", 12))
    found, diffs = 0, []
    for rep in range(reps):
        a = RunConfig("meat", RANDOM.seats, 40_000_000 + 1000 * rep)
        b = RunConfig("meat", RANDOM.seats, a.seed, "", {"cards": str(strong)})
        ta = rows_table(a, play(a, range(games), workers))
        tb = rows_table(b, play(b, range(games), workers))
        row = {r.key: r for r in compare_tables(ta, tb)}["item:leader:Kat z Wieży"]
        found += row.significant
        diffs.append(row.d.diff)
    return rate(found, reps) | {"kat_win_share_change_median": statistics.median(diffs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pool", type=int, default=8_000, help="0: skip the A/A checks")
    ap.add_argument("--reps", type=int, default=1000, help="A/A replicates of the sequential test")
    ap.add_argument("--compare-reps", type=int, default=200)
    ap.add_argument("--ab-reps", type=int, default=20, help="0: skip the A/B checks")
    ap.add_argument("--ab-games", type=int, default=300, help="games a side of the A/B compare")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rng = np.random.default_rng(2026)
    report: dict[str, Any] = {"args": vars(args) | {"json": str(args.json)}}

    def say(key: str, value: Any, line: str) -> None:
        report[key] = value
        print(line, flush=True)

    t0 = time.perf_counter()
    if args.pool:  # 0: only the A/B checks
        pool = play(RANDOM, range(args.pool), args.workers)
        pool = [r for r in pool if r["error"] is None]
        values = np.array(
            [v for _, v in sorted(per_game(load(rows_table(RANDOM, pool)))["seat0_win"].items())]
        )
        say(
            "pool",
            {"games": len(pool), "seconds": round(time.perf_counter() - t0)},
            f"pool: {len(pool)} games in {time.perf_counter() - t0:.0f}s; "
            f"seat 0 wins {values.mean():.1%}",
        )
        aa = seq_aa(values, args.reps, rng)
        say(
            "sequential_aa",
            aa,
            f"A/A sequential (α 5%, looks every {BATCH} to {BUDGET}): "
            f"{shown(aa['sequential'])}; naive peeking: {shown(aa['naive_peeking'])}",
        )
        t = time.perf_counter()
        ca = compare_aa(pool, args.compare_reps, rng, args.workers)
        say(
            "compare_aa",
            ca,
            f"A/A compare ({SMALL_RUN} games a side, BH q < 5%, "
            f"{ca['metrics_tested_median']} metrics): {shown(ca)} ({time.perf_counter() - t:.0f}s)",
        )
    if args.ab_reps:
        t = time.perf_counter()
        sb = seq_ab(args.ab_reps, args.workers)
        say(
            "sequential_ab",
            sb,
            f"A/B sequential (heuristic vs random in seat 0): found "
            f"{shown(sb)}, median {sb['games_a_side_median']} games a side "
            f"({time.perf_counter() - t:.0f}s)",
        )
        t = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            cb = compare_ab(max(1, args.ab_reps // 2), args.workers, Path(tmp), args.ab_games)
        say(
            "compare_ab",
            cb,
            f"A/B compare (Kat z Wieży +10, {args.ab_games} games a side): found {shown(cb)}, "
            f"median change {100 * cb['kat_win_share_change_median']:+.1f} pp "
            f"({time.perf_counter() - t:.0f}s)",
        )
    say("seconds", round(time.perf_counter() - t0), f"total {time.perf_counter() - t0:.0f}s")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
