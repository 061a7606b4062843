"""Throughput of the lab's runner: ``python -m bestiary.lab.measure [games] [repeats]``.

For every game (its default player count, heuristic bots) plays ``games``
games with 1 worker, 2 workers and a local Ray instance (2 CPUs), each
``repeats`` times, and prints the median games/s as JSON lines. Then times a
report of a ``--report-rows`` row taxonomy table (games repeated with fresh
indexes: the report's cost depends on the rows, not on how they were played).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa

from ..engine.registry import game_ids, get_game
from .runs import RunConfig, play_rows, run_to_parquet


def rate(cfg: RunConfig, games: int, workers: int, backend: str) -> float:
    t0 = time.perf_counter()
    n = sum(len(b) for b in play_rows(cfg, range(games), workers=workers, backend=backend))
    return n / (time.perf_counter() - t0)


def lab_cost(game_id: str, games: int) -> dict[str, object]:
    """Games/s of the same games (1 worker) without and with the lab's statistics
    (the legal-action count, the game's tracker and, where it reads them, events)."""
    from ..sim.runner import play_game

    game = get_game(game_id)
    specs = ["heuristic"] * game.default_players
    out: dict[str, object] = {"game": game_id}
    for label, lab in (
        ("plain", False),
        ("lab", True),
        ("plain again", False),
        ("lab again", True),
    ):
        t0 = time.perf_counter()
        for i in range(games):
            play_game(game, specs, i, lab=lab)
        out[label] = round(games / (time.perf_counter() - t0), 2)
    return out


def report_seconds(rows: int, seed_games: int) -> dict[str, float]:
    from .report import report_html
    from .runs import read_run

    cfg = RunConfig("taxonomy", ("heuristic",) * 3)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.parquet"
        run_to_parquet(cfg, path, seed_games, workers=2)
        small = read_run(path)
        reps = -(-rows // small.num_rows)
        big = pa.concat_tables([small] * reps).slice(0, rows)
        big = big.set_column(0, "index", pa.array(range(rows), pa.int64()))
        t0 = time.perf_counter()
        html = report_html(big)
        seconds = time.perf_counter() - t0
    return {"rows": rows, "report_seconds": round(seconds, 1), "html_bytes": len(html)}


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(prog="python -m bestiary.lab.measure")
    p.add_argument("games", nargs="?", type=int, default=20)
    p.add_argument("repeats", nargs="?", type=int, default=3)
    p.add_argument("--report-rows", type=int, default=100_000)
    p.add_argument("--no-ray", action="store_true")
    p.add_argument("--lab-cost", action="store_true", help="only: the lab statistics' cost")
    args = p.parse_args(argv)
    if args.lab_cost:
        for gid in game_ids():
            print(json.dumps(lab_cost(gid, args.games)), flush=True)
        return
    ray = None
    if not args.no_ray:
        import ray as ray_module

        ray = ray_module
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        for gid in game_ids():
            game = get_game(gid)
            cfg = RunConfig(gid, ("heuristic",) * game.default_players)
            out: dict[str, object] = {"game": gid, "players": game.default_players}
            configs = [("1 worker", 1, "local"), ("2 workers", 2, "local")]
            if ray is not None:
                configs.append(("ray (local, 2 cpus)", 2, "ray"))
            for label, workers, backend in configs:
                runs = [rate(cfg, args.games, workers, backend) for _ in range(args.repeats)]
                out[label] = round(statistics.median(runs), 2)
            print(json.dumps(out), flush=True)
    finally:
        if ray is not None:
            ray.shutdown()
    if args.report_rows:
        print(json.dumps(report_seconds(args.report_rows, 200)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
