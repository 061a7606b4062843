"""``bestiary bench``: random self-play speed, the same work as a real game.

Each repeat plays whole games for about ``seconds`` with uniformly random
legal moves (events off, as in simulation) and counts decisions. Figures
are medians over repeats; quote them, and ratios measured in one run.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping
from typing import Any

from ..engine.protocol import Game
from ..engine.rng import Rng


def selfplay_once(
    game: Game,
    players: int,
    seconds: float,
    seed: int,
    variant: str | None,
    options: Mapping[str, Any] | None,
) -> tuple[int, int, float]:
    """Play random games for ``seconds``: (decisions, games, elapsed)."""
    rng = Rng(seed)
    rand = rng.randrange
    decisions = games = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    g = seed
    while True:
        state = game.new(players, seed=g, variant=variant, options=options)
        state.quiet()
        g += 1
        while not state.over:
            seat = state.to_act()[0]
            legal = state.legal(seat)
            state.apply(seat, legal[rand(len(legal))])
            decisions += 1
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return decisions, games, now - t0


def bench_selfplay(
    game: Game,
    players: int | None = None,
    seconds: float = 1.0,
    repeats: int = 5,
    seed: int = 1,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    players = players or game.default_players
    us, gps, dpg = [], [], []
    for r in range(repeats):
        d, g, el = selfplay_once(game, players, seconds, seed + r * 100_003, variant, options)
        us.append(el / d * 1e6)
        gps.append(g / el)
        dpg.append(d / g)
    return {
        "game": game.id,
        "players": players,
        "variant": variant or game.default_variant,
        "repeats": repeats,
        "seconds_per_repeat": seconds,
        "us_per_decision": statistics.median(us),
        "games_per_second": statistics.median(gps),
        "decisions_per_game": statistics.median(dpg),
        "us_per_decision_all": us,
    }
