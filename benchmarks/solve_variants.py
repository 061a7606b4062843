"""Solve each game's tiny research variant with OpenSpiel's CFR+ and measure our
bots' exploitability on it (docs/RL.md, "Solved variants").

For every game with a ``data/solvable.toml`` (bestiary/openspiel/variants.py):

1. the variant's game with its deal drawn from K linked deals
   (bestiary/openspiel/deals.py) is walked whole through the OpenSpiel bridge
   and written as a Gambit ``.efg`` game (bestiary/openspiel/efg.py); the
   ``random``, ``heuristic`` and ``hard`` bots of the benchmark pool
   (``bestiary rl evaluate``) are asked at each information set on their own
   line as the walk passes (bestiary/openspiel/solve.py);
2. OpenSpiel loads the ``.efg`` (C++ ``efg_game``) and its C++ CFR+ runs until
   the average policy's exploitability is at most ``--target`` or
   ``--max-iterations``;
3. each bot's exploitability (NashConv / 2; ``random`` is the uniform policy)
   is OpenSpiel's, on the same game.

A variant whose tree passes its ``max_nodes`` is reported as too large, with
Knuth's estimate of its size from random paths.

    python benchmarks/solve_variants.py [--games taxonomy,monster-maker]
        [--target 0.001] [--max-iterations 5000] [--bot-budget 1800]
        [--deals K] [--efg-dir DIR] [--json] [--out FILE]
"""

from __future__ import annotations

import argparse
import io
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

import pyspiel

import bestiary.openspiel  # noqa: F401 - registers the games with OpenSpiel
from bestiary.engine.registry import all_games, get_game
from bestiary.openspiel.efg import Tree, TreeTooLarge, estimate_nodes, write_efg
from bestiary.openspiel.solve import (
    BotHook,
    bot_policy,
    exploitability,
    solve_cfr_plus,
    uniform_policy,
)
from bestiary.openspiel.variants import SolvableVariant, load_variant
from bestiary.rl.evaluate import opponent_pool


def _tree_row(tree: Tree) -> dict[str, Any]:
    infosets = [tree.infoset_count(p) for p in range(tree.players)]
    return {
        "nodes": tree.nodes,
        "terminals": tree.terminals,
        "decision_nodes": tree.decisions,
        "max_depth": tree.max_depth,
        "infosets": infosets,
        "infosets_hiding_the_deal": [len(s) for s in tree.hiding_chance],
        "walk_seconds": round(tree.seconds, 1),
    }


def run(variant: SolvableVariant, args: argparse.Namespace) -> dict[str, Any]:
    game = variant.game
    deals = args.deals or variant.deals
    row: dict[str, Any] = {
        "game": game.id,
        "players": variant.players,
        "variant": variant.variant,
        "options": {
            k: (Path(v).name if k in _paths(variant) else v) for k, v in variant.options.items()
        },
        "deals": deals,
        "first_seed": variant.first_seed,
    }
    os_game = variant.deals_game(deals)
    pool = {k: v for k, v in opponent_pool(game, variant.players).items() if k != "random"}
    row["bots"] = {"random": "uniform over the legal actions", **pool}
    hook = BotHook(game, pool, budget=args.bot_budget)
    out = io.StringIO()
    try:
        tree = write_efg(
            os_game,
            out,
            title=f"Bestiary {game.id} solvable variant",
            hook=hook,
            max_nodes=variant.max_nodes,
        )
    except TreeTooLarge as exc:
        row["too_large"] = str(exc)
        start = time.perf_counter()
        row["estimated_nodes"] = estimate_nodes(os_game, args.probes)
        row["estimate"] = f"Knuth's estimator, {args.probes} random paths"
        row["estimate_seconds"] = round(time.perf_counter() - start, 1)
        return row
    row.update(_tree_row(tree))
    text = out.getvalue()
    if args.efg_dir:
        path = Path(args.efg_dir) / f"{game.id}.efg"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        row["efg"] = str(path)
    start = time.perf_counter()
    efg = pyspiel.load_efg_game(text)
    row["load_seconds"] = round(time.perf_counter() - start, 1)
    solution = solve_cfr_plus(
        efg, target=args.target, max_iterations=args.max_iterations, check_every=args.check_every
    )
    row["cfr_plus"] = {
        "iterations": solution.iterations,
        "exploitability": solution.exploitability,
        "seconds": round(solution.seconds, 1),
        "value_player_0": round(solution.value, 4),
        "curve": solution.curve,
    }
    bots: dict[str, Any] = {"random": {"exploitability": exploitability(efg, uniform_policy(tree))}}
    for bot in hook.bots:
        entry: dict[str, Any] = {
            "asked": len(bot.choices),
            "off_its_line": len(bot.skipped),
            "seconds": round(bot.seconds, 1),
        }
        if bot.stopped:
            entry["not_measured"] = bot.stopped
        else:
            entry["exploitability"] = exploitability(efg, bot_policy(tree, bot))
        bots[bot.name] = entry
    row["exploitability"] = bots
    return row


def _paths(variant: SolvableVariant) -> set[str]:
    return {f["name"] for f in variant.game.ruleset().fields_info() if f["path"]}


def _cell(entry: dict[str, Any]) -> str:
    if "exploitability" in entry:
        return f"{entry['exploitability']:.4f}"
    return "not measured"


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| game | table | nodes | information sets (seat 0 / 1) | hiding the deal | "
        "CFR+ iterations | CFR+ exploitability | CFR+ s | value (seat 0) | "
        "random | heuristic | hard |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        where = f"{r['players']} seats, {r['deals']} deals"
        if "too_large" in r:
            lines.append(
                f"| {r['game']} | {where} | > {r['too_large'].split('more than ')[1].split()[0]} "
                f"(est. {r['estimated_nodes']:.2g}) | – | – | – | not solved | – | – | – | – | – |"
            )
            continue
        cfr = r["cfr_plus"]
        bots = r["exploitability"]
        lines.append(
            f"| {r['game']} | {where} | {r['nodes']:,} | "
            f"{r['infosets'][0]:,} / {r['infosets'][1]:,} | "
            f"{r['infosets_hiding_the_deal'][0]:,} / {r['infosets_hiding_the_deal'][1]:,} | "
            f"{cfr['iterations']:,} | {cfr['exploitability']:.5f} | {cfr['seconds']:.0f} | "
            f"{cfr['value_player_0']:+.3f} | {_cell(bots['random'])} | "
            f"{_cell(bots.get('heuristic', {}))} | {_cell(bots.get('hard', {}))} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    parser.add_argument(
        "--target", type=float, default=1e-3, help="CFR+ stops at this exploitability"
    )
    parser.add_argument("--max-iterations", type=int, default=5_000)
    parser.add_argument("--check-every", type=int, default=10, help="iterations between checks")
    parser.add_argument(
        "--bot-budget", type=float, default=1_800.0, help="seconds one bot may take per game"
    )
    parser.add_argument("--deals", type=int, default=0, help="override the variants' deal count")
    parser.add_argument(
        "--probes", type=int, default=2_000, help="random paths for a size estimate"
    )
    parser.add_argument("--efg-dir", default="", help="also write each game's .efg file here")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--out", default="", help="also write the JSON report to this file")
    args = parser.parse_args(argv)
    ids = [g for g in args.games.split(",") if g] or [g.id for g in all_games()]
    rows = []
    started = time.perf_counter()
    for game_id in ids:
        variant = load_variant(get_game(game_id))
        if variant is None:
            print(f"{game_id}: no data/solvable.toml", file=sys.stderr)
            continue
        print(f"{game_id}: walking …", file=sys.stderr, flush=True)
        rows.append(run(variant, args))
        print(f"{game_id}: done", file=sys.stderr, flush=True)
    report = {
        "machine": f"{platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, open_spiel {_version()}",
        "target": args.target,
        "seconds": round(time.perf_counter() - started, 1),
        "rows": rows,
    }
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(table(rows))
        print(f"\n{report['machine']}; {report['seconds']:.0f} s in all")
    return 0


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("open_spiel")
    except PackageNotFoundError:
        return "?"


if __name__ == "__main__":
    raise SystemExit(main())
