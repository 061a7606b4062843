"""The differential leak audit at scale (tests/test_trust.py runs 2,000 states per game).

For each game, random states from random games over every variant and the
smallest, usual and largest table; at each, a random seat and a
determinization for it: the two worlds must look the same to that seat, now
and after the same moves in both (bestiary/engine/audit.py).

    python benchmarks/leak_audit.py --states 100000 --workers 2
    python benchmarks/leak_audit.py --games taxonomy meat --states 5000 --json

Exits 1 and prints the first failure of each game when a seat can tell the
worlds apart.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bestiary.engine import Rng, game_ids, get_game
from bestiary.engine.audit import AuditFailure, check_indistinguishable, random_states


def _tables(game_id: str) -> list[tuple[int, str]]:
    game = get_game(game_id)
    allowed = game.allowed_players()
    counts = sorted({allowed[0], game.default_players, allowed[-1]})
    return [(n, v) for v in game.variants for n in counts]


def audit_chunk(game_id: str, first_seed: int, states: int) -> dict[str, Any]:
    """``states`` audited states from games seeded ``first_seed``, ``first_seed + 1``, …"""
    game = get_game(game_id)
    tables = _tables(game_id)
    done = moves = failures = 0
    first_failure = ""
    seed = first_seed
    while done < states:
        players, variant = tables[seed % len(tables)]
        for state in random_states(game, players, seed, every=0.08, variant=variant):
            rng = Rng(seed * 1_000_003 + done)
            try:
                moves += check_indistinguishable(state, rng.randrange(players), rng)
            except AuditFailure as exc:
                failures += 1
                first_failure = first_failure or str(exc)
            done += 1
            if done >= states:
                break
        seed += 1
    return {"states": done, "moves": moves, "failures": failures, "first_failure": first_failure}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", nargs="*", default=None, help="game ids (default: every game)")
    ap.add_argument("--states", type=int, default=100_000, help="states per game")
    ap.add_argument("--workers", type=int, default=2, help="processes")
    ap.add_argument("--chunk", type=int, default=2_000, help="states per task")
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    games = args.games or [g for g in game_ids() if g != "toy"]
    report: dict[str, Any] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for game_id in games:
            start = time.perf_counter()
            sizes = [args.chunk] * (args.states // args.chunk)
            if args.states % args.chunk:
                sizes.append(args.states % args.chunk)
            # Chunks start far apart so that no two chunks play the same game.
            jobs = [
                pool.submit(audit_chunk, game_id, 1_000_000 + i * 100_000, n)
                for i, n in enumerate(sizes)
            ]
            parts = [j.result() for j in jobs]
            total = {k: sum(p[k] for p in parts) for k in ("states", "moves", "failures")}
            total["first_failure"] = next((p["first_failure"] for p in parts if p["failures"]), "")
            total["seconds"] = round(time.perf_counter() - start, 1)
            report[game_id] = total
            if not args.json:
                print(
                    f"{game_id:14} {total['states']:>8} states {total['moves']:>9} moves followed "
                    f"{total['failures']:>6} failures  {total['seconds']:>7.1f} s",
                    flush=True,
                )
                if total["failures"]:
                    print(f"  first: {total['first_failure']}")
    if args.json:
        print(json.dumps(report, indent=2))
    return 1 if any(r["failures"] for r in report.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
