"""A costly bot for the fairness tests: it thinks for a quarter of a second a
move (as an ``ismcts:seconds=5`` bot thinks for five), then plays its first
legal move. Enabled as an operator's agent: ``agents={"slow": SLOW}``."""

from __future__ import annotations

import time
from typing import Any

from bestiary.agents import AgentContext

SLOW = "tests.server.fair_agents:Slow"


class Slow:
    def __init__(self, seed: int = 0, **options: str) -> None:
        self.seed = seed

    def act(self, ctx: AgentContext) -> Any:
        time.sleep(0.25)
        return ctx.legal()[0]
