"""The benchmark protocol: one agent against a fixed pool, on published seeds.

For each member of the pool (``random``, ``heuristic``, ``hard``: see
:func:`opponent_pool`) the agent plays ``games`` games. They are duplicate
play: with R placements of the agent (R = the seat count, or the number of
teams in a team game), game ``i`` is dealt with seed ``SEED + i // R``
(10,000, 10,000, 10,001, 10,001, … at two seats: the same deals against every
member) and the agent sits in seat ``i mod R``, so each deal is played once
from every seat. (Plain rotation over seeds ``SEED + i`` ties the agent's
seat to the seed's parity; on seeds from 10,000 the Taxonomy seat with the
seed's parity won 0.64 of 120 self-play games: docs/LEADERBOARD.md.)
In a team game (M.E.A.T. at 4 and 6 seats) the agent plays every seat of
its team and the pool member every other seat. The statistic is the
agent's win share against each member (a win shared by tied teams counts
1/k; a team's win counts once), with its Wilson 95% interval, and the mean
share over the pool. The full protocol is ``FULL_GAMES`` games per member;
docs/LEADERBOARD.md publishes the figures.
"""

from __future__ import annotations

import multiprocessing
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..agents.value import search_options
from ..engine.errors import BestiaryError
from ..engine.protocol import Game, Result
from ..engine.registry import get_game
from ..lab.stats import wilson
from ..sim.runner import check_seats, play_game

#: The first seed of the protocol: game i of every pairing is dealt with SEED + i.
SEED = 10_000
#: Games per pool member of the full protocol (a multiple of 2, 3, 4, 5 and 6).
FULL_GAMES = 1_200
#: The command's default: enough for a first look, minutes on a laptop.
DEFAULT_GAMES = 60
#: The search of the ``hard`` member where the game has no tuned heuristic
#: (M.E.A.T.): fixed iterations, so the benchmark does not depend on the
#: machine's speed (the server's hard level searches for a second).
HARD_SEARCH = "ismcts:iterations=256,rollout=heuristic"


def hard_spec(game: Game, players: int) -> str:
    """The ``hard`` member: the game's tuned heuristic (its value module's
    ``TUNED`` options: where the search was shown to add nothing over it), or
    else a fixed-budget search with the options the game measured best."""
    from ..agents.value import _game_modules, _load  # the value modules' finder

    for name in _game_modules(game):
        module = _load(name)
        tuned = getattr(module, "TUNED", None) if module is not None else None
        if isinstance(tuned, str) and tuned:
            return "heuristic:" + tuned.replace(";", ",")
    extra = search_options(game, players)
    if "heuristic" not in game.agents():
        return "ismcts:iterations=400" + (f",{extra}" if extra else "")
    return HARD_SEARCH + (f",{extra}" if extra else "")


def opponent_pool(game: Game, players: int) -> dict[str, str]:
    """The fixed pool, by name: its agent specs for ``game`` at ``players`` seats."""
    pool = {"random": "random"}
    if "heuristic" in game.agents():
        pool["heuristic"] = "heuristic"
    pool["hard"] = hard_spec(game, players)
    return pool


def placements(game: Game, players: int) -> int:
    """In how many ways the agent is seated: one per seat, or one per team."""
    teams = game.teams(players)
    return players if teams is None else len(set(teams))


def agent_seats(game: Game, players: int, index: int) -> list[int]:
    """The seats the agent plays in game ``index``: seat ``index mod R`` (R:
    :func:`placements`), and in a team game every seat of that seat's team."""
    first = index % placements(game, players)
    teams = game.teams(players)
    if teams is None:
        return [first]
    return [s for s in range(players) if teams[s] == teams[first]]


def deal_seed(game: Game, players: int, index: int, seed: int = SEED) -> int:
    """The seed of game ``index``: ``seed + index // R``, so every deal is played
    once with the agent in each placement (duplicate play): the luck of a deal,
    and anything that ties a seat to a seed, cancels out."""
    return seed + index // placements(game, players)


def agent_share(game: Game, result: Result, seats: Sequence[int]) -> float:
    """The agent's win in one game: 1 shared among the winning teams (a team's
    win counts once however many of its seats are listed as winners)."""
    players = len(result.scores)
    teams = game.teams(players) or list(range(players))
    winning = {teams[w] for w in result.winners}
    if not winning:
        return 0.0
    return (1.0 / len(winning)) if teams[seats[0]] in winning else 0.0


@dataclass
class Pairing:
    """The agent against one pool member."""

    name: str
    spec: str
    games: int
    wins: float
    low: float
    high: float
    seconds: float

    @property
    def share(self) -> float:
        return self.wins / max(self.games, 1)


@dataclass
class Evaluation:
    game: str
    players: int
    agent: str
    seed: int
    games: int  # per pool member
    variant: str | None
    pairings: list[Pairing] = field(default_factory=list)
    interrupted: bool = False

    @property
    def mean_share(self) -> float:
        return statistics.fmean(p.share for p in self.pairings) if self.pairings else 0.0

    @property
    def fair_share(self) -> float:
        """A seat's share if every team were equally strong: 1 / the number of teams."""
        teams = get_game(self.game).teams(self.players)
        return 1.0 / (len(set(teams)) if teams is not None else self.players)

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": {
                "seeds": f"game i: {self.seed} + i // R (R: seats, or teams in a team game)",
                "seats": "agent in seat i mod R (in a team game: every seat of team i mod R)",
                "statistic": "win share per pool member (Wilson 95%), mean over the pool",
                "full_games": FULL_GAMES,
            },
            "game": self.game,
            "players": self.players,
            "variant": self.variant,
            "agent": self.agent,
            "seed": self.seed,
            "games": self.games,
            "interrupted": self.interrupted,
            "fair_share": self.fair_share,
            "pool": {p.name: {**asdict(p), "share": p.share} for p in self.pairings},
            "mean_share": self.mean_share,
        }


def seats_of(agent: str, opponent: str, seats: Sequence[int], players: int) -> list[str]:
    return [agent if s in seats else opponent for s in range(players)]


@dataclass(frozen=True)
class _Job:
    game_id: str
    specs: tuple[str, ...]
    seed: int
    variant: str | None
    options: tuple[tuple[str, Any], ...]
    seats: tuple[int, ...]


def _play(job: _Job) -> float:
    game = get_game(job.game_id)
    try:
        outcome = play_game(
            game, job.specs, job.seed, job.variant, dict(job.options), allow_import=True
        )
    except Exception as exc:  # name the deal, so it can be played again by hand
        raise BestiaryError(
            f"game with seed {job.seed} (seats {','.join(job.specs)}) failed: "
            f"{type(exc).__name__}: {exc}"
        ) from None
    return agent_share(game, outcome.result, job.seats)


def _shares(jobs: list[_Job], workers: int) -> Iterator[float]:
    if workers <= 1:
        yield from map(_play, jobs)
        return
    pool = multiprocessing.Pool(workers)
    try:
        yield from pool.imap(_play, jobs)  # in order: the sums do not depend on workers
    finally:
        pool.terminate()
        pool.join()


def evaluate(
    game: Game,
    agent: str,
    players: int,
    games: int = DEFAULT_GAMES,
    seed: int = SEED,
    pool: Mapping[str, str] | None = None,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
    progress: Callable[[str, int], None] | None = None,
) -> Evaluation:
    """Play the protocol for ``agent`` (an agent spec; imports allowed: only
    a local caller runs this). ``pool`` replaces the fixed pool (name -> spec)
    for a quick look; the published figures use :func:`opponent_pool`.
    An interrupt stops it and returns the pairings finished so far."""
    if games < 1:
        raise BestiaryError(f"--games must be at least 1, not {games}")
    if players not in game.allowed_players():
        allowed = ", ".join(map(str, game.allowed_players()))
        raise BestiaryError(f"{game.id} is played by {allowed} players, not {players}")
    game.ruleset(variant, options)  # bad options fail before any game
    members = dict(pool) if pool is not None else opponent_pool(game, players)
    for spec in members.values():
        check_seats(game, seats_of(agent, spec, agent_seats(game, players, 0), players), True)
    result = Evaluation(game.id, players, agent, seed, games, variant or game.default_variant)
    frozen = tuple(sorted((options or {}).items()))
    try:
        for name, spec in members.items():
            t0 = time.perf_counter()
            jobs = []
            for i in range(games):
                seats = agent_seats(game, players, i)
                specs = tuple(seats_of(agent, spec, seats, players))
                jobs.append(
                    _Job(
                        game.id,
                        specs,
                        deal_seed(game, players, i, seed),
                        variant,
                        frozen,
                        tuple(seats),
                    )
                )
            wins = 0.0
            for n, share in enumerate(_shares(jobs, workers), 1):
                wins += share
                if progress:
                    progress(name, n)
            low, high = wilson(wins, games)
            result.pairings.append(
                Pairing(name, spec, games, wins, low, high, time.perf_counter() - t0)
            )
    except KeyboardInterrupt:
        result.interrupted = True
    return result
