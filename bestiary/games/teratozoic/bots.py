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
  colours its Gene Pool already has and whether a card's ends let a larger
  closed monster be built (the final scoring counts cards in single-colour
  monsters with no loose ends). As the winner it takes from play what adds
  most to what it gains in all: its own played card is gained anyway when its
  'from hand' gains cover its whole hand (in the final Era always), so then
  it takes another player's card.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bestiary.agents.base import AgentContext
from bestiary.engine import Rng

from .cards import Card, cards_from
from .closed import upper_bound
from .rules import BUILD_BEST, EXPRESS, Hold, Keep, Take, TeratozoicState
from .solver import best_build, shape_of


class HeuristicAgent:
    def __init__(self, seed: int = 0, samples: int | str = 6) -> None:
        self.rng = Rng(seed)
        self.samples = int(samples)
        if self.samples < 1:
            raise ValueError("samples must be at least 1")
        self._plan: dict[tuple[int, int], list[int]] = {}

    # ------------------------------------------------------------ values
    @staticmethod
    def gene_value(card: Card, colours: Counter[str], progress: float, closes: int = 0) -> float:
        """How much a card is worth in one's Gene Pool (progress: 0 first Era .. 1
        final). ``closes``: how many more cards the largest closed monster of its
        colour could hold with it (see ``closing_gain``)."""
        v = float(card.value)
        if not card.single_colour or card.colour in ("red", "blue", "yellow"):
            # Never part of a single-colour monster with other cards.
            return v * (1.0 - progress) - 3.0 * progress
        share = colours[card.colour] / max(sum(colours.values()), 1)
        if card.doubler:
            v += 3.0
        return v + (2.0 + 8.0 * progress) * share + 12.0 * progress * closes

    @staticmethod
    def closing_gain(deck: tuple[Card, ...], owned: list[int], card: int) -> int:
        """How much the proven upper bound on the largest closed monster of the
        card's colour grows when the card joins the Gene Pool ``owned`` (0 for a
        card whose ends cannot help close anything there)."""
        colour = deck[card].colour
        if not deck[card].single_colour:
            return 0
        mine = Counter(shape_of(deck[c]) for c in owned if deck[c].colour == colour)
        with_card = mine + Counter([shape_of(deck[card])])
        return _bound(with_card) - _bound(mine)

    @staticmethod
    def _owned(view: dict[str, Any], seat: int) -> list[int]:
        """The seat's Gene Pool as it knows it: draw pile, discard pile (gains
        included) and hand."""
        me = view["players"][seat]
        kept = set(me["discard"])
        hand = [c for c in view.get("hand", []) if c not in kept]
        return list(view.get("my_gene_pool", [])) + list(me["discard"]) + hand

    @staticmethod
    def _take_gain(view: dict[str, Any], seat: int, card: int, worth: Any) -> float:
        """What the whole Breeding gains if the winner takes ``card`` now: the card
        (unless it is its own and its hand gains would keep it anyway) plus the
        best of its own cards its 'from hand' gains keep afterwards."""
        me = view["players"][seat]
        own = set(view.get("hand", [])) | set(me["played"] or [])
        own -= set(view.get("taken", []))
        keeps = view["era"]["winner_hand"]
        rest = sorted((worth(c) for c in own if c != card), reverse=True)[:keeps]
        return float(worth(card)) + sum(rest)

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
        owned = self._owned(view, seat)
        gains: dict[int, int] = {}  # one bound per card and decision (rollouts call this a lot)

        def worth(card: int) -> float:
            if progress > 0 and card not in gains:
                gains[card] = self.closing_gain(deck, owned, card)
            return self.gene_value(deck[card], colours, progress, gains.get(card, 0))

        if phase == "breed-play":
            takes = [a for a in legal if isinstance(a, Take)]
            return max(takes, key=lambda a: (self._take_gain(view, seat, a.card, worth), -a.card))
        if phase == "breed-hand":
            keeps = [a for a in legal if isinstance(a, Keep)]
            return max(keeps, key=lambda a: (worth(a.card), -a.card))
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


def _bound(counts: Counter[tuple[int, ...]]) -> int:
    shapes = tuple(sorted(counts))
    return upper_bound(shapes, tuple(counts[s] for s in shapes))
