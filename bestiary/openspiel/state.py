"""A Bestiary match as an OpenSpiel state.

Sequential play: OpenSpiel's current player is the first seat in
``to_act()``. Where several seats owe a decision at once (a claim window,
rock-paper-scissors, face-down tactics) they are asked one after another,
in seat order; the engine keeps each choice out of the other seats' views
until all are in and the step resolves, so a seat asked later knows nothing
more than if it had chosen at the same moment. (That the earlier seat has
chosen is visible, as in OpenSpiel's other sequentialised games.)

Chance: the deal, the draws and the dice come from the match's own seeded
RNG inside the engine, so there are no chance nodes (``SAMPLED_STOCHASTIC``):
a clone continues with the same future draws, and a fresh match draws its
seed from the game's ``seed`` parameter.
"""

from __future__ import annotations

import json
import random
from typing import Any, Protocol

import pyspiel

from ..engine.errors import BadRecord, IllegalAction
from ..engine.protocol import State
from ..engine.record import MatchRecord
from ..engine.rng import Rng
from .spec import MAX_STEPS, Spec
from .utility import zero_sum_returns


class SpecGame(Protocol):
    """What a state needs of its game (``game.BridgeGame``): the table's spec.
    A protocol, so this module does not import the game's (which imports it)."""

    spec: Spec


class _Match:
    """The engine state, the moves so far and each seat's seen events as text.

    OpenSpiel clones a Python state by deep-copying its attributes; this
    holder makes that the game's fast ``State.clone`` plus flat copies of the
    move list (its (seat, text) pairs never change) and of the event texts
    (strings, shared), instead of a walk over every tuple of the history."""

    __slots__ = ("moves", "seen", "state")

    def __init__(
        self, state: State, moves: list[tuple[int, str]], seen: dict[int, tuple[int, str]]
    ) -> None:
        self.state = state
        self.moves = moves
        # seat -> (events read so far, their JSON texts joined by commas)
        self.seen = seen

    def __deepcopy__(self, memo: dict[int, Any]) -> _Match:
        return _Match(self.state.clone(), list(self.moves), dict(self.seen))

    def seen_events(self, seat: int) -> str:
        """The events ``seat`` has seen, as JSON texts joined by commas; built
        once and extended, since OpenSpiel asks for them at every step."""
        upto, text = self.seen.get(seat, (0, ""))
        count = self.state.event_count()
        if count > upto:
            new = [_json(e.to_json()) for e in self.state.events_since(upto, seat)]
            if new:
                text = ",".join([text, *new]) if text else ",".join(new)
            self.seen[seat] = (count, text)
        return text


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


class BridgeState(pyspiel.State):
    """One match; built by :meth:`BridgeGame.new_initial_state`."""

    def __init__(self, game: SpecGame, seed: int | None, match: _Match | None = None) -> None:
        super().__init__(game)
        spec: Spec = game.spec
        self.spec = spec
        # None for a resampled state: no seed replays its deal.
        self.seed = seed
        if match is None:
            assert seed is not None
            engine = spec.game.new(
                spec.players, seed=seed, variant=spec.variant, options=spec.options
            )
            match = _Match(engine, [], {})
        self.match = match

    @property
    def engine(self) -> State:
        """The Bestiary state (read it only through view/legal for a seat)."""
        return self.match.state

    @property
    def moves(self) -> list[tuple[int, str]]:
        """(seat, text form) of every decision: the match record's moves."""
        return self.match.moves

    # -- OpenSpiel's state API ---------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.engine.to_act()[0]

    def _legal_actions(self, player: int) -> list[int]:
        """Our fixed action indices, ascending; none for a seat not asked now."""
        if self.is_terminal() or player != self.engine.to_act()[0]:
            return []
        engine = self.engine
        return sorted(engine.action_index(a) for a in engine.legal(player))

    def _apply_action(self, action: int) -> None:
        seat = self.current_player()
        if seat < 0:
            raise IllegalAction(f"the match is over; no action {action} can be applied", [])
        move = self.engine.action_from_index(seat, int(action))  # IllegalAction if not legal
        self.engine.apply(seat, move)
        self.moves.append((seat, str(move)))

    def _action_to_string(self, player: int, action: int) -> str:
        """The action's text form (``discard Werecat``) while it is legal;
        otherwise (OpenSpiel may ask after the fact) its index."""
        if not self.is_terminal() and player == self.engine.to_act()[0]:
            try:
                return str(self.engine.action_from_index(player, int(action)))
            except IllegalAction:
                pass
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self.engine.over or len(self.moves) >= MAX_STEPS

    def returns(self) -> list[float]:
        spec = self.spec
        result = self.engine.result if self.engine.over else None
        return zero_sum_returns(result, spec.players, spec.teams)

    def __str__(self) -> str:
        """The spectator's view (no hidden cards) and the decision count."""
        return f"{_json(self.engine.view(None))}\ndecisions: {len(self.moves)}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BridgeState:
        """A state ``player_id`` cannot tell from this one: everything it may not
        know is redrawn by the game's ``determinize`` (other hands, the deck
        order, future dice), as OpenSpiel's information-set searches need.
        ``probability_sampler`` (a callable giving floats in [0, 1)) seeds it
        when given."""
        draw = probability_sampler() if callable(probability_sampler) else random.random()
        rng = Rng(int(float(draw) * 2**53))
        match = self.match
        engine = match.state.determinize(player_id, rng)
        return BridgeState(self.get_game(), None, _Match(engine, list(match.moves), {}))

    # -- records -----------------------------------------------------------------
    def record(self) -> MatchRecord:
        """The match record (game, variant, options, players, seed, moves)."""
        if self.seed is None:
            raise BadRecord("a resampled state has no record: no seed deals its hidden cards")
        spec = self.spec
        return MatchRecord(
            game=spec.game.id,
            players=spec.players,
            seed=self.seed,
            variant=spec.variant,
            options=dict(spec.options),
            moves=list(self.moves),
        )

    def serialize(self) -> str:
        """The match record as JSON: ``BridgeGame.deserialize_state`` (and
        ``bestiary replay``) rebuild the state from it."""
        return json.dumps(self.record().to_json(), sort_keys=True)
