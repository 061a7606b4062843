"""The engine-generic random agent: a uniformly random legal action."""

from __future__ import annotations

from ..engine.protocol import Action
from ..engine.rng import Rng
from .context import AgentContext


class RandomAgent:
    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def act(self, ctx: AgentContext) -> Action:
        return self.rng.choice(ctx.legal())
