"""Claim windows: what a seat that is not asked may learn (RULES.md reading 22),
the `claim_window=all` option, who is asked in a determinization, and the
claimer's choice of the laid set (reading 11)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bestiary.engine import Rng
from bestiary.games.taxonomy import GAME
from bestiary.games.taxonomy.rules import TaxonomyState

from .helpers import arrange, ids, plain_fillers, state

UNDEAD3 = ["Mummy", "Zombie", "Lich"]
MOLLUSK3 = ["Scylla", "Kraken", "Giant Slug"]
OTHER_UNDEAD3 = ["Jiangshi", "Skeleton", "Ghoul"]


def world(
    named: dict[int, Sequence[str]], players: int = 4, **options: Any
) -> tuple[TaxonomyState, list[int]]:
    """A 4-seat position whose filler cards do not depend on who holds the named
    ones: seat 0 holds Ghost, seat 2 the Molluskan three, and each seat's hand is
    its named cards then fillers from that seat's own fixed slice."""
    st = state(players, **options)
    avoid = {k for n in ["Ghost", *UNDEAD3, *MOLLUSK3] for k in st.deck.keys_of[st.deck.card(n)]}  # type: ignore[index]
    fill = plain_fillers(st, avoid)
    top = fill.pop(0)  # seat 0's first draw: a plain card nobody can use
    hands = []
    for s in range(players):
        mine = ids(st, named.get(s, []))
        own = fill[8 * s : 8 * s + 8]
        hands.append([*mine, *own[: 8 - len(mine)]])
    st.arrange(hands, [top], 0)
    return st, hands[2]


def seat_sees(st: TaxonomyState, seat: int) -> str:
    return json.dumps(st.view(seat), sort_keys=True)


# -- reading 22: a seat not asked learns nothing but the passage of time -----------------
def test_a_seat_not_asked_sees_the_table_between_turns_whoever_may_claim() -> None:
    """ "Each time a player discards a card he must say aloud the monster type and
    nature so that other players know if they want/can take that card." Each player
    judges for themselves; seat 2, who cannot claim, must not learn who can: its
    view is the same whether seat 1, seat 3 or both hold three Undead, and shows
    the phase it shows when nobody can claim ("discard"), nobody to wait for."""
    worlds = {
        "seat 1": {0: ["Ghost"], 1: UNDEAD3, 2: MOLLUSK3},
        "seat 3": {0: ["Ghost"], 3: UNDEAD3, 2: MOLLUSK3},
        "both": {0: ["Ghost"], 1: UNDEAD3, 2: MOLLUSK3, 3: OTHER_UNDEAD3},
    }
    seen = {}
    for name, named in worlds.items():
        st, _ = world(named)
        st.apply_text(0, "discard Ghost")
        assert st.phase == "claim" and 2 not in st.to_act(), name
        view = st.view(2)
        assert view["phase"] == "discard" and view["to_act"] == [] and view["prompt"] == ""
        assert view["claim"] is None and view["turn"] == 0
        assert not {"claim_open", "claims_closed"} & {e.kind for e in st.events_since(0, 2)}
        seen[name] = seat_sees(st, 2)
        # The same for a spectator and for the discarder.
        assert st.view(None)["phase"] == "discard" and st.view(0)["to_act"] == []
    assert seen["seat 1"] == seen["seat 3"] == seen["both"]


def test_in_a_three_player_game_the_third_seat_cannot_tell_who_holds_three() -> None:
    """The issue's case: seat 0 discards, seat 1 may claim; seat 2's view names no
    claim phase and no seat to wait for."""
    st = arrange(state(3), {0: ["Ghost"], 1: UNDEAD3})
    st.apply_text(0, "discard Ghost")
    assert st.to_act() == (1,)
    view = st.view(2)
    assert (view["phase"], view["to_act"], view["claim"]) == ("discard", [], None)
    assert "claim" not in json.dumps({k: view[k] for k in ("phase", "to_act", "prompt")})


def test_an_asked_seat_sees_its_own_claim_and_nothing_of_the_others() -> None:
    st, _ = world({0: ["Ghost"], 1: UNDEAD3, 2: MOLLUSK3, 3: OTHER_UNDEAD3})
    st.apply_text(0, "discard Ghost")
    assert st.to_act() == (1, 3)
    st.apply_text(3, "pass")
    v1, v3 = st.view(1), st.view(3)
    assert v1["phase"] == "claim" and v1["to_act"] == [1] and v1["claim"]["keys"] == ["Undead"]
    assert v3["phase"] == "claim" and v3["to_act"] == [] and v3["claim"]["decided"] is True


def test_others_do_not_see_an_impatient_choice_or_a_declare_decision() -> None:
    """ "Impatient: when you draw an impatient monster, you can immediately draw
    another card" — a player who stops need not show what was drawn; a hand made
    winning by a refill may be declared or not. Others see a discard decision
    (hand over 8) or the table's pause (hand of 8), never the phase's name."""
    st = arrange(state(4), {}, stock=["Ghoul", "Slime"])
    assert st.phase == "impatient"
    assert (st.view(1)["phase"], st.view(1)["to_act"]) == ("discard", [0])
    assert st.view(0)["phase"] == "impatient"
    # Imp (mean) takes Slime, the last card in hand; the refill draws Mindflayer:
    # Undead 4 + Molluskan 4 — a winning hand seat 0 may declare or not.
    st = arrange(
        state(4),
        {0: ["Imp", "Mummy", "Zombie", "Lich", "Jiangshi", *MOLLUSK3]},
        stock=["Slime", "Mindflayer"],
    )
    st.rng = _Last(0)
    st.apply_text(0, "discard Imp")
    assert st.phase == "declare" and st.view(0)["phase"] == "declare"
    assert (st.view(1)["phase"], st.view(1)["to_act"], st.view(1)["prompt"]) == ("discard", [], "")


class _Last(Rng):
    """An RNG whose random index is always the last (the mean monster's pick)."""

    def randrange(self, n: int) -> int:
        return n - 1


# -- the option claim_window=all ------------------------------------------------------------
def test_claim_window_all_asks_every_other_seat_about_every_discard() -> None:
    """`claim_window=all`: every other seat answers every discard (claim or pass),
    so nobody learns anything from who is asked or how long the table waits."""
    st, _ = world({0: ["Ghost"], 1: UNDEAD3, 2: MOLLUSK3}, claim_window="all")
    st.apply_text(0, "discard Ghost")
    assert st.to_act() == (1, 2, 3)
    assert [str(a) for a in st.legal(1)] == ["claim Undead", "pass"]
    assert [str(a) for a in st.legal(2)] == ["pass"] == [str(a) for a in st.legal(3)]
    assert st.view(2)["phase"] == "claim" and st.view(2)["claim"]["keys"] == []
    for q in (1, 2, 3):
        st.apply_text(q, "pass")
    assert st.to_act() == (1,) and st.phase == "discard"


def test_claim_window_all_gives_no_signal_even_when_nobody_can_claim() -> None:
    """Seat 2's view is the same whether seat 1 may claim or nobody may."""
    views = []
    for named in ({0: ["Ghost"], 1: UNDEAD3, 2: MOLLUSK3}, {0: ["Ghost"], 2: MOLLUSK3}):
        st, _ = world(named, claim_window="all")
        st.apply_text(0, "discard Ghost")
        assert 2 in st.to_act()
        views.append(seat_sees(st, 2))
    assert views[0] == views[1]


def test_claim_window_default_keeps_asking_only_the_seats_that_may_claim() -> None:
    assert GAME.ruleset().claim_window == "eligible"  # type: ignore[attr-defined]
    st, _ = world({0: ["Ghost"], 2: MOLLUSK3})
    st.apply_text(0, "discard Ghost")
    assert st.phase == "discard" and st.to_act() == (1,)


# -- determinize: who is asked is worked out from the sampled hands ---------------------------
def test_a_determinization_works_out_again_who_may_claim() -> None:
    """No flag is carried over from the real game: in seat 2's sampled worlds the
    seats asked are those whose sampled hands hold three Undead — and there is
    always one, since seat 2 sees the table wait (the passage of time)."""
    st, _ = world({0: ["Ghost"], 1: UNDEAD3, 2: MOLLUSK3})
    st.apply_text(0, "discard Ghost")
    undead = st.deck.key("Undead")
    asked = set()
    for i in range(30):
        d = st.determinize(2, Rng(i))
        assert d.view(2) == st.view(2)
        held = sorted(c for cards in d.zones().values() for c in cards)
        assert held == list(range(d.deck.size)), "every card once"
        assert d.to_act() and set(d.to_act()) <= {1, 3}
        for q in d.to_act():
            assert d.hk[q][undead] >= 3, "an asked seat holds three of the key"
        for q in {1, 3} - set(d.to_act()):
            assert d.hk[q][undead] < 3, "a seat holding three of the key is asked"
        asked.add(d.to_act())
    assert len(asked) > 1, "who is asked varies with the sampled hands"


def test_an_asked_seat_stays_asked_and_keeps_its_own_answer() -> None:
    st, _ = world({0: ["Ghost"], 1: UNDEAD3, 2: MOLLUSK3, 3: OTHER_UNDEAD3})
    st.apply_text(0, "discard Ghost")
    st.apply_text(3, "pass")
    for i in range(10):
        d = st.determinize(3, Rng(i))
        assert 3 in d.claim_seats and d.claim_choice.get(3) is not None
        assert 3 not in d.to_act()
        d1 = st.determinize(1, Rng(i))
        assert 1 in d1.to_act() and 3 not in d1.claim_choice, "others answer again"


# -- reading 11: the claimer chooses the set ----------------------------------------------------
def test_the_claimer_chooses_which_cards_go_down_with_the_claimed_one() -> None:
    """ "you can take that card, show that you have created a set of four, and place
    that set on the table": with four Undead in hand the claimer chooses which
    three are laid — here it keeps the proud Pharaoh in hand."""
    st = arrange(state(4), {0: ["Ghost"], 1: [*UNDEAD3, "Pharaoh"]})
    st.apply_text(0, "discard Ghost")
    st.apply_text(1, "claim Undead")
    assert st.phase == "claim" and st.to_act() == (1,)
    assert sorted(str(a) for a in st.legal(1)) == sorted(f"keep {n}" for n in [*UNDEAD3, "Pharaoh"])
    assert st.view(1)["claim"]["key"] == "Undead" and st.view(1)["claim"]["to_keep"] == 1
    st.apply_text(1, "keep Pharaoh")
    laid = [st.deck.names[c] for c in st.tables[1][0][1]]
    assert sorted(laid) == sorted([*UNDEAD3, "Ghost"])
    assert st.deck.card("Pharaoh") in st.hands[1]
    assert st.claims[1] == 1 and st.to_act() == (1,) and st.phase == "discard"


def test_two_cards_to_keep_and_a_set_that_is_chosen_by_itself() -> None:
    st = arrange(state(4), {0: ["Ghost"], 1: [*UNDEAD3, "Pharaoh", "Jiangshi"]})
    st.apply_text(0, "discard Ghost")
    st.apply_text(1, "claim Undead")
    st.apply_text(1, "keep Pharaoh")
    assert st.phase == "claim" and "keep Pharaoh" not in [str(a) for a in st.legal(1)]
    st.apply_text(1, "keep Jiangshi")
    assert sorted(st.deck.names[c] for c in st.tables[1][0][1]) == sorted([*UNDEAD3, "Ghost"])
    # The claimer's private log line carries the claim and each kept card apart
    # (a card name may hold a comma; nothing is split out of one text).
    (decided,) = [e.data for e in st.log.events if e.kind == "decided"]
    assert decided == {
        "seat": 1,
        "choice": "claim Undead",
        "kept": ["keep Pharaoh", "keep Jiangshi"],
    }
    # Exactly three of the key: nothing to choose, the claim lays them at once.
    st = arrange(state(4), {0: ["Ghost"], 1: UNDEAD3})
    st.apply_text(0, "discard Ghost")
    st.apply_text(1, "claim Undead")
    assert st.phase == "discard" and len(st.tables[1][0][1]) == 4


def test_keep_actions_round_trip_and_the_action_space_stays_fixed() -> None:
    st = arrange(state(4), {0: ["Ghost"], 1: [*UNDEAD3, "Pharaoh"]})
    size = GAME.num_actions(4, st.rules)
    assert size == 3 * st.deck.size + 8 + st.deck.num_keys + 6
    st.apply_text(0, "discard Ghost")
    st.apply_text(1, "claim Undead")
    for a in st.legal(1):
        assert st.parse(1, str(a)) is a
        index = st.action_index(a)
        assert 0 <= index < size and st.action_from_index(1, index) is a
    assert GAME.num_actions(4, st.rules) == size


def test_the_others_learn_the_claim_only_when_the_set_is_laid() -> None:
    st = arrange(state(4), {0: ["Ghost"], 1: [*UNDEAD3, "Pharaoh"]})
    st.apply_text(0, "discard Ghost")
    n = st.event_count()
    st.apply_text(1, "claim Undead")
    assert st.events_since(n, 2) == [] and st.view(2)["phase"] == "discard"
    st.apply_text(1, "keep Pharaoh")
    claimed = [e for e in st.events_since(n, 2) if e.kind == "claimed"]
    assert claimed and sorted(c["name"] for c in claimed[0].data["set"]) == sorted(
        [*UNDEAD3, "Ghost"]
    )
