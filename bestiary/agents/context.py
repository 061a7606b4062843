"""What an agent sees: the seat's context for one decision, and the agent protocol.

The bottom of the agents package: every agent imports this, and the spec
registry (``base``) imports the agents — never the other way round.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

from ..engine.protocol import Action, State
from ..engine.rng import Rng


class AgentContext:
    """What one seat may use to decide. Built fresh by the driver for each decision."""

    __slots__ = ("__state", "rng", "seat")

    def __init__(self, state: State, seat: int, rng: Rng) -> None:
        self.__state = state
        self.seat = seat
        self.rng = rng

    def view(self, fields: frozenset[str] | None = None) -> dict[str, Any]:
        """The seat's view; with ``fields``, only those entries of it (cheaper
        where the game builds them alone: ``State.partial_view``)."""
        if fields is None:
            return self.__state.view(self.seat)
        return self.__state.partial_view(self.seat, fields)

    def legal(self) -> Sequence[Action]:
        return self.__state.legal(self.seat)

    def determinize(self) -> State:
        """A full state sampled from what this seat cannot see (safe to mutate)."""
        return self.__state.determinize(self.seat, self.rng)

    @property
    def players(self) -> int:
        return self.__state.players

    @property
    def rules(self) -> Any:
        return self.__state.rules


class Agent(Protocol):
    def act(self, ctx: AgentContext) -> Action: ...


_FLAGS = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}


def option_flag(name: str, value: bool | str) -> bool:
    """An on/off option of an agent spec (``reuse=0``, ``lite=1``): 1/true/yes or
    0/false/no; anything else is a ValueError naming them (``make_agent`` turns
    it into a BadAgentSpec)."""
    if isinstance(value, bool):
        return value
    flag = str(value).strip().casefold()
    if flag not in _FLAGS:
        raise ValueError(f"{name} must be one of {', '.join(_FLAGS)}, not {value!r}")
    return _FLAGS[flag]


def option_number(
    name: str, value: float | str, low: float = -math.inf, high: float = math.inf
) -> float:
    """A number option of an agent spec (``defend=60``), finite and within
    ``[low, high]``; anything else is a ValueError saying what is allowed."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, not {value!r}") from None
    if not (low <= number <= high and math.isfinite(number)):
        if math.isinf(high):
            raise ValueError(f"{name} must be a finite number >= {low:g}, not {value!r}")
        raise ValueError(f"{name} must be between {low:g} and {high:g}, not {value!r}")
    return number


def option_choice(name: str, value: str, allowed: Sequence[str]) -> str:
    """A named choice of an agent spec (``plan=reach``), case-insensitive."""
    choice = str(value).strip().casefold()
    if choice not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return choice
