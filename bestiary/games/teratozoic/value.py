"""Each seat's chance of winning a Teratozoic game from an unfinished position,
for tree search (the ``value_estimate`` hook of ``bestiary.agents.value``).

'At the end of the Teratozoic Era, each player assembles their entire Gene
Pool into up to three of the largest single-color monsters with no loose
ends ... The player with the highest total is the winner.' Solving the
closed monsters of every seat at every playout's end would cost more than
the playout, so the estimate counts a seat's single-colour cards in its three
best colours (an upper bound of that total that grows with it) and turns the
counts into chances with a softmax, flatter while more Eras are still to
come. An eliminated seat has no chance. It reads a search's own sample, never
the real game.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...agents.value import softmax_chances

#: The heuristic's tuned options (RULES.md, "Bots"): a doubling card valued
#: more, a card's closing gain measured against the Gene Pool without the
#: hand's ungained cards, colour share late weighed less. Against the plain
#: bot, seats rotated: 2 seats 1,257 of 2,000 fresh games (62.8%, seeds
#: 40000-40999 and 50000-50999); 4 seats, one against three plain, 1.77x a
#: fair share (RULES.md for the counts). ``doubler=6`` alone: 56.8%.
TUNED = "doubler=9;marginal=1;share_late=2"
#: What the search plays with here (the hint and the server's hard level add
#: it): the tuned heuristic as its guide and in its playouts, with one sample
#: of the others' hands per expression plan in playouts (``samples=1``); it
#: overrules the guide only by three standard errors (``confidence=3``).
#: docs/RL.md, "Strength".
SEARCH_OPTIONS = f"playout=samples=1;{TUNED},guide={TUNED},confidence=3"
#: Playout decisions before the estimate scores a search's sample.
VALUE_DEPTH = 16
#: Cards for e:1 odds in the final Era; more per Era still to come. Both are
#: fitted to which seat went on to win heuristic self-play (every fifth game
#: held out). Two seats (400 games, seeds 70000-70399): the former hand-set 1.5
#: + 1.0 per Era was overconfident in every Era (best factor k 0.73 / 0.68 /
#: 0.54 with 0 / 1 / 2 Eras to come, i.e. scales 2.0 / 3.7 / 6.5; held-out log
#: loss of the winner 0.130 / 0.402 / 0.669 before, 0.126 / 0.376 / 0.657 at the
#: best k). Three or more (4 seats, 80 games, seeds 70000-70079: 0.848 before,
#: 0.819 after; the hand-set ones were too flat in the middle Eras).
SCALE = 2.0
SCALE_PER_ERA = 2.1
SCALE_MANY = 1.7
SCALE_PER_ERA_MANY = 0.6


def colour_cards(state: Any, seat: int) -> int:
    """Single-colour cards the seat owns in its three best colours."""
    deck = state.deck
    count: Counter[str] = Counter(
        deck[c].colour for c in state.owned(seat) if deck[c].single_colour
    )
    return sum(n for _, n in count.most_common(3))


def value_estimate(state: Any) -> list[float]:
    """Win chances per seat (see the module docstring); ``state`` is a ``TeratozoicState``."""
    n = state.players
    if state.over:
        winners = state.result.winners
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]
    alive = [s for s in range(n) if state._in_play(s)]
    if not alive:
        return [1.0 / n] * n
    counts = {s: float(colour_cards(state, s)) for s in alive}
    base, per_era = (SCALE, SCALE_PER_ERA) if n == 2 else (SCALE_MANY, SCALE_PER_ERA_MANY)
    chances = softmax_chances(list(counts.values()), base + per_era * (len(state.eras) - 1))
    out = [0.0] * n
    for s, p in zip(counts, chances, strict=True):
        out[s] = p
    return out


def value_stage(state: Any) -> int:
    """Eras still to come after this one (the stage the estimate's scale
    depends on; ``bestiary.agents.fit_value`` fits a scale per stage)."""
    return len(state.eras) - 1
