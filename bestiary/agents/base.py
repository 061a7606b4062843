"""Agents decide for one seat, seeing only what that seat may know.

An agent is anything with ``act(ctx) -> Action``. The :class:`AgentContext`
hands it the seat's ``view``, its ``legal`` actions and ``determinize`` (a
full state consistent with what the seat knows, for search); the real state
stays private to the context.

Agent specs are strings: ``random``, ``heuristic``, ``ismcts:iterations=400``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from ..engine.errors import BadAgentSpec
from ..engine.protocol import Action, Game, State
from ..engine.rng import Rng


class AgentContext:
    """What one seat may use to decide. Built fresh by the driver for each decision."""

    __slots__ = ("__state", "rng", "seat")

    def __init__(self, state: State, seat: int, rng: Rng) -> None:
        self.__state = state
        self.seat = seat
        self.rng = rng

    def view(self) -> dict[str, Any]:
        return self.__state.view(self.seat)

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


AgentFactory = Callable[..., Agent]


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:iterations=400,c=0.7"`` -> ``("ismcts", {"iterations": "400", "c": "0.7"})``."""
    name, _, rest = spec.strip().partition(":")
    if not name:
        raise BadAgentSpec(f"empty agent spec {spec!r}")
    kwargs: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        if "=" not in part:
            raise BadAgentSpec(f"agent option {part!r} in {spec!r} must be written name=value")
        k, v = part.split("=", 1)
        kwargs[k.strip()] = v.strip()
    return name, kwargs


def _generic_agents() -> Mapping[str, AgentFactory]:
    from .ismcts import ISMCTSAgent
    from .random_agent import RandomAgent

    return {"random": RandomAgent, "ismcts": ISMCTSAgent}


def available_agents(game: Game) -> dict[str, AgentFactory]:
    return {**_generic_agents(), **game.agents()}


def make_agent(game: Game, spec: str, seed: int = 0) -> Agent:
    """Build the agent a spec names, for ``game``; BadAgentSpec lists the choices."""
    name, kwargs = parse_spec(spec)
    agents = available_agents(game)
    if name not in agents:
        raise BadAgentSpec(
            f"unknown agent {name!r} for {game.id}; agents: {', '.join(sorted(agents))}"
        )
    try:
        return agents[name](seed=seed, **kwargs)
    except TypeError as exc:
        raise BadAgentSpec(f"agent {spec!r}: {exc}") from None
    except ValueError as exc:
        raise BadAgentSpec(f"agent {spec!r}: bad value ({exc})") from None
