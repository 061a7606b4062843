"""Every Bestiary game as an OpenSpiel game (``pip install bestiary[openspiel]``).

Importing this package registers each game of the registry with OpenSpiel
as ``bestiary_<id>`` (``bestiary_taxonomy``, ``bestiary_monster_maker``,
``bestiary_meat``, ``bestiary_teratozoic``)::

    import pyspiel
    import bestiary.openspiel  # registers the games

    game = pyspiel.load_game("bestiary_meat", {"players": 4})

What the bridge is (docs/RL.md, "OpenSpiel"): sequential turns (seats that
decide at once are asked one after another, their choices hidden),
``SAMPLED_STOCHASTIC`` chance (the engine's seeded RNG; no chance nodes),
imperfect information, zero-sum terminal returns from who wins
(:mod:`.utility`), observations and information states from each seat's
view (:mod:`.observer`), legal actions as our fixed action indices, and
states serialized as our match records.
"""

from __future__ import annotations

try:
    import pyspiel
except ImportError as exc:  # say how to get it rather than a bare traceback
    raise ImportError(
        "bestiary.openspiel needs OpenSpiel: pip install 'bestiary[openspiel]'"
    ) from exc

from ..engine.protocol import Game
from ..engine.registry import all_games
from ..rl.encoding import observer_for
from .game import BridgeGame, game_class, game_type, openspiel_name
from .state import BridgeState

__all__ = ["BridgeGame", "BridgeState", "names", "openspiel_name", "register_all"]

_registered: dict[str, str] = {}


def register_all() -> dict[str, str]:
    """Register every game that loads (idempotent); OpenSpiel name -> game id."""
    known = set(pyspiel.registered_names())
    for game in all_games():
        if not _encodable(game):
            continue  # a game without an observation encoding (a test's toy game)
        name = openspiel_name(game.id)
        if name in _registered or name in known:
            _registered.setdefault(name, game.id)
            continue
        pyspiel.register_game(game_type(game), game_class(game))
        _registered[name] = game.id
    return dict(_registered)


def _encodable(game: Game) -> bool:
    """Whether the game has the observation encoding OpenSpiel's tensors need."""
    try:
        observer_for(game, min(game.allowed_players()), game.ruleset())
    except NotImplementedError:
        return False
    return True


def names() -> list[str]:
    """The OpenSpiel names of the registered Bestiary games."""
    return sorted(_registered)


register_all()
