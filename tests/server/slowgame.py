"""A test game whose own bot and scoring tool think for a minute: to check that a bot deep in
thought holds up neither other requests nor shutdown. Registered by the
served process (see serving.py) and by tests that need it in-process."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from bestiary.agents.base import AgentContext
from bestiary.engine.protocol import Action

from ..engine.toygame import ToyGame


class SleepyAgent:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, ctx: AgentContext) -> Action:
        time.sleep(60)
        return ctx.legal()[0]


class SlowGame(ToyGame):
    id = "toy-slow"
    title = "Toy (slow bot)"

    def agents(self) -> Mapping[str, Callable[..., Any]]:
        return {"heuristic": SleepyAgent}

    def score_tool(self, payload: Mapping[str, Any], rules: Any) -> dict[str, Any] | None:
        """A scoring tool as slow as an exact search over many cards (a minute),
        unless asked ``{"quick": true}``."""
        if not payload.get("quick"):
            time.sleep(60)
        return {"score": 0}


GAME = SlowGame()
