"""The heuristic bot's options: their defaults are the plain bot, each one's
behaviour, and bad values.

The plain ``heuristic`` is the yardstick of the strength runs and the golden
records replay its games, so every option's default must keep its play
exactly.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bestiary.agents.base import AgentContext
from bestiary.engine import Rng
from bestiary.games.teratozoic.bots import PLAIN, HeuristicAgent, Weights
from bestiary.games.teratozoic.cards import Card
from bestiary.games.teratozoic.rules import EXPRESS, Hold, TeratozoicState
from bestiary.sim.runner import play_game

from .helpers import DECK, GAME, new, rig_hand


def _old_gene_value(card: Card, colours: Counter[str], progress: float, closes: int) -> float:
    """The plain bot's formula, written out as it was before the options."""
    v = float(card.value)
    if not card.single_colour or card.colour in ("red", "blue", "yellow"):
        return v * (1.0 - progress) - 3.0 * progress
    share = colours[card.colour] / max(sum(colours.values()), 1)
    if card.doubler:
        v += 3.0
    return v + (2.0 + 8.0 * progress) * share + 12.0 * progress * closes


def test_the_defaults_are_the_plain_bot() -> None:
    bot = HeuristicAgent(seed=3)
    assert bot.samples == 6 and bot.threshold == 0.5 and bot.read == 0.0
    assert bot.weights == PLAIN == Weights(12.0, 3.0, 2.0, 8.0, 3.0)
    colours = Counter({"green": 7, "purple": 3, "orange": 1})
    for card in DECK:
        for progress in (0.0, 0.5, 1.0):
            for closes in (0, 2):
                old = _old_gene_value(card, colours, progress, closes)
                assert HeuristicAgent.gene_value(card, colours, progress, closes) == old
                assert bot.gene_value(card, colours, progress, closes, bot.weights) == old


def test_the_default_options_written_out_replay_the_plain_bots_games() -> None:
    spelled = (
        "heuristic:samples=6,threshold=0.5,read=0,close=12,doubler=3,share=2,share_late=8,mixed=3"
    )
    for seed in (11, 12):
        plain = play_game(GAME, ["heuristic", "heuristic"], seed=seed)
        same = play_game(GAME, [spelled, "heuristic"], seed=seed)
        assert same.decisions == plain.decisions
        assert same.result.scores == plain.result.scores
        assert same.result.winners == plain.result.winners


def _after_the_other_declared(held: int) -> tuple[TeratozoicState, int]:
    """Two players in the Temnozoic Era (play at least 3 of 5): the first to
    declare holds back ``held`` cards; returns the state and the second seat."""
    st = new(2, seed=5)
    first = st.to_act()[0]
    for _ in range(held):
        hold = next(a for a in st.legal(first) if isinstance(a, Hold))
        st.apply(first, hold)
    st.apply(first, EXPRESS)
    second = st.to_act()[0]
    assert second != first and st.phase == "expression"
    return st, second


def test_read_raises_the_bar_after_an_opponent_expressed_everything() -> None:
    """'If you only have a couple of good cards, hold them back ... if you have
    more than a couple good cards, you're safe to risk them': a player who could
    hold back and expressed all its genes shows a strong hand, so ``read`` asks
    for a larger chance to win before risking one's own good cards."""
    st, seat = _after_the_other_declared(held=0)
    view = st.view(seat)
    assert HeuristicAgent(read=0.2)._threshold(view, seat) == pytest.approx(0.7)
    assert HeuristicAgent()._threshold(view, seat) == 0.5


def test_read_lowers_the_bar_when_the_opponent_held_back() -> None:
    """'Tim drew four 1's and a 4, so to keep Sally from taking his 4, he says,
    "I'm not playing all my cards." ... she believes she has a good chance of
    winning': a player holding back plays its weaker cards, so ``read`` expresses
    on a smaller chance to win."""
    st, seat = _after_the_other_declared(held=2)
    view = st.view(seat)
    assert HeuristicAgent(read=0.2)._threshold(view, seat) == pytest.approx(0.3)


def test_a_higher_threshold_holds_back_the_best_genes_of_a_fair_hand() -> None:
    """'If you only have a couple of good cards, hold them back and then keep the
    best for your Gene Pool': the plain bot (threshold 0.5) expresses this fair
    hand, one with ``threshold=0.7`` asks for a larger chance to win and holds
    back its best gene."""
    hand = [
        "green 6 tentacle-brain",
        "green 3 segment",
        "purple 3 left arm",
        "purple 5 pincer",
        "orange 2 claw",
    ]
    st = new(2, seed=5)
    seat = st.to_act()[0]
    rig_hand(st, seat, hand)
    assert HeuristicAgent(seed=1).act(AgentContext(st, seat, Rng(0))) == EXPRESS
    action = HeuristicAgent(seed=1, threshold=0.7).act(AgentContext(st, seat, Rng(0)))
    assert isinstance(action, Hold) and action.name == "green 6 tentacle-brain"


def test_weights_move_the_gene_value() -> None:
    """'it's a good time to start focusing on collecting cards based on number of
    ends': the ``close`` weight prices each card a card lets the largest closed
    monster grow by, in the final Era."""
    card = next(c for c in DECK if c.name == "green 3 segment")
    colours = Counter({"green": 5})
    base = HeuristicAgent.gene_value(card, colours, 1.0, 1)
    more = HeuristicAgent.gene_value(card, colours, 1.0, 1, Weights(close=20.0))
    assert more - base == pytest.approx(8.0)


def test_a_larger_doubler_weight_keeps_the_doubling_card() -> None:
    """'If you need to double a monster's value, double both face values and bonus
    points. (Doubled twice = quadrupled.)': a doubling card wins generations far
    beyond its face value. With ``doubler=6`` the green tentacle-with-science
    (value 1) is the gene to keep over the green 5 maw; the plain bot (3) keeps
    the maw."""
    science = next(c for c in DECK if c.name == "green 1 tentacle-with-science")
    maw = next(c for c in DECK if c.name == "green 5 maw")
    colours = Counter({"green": 5})
    plain = HeuristicAgent()
    assert plain.gene_value(science, colours, 0.0, 0, plain.weights) < plain.gene_value(
        maw, colours, 0.0, 0, plain.weights
    )
    tuned = HeuristicAgent(doubler=6)
    assert tuned.gene_value(science, colours, 0.0, 0, tuned.weights) > tuned.gene_value(
        maw, colours, 0.0, 0, tuned.weights
    )


@pytest.mark.parametrize(
    "options",
    [
        {"samples": "0"},
        {"samples": "many"},
        {"threshold": "1.5"},
        {"threshold": "-0.1"},
        {"read": "abc"},
        {"read": "2"},
        {"close": "-1"},
        {"doubler": "nan"},
        {"mixed": "inf"},
    ],
)
def test_bad_option_values_raise_a_clear_value_error(options: dict[str, str]) -> None:
    name = next(iter(options))
    with pytest.raises(ValueError, match=name):
        HeuristicAgent(seed=0, **options)
