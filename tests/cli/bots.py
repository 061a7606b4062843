"""Agents a researcher could write, for ``--seats tests.cli.bots:NAME``."""

from __future__ import annotations

from typing import Any

from bestiary.agents import AgentContext


class FirstLegal:
    """Always plays the first legal action (a researcher's bot)."""

    def __init__(self, seed: int = 0, **options: str) -> None:
        self.options = options

    def act(self, ctx: AgentContext) -> Any:
        return ctx.legal()[0]


def make_first_legal(seed: int = 0) -> FirstLegal:
    """A factory works as well as a class."""
    return FirstLegal(seed)


class Flaky(FirstLegal):
    """Raises in the game whose seed is ``fail_game`` (its seed is ``game * 1009 + seat + 1``)."""

    def __init__(self, seed: int = 0, fail_game: str = "3") -> None:
        super().__init__(seed)
        self.broken = (seed - 1) // 1009 == int(fail_game)

    def act(self, ctx: AgentContext) -> Any:
        if self.broken:
            raise ZeroDivisionError("deliberate failure in a test agent")
        return super().act(ctx)


class Sleepy(FirstLegal):
    """Takes its time, so a run can be interrupted half-way."""

    def act(self, ctx: AgentContext) -> Any:
        import time

        time.sleep(0.002)
        return super().act(ctx)


NOT_AN_AGENT = 42


class NoAct:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
