"""Rollout policies for tree search: how a simulated game is played to its end.

A search samples a determinization (a full state consistent with what the
searching seat knows) and plays it out. Inside that sample every card is
already fixed, so letting a game's heuristic bot decide for each seat there
is honest: the bot gets an :class:`AgentContext` over the *sampled* state,
never the real one. Games without a heuristic are played out at random.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..engine.protocol import Action, State
from ..engine.rng import Rng
from .base import AgentContext


class RolloutPolicy(Protocol):
    def choose(self, state: State, seat: int) -> Action: ...


class RandomRollout:
    """A uniformly random legal move (the classic, cheap, weak playout)."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, state: State, seat: int) -> Action:
        return self.rng.choice(state.legal(seat))


class BotRollout:
    """The game's own bot (e.g. ``heuristic``) for every seat, with an
    ``epsilon`` chance of a random move so playouts do not all agree."""

    def __init__(self, factory: Any, players: int, rng: Rng, epsilon: float = 0.0) -> None:
        self.rng = rng
        self.epsilon = epsilon
        self.bots = [factory(seed=rng.randrange(1 << 30)) for _ in range(players)]

    def choose(self, state: State, seat: int) -> Action:
        legal = state.legal(seat)
        if len(legal) == 1:
            return legal[0]
        if self.epsilon and self.rng.random() < self.epsilon:
            return self.rng.choice(legal)
        return self.bots[seat].act(AgentContext(state, seat, self.rng))


def bot_factory(state: State, name: str) -> Any | None:
    """The game's agent factory called ``name`` (None if the game has none)."""
    return state.game.agents().get(name)
