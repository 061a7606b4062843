"""The heuristic bot (issue "strong bots"): it goes home when it can, and it
fights the monsters it is all but sure to beat instead of detouring."""

from __future__ import annotations

from bestiary.agents.base import AgentContext
from bestiary.engine import Rng
from bestiary.games.monster_maker import GAME
from bestiary.games.monster_maker.bots import SURE_WIN, HeuristicAgent, _Turn
from bestiary.games.monster_maker.rules import BACK, MonsterMakerState

from .mm_helpers import at_treasure, cid, give, table, walk


def _decide(st: MonsterMakerState, seat: int = 0) -> str:
    return str(HeuristicAgent(seed=1).act(AgentContext(st, seat, Rng(1))))


def test_the_bot_plays_the_corridor_that_takes_it_home_rather_than_block() -> None:
    """<Prize Cards>: "The first player to return from the dungeon may draw 1
    Prize card" — and then nobody draws again. Landing the road back beats
    placing a monster before the leader, however close the leader is."""
    st = table(players=3)
    at_treasure(st, 0)
    st.back[0] = [cid(st, "Corridor 40")] * 2
    st.dist_back[0] = 80
    give(st, 0, "Corridor 20", "Ogre", "Fighter")
    at_treasure(st, 1)  # the leader: 95 of 100 back
    st.back[1] = [cid(st, "Corridor 40")] * 2 + [cid(st, "Corridor 15")]
    st.dist_back[1] = 95
    assert "place Ogre before seat 1" in {str(m) for m in st.legal(0)}
    assert _decide(st) == "play Corridor 20"


def test_the_bot_fights_a_big_monster_it_is_all_but_sure_to_beat() -> None:
    """Four Fighters (3D+3 each, at least 24 together) against an Ogre (20): a
    detour would throw away the last corridor (2nd edition) for nothing."""
    st = table()
    walk(st, 0, 40)
    st.monster[0] = cid(st, "Ogre")
    give(st, 0, "Fighter", "Fighter", "Fighter", "Fighter", "Detour")
    assert _decide(st) == "fight with Fighter"


def test_the_bot_still_detours_around_a_monster_it_would_likely_lose_to() -> None:
    st = table()
    walk(st, 0, 40)
    st.monster[0] = cid(st, "Dragon")
    give(st, 0, "Thief", "Detour", "Corridor 10")
    assert _decide(st) == "detour"


def test_over_whole_games_no_home_corridor_is_missed_and_no_sure_win_detoured() -> None:
    """Ten 4-player heuristic games: every chance to get home is taken, and no
    detour goes around a monster the bot beats with >= 95% odds."""
    chances = missed = sure_detours = 0
    for g in range(10):
        st = GAME.new(4, seed=1000 + g)
        assert isinstance(st, MonsterMakerState)
        st.quiet()
        agents = [HeuristicAgent(seed=s) for s in range(4)]
        while not st.over:
            seat = st.to_act()[0]
            legal = st.legal(seat)
            left = st.target(seat) - st.dist_back[seat]
            home = [
                m
                for m in legal
                if m.kind == "corridor"
                and st.status[seat] == BACK
                and st.cs.cards[m.a].value == left
            ]
            move = agents[seat].act(AgentContext(st, seat, Rng(seat)))
            if home:
                chances += 1
                missed += move not in home
            if move.kind == "detour":
                by: dict[str, list] = {}
                for m in legal:
                    by.setdefault(m.kind, []).append(m)
                cs, strengths = agents[seat]._cards(st.rules)
                turn = _Turn(agents[seat], cs, strengths, st.view(seat), seat, by, st.rules)
                sure_detours += turn.best_odds() >= SURE_WIN
            st.apply(seat, move)
    assert chances > 50 and missed == 0 and sure_detours == 0
