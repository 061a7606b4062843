"""One finished game -> one row of :data:`bestiary.lab.schema.ROW`.

The games report their own statistics: ``Result.stats`` and the lab's
tracker (``Game.lab_tracker``, each game's ``stats.py``: more statistics,
card-level items and running scores). This module only reads the names each
game uses for its length, fills in whether an item's side won, and turns
running scores into Ludii's lead changes. A game missing from :data:`LENGTH`
gets null turns/rounds: a new game works in the lab without an edit here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.protocol import Result
from ..sim.runner import LabData

# game id -> (stat that counts turns, stat that counts rounds)
LENGTH: dict[str, tuple[str | None, str | None]] = {
    "taxonomy": (None, "rounds"),
    "monster-maker": ("turns", "dungeons"),
    "meat": (None, "rounds"),
    "teratozoic": (None, "generations"),
}


def _int(stats: Mapping[str, Any], key: str | None) -> int | None:
    if key is None:
        return None
    v = stats.get(key)
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _turns(game_id: str, stats: Mapping[str, Any]) -> int | None:
    turns_key, _ = LENGTH.get(game_id, (None, None))
    if game_id == "taxonomy":
        # taxonomy reports the mean turns per round; the total is what a designer reads
        rounds, per = stats.get("rounds"), stats.get("round_length")
        if isinstance(rounds, (int, float)) and isinstance(per, (int, float)):
            return round(rounds * per)
    return _int(stats, turns_key)


def _leaders(scores: Sequence[float], teams: Sequence[int]) -> int | None:
    """The side alone in the lead, or None when sides tie for it."""
    best: dict[int, float] = {}
    for s, x in enumerate(scores):
        best[teams[s]] = max(best.get(teams[s], x), x)
    top = max(best.values())
    leading = [t for t, x in best.items() if x == top]
    return leading[0] if len(leading) == 1 else None


def lead_changes(
    running: Sequence[Sequence[float]], teams: Sequence[int], winners: Sequence[int]
) -> tuple[int | None, int | None]:
    """(lead changes, decided round) from every seat's score after each round.

    A lead change is a round after which a different side is alone in the
    lead than the last side that was (a tied lead changes nothing). The
    decided round (1-based) is the first after which the game's single
    winning side led alone in every later round: Ludii's "decisiveness"
    asks how early the winner is clear. None without running scores (and
    the decided round without a single winning side).
    """
    if not running:
        return None, None
    changes, last = 0, None
    lead = [_leaders(r, teams) for r in running]
    for x in lead:
        if x is not None:
            if last is not None and x != last:
                changes += 1
            last = x
    sides = {teams[w] for w in winners}
    if len(sides) != 1:
        return changes, None
    (winner,) = sides
    decided = len(lead)
    while decided > 0 and lead[decided - 1] == winner:
        decided -= 1
    return changes, decided + 1 if decided < len(lead) else None


Item = dict[str, Any]


def _items(items: Sequence[Mapping[str, Any]], result: Result, teams: Sequence[int]) -> list[Item]:
    won = {teams[w] for w in result.winners}
    out = []
    for it in items:
        seat = int(it.get("seat", -1))
        value = it.get("value")
        out.append(
            {
                "kind": str(it["kind"]),
                "name": str(it["name"]),
                "seat": seat,
                "won": (teams[seat] in won) if seat >= 0 else it.get("won"),
                "value": float(value) if value is not None else None,
            }
        )
    return out


def game_row(
    *,
    index: int,
    seed: int,
    game_id: str,
    variant: str,
    options_json: str,
    cards_hash: str,
    seats: Sequence[str],
    result: Result | None,
    decisions: int,
    teams: Sequence[int],
    lab: LabData | None = None,
    error: str | None = None,
) -> dict[str, Any]:
    stats = dict(result.stats) if result else {}
    if lab is not None:
        stats.update(lab.stats)
    _, rounds_key = LENGTH.get(game_id, (None, None))
    running = [[float(x) for x in r] for r in lab.running] if lab else []
    changes, decided = lead_changes(running, teams, result.winners) if result else (None, None)
    return {
        "index": index,
        "seed": seed,
        "game": game_id,
        "variant": variant,
        "options": options_json,
        "cards_hash": cards_hash,
        "players": len(seats),
        "seats": list(seats),
        "scores": [float(s) for s in result.scores] if result else [],
        "winners": list(result.winners) if result else [],
        "decisions": decisions,
        "branching": lab.branching if lab else None,
        "running": running,
        "lead_changes": changes,
        "decided_round": decided,
        "turns": _turns(game_id, stats),
        "rounds": _int(stats, rounds_key),
        "stats": json.dumps(stats, sort_keys=True, default=str),
        "items": _items(lab.items, result, teams) if (lab and result) else [],
        "error": error,
    }
