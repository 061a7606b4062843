"""``GET /api/games/{id}/tutorial``: a game's first-game tutorial.

The table to create (``POST /api/tables`` takes it as it is: the person in
seat 0, bots elsewhere, a fixed seed — allowed because the table is solo)
and the steps, in English and Polish, with their conditions; the page
evaluates them with ``web/js/tutorial-steps.js`` (the language is described
in :mod:`bestiary.engine.tutorial`). The deal is no secret: it is a lesson,
and the seed is the game's own data file.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException

from ..engine.tutorial import load
from .rules_api import _game

router = APIRouter()


@router.get("/api/games/{game_id}/tutorial", summary="A game's first-game tutorial")
def tutorial(game_id: str) -> dict[str, Any]:
    game = _game(game_id)
    found = load(game)
    if found is None:
        raise HTTPException(404, f"{game.title} has no tutorial yet")
    return {**found.to_json(), "title": game.title}
