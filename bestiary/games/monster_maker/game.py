"""The Monster Maker :class:`Game`: metadata, variants, factory and CLI hooks."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bestiary.engine import Event, Game, Ruleset

from .actions import action_space
from .cards import load_cardset
from .rules import MonsterMakerState
from .ruleset import VARIANTS, MonsterMakerRules

if TYPE_CHECKING:
    from rich.console import RenderableType


class MonsterMakerGame(Game):
    id = "monster-maker"
    title = "Monster Maker"
    min_players = 2
    max_players = 6
    default_players = 4

    @property
    def variants(self) -> Mapping[str, MonsterMakerRules]:
        return VARIANTS

    def ruleset(
        self, variant: str | None = None, options: Mapping[str, Any] | None = None
    ) -> Ruleset:
        rules = super().ruleset(variant, options)
        assert isinstance(rules, MonsterMakerRules)
        # Load the card files now, so a bad file fails before any game starts.
        load_cardset(rules.cards, rules.treasures, rules.prizes)
        return rules

    def create(self, players: int, seed: int, rules: Ruleset) -> MonsterMakerState:
        assert isinstance(rules, MonsterMakerRules)
        return MonsterMakerState(self, players, seed, rules)

    def num_actions(self, players: int, rules: Ruleset) -> int:
        assert isinstance(rules, MonsterMakerRules)
        return len(action_space(load_cardset(rules.cards, rules.treasures, rules.prizes)))

    def agents(self) -> Mapping[str, Callable[..., Any]]:
        from .bots import HeuristicAgent

        return {"heuristic": HeuristicAgent}

    def render(self, view: Mapping[str, Any], events: Sequence[Event]) -> RenderableType:
        from .render import render_view

        return render_view(view, events)

    def describe_event(self, event: Event, names: Sequence[str] | None = None) -> str:
        from .describe import describe

        return describe(event, names)

    def catalog(self, rules: Ruleset) -> dict[str, Any] | None:
        from .catalog import catalog

        assert isinstance(rules, MonsterMakerRules)
        return catalog(rules)

    def render_catalog(self, catalog: Mapping[str, Any]) -> RenderableType:
        from .render import render_catalog

        return render_catalog(catalog)

    def score_tool(self, payload: Mapping[str, Any], rules: Ruleset) -> dict[str, Any] | None:
        """``{"treasures": [...], "prizes": [...]}`` -> their gold (min, max, mean,
        card by card); ``"battle": {"monster", "party", "road_back"}`` -> the party's
        odds, from the game's own battle rules (RULES.md, "The score tool")."""
        from .scoring import score_payload

        assert isinstance(rules, MonsterMakerRules)
        cs = load_cardset(rules.cards, rules.treasures, rules.prizes)
        return score_payload(cs, rules, payload)

    def lab_tracker(self, state: Any) -> Any:  # the designer's lab: stats.py
        from .stats import tracker

        return tracker(state)
