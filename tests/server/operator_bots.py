"""An agent the server's operator enables:
``bestiary serve --agent first=tests.server.operator_bots:FirstLegal``."""

from __future__ import annotations

from typing import Any

from bestiary.agents import AgentContext


class FirstLegal:
    """Always plays the first legal action, so a test can tell its moves apart."""

    def __init__(self, seed: int = 0, **options: str) -> None:
        self.seed, self.options = seed, options

    def act(self, ctx: AgentContext) -> Any:
        return ctx.legal()[0]


NOT_AN_AGENT = 42


class NoAct:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
