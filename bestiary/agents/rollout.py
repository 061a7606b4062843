"""Rollout policies for tree search: how a simulated game is played to its end.

A search samples a determinization (a full state consistent with what the
searching seat knows) and plays it out. Inside that sample every card is
already fixed, so letting a game's heuristic bot decide for each seat there
is honest: the bot gets an :class:`AgentContext` over the *sampled* state,
never the real one. Games without a heuristic are played out at random.
"""

from __future__ import annotations

import inspect
from typing import Any, Protocol

from ..engine.protocol import Action, State
from ..engine.rng import Rng
from .context import AgentContext
from .value import GameValue, check_estimate, terminal_rewards


class RolloutPolicy(Protocol):
    def choose(self, state: State, seat: int) -> Action: ...

    def reseed(self, seed: int) -> None: ...


class RandomRollout:
    """A uniformly random legal move (the classic, cheap, weak playout)."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, state: State, seat: int) -> Action:
        return self.rng.choice(state.legal(seat))

    def reseed(self, seed: int) -> None:
        """Draw from a fresh stream (see :meth:`BotRollout.reseed`)."""
        self.rng = Rng(seed)


class BotRollout:
    """The game's own bot (e.g. ``heuristic``) for every seat, with an
    ``epsilon`` chance of a random move so playouts do not all agree.
    ``options`` are passed to the bot where it takes them (e.g. a cheaper
    ``samples=1`` or ``lookahead=0``); options it does not take are dropped,
    so one search spec serves every game."""

    def __init__(
        self,
        factory: Any,
        players: int,
        rng: Rng,
        epsilon: float = 0.0,
        options: dict[str, str] | None = None,
    ) -> None:
        self.rng = rng
        self.epsilon = epsilon
        kwargs = accepted_options(factory, options or {})
        self.bots = [factory(seed=rng.randrange(1 << 30), **kwargs) for _ in range(players)]

    def choose(self, state: State, seat: int) -> Action:
        legal = state.legal(seat)
        if len(legal) == 1:
            return legal[0]
        if self.epsilon and self.rng.random() < self.epsilon:
            return self.rng.choice(legal)
        return self.bots[seat].act(AgentContext(state, seat, self.rng))

    def reseed(self, seed: int) -> None:
        """Draw this policy's and its bots' random choices from streams that
        depend only on ``seed``: playouts of two different moves from one
        sample, reseeded alike, then differ by the moves and what follows from
        them, not by the bots' coin flips (common random numbers)."""
        self.rng = Rng(seed)
        for i, bot in enumerate(self.bots):
            if isinstance(getattr(bot, "rng", None), Rng):
                bot.rng = Rng(seed + 1 + i)


def play_out(
    state: State,
    policy: RolloutPolicy,
    game_value: GameValue | None,
    horizon: int,
    rollout_limit: int,
    ready: Any = None,
) -> tuple[list[float], bool]:
    """Play ``state`` on with ``policy`` and score it: every seat's reward and
    whether the game's estimate gave it. The playout stops at the end of the
    game, or after ``horizon`` decisions where ``game_value`` can score the
    position (past them while ``ready`` says the estimate is not worth asking
    yet), and never goes beyond ``rollout_limit`` decisions (an unfinished
    game the game cannot score is a draw)."""
    steps = 0
    limit = rollout_limit if game_value is None else horizon
    while not state.over and steps < rollout_limit:
        if steps >= limit and (ready is None or ready(state)):
            break
        seats = state.to_act()
        if not seats:
            break
        seat = seats[0]
        state.apply(seat, policy.choose(state, seat))
        steps += 1
    if state.over or game_value is None:
        result = state.result if state.over else None
        return terminal_rewards(result, state.players, state.game.teams(state.players)), False
    return check_estimate(game_value.estimate(state), state.players), True


def accepted_options(factory: Any, options: dict[str, str]) -> dict[str, str]:
    """The ``options`` that ``factory`` has a parameter for."""
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return {}
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return dict(options)
    return {k: v for k, v in options.items() if k in params and k != "seed"}


def parse_options(text: str, what: str = "playout") -> dict[str, str]:
    """``"samples=1;lookahead=0"`` -> ``{"samples": "1", "lookahead": "0"}`` (``;``
    separates them because ``,`` already separates the search's own options).
    ``what`` names the search option in the error (``playout``, ``guide``)."""
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        if "=" not in part:
            raise ValueError(f"{what} option {part!r} must be written name=value")
        k, v = part.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def bot_factory(state: State, name: str) -> Any | None:
    """The game's agent factory called ``name`` (None if the game has none)."""
    return state.game.agents().get(name)
