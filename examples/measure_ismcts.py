"""ISMCTS against the game's heuristic bot: seat-rotated wins with Wilson 95%
intervals, and the search's iterations per second.

    nice -n 15 python examples/measure_ismcts.py taxonomy --players 2 --games 20 \
        --spec ismcts:iterations=64,rollout=heuristic --baseline heuristic

One ISMCTS seat plays ``players - 1`` heuristic seats; game ``i`` puts it in
seat ``i % players`` (seed ``seed + i``). A tied win counts as a share; in
team games a team's win counts in full (fair share: one over the teams).
``reused_decisions`` counts the searches that started from the subtree kept
from the previous one. Prints a JSON line after every game (the running totals), so a run cut
short still reports; the last line is the result.

``--baseline SPEC`` (e.g. ``heuristic``) also plays every game again with SPEC in
the measured seat, same seed and same opponents' seeds, and reports its wins
on those deals (``baseline_wins``): the paired yardstick, cheap for a bot
that does not search. Fix the search's budget with ``iterations=`` (as above)
rather than ``seconds=`` for results that do not depend on the machine's load;
``seconds_per_search_median`` then says what that budget costs (read it on a
quiet machine).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from typing import Any

from bestiary.agents import AgentContext, make_agent
from bestiary.agents.ismcts import ISMCTSAgent
from bestiary.engine import Rng, get_game


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (ties counted as fractional wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--spec", default="ismcts:seconds=0.5")
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--baseline", default=None, help="also play SPEC in the same seat and deals")
    args = ap.parse_args()
    game = get_game(args.game)
    teams = game.teams(args.players)
    wins = 0.0
    iters: list[float] = []
    per_decision: list[float] = []
    reused = [0]
    baseline_wins = 0.0
    t0 = time.perf_counter()
    for i in range(args.games):
        me = i % args.players
        wins += play(args, game, i, me, args.spec, iters, per_decision, reused)
        if args.baseline:
            baseline_wins += play(args, game, i, me, args.baseline, [], [], [0])
        # A summary after every game, so a run cut short still reports.
        fair = 1 / (len(set(teams)) if teams else args.players)
        row = summary(args, game.default_variant, wins, i + 1, iters, per_decision, t0, fair)
        row["reused_decisions"] = reused[0]
        if args.baseline:
            lo, hi = wilson(baseline_wins, i + 1)
            row["baseline"] = args.baseline
            row["baseline_wins"] = baseline_wins
            row["baseline_wilson95"] = [round(lo, 3), round(hi, 3)]
        print(json.dumps(row), flush=True)


def play(
    args: argparse.Namespace,
    game: Any,
    i: int,
    me: int,
    spec: str,
    iters: list[float],
    per_decision: list[float],
    reused: list[int],
) -> float:
    """Game ``i`` with ``spec`` in seat ``me``: its win (a share for a tie; in
    full for each member of a winning team)."""
    teams = game.teams(args.players)
    state = game.new(args.players, seed=args.seed + i, variant=args.variant)
    state.quiet()
    bots = [
        make_agent(game, spec if s == me else args.opponent, seed=args.seed * 31 + i + s)
        for s in range(args.players)
    ]
    rngs = [Rng(args.seed * 7919 + i * 13 + s) for s in range(args.players)]
    while not state.over:
        s = state.to_act()[0]
        bot = bots[s]
        action = bot.act(AgentContext(state, s, rngs[s]))
        if isinstance(bot, ISMCTSAgent) and bot.last_seconds > 0:
            iters.append(bot.last_iterations / bot.last_seconds)
            per_decision.append(bot.last_seconds)
            reused[0] += bot.last_reused > 0
        state.apply(s, action)
    result = state.result
    assert result is not None
    if me not in result.winners:
        return 0.0
    # A team's win counts in full for each member (as in `simulate`).
    return 1.0 if teams else 1.0 / len(result.winners)


def summary(
    args: argparse.Namespace,
    default_variant: str,
    wins: float,
    games: int,
    iters: list[float],
    per_decision: list[float],
    t0: float,
    fair: float,
) -> dict[str, object]:
    lo, hi = wilson(wins, games)
    return {
        "game": args.game,
        "players": args.players,
        "variant": args.variant or default_variant,
        "spec": args.spec,
        "opponent": args.opponent,
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 3),
        "wilson95": [round(lo, 3), round(hi, 3)],
        "fair_share": round(fair, 3),
        "searched_decisions": len(iters),
        "iterations_per_s_median": round(statistics.median(iters), 1) if iters else None,
        "seconds_per_search_median": round(statistics.median(per_decision), 3)
        if per_decision
        else None,
        "wall_seconds": round(time.perf_counter() - t0, 1),
    }


if __name__ == "__main__":
    main()
