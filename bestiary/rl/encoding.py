"""Observations and action masks of one seat, from what that seat may know.

Each game ships its encoding in ``bestiary/games/<id>/observe.py`` (an
``Observer`` with ``size`` and ``encode(view) -> list[float]``), so a
game's knowledge stays in its package; this module finds it, turns the
result into arrays and builds the mask over the game's fixed action space.
The only input is ``state.view(seat)`` and ``state.legal(seat)``: never the
full state.
"""

from __future__ import annotations

import importlib
import io
import sys
from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ..engine.protocol import Game, State
from ..engine.ruleset import Ruleset


class Observer(Protocol):
    size: int

    def encode(self, view: Mapping[str, Any]) -> list[float]: ...


def observer_for(game: Game, players: int, rules: Ruleset) -> Observer:
    """The ``Observer`` of ``game`` (from its package's ``observe`` module)."""
    module = sys.modules[type(game).__module__]
    package = module.__package__ or module.__name__
    try:
        observe = importlib.import_module(f"{package}.observe")
    except ModuleNotFoundError as exc:
        raise NotImplementedError(f"{game.id} has no observation encoding (observe.py)") from exc
    observer: Observer = observe.Observer(players, rules)
    return observer


def observation(observer: Observer, state: State, seat: int) -> npt.NDArray[np.float32]:
    """The encoded view of ``seat`` (its own view only)."""
    return np.asarray(observer.encode(state.view(seat)), dtype=np.float32)


def action_mask(state: State, seat: int, num_actions: int) -> npt.NDArray[np.int8]:
    """1 at the index of every action ``seat`` may take now, else 0."""
    mask = np.zeros(num_actions, dtype=np.int8)
    for a in state.legal(seat):
        mask[state.action_index(a)] = 1
    return mask


def render_text(game: Game, state: State, width: int = 100) -> str:
    """The spectator's picture of the table (no hidden cards), as plain text."""
    from rich.console import Console

    buf = io.StringIO()
    Console(file=buf, width=width, color_system=None, force_terminal=False).print(
        game.render(state.view(None), [])
    )
    return buf.getvalue()
