"""The heuristic bot's Breeding choices in the final Era ('strong bots').

'At the end of the Teratozoic Era, each player assembles their entire Gene
Pool into up to three of the largest single-color monsters with no loose ends
they can ... and add up the number of cards': late in the game a card is
worth what it adds to those monsters.
"""

from __future__ import annotations

from collections import Counter

from bestiary.agents.base import AgentContext
from bestiary.engine import Rng
from bestiary.games.teratozoic.bots import HeuristicAgent
from bestiary.games.teratozoic.cards import default_eras
from bestiary.games.teratozoic.rules import BUILD_BEST, EXPRESS, Take

from .helpers import DECK, ids, new, rig_hand

ERA_FINAL = default_eras()[-1]

SUN = ["green 1 head", "green 2 claw", "green 3 left arm", "green 4 right arm", "green 5 neck"]


def test_the_final_era_leader_takes_an_opponents_card_not_its_own() -> None:
    """'the winner gains a number of cards from play ... they may select from any
    player's played cards'; then 'every player gains ... from their own hand'.
    In the Teratozoic Era the winner keeps its whole hand of 5 anyway, so
    taking its own card from play gains nothing: it takes the other player's
    green card (its colour)."""
    st = new(2, seed=4)
    st.eras = [ERA_FINAL]
    st.final_shuffled = True
    rig_hand(st, 0, SUN)
    rig_hand(
        st, 1, ["green 2 knee", "purple 1 head", "purple 2 claw", "orange 1 head", "orange 2 claw"]
    )
    st.previous_winner = 0
    st._start_generation()
    while st.phase == "expression":
        st.apply(st.to_act()[0], EXPRESS)
    st.apply(0, BUILD_BEST)
    st.apply(1, BUILD_BEST)
    assert st.phase == "breed-play" and st.winner == 0
    bot = HeuristicAgent(seed=1)
    action = bot.act(AgentContext(st, 0, Rng(1)))
    assert isinstance(action, Take)
    assert action.card not in st.hand[0]
    assert DECK[action.card].colour == "green"


def test_a_card_that_lets_a_monster_close_beats_a_bigger_one_that_cannot() -> None:
    """Late in the game the bot values a card by whether its ends let its largest
    closed monster grow, not by colour and face value alone: with the ☉ green
    pool (a closed column and arms), a green segment (N S) lengthens the column;
    a green fanged head (one end) adds nothing that can close."""
    owned = ids(*SUN, "green 6 torso")
    segment, fanged = ids("green 3 segment", "green 6 fanged head")
    gain_segment = HeuristicAgent.closing_gain(DECK, owned, segment)
    gain_fanged = HeuristicAgent.closing_gain(DECK, owned, fanged)
    assert (gain_segment, gain_fanged) == (1, 0)
    colours = Counter(DECK[c].colour for c in owned)
    final = 1.0
    v_segment = HeuristicAgent.gene_value(DECK[segment], colours, final, gain_segment)
    v_fanged = HeuristicAgent.gene_value(DECK[fanged], colours, final, gain_fanged)
    assert v_segment > v_fanged
