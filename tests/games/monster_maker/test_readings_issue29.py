"""Issue 29: in the endgame a party that can still get home does not die of
one pass (RULES.md, "Endgame").

§3 <Endgame>: "When the draw pile is exhausted, noone may draw any more cards.
Also, once someone has returned from the dungeon, noone may draw any more
cards. After that, you must return from the dungeon with only the cards in
hand. When a player runs out of cards during endgame, his game is over. Any
party that is unable to return from the dungeon, dies inside of it."
<The Road Back>: "You can of course decline to play any corridor cards until
the one you need to finish your path comes up, as long as there are cards in
the draw pile and noone has returned from the dungeon yet".
"""

from __future__ import annotations

import pytest

from bestiary.engine import Rng
from bestiary.games.monster_maker import GAME
from bestiary.games.monster_maker.describe import describe
from bestiary.games.monster_maker.rules import BACK, DEAD, HOME, MonsterMakerState
from bestiary.i18n import use_language

from .mm_helpers import at_treasure, cid, dice, do, give, table, walk


def _endgame(players: int = 3) -> MonsterMakerState:
    """Seat ``players - 1`` is home (so nobody draws); seats 0 and 1 are 80p
    into a 100p road back; seat 0 is about to choose."""
    st = table(players=players)
    home = players - 1
    st.status[home] = HOME
    st.first_home = home
    st.endgame = True
    for s in (0, 1):
        at_treasure(st, s)
        st.back[s] = [cid(st, "Corridor 40")] * 2
        st.dist_back[s] = 80
    return st


def _legal(st: MonsterMakerState, seat: int) -> list[str]:
    return [str(m) for m in st.legal(seat)]


def test_a_party_holding_its_last_corridor_is_not_offered_a_pass() -> None:
    """The case seen in play: 80 of 100p back, holding the exact Corridor 20, the
    player passed once and died. With nothing left to draw there is nothing to
    wait for: <The Road Back> lets a player decline "as long as there are cards
    in the draw pile and noone has returned", so the endgame offers no pass to a
    party that can still return."""
    st = _endgame()
    give(st, 0, "Corridor 20", "Ogre")
    give(st, 1, "Corridor 20")
    assert st.can_return(0)
    assert "pass" not in _legal(st, 0)
    assert "play Corridor 20" in _legal(st, 0)
    do(st, "play Corridor 20")
    assert st.status[0] == HOME


def test_an_able_party_keeps_its_turns_while_a_stuck_one_dies() -> None:
    """ "Any party that is unable to return from the dungeon, dies inside of it":
    decided from the hand. Seat 1 holds a Corridor 40 for the 20p it lacks (no
    sequence of its cards lands the road), so it dies when its turn comes; seat 0
    holds two Corridor 10 and goes home in two turns."""
    st = _endgame()
    give(st, 0, "Corridor 10", "Corridor 10")
    give(st, 1, "Corridor 40", "Fighter")
    assert st.can_return(0) and not st.can_return(1)
    do(st, "play Corridor 10")
    assert st.status[1] == DEAD, "seat 1 cannot return: it dies at its turn"
    died = [e.data for e in st.log.events if e.kind == "died"]
    assert died[-1]["seat"] == 1 and died[-1]["cause"] == "stuck"
    assert st.turn == 0 and st.status[0] == BACK, "seat 0 keeps its turns"
    dungeon = st.dungeon
    do(st, "play Corridor 10")
    home = [e.data for e in st.log.events if e.kind == "home"]
    assert home[-1]["seat"] == 0
    assert st.dungeon == dungeon + 1 or st.over, "everyone is home or dead: the dungeon ends"


def test_a_party_that_plays_its_way_out_of_a_landing_dies_then() -> None:
    """A party that plays a corridor after which no sequence of its cards lands
    the road is unable to return from that moment."""
    st = _endgame()
    give(st, 0, "Corridor 10", "Corridor 20")
    give(st, 1, "Corridor 20")
    do(st, "play Corridor 10")
    assert st.status[0] == DEAD


def test_a_block_the_hand_cannot_remove_is_unable_to_return() -> None:
    """A monster before the party: its road is open only if the hand can remove
    the monster. A Thief (2D+1, at most 13) cannot beat a Dragon (30); a Thief
    and a Fighter (3D+3) together can, at their best rolls; a Detour goes round."""
    st = _endgame()
    st.monster[0] = cid(st, "Dragon")
    give(st, 0, "Corridor 20", "Thief")
    assert not st.can_return(0)
    give(st, 0, "Corridor 20", "Thief", "Fighter")
    assert st.can_return(0)
    give(st, 0, "Corridor 20", "Detour")
    assert st.can_return(0)
    give(st, 0, "Thief", "Fighter")
    assert not st.can_return(0), "no corridor left to land the road"
    # At its turn the blocked party with only a Thief dies before it chooses.
    st.monster[0] = -1
    give(st, 0, "Corridor 10", "Corridor 10")
    give(st, 1, "Corridor 20", "Thief")
    st.monster[1] = cid(st, "Dragon")
    do(st, "play Corridor 10")
    assert st.status[1] == DEAD


def test_on_the_way_out_the_hand_must_reach_the_room_and_land_the_way_back() -> None:
    """Still on the way out in the endgame: some corridors reach the treasure
    room ("100p (perch) or more") and the others land "the length of the corridor
    you took to the treasure room" exactly."""
    st = _endgame()
    st.status[0] = 0  # OUT
    st.out[0] = [cid(st, "Corridor 40")] * 2
    st.dist_out[0] = 80
    st.back[0] = []
    st.dist_back[0] = 0
    give(st, 0, "Corridor 20", "Corridor 40", "Corridor 40", "Corridor 20")
    assert st.can_return(0)  # 20 out (100p), then 40 + 40 + 20 back
    give(st, 0, "Corridor 20", "Corridor 40", "Corridor 40")
    assert not st.can_return(0)


def _passer(st: MonsterMakerState, seat: int, rng: Rng) -> None:
    """A bot that passes whenever it may, else plays a random legal move."""
    legal = st.legal(seat)
    texts = [str(m) for m in legal]
    if "pass" in texts:
        st.apply(seat, legal[texts.index("pass")])
    else:
        st.apply(seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_game_of_passing_bots_ends(players: int) -> None:
    """Nobody can stall the endgame: a party that may not pass spends a card on
    every turn (or dies), so a dungeon ends. Bots that pass whenever they may,
    over many seeds: every game ends, within a bound of moves (12 dungeons, the
    guard, each a deck's worth of draws plus the cards in hand played out)."""
    bound = 0
    for seed in range(12):
        st = GAME.new(players, seed=seed)
        assert isinstance(st, MonsterMakerState)
        rng = Rng(seed)
        deck = len(st.deck) + sum(len(h) for h in st.hands)
        bound = 12 * 8 * deck
        moves = 0
        while not st.over:
            assert st.to_act(), "a live game always has a seat to act"
            (seat,) = st.to_act()
            if st.endgame and st.phase == "turn":
                assert "pass" not in _legal(st, seat), "nothing to wait for in the endgame"
            _passer(st, seat, rng)
            moves += 1
            assert moves <= bound, f"seed {seed}: no end after {moves} moves"


# -- the log (issue 29, log point) ----------------------------------------------------------


def test_the_log_of_charm_alone_says_the_casters_own_strength_does_not_count() -> None:
    """A.iii: "My personal house rule is that Charm cannot be combined with other
    attacks (the 4D from Charm alone must overcome the monster)" (the default
    `charm_alone`). The line was "Dwarf with Charm alone = 15": the Dwarf's own
    strength silently gone and the Charm's dice not shown. It now shows the
    Charm's 4D and its roll, and says the Dwarf's own strength does not count."""
    st = table()
    walk(st, 0, 20)
    st.monster[0] = cid(st, "Ogre")
    give(st, 0, "Dwarf", "Charm")
    do(st, "fight with Dwarf")
    do(st, "cast Charm by Dwarf")
    dice(st, 15)  # the Charm's 4D only: the Dwarf (2D+5) rolls nothing
    do(st, "roll")
    battle = next(e for e in reversed(st.log.events) if e.kind == "battle")
    assert battle.data["total"] == 15
    with use_language("en"):
        line = describe(battle)
    assert "Dwarf with Charm alone: 4D rolled 15 = 15 (Dwarf's own strength does not count)" in line
    with use_language("pl"):
        line = describe(battle)
    assert "sam czar" in line and "4D: wyrzucono 15 = 15" in line
    assert "(własna siła postaci się nie liczy)" in line
