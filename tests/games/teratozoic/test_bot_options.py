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

from .helpers import DECK, GAME, _remove, ids, new, rig_hand


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
        "heuristic:samples=6,threshold=0.5,read=0,close=12,doubler=3,share=2,share_late=8,mixed=3,"
        "stake=0,marginal=0,hold_close=0,fair=0"
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
        {"stake": "-1"},
        {"marginal": "maybe"},
        {"hold_close": "2"},
        {"fair": "yes please"},
    ],
)
def test_bad_option_values_raise_a_clear_value_error(options: dict[str, str]) -> None:
    name = next(iter(options))
    with pytest.raises(ValueError, match=name):
        HeuristicAgent(seed=0, **options)


def test_marginal_prices_a_hand_card_against_the_gene_pool_without_it() -> None:
    """'it's a good time to start focusing on collecting cards based on number of
    ends': a card is worth the cards it lets the largest closed monster of its
    colour grow by. The Gene Pool holds a green neck and claw; the green head in
    hand closes them into a monster of three. The plain bot measures that
    against a Gene Pool that already holds the head (a second head adds
    nothing); with ``marginal`` the hand's cards not gained yet are not in it,
    so the head is worth its three cards and is kept over a purple 5 maw."""
    pool = ids("green 5 neck", "green 2 claw")
    head, maw = ids("green 1 head", "purple 5 maw")
    view = {"my_gene_pool": pool, "players": [{"discard": []}], "hand": [head, maw]}
    colours = Counter({"green": 3, "purple": 1})
    values = {}
    for flag in (False, True):
        bot = HeuristicAgent(marginal=flag)
        base = bot._gain_base(view, 0)
        gains = {c: HeuristicAgent.closing_gain(DECK, base, c) for c in (head, maw)}
        values[flag] = {
            c: bot.gene_value(DECK[c], colours, 0.5, gains[c], bot.weights) for c in (head, maw)
        }
        assert gains[head] == (3 if flag else 0)
    assert values[False][head] < values[False][maw]
    assert values[True][head] > values[True][maw]


def _pre_teratozoic_hand(hand: list[str], pool: list[str]) -> tuple[TeratozoicState, int]:
    """Two players in the Pre-Teratozoic Era (hold back up to 3 of 5) with the
    first seat's hand and Gene Pool rigged (its old pool goes under the
    Mutations Deck)."""
    st = new(2, seed=5, eras=("Temnozoic Era", "Pre-Teratozoic Era", "Teratozoic Era"))
    st.era_discard.append(st.eras.pop(0))
    seat = st.to_act()[0]
    rig_hand(st, seat, hand)
    old = list(st.pool[seat])
    st.pool[seat] = []
    want = ids(*pool)
    for c in want:
        _remove(st, c)
    st.mutations[:0] = old
    st.pool[seat] = want
    return st, seat


def test_hold_close_holds_back_the_card_that_closes_its_monster() -> None:
    """'If you only have a couple of good cards, hold them back and then keep the
    best for your Gene Pool' — and the final scoring counts 'the number of cards'
    in single-colour monsters 'with no loose ends', so from the second Era on a
    good card is also one its monsters need. Expecting to lose (``threshold=1``),
    the plain bot holds back its three highest cards; with ``hold_close`` it holds
    back the green head that closes its Gene Pool's neck and claw first (the card
    whose loss to the winner would cost three cards at the end). (20 samples:
    with 6 this rigged hand won every sample, and a sure win expresses all.)"""
    hand = ["green 1 head", "purple 6 torso", "purple 5 maw", "orange 6 belly", "purple 4 tail"]
    st, seat = _pre_teratozoic_hand(hand, ["green 5 neck", "green 2 claw"])
    plain = HeuristicAgent(seed=1, threshold=1.0, samples=20)
    action = plain.act(AgentContext(st, seat, Rng(0)))
    assert isinstance(action, Hold) and action.name == "purple 6 torso"
    assert "green 1 head" not in [DECK[c].name for c in plain._plan[(st.generation, seat)]]
    closer = HeuristicAgent(seed=1, threshold=1.0, hold_close=1, samples=20)
    action = closer.act(AgentContext(st, seat, Rng(0)))
    assert isinstance(action, Hold) and action.name == "green 1 head"


def test_fair_scales_the_threshold_to_a_fair_share() -> None:
    """'The player with the most valuable monsters in play is the winner': with
    four players a hand wins a quarter of the time on average, so a chance of
    one half is a two-player bar. With ``fair`` the threshold is for two players
    and scales by two over the players competing."""
    two = new(2, seed=5)
    seat = two.to_act()[0]
    assert HeuristicAgent(fair=1)._threshold(two.view(seat), seat) == 0.5
    four = new(4, seed=5)
    seat = four.to_act()[0]
    assert HeuristicAgent(fair=1)._threshold(four.view(seat), seat) == 0.25
    assert HeuristicAgent(fair=1, threshold=0.6)._threshold(four.view(seat), seat) == 0.3
    assert HeuristicAgent()._threshold(four.view(seat), seat) == 0.5


def test_stake_risks_a_hand_with_more_good_cards_than_it_keeps() -> None:
    """'The winner can never take more than 1 or 2 cards, so if you have more than
    a couple good cards, you're safe to risk them and will still have good cards
    to keep if you don't come out in the lead.' In the Temnozoic Era (keep 2
    from hand; the winner takes 1) this hand has three 6s: the plain bot, seeing
    less than an even chance, holds back a 6; with ``stake`` losing one 6 to the
    winner costs nothing (two are left to keep), so it expresses everything.
    (The bar is 0.9 here: the samples keep the opponent's announced starting
    cards, weak ones, so this hand is the favourite; a bot wanting more than
    its chance holds back.)"""
    hand = ["purple 6 torso", "orange 6 belly", "green 6 belly", "purple 2 claw", "orange 1 elbow"]
    st = new(2, seed=5)
    seat = st.to_act()[0]
    rig_hand(st, seat, hand)
    assert st.era.name == "Temnozoic Era"
    action = HeuristicAgent(seed=1, threshold=0.9).act(AgentContext(st, seat, Rng(0)))
    assert isinstance(action, Hold) and action.name == "orange 6 belly"
    staker = HeuristicAgent(seed=1, threshold=0.9, stake=1)
    assert staker.act(AgentContext(st, seat, Rng(0))) == EXPRESS
