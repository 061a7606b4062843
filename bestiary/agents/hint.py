"""A hint: the strongest bot's move for one seat, decided from that seat's view only.

The search runs through an :class:`AgentContext`, which hands it the seat's
view, legal moves and determinizations — samples of what the seat cannot see —
never the real hidden cards. So a hint tells a player nothing their own view
does not already imply; it is a stronger player thinking in their chair.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import BadInput, NotYourTurn
from ..engine.protocol import State
from ..engine.rng import Rng
from .base import make_agent
from .context import AgentContext
from .ismcts import ISMCTSAgent
from .value import search_options

#: Longest search a hint may ask for (the server caps it lower).
MAX_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class Alternative:
    action: str
    visits: int
    win_rate: float  # mean reward of the searching seat over the searches through it


@dataclass(frozen=True, slots=True)
class Hint:
    action: str
    agent: str
    iterations: int
    seconds: float
    alternatives: list[Alternative] = field(default_factory=list)

    @property
    def tied(self) -> bool:
        """Whether every move the search weighed won as often as the others (to
        the per cent a hint shows): the search could not tell them apart, and
        the move is its guide's (M.E.A.T.'s draft with teammates, where the
        battle lies past the playouts)."""
        rates = {round(a.win_rate * 100) for a in self.alternatives}
        return len(self.alternatives) > 1 and len(rates) == 1

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "agent": self.agent,
            "iterations": self.iterations,
            "seconds": round(self.seconds, 3),
            "tied": self.tied,
            "alternatives": [
                {"action": a.action, "visits": a.visits, "win_rate": round(a.win_rate, 3)}
                for a in self.alternatives
            ],
        }


def strongest_spec(state: State, seconds: float, iterations: int | None = None) -> str:
    """The search the game plays best with: ISMCTS guided by the game's own bot
    where it has one (heuristic playouts and prior), random playouts otherwise,
    with the options the game's value module names (``SEARCH_OPTIONS``).
    ``iterations`` replaces the time budget (a reproducible search, for tests)."""
    guided = "heuristic" in state.game.agents()
    rollout = "heuristic,rollout_limit=200" if guided else "random"
    budget = f"iterations={iterations}" if iterations is not None else f"seconds={seconds:g}"
    extra = search_options(state.game, state.players)
    return f"ismcts:{budget},rollout={rollout}" + (f",{extra}" if extra else "")


def suggest(
    state: State,
    seat: int,
    seconds: float = 1.0,
    seed: int | None = None,
    iterations: int | None = None,
) -> Hint:
    """The move the strongest bot would make for ``seat`` now, and the moves it
    weighed (the suggested move first, then the most searched). ``state`` is not
    changed."""
    if state.over:
        raise BadInput("the game is over; there is no move to suggest")
    if not 0 <= seat < state.players:
        raise BadInput(f"seat {seat} is not at this table; seats are 0 to {state.players - 1}")
    if seat not in state.to_act():
        raise NotYourTurn(f"seat {seat} has no decision to make now")
    if not 0 < seconds <= MAX_SECONDS:
        raise BadInput(f"seconds must be more than 0 and at most {MAX_SECONDS:g}")
    rng = Rng(seed if seed is not None else secrets.randbits(64))
    if iterations is not None and not 1 <= iterations <= 100_000:
        raise BadInput("iterations must be between 1 and 100000")
    spec = strongest_spec(state, seconds, iterations)
    agent = make_agent(state.game, spec, seed=rng.randrange(1 << 30))
    assert isinstance(agent, ISMCTSAgent)
    action = str(agent.act(AgentContext(state, seat, rng)))
    # The suggestion leads even when the guide's prior, not the visit count, chose it.
    ranked = sorted(agent.last_ranking, key=lambda r: r[0] != action)[:5]
    ranking = [Alternative(k, n, w) for k, n, w in ranked]
    return Hint(action, spec, agent.last_iterations, agent.last_seconds, ranking)
