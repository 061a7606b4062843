"""One finished game -> one row of :data:`bestiary.lab.schema.ROW`.

The games report their own statistics (``Result.stats``); this module only
reads the names each game uses for its length and its card-level facts. A
game missing from :data:`LENGTH` gets null turns/rounds and no items: a new
game works in the lab without an edit here, with the generic sections only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..engine.protocol import Result

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


Item = dict[str, Any]


def _meat_items(result: Result, teams: Sequence[int]) -> list[Item]:
    won = set(result.winners)
    out: list[Item] = []
    for kind, key in (("leader", "player_leaders"), ("faction", "player_factions")):
        for seat, name in enumerate(result.stats.get(key, [])):
            if name:
                out.append({"kind": kind, "name": str(name), "seat": seat, "won": seat in won})
    return out


def _taxonomy_items(result: Result, teams: Sequence[int]) -> list[Item]:
    # One item per round: the pattern that won it ("no winner" when none did).
    return [
        {"kind": "round_outcome", "name": str(p), "seat": -1, "won": p != "no winner"}
        for p in result.stats.get("round_outcome", [])
    ]


ITEMS: dict[str, Callable[[Result, Sequence[int]], list[Item]]] = {
    "meat": _meat_items,
    "taxonomy": _taxonomy_items,
}


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
    error: str | None = None,
) -> dict[str, Any]:
    stats = dict(result.stats) if result else {}
    _, rounds_key = LENGTH.get(game_id, (None, None))
    items = ITEMS.get(game_id)
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
        "turns": _turns(game_id, stats),
        "rounds": _int(stats, rounds_key),
        "stats": json.dumps(stats, sort_keys=True, default=str),
        "items": items(result, teams) if (items and result) else [],
        "error": error,
    }
