"""Observations and action masks of one seat, from what that seat may know.

Each game ships its encoding in ``bestiary/games/<id>/observe.py`` (an
``Observer`` with ``size`` and ``encode(view) -> list[float]``, and
optionally a sparse form of it, below), so a game's knowledge stays in its
package; this module finds it, turns the result into arrays and builds the
mask over the game's fixed action space. The only input is
``state.view(seat)`` and ``state.legal(seat)``, or, for a sparse encoder
from the state, the game's own view of what the encoder reads, built by the
same rules of what the seat may know: never the full state.
"""

from __future__ import annotations

import importlib
import io
import sys
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ..agents.features import SparseRow
from ..engine.protocol import Game, State
from ..engine.ruleset import Ruleset


class Observer(Protocol):
    size: int

    def encode(self, view: Mapping[str, Any]) -> list[float]: ...


# An Observer may also offer the same vector by its non-zero entries (a
# ``SparseRow``: the positions holding 1, then the other positions and their
# values; every other entry 0), which the environments then write with a
# fancy-index assignment or two instead of converting a dense list:
# ``encode_state_sparse(state, seat)`` (from the state, through a view of just
# what the encoder reads, built by the game's rules of what the seat may know)
# or ``encode_sparse(view)`` (from the seat's view). Each must equal ``encode``
# (tests/rl/test_sparse_encoding.py).
SparseEncoder = Callable[[State, int], SparseRow]


def sparse_encoder(observer: Observer) -> SparseEncoder | None:
    """``observer``'s sparse encoding of ``seat``'s view of ``state``, or None
    where it has none (then ``encode`` is the way)."""
    by_state = getattr(observer, "encode_state_sparse", None)
    if callable(by_state):
        encoder: SparseEncoder = by_state
        return encoder
    by_view = getattr(observer, "encode_sparse", None)
    if callable(by_view):
        return lambda state, seat: by_view(state.view(seat))
    return None


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
    """The encoded view of ``seat`` (its own view only): through the
    observer's sparse encoding where it has one, else ``encode``."""
    sparse = sparse_encoder(observer)
    if sparse is None:
        return np.asarray(observer.encode(state.view(seat)), dtype=np.float32)
    out = np.zeros(observer.size, dtype=np.float32)
    row = sparse(state, seat)
    out[row.ones] = 1.0
    out[row.idx] = row.values
    return out


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
