"""Each seat's chance of winning a taxonomy game from an unfinished position, for
tree search (the ``value_estimate`` hook of ``bestiary.agents.value``).

A round goes to the first seat whose eight cards (hand and table) form a
pattern (4+4, 5+3 or 8, RULES.md reading 7), so a seat's chance of taking the
round grows with how many of its cards already fit its best pattern; the game
goes to the most points after the last round. The estimate adds the points
already scored to the round's expected points shared by readiness, and turns
the totals into chances with a softmax that is flatter while more rounds are
still to come. It reads a search's own sample, never the real game.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from ...agents.value import softmax_chances

#: The heuristic's tuned options (RULES.md, "The heuristic bot": against the
#: plain bot 71.8% of 2,000 two-seat games, 39.1% of 2,000 four-seat ones with
#: one tuned seat; ``cycle=6`` counts the cards a nature takes with a discard
#: as draws, since the hand is refilled at once).
TUNED = "greed=0;plan=reach;defend=60;cycle=6"
#: What the search plays with here (the hint and the server's hard level add
#: it): the tuned heuristic as its guide and in its playouts, which read only
#: the entries of their view they use (``lite=1``, the same moves, faster); it
#: overrules the guide only by three standard errors (``confidence=3``: with
#: several moves against the guide's, one standard error overruled it on
#: chance differences). Rock-paper-scissors (an aggressive monster's attack, a
#: quarter of a two-seat game's decisions) is left to the heuristic's even mix
#: (``leave=rps``): against a seat that chooses in secret no search does
#: better, so it only spends time. docs/RL.md, "Strength".
SEARCH_OPTIONS = f"playout=lite=1;{TUNED},guide={TUNED},confidence=3,leave=rps"
#: Playout decisions before the estimate scores a search's sample.
VALUE_DEPTH = 12
#: Points a round is worth to its winner, roughly (method 3 + content 3 or more).
ROUND_POINTS = 7.0
#: How much one more fitting card multiplies a seat's odds of taking the round.
READY_ODDS = 2.5
#: Points for e:1 odds at the end of the game; more per round still to play.
SCALE = 2.0
SCALE_PER_ROUND = 3.0
#: With two seats in the last round (no round to come) the scale is fitted:
#: ``bestiary.agents.fit_value taxonomy --players 2 --games 200`` (seeds
#: 70000-70199, 10 708 positions, every fifth game held out) found the old 2
#: points per factor e overconfident (best k = 0.5, held-out log loss of the
#: winner 0.519 -> 0.474). With rounds to come the estimate hardly beats a coin
#: (0.681-0.693 against 0.693) and no factor helped held out, so those stay.
LAST_ROUND_SCALE_2P = 4.0


def readiness(keys: list[tuple[int, ...]]) -> int:
    """How many of the eight cards fit the best pattern (8 when it is made)."""
    count: Counter[int] = Counter()
    for ks in keys:
        count.update(ks)
    top = count.most_common(2)
    first = top[0][1] if top else 0
    second = top[1][1] if len(top) > 1 else 0
    return max(
        min(first, 8),
        min(first, 4) + min(second, 4),
        min(first, 5) + min(second, 3),
    )


def value_estimate(state: Any) -> list[float]:
    """Win chances per seat (see the module docstring); ``state`` is a ``TaxonomyState``."""
    n = state.players
    if state.over:
        winners = state.result.winners
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]
    keys_of = state.deck.keys_of
    ready = []
    for s in range(n):
        cards = list(state.hands[s])
        for _key, laid in state.tables[s]:
            cards.extend(laid)
        ready.append(readiness([keys_of[c] for c in cards]))
    round_share = softmax_chances([float(r) for r in ready], 1.0 / math.log(READY_ODDS))
    strength = [state.scores[s] + ROUND_POINTS * round_share[s] for s in range(n)]
    rounds_after = max(state.rules.rounds - state.round - 1, 0)
    scale = SCALE + SCALE_PER_ROUND * rounds_after
    if n == 2 and rounds_after == 0:
        scale = LAST_ROUND_SCALE_2P
    return softmax_chances(strength, scale)


def value_ready(state: Any) -> bool:
    """Is the estimate worth asking here (the search's ``ready=auto``)? At the
    end of the game or of a round (the next round's first turn): the round's
    winner and points are then known, where mid-round the estimate can only
    guess them from readiness. Off by default (``ready=none``)."""
    return bool(state.over or state.turns <= 1)


def value_stage(state: Any) -> int:
    """Rounds still to play after this one (the stage the estimate's scale
    depends on; ``bestiary.agents.fit_value`` fits a scale per stage)."""
    return max(state.rules.rounds - state.round - 1, 0)
