"""Play whole matches between agents, one or many, and sum up the results."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..agents.base import AgentContext, make_agent
from ..engine.errors import BadAgentSpec, BestiaryError
from ..engine.protocol import Game, Result
from ..engine.record import Match, MatchRecord
from ..engine.registry import get_game
from ..engine.rng import Rng


@dataclass
class Outcome:
    result: Result
    decisions: int
    seats: list[str]
    record: MatchRecord | None = None


def check_seats(game: Game, specs: Sequence[str]) -> None:
    """Fail early (before any game runs) on a bad seat list or agent spec."""
    if len(specs) not in game.allowed_players():
        raise BestiaryError(
            f"{game.id} needs {', '.join(map(str, game.allowed_players()))} seats; "
            f"got {len(specs)} ({','.join(specs)})"
        )
    for s in specs:
        if s == "human":
            raise BadAgentSpec("simulations have no human seats; use bot specs such as random")
        make_agent(game, s, 0)


def play_game(
    game: Game,
    specs: Sequence[str],
    seed: int,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    record: bool = False,
    max_decisions: int = 1_000_000,
) -> Outcome:
    """One match between the agents ``specs`` (one per seat)."""
    players = len(specs)
    match = Match.start(
        game, players, seed=seed, variant=variant, options=options, seats=list(specs)
    )
    state = match.state
    if not record:
        state.quiet()
    agents = [make_agent(game, spec, seed * 1009 + i + 1) for i, spec in enumerate(specs)]
    rngs = [Rng(seed * 7919 + i + 13) for i in range(players)]
    decisions = 0
    apply = match.apply if record else state.apply
    while not state.over:
        seats = state.to_act()
        if not seats:
            raise BestiaryError(f"{game.id}: no seat to act but the game is not over")
        seat = seats[0]
        action = agents[seat].act(AgentContext(state, seat, rngs[seat]))
        apply(seat, action)
        decisions += 1
        if decisions > max_decisions:
            raise BestiaryError(f"{game.id}: no end after {max_decisions} decisions (seed {seed})")
    result = state.result
    assert result is not None
    return Outcome(result, decisions, list(specs), match.record if record else None)


@dataclass
class Summary:
    game: str
    games: int
    seats: list[str]
    # Per seat. A win shared by several seats (a tie) is split between them;
    # a team's win counts in full for each member (Game.teams).
    wins: list[float]
    mean_scores: list[float]
    agent_wins: dict[str, float]  # per agent spec, the same
    agent_seats: dict[str, int]  # how many seat-games each spec played
    decisions: dict[str, float]
    stats: dict[str, Any]
    seconds: float
    seed: int
    rotate: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def win_rates(self) -> list[float]:
        return [w / self.games for w in self.wins]

    def agent_win_rates(self) -> dict[str, float]:
        """Wins per game played, per agent spec."""
        return {a: self.agent_wins[a] / max(self.agent_seats[a], 1) for a in self.agent_wins}

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "seats": self.seats,
            "rotate": self.rotate,
            "wins": self.wins,
            "win_rates": self.win_rates(),
            "mean_scores": self.mean_scores,
            "agents": {
                a: {
                    "seat_games": self.agent_seats[a],
                    "wins": self.agent_wins[a],
                    "win_rate": self.agent_win_rates()[a],
                }
                for a in self.agent_wins
            },
            "decisions": self.decisions,
            "stats": self.stats,
            "seconds": self.seconds,
        }


def _seats_for(specs: Sequence[str], i: int, rotate: bool) -> list[str]:
    if not rotate:
        return list(specs)
    k = i % len(specs)
    return list(specs[k:]) + list(specs[:k])


def _chunk(
    args: tuple[str, list[str], int, int, str | None, dict[str, Any], bool],
) -> list[tuple[Result, int, list[str]]]:
    game_id, specs, start, count, variant, options, rotate = args
    game = get_game(game_id)
    out = []
    for i in range(start, start + count):
        seats = _seats_for(specs, i, rotate)
        o = play_game(game, seats, i, variant, options)
        out.append((o.result, o.decisions, seats))
    return out


def simulate(
    game: Game,
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    rotate: bool = False,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` matches (game i uses seed ``seed + i``) and sum them up.

    With ``rotate`` the seat list turns by one each game, so every agent
    sits in every position equally often.
    """
    check_seats(game, specs)
    game.ruleset(variant, options)  # fail early on bad options
    opts = dict(options or {})
    t0 = time.perf_counter()
    outcomes: list[tuple[Result, int, list[str]]] = []
    if workers <= 1:
        for i in range(seed, seed + games):
            seats = _seats_for(specs, i - seed, rotate)
            o = play_game(game, seats, i, variant, opts)
            outcomes.append((o.result, o.decisions, seats))
            if progress:
                progress(1)
    else:
        size = max(1, min(200, games // (workers * 4) or 1))
        jobs = [
            (game.id, list(specs), s, min(size, seed + games - s), variant, opts, rotate)
            for s in range(seed, seed + games, size)
        ]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for chunk in pool.map(_chunk, jobs):
                outcomes.extend(chunk)
                if progress:
                    progress(len(chunk))
    return summarize(
        game.id, specs, outcomes, time.perf_counter() - t0, seed, rotate, game.teams(len(specs))
    )


def summarize(
    game_id: str,
    specs: Sequence[str],
    outcomes: Sequence[tuple[Result, int, list[str]]],
    seconds: float,
    seed: int,
    rotate: bool,
    teams: Sequence[int] | None = None,
) -> Summary:
    n = len(specs)
    team = list(teams) if teams is not None else list(range(n))
    wins = [0.0] * n
    score_sums = [0.0] * n
    agent_wins: dict[str, float] = {s: 0.0 for s in specs}
    agent_seats: Counter[str] = Counter()
    decisions = []
    stats_rows = []
    for result, dec, seats in outcomes:
        decisions.append(dec)
        stats_rows.append(result.stats)
        for s in range(n):
            score_sums[s] += result.scores[s]
            agent_seats[seats[s]] += 1
        winning_teams = {team[w] for w in result.winners}
        for w in result.winners:
            share = 1.0 / len(winning_teams)
            wins[w] += share
            agent_wins[seats[w]] += share
    g = max(len(outcomes), 1)
    return Summary(
        game=game_id,
        games=len(outcomes),
        seats=list(specs),
        wins=wins,
        mean_scores=[s / g for s in score_sums],
        agent_wins=agent_wins,
        agent_seats=dict(agent_seats),
        decisions={
            "mean": statistics.fmean(decisions) if decisions else 0.0,
            "median": statistics.median(decisions) if decisions else 0.0,
            "max": max(decisions) if decisions else 0,
        },
        stats=aggregate_stats(stats_rows),
        seconds=seconds,
        seed=seed,
        rotate=rotate,
    )


def aggregate_stats(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Numbers -> mean/median/min/max; strings -> counts; lists -> flattened first."""
    values: dict[str, list[Any]] = {}
    for row in rows:
        for k, v in row.items():
            bucket = values.setdefault(k, [])
            if isinstance(v, (list, tuple)):
                bucket.extend(v)
            else:
                bucket.append(v)
    out: dict[str, Any] = {}
    for k, vs in values.items():
        nums = [v for v in vs if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if vs and len(nums) == len(vs):
            out[k] = {
                "mean": statistics.fmean(nums),
                "median": statistics.median(nums),
                "min": min(nums),
                "max": max(nums),
                "n": len(nums),
            }
        else:
            out[k] = dict(Counter(str(v) for v in vs).most_common())
    return out
