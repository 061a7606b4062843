"""The OpenSpiel utility of a finished match: zero-sum win shares.

OpenSpiel wants one number per player at the end. Ours is who wins: a
*side* (a seat, or in a team game a team, ``Game.teams``) that wins alone
gets 1, ties share, and every seat's return is its side's share minus the
table's average, scaled so that a sole winner gets exactly 1. With ``T``
sides every return lies in ``[-1/(T-1), 1]`` and the returns of a table
always sum to 0, which is what OpenSpiel's ``ZERO_SUM`` promises. A game
with no winner, a full tie, or one cut off at the step limit is 0 for all.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..engine.protocol import Result


def sides(players: int, teams: Sequence[int] | None) -> int:
    """How many sides compete: the teams, or else every seat."""
    return len(set(teams)) if teams else players


def win_shares(result: Result, players: int, teams: Sequence[int] | None) -> list[float]:
    """1 shared among the winning sides; in a team game each member of a
    winning team gets its team's share in full."""
    out = [0.0] * players
    if not result.winners:
        return out
    if teams:
        won = {teams[w] for w in result.winners}
        for seat in range(players):
            if teams[seat] in won:
                out[seat] = 1.0 / len(won)
        return out
    for w in result.winners:
        out[w] = 1.0 / len(result.winners)
    return out


def zero_sum_returns(
    result: Result | None, players: int, teams: Sequence[int] | None
) -> list[float]:
    """Each seat's share minus the average, scaled to 1 for a sole winner
    (all 0 while the match is unfinished or was cut off)."""
    if result is None:
        return [0.0] * players
    # Exact fractions, so that a return never falls outside the bounds that
    # GameInfo announces by a rounding error (OpenSpiel checks both).
    shares = [Fraction(s).limit_denominator(players) for s in win_shares(result, players, teams)]
    mean = sum(shares, Fraction(0)) / players
    # A sole winning side's share is 1 and the mean is 1/T (teams of one size):
    # scaling by T/(T-1) maps the winner to exactly 1.
    t = sides(players, teams)
    return [float((s - mean) * t / (t - 1)) for s in shares]


def utility_bounds(players: int, teams: Sequence[int] | None) -> tuple[float, float]:
    """``(min_utility, max_utility)`` for ``GameInfo``."""
    t = sides(players, teams)
    return float(Fraction(-1, t - 1)), 1.0
