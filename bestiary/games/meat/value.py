"""Each team's chance of winning a M.E.A.T. match from an unfinished position,
for tree search (the ``value_estimate`` hook of ``bestiary.agents.value``, with
``value_stage`` for ``bestiary.agents.fit_value`` and ``value_ready``). It
reads a search's own sample, never the real game.
"""

from __future__ import annotations

from bestiary.agents.value import logistic

from .bots import evaluate
from .phases import P_ACTIVATION, P_OVER, P_RESPOND, P_WINDOW
from .rules import MeatState

#: What the search plays best with here (the hint and the server's hard level
#: add it): the heuristic in playouts without its one-action look-ahead (six
#: times the iterations), and the secret placement of creatures and destiny
#: cards (``place``, ``set``, ``done``) left to the guide, the heuristic placing
#: by sampling the battle (``place=sample``, ``placement.py``), not searched:
#: the serial tree let the seats placing after ours answer it, and two
#: searching teammates placed worse than two heuristics. At 256 iterations,
#: seeds 1000-1079, two seats: 56 of 80 against the heuristic (the placement
#: searched: 48 of 80 on the same deals); a team of two at four seats: 83 of
#: 142 (docs/RL.md, "M.E.A.T. with teammates").
SEARCH_OPTIONS = "playout=lookahead=0,leave=place;set;done,guide=place=sample"
#: Playout decisions before ``value_estimate`` scores a search's sample.
VALUE_DEPTH = 16
#: The estimate's scales, fitted (logistic regression, 91 318 positions of 600
#: two-seat heuristic self-play games, seeds 50000-50599, every fifth game held
#: out) to which team went on to win. While creatures are on the field:
#: ``evaluate``'s points (1 per vitality, 6 per creature alive ...) per factor e,
#: and the vitality gap counted again with ``VALUE_VITALITY`` (the predicted
#: battle says less than ``evaluate``'s weights assume); held-out log loss 0.605
#: (the former hand-set scale of 6 points: 0.682, a coin: 0.693). Before that:
#: vitality points per factor e (held-out log loss 0.616; the former 6: 0.640).
VALUE_SCALE = 18.5
VALUE_VITALITY = 1.05
VALUE_SCALE_DRAFT = 9.5
#: Both scales are for one seat a side. With teammates ``evaluate`` sums every
#: member's creatures and the teams start with more vitality, so the points
#: spread wider: fitted again (``python -m bestiary.agents.fit_value meat
#: --players 4 --games 200``, and ``--players 6 --games 100``), the one-seat
#: scales were too sharp by a factor of 0.46-0.50 at 2v2 (held-out log loss
#: 1.44, worse than a coin's 1.39) and of about 0.5 at 3v3. With teammates the
#: scales are doubled (2v2 then fits at 0.92, loss 1.36 and 1.34; 3v3 at 1.16).
VALUE_TEAM_FACTOR = 2.0


def value_estimate(state: MeatState) -> list[float]:
    """Each seat's chance that its team wins, for tree search (see
    ``bestiary.agents.value``): ``evaluate``'s board and vitality while the
    creatures are on the field, the vitality alone before that, through a
    logistic curve with fitted scales. ``state`` is a search's own sample,
    never the real game."""
    if state.phase == P_OVER:
        team0 = 1.0 if state.winner_team == 0 else 0.0 if state.winner_team == 1 else 0.5
    else:
        gap = float(state.vit[0] - state.vit[1])
        factor = VALUE_TEAM_FACTOR if state.players > 2 else 1.0
        if state.phase in (P_WINDOW, P_ACTIVATION, P_RESPOND):
            v = (evaluate(state, 0) + VALUE_VITALITY * gap) / (VALUE_SCALE * factor)
        else:
            v = gap / (VALUE_SCALE_DRAFT * factor)
        team0 = logistic(v)
    return [team0 if seat % 2 == 0 else 1.0 - team0 for seat in range(state.players)]


def value_stage(state: MeatState) -> int:
    """1 while creatures are on the field (the board part of the estimate), 0
    before (vitality alone): the two scales ``bestiary.agents.fit_value`` fits."""
    return int(state.phase in (P_WINDOW, P_ACTIVATION, P_RESPOND))


def value_ready(state: MeatState) -> bool:
    """Whether ``value_estimate`` can tell a playout's moves apart here: once the
    creatures are on the field (the predicted battle) or at the end. Before
    that it is the vitality alone, which no draft pick or placement changes,
    so a search's playout goes on to the battle (``bestiary.agents.value``)."""
    return state.phase in (P_WINDOW, P_ACTIVATION, P_RESPOND, P_OVER)
