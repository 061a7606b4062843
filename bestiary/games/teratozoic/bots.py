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

Options (``heuristic:samples=6,threshold=0.5``; every default is the plain
bot, whose games the golden records replay):

- ``samples`` (6): hidden-card samples per expression decision (its main cost).
- ``threshold`` (0.5): the estimated chance to win from which it expresses
  everything; below it, it holds back its best genes.
- ``read`` (0): what the others declared moves that threshold: a player who
  could hold back and expressed everything shows a strong hand (raise it by
  ``read``); when every other player held back, they play their weaker cards
  (lower it by ``read``). Public information only: the numbers held back.
- ``close`` (12), ``doubler`` (3), ``share`` (2), ``share_late`` (8), ``mixed``
  (3): the weights of ``gene_value`` (see :class:`Weights`).
- ``marginal`` (0): a card's closing gain is measured against the Gene Pool
  without the hand's cards not gained yet. The plain bot's base holds the
  whole hand, so a card in hand is priced as a second copy of itself: the
  head that would close its neck and claw into a monster adds nothing there.
- ``hold_close`` (0): expecting to lose, it ranks the genes to hold back by
  what their loss would cost its largest closed monsters too, not by face
  value and colour alone.
- ``fair`` (0): ``threshold`` is a two-player bar; with n players competing it
  is scaled by 2/n (a fair share of the wins).
- ``stake`` (0): instead of the threshold, it weighs what a play risks against
  what it may win (see ``_staked_plan``): hold back none, one, two ... of its
  best genes, whichever gives the largest ``chance x stake x the cards the
  winner takes - (1 - chance) x what its own gains lose``.

The stronger setting is ``heuristic:doubler=6``: a doubling card doubles the
cards of its colour in its monster ('double both face values and bonus
points'), so it wins generations far beyond its face value, and the Gene Pool
grows only by winning them. Seat-rotated against the plain bot it won 55.4%
of 1000 two-seat games (seeds 7000-7999), 56.8% of 1000 fresh ones (seeds
20000-20999) and 30.9% of 400 four-seat games as one against three (a fair
share is 25%), at the plain bot's cost per decision. ``read=0.3`` came out
even (51.4% and 50.9%); other values (``threshold`` 0.4/0.6/0.7, ``samples``
3/10, ``close`` 20, ``mixed`` 6) did no better in 500-game screens.

Stronger still is ``heuristic:doubler=6,marginal=1``: seat-rotated against
the plain bot on fresh seeds 40000-40999 it won 605 of 1000 two-seat games
(60.5%, Wilson 95% 57.4-63.5%) and 428.25 of 1000 four-seat games as one
against three (42.8%, 39.8-45.9%: 1.71x a fair share), at the plain bot's
cost per decision (RULES.md, "Bots", also for what did not help). With the
closing gain measured right a doubling card is worth more and the colour
share less: ``heuristic:doubler=9,marginal=1,share_late=2`` won 631 of 1000
two-seat games on seeds 40000-40999 (63.1%, 60.1-66.0%), 626 of 1000 on seeds
50000-50999 (62.6%, 59.6-65.5%) and 443.25 of 1000 four-seat games (44.3%,
41.3-47.4%: 1.77x a fair share; 47.7% of 1000 fresh ones, seeds 50000-50999).
It is the tuned setting the search plays (``value.TUNED``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from bestiary.agents.base import AgentContext
from bestiary.agents.context import option_flag, option_number
from bestiary.engine import Rng

from .cards import Card, cards_from
from .closed import parity_vector, upper_bound
from .rules import BUILD_BEST, EXPRESS, Hold, Keep, Take, TeratozoicState
from .sampling import Hands
from .solver import best_build, connect_all, shape_of
from .tiles import monster_value


class Weights(NamedTuple):
    """The hand-set weights of ``gene_value`` (defaults: the plain bot)."""

    close: float = 12.0  # per card the closed-monster bound grows, times progress
    doubler: float = 3.0  # bonus of a single-colour doubling card
    share: float = 2.0  # colour share weight in the first Era ...
    share_late: float = 8.0  # ... plus this much more by the final Era
    mixed: float = 3.0  # penalty (times progress) of cards never in a 1-colour monster


PLAIN = Weights()

# What growth and the expression steps after the plan read of the view.
_BRIEF = frozenset({"phase", "generation", "held_cards"})


class HeuristicAgent:
    def __init__(
        self,
        seed: int = 0,
        samples: int | str = 6,
        threshold: float | str = 0.5,
        close: float | str = PLAIN.close,
        doubler: float | str = PLAIN.doubler,
        share: float | str = PLAIN.share,
        share_late: float | str = PLAIN.share_late,
        mixed: float | str = PLAIN.mixed,
        read: float | str = 0.0,
        stake: float | str = 0.0,
        marginal: bool | str = False,
        hold_close: bool | str = False,
        fair: bool | str = False,
    ) -> None:
        self.rng = Rng(seed)
        try:
            self.samples = int(samples)
        except (TypeError, ValueError):
            raise ValueError(f"samples must be a whole number, not {samples!r}") from None
        if self.samples < 1:
            raise ValueError("samples must be at least 1")
        self.threshold = option_number("threshold", threshold, 0.0, 1.0)
        self.weights = Weights(
            close=option_number("close", close, 0.0),
            doubler=option_number("doubler", doubler, 0.0),
            share=option_number("share", share, 0.0),
            share_late=option_number("share_late", share_late, 0.0),
            mixed=option_number("mixed", mixed, 0.0),
        )
        self.read = option_number("read", read, 0.0, 1.0)
        self.stake = option_number("stake", stake, 0.0)
        self.marginal = option_flag("marginal", marginal)
        self.hold_close = option_flag("hold_close", hold_close)
        self.fair = option_flag("fair", fair)
        self._plan: dict[tuple[int, int], list[int]] = {}
        self._gains: _Gains | None = None  # the last decision's closing gains

    # ------------------------------------------------------------ values
    @staticmethod
    def gene_value(
        card: Card,
        colours: Counter[str],
        progress: float,
        closes: int = 0,
        weights: Weights = PLAIN,
    ) -> float:
        """How much a card is worth in one's Gene Pool (progress: 0 first Era .. 1
        final). ``closes``: how many more cards the largest closed monster of its
        colour could hold with it (see ``closing_gain``)."""
        w = weights
        v = float(card.value)
        if not card.single_colour or card.colour in ("red", "blue", "yellow"):
            # Never part of a single-colour monster with other cards.
            return v * (1.0 - progress) - w.mixed * progress
        share = colours[card.colour] / max(sum(colours.values()), 1)
        if card.doubler:
            v += w.doubler
        return v + (w.share + w.share_late * progress) * share + w.close * progress * closes

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
    def closing_loss(deck: tuple[Card, ...], owned: list[int], card: int) -> int:
        """How much the proven upper bound on the largest closed monster of the
        card's colour falls when the card leaves the Gene Pool ``owned`` (which
        holds it)."""
        if not deck[card].single_colour:
            return 0
        colour = deck[card].colour
        mine = Counter(shape_of(deck[c]) for c in owned if deck[c].colour == colour)
        without = mine - Counter([shape_of(deck[card])])
        return _bound(mine) - _bound(without)

    @staticmethod
    def _owned(view: dict[str, Any], seat: int) -> list[int]:
        """The seat's Gene Pool as it knows it: draw pile, discard pile (gains
        included) and hand."""
        me = view["players"][seat]
        kept = set(me["discard"])
        hand = [c for c in view.get("hand", []) if c not in kept]
        return list(view.get("my_gene_pool", [])) + list(me["discard"]) + hand

    def _gain_base(self, view: dict[str, Any], seat: int) -> list[int]:
        """The Gene Pool a card's closing gain is measured against: with
        ``marginal``, without the hand's cards not gained yet (each of them is
        a candidate to join it, so the plain bot's base, which holds them all,
        prices a card in hand as a second copy of itself)."""
        if not self.marginal:
            return self._owned(view, seat)
        me = view["players"][seat]
        return list(view.get("my_gene_pool", [])) + list(me["discard"])

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

    @staticmethod
    def _take_gains(
        view: dict[str, Any], seat: int, cards: list[int], worth: Any
    ) -> dict[int, float]:
        """``_take_gain`` of each of ``cards`` (one decision): the own cards
        ranked once, not once per card (the same values, summed in the same
        order)."""
        me = view["players"][seat]
        own = set(view.get("hand", [])) | set(me["played"] or [])
        own -= set(view.get("taken", []))
        keeps = view["era"]["winner_hand"]
        ranked = sorted(((worth(c), c) for c in own), key=lambda wc: wc[0], reverse=True)
        out: dict[int, float] = {}
        for card in cards:
            rest = [w for w, c in ranked[: keeps + 1] if c != card][:keeps]
            out[card] = float(worth(card)) + sum(rest)
        return out

    def _colours(self, deck: tuple[Card, ...], view: dict[str, Any], seat: int) -> Counter[str]:
        me = view["players"][seat]
        ids = list(view.get("my_gene_pool", [])) + list(me["discard"]) + list(view.get("hand", []))
        return Counter(map(_colours_of(deck).__getitem__, ids))

    @staticmethod
    def _progress(view: dict[str, Any]) -> float:
        past = len(view["eras_past"])
        total = past + 1 + len(view["eras_left"])
        return past / max(total - 1, 1)

    # ------------------------------------------------------------ deciding
    def act(self, ctx: AgentContext) -> Any:
        legal = ctx.legal()
        if len(legal) == 1:
            return legal[0]
        # Growth and the expression steps after the plan read three entries of
        # the view (built alone: ``partial_view``); the rest read it whole.
        brief = ctx.view(_BRIEF)
        phase = brief["phase"]
        if phase == "growth":
            return BUILD_BEST
        seat = ctx.seat
        if phase == "expression":
            # Plan once per generation, then hold the planned cards.
            key = (brief["generation"], seat)
            if key not in self._plan:
                view = ctx.view()
                deck = cards_from(view.get("cards_file") or "")
                ignore = bool(getattr(ctx.rules, "doubling_ignores_colour", False))
                progress = self._progress(view)
                plan = self._expression_plan(ctx, view, deck, progress, ignore)
                self._plan = {key: plan}
            holds = {a.card: a for a in legal if isinstance(a, Hold)}
            for card in self._plan[key]:
                if card in holds and card not in brief["held_cards"]:
                    return holds[card]
            return EXPRESS
        view = ctx.view()
        deck = cards_from(view.get("cards_file") or "")
        worth = self._worth(deck, view, seat)
        if phase == "breed-play":
            takes = [a for a in legal if isinstance(a, Take)]
            gain = self._take_gains(view, seat, [a.card for a in takes], worth)
            return max(takes, key=lambda a: (gain[a.card], -a.card))
        keeps = [a for a in legal if isinstance(a, Keep)]  # breed-hand
        return max(keeps, key=lambda a: (worth(a.card), -a.card))

    def _worth(
        self, deck: tuple[Card, ...], view: dict[str, Any], seat: int
    ) -> Callable[[int], float]:
        """``gene_value`` of a card in this decision, once per card (rollouts
        call this a lot). The closing gains (``_Gains``) are shared by the
        decisions whose Gene Pool base is the same (a seat keeping cards one
        by one: a kept card moves from its hand to its discard pile)."""
        colours = self._colours(deck, view, seat)
        progress = self._progress(view)
        gains = None
        if progress > 0:
            base = tuple(sorted(self._gain_base(view, seat)))
            gains = self._gains
            if gains is None or gains.deck is not deck or gains.key != base:
                gains = self._gains = _Gains(deck, base)
        worths: dict[int, float] = {}
        weights = self.weights

        def worth(card: int) -> float:
            got = worths.get(card)
            if got is None:
                closes = gains.of(card) if gains is not None else 0
                got = worths[card] = self.gene_value(deck[card], colours, progress, closes, weights)
            return got

        return worth

    def _threshold(self, view: dict[str, Any], seat: int) -> float:
        """The chance to win above which the bot expresses everything. With
        ``read``, what the others declared moves it: a player who could hold
        back and expressed everything shows a strong hand (raise it by
        ``read``); when every other player held back, their plays are their
        weaker cards (lower it by ``read``)."""
        threshold = self.threshold
        if self.fair:
            # The threshold is for two players; with more, a fair share is smaller.
            competing = sum(1 for p in view["players"] if p["competing"])
            threshold *= 2.0 / max(competing, 2)
        if not self.read:
            return threshold
        min_play = view["era"]["min_play"]
        others = [p for s, p in enumerate(view["players"]) if s != seat and p["competing"]]
        declared = [p for p in others if p["declared"]]
        if any(p["held_count"] == 0 and p["hand_size"] > min_play for p in declared):
            return threshold + self.read
        if others and len(declared) == len(others) and all(p["held_count"] for p in others):
            return threshold - self.read
        return threshold

    def _expression_plan(
        self,
        ctx: AgentContext,
        view: dict[str, Any],
        deck: tuple[Card, ...],
        progress: float,
        ignore: bool,
    ) -> list[int]:
        hand: list[int] = list(view["hand"])
        min_play = min(view["era"]["min_play"], len(hand))
        can_hold = len(hand) - min_play
        if can_hold <= 0:
            return []
        # The colour shares (``_colours``) value the genes: worked out only
        # where they are (a staked plan, or holding back).
        if self.stake:
            colours = self._colours(deck, view, ctx.seat)
            return self._staked_plan(ctx, view, deck, colours, progress, ignore, can_hold)
        mine = _Score(deck, hand, ignore)
        if self._expects_to_win(ctx, view, deck, ignore, mine):
            return []
        # Expecting to lose: hold back the best genes, play the rest.
        colours = self._colours(deck, view, ctx.seat)
        w = self.weights
        losses: dict[int, int] = {}
        if self.hold_close and progress > 0:
            owned = self._owned(view, ctx.seat)
            losses = {c: self.closing_loss(deck, owned, c) for c in hand}

        def kept_worth(c: int) -> float:
            return self.gene_value(deck[c], colours, progress, losses.get(c, 0), w)

        ranked = sorted(hand, key=lambda c: -kept_worth(c))
        return ranked[:can_hold]

    def _expects_to_win(
        self,
        ctx: AgentContext,
        view: dict[str, Any],
        deck: tuple[Card, ...],
        ignore: bool,
        mine: _Score,
    ) -> bool:
        """Whether ``mine`` wins often enough: over ``samples`` samples of the
        hidden cards, 1 per sample where it beats every other competing
        player's best build (a declared player's played cards, else its whole
        hand), a half where the best of them ties it, the total over
        ``samples`` at least the threshold (``_threshold``).

        Only what settles that is worked out. A build that cannot reach
        ``mine`` (``_score_bounds``) is not solved, a sample stops at the first
        build above it, and once the count settles the answer (enough wins
        already, or too few even if every sample left were won) the samples
        left are drawn but not read. Every sample is still drawn (the seat's
        RNG must move on as before, or later samples would differ); after the
        first, from it: a world the seat cannot tell from the real one samples
        as the real one does (``sampling.py``), and its sampler pays the work
        every sample shares once."""
        wins = 0.0
        seat = ctx.seat
        players = view["players"]
        threshold = self._threshold(view, seat)
        samples = self.samples
        sampler = None
        rivals: list[tuple[int, bool]] = []  # the other competing seats, and whether declared
        for left in range(samples - 1, -1, -1):
            hands: TeratozoicState | Hands
            if sampler is None:
                first = ctx.determinize()
                assert isinstance(first, TeratozoicState)
                hands, sampler = first, first.sampler(seat)
                rivals = [(s, players[s]["declared"]) for s in first.competing if s != seat]
            elif wins / samples >= threshold or (wins + left + 1) / samples < threshold:
                sampler.skip(ctx.rng)  # settled: the draws only
                continue
            else:
                hands = sampler.hands(ctx.rng)
            plays = [hands.played(s) if declared else hands.hand[s] for s, declared in rivals]
            wins += _sample_wins(deck, plays, ignore, mine)
        return wins / samples >= threshold

    def _sample_others(
        self, ctx: AgentContext, view: dict[str, Any], deck: tuple[Card, ...], ignore: bool
    ) -> list[tuple[int, list[int]]]:
        """Per sample of the hidden cards (``samples`` of them): the best score
        among the other competing players' plays (a declared player's played
        cards, else its whole hand) and the cards they play."""
        out: list[tuple[int, list[int]]] = []
        for _ in range(self.samples):
            state = ctx.determinize()
            assert isinstance(state, TeratozoicState)
            best_other = 0
            played: list[int] = []
            for s in state.competing:
                if s == ctx.seat:
                    continue
                declared = view["players"][s]["declared"]
                cards = state.played(s) if declared else state.hand[s]
                best_other = max(best_other, best_build(deck, cards, ignore).score)
                played += cards
            out.append((best_other, played))
        return out

    def _staked_plan(
        self,
        ctx: AgentContext,
        view: dict[str, Any],
        deck: tuple[Card, ...],
        colours: Counter[str],
        progress: float,
        ignore: bool,
        can_hold: int,
    ) -> list[int]:
        """``stake``: weigh what a play risks against what it may win ('if you
        have more than a couple good cards, you're safe to risk them ... The
        winner can never take more than 1 or 2 cards'). For holding back none,
        the best one, the best two ... of its genes, it estimates the chance to
        win with the rest (the same samples of the others' plays) and values

            chance x stake x (the best cards on the table the winner takes)
            - (1 - chance) x share x (what its own gains lose if the winner
              takes its best played cards)

        in ``gene_value`` units, ``share`` being one over the number of other
        players (the winner may take from any play). It holds back the set with
        the largest value (the fewest cards on equal values)."""
        hand: list[int] = list(view["hand"])
        w = self.weights

        def worth(c: int) -> float:
            return self.gene_value(deck[c], colours, progress, 0, w)

        ranked = sorted(hand, key=lambda c: -worth(c))
        era = view["era"]
        takes, keeps = era["winner_play"], era["others_hand"]
        others: list[int] = []  # the best other play's score, per sample
        table: list[list[float]] = []  # the others' played cards' worths, per sample
        for best_other, cards in self._sample_others(ctx, view, deck, ignore):
            others.append(best_other)
            table.append([worth(c) for c in cards])
        rivals = max(
            sum(
                1
                for s in range(len(view["players"]))
                if s != ctx.seat and view["players"][s]["competing"]
            ),
            1,
        )

        def top(values: list[float], n: int) -> float:
            return sum(sorted(values, reverse=True)[:n])

        keep_all = top([worth(c) for c in hand], keeps)
        best_value, best_hold = -float("inf"), 0
        for k in range(can_hold + 1):
            play = ranked[k:]
            mine = best_build(deck, play, ignore).score
            mine_w = [worth(c) for c in play]
            wins, gain = 0.0, 0.0
            for best_other, seen in zip(others, table, strict=True):
                wins += 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0
                gain += top(seen + mine_w, takes)
            chance = wins / self.samples
            gain /= self.samples
            lost = play[:takes]  # ranked: its best cards first
            rest = [worth(c) for c in hand if c not in lost]
            loss = keep_all - top(rest, keeps)
            value = chance * self.stake * gain - (1.0 - chance) * loss / rivals
            if value > best_value + 1e-9:
                best_value, best_hold = value, k
        return ranked[:best_hold]


class _Gains:
    """``closing_gain`` of many cards against one Gene Pool (``key``: its
    cards, sorted): the pool's shapes counted once per colour, and one answer
    per colour and shape (cards of one colour and shape gain alike)."""

    __slots__ = ("base", "deck", "done", "key", "mine", "shapes")

    def __init__(self, deck: tuple[Card, ...], owned: tuple[int, ...] | list[int]) -> None:
        self.deck = deck
        self.key = tuple(owned)
        self.shapes = shapes = _shapes(deck)
        counts: dict[str, dict[tuple[int, ...], int]] = {}
        for c in owned:
            per = counts.setdefault(deck[c].colour, {})
            shape = shapes[c]
            per[shape] = per.get(shape, 0) + 1
        self.mine = counts
        self.base: dict[str, int] = {}
        self.done: dict[tuple[str, tuple[int, ...]], int] = {}

    def of(self, card: int) -> int:
        """``HeuristicAgent.closing_gain(deck, owned, card)``."""
        c = self.deck[card]
        if not c.single_colour:
            return 0
        shape = self.shapes[card]
        key = (c.colour, shape)
        got = self.done.get(key)
        if got is None:
            mine = self.mine.get(c.colour, {})
            base = self.base.get(c.colour)
            if base is None:
                base = self.base[c.colour] = _bound(mine)
            with_card = mine.copy()
            with_card[shape] = with_card.get(shape, 0) + 1
            got = self.done[key] = _bound(with_card) - base
        return got


# Per card set (by identity; decks are cached per card file): every card's
# ``shape_of``.
_SHAPES: dict[int, tuple[tuple[Card, ...], tuple[tuple[int, ...], ...]]] = {}


def _shapes(deck: tuple[Card, ...]) -> tuple[tuple[int, ...], ...]:
    got = _SHAPES.get(id(deck))
    if got is None or got[0] is not deck:
        got = _SHAPES[id(deck)] = (deck, tuple(shape_of(c) for c in deck))
    return got[1]


class _Score:
    """The score of the bot's own best build, solved only when a comparison
    needs it: its bounds (``_score_bounds``, exact when they meet) answer
    every comparison with a number outside them (issue 31: solving the
    bot's whole hand once per plan was about a tenth of a heuristic game's
    time, and the plan only compares that score with the others' bounds and
    builds)."""

    __slots__ = ("cards", "deck", "high", "ignore", "low", "solved")

    def __init__(self, deck: tuple[Card, ...], cards: list[int], ignore: bool) -> None:
        self.deck, self.cards, self.ignore = deck, cards, ignore
        self.low, self.high = _score_bounds(deck, cards, ignore)
        self.solved: int | None = self.low if self.low == self.high else None

    def exact(self) -> int:
        """``best_build(deck, cards, ignore).score``."""
        if self.solved is None:
            self.solved = self.low = self.high = best_build(
                self.deck, self.cards, self.ignore
            ).score
        return self.solved

    def below(self, other: int) -> bool:
        """Whether the score is below ``other``."""
        if self.high < other:
            return True
        return self.low < other and self.exact() < other

    def at_most(self, other: int) -> bool:
        """Whether the score is at most ``other``."""
        if self.high <= other:
            return True
        return self.low <= other and self.exact() <= other

    def equals(self, other: int) -> bool:
        """Whether the score is ``other``."""
        return self.low <= other <= self.high and self.exact() == other


def _sample_wins(
    deck: tuple[Card, ...], plays: list[list[int]], ignore: bool, mine: _Score
) -> float:
    """1 when ``mine`` beats the best build of every play, a half when the
    best of them ties it, else 0. Plays are solved only where their bounds
    (``_score_bounds``, then ``_pair_low``) leave the comparison open, and
    not at all once one is known to beat ``mine``; ``mine`` is solved only
    where its own bounds leave a comparison open."""
    open_plays: list[tuple[list[int], int, int]] = []
    for cards in plays:
        low, high = _score_bounds(deck, cards, ignore)
        if mine.below(low):
            return 0.0  # beaten, whatever the rest
        if mine.at_most(high):  # else best_build's score is below ``mine``
            open_plays.append((cards, low, high))
    tie = False
    for cards, low, high in open_plays:
        if low == high:
            score = low
        elif mine.below(_pair_low(deck, cards, ignore, low)):
            return 0.0
        else:
            score = best_build(deck, cards, ignore).score
        if mine.below(score):
            return 0.0
        tie = tie or mine.equals(score)
    return 0.5 if tie else 1.0


def _pair_low(deck: tuple[Card, ...], cards: list[int], ignore: bool, low: int) -> int:
    """A lower bound on ``best_build(deck, cards, ignore).score`` above
    ``low`` (every card laid apart) where a doubling card can double another:
    the best of those builds with one doubling card and one card it doubles
    joined (``connect_all``: one monster, loose ends allowed), the rest apart."""
    rows = _bound_rows(deck)
    best = low
    for d in cards:
        dr = rows[d]
        if not (dr.doubler and dr.ends):
            continue
        for c in cards:
            cr = rows[c]
            if c == d or not cr.ends or not (ignore or cr.colour == dr.colour):
                continue
            pair = (deck[d], deck[c])
            if connect_all(tuple(sorted(shape_of(x) for x in pair))) is None:
                continue
            best = max(best, low - dr.apart - cr.apart + monster_value(pair, False, ignore))
    return best


# Per card set (by identity; decks are cached per card file): every card's colour.
_COLOURS: dict[int, tuple[tuple[Card, ...], tuple[str, ...]]] = {}


def _colours_of(deck: tuple[Card, ...]) -> tuple[str, ...]:
    got = _COLOURS.get(id(deck))
    if got is None or got[0] is not deck:
        got = _COLOURS[id(deck)] = (deck, tuple(c.colour for c in deck))
    return got[1]


class _BoundRow(NamedTuple):
    """What ``_score_bounds`` reads of a card."""

    colour: str
    value: int
    doubler: bool
    single: bool  # of one colour (not grey, not three-colour)
    ends: bool
    apart: int  # its value laid alone (closed when it has no ends; any ``ignore``)
    parity: int  # its ends' parity vector (closed.parity_vector)


# Per card set (by identity; decks are cached per card file): its cards' rows.
_BOUND_ROWS: dict[int, tuple[tuple[Card, ...], list[_BoundRow]]] = {}


def _bound_rows(deck: tuple[Card, ...]) -> list[_BoundRow]:
    got = _BOUND_ROWS.get(id(deck))
    if got is None or got[0] is not deck:
        rows = [
            _BoundRow(
                c.colour,
                c.value,
                c.doubler,
                c.single_colour,
                c.orients[0] != 0,
                monster_value([c], c.orients[0] == 0, False),
                parity_vector(c.orients[0]),
            )
            for c in deck
        ]
        got = _BOUND_ROWS[id(deck)] = (deck, rows)
    return got[1]


def _score_bounds(deck: tuple[Card, ...], cards: list[int], ignore: bool) -> tuple[int, int]:
    """A lower and an upper bound on ``best_build(deck, cards, ignore).score``,
    cheap beside the solver.

    Lower: every card laid apart (a build the solver may choose: one-card
    monsters, closed when the card has no ends, plus one when all are).
    Upper: a build scores its monsters' values plus one when all are closed.
    A card without ends joins no other: it scores as laid apart. A card with
    ends counts its face value doubled per doubling card of its colour in
    its monster (any colour with ``ignore``), so at most per doubling card
    with ends of its colour among ``cards``; a closed single-colour monster
    of several cards adds 1 doubled per doubling card in it, and a colour
    has at most one such monster per two of its cards with ends, none when
    no two or more of them pair their ends up (``_pair_up``). In a closed
    monster every end meets one, so the parity vectors of its cards XOR to
    0: all monsters closed needs that of the whole play."""
    rows = _bound_rows(deck)
    low = alone = parity = face = 0  # alone: the cards without ends; face: the others' values
    linked = False  # a card with ends
    doublers: dict[str, int] = {}  # per colour, its doubling cards with ends
    joined: dict[str, list[int]] = {}  # per single colour, its cards with ends' parities
    for c in cards:
        colour, value, doubler, single, ends, apart, vector = rows[c]
        low += apart
        parity ^= vector
        if not ends:
            alone += apart
            continue
        linked = True
        face += value
        if doubler:
            doublers[colour] = doublers.get(colour, 0) + 1
        if single:
            got = joined.get(colour)
            if got is None:
                joined[colour] = [vector]
            else:
                got.append(vector)
    if doublers:
        # Per colour, its cards' face values doubled per doubling card that
        # can reach them (without one, each counts once: ``face``).
        every = sum(doublers.values())
        face = 0
        for c in cards:
            colour, value, _, _, ends, _, _ = rows[c]
            if ends:
                face += value << (every if ignore else doublers.get(colour, 0))
    high = alone + face
    for colour, vectors in joined.items():
        if len(vectors) > 1 and _pair_up(vectors):
            high += (len(vectors) // 2) << doublers.get(colour, 0)
    return low + int(not linked and bool(cards)), high + int(parity == 0)


def _pair_up(vectors: list[int]) -> bool:
    """Whether two or more of these parity vectors XOR to 0: two are 0, or
    the others are linearly dependent (over GF(2), kept as a basis of
    distinct leading bits, largest first)."""
    if len(set(vectors)) < len(vectors):
        return True  # two alike XOR to 0
    basis: list[int] = []
    zeros = 0
    for v in vectors:
        if not v:
            zeros += 1
            continue
        for b in basis:
            v = min(v, v ^ b)  # clears b's leading bit where v has it
        if not v:
            return True
        basis.append(v)
        basis.sort(reverse=True)
    return zeros > 1


def _bound(counts: Mapping[tuple[int, ...], int]) -> int:
    shapes = tuple(sorted(counts))
    return upper_bound(shapes, tuple(map(counts.__getitem__, shapes)))
