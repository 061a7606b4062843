"""``bestiary arena``: agents play round robin with seats rotated; OpenSkill
ratings with their uncertainty, and win shares with Wilson intervals.

Every match-up (each set of ``players`` different agents) plays ``games``
games, game ``i`` seated by ``i`` (the seat list turns each game) and seeded
from its own block of seeds, so a match-up's games are the same whichever
other agents take part. The ratings are updated in game order (Plackett-Luce:
sides ranked by winning first, then by score), so they are deterministic too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import pyarrow as pa

from ..engine.errors import BadInput
from ..engine.registry import get_game
from ..i18n import N_, core
from . import html as h
from . import plots
from .metrics import Metric, proportion, win_shares
from .report import report_sections
from .runs import RunConfig, play_rows, rows_table
from .stats import wilson

SEED_BLOCK = 1_000_000  # seeds per match-up: match-up m plays seeds seed + m*SEED_BLOCK + i

_ = core.gettext


@dataclass(frozen=True)
class Rating:
    agent: str
    mu: float
    sigma: float
    games: int
    wins: float

    @property
    def ordinal(self) -> float:
        """A conservative skill (mu - 3 sigma), what the leaderboard sorts by."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.games)
        return {
            "agent": self.agent,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
            "low": self.mu - 2 * self.sigma,
            "high": self.mu + 2 * self.sigma,
            "games": self.games,
            "win_share": self.wins / max(self.games, 1),
            "win_low": low,
            "win_high": high,
        }


def matchups(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    if len(set(agents)) != len(agents):
        raise BadInput("--agents lists an agent twice; list each agent once")
    if len(agents) < max(players, 2):
        raise BadInput(f"{players}-player games need at least {max(players, 2)} agents")
    return list(combinations(agents, players))


def run_arena(
    game_id: str,
    agents: Sequence[str],
    games: int,
    *,
    players: int | None = None,
    seed: int = 0,
    variant: str = "",
    options: dict[str, Any] | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
    allow_import: bool = False,
) -> pa.Table:
    game = get_game(game_id)
    n = players or min(p for p in game.allowed_players() if p >= 2)
    if n not in game.allowed_players():
        allowed = ", ".join(map(str, game.allowed_players()))
        raise BadInput(f"{game_id} is played by {allowed} players, not {n}")
    if games < 1:
        raise BadInput("--games must be at least 1")
    rows: list[dict[str, Any]] = []
    base = RunConfig(game_id, tuple(agents), seed, variant, dict(options or {}), rotate=True)
    for m, seats in enumerate(matchups(agents, n)):
        cfg = RunConfig(game_id, seats, seed + m * SEED_BLOCK, variant, dict(options or {}), True)
        for batch in play_rows(
            cfg,
            range(games),
            workers=workers,
            backend=backend,
            address=address,
            allow_import=allow_import,
        ):
            for r in batch:
                r["index"] += m * games  # unique within the arena's table
            rows.extend(batch)
            if progress:
                progress(len(batch))
    return rows_table(base, rows)


def _ranks(row: dict[str, Any], teams: list[int]) -> tuple[list[int], list[list[int]]]:
    sides: dict[int, list[int]] = defaultdict(list)
    for s in range(row["players"]):
        sides[teams[s]].append(s)
    order = sorted(sides)
    keys = [
        (
            0 if any(s in row["winners"] for s in sides[t]) else 1,
            -max(row["scores"][s] for s in sides[t]),
        )
        for t in order
    ]
    distinct = sorted(set(keys))
    return [distinct.index(k) + 1 for k in keys], [sides[t] for t in order]


def ratings(table: pa.Table) -> list[Rating]:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[str, Any] = {}
    games: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    rows = [r for r in table.to_pylist() if r["error"] is None]
    teams_of: dict[int, list[int]] = {}
    for r in sorted(rows, key=lambda r: r["index"]):
        p = r["players"]
        if p not in teams_of:
            teams_of[p] = get_game(r["game"]).teams(p) or list(range(p))
        ranks, sides = _ranks(r, teams_of[p])
        for s, share in enumerate(win_shares(r, teams_of[p])):
            games[r["seats"][s]] += 1
            wins[r["seats"][s]] += share
        teams = [
            [current.setdefault(r["seats"][s], model.rating(name=r["seats"][s])) for s in seats]
            for seats in sides
        ]
        if len(set(ranks)) == 1:
            continue  # everyone tied: nothing to learn, and OpenSkill would only shrink sigma
        rated = model.rate(teams, ranks=[float(k) for k in ranks])
        for seats, team in zip(sides, rated, strict=True):
            for s, rating in zip(seats, team, strict=True):
                current[r["seats"][s]] = rating
    out = [Rating(a, float(x.mu), float(x.sigma), games[a], wins[a]) for a, x in current.items()]
    return sorted(out, key=lambda r: (-r.ordinal, r.agent))


def pairwise(table: pa.Table) -> list[Metric]:
    """Two-player arenas: the first agent's win share against the second (ties split)."""
    won: dict[tuple[str, str], float] = defaultdict(float)
    met: dict[tuple[str, str], int] = defaultdict(int)
    for r in table.to_pylist():
        if r["error"] is not None or r["players"] != 2:
            continue
        a, b = sorted(r["seats"])
        met[(a, b)] += 1
        won[(a, b)] += win_shares(r, [0, 1])[r["seats"].index(a)]
    return [
        proportion(
            f"pair:{a}:{b}",
            N_("{a} beats {b}"),
            "arena",
            won[(a, b)],
            met[(a, b)],
            args={"a": a, "b": b},
        )
        for a, b in sorted(met)
    ]


def arena_json(table: pa.Table) -> dict[str, Any]:
    return {
        "ratings": [r.to_json() for r in ratings(table)],
        "pairs": {m.label: m.to_json() for m in pairwise(table)},
        "games": table.num_rows,
    }


def arena_html(table: pa.Table, title: str) -> str:
    rs = ratings(table)
    rows = []
    for r in rs:
        j = r.to_json()
        rows.append(
            (
                r.agent,
                f"{r.mu:.2f} ± {2 * r.sigma:.2f}",
                f"{r.ordinal:.2f}",
                r.games,
                f"{j['win_share']:.1%} [{j['win_low']:.1%}, {j['win_high']:.1%}]",
            )
        )
    header = [
        _("agent"),
        _("skill μ ± 2σ"),
        _("ordinal μ-3σ"),
        _("seat-games"),
        _("win share [95%]"),
    ]
    uri = plots.proportions(
        [proportion(r.agent, r.agent, "arena", r.wins, r.games) for r in rs],
        _("win share by agent (95% Wilson)"),
    )
    parts = [
        h.section(
            "ratings",
            _("Ratings (OpenSkill, Plackett-Luce)"),
            [h.table(header, rows), h.img(uri, _("arena win shares"))],
        )
    ]
    pairs = pairwise(table)
    if pairs:
        parts.append(
            h.section(
                "pairs",
                _("Head to head"),
                [
                    h.img(
                        plots.proportions(pairs, _("head to head (95% Wilson)"), 0.5),
                        _("head to head"),
                    ),
                ],
            )
        )
    return h.page(title, parts + report_sections(table))
