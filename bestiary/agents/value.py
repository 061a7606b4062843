"""A game's value estimate: every seat's chance of winning from an unfinished state.

Tree search may stop a playout after a few decisions and score the position
instead of playing it to the end. A game offers that score as an optional
hook, a function

    value_estimate(state) -> Sequence[float]   # one number in [0, 1] per seat

found (like the heuristic bot a playout uses, through the game itself) in the
module of the game's ``heuristic`` agent, or else in a ``value`` module of the
game's package (``bestiary/games/<id>/value.py``). The module may also set
``VALUE_DEPTH`` (an int), the playout length the game's estimate was tuned for.

The module may also define ``value_ready(state) -> bool``: whether the estimate
says something at this state. A playout that has made its ``depth`` decisions
goes on (up to the search's ``rollout_limit``) until the game says it is ready,
so that it is not scored where the estimate cannot tell the moves apart (in
M.E.A.T. before the creatures are on the field the estimate is the vitality
alone, which a draft pick does not change). Without it every state is ready.

The state it gets is a determinization (a sample the searching seat built
from its own view), so the estimate may read every field of it: nothing
there is the real hidden state. Games without the hook get no estimate, and
the search plays them to the end (the generic fallback).
"""

from __future__ import annotations

import importlib
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine.protocol import Game, Result, State

ValueEstimate = Callable[[State], Sequence[float]]

HOOK = "value_estimate"
DEPTH = "VALUE_DEPTH"
READY = "value_ready"
OPTIONS = "SEARCH_OPTIONS"
OPTIONS_BY_PLAYERS = "SEARCH_OPTIONS_BY_PLAYERS"


@dataclass(frozen=True)
class GameValue:
    """A game's estimate, the playout depth it suggests (None: no suggestion) and
    where it is worth asking (None: everywhere)."""

    estimate: ValueEstimate
    depth: int | None
    ready: Callable[[State], bool] | None = None


_cache: dict[str, GameValue | None] = {}


def find_value(state: State) -> GameValue | None:
    """The game's value estimate, or None when it has none (cached per game id)."""
    game = state.game
    if game.id in _cache:
        return _cache[game.id]
    found: GameValue | None = None
    for module_name in _game_modules(game):
        module = _load(module_name)
        hook = getattr(module, HOOK, None) if module is not None else None
        if callable(hook):
            depth = getattr(module, DEPTH, None)
            ready = getattr(module, READY, None)
            found = GameValue(
                hook,
                int(depth) if isinstance(depth, int) else None,
                ready if callable(ready) else None,
            )
            break
    _cache[game.id] = found
    return found


def search_options(game: Game, players: int | None = None) -> str:
    """The ISMCTS options the game's search was measured strongest with, as
    spec text (``"playout=lookahead=0"``; "" when it names none): the
    ``SEARCH_OPTIONS`` of its value module, or for a table of ``players`` the
    entry of its ``SEARCH_OPTIONS_BY_PLAYERS`` when it has one (a team game
    whose search plays differently with a teammate). The hint and the
    server's strongest level add them to their budgets."""
    for module_name in _game_modules(game):
        module = _load(module_name)
        if module is None:
            continue
        by_players = getattr(module, OPTIONS_BY_PLAYERS, None)
        if players is not None and isinstance(by_players, dict) and players in by_players:
            return str(by_players[players])
        options = getattr(module, OPTIONS, None)
        if isinstance(options, str) and options:
            return options
    return ""


def _game_modules(game: Game) -> list[str]:
    out = []
    heuristic = game.agents().get("heuristic")
    if heuristic is not None and getattr(heuristic, "__module__", None):
        out.append(heuristic.__module__)
    module = sys.modules.get(type(game).__module__)
    package = getattr(module, "__package__", None) if module is not None else None
    if package:
        out.append(f"{package}.value")
    return out


def _load(name: str) -> object | None:
    module = sys.modules.get(name)
    if module is not None:
        return module
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        # Only "this game has no such module" is a quiet no; a value module that
        # fails to import because of its own missing import is a bug to show.
        if err.name == name:
            return None
        raise


def terminal_rewards(
    result: Result | None, players: int, teams: Sequence[int] | None = None
) -> list[float]:
    """1 shared among the winners, 0 for everyone else; an unfinished game with
    no estimate counts as a draw (1/players each). In a team game (``teams``:
    each seat's team, as ``Game.teams`` gives it) a win is 1 for every member
    of the winning team, shared only among winning teams: the scale of the
    games' estimates, which give each member its team's chance."""
    if result is None:
        if teams:
            return [1.0 / len(set(teams))] * players
        return [1.0 / players] * players
    out = [0.0] * players
    if result.winners:
        if teams:
            won = {teams[w] for w in result.winners}
            for seat in range(players):
                if teams[seat] in won:
                    out[seat] = 1.0 / len(won)
            return out
        share = 1.0 / len(result.winners)
        for w in result.winners:
            out[w] = share
    return out


def softmax_chances(strength: Sequence[float], scale: float) -> list[float]:
    """Win chances from per-seat strengths: a softmax with ``scale`` strength
    units per factor e (a lead of one ``scale`` is e:1 odds between two seats).
    A helper for games' estimates."""
    top = max(strength)
    weights = [math.exp((s - top) / scale) for s in strength]
    total = sum(weights)
    return [w / total for w in weights]


def logistic(x: float) -> float:
    """1 / (1 + e^-x), safe for large |x|."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def check_estimate(values: Sequence[float], players: int) -> list[float]:
    """The estimate's numbers as floats, each clipped to [0, 1] (a ValueError if
    the game returned the wrong number of them)."""
    out = [float(v) for v in values]
    if len(out) != players:
        raise ValueError(f"the value estimate gave {len(out)} numbers for {players} seats")
    return [min(1.0, max(0.0, v)) for v in out]
