"""``bestiary bench``: the engine's speed on the same work as a real game.

Per game, each repeat measures:

- **self-play**: whole games for about ``seconds`` with uniformly random
  legal moves (events off, as in simulation), counting decisions
  (µs/decision, games/s);
- **clone** and **determinize** (µs each) on a few states taken from
  random self-play (seeded, so every repeat times the same states);
- **ISMCTS** iterations per second: one search (``ismcts_spec``) from each
  of those states, the deciding seat searching through its own context.

Figures are medians over repeats; quote them, and ratios measured in one
run (the machine's load moves absolute numbers).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping
from typing import Any

from ..engine.protocol import Game, State
from ..engine.rng import Rng

#: Default search for the ISMCTS figure: random playouts measure the engine
#: (determinize, clone, legal, apply), not a game's heuristic bot.
ISMCTS_SPEC = "ismcts:iterations=100,rollout_limit=50,rollout=random,value=none"
#: How many states clone, determinize and ISMCTS are timed on.
SAMPLE_STATES = 4


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


def sample_states(
    game: Game,
    players: int,
    count: int,
    seed: int,
    variant: str | None,
    options: Mapping[str, Any] | None,
) -> list[tuple[State, int]]:
    """``count`` mid-game states of random self-play, each with a seat that
    has a real choice (two or more legal moves), spread over the game."""
    rng = Rng(seed)
    out: list[tuple[State, int]] = []
    g = seed
    while len(out) < count and g < seed + 50:
        # One game's length first, then a replay stopped at a spread of points.
        path: list[tuple[int, int]] = []
        state = game.new(players, seed=g, variant=variant, options=options)
        state.quiet()
        while not state.over:
            seat = state.to_act()[0]
            legal = state.legal(seat)
            path.append((seat, rng.randrange(len(legal))))
            state.apply(seat, legal[path[-1][1]])
        want = count - len(out)
        stops = sorted({(i + 1) * len(path) // (want + 1) for i in range(want)})
        state = game.new(players, seed=g, variant=variant, options=options)
        state.quiet()
        for i, (seat, pick) in enumerate(path):
            if i in stops and len(state.legal(seat)) > 1:
                out.append((state.clone(), seat))
            state.apply(seat, state.legal(seat)[pick])
        g += 1
    return out[:count]


def time_copies(states: list[tuple[State, int]], seconds: float, seed: int) -> tuple[float, float]:
    """µs per ``clone()`` and per ``determinize()`` over ``states`` (about
    ``seconds`` each)."""
    if not states:
        return float("nan"), float("nan")
    rng = Rng(seed)
    figures = []
    for det in (False, True):
        n = 0
        t0 = time.perf_counter()
        deadline = t0 + seconds
        while True:
            for state, seat in states:
                if det:
                    state.determinize(seat, rng)
                else:
                    state.clone()
            n += len(states)
            now = time.perf_counter()
            if now >= deadline:
                figures.append((now - t0) / n * 1e6)
                break
    return figures[0], figures[1]


def time_ismcts(game: Game, states: list[tuple[State, int]], spec: str, seed: int) -> float:
    """ISMCTS iterations per second: one search from each state."""
    from ..agents.base import AgentContext, make_agent

    iterations = 0
    seconds = 0.0
    for i, (state, seat) in enumerate(states):
        agent: Any = make_agent(game, spec, seed=seed + i)
        copy = state.clone()
        agent.act(AgentContext(copy, seat, Rng(seed + i)))
        iterations += agent.last_iterations
        seconds += agent.last_seconds
    return iterations / seconds if seconds > 0 else float("nan")


def bench_selfplay(
    game: Game,
    players: int | None = None,
    seconds: float = 1.0,
    repeats: int = 5,
    seed: int = 1,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    ismcts: str | None = ISMCTS_SPEC,
) -> dict[str, Any]:
    """Every figure for one game: medians over ``repeats`` (``ismcts=None``
    skips the search figure)."""
    players = players or game.default_players
    states = sample_states(game, players, SAMPLE_STATES, seed, variant, options)
    us: list[float] = []
    gps: list[float] = []
    dpg: list[float] = []
    clone_us: list[float] = []
    det_us: list[float] = []
    its: list[float] = []
    for r in range(repeats):
        d, g, el = selfplay_once(game, players, seconds, seed + r * 100_003, variant, options)
        us.append(el / d * 1e6)
        gps.append(g / el)
        dpg.append(d / g)
        c, dt = time_copies(states, seconds / 4, seed + r)
        clone_us.append(c)
        det_us.append(dt)
        if ismcts and states:
            its.append(time_ismcts(game, states, ismcts, seed + r))
    return {
        "game": game.id,
        "players": players,
        "variant": variant or game.default_variant,
        "repeats": repeats,
        "seconds_per_repeat": seconds,
        "us_per_decision": statistics.median(us),
        "games_per_second": statistics.median(gps),
        "decisions_per_game": statistics.median(dpg),
        "clone_us": statistics.median(clone_us),
        "determinize_us": statistics.median(det_us),
        "ismcts_spec": ismcts,
        "ismcts_iterations_per_second": statistics.median(its) if its else None,
        "states_sampled": len(states),
        "us_per_decision_all": us,
    }
