"""The protocol's promises, checked on the toy game (tests/engine/toygame.py)."""

from __future__ import annotations

import pytest

from bestiary.engine import (
    BadOptions,
    BadPlayers,
    IllegalAction,
    NotYourTurn,
    UnknownGame,
    UnknownVariant,
    get_game,
    register,
)

from .toygame import GAME, Bid

register(GAME)


def test_several_seats_owe_a_decision_at_once() -> None:
    s = GAME.new(3, seed=1)
    assert s.to_act() == (0, 1, 2)
    s.apply(1, s.legal(1)[0])
    assert s.to_act() == (0, 2)


def test_a_hidden_choice_stays_hidden_until_all_have_chosen() -> None:
    s = GAME.new(2, seed=3)
    card = s.legal(0)[0].card
    s.apply(0, Bid(card))
    assert s.view(1)["my_choice"] is None
    assert card not in [e.data.get("card") for e in s.events_since(0, 1)]
    assert all("bids" not in e.data for e in s.events_since(0, 1))
    s.apply(1, s.legal(1)[0])
    trick = [e for e in s.events_since(0, 1) if e.kind == "trick"]
    assert trick and trick[0].data["bids"]["0"] == card


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    s = GAME.new(2, seed=5)
    before = (s.view(0), s.view(1), s.event_count())
    not_mine = next(c for c in range(1, 10) if c not in s.hands[0])
    with pytest.raises(IllegalAction, match="allowed: bid"):
        s.apply(0, Bid(not_mine))
    assert (s.view(0), s.view(1), s.event_count()) == before


def test_parse_round_trips_the_text_form_and_names_allowed_actions() -> None:
    s = GAME.new(2, seed=5)
    a = s.legal(0)[0]
    assert s.parse(0, str(a).upper()) == a
    with pytest.raises(IllegalAction, match="allowed:"):
        s.parse(0, "bid 99")


def test_acting_out_of_turn_is_refused() -> None:
    s = GAME.new(2, seed=5)
    s.apply(0, s.legal(0)[0])
    with pytest.raises(NotYourTurn, match="waiting for seat"):
        s.parse(0, "bid 1")


def test_views_hide_other_hands_and_spectators_see_no_hand() -> None:
    s = GAME.new(3, seed=9)
    assert s.view(0)["hand"] == s.hands[0]
    assert s.view(None)["hand"] is None
    dealt = [e for e in s.events_since(0, 0) if e.kind == "dealt"]
    assert [e.data["seat"] for e in dealt] == [0]
    assert s.events_since(0, None) == []


def test_bad_players_variant_and_options_name_what_is_allowed() -> None:
    with pytest.raises(BadPlayers, match="allowed: 2, 3"):
        GAME.new(5, seed=0)
    with pytest.raises(UnknownVariant, match="variants: standard, lowball"):
        GAME.new(2, seed=0, variant="nope")
    with pytest.raises(BadOptions, match="options: high_wins, tricks"):
        GAME.new(2, seed=0, options={"trickz": 2})
    with pytest.raises(BadOptions, match="choices: 1, 2, 3"):
        GAME.new(2, seed=0, options={"tricks": "7"})
    with pytest.raises(BadOptions, match="type bool"):
        GAME.new(2, seed=0, options={"high-wins": "maybe"})
    with pytest.raises(UnknownGame, match="known games"):
        get_game("chess")


def test_options_from_strings_are_typed() -> None:
    s = GAME.new(2, seed=0, options={"tricks": "1", "high-wins": "no"})
    assert s.rules.tricks == 1 and s.rules.high_wins is False


def test_variant_changes_the_rule() -> None:
    s = GAME.new(2, seed=0, variant="lowball")
    s.hands = [[1, 5, 6], [2, 3, 4]]
    s.apply(0, Bid(1))
    s.apply(1, Bid(2))
    assert s.tricks == [1, 0]


def test_clone_is_independent_and_determinize_keeps_what_the_seat_knows() -> None:
    s = GAME.new(3, seed=11)
    c = s.clone()
    c.apply(0, c.legal(0)[0])
    assert s.to_act() == (0, 1, 2)
    from bestiary.engine import Rng

    d = s.determinize(0, Rng(4))
    assert d.hands[0] == s.hands[0]
    assert sorted(c for h in d.hands for c in h) == sorted(c for h in s.hands for c in h)


def test_action_index_round_trips() -> None:
    s = GAME.new(2, seed=2)
    for a in s.legal(0):
        assert s.action_from_index(0, s.action_index(a)) == a
    assert GAME.num_actions(2, GAME.ruleset()) == 9
