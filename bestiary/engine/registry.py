"""The game registry, filled from the ``bestiary.games`` entry points.

A game is found by its id; the engine imports no game module directly, so
a new game is a package plus one entry-point line in ``pyproject.toml``.
Tests may :func:`register` a game of their own.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from .errors import BestiaryError, UnknownGame
from .protocol import Game

_GROUP = "bestiary.games"
_extra: dict[str, Game] = {}
_loaded: dict[str, Game] = {}


def _entry_points() -> dict[str, object]:
    return {ep.name: ep for ep in entry_points(group=_GROUP)}


def game_ids() -> list[str]:
    """Every registered id (entry points and games registered at run time)."""
    return sorted(set(_entry_points()) | set(_extra))


def get_game(game_id: str) -> Game:
    if game_id in _extra:
        return _extra[game_id]
    if game_id in _loaded:
        return _loaded[game_id]
    eps = _entry_points()
    if game_id not in eps:
        raise UnknownGame(game_id, game_ids())
    try:
        game = eps[game_id].load()  # type: ignore[attr-defined]
    except Exception as exc:  # a broken game package must not hide the others
        raise BestiaryError(f"game {game_id!r} failed to load: {exc}") from exc
    if not isinstance(game, Game):
        raise BestiaryError(f"entry point {game_id!r} is not a bestiary Game")
    _loaded[game_id] = game
    return game


def all_games() -> list[Game]:
    return [get_game(g) for g in game_ids()]


def register(game: Game) -> None:
    _extra[game.id] = game


def unregister(game_id: str) -> None:
    _extra.pop(game_id, None)
