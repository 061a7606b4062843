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

from .mm_helpers import at_treasure, cid, dice, give, table, walk

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
    "heal": "always",
    "doomed": "walk",
    "draws": "deck",
    "target_gold": "0",
    "hold": "0",
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
        ("heal", "never", "heal must be one of always, stronger"),
        ("doomed", "yes", "doomed must be one of walk, block"),
        ("draws", "2", "draws must be one of deck, left"),
        ("target_gold", "rich", "target_gold must be a number"),
        ("target_gold", "-1", "target_gold must be between 0 and 10"),
        ("hold", "later", "hold must be a number"),
        ("hold", "1.5", "hold must be between 0 and 1"),
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


def _after_a_won_battle(fallen: str) -> MonsterMakerState:
    """Seat 0 beat a Kobold (7) with ``fallen`` alone; a Cleric and a corridor
    in hand, so "Heal" is offered after the battle."""
    st = table(players=2)
    walk(st, 0, 40)
    st.monster[0] = cid(st, "Kobold")
    give(st, 0, fallen, "Cleric", "Corridor 10")
    st.apply_text(0, f"fight with {fallen}")
    dice(st, 12)
    st.apply_text(0, "roll")
    assert st.phase == "after"
    return st


def test_heal_stronger_keeps_a_cleric_stronger_than_the_fallen() -> None:
    """<Cleric> 2): the Cleric "can be exchanged for a character card that was
    just used and discarded earlier in the turn" — an exchange, so it gains
    only when the character is worth more than the Cleric (2D+3, and it
    dispels the undead). The plain bot gives its Cleric for a Magic-User
    (2D+2); ``heal=stronger`` keeps it, and still gives it for a Fighter (3D+3)."""
    st = _after_a_won_battle("Magic-User")
    assert _decide(st) == "heal Magic-User"
    assert _decide(st, heal="stronger") == "end turn"
    assert _decide(st, heal="stronger", worth="hand") == "end turn"
    st = _after_a_won_battle("Fighter")
    assert _decide(st) == "heal Fighter"
    assert _decide(st, heal="stronger") == "heal Fighter"


def test_doomed_block_places_a_monster_instead_of_a_useless_corridor() -> None:
    """<Endgame>: "once someone has returned from the dungeon, noone may draw
    any more cards. After that, you must return from the dungeon with only the
    cards in hand ... Any party that is unable to return from the dungeon, dies
    inside of it." 35p left with a 10p corridor in hand and no draws: seat 0
    cannot get home whatever it plays. ``road=plan`` lays the corridor anyway;
    ``doomed=block`` places its Ogre before seat 1, still on its way (the
    corridor brings seat 0 nothing, seat 1's return takes gold home)."""
    st = table(players=3)
    at_treasure(st, 0)
    st.back[0] = [cid(st, "Corridor 40"), cid(st, "Corridor 20"), cid(st, "Corridor 5")]
    st.dist_back[0] = 65
    walk(st, 1, 40, 40)
    walk(st, 2, 40)
    st.status[2] = 2  # seat 2 is home: the endgame
    st.endgame = True
    give(st, 0, "Corridor 10", "Ogre", "Fighter")
    assert _decide(st, road="plan") == "play Corridor 10"
    assert _decide(st, road="plan", doomed="block") == "place Ogre before seat 1"
    # A hand that still lands the rest (20 + 10 + 5) plays on, the longest first.
    give(st, 0, "Corridor 10", "Corridor 5", "Corridor 20", "Ogre")
    assert _decide(st, road="plan", doomed="block") == "play Corridor 20"


def test_draws_left_counts_only_the_draws_the_pile_still_holds() -> None:
    """<The Road Back>: a player may "decline to play any corridor cards until
    the one you need to finish your path comes up, as long as there are cards
    in the draw pile"; <Endgame>: "When the draw pile is exhausted, noone may
    draw any more cards." 25p left, a 20p in hand: ``keep=10`` waits for a 5p
    (or a 15p and a 10p) while the pile is full; with one card left for two
    players still below (``draws=left``: no draw of its own to come) waiting
    brings nothing, so it plays the 20p."""
    st = table(players=2)
    at_treasure(st, 0)
    st.back[0] = [cid(st, "Corridor 40"), cid(st, "Corridor 30"), cid(st, "Corridor 5")]
    st.dist_back[0] = 75
    walk(st, 1, 40)
    give(st, 0, "Corridor 20", "Fighter")
    assert _decide(st, road="plan", keep="10") == "pass"
    assert _decide(st, road="plan", keep="10", draws="left") == "pass"
    st.deck = st.deck[:1]
    assert _decide(st, road="plan", keep="10") == "pass"
    assert _decide(st, road="plan", keep="10", draws="left") == "play Corridor 20"


def test_target_gold_blocks_the_richer_of_two_leaders() -> None:
    """§5: "Compare everyone's gold, and the player with the most gold wins";
    <Turn> 2): a monster "in front of an opponent's corridor card(s) in order
    to interfere with that player's progress". Seats 1 and 2 are equally far
    along; seat 2 has banked a 500 prize. The plain bot blocks the first it
    finds (seat 1); ``target_gold=0.5`` blocks the one whose return costs it
    more, seat 2."""
    st = table(players=3)
    walk(st, 1, 40, 20)
    walk(st, 2, 40, 20)
    st.prizes[2] = [next(p.index for p in st.cs.prizes if p.gold == 500)]
    give(st, 0, "Ogre", "Fighter")
    assert _decide(st) == "place Ogre before seat 1"
    assert _decide(st, target_gold="0.5") == "place Ogre before seat 2"


def test_hold_keeps_the_strongest_monster_for_a_leader_near_home() -> None:
    """<Turn> 2): a monster "in front of an opponent's corridor card(s) in order
    to interfere with that player's progress"; <Prize Cards>: "The first player
    to return from the dungeon may draw 1 prize card", and <Endgame>: then "noone
    may draw any more cards". A monster stops a leader about to get home and
    take the prize; spent on the way out it only slows one. Seat 1 is 20p ahead
    on the way out: ``block_margin=0`` places the Ogre at once; with
    ``hold=0.75`` the bot walks on and keeps it, places the weaker of two, and
    places the Ogre before a leader three quarters of the way home."""
    st = table(players=2)
    walk(st, 0, 40)
    walk(st, 1, 40, 20)
    give(st, 0, "Corridor 20", "Ogre", "Fighter")
    assert _decide(st, block_margin="0") == "place Ogre before seat 1"
    assert _decide(st, block_margin="0", hold="0.75") == "play Corridor 20"
    give(st, 0, "Corridor 20", "Ogre", "Kobold", "Fighter")
    assert _decide(st, block_margin="0", hold="0.75") == "place Kobold before seat 1"
    st = table(players=2)
    walk(st, 0, 40)
    at_treasure(st, 1)
    st.back[1] = [cid(st, "Corridor 40"), cid(st, "Corridor 20")]
    st.dist_back[1] = 60  # 0.5 + 0.5 * 60 / 100 = 0.8 of the way
    give(st, 0, "Corridor 20", "Ogre", "Fighter")
    assert _decide(st, block_margin="0", hold="0.75") == "place Ogre before seat 1"


def test_the_tuned_options_play_the_same_moves_with_lite_views() -> None:
    """The search's playouts read a ``lite`` view (no draw pile count in it):
    ``draws=left`` then asks for the pile alone, so whole four-seat games with
    the tuned options go move for move the same with ``lite=1;odds_cache=1``."""
    from bestiary.games.monster_maker.value import TUNED

    tuned = dict(kv.split("=") for kv in TUNED.split(";"))
    for seed in (810, 811):
        plain_st = GAME.new(4, seed=seed)
        lite_st = GAME.new(4, seed=seed)
        assert isinstance(plain_st, MonsterMakerState)
        assert isinstance(lite_st, MonsterMakerState)
        plain_st.quiet()
        lite_st.quiet()
        plain = [HeuristicAgent(seed=s, **tuned) for s in range(4)]
        lite = [HeuristicAgent(seed=s, lite="1", odds_cache="1", **tuned) for s in range(4)]
        while not plain_st.over:
            seat = plain_st.to_act()[0]
            a = plain[seat].act(AgentContext(plain_st, seat, Rng(seat)))
            b = lite[seat].act(AgentContext(lite_st, seat, Rng(seat)))
            assert a == b
            plain_st.apply(seat, a)
            lite_st.apply(seat, b)
