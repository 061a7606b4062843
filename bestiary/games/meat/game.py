"""The M.E.A.T. :class:`Game`: metadata, variants, factory and the optional
hooks (bots, rendering, the card catalog, the what-if battle tool, the lab)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bestiary.engine import Event, Game, Ruleset

from .actions import space_for
from .cards import load_cards
from .rules import MeatState
from .ruleset import VARIANTS, MeatRules

if TYPE_CHECKING:
    from rich.console import RenderableType


class MeatGame(Game):
    id = "meat"
    title = "M.E.A.T.: The Cult"
    min_players = 2
    max_players = 6
    player_counts = (2, 4, 6)
    default_players = 2

    @property
    def variants(self) -> Mapping[str, MeatRules]:
        return dict(VARIANTS)

    def create(self, players: int, seed: int, rules: Ruleset) -> MeatState:
        assert isinstance(rules, MeatRules)
        return MeatState(self, players, seed, rules)

    def num_actions(self, players: int, rules: Ruleset) -> int:
        assert isinstance(rules, MeatRules)
        return space_for(load_cards(rules.cards or None)).total

    def teams(self, players: int) -> list[int]:
        """Seats alternate between the two teams (RULES.md, "Teams")."""
        return [seat % 2 for seat in range(players)]

    def agents(self) -> Mapping[str, Callable[..., Any]]:
        from .bots import HeuristicAgent

        return {"heuristic": HeuristicAgent}

    def catalog(self, rules: Ruleset) -> dict[str, Any] | None:
        from .catalog import catalog

        assert isinstance(rules, MeatRules)
        return catalog(load_cards(rules.cards or None))

    def render_catalog(self, catalog: Mapping[str, Any]) -> RenderableType:
        from .catalog import render_catalog

        return render_catalog(catalog)

    def score_tool(self, payload: Mapping[str, Any], rules: Ruleset) -> dict[str, Any]:
        """A what-if battle: {"attacker": CARD, "defender": CARD} or {"sides": [...]}
        gives the outcome and a step-by-step breakdown"""
        from .whatif import what_if

        assert isinstance(rules, MeatRules)
        return what_if(self, payload, rules)

    def render(self, view: Mapping[str, Any], events: Sequence[Event]) -> RenderableType:
        from .render import render

        return render(view, [self.describe_event(e) for e in events])

    def bench_extra(self, rules: Ruleset) -> dict[str, Any]:
        """The heuristic bot's speed (it looks one action ahead on determinized states)."""
        import time

        from bestiary.sim.runner import play_game

        t0 = time.perf_counter()
        decisions = sum(play_game(self, ["heuristic"] * 2, seed).decisions for seed in range(10))
        elapsed = time.perf_counter() - t0
        return {"heuristic_us_per_decision": round(elapsed / decisions * 1e6, 1)}

    def describe_event(self, event: Event, names: Sequence[str] | None = None) -> str:
        from .describe import describe

        return describe(event, names)

    def lab_tracker(self, state: Any) -> Any:  # the designer's lab: stats.py
        from .stats import tracker

        return tracker(state)
