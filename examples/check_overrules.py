"""Where a search overrules its guide, is it right? Judged by whole games.

Plays heuristic self-play (two seats, seeds from ``--seed``) and, at every
``--every``-th decision with a choice, asks the search (``--spec``) for its
move. Where that move is not the guide's (the heuristic's own for the same
position), both moves are played out to the end of the game from the same
samples (a determinization of the seat's view each, both moves on every
sample, the heuristic reseeded alike: common random numbers), ``--samples``
times, by the game's heuristic with ``--truth`` options for every seat. It
prints, per overrule, the two moves, the mean paired difference of the
seat's win (search's move minus guide's) and its standard error, then the
mean over all overrules.

    nice -n 12 python examples/check_overrules.py taxonomy --positions 12 --samples 150 \\
        --spec "ismcts:iterations=256,rollout=heuristic,playout=lite=1,root=paired,leave=rps"

Much cheaper than whole games against the heuristic (a position costs a few
CPU seconds), it says whether the search's own model of the game (short
playouts by a cheaper bot, then the game's estimate) prefers what the whole
game does. The truth is the heuristic's play after the move, so it measures
a move against the heuristic as an opponent, as the strength runs do.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from bestiary.agents import AgentContext, make_agent
from bestiary.agents.ismcts import ISMCTSAgent
from bestiary.agents.paired import paired_search
from bestiary.agents.rollout import BotRollout, bot_factory, parse_options, play_out
from bestiary.engine import Rng, get_game
from bestiary.engine.protocol import State


def judge(
    state: State, seat: int, moves: list[Any], guide: str, truth: dict[str, str], samples: int
) -> tuple[float, float]:
    """Mean and standard error of (first move's win − guide's) over paired samples."""
    policy = BotRollout(bot_factory(state, "heuristic"), state.players, Rng(7), 0.0, truth)

    def whole_game(sample: State, seed: int) -> list[float]:
        policy.reseed(seed)
        return play_out(sample, policy, None, 0, 100_000)[0]

    ctx = AgentContext(state.clone(), seat, Rng(99))
    found = paired_search(
        moves, seat, ctx.determinize, whole_game, Rng(3), 2 * samples, math.inf, guide, 0.0
    )
    other = next(str(m) for m in moves if str(m) != guide)
    diffs = [found.rewards[other][i] - found.rewards[guide][i] for i in found.rewards[other]]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)
    return mean, math.sqrt(var / n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("game")
    ap.add_argument("--spec", required=True, help="the search to check (an ismcts spec)")
    ap.add_argument("--truth", default="", help="heuristic options for the judging playouts (a;b)")
    ap.add_argument("--positions", type=int, default=12, help="overrules to judge")
    ap.add_argument("--samples", type=int, default=100, help="paired samples per overrule")
    ap.add_argument("--every", type=int, default=7, help="ask the search at every N-th decision")
    ap.add_argument("--seed", type=int, default=500)
    args = ap.parse_args()
    game = get_game(args.game)
    truth = parse_options(args.truth)
    judged: list[float] = []
    g = 0
    while len(judged) < args.positions and g < 200:
        state = game.new(2, seed=args.seed + g)
        state.quiet()
        bots = [make_agent(game, "heuristic", seed=s) for s in range(2)]
        rng = Rng(args.seed + g)
        g += 1
        k = 0
        while not state.over and len(judged) < args.positions:
            seat = state.to_act()[0]
            legal = list(state.legal(seat))
            k += 1
            if len(legal) > 1 and k % args.every == 0:
                search = make_agent(game, args.spec, seed=k)
                assert isinstance(search, ISMCTSAgent)
                move = str(search.act(AgentContext(state.clone(), seat, Rng(k))))
                guide = search.last_guide
                if guide is not None and move != guide:
                    pair = [m for m in legal if str(m) in (move, guide)]
                    mean, se = judge(state, seat, pair, guide, truth, args.samples)
                    judged.append(mean)
                    print(
                        json.dumps(
                            {
                                "search": move,
                                "guide": guide,
                                "advantage": round(mean, 4),
                                "se": round(se, 4),
                            }
                        ),
                        flush=True,
                    )
            state.apply(seat, bots[seat].act(AgentContext(state, seat, rng)))
    ahead = sum(m > 0 for m in judged)
    mean = sum(judged) / len(judged) if judged else 0.0
    print(
        json.dumps(
            {"overrules": len(judged), "search_ahead": ahead, "mean_advantage": round(mean, 4)}
        )
    )


if __name__ == "__main__":
    main()
