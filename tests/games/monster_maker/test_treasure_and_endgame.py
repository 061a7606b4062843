"""Scenario tests: traps, treasure room, OPEN treasures, the road back, prizes,
the endgame, death and several dungeons (rulebook §3-§5, appendix C)."""

from __future__ import annotations

from bestiary.games.monster_maker import GAME
from bestiary.games.monster_maker.describe import describe
from bestiary.games.monster_maker.phases import BACK, DEAD, HOME, OUT
from bestiary.games.monster_maker.rules import MonsterMakerState

from .mm_helpers import at_treasure, cid, dice, do, give, last, legal_texts, table, tid, walk

# A hand that walks 100p out and lands the same 100p back.
_THERE_AND_BACK = ("Corridor 40", "Corridor 40", "Corridor 20") * 2


def _trap_drawn(st: MonsterMakerState, seat: int, *hand: str) -> None:
    give(st, seat, *hand)
    st.deck.append(cid(st, "Trap"))
    st._start_turn(seat)


def test_trap_is_shown_and_a_thief_avoids_it() -> None:
    """<Trap>: "you must show it to the other players. If you have a thief ...
    By discarding the thief, you may also place the failed trap in the discard pile"."""
    st = table()
    _trap_drawn(st, 0, "Thief", "Fighter", "Orc", "Corridor 10")
    assert last(st, "trap")["seat"] == 0
    assert st.log.events[-1].visible_to is None  # everyone sees it
    assert "avoid trap with Thief" in legal_texts(st)
    do(st, "avoid trap with Thief")
    assert len(st.hands[0]) == 3 and st.discard[-1] == cid(st, "Trap")
    assert st.phase == "turn"


def test_trap_without_a_thief_costs_three_cards() -> None:
    """<Trap>: "Choose and discard three of your cards, and place them along with the
    trap card in the discard pile"."""
    st = table()
    _trap_drawn(st, 0, "Fighter", "Orc", "Corridor 10", "Corridor 20", "Elf")
    assert not any(t.startswith("avoid") for t in legal_texts(st))
    for card in ("Orc", "Corridor 10", "Elf"):
        do(st, f"lose {card}")
    assert sorted(st.hands[0]) == sorted([cid(st, "Fighter"), cid(st, "Corridor 20")])
    assert st.discard[-1] == cid(st, "Trap") and st.phase == "turn"


def test_traps_face_up_are_visible_in_the_draw_pile() -> None:
    """A.iv: "you can play with the trap cards face up in the deck"."""
    st = table(traps_face_up=True)
    st.deck.append(cid(st, "Trap"))
    view = st.view(1)
    assert view["traps_in_draw_pile_at"][0] == 0
    det = st.determinize(1, st.rng.fork())
    assert det.deck[-1] == cid(st, "Trap")


def test_treasure_room_distance_by_players() -> None:
    """<Treasure Cards> 100p; §4: "80p or more" with 5, "70p or more" with 6."""
    assert [GAME.new(n, seed=1).room for n in (2, 4, 5, 6)] == [100, 100, 80, 70]  # type: ignore[attr-defined]


def test_treasure_room_draws_a_hidden_treasure() -> None:
    """<Treasure Cards>: "When you've traversed across 100p ... drawing one card from
    the treasure pile"; only OPEN cards are shown."""
    st = table()
    walk(st, 0, 40, 40)
    st.treasure_pile.append(tid(st, "Ring"))
    give(st, 0, "Corridor 30")
    do(st, "play Corridor 30")
    assert st.status[0] == BACK and st.dist_out[0] == 110
    assert st.held[0] == [tid(st, "Ring")]
    mine = [e for e in st.events_since(0, 0) if e.kind == "treasure"]
    theirs = [e for e in st.events_since(0, 1) if e.kind == "treasure"]
    assert mine[-1].data["treasure"] == "Ring"
    assert "treasure" not in theirs[-1].data
    assert "Ring" not in str(st.view(1)) and st.view(1)["players"][0]["hidden_treasures"] == 1


def test_open_treasures_act_at_once() -> None:
    """Appendix C: Pile of Gold Coins "The length you must travel on the way back
    increases by 10p"; Royal Princess "Battles on the way back are at -1"."""
    st = table()
    walk(st, 0, 40, 40)
    st.treasure_pile.append(tid(st, "Pile of Gold Coins"))
    give(st, 0, "Corridor 30")
    do(st, "play Corridor 30")
    assert st.target(0) == 120
    assert "Pile of Gold Coins" in st.view(2)["players"][0]["open_treasures"]
    st = table()
    at_treasure(st, 0)
    st.held[0] = [tid(st, "Royal Princess")]
    st.monster[0] = cid(st, "Kobold")
    give(st, 0, "Thief")
    do(st, "fight with Thief")
    dice(st, 7)
    do(st, "roll")
    ev = last(st, "battle")
    assert ev["penalty"] == 1 and ev["total"] == 6 and not ev["won"]


def test_statue_of_goddess_rolls_at_once() -> None:
    """Appendix C: "Roll the dice. On a 1,2,or 3, has a value of 400gold. On a 4,5,
    or 6, is worthless"."""
    for roll, worthless in ((3, False), (5, True)):
        st = table()
        walk(st, 0, 40, 40)
        st.treasure_pile.append(tid(st, "Statue of Goddess"))
        give(st, 0, "Corridor 30")
        dice(st, roll)
        do(st, "play Corridor 30")
        assert (tid(st, "Statue of Goddess") in st.worthless) is worthless
        line = describe(next(e for e in reversed(st.log.events) if e.kind == "treasure"))
        word = "it is worthless" if worthless else "it keeps its gold"
        assert line.endswith(f"OPEN treasure Statue of Goddess and rolls {roll}: {word}")


def test_weapons_only_on_the_way_back_and_not_used_up() -> None:
    """<Treasure Cards>: weapons "You can use these on the way back. If you use a
    treasure card in combat, there is no need to discard it"; Magic Sword +2 to a
    Fighter or Elf."""
    st = table()
    at_treasure(st, 0)
    st.held[0] = [tid(st, "Magic Sword")]
    st.monster[0] = cid(st, "Ogre")
    give(st, 0, "Fighter", "Thief")
    do(st, "fight with Thief")
    assert not any(t.startswith("wield") for t in legal_texts(st))  # a Thief cannot
    do(st, "fight with Fighter")
    do(st, "wield Magic Sword by Fighter")
    dice(st, 5, 13)
    do(st, "roll")
    ev = last(st, "battle")
    assert ev["total"] == 20 and ev["won"]
    assert st.held[0] == [tid(st, "Magic Sword")]
    assert "Magic Sword" in st.view(1)["players"][0]["open_treasures"]  # now revealed


def test_holy_coffin_dispels_undead_without_being_used_up() -> None:
    """Appendix C: Holy Coffin / Sacred Goblet "Can dispel any Undead"."""
    st = table()
    at_treasure(st, 0)
    st.held[0] = [tid(st, "Sacred Goblet")]
    st.monster[0] = cid(st, "Ghoul")
    give(st, 0, "Corridor 10")
    do(st, "dispel with Sacred Goblet")
    assert st.monster[0] == -1 and st.held[0] == [tid(st, "Sacred Goblet")]


def test_secret_door_with_a_dwarf_gives_two_treasures() -> None:
    """<Treasure Cards>: "When you draw a secret door card, if you have a Thief or a
    Dwarf, you can discard them and draw 2 treasure cards"."""
    st = table()
    walk(st, 0, 40, 40)
    st.treasure_pile += [tid(st, "Ring"), tid(st, "Lost Crown"), tid(st, "Secret Door")]
    give(st, 0, "Corridor 30", "Dwarf")
    do(st, "play Corridor 30")
    assert st.phase == "door"
    do(st, "open door with Dwarf")
    assert sorted(st.held[0]) == sorted([tid(st, "Ring"), tid(st, "Lost Crown")])
    assert tid(st, "Secret Door") in st.removed and st.turn != 0


def test_secret_door_waits_in_the_treasure_room() -> None:
    """ "If you do not have a Thief or a Dwarf, you can remain in the treasure room
    until you draw them ... or ... begin on the road back"."""
    st = table()
    walk(st, 0, 40, 40)
    st.treasure_pile += [tid(st, "Ring"), tid(st, "Lost Crown"), tid(st, "Secret Door")]
    give(st, 0, "Corridor 30")
    do(st, "play Corridor 30")
    assert st.door_open[0] and st.turn != 0
    st.turn, st.phase = 0, "turn"
    give(st, 0, "Thief", "Corridor 10")
    do(st, "open door with Thief")
    assert len(st.held[0]) == 2 and st.turn == 0


def test_an_open_secret_door_asks_whether_or_not_a_thief_is_in_hand() -> None:
    """The Secret Door is OPEN (shown to all), the hand is not: the player is asked
    on arrival either way, so the others cannot learn who holds a Thief or Dwarf."""
    st = table()
    walk(st, 0, 40, 40)
    st.treasure_pile += [tid(st, "Secret Door")]
    give(st, 0, "Corridor 30", "Fighter")
    do(st, "play Corridor 30")
    assert st.to_act() == (0,) and st.phase == "door"
    assert legal_texts(st) == ["leave door"]
    do(st, "leave door")
    assert st.turn != 0 and st.door_open[0]  # still waiting for a Thief or Dwarf


def test_road_back_must_be_exact_and_overshooting_is_not_offered() -> None:
    """<The Road Back>: "The length of your return has to be identical to the length
    of the corridor you took to the treasure room"."""
    st = table()
    at_treasure(st, 0, 100)
    walk(st, 0)  # nothing
    st.back[0] = [cid(st, "Corridor 40"), cid(st, "Corridor 40")]
    st.dist_back[0] = 80
    give(st, 0, "Corridor 30", "Corridor 20")
    for s in (1, 2):  # still able to return, so the dungeon goes on (RULES.md, Endgame)
        give(st, s, *_THERE_AND_BACK)
    texts = legal_texts(st)
    assert "play Corridor 20" in texts and "play Corridor 30" not in texts
    prize_before = len(st.prize_pile)
    do(st, "play Corridor 20")
    assert st.status[0] == HOME
    assert len(st.prize_pile) == prize_before - 1 and len(st.prizes[0]) == 1
    assert st.endgame  # "once someone has returned ... noone may draw any more cards"


def test_only_the_first_home_draws_a_prize() -> None:
    """<Prize Cards>: "The first player to return from the dungeon may draw 1 Prize card"."""
    st = table()
    st.first_home = 2
    at_treasure(st, 0, 100)
    st.back[0] = [cid(st, "Corridor 40")] * 2
    st.dist_back[0] = 80
    give(st, 0, "Corridor 20")
    do(st, "play Corridor 20")
    assert st.prizes[0] == []


def test_endgame_no_draws_and_out_of_cards_dies() -> None:
    """<Endgame>: "once someone has returned from the dungeon, noone may draw any
    more cards ... When a player runs out of cards during endgame, his game is over."""
    st = table()
    st.endgame = True
    give(st, 0, "Corridor 10")
    at_treasure(st, 1)
    st.back[1] = [cid(st, "Corridor 40")] * 2
    st.dist_back[1] = 80
    give(st, 1, "Corridor 10", "Corridor 10")
    deck = len(st.deck)
    do(st, "play Corridor 10")
    assert st.status[0] == DEAD  # out of cards, not home
    assert last(st, "died")["cause"] == "out_of_cards"
    assert len(st.deck) == deck and st.turn == 1 and len(st.hands[1]) == 2  # no draw


def test_dead_players_return_their_treasures() -> None:
    """<Endgame>: "Any player unable to return returns his treasure cards to the
    stack and shuffles it. However, Secret Door and Goddess Idol can only be used
    once a game"."""
    st = table()
    at_treasure(st, 1)
    st.held[1] = [tid(st, "Ring"), tid(st, "Statue of Goddess")]
    pile = len(st.treasure_pile)
    st._kill(1, "test")
    assert len(st.treasure_pile) == pile + 1 and tid(st, "Ring") in st.treasure_pile
    assert tid(st, "Statue of Goddess") in st.removed


def test_once_a_game_cards_redrawn_in_redraw_mode() -> None:
    """<Endgame>: "or redraw them if they are drawn a second time"."""
    st = table(once_per_game="redraw")
    door = tid(st, "Secret Door")
    st.drawn_once.add(door)
    st.treasure_pile += [tid(st, "Ring"), door]
    assert st._draw_treasure() == tid(st, "Ring")
    assert door in st.removed


def test_parties_unable_to_return_die_in_the_endgame() -> None:
    """<Endgame>: "Any party that is unable to return from the dungeon, dies inside
    of it" — decided from the hand (RULES.md, Endgame): a Corridor 40 cannot land
    the 20p left. Seat 0 has nothing to play but `pass` and dies at the end of its
    turn; seat 1 dies when its turn comes."""
    st = table(players=3)
    st.status[2] = HOME
    st.endgame = True
    st.first_home = 2
    give(st, 0, "Corridor 40")
    give(st, 1, "Corridor 40")
    at_treasure(st, 0)
    at_treasure(st, 1)
    st.back[0] = [cid(st, "Corridor 40")] * 2
    st.dist_back[0] = 80
    st.back[1] = [cid(st, "Corridor 40")] * 2
    st.dist_back[1] = 80
    dungeon = st.dungeon
    assert legal_texts(st) == ["pass"]
    do(st, "pass")
    assert st.dungeon == dungeon + 1 or st.over  # the dungeon is over
    ev = [e.data for e in st.log.events if e.kind == "died"]
    assert {d["seat"] for d in ev[-2:]} == {0, 1}


def test_dungeon_end_banks_treasure_and_starts_a_new_dungeon() -> None:
    """§5: "A game consists of trips to multiple dungeons"."""
    st = table(players=2)
    at_treasure(st, 0)
    st.held[0] = [tid(st, "Ring")]
    st.back[0] = [cid(st, "Corridor 40")] * 2
    st.dist_back[0] = 80
    st.status[1] = DEAD
    give(st, 0, "Corridor 20")
    do(st, "play Corridor 20")
    assert st.banked[0] == [tid(st, "Ring")]
    assert st.dungeon == 2 and st.status == [OUT, OUT]
    assert all(len(h) >= 7 for h in st.hands)


def test_game_ends_when_the_prize_cards_run_out_most_gold_wins() -> None:
    """§5: "When the treasure cards or prize cards are exhausted, the game is over.
    Compare everyone's gold"."""
    st = table(players=2)
    st.prize_pile = [st.prize_pile[0]]
    prize_gold = st.cs.prizes[st.prize_pile[0]].gold
    at_treasure(st, 0)
    st.held[0] = [tid(st, "Lost Crown")]
    st.back[0] = [cid(st, "Corridor 40")] * 2
    st.dist_back[0] = 80
    st.status[1] = DEAD
    give(st, 0, "Corridor 20")
    do(st, "play Corridor 20")
    assert st.over
    res = st.result
    assert res is not None and res.winners == [0]
    assert res.scores[0] == 300 + prize_gold


def test_dice_valued_treasure_is_rolled_at_the_end() -> None:
    """<Treasure Cards>: "The 'D' written on some cards ... This is done when the game
    is over." (Mystic Map 3Dx20)."""
    st = table(players=2)
    st.banked[1] = [tid(st, "Mystic Map"), tid(st, "Cursed Ornament")]
    dice(st, 10, 4)
    st._game_over("test")
    assert st.final is not None and st.final["gold"][1] == 200 + (80 - 200)


def test_single_dungeon_wins_mode() -> None:
    """§5: "You may also determine the victor by ... the number of single-dungeon wins"."""
    st = table(players=2, victory="dungeons", max_dungeons=1)
    at_treasure(st, 0)
    st.held[0] = [tid(st, "Ring")]
    st.back[0] = [cid(st, "Corridor 40")] * 2
    st.dist_back[0] = 80
    st.status[1] = DEAD
    give(st, 0, "Corridor 20")
    do(st, "play Corridor 20")
    assert st.over and st.dungeon_wins == [1, 0]
    res = st.result
    assert res is not None and res.scores == [1.0, 0.0]


def test_detour_on_the_road_back_removes_a_return_corridor() -> None:
    """Reading of the 2nd-edition detour on the road back (RULES.md)."""
    st = table()
    at_treasure(st, 0)
    st.back[0] = [cid(st, "Corridor 30")]
    st.dist_back[0] = 30
    st.monster[0] = cid(st, "Dragon")
    give(st, 0, "Detour")
    do(st, "detour")
    assert st.dist_back[0] == 0 and st.dist_out[0] == 100


def test_treasure_distance_and_hand_limit_options() -> None:
    """Options: `treasure_distance` overrides the 100/80/70p of §4; `hand_limit`
    is the 7 of <Preparation> ("Each player draws 7 cards")."""
    st = table(treasure_distance=60)
    walk(st, 0, 40)
    give(st, 0, "Corridor 20")
    do(st, "play Corridor 20")
    assert st.status[0] == BACK
    st = GAME.new(3, seed=1, options={"hand_limit": 5})
    assert isinstance(st, MonsterMakerState)
    assert sorted(len(h) for h in st.hands)[:2] == [5, 5]


def test_variants_set_their_options() -> None:
    """Variants: `first-edition` (1st-edition detour, no errata), `house`
    (the translator's favourite house rule)."""
    first = GAME.ruleset("first-edition")
    assert first.detour_edition == 1 and first.sleep_errata is False  # type: ignore[attr-defined]
    assert GAME.ruleset("house").fight_then_corridor is True  # type: ignore[attr-defined]


def _home_with(st: MonsterMakerState, seat: int, *treasures: str) -> None:
    """``seat`` is 20p from home holding these treasures, with a 20p corridor."""
    at_treasure(st, seat)
    st.held[seat] = [tid(st, t) for t in treasures]
    st.back[seat] = [cid(st, "Corridor 40")] * 2
    st.dist_back[seat] = 80
    give(st, seat, "Corridor 20")


def test_dungeon_wins_roll_dice_treasures_once_and_keep_the_roll() -> None:
    """<Treasure Cards>: dice treasures are rolled "when the game is over"; with
    victory=dungeons each dungeon's gold is counted at its end, so the Mystic Map
    (3Dx20) is rolled then, and the final total keeps that roll (3 dice = 3 → 60)."""
    st = table(players=2, victory="dungeons", max_dungeons=1)
    _home_with(st, 0, "Mystic Map")
    st.status[1] = DEAD
    dice(st, 3, 18)  # the second number would be a second roll (360): it must not happen
    do(st, "play Corridor 20")
    assert st.over and st.final is not None
    prize = st.cs.prizes[st.prizes[0][0]]
    end = last(st, "dungeon_end")
    assert end["gold"][0] == 60 + prize.gold
    assert end["detail"]["0"] == [["Mystic Map", 60], [prize.name, prize.gold]]
    assert st.final["gold"][0] == 60 + prize.gold
    assert ["Mystic Map", 60] in st.final["detail"][0]
    assert st.view(1)["players"][0]["rolled"] == [["Mystic Map", 60]]
    end_event = next(e for e in st.log.events if e.kind == "dungeon_end")
    assert "Mystic Map: 60 gold" in describe(end_event)


def test_gold_victory_rolls_dice_treasures_once_at_the_end_and_shows_them() -> None:
    """Default victory=gold: "This is done when the game is over" — one roll, shown."""
    st = table(players=2, max_dungeons=1)
    _home_with(st, 0, "Ancient Manuscript")
    st.status[1] = DEAD
    dice(st, 4)
    do(st, "play Corridor 20")
    assert st.final is not None and ["Ancient Manuscript", 200] in st.final["detail"][0]
    assert st.view(0)["players"][0]["rolled"] == [["Ancient Manuscript", 200]]


def test_players_who_got_home_take_no_more_turns_in_that_dungeon() -> None:
    """<The Road Back>: "when your return path reaches precisely 105p, you return
    from the dungeon"; <Endgame>: "After that, you must return from the dungeon
    with only the cards in hand" — only those still inside play on. A player
    home is out of the dungeon: no more turns there, and no corridor to block."""
    st = table(players=3)
    _home_with(st, 0, "Ring")
    give(st, 0, "Corridor 20", "Ogre", "Fighter")
    for s in (1, 2):  # 60p from home with six Corridor 10: able to return
        at_treasure(st, s)
        st.back[s] = [cid(st, "Corridor 40")]
        st.dist_back[s] = 40
        give(st, s, *["Corridor 10"] * 6)
    do(st, "play Corridor 20")
    assert st.status[0] == HOME and st.dungeon == 1
    seen: set[int] = set()
    for _ in range(6):  # two rounds of the two still inside
        seen.add(st.turn)
        assert not any(t.endswith("before seat 0") for t in legal_texts(st))
        do(st, legal_texts(st)[-1])  # a corridor: no waiting in the endgame
        if st.dungeon != 1:
            break
    assert 0 not in seen and seen == {1, 2}
