"""One readable log line per taxonomy event (for `bestiary replay` and logs)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine.events import Event


def _name(card: Any) -> str:
    if isinstance(card, dict):
        nat = ", ".join(card.get("natures") or [])
        return f"{card['name']} ({nat})" if nat else str(card["name"])
    return str(card)


def _names(cards: Any) -> str:
    return ", ".join(_name(c) for c in cards or [])


# Why a card left a hand other than by choice (the nature that forced it).
_WHY = {
    "mean": ", taken by a mean monster",
    "cheerful": ", leaving with a cheerful one",
    "proud": ", following a proud one",
}

_LINES: dict[str, Callable[[dict[str, Any]], str]] = {
    "round": lambda d: f"— round {d['round']}, seat {d['dealer']} deals —",
    "dealt": lambda d: f"seat {d['seat']} is dealt {_names(d['cards'])}",
    "drew": lambda d: (
        f"seat {d['seat']} draws {_name(d['card'])}" if "card" in d else f"seat {d['seat']} draws"
    ),
    "rolled": lambda d: f"{d['card']} rolls {d['roll']} on 2d20-4: {d['nature']}",
    "discarded": lambda d: (
        f"seat {d['seat']} {'sets aside' if d.get('aside') else 'discards'} {_name(d['card'])}"
        + _WHY.get(str(d.get("why")), "")
    ),
    "banned": lambda d: f"seat {d['seat']} may no longer collect {d['group']}",
    "peeked": lambda d: f"seat {d['seat']} looks at the top of the stock: {_names(d['cards'])}",
    "attack": lambda d: f"seat {d['seat']} sends {d['card']} at seat {d['target']}",
    "rps": lambda d: (
        f"rock-paper-scissors: {' vs '.join(d['choices'])}, "
        + ("a tie" if d.get("loser") is None else f"seat {d['loser']} loses a turn")
    ),
    "skipped": lambda d: f"seat {d['seat']} skips this turn",
    "claim_open": lambda d: (
        f"you may claim {d['card']} (as {', '.join(d['keys'])})"
        if d.get("keys")
        else f"{d['card']} was discarded: you cannot claim it (pass)"
    ),
    "decided": lambda d: f"seat {d['seat']} chose: {d['choice']}",
    "claims_closed": lambda d: (
        f"{d['card']} was claimed" if d.get("claimed") else f"nobody claims {d['card']}"
    ),
    "claimed": lambda d: (
        f"seat {d['seat']} claims {_name(d['card'])} from seat {d['discarder']} and lays "
        f"{d['key']}: {_names(d['set'])}"
    ),
    "saw_hand": lambda d: (
        f"seat {d['seat']} sees the hand of seat {d['target']}: {_names(d['cards'])}"
    ),
    "tabled": lambda d: f"seat {d['seat']} adds {_name(d['card'])} to their {d['key']} set",
    "won": lambda d: f"seat {d['seat']} wins the round: {d['pattern']} for {d['points']} points",
    "round_end": lambda d: (
        f"round {d['round']} ends: "
        + (
            f"seat {d['winner']} scores {d['points']} ({d['pattern']})"
            if d.get("winner") is not None
            else str(d.get("reason", "no winner"))
        )
    ),
    "game_over": lambda d: f"game over: scores {d['scores']}, winner(s) {d['winners']}",
}


def describe(event: Event) -> str:
    line = _LINES.get(event.kind)
    if line is None:
        parts = " ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.kind} {parts}".strip()
    try:
        return line(event.data)
    except (KeyError, TypeError):
        return f"{event.kind} {event.data}"
