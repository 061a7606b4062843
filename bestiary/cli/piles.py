"""``piles`` at a prompt: every public pile of the view (discards, graveyards, …) in full.

A game's render shows the top card or a count; a newcomer asks "what has been
thrown away?". Views are JSON, so any list of cards under a key that names a
pile is found without a game hook.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_PILE_WORDS = ("discard", "grave", "pile", "face_up", "played", "eras")


def _name(card: Any) -> str | None:
    if isinstance(card, str):
        return card
    if isinstance(card, Mapping) and isinstance(card.get("name"), str):
        return str(card["name"])
    return None


def _names(value: Any) -> list[str] | None:
    if not isinstance(value, list) or not value:
        return None
    names = [_name(c) for c in value]
    return None if any(n is None for n in names) else [n for n in names if n is not None]


def piles(view: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """(label, card names) for every pile in ``view``, its own hand excluded."""
    found: list[tuple[str, list[str]]] = []

    def walk(label: str, value: Any, named: bool) -> None:
        names = _names(value)
        if names is not None and named:
            found.append((label, names))
        elif isinstance(value, Mapping) and _name(value) is None:  # a card is no pile
            for k, v in value.items():
                key = str(k)
                walk(
                    f"{label} {key}".strip().replace("_", " "),
                    v,
                    named or any(w in key for w in _PILE_WORDS),
                )

    walk("", view, False)
    return found
