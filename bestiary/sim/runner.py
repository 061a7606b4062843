"""Play whole matches between agents, one or many, and sum up the results."""

from __future__ import annotations

import gc
import multiprocessing
import signal
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..agents.base import AgentContext, make_agent
from ..engine.errors import BadAgentSpec, BestiaryError
from ..engine.protocol import Game, Result
from ..engine.record import Match, MatchRecord
from ..engine.registry import get_game
from ..engine.rng import Rng
from .pool import stream


@dataclass
class LabData:
    """What the lab reads of a match besides its result (``play_game(lab=True)``)."""

    branching: float  # mean legal actions per decision (Ludii's branching factor)
    stats: dict[str, Any]  # the game's lab statistics (Game.lab_tracker)
    items: list[dict[str, Any]]  # card-level rows: kind, name, seat, value
    running: list[list[float]]  # every seat's score after each round ([] if none)


@dataclass
class Outcome:
    result: Result
    decisions: int
    seats: list[str]
    record: MatchRecord | None = None
    lab: LabData | None = None


def check_seats(game: Game, specs: Sequence[str], allow_import: bool = False) -> None:
    """Fail early (before any game runs) on a bad seat list or agent spec."""
    if len(specs) not in game.allowed_players():
        raise BestiaryError(
            f"{game.id} needs {', '.join(map(str, game.allowed_players()))} seats; "
            f"got {len(specs)} ({','.join(specs)})"
        )
    for s in specs:
        if s == "human":
            raise BadAgentSpec("simulations have no human seats; use bot specs such as random")
        make_agent(game, s, 0, allow_import=allow_import)


def play_game(
    game: Game,
    specs: Sequence[str],
    seed: int,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    record: bool = False,
    max_decisions: int = 1_000_000,
    allow_import: bool = False,
    lab: bool = False,
) -> Outcome:
    """One match between the agents ``specs`` (one per seat).

    ``lab``: also count the legal actions of every decision and run the
    game's :class:`~bestiary.engine.protocol.LabTracker` (``Outcome.lab``)."""
    players = len(specs)
    match = Match.start(
        game, players, seed=seed, variant=variant, options=options, seats=list(specs)
    )
    state = match.state
    tracker = game.lab_tracker(state) if lab else None
    if not record and not (tracker is not None and tracker.events):
        state.quiet()
    step = tracker.step if tracker is not None and tracker.watches else None
    choices = 0
    agents = [
        make_agent(game, spec, seed * 1009 + i + 1, allow_import=allow_import)
        for i, spec in enumerate(specs)
    ]
    rngs = [Rng(seed * 7919 + i + 13) for i in range(players)]
    decisions = 0
    apply = match.apply if record else state.apply
    while not state.over:
        seats = state.to_act()
        if not seats:
            raise BestiaryError(f"{game.id}: no seat to act but the game is not over")
        seat = seats[0]
        if lab:
            choices += len(state.legal(seat))
        action = agents[seat].act(AgentContext(state, seat, rngs[seat]))
        apply(seat, action)
        if step is not None:
            step(state, seat, action)
        decisions += 1
        if decisions > max_decisions:
            raise BestiaryError(f"{game.id}: no end after {max_decisions} decisions (seed {seed})")
    result = state.result
    assert result is not None
    data = None
    if tracker is not None:
        data = LabData(
            choices / max(decisions, 1),
            tracker.stats(state),
            tracker.items(state),
            tracker.running(state),
        )
    return Outcome(result, decisions, list(specs), match.record if record else None, data)


@dataclass(frozen=True)
class Played:
    """One finished game of a run: its offset from the run's first seed, and its outcome."""

    index: int
    result: Result
    decisions: int
    seats: list[str]


@dataclass(frozen=True)
class GameFailure:
    """A game that raised instead of finishing: enough to play it again by hand."""

    index: int
    seed: int
    seats: list[str]
    error: str

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "seats": self.seats, "error": self.error}

    def describe(self, game_id: str) -> str:
        seats = ",".join(self.seats)
        return (
            f"game with seed {self.seed} (seats {seats}) failed: {self.error}; "
            f"play it again with: bestiary play {game_id} --seed {self.seed} --seats {seats}"
        )


class GameFailed(BestiaryError):
    """A game of a run failed and the run was not told to keep going."""

    def __init__(self, game_id: str, failure: GameFailure, summary: Summary) -> None:
        self.failure, self.summary = failure, summary
        super().__init__(
            failure.describe(game_id) + " (--keep-going plays the other games and reports them)"
        )


Run = Played | GameFailure


@dataclass
class Summary:
    game: str
    games: int
    seats: list[str]
    # Per seat position. A win shared by several seats (a tie) is split between
    # them; a team's win counts in full for each member (Game.teams). With
    # ``rotate`` the agents change seats every game, so these say nothing about
    # any one agent: read the per-agent figures.
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
    agent_mean_scores: dict[str, float] = field(default_factory=dict)
    failures: list[GameFailure] = field(default_factory=list)
    interrupted: bool = False
    requested: int = 0  # games asked for (more than ``games`` after an interrupt or failures)

    def win_rates(self) -> list[float]:
        return [w / max(self.games, 1) for w in self.wins]

    def agent_win_rates(self) -> dict[str, float]:
        """Wins per game played, per agent spec."""
        return {a: self.agent_wins[a] / max(self.agent_seats.get(a, 0), 1) for a in self.agent_wins}

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "requested": self.requested or self.games,
            "interrupted": self.interrupted,
            "failures": [f.to_json() for f in self.failures],
            "seed": self.seed,
            "seats": self.seats,
            "rotate": self.rotate,
            "wins": self.wins,
            "win_rates": self.win_rates(),
            "mean_scores": self.mean_scores,
            "agents": {
                a: {
                    "seat_games": self.agent_seats.get(a, 0),
                    "wins": self.agent_wins[a],
                    "win_rate": self.agent_win_rates()[a],
                    "mean_score": self.agent_mean_scores.get(a, 0.0),
                }
                for a in self.agent_wins
            },
            "decisions": self.decisions,
            "stats": self.stats,
            "seconds": self.seconds,
        }


def seats_for(specs: Sequence[str], offset: int, rotate: bool) -> list[str]:
    """The seat list of the run's game number ``offset`` (counted from its first seed),
    so every process and every worker count seats the same agents in the same game."""
    if not rotate:
        return list(specs)
    k = offset % len(specs)
    return list(specs[k:]) + list(specs[:k])


@dataclass(frozen=True)
class RunPlan:
    """Everything a worker process needs to play its share of a run (picklable)."""

    game_id: str
    specs: tuple[str, ...]
    seed: int
    variant: str | None
    options: dict[str, Any]
    rotate: bool
    allow_import: bool
    keep_going: bool


def play_one(game: Game, plan: RunPlan, offset: int) -> Run:
    """Game ``offset`` of the run; any exception becomes a :class:`GameFailure`."""
    seats = seats_for(plan.specs, offset, plan.rotate)
    seed = plan.seed + offset
    try:
        o = play_game(game, seats, seed, plan.variant, plan.options, allow_import=plan.allow_import)
    except Exception as exc:  # a bug in one game or agent must not lose the others
        return GameFailure(offset, seed, seats, f"{type(exc).__name__}: {exc}")
    return Played(offset, o.result, o.decisions, seats)


def _play_chunk(job: tuple[RunPlan, int, int]) -> list[Run]:
    plan, start, count = job
    game = get_game(plan.game_id)
    out: list[Run] = []
    for offset in range(start, start + count):
        run = play_one(game, plan, offset)
        out.append(run)
        if isinstance(run, GameFailure) and not plan.keep_going:
            break
    return out


def _worker_init() -> None:
    # Ctrl-C reaches the whole process group: the parent alone decides what
    # happens (it stops the pool), so the workers print no traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


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
    *,
    keep_going: bool = False,
    allow_import: bool = False,
) -> Summary:
    """Play ``games`` matches (game i uses seed ``seed + i``) and sum them up.

    With ``rotate`` the seat list turns by one each game, so every agent
    sits in every position equally often. The results do not depend on
    ``workers``. An interrupt (KeyboardInterrupt) stops the run and returns
    the games finished so far, marked ``interrupted``. A game that raises
    stops the run with :class:`GameFailed` (naming its seed, seats and
    error), or with ``keep_going`` is listed in ``failures`` and skipped.
    """
    check_seats(game, specs, allow_import)
    game.ruleset(variant, options)  # fail early on bad options
    plan = RunPlan(
        game.id, tuple(specs), seed, variant, dict(options or {}), rotate, allow_import, keep_going
    )
    t0 = time.perf_counter()
    runs: list[Run] = []
    interrupted = False
    try:
        if workers <= 1:
            _run_here(game, plan, games, runs, progress)
        else:
            _run_in_pool(plan, games, workers, runs, progress)
    except KeyboardInterrupt:
        interrupted = True
    runs.sort(key=lambda r: r.index)  # workers finish in any order; sums must not
    played = [r for r in runs if isinstance(r, Played)]
    failures = [r for r in runs if isinstance(r, GameFailure)]
    summary = summarize(
        game.id, specs, played, time.perf_counter() - t0, seed, rotate, game.teams(len(specs))
    )
    summary.failures, summary.interrupted, summary.requested = failures, interrupted, games
    if failures and not keep_going:
        raise GameFailed(game.id, failures[0], summary)
    return summary


def _stop_at(run: Run, plan: RunPlan) -> bool:
    return isinstance(run, GameFailure) and not plan.keep_going


def _run_here(
    game: Game,
    plan: RunPlan,
    games: int,
    runs: list[Run],
    progress: Callable[[int], None] | None,
) -> None:
    for offset in range(games):
        run = play_one(game, plan, offset)
        runs.append(run)
        if _stop_at(run, plan):
            return
        if progress:
            progress(1)


def _run_in_pool(
    plan: RunPlan,
    games: int,
    workers: int,
    runs: list[Run],
    progress: Callable[[int], None] | None,
) -> None:
    # Small chunks keep every worker busy to the end and lose little to an
    # interrupt; what goes back is small (a Played per game: its result, about
    # 270 bytes and 30 µs pickled both ways against 50-600 ms of play), so
    # chunks larger than 4 gain nothing (issue 31).
    size = max(1, min(4, games // (workers * 8) or 1))
    jobs = ((plan, start, min(size, games - start)) for start in range(0, games, size))
    # Forked workers share the parent's objects page by page until they write
    # to them; the garbage collector's passes write to every tracked object.
    # Frozen, the parent's objects are left alone (no copy per worker).
    gc.freeze()
    pool = multiprocessing.Pool(workers, initializer=_worker_init)
    try:
        for chunk in stream(pool, _play_chunk, jobs, window=workers * 4):
            runs.extend(chunk)
            if any(_stop_at(r, plan) for r in chunk):
                return
            if progress:
                progress(len(chunk))
    finally:
        # terminate, not close: after an interrupt or a failure nobody waits
        # for the games still running.
        pool.terminate()
        pool.join()
        gc.unfreeze()


def summarize(
    game_id: str,
    specs: Sequence[str],
    outcomes: Sequence[Played | tuple[Result, int, list[str]]],
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
    agent_scores: dict[str, float] = {s: 0.0 for s in specs}
    agent_seats: Counter[str] = Counter()
    decisions = []
    stats_rows = []
    for played in outcomes:
        result, dec, seats = (
            (played.result, played.decisions, played.seats)
            if isinstance(played, Played)
            else played
        )
        decisions.append(dec)
        stats_rows.append(result.stats)
        for s in range(n):
            score_sums[s] += result.scores[s]
            agent_scores[seats[s]] += result.scores[s]
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
        agent_mean_scores={a: agent_scores[a] / max(agent_seats[a], 1) for a in agent_scores},
        decisions={
            "mean": statistics.fmean(decisions) if decisions else 0.0,
            "median": statistics.median(decisions) if decisions else 0.0,
            "max": max(decisions) if decisions else 0,
        },
        stats=aggregate_stats(stats_rows),
        seconds=seconds,
        seed=seed,
        rotate=rotate,
        requested=len(outcomes),
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
