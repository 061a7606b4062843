"""``GET /api/games/{id}/rules``: a game's RULES.md for the table's rules drawer.

RULES.md is public (it ships in the package and says how the engine reads the
rulebook), so anyone may read it; the page renders the Markdown as text, never
as HTML, and log lines link into it by heading anchor (``event_rules.toml``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException

from ..engine.datafile import read_text
from ..engine.errors import BestiaryError
from ..engine.registry import game_ids, get_game

router = APIRouter()


@router.get("/api/games/{game_id}/rules", summary="A game's RULES.md (Markdown)")
def rules(game_id: str) -> dict[str, Any]:
    try:
        game = get_game(game_id)
    except BestiaryError:
        raise HTTPException(
            404, f"no such game: {game_id[:40]!r}; games: {', '.join(game_ids())}"
        ) from None
    path = game.rules_path()
    if path is None:
        raise HTTPException(404, f"{game.title} has no RULES.md")
    return {"game": game.id, "title": game.title, "markdown": read_text(path)}
