"""Each seat's chance of winning a Monster Maker game from an unfinished
position, for tree search (the ``value_estimate`` hook of
``bestiary.agents.value``). It reads a search's own sample, never the real game.
"""

from __future__ import annotations

from typing import Any

from bestiary.agents.value import softmax_chances

from .phases import BACK, DEAD, HOME

#: The heuristic's tuned options (RULES.md, "The heuristic bot"). One tuned
#: seat against three plain, seats rotated, 2,000 fresh games (seeds 70000 and
#: 80000): 768 wins (38.4%, Wilson 95% 36.3-40.6%: 1.54x the fair share), where
#: the former ``road=plan;block_margin=0`` won 636 (31.8%) on the same deals;
#: two seats 677.5 of 1,000 (67.8%; the former 647.5) on seeds 70000.
TUNED = "road=plan;block_margin=0;worth=hand;heal=stronger;doomed=block;draws=left;hold=0.75"
#: What the search plays with here (the hint and the server's hard level add
#: it): the tuned heuristic as its guide and in its playouts, where it
#: remembers each battle's odds for the match and reads only the entries of its
#: view it uses (the same moves, about three times the iterations in a time
#: budget); it overrules the guide only by three standard errors
#: (``confidence=3``: with several moves against the guide's, one standard
#: error overruled it on chance differences). docs/RL.md, "Strength".
SEARCH_OPTIONS = f"playout=odds_cache=1;lite=1;{TUNED},guide={TUNED},confidence=3"
#: Playout decisions before ``value_estimate`` scores a search's sample.
VALUE_DEPTH = 24
#: Gold for e:1 odds between two seats (a treasure is worth 100-300), and a
#: dungeon won when dungeons decide the game.
GOLD_SCALE = 200.0
#: The softmax's gold per factor e by table size, fitted to which seat went on
#: to win heuristic self-play (100 games each, seeds 70000-70099, every fifth
#: held out): the former 200 was overconfident (held-out log loss of the winner
#: 0.699 with 2 seats, worse than a coin, and 1.178 with 4; fitted: 0.514 and
#: 1.053). Larger tables use the 4-seat scale.
ODDS_SCALE = {2: 540.0, 3: 420.0}
ODDS_SCALE_MANY = 320.0
#: What the race itself is worth in gold: the first home draws a prize and banks.
RACE_GOLD = 200.0


def value_estimate(state: Any) -> list[float]:
    """Each seat's chance of winning, for tree search (``bestiary.agents.value``):
    gold banked and in prizes, the treasure carried weighted by how far along
    the road home the seat is, and the race itself, through a softmax.
    ``state`` is a search's own sample (a ``MonsterMakerState``), never the real
    game; dice-valued treasures not yet rolled count at their mean."""
    if state.over:
        winners = state.result.winners
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(state.players)]
    cs = state.cs
    by_dungeons = state.rules.victory == "dungeons"
    strength = []
    for s in range(state.players):
        status = state.status[s]
        if status == HOME:
            progress = 1.0
        elif status == BACK:
            progress = 0.5 + 0.5 * state.dist_back[s] / max(state.target(s), 1)
        elif status == DEAD:
            progress = 0.0
        else:
            progress = 0.5 * min(state.dist_out[s] / max(state.room, 1), 1.0)
        if by_dungeons:
            strength.append(state.dungeon_wins[s] * GOLD_SCALE + RACE_GOLD * progress)
            continue
        banked = sum(_gold_worth(state, t) for t in state.banked[s])
        banked += sum(cs.prizes[p].gold for p in state.prizes[s])
        carried = sum(_gold_worth(state, t) for t in state.held[s])
        carried *= progress if status != DEAD else 0.0
        strength.append(banked + carried + RACE_GOLD * progress)
    return softmax_chances(strength, ODDS_SCALE.get(state.players, ODDS_SCALE_MANY))


def _gold_worth(state: Any, t: int) -> float:
    if t in state.worthless:
        return 0.0
    if t in state.gold_rolled:
        return float(state.gold_rolled[t])
    gold = state.cs.treasures[t].gold
    if not gold.rolled:
        return float(gold.fixed)
    return gold.dice * 3.5 * gold.times + gold.plus
