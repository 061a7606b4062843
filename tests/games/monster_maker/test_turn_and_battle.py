"""Scenario tests: set-up, the turn, battles, Cleric, spells, Charm (rulebook §3)."""

from __future__ import annotations

import pytest

from bestiary.engine import IllegalAction
from bestiary.games.monster_maker import GAME
from bestiary.games.monster_maker.rules import MonsterMakerState

from .mm_helpers import at_treasure, cid, dice, do, give, last, legal_texts, table, tid, walk


def test_setup_deals_seven_and_no_traps_in_opening_hands() -> None:
    """<Preparation>: "Each player draws 7 cards. If any of the original cards are
    trap cards, exchange them with the remaining cards"."""
    for seed in range(40):
        st = GAME.new(4, seed=seed)
        assert isinstance(st, MonsterMakerState)
        trap = cid(st, "Trap")
        first = st.first
        for s in range(4):
            assert trap not in st.hands[s]
            # The first player has already drawn for the first turn.
            expected = 7 + (1 if s == first and st.phase == "turn" else 0)
            assert len(st.hands[s]) == expected
        assert st.deck.count(trap) + (1 if st.trap == trap else 0) == 5


def test_first_player_is_the_highest_die() -> None:
    """<Preparation>: "Determine the first player to play by rolling the dice"."""
    st = GAME.new(3, seed=2)
    ev = next(e.data for e in st.log.events if e.kind == "first_player")
    final = ev["rolls"][-1]
    assert max(final.values()) == final[str(ev["seat"])]
    assert list(final.values()).count(max(final.values())) == 1
    assert st.to_act() == (ev["seat"],)


def test_with_eight_cards_you_must_act_or_discard_not_pass() -> None:
    """<Turn> 4/5: with 8 cards "you must choose one card and place it in the
    discard pile"; "If you have 7 or fewer cards ... you can say Pass"."""
    st = table()
    give(st, 0, "Fighter", "Fighter", "Elf", "Orc", "Sleep", "Detour", "Thief", "Dwarf")
    texts = legal_texts(st)
    assert "pass" not in texts and "discard Orc" in texts
    give(st, 0, "Fighter", "Elf")
    texts = legal_texts(st)
    assert "pass" in texts and not any(t.startswith("discard") for t in texts)


def test_corridor_adds_distance_and_is_blocked_by_a_monster() -> None:
    """<Turn> 1: "The total of the numbers is the distance you have travelled ...
    When an opponent has placed a monster card in front of your corridor, you
    cannot play a corridor card"."""
    st = table()
    give(st, 0, "Corridor 30", "Corridor 20")
    do(st, "play Corridor 30")
    assert st.dist_out[0] == 30
    st.turn, st.phase = 0, "turn"
    st.monster[0] = cid(st, "Orc")
    assert not any(t.startswith("play") for t in legal_texts(st))


def test_monster_only_before_an_empty_opponent_corridor() -> None:
    """<Turn> 2: "You cannot place a monster in front of a corridor that already
    has a monster in front of it." (and only before an opponent's corridor)."""
    st = table()
    give(st, 0, "Ogre")
    walk(st, 1, 20)
    walk(st, 2, 10)
    st.monster[2] = cid(st, "Orc")
    texts = legal_texts(st)
    assert "place Ogre before seat 1" in texts
    assert "place Ogre before seat 2" not in texts  # already blocked
    assert "place Ogre before seat 0" not in texts  # yourself
    do(st, "place Ogre before seat 1")
    assert st.monster[1] == cid(st, "Ogre")


def test_a_player_without_corridors_cannot_be_blocked() -> None:
    """Reading: a monster goes "in front of an opponent's corridor card(s)"."""
    st = table()
    give(st, 0, "Ogre")
    assert not any(t.startswith("place") for t in legal_texts(st))


def _fight_setup(monster: str, *hand: str, **opts: object) -> MonsterMakerState:
    st = table(**opts)
    walk(st, 0, 20)
    st.monster[0] = cid(st, monster)
    give(st, 0, *hand)
    return st


def test_battle_sum_of_characters_equal_or_greater_wins() -> None:
    """<Battle>: "the characters' strength must be equal to or greater than that
    number ... If you use 2 or more character cards ... add them together"."""
    st = _fight_setup("Ogre", "Fighter", "Elf", "Corridor 10")  # Ogre 20
    do(st, "fight with Fighter")
    do(st, "fight with Elf")
    dice(st, 12, 8)  # 12 + 8 = 20: equal wins
    do(st, "roll")
    ev = last(st, "battle")
    assert ev["won"] and ev["total"] == 20
    assert st.monster[0] == -1
    assert cid(st, "Ogre") in st.discard and cid(st, "Fighter") in st.discard
    assert st.hands[0] == [cid(st, "Corridor 10")]


def test_lost_battle_leaves_the_monster_and_discards_the_characters() -> None:
    """<Turn> 3: "If you lose the battle, the monster card remains in front of
    your corridor cards"; "The used character cards are placed in the discard pile"."""
    st = _fight_setup("Ogre", "Fighter", "Corridor 10")
    do(st, "fight with Fighter")
    dice(st, 19)
    do(st, "roll")
    assert not last(st, "battle")["won"]
    assert st.monster[0] == cid(st, "Ogre")
    assert st.discard[-1] == cid(st, "Fighter")


def test_fight_requires_a_monster_and_roll_requires_a_battle() -> None:
    st = table()
    give(st, 0, "Fighter")
    assert not any(t.startswith("fight") for t in legal_texts(st))
    with pytest.raises(IllegalAction):
        st.apply_text(0, "roll")


def test_cleric_dispels_undead_free_by_default() -> None:
    """<Cleric> 1: "Automatically dispells an Undead monster (discard both
    cards)"; A.i: "it seems like dispel is not meant to be one of the actions"."""
    st = _fight_setup("Zombie", "Cleric", "Corridor 10")
    do(st, "dispel with Cleric")
    assert st.monster[0] == -1 and st.turn == 0  # still this player's action
    assert "play Corridor 10" in legal_texts(st)


def test_cleric_dispel_can_cost_the_action() -> None:
    """A.i option: dispel uses up the turn's action."""
    st = _fight_setup("Zombie", "Cleric", "Corridor 10", dispel_costs_action=True)
    do(st, "dispel with Cleric")
    assert st.monster[0] == -1 and st.turn != 0


def test_cleric_cannot_dispel_a_living_monster() -> None:
    """<Cleric> 1: only "Undead" monsters (appendix B.ii)."""
    st = _fight_setup("Orc", "Cleric")
    assert "dispel with Cleric" not in legal_texts(st)
    assert "fight with Cleric" in legal_texts(st)  # the Cleric still fights


def test_heal_swaps_a_cleric_for_a_character_used_this_turn() -> None:
    """<Cleric> 2: "Can be exchanged for a character card that was just used and
    discarded earlier in the turn ... announce it by saying Heal"."""
    st = _fight_setup("Ogre", "Fighter", "Cleric")
    do(st, "fight with Fighter")
    dice(st, 5)
    do(st, "roll")
    assert "heal Fighter" in legal_texts(st)
    do(st, "heal Fighter")
    assert st.hands[0] == [cid(st, "Fighter")]
    assert st.discard[-1] == cid(st, "Cleric")
    do(st, "end turn")
    assert st.turn != 0


def test_spells_need_a_character() -> None:
    """<Spells>: "Spell cards (scrolls) cannot be used by themselves"."""
    st = _fight_setup("Ogre", "Magic Missile", "Fighter")
    assert not any(t.startswith("cast") for t in legal_texts(st))
    do(st, "fight with Fighter")
    assert "cast Magic Missile by Fighter" in legal_texts(st)


def test_spell_strength_is_added_by_default() -> None:
    """A.iii: "2nd edition rules state that the numbers *are* added"."""
    st = _fight_setup("Dragon", "Fighter", "Magic Missile")  # Dragon 30
    do(st, "fight with Fighter")
    do(st, "cast Magic Missile by Fighter")
    dice(st, 18)
    do(st, "roll")
    ev = last(st, "battle")
    assert ev["total"] == 28 and not ev["won"]


def test_spell_strength_can_replace_the_casters() -> None:
    """A.iii option: "whether an attack spell's strength ... replaces it"."""
    st = _fight_setup("Bandit", "Thief", "Magic Missile", spell_strength="replaces")
    do(st, "fight with Thief")
    do(st, "cast Magic Missile by Thief")
    dice(st, 3)  # the Thief's roll is ignored
    do(st, "roll")
    assert last(st, "battle")["total"] == 10


def test_only_elves_and_magic_users_cast_with_that_option() -> None:
    """A.iii: "whether or not anyone can cast spells, or if only Elves and Magic Users can"."""
    st = _fight_setup("Ogre", "Fighter", "Elf", "Magic Missile", spell_casters="casters")
    do(st, "fight with Fighter")
    assert "cast Magic Missile by Fighter" not in legal_texts(st)
    do(st, "fight with Elf")
    assert "cast Magic Missile by Elf" in legal_texts(st)


def test_sleep_and_charm_only_against_human_types() -> None:
    """<Spells>: "Sleep and Charm spells only work on human type monsters"."""
    st = _fight_setup("Cave Bear", "Fighter", "Sleep", "Charm")
    do(st, "fight with Fighter")
    assert not any(t.startswith("cast") for t in legal_texts(st))
    st = _fight_setup("Bandit", "Fighter", "Sleep")
    do(st, "fight with Fighter")
    assert "cast Sleep by Fighter" in legal_texts(st)


def test_sleep_is_2d_with_the_errata_and_1d_without() -> None:
    """Appendix D: "Sleep's value should be 2D, not 1D"."""
    st = table()
    assert str(st.strength[cid(st, "Sleep")]) == "2D"
    st = table(sleep_errata=False)
    assert str(st.strength[cid(st, "Sleep")]) == "1D"


def test_charm_alone_cannot_be_combined() -> None:
    """A.iii: "My personal house rule is that Charm cannot be combined with other
    attacks (the 4D from Charm alone must overcome the monster)"."""
    st = _fight_setup("Ogre", "Elf", "Fighter", "Charm")
    do(st, "fight with Elf")
    do(st, "cast Charm by Elf")
    assert legal_texts(st) == ["roll"]
    dice(st, 20)  # the Charm's 4D only
    do(st, "roll")
    assert last(st, "battle")["total"] == 20
    st = _fight_setup("Ogre", "Elf", "Fighter", "Charm")
    do(st, "fight with Elf")
    do(st, "fight with Fighter")
    assert not any(t.startswith("cast Charm") for t in legal_texts(st))


def test_charm_combined_when_the_house_rule_is_off() -> None:
    st = _fight_setup("Ogre", "Elf", "Fighter", "Charm", charm_alone=False)
    do(st, "fight with Elf")
    do(st, "fight with Fighter")
    do(st, "cast Charm by Elf")
    dice(st, 5, 6, 9)  # Elf 5 + Charm 6, Fighter 9
    do(st, "roll")
    assert last(st, "battle")["total"] == 20


def test_charm_by_an_elf_sends_the_monster_on() -> None:
    """<Special Way of Using Charm>: "If a Magic-User or Elf uses Charm and defeats a
    human-type monster, that monster can be placed in front of another player's
    corridor (presuming it's empty)"."""
    st = _fight_setup("Orc", "Elf", "Charm")
    walk(st, 1, 10)
    do(st, "fight with Elf")
    do(st, "cast Charm by Elf")
    dice(st, 15)
    do(st, "roll")
    assert "send monster to seat 1" in legal_texts(st)
    assert "send monster to seat 2" not in legal_texts(st)  # no corridor yet
    do(st, "send monster to seat 1")
    assert st.monster[1] == cid(st, "Orc")


def test_charm_by_a_fighter_does_not_send() -> None:
    """Only "a Magic-User or Elf" may send the charmed monster on."""
    st = _fight_setup("Orc", "Fighter", "Charm")
    walk(st, 1, 10)
    do(st, "fight with Fighter")
    do(st, "cast Charm by Fighter")
    dice(st, 15)
    do(st, "roll")
    assert st.turn != 0  # nothing left to decide: the turn ended
    assert cid(st, "Orc") in st.discard


def test_detour_is_free_and_second_edition_removes_the_last_corridor() -> None:
    """<Detour>: "Both the monster card and the detour card are placed in the
    discard pile. 2nd Edition change: ... also remove the most recent corridor"."""
    st = _fight_setup("Dragon", "Detour", "Corridor 10")
    walk(st, 0, 30)
    do(st, "detour")
    assert st.monster[0] == -1 and st.dist_out[0] == 20 and st.turn == 0
    st = _fight_setup("Dragon", "Detour", "Corridor 10", detour_edition=1)
    walk(st, 0, 30)
    do(st, "detour")
    assert st.dist_out[0] == 50


def test_detour_can_cost_the_action() -> None:
    """A.ii option: the detour uses up the action."""
    st = _fight_setup("Dragon", "Detour", "Corridor 10", detour_costs_action=True)
    do(st, "detour")
    assert st.turn != 0


def test_fight_then_corridor_house_rule() -> None:
    """A.iii: "allow players who defeat a monster placed in front of them to then
    place a corridor in the same turn"."""
    st = _fight_setup("Kobold", "Fighter", "Corridor 10", fight_then_corridor=True)
    do(st, "fight with Fighter")
    dice(st, 10)
    do(st, "roll")
    assert "play Corridor 10" in legal_texts(st)
    do(st, "play Corridor 10")
    assert st.dist_out[0] == 30
    st = _fight_setup("Kobold", "Fighter", "Corridor 10")
    do(st, "fight with Fighter")
    dice(st, 10)
    do(st, "roll")
    # Default: the battle was the action. The player is still asked (a Heal
    # is possible with a Cleric in hand, and nobody may learn whether there is
    # one), but a corridor is not offered.
    assert legal_texts(st) == ["end turn"]
    do(st, "end turn")
    assert st.turn != 0


def test_whether_a_player_is_asked_after_a_battle_does_not_reveal_a_cleric() -> None:
    """<Cleric> 2): "Can be exchanged for a character card that was just used" —
    the others see the battle, not the hand: the player is asked after every
    battle, with or without a Cleric, so waiting for them reveals nothing."""
    asked = []
    for hand in (("Fighter", "Cleric"), ("Fighter", "Corridor 10")):
        st = _fight_setup("Kobold", *hand)
        do(st, "fight with Fighter")
        dice(st, 10)
        do(st, "roll")
        asked.append((st.to_act(), st.phase, st.view(1)))
    assert asked[0][:2] == asked[1][:2] == ((0,), "after")
    assert asked[0][2] == asked[1][2]


def test_with_an_empty_hand_the_turn_ends_after_the_battle() -> None:
    """Nothing to decide, and everyone sees the hand is empty: the turn passes."""
    st = _fight_setup("Kobold", "Fighter")
    do(st, "fight with Fighter")
    dice(st, 10)
    do(st, "roll")
    assert st.turn != 0


def test_treasure_dispel_that_costs_the_action_still_ends_the_turn_under_eight() -> None:
    """<Turn> 4): "You may not have 8 or more cards at the end of your turn."
    With dispel_costs_action=true a Sacred Goblet dispels without losing a card,
    so a player holding 8 must still discard one before the turn passes."""
    st = table(dispel_costs_action=True)
    at_treasure(st, 0)
    st.held[0] = [tid(st, "Sacred Goblet")]
    st.monster[0] = cid(st, "Ghoul")
    give(st, 0, *(["Corridor 10"] * 4 + ["Fighter"] * 4))  # 8 cards after the draw
    do(st, "dispel with Sacred Goblet")
    assert st.turn == 0 and st.phase == "discard"
    assert set(legal_texts(st)) == {"discard Corridor 10", "discard Fighter"}
    do(st, "discard Fighter")
    assert st.turn != 0 and len(st.hands[0]) == 7


def test_treasure_dispel_costing_the_action_under_the_limit_ends_the_turn_at_once() -> None:
    """A.i option: the dispel is the turn's action; with 7 cards nothing more is owed."""
    st = table(dispel_costs_action=True)
    at_treasure(st, 0)
    st.held[0] = [tid(st, "Sacred Goblet")]
    st.monster[0] = cid(st, "Ghoul")
    give(st, 0, *(["Corridor 10"] * 7))
    do(st, "dispel with Sacred Goblet")
    assert st.turn != 0 and len(st.hands[0]) == 7
