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


class Scorer(Protocol):
    """What the ``score`` reward reads (every game's ``Observer`` is one)."""

    #: A score margin of this many of the game's points counts 1.
    score_scale: float
    #: False where nothing is scored before the end (``public_scores`` is None).
    running_score: bool
    #: The view entries ``public_scores`` reads: public ones, alike in every view.
    score_fields: frozenset[str]

    def public_scores(self, view: Mapping[str, Any]) -> list[float] | None: ...


def seat_slots(game: Game, players: int, max_players: object) -> int | None:
    """``max_players`` checked against the table and the game: None (each
    table its own size), ``"max"`` (the game's largest table) or a whole
    number from ``players`` to that largest table."""
    largest = max(game.allowed_players())
    if max_players is None:
        return None
    if isinstance(max_players, str) and max_players == "max":
        return largest
    if (
        isinstance(max_players, int | np.integer)
        and not isinstance(max_players, bool)
        and players <= max_players <= largest
    ):
        return int(max_players)
    raise ValueError(
        f"max_players must be None (the table's own size), 'max' or a whole number from "
        f"{players} (this table's seats) to {largest} ({game.id}'s largest table), "
        f"not {max_players!r}"
    )


def _observe_module(game: Game) -> Any:
    module = sys.modules[type(game).__module__]
    package = module.__package__ or module.__name__
    try:
        return importlib.import_module(f"{package}.observe")
    except ModuleNotFoundError as exc:
        raise NotImplementedError(f"{game.id} has no observation encoding (observe.py)") from exc


def observer_for(
    game: Game, players: int, rules: Ruleset, max_players: int | str | None = None
) -> Observer:
    """The ``Observer`` of ``game`` (from its package's ``observe`` module).
    With ``max_players`` (see :func:`seat_slots`) its per-seat blocks are laid
    out for that many seats and presence bits end the vector, so every table
    size of the game gives the same length."""
    slots = seat_slots(game, players, max_players)
    observe = _observe_module(game)
    observer: Observer = (
        observe.Observer(players, rules)
        if slots is None
        else observe.Observer(players, rules, max_players=slots)
    )
    return observer


def scorer_for(game: Game, players: int, rules: Ruleset) -> Scorer:
    """The public scores of ``game``'s tables (its ``Observer``'s ``public_scores``)."""
    scorer = _observe_module(game).Observer(players, rules)
    if not hasattr(scorer, "public_scores"):
        raise NotImplementedError(f"{game.id} has no public scores (observe.py)")
    out: Scorer = scorer
    return out


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
