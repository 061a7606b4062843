"""The game registry, filled from the ``bestiary.games`` entry points.

A game is found by its id; the engine imports no game module directly, so
a new game is a package plus one entry-point line in ``pyproject.toml``.
Tests may :func:`register` a game of their own.

Entry points are read from the installed package's metadata: after adding,
renaming or removing one in ``pyproject.toml``, re-run ``pip install -e .``.
A stale or broken entry point hides no other game: :func:`all_games` skips
it and :func:`broken_games` says what is wrong, for the commands to warn.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

from ..i18n import core
from .errors import BestiaryError, UnknownGame
from .protocol import Game

_GROUP = "bestiary.games"
_extra: dict[str, Game] = {}
_loaded: dict[str, Game] = {}


def _entry_points() -> dict[str, EntryPoint]:
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
    ep = eps[game_id]
    try:
        game = ep.load()
    except Exception as exc:  # a broken game package must not hide the others
        raise BestiaryError(
            core.gettext(
                "game {game!r} failed to load from {source} ({kind}: {error}); if the entry "
                "points in pyproject.toml changed, re-run pip install -e ."
            ).format(game=game_id, source=ep.value, kind=type(exc).__name__, error=exc)
        ) from None
    if not isinstance(game, Game):
        raise BestiaryError(
            core.gettext("entry point {game!r} ({source}) is not a bestiary Game").format(
                game=game_id, source=ep.value
            )
        )
    _loaded[game_id] = game
    return game


def broken_games() -> dict[str, str]:
    """Registered ids whose game does not load, with what is wrong."""
    problems = {}
    for gid in game_ids():
        try:
            get_game(gid)
        except BestiaryError as exc:
            problems[gid] = str(exc)
    return problems


def all_games() -> list[Game]:
    """Every game that loads (see :func:`broken_games` for the others)."""
    games = []
    for gid in game_ids():
        try:
            games.append(get_game(gid))
        except BestiaryError:
            continue
    return games


def register(game: Game) -> None:
    _extra[game.id] = game


def unregister(game_id: str) -> None:
    _extra.pop(game_id, None)
