"""``GET /api/games/{id}/rules``: a game's RULES.md for the table's rules drawer;
``GET /api/games/{id}/guide?lang=pl``: its rules written for players, in a language.

RULES.md is public (it ships in the package and says how the engine reads the
rulebook), so anyone may read it; the page renders the Markdown as text, never
as HTML, and log lines link into it by heading anchor (``event_rules.toml``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query

from ..engine.datafile import read_text
from ..engine.errors import BestiaryError
from ..engine.guide import guide as player_guide
from ..engine.protocol import Game
from ..engine.registry import game_ids, get_game
from ..i18n import LANGUAGES

router = APIRouter()


def _game(game_id: str) -> Game:
    try:
        return get_game(game_id)
    except BestiaryError:
        raise HTTPException(
            404, f"no such game: {game_id[:40]!r}; games: {', '.join(game_ids())}"
        ) from None


@router.get("/api/games/{game_id}/rules", summary="A game's RULES.md (Markdown)")
def rules(game_id: str) -> dict[str, Any]:
    game = _game(game_id)
    path = game.rules_path()
    if path is None:
        raise HTTPException(404, f"{game.title} has no RULES.md")
    return {"game": game.id, "title": game.title, "markdown": read_text(path)}


@router.get(
    "/api/games/{game_id}/guide",
    summary="A game's rules for players (Markdown), in English or Polish",
)
def guide(
    game_id: str,
    lang: Annotated[str, Query(max_length=20, description="en or pl")] = "en",
) -> dict[str, Any]:
    """The short rules a newcomer reads (``guide/<lang>.md`` in the game's
    package), without the rulebook citations kept in its source; ``spec``
    links to the engine's full specification."""
    code = lang.strip().lower()
    if code not in LANGUAGES:
        raise HTTPException(
            422, f"lang {lang[:20]!r} is not offered; choose one of: {', '.join(LANGUAGES)}"
        )
    game = _game(game_id)
    found = player_guide(game, code)
    if found is None:
        raise HTTPException(404, f"{game.title} has no rules for players yet")
    used, markdown = found
    return {
        "game": game.id,
        "title": game.title,
        "lang": used,
        "markdown": markdown,
        "spec": f"/api/games/{game.id}/rules",
    }
