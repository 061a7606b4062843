"""The heuristic bot's tuning options: their defaults play exactly as the plain
bot, each new behaviour in a constructed situation, and bad values refused."""

from __future__ import annotations

import pytest

from bestiary.agents.base import AgentContext
from bestiary.engine import Rng
from bestiary.games.monster_maker import GAME
from bestiary.games.monster_maker.bots import (
    BLOCK_LEAD,
    BLOCK_MARGIN,
    DETOUR_ODDS,
    ENOUGH,
    FIGHT_ODDS,
    KEEP,
    SHED_ODDS,
    SURE_WIN,
    HeuristicAgent,
)
from bestiary.games.monster_maker.rules import MonsterMakerState

from .mm_helpers import at_treasure, cid, give, table, walk

# Every new option at its default, written as a spec writes it.
DEFAULTS = {
    "detour_odds": "0.75",
    "enough": "0.85",
    "block_margin": "0.25",
    "block_lead": "0.6",
    "shed_odds": "0.3",
    "sure_win": "0.95",
    "road": "common",
    "keep": "0.7",
    "worth": "length",
}


def _decide(st: MonsterMakerState, seat: int = 0, **options: str) -> str:
    return str(HeuristicAgent(seed=1, **options).act(AgentContext(st, seat, Rng(1))))


def test_the_defaults_are_the_old_constants() -> None:
    bot = HeuristicAgent()
    assert bot.fight_odds == FIGHT_ODDS == 0.6
    assert bot.detour_odds == DETOUR_ODDS == 0.75
    assert bot.enough == ENOUGH == 0.85
    assert bot.block_margin == BLOCK_MARGIN == 0.25
    assert bot.block_lead == BLOCK_LEAD == 0.6
    assert bot.shed_odds == SHED_ODDS == 0.3
    assert bot.sure_win == SURE_WIN == 0.95
    assert bot.road == "common"
    assert bot.keep == KEEP
    assert bot.worth == "length"


@pytest.mark.parametrize("players", [2, 3])
def test_the_defaults_written_out_play_every_move_as_the_plain_bot(players: int) -> None:
    """Whole games: the plain bot and one given every default in a spec make the
    same moves (the golden records replay the plain bot's games)."""
    for g in range(2):
        plain_st = GAME.new(players, seed=700 + g)
        spec_st = GAME.new(players, seed=700 + g)
        assert isinstance(plain_st, MonsterMakerState)
        assert isinstance(spec_st, MonsterMakerState)
        plain_st.quiet()
        spec_st.quiet()
        plain = [HeuristicAgent(seed=s) for s in range(players)]
        spec = [HeuristicAgent(seed=s, **DEFAULTS) for s in range(players)]
        moves = 0
        while not plain_st.over:
            seat = plain_st.to_act()[0]
            a = plain[seat].act(AgentContext(plain_st, seat, Rng(seat)))
            b = spec[seat].act(AgentContext(spec_st, seat, Rng(seat)))
            assert a == b
            plain_st.apply(seat, a)
            spec_st.apply(seat, b)
            moves += 1
        assert spec_st.over and moves > 100


def _returning_with_35_left() -> MonsterMakerState:
    """Seat 0 on the road back: 100p out, 65p back, so exactly 35p left; in hand
    a 20p and a 10p corridor (together 30p: the hand alone cannot land it)."""
    st = table(players=2)
    at_treasure(st, 0)
    st.back[0] = [cid(st, "Corridor 40"), cid(st, "Corridor 20"), cid(st, "Corridor 5")]
    st.dist_back[0] = 65
    give(st, 0, "Corridor 20", "Corridor 10", "Fighter")
    return st


def test_road_plan_plays_the_corridor_a_likely_draw_lands() -> None:
    """<The Road Back>: "The length of your return has to be identical to the
    length of the corridor you took to the 'treasure room' ... if you cannot
    reach exactly 105p, you become lost and cannot return". With 35p left, the
    plain bot waits (neither 15p nor 25p is a common length); ``road=plan``
    plays the 20p, after which a 15p, or a 5p with the 10p in hand, lands it
    (and 5p + 10p is no likelier after the 10p than waiting is)."""
    st = _returning_with_35_left()
    assert _decide(st) == "pass"
    assert _decide(st, road="plan") == "play Corridor 20"
    assert _decide(st, road="count") == "play Corridor 20"


def test_keep_decides_when_road_plan_waits_for_a_better_draw() -> None:
    """<The Road Back>: "You can of course decline to play any corridor cards
    until the one you need to finish your path comes up". 25p left with a 20p
    in hand: a 5p lands it now (with the 20p), and so does a 15p plus a 10p;
    after the 20p only a 5p does — ``keep`` decides: at 0.7 the bot plays, at
    the strictest (10) it waits."""
    st = table(players=2)
    at_treasure(st, 0)
    st.back[0] = [cid(st, "Corridor 40"), cid(st, "Corridor 30"), cid(st, "Corridor 5")]
    st.dist_back[0] = 75
    give(st, 0, "Corridor 20", "Fighter")
    assert _decide(st, road="plan") == "play Corridor 20"
    assert _decide(st, road="plan", keep="10") == "pass"


def test_road_plan_lands_from_the_hand_with_the_fewest_corridors() -> None:
    """<The Road Back>: the exact corridor first, else the longest one after
    which the hand lands the rest (the fewest turns)."""
    st = table(players=2)
    at_treasure(st, 0)
    st.back[0] = [cid(st, "Corridor 40")]
    st.dist_back[0] = 40
    give(st, 0, "Corridor 10", "Corridor 20", "Corridor 40", "Corridor 30")
    # 60p left: 40 + 20 or 30 + ... ; the 40p leaves 20p the hand holds.
    assert _decide(st, road="plan") == "play Corridor 40"


def test_block_margin_zero_places_a_monster_before_any_leader() -> None:
    """<Turn> 2): "Place a 'monster card' in front of an opponent's 'corridor
    card(s)' in order to interfere with that player's progress." Seat 1 is 20p
    ahead on the way out: the plain bot (margin 0.25) walks on, ``block_margin=0``
    blocks the leader with its monster."""
    st = table(players=2)
    walk(st, 0, 40)
    walk(st, 1, 40, 20)
    give(st, 0, "Corridor 20", "Ogre", "Fighter")
    assert _decide(st) == "play Corridor 20"
    assert _decide(st, block_margin="0") == "place Ogre before seat 1"


def test_block_lead_blocks_a_leader_slightly_ahead_late_in_the_dungeon() -> None:
    """<Turn> 2) again: seat 1 on the road back, a little ahead of seat 0; the
    plain bot blocks a leader ahead of it once the leader is 60% of the way;
    ``block_lead=0.9`` does not block it yet."""
    st = table(players=2)
    at_treasure(st, 0)
    at_treasure(st, 1)
    st.back[1] = [cid(st, "Corridor 40")]
    st.dist_back[1] = 40
    st.back[0] = [cid(st, "Corridor 30")]
    st.dist_back[0] = 30
    give(st, 0, "Corridor 10", "Ogre", "Fighter")
    assert _decide(st) == "place Ogre before seat 1"
    assert _decide(st, block_lead="0.9") == "play Corridor 10"


def test_detour_odds_and_fight_odds_decide_detour_or_fight() -> None:
    """<Detour>: "If there is a monster in front of your corridor, you can use a
    'detour card' to go around it." One Fighter (3D+3) beats an Orc (11) 84% of
    the time: the plain bot fights; ``detour_odds=0.95`` detours."""
    st = table(players=2)
    walk(st, 0, 40)
    st.monster[0] = cid(st, "Orc")
    give(st, 0, "Fighter", "Detour", "Corridor 10")
    assert _decide(st) == "fight with Fighter"
    assert _decide(st, detour_odds="0.95") == "detour"


def test_enough_adds_characters_until_the_odds_are_reached() -> None:
    """<Battle>: "If you use 2 or more 'character cards', figure out each
    character's strength, add them together". One Fighter (3D+3) against an Orc
    (11) wins about 84%: the plain bot (enough 0.85) adds a second;
    ``enough=0.8`` rolls."""
    st = table(players=2)
    walk(st, 0, 40)
    st.monster[0] = cid(st, "Orc")
    give(st, 0, "Fighter", "Fighter", "Corridor 10")
    st.apply_text(0, "fight with Fighter")
    assert _decide(st) == "fight with Fighter"
    assert _decide(st, enough="0.8") == "roll"


def test_shed_odds_fights_a_long_shot_when_a_card_must_go_anyway() -> None:
    """<Turn> 4): "If you have 8 cards in your hand ... you must choose one card
    and place it in the discard pile." With 8 cards and a Thief against a Cave
    Bear (16), odds far under 30%: the plain bot discards; ``shed_odds=0`` fights
    (a lost battle also sheds the card)."""
    st = table(players=2)
    walk(st, 0, 40)
    st.monster[0] = cid(st, "Cave Bear")
    give(
        st,
        0,
        "Thief",
        "Corridor 5",
        "Corridor 5",
        "Corridor 5",
        "Corridor 5",
        "Corridor 15",
        "Corridor 15",
        "Corridor 15",
    )
    assert _decide(st).startswith("discard")
    assert _decide(st, shed_odds="0", fight_odds="1") == "fight with Thief"


def test_sure_win_fights_a_big_monster_only_at_those_odds() -> None:
    """<Detour> against a big monster: three Fighters (9D+9) beat an Ogre (20)
    all but always — the plain bot fights; ``sure_win=1`` detours around any
    monster of strength 18+ it does not beat for certain."""
    st = table()
    walk(st, 0, 40)
    st.monster[0] = cid(st, "Ogre")
    give(st, 0, "Fighter", "Fighter", "Fighter", "Detour")
    assert _decide(st) == "fight with Fighter"
    assert _decide(st, sure_win="1") == "detour"


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("fight_odds", "often", "fight_odds must be a number"),
        ("fight_odds", "1.5", "fight_odds must be between 0 and 1"),
        ("detour_odds", "-0.1", "detour_odds must be between 0 and 1"),
        ("enough", "nan", "enough must be between 0 and 1"),
        ("block_margin", "2", "block_margin must be between -1 and 1"),
        ("block_lead", "x", "block_lead must be a number"),
        ("shed_odds", "", "shed_odds must be a number"),
        ("sure_win", "1.01", "sure_win must be between 0 and 1"),
        ("road", "fast", "road must be one of common, plan, count"),
        ("keep", "-1", "keep must be between 0 and 10"),
        ("worth", "gold", "worth must be one of length, plan, hand"),
    ],
)
def test_a_bad_option_value_is_refused_clearly(option: str, value: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        HeuristicAgent(**{option: value})  # type: ignore[arg-type]


def test_worth_plan_sheds_a_corridor_the_landing_does_not_need() -> None:
    """<Turn> 4): with 8 cards "you must choose one card and place it in the
    discard pile"; <The Road Back>: the return "has to be identical" to the way
    out. 20p left, four 10p corridors in hand behind a Dragon it cannot beat:
    the plain bot values every corridor up to the rest alike and sheds its
    Magic-User; ``worth=plan`` sheds a 10p corridor — the other three still land
    the 20p, and the character may yet beat a monster. (Seat 1 has laid no
    corridor, so no monster can be placed before it.)"""
    st = table(players=2)
    at_treasure(st, 0)
    st.back[0] = [cid(st, "Corridor 40"), cid(st, "Corridor 40")]
    st.dist_back[0] = 80
    st.monster[0] = cid(st, "Dragon")
    give(
        st,
        0,
        "Corridor 10",
        "Corridor 10",
        "Corridor 10",
        "Corridor 10",
        "Magic-User",
        "Thief",
        "Ogre",
        "Minotaur",
    )
    assert _decide(st) == "discard Magic-User"
    assert _decide(st, worth="plan") == "discard Corridor 10"


def test_worth_hand_sheds_a_fourth_character_before_a_detour() -> None:
    """<Turn> 4) again: one card must go. Three Fighters (3D+3) beat all but the
    strongest monsters; a fourth and fifth character add little, a Detour goes
    round any monster without a battle. The plain bot sheds the Detour (its
    worth is under every character's); ``worth=hand`` halves the worth of a
    character with three as strong beside it and sheds a Dwarf. (Seat 1 has
    laid no corridor: no monster can be placed before it.)"""
    st = table(players=2)
    walk(st, 0, 40)
    give(st, 0, "Fighter", "Fighter", "Fighter", "Dwarf", "Dwarf", "Detour", "Ogre", "Minotaur")
    assert _decide(st) == "discard Detour"
    assert _decide(st, worth="plan") == "discard Detour"
    assert _decide(st, worth="hand") == "discard Dwarf"
