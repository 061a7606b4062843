"""How well a game's value estimate predicts the winner, and the scale it should have.

    python -m bestiary.agents.fit_value monster-maker --players 2 --games 100

Plays heuristic self-play games (seeds ``seed`` … ``seed + games - 1``) and, at
every ``every``-th decision, asks the game's ``value_estimate`` (see
:mod:`bestiary.agents.value`) about the true position — fitting is offline
work on finished games, not a bot's decision, so it may read the real state.
Each sample is then scored against who went on to win: the log loss of the
winners under the estimate, and under the estimate sharpened or flattened by
a factor ``k`` (chances ``∝ p_i ** k``, exactly a softmax's scale divided by
``k``; for a two-team logistic, its scale divided by ``k``). The best ``k`` per
stage (a game's ``value_stage(state)``, if its value module has one, e.g. the
rounds still to play; else one stage) is found on four games in five and
judged on the fifth. ``k`` near 1: the scale is right; below 1: the estimate is
overconfident (divide the game's scale by ``k``). Prints one JSON line per stage.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from collections.abc import Sequence

from ..engine import Rng, get_game
from .base import make_agent
from .context import AgentContext
from .value import find_value

#: The factors tried: 0.05 … 5, evenly on a log scale.
GRID = [math.exp(math.log(0.05) + i * (math.log(100.0) / 60)) for i in range(61)]

Sample = tuple[list[float], list[int]]  # log chances per seat, winners


def winner_loss(logs: Sequence[float], winners: Sequence[int], k: float) -> float:
    """Mean negative log chance of the winners under chances ∝ exp(k · logs)."""
    top = max(k * x for x in logs)
    norm = top + math.log(sum(math.exp(k * x - top) for x in logs))
    return -sum(k * logs[w] - norm for w in winners) / len(winners)


def collect(
    game_id: str, players: int, games: int, seed: int, every: int, variant: str | None
) -> dict[int, list[tuple[int, Sample]]]:
    """stage -> [(game number, (log chances, winners))] from heuristic self-play."""
    game = get_game(game_id)
    out: dict[int, list[tuple[int, Sample]]] = defaultdict(list)
    for g in range(games):
        state = game.new(players, seed=seed + g, variant=variant)
        state.quiet()
        found = find_value(state)
        if found is None:
            raise SystemExit(f"{game_id} has no value estimate")
        module = __import__(found.estimate.__module__, fromlist=["_"])
        stage_of = getattr(module, "value_stage", None)
        bots = [make_agent(game, "heuristic", seed=seed + g * 7 + s) for s in range(players)]
        rngs = [Rng(seed + g * 13 + s) for s in range(players)]
        seen: list[tuple[int, list[float]]] = []
        step = 0
        while not state.over:
            seat = state.to_act()[0]
            if step % every == 0:
                chances = found.estimate(state)
                stage = int(stage_of(state)) if callable(stage_of) else 0
                seen.append((stage, [math.log(max(float(p), 1e-9)) for p in chances]))
            step += 1
            state.apply(seat, bots[seat].act(AgentContext(state, seat, rngs[seat])))
        result = state.result
        if result is None or not result.winners:
            continue
        for stage, logs in seen:
            out[stage].append((g, (logs, list(result.winners))))
    return out


def fit(samples: list[tuple[int, Sample]]) -> dict[str, float]:
    """The best factor on games not divisible by 5, and the held-out losses."""
    train = [s for g, s in samples if g % 5]
    test = [s for g, s in samples if g % 5 == 0] or train

    def loss(data: list[Sample], k: float) -> float:
        return sum(winner_loss(lg, w, k) for lg, w in data) / max(len(data), 1)

    best = min(GRID, key=lambda k: loss(train, k))
    seats = len(samples[0][1][0])
    return {
        "samples": len(samples),
        "best_k": round(best, 3),
        "heldout_loss_k1": round(loss(test, 1.0), 4),
        "heldout_loss_best": round(loss(test, best), 4),
        "heldout_loss_uniform": round(math.log(seats), 4),
    }


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=70000)
    ap.add_argument("--every", type=int, default=3, help="sample every N-th decision")
    ap.add_argument("--variant", default=None)
    args = ap.parse_args(argv)
    data = collect(args.game, args.players, args.games, args.seed, args.every, args.variant)
    for stage in sorted(data):
        row = {"game": args.game, "players": args.players, "stage": stage}
        row.update(fit(data[stage]))
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
