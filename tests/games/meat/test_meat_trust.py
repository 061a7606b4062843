"""Trust: search copies never touch the real match, a determinization holds the
same cards, and no seat learns a card the rulebook hides from it."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bestiary.engine import Rng
from bestiary.games.meat import GAME
from bestiary.games.meat.rules import P_LEADER, P_WINDOW, MeatState

from .helpers import at_tactics, events, place

_IMMUTABLE = (int, str, float, bool, tuple, frozenset, type(None))


def _mutables(obj: Any, seen: dict[int, Any]) -> None:
    """Every mutable object reachable from ``obj`` (by id)."""
    if isinstance(obj, _IMMUTABLE):
        if isinstance(obj, tuple):
            for x in obj:
                _mutables(x, seen)
        return
    if id(obj) in seen:
        return
    seen[id(obj)] = obj
    if isinstance(obj, dict):
        for v in obj.values():
            _mutables(v, seen)
    elif isinstance(obj, list):
        for v in obj:
            _mutables(v, seen)
    elif hasattr(obj, "__dict__"):
        for v in vars(obj).values():
            _mutables(v, seen)
    elif hasattr(obj, "__slots__"):
        for k in obj.__slots__:
            _mutables(getattr(obj, k, None), seen)


def _owned(st: MeatState) -> dict[int, Any]:
    seen: dict[int, Any] = {}
    for k, v in vars(st).items():
        if k not in st.SHARED and k not in st.CACHES and k != "log":
            _mutables(v, seen)
    return seen


def _midgame(players: int = 2, seed: int = 4, steps: int = 80) -> MeatState:
    st = GAME.new(players, seed=seed)
    assert isinstance(st, MeatState)
    rng = Rng(seed)
    for _ in range(steps):
        if st.over:
            break
        seat = st.to_act()[0]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
    return st


def test_a_leader_picked_in_a_clone_changes_nothing_in_the_original() -> None:
    """ISMCTS picks leaders in search copies: the real match must not get their
    passives (this once gave +1 defence to a faction whose leader nobody chose)."""
    st = GAME.new(2, seed=1)
    assert isinstance(st, MeatState) and st.phase == P_LEADER
    seat = st.to_act()[0]
    before = ([list(x) for x in st.lb_atk], [list(x) for x in st.lb_def], list(st.rounds_won))
    for move in st.legal(seat):
        copy = st.clone()
        copy.apply(seat, move)
        copy.rounds_won[0] += 1
    assert ([list(x) for x in st.lb_atk], [list(x) for x in st.lb_def]) == before[:2]
    assert st.rounds_won == before[2] and st.leader == [-1, -1]


def test_a_clone_shares_no_mutable_object_outside_shared() -> None:
    for players in (2, 4):
        st = _midgame(players)
        copy = st.clone()
        common = set(_owned(st)) & set(_owned(copy))
        assert not common, [type(_owned(st)[i]).__name__ for i in common]
        det = st.determinize(0, Rng(3))
        assert not set(_owned(st)) & set(_owned(det))


def test_zones_hold_every_card_once_also_after_determinize() -> None:
    for players in (2, 4, 6):
        for steps in (0, 40, 90, 160):
            st = _midgame(players, seed=steps, steps=steps)
            cards = [c for z in st.zones().values() for c in z]
            assert sorted(cards) == list(range(len(st.cs.kind)))
            for seat in range(players):
                det = st.determinize(seat, Rng(seat))
                got = Counter(c for z in det.zones().values() for c in z)
                assert got == Counter(cards)


def test_returning_a_face_down_creature_tells_the_opponent_no_name() -> None:
    """Rozkaz Odwrotu on one's own face-down creature in the Tactics window: the
    card goes back to its owner's hand unseen ("rewersem do góry", face down),
    so the opponent learns the slot, never the card."""
    st = at_tactics(2, 0, {0: ["Bober", "Rozkaz Odwrotu"], 1: ["Rekrut"]}, instant_windows=True)
    place(st, 0, {"front": "Bober"})
    place(st, 1, {"front": "Rekrut"})
    assert st.phase == P_WINDOW
    while 0 not in st.to_act():
        st.apply_text(st.to_act()[0], "pass")
    st.apply_text(0, "cast Rozkaz Odwrotu @ s0 front")
    while st.phase != P_WINDOW or 0 not in st.to_act():
        st.apply_text(st.to_act()[0], "pass")
    assert "Bober" in [st.name(c) for c in st.hand[0]]
    for e in st.events_since(0, 1):
        assert "Bober" not in str(e.data), e
    assert events(st, "returned", 1) and "card" not in events(st, "returned", 1)[0]
    assert any(e.get("card") == "Bober" for e in events(st, "returned_card", 0))


def test_a_face_down_creature_that_dies_is_shown_on_its_way_to_the_graveyard() -> None:
    """Reading (RULES.md): "karta natychmiast zostaje przeniesiona na stos
    CMENTARZA" — the graveyard is an open pile, so a face-down creature killed
    by an INSTANT in the Tactics window is named to everyone."""
    st = at_tactics(2, 0, {0: ["Rekrut", "Krwawy Grom"], 1: ["Akolita"]})
    place(st, 0, {"front": "Rekrut"})
    place(st, 1, {"front": "Akolita"})
    while 0 not in st.to_act():
        st.apply_text(st.to_act()[0], "pass")
    st.apply_text(0, "cast Krwawy Grom @ s1 front")
    while st.stack:
        st.apply_text(st.to_act()[0], "pass")
    assert [e["card"] for e in events(st, "died", 0)] == ["Akolita"]
    assert st.view(0)["graveyards"]["creature"][-1] == "Akolita"


def _at_the_tactics_window(players: int, seed: int) -> MeatState:
    """A real match (first legal moves) in the INSTANT window after the Tactics:
    every seat's creatures lie face down, drafted in the open this round."""
    st = GAME.new(players, seed=seed)
    assert isinstance(st, MeatState)
    for _ in range(10_000):
        if st.phase == P_WINDOW and any(c >= 0 for c in st.field):
            return st
        seat = st.to_act()[0]
        st.apply(seat, st.legal(seat)[0])
    raise AssertionError("no Tactics window")


def test_a_sample_keeps_the_creatures_an_opponent_drafted_with_it() -> None:
    """RULES.md: "a bot may remember the draft (the view lists each seat's picks
    of this round, drafted)". A search's sample must respect what the seat has
    seen: an opponent's face-down lanes and hand hold the creatures it drafted
    this round (every way out of them is shown), only where is unknown -- so
    over many samples the lanes vary but never hold another creature."""
    for players in (2, 4):
        st = _at_the_tactics_window(players, seed=players)
        for seat in range(players):
            for foe in range(seat ^ 1, players, 2):
                drafted = set(st.drafted[foe])
                hidden = [c for c in st.hand[foe] if c < st.ncre]
                hidden += [c for c in st.field[foe * 3 : foe * 3 + 3] if c >= 0]
                assert drafted and drafted <= set(hidden)
                lanes = set()
                for k in range(30):
                    det = st.determinize(seat, Rng(k))
                    mine = [c for c in det.hand[foe] if c < det.ncre]
                    face_down = [c for c in det.field[foe * 3 : foe * 3 + 3] if c >= 0]
                    assert drafted <= set(mine + face_down)
                    assert det.view(seat) == st.view(seat)
                    lanes.add(tuple(face_down))
                assert len(lanes) > 1  # where each one lies is not known


def test_a_sample_does_not_depend_on_the_lanes_an_opponent_really_chose() -> None:
    """Two worlds the seat cannot tell apart -- the opponent's face-down
    creatures in one order or another -- give the same sample."""
    st = _at_the_tactics_window(2, seed=7)
    other = st.clone()
    lanes = other.field[3:6]
    assert all(c >= 0 for c in lanes) and not any(other.up[3:6])
    other.field[3:6] = lanes[::-1]
    assert other.view(0) == st.view(0) and other.field != st.field
    a, b = st.determinize(0, Rng(11)), other.determinize(0, Rng(11))
    assert a.field == b.field and a.hand == b.hand and a.cdeck == b.cdeck


def test_a_sample_forgets_the_tactics_an_opponent_is_still_setting() -> None:
    """The tactics are set face down ("Ustalanie taktyki"): until the cards are
    down, the opponent's view shows nothing of what it placed. Two worlds the
    seat cannot tell apart -- the opponent's two creatures in some lanes or
    others, one destiny card set or none -- must give the same sample; a
    sample that kept the real lanes let a search see where they were."""
    hands = {0: ["Akolita", "Rekrut"], 1: ["Dziki Wilk", "Bober", "Okrzyk Bojowy"]}
    worlds = []
    for lanes, destiny in ((("left", "front"), ()), (("right", "left"), ("Okrzyk Bojowy",))):
        st = at_tactics(2, 0, hands)
        for name, lane in zip(("Dziki Wilk", "Bober"), lanes, strict=True):
            st.apply_text(1, f"place {name} {lane}")
        for name in destiny:
            st.apply_text(1, f"set {name}")
        worlds.append(st)
    a, b = worlds
    assert a.view(0) == b.view(0) and a.tac_c != b.tac_c
    sa, sb = a.determinize(0, Rng(5)), b.determinize(0, Rng(5))
    assert sa.tac_c == sb.tac_c == [[-1, -1, -1], [-1, -1, -1]]
    assert sa.tac_d == sb.tac_d and sa.tac_stage == sb.tac_stage
    assert sa.hand == sb.hand
    # The opponent places again in the sample; the seat's own tactics stay.
    assert 1 in sa.to_act() and any(str(m).startswith("place") for m in sa.legal(1))


def test_a_sample_draws_the_tactics_of_an_opponent_that_is_done() -> None:
    """That an opponent is done shows (it is no longer asked); what it set does
    not. Two opponents done with different lanes and destiny cards give the
    same sample, in which the opponent is done too, its two creatures placed
    ("gracz korzysta z maksymalnej dostępnej liczby kart") -- and over many
    samples the lanes and the number of destiny cards vary."""
    hands = {0: ["Akolita", "Rekrut"], 1: ["Dziki Wilk", "Bober", "Okrzyk Bojowy"]}
    worlds = []
    for lanes, destiny in ((("left", "front"), ()), (("right", "left"), ("Okrzyk Bojowy",))):
        st = at_tactics(2, 0, hands)
        place(st, 1, dict(zip(lanes, ("Dziki Wilk", "Bober"), strict=True)), destiny)
        worlds.append(st)
    a, b = worlds
    assert a.to_act() == b.to_act() == (0,) and a.view(0) == b.view(0)
    seen = set()
    for k in range(20):
        sa, sb = a.determinize(0, Rng(k)), b.determinize(0, Rng(k))
        assert sa.tac_c == sb.tac_c and sa.tac_d == sb.tac_d
        assert sa.to_act() == (0,) and sa.view(0) == a.view(0)
        assert sorted(c >= 0 for c in sa.tac_c[1]) == [False, True, True]
        seen.add((tuple(c >= 0 for c in sa.tac_c[1]), len(sa.tac_d[1])))
    assert len(seen) > 2
