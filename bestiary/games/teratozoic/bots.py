"""The ``heuristic`` Teratozoic bot.

It follows the rulebook's 'Overview of Basic Strategies':

- Expression: it samples what the others may hold (``determinize``), builds
  everyone's best monsters with the solver and estimates its chance to win.
  Expecting to win, it expresses everything; expecting to lose, it holds
  back its best genes ('If you only have a couple of good cards, hold them
  back and then keep the best for your Gene Pool').
- Growth: the solver's best build.
- Breeding: it takes and keeps the cards worth most to its Gene Pool: face
  value for winning generations, and more and more (as the Eras pass) the
  colours its Gene Pool already has, since the final scoring counts cards in
  single-colour monsters.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bestiary.agents.base import AgentContext
from bestiary.engine import Rng

from .cards import Card, cards_from
from .rules import BUILD_BEST, EXPRESS, Hold, Keep, Take, TeratozoicState
from .solver import best_build


class HeuristicAgent:
    def __init__(self, seed: int = 0, samples: int | str = 6) -> None:
        self.rng = Rng(seed)
        self.samples = int(samples)
        if self.samples < 1:
            raise ValueError("samples must be at least 1")
        self._plan: dict[tuple[int, int], list[int]] = {}

    # ------------------------------------------------------------ values
    @staticmethod
    def gene_value(card: Card, colours: Counter[str], progress: float) -> float:
        """How much a card is worth in one's Gene Pool (progress: 0 first Era .. 1 final)."""
        v = float(card.value)
        if not card.single_colour or card.colour in ("red", "blue", "yellow"):
            # Never part of a single-colour monster with other cards.
            return v * (1.0 - progress) - 3.0 * progress
        share = colours[card.colour] / max(sum(colours.values()), 1)
        if card.doubler:
            v += 3.0
        return v + (2.0 + 8.0 * progress) * share

    def _colours(self, deck: tuple[Card, ...], view: dict[str, Any], seat: int) -> Counter[str]:
        me = view["players"][seat]
        ids = list(view.get("my_gene_pool", [])) + list(me["discard"]) + list(view.get("hand", []))
        return Counter(deck[i].colour for i in ids)

    @staticmethod
    def _progress(view: dict[str, Any]) -> float:
        past = len(view["eras_past"])
        total = past + 1 + len(view["eras_left"])
        return past / max(total - 1, 1)

    # ------------------------------------------------------------ deciding
    def act(self, ctx: AgentContext) -> Any:
        legal = list(ctx.legal())
        if len(legal) == 1:
            return legal[0]
        view = ctx.view()
        seat = ctx.seat
        deck = cards_from(view.get("cards_file") or "")
        ignore = bool(getattr(ctx.rules, "doubling_ignores_colour", False))
        phase = view["phase"]
        if phase == "growth":
            return BUILD_BEST
        colours = self._colours(deck, view, seat)
        progress = self._progress(view)

        def worth(a: Any) -> float:
            return self.gene_value(deck[a.card], colours, progress)

        if phase in ("breed-play", "breed-hand"):
            picks = [a for a in legal if isinstance(a, (Take, Keep))]
            return max(picks, key=lambda a: (worth(a), -a.card))
        # Expression: plan once per generation, then hold the planned cards.
        key = (view["generation"], seat)
        if key not in self._plan:
            self._plan = {key: self._expression_plan(ctx, view, deck, colours, progress, ignore)}
        holds = {a.card: a for a in legal if isinstance(a, Hold)}
        for card in self._plan[key]:
            if card in holds and card not in view["held_cards"]:
                return holds[card]
        return EXPRESS

    def _expression_plan(
        self,
        ctx: AgentContext,
        view: dict[str, Any],
        deck: tuple[Card, ...],
        colours: Counter[str],
        progress: float,
        ignore: bool,
    ) -> list[int]:
        hand: list[int] = list(view["hand"])
        min_play = min(view["era"]["min_play"], len(hand))
        can_hold = len(hand) - min_play
        if can_hold <= 0:
            return []
        mine = best_build(deck, hand, ignore).score
        wins = 0.0
        for _ in range(self.samples):
            state = ctx.determinize()
            assert isinstance(state, TeratozoicState)
            best_other = 0
            for s in state.competing:
                if s == ctx.seat:
                    continue
                declared = view["players"][s]["declared"]
                cards = state.played(s) if declared else state.hand[s]
                best_other = max(best_other, best_build(deck, cards, ignore).score)
            wins += 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0
        if wins / self.samples >= 0.5:
            return []
        # Expecting to lose: hold back the best genes, play the rest.
        ranked = sorted(hand, key=lambda c: -self.gene_value(deck[c], colours, progress))
        return ranked[:can_hold]
