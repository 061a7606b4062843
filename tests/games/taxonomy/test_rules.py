"""Scenario tests: every rule and nature, each quoting the rulebook (v0.2, English)."""

from __future__ import annotations

from typing import Any

import pytest

from bestiary.engine import IllegalAction, NotYourTurn, Rng
from bestiary.games.taxonomy.rules import TaxonomyState

from .helpers import arrange, names, state, total

UNDEAD3 = ["Mummy", "Zombie", "Lich"]  # plain Undead
MOLLUSK3 = ["Scylla", "Kraken", "Giant Slug"]  # plain Molluskan Demihuman


def hand(st: TaxonomyState, seat: int) -> list[str]:
    return names(st, st.hands[seat])


def legal(st: TaxonomyState, seat: int) -> list[str]:
    return [str(a) for a in st.legal(seat)]


def event_kinds(st: TaxonomyState, seat: int | None, since: int = 0) -> list[str]:
    return [e.kind for e in st.events_since(since, seat)]


# -- dealing and the turn -----------------------------------------------------------------
def test_deal_8_each_then_the_dealer_draws_and_must_discard() -> None:
    """ "At the start of the game, all players draw 8 cards. Each turn a player draws
    one card from the pile in the middle and discards 1 from his hand." """
    st = state(4)
    assert [len(h) for h in st.hands] == [9, 8, 8, 8]
    assert len(st.stock) == 201 - 32 - 1
    assert st.to_act() == (0,) and st.phase == "discard"
    assert all(a.startswith("discard ") for a in legal(st, 0))


def test_a_turn_is_draw_then_discard_and_play_passes_on() -> None:
    st = arrange(state(4), {}, stock=["Slime"])
    assert "Slime" in hand(st, 0)
    st.apply_text(0, "discard Slime")
    assert st.discards == [st.deck.card("Slime")]
    assert total(st, 0) == 8
    assert st.to_act() == (1,) and total(st, 1) == 9


def test_illegal_actions_say_what_is_allowed_and_change_nothing() -> None:
    st = arrange(state(4), {}, stock=["Slime"])
    before = st.view(0)
    with pytest.raises(IllegalAction, match="allowed: discard"):
        st.apply_text(0, "discard Werewolf")
    with pytest.raises(NotYourTurn):
        st.apply(1, st.legal(0)[0])
    assert st.view(0) == before


# -- claims ---------------------------------------------------------------------------------
def test_claim_lays_the_four_set_then_the_claimer_discards_and_play_follows_them() -> None:
    """ "If you have 3 cards of the same type, and another player discards another card
    of that type, you can take that card, show that you have created a set of four,
    and place that set on the table. [...] You then have to discard 1 card" """
    st = arrange(state(4), {0: ["Ghost"], 1: UNDEAD3})
    st.apply_text(0, "discard Ghost")
    assert st.phase == "claim" and st.to_act() == (1,)
    assert legal(st, 1) == ["claim Undead", "pass"]
    st.apply_text(1, "claim Undead")
    assert st.tables[1] == [
        (st.deck.key("Undead"), [*map(st.deck.card, UNDEAD3), st.deck.card("Ghost")])
    ]
    assert st.claims[1] == 1 and st.discards == []
    assert st.to_act() == (1,) and total(st, 1) == 9
    st.apply(1, st.legal(1)[0])
    assert total(st, 1) == 8
    assert st.to_act() == (2,), "play continues with the player after the claimer"


def test_pass_lets_the_next_player_draw() -> None:
    st = arrange(state(4), {0: ["Ghost"], 1: UNDEAD3})
    st.apply_text(0, "discard Ghost")
    st.apply_text(1, "pass")
    assert st.to_act() == (1,) and total(st, 1) == 9 and st.tables[1] == []


def test_several_claimants_decide_at_once_first_after_the_discarder_wins() -> None:
    """Reading 3: "Several claimants: the first in turn order after the discarder." """
    st = arrange(
        state(4),
        {2: ["Ghost"], 1: UNDEAD3, 3: [*["Jiangshi", "Skeleton", "Wight"][:2], "Ghoul"]},
        first=2,
    )
    # seat 3 holds Jiangshi, Skeleton and Ghoul (3 Undead): both 1 and 3 may claim.
    st.apply_text(2, "discard Ghost")
    assert st.to_act() == (3, 1)
    st.apply_text(1, "claim Undead")
    assert st.to_act() == (3,), "the claim window waits for every eligible seat"
    assert st.view(3)["claim"]["decided"] is False
    st.apply_text(3, "claim Undead")
    assert st.claims == [0, 0, 0, 1] and st.tables[1] == []
    assert st.to_act() == (3,)


def test_random_claim_priority_option() -> None:
    seen = set()
    for seed in range(12):
        st = state(4, claim_priority="random")
        st.rng = Rng(seed)
        arrange(st, {2: ["Ghost"], 1: UNDEAD3, 3: ["Jiangshi", "Skeleton", "Ghoul"]}, first=2)
        st.apply_text(2, "discard Ghost")
        st.apply_text(1, "claim Undead")
        st.apply_text(3, "claim Undead")
        seen.add(st.claims.index(1))
    assert seen == {1, 3}


def test_claim_window_is_hidden_from_other_seats() -> None:
    st = arrange(state(4), {0: ["Ghost"], 1: UNDEAD3})
    st.apply_text(0, "discard Ghost")
    assert st.view(1)["claim"]["keys"] == ["Undead"]
    assert st.view(2)["claim"] is None and st.view(2)["to_act"] == []
    assert "claim_open" not in event_kinds(st, 2)


def test_loyal_monsters_cannot_be_claimed_in_v02_but_can_in_v01() -> None:
    """ "Devoted/Loyal: A loyal monster stays loyal even after being discarded. Such a
    card cannot be taken into your set." (v0.2 only: reading 8)"""
    for variant, claimable in (("v0.2", False), ("v0.1", True)):
        st = arrange(state(4, variant), {0: ["Kobold"], 1: ["Anubis", "Werewolf", "Hellhound"]})
        st.apply_text(0, "discard Kobold")
        assert (st.phase == "claim") is claimable, variant


def test_a_drawn_card_of_a_table_sets_key_may_be_added_to_it() -> None:
    """ "When you draw another card of this type you can add it to the table." """
    st = arrange(state(2), {0: ["Ghost"], 1: UNDEAD3}, stock=["Slime", "Red Slime", "Skeleton"])
    st.apply_text(0, "discard Ghost")
    st.apply_text(1, "claim Undead")
    st.apply_text(1, "discard " + next(n for n in hand(st, 1) if n not in UNDEAD3))
    st.apply_text(0, "discard Red Slime")
    assert "table Skeleton" in legal(st, 1)
    st.apply_text(1, "table Skeleton")
    assert len(st.tables[1][0][1]) == 5 and "Skeleton" not in hand(st, 1)
    assert total(st, 1) == 9 and st.to_act() == (1,)


def test_tabling_never_leaves_nothing_to_discard() -> None:
    """Reading 4 needs a card to discard: a drawn card may be tabled only while the
    hand keeps enough cards to pay the excess."""
    st = arrange(state(2), {0: ["Ghost"], 1: UNDEAD3}, stock=["Slime", "Red Slime", "Skeleton"])
    st.apply_text(0, "discard Ghost")
    st.apply_text(1, "claim Undead")
    st.apply_text(1, "discard " + next(n for n in hand(st, 1) if n not in UNDEAD3))
    st.apply_text(0, "discard Red Slime")
    # Seat 1 now holds 4 + 1 drawn: shrink the hand to the drawn card alone.
    skeleton = st.deck.card("Skeleton")
    st.hands[1] = [skeleton]  # type: ignore[list-item]
    st.tables[1][0][1].append(st.deck.card("Wight"))  # type: ignore[arg-type]
    st.tables[1].append((st.deck.key("Molluskan Demihuman"), [st.deck.card(n) for n in MOLLUSK3]))  # type: ignore[arg-type,misc]
    st._recount(1)
    st._legal = None
    assert "discard Skeleton" in legal(st, 1)
    assert "table Skeleton" not in legal(st, 1)


# -- winning --------------------------------------------------------------------------------
def test_declare_a_win_after_drawing() -> None:
    """Reading 2: "A player may declare it after drawing". Undead 4 (15 cards: 0) +
    Molluskan 4 (4 cards: 3), no claims (3) = 6."""
    st = arrange(
        state(4), {0: ["Mummy", "Zombie", "Lich", "Jiangshi", *MOLLUSK3]}, stock=["Mindflayer"]
    )
    assert "win" in legal(st, 0) and st.view(0)["can_win"] is True
    st.apply_text(0, "win")
    assert st.scores == [6, 0, 0, 0]
    last = st.view(1)["last_round"]
    assert last["winner"] == 0 and last["pattern"] == "4+4" and last["points"] == 6
    assert st.round == 1 and st.dealer == 1, "the next round is dealt by the next player"


def test_declare_a_win_on_a_completing_claim() -> None:
    """Reading 2: "[...] or when a claimed discard completes it." One claim: 2 + 0 + 3."""
    st = arrange(state(4), {0: ["Ghost"], 1: [*UNDEAD3, *MOLLUSK3, "Mindflayer"]})
    st.apply_text(0, "discard Ghost")
    st.apply_text(1, "claim Undead")
    assert "win" in legal(st, 1)
    st.apply_text(1, "win")
    assert st.scores[1] == 5


def test_no_win_without_a_winning_hand() -> None:
    st = arrange(state(4), {0: UNDEAD3 + MOLLUSK3}, stock=["Slime"])
    assert "win" not in legal(st, 0) and st.view(0)["can_win"] is False


# -- natures ----------------------------------------------------------------------------------
def test_aggressive_sends_a_duel_and_the_loser_skips_a_turn() -> None:
    """ "Aggressive/violent: when discarded, such a monster can be sent to another
    player [...] We play a game of rock-paper-scissors with the player we want to
    send the aggressive monster at. The player who loses loses a turn." """
    st = arrange(state(4), {0: ["Hornet"]})
    st.apply_text(0, "discard Hornet")
    assert st.phase == "attack" and legal(st, 0) == [
        "attack 1",
        "attack 2",
        "attack 3",
        "no attack",
    ]
    st.apply_text(0, "attack 2")
    assert st.phase == "duel" and set(st.to_act()) == {0, 2}
    n = st.event_count()
    st.apply_text(0, "rps rock")
    assert st.to_act() == (2,)
    # The choice is hidden until both chose.
    assert st.view(2)["duel"]["your_choice"] is None
    assert all("rock" not in str(e.data) for e in st.events_since(n, 2))
    st.apply_text(2, "rps scissors")
    assert st.skips[2] == 1
    assert st.to_act() == (1,)
    st.apply(1, st.legal(1)[0])
    assert st.to_act() == (3,), "seat 2 skips its next turn"
    assert st.skips[2] == 0 and "skipped" in event_kinds(st, None)


def test_rps_ties_repeat_by_default_and_can_be_nobody_loses() -> None:
    """Reading 5: "both choose in secret; ties repeat" (option rps_ties=no-loser)."""
    st = arrange(state(4), {0: ["Hornet"]})
    st.apply_text(0, "discard Hornet")
    st.apply_text(0, "attack 1")
    st.apply_text(0, "rps paper")
    st.apply_text(1, "rps paper")
    assert st.phase == "duel" and set(st.to_act()) == {0, 1} and st.view(0)["duel"]["ties"] == 1
    st.apply_text(1, "rps scissors")
    st.apply_text(0, "rps rock")
    assert st.to_act() == (2,), "seat 1 lost (rock beats scissors) and skips its turn"
    assert "skipped" in event_kinds(st, None)
    st = arrange(state(4, rps_ties="no-loser"), {0: ["Hornet"]})
    st.apply_text(0, "discard Hornet")
    st.apply_text(0, "attack 1")
    st.apply_text(0, "rps paper")
    st.apply_text(1, "rps paper")
    assert st.skips == [0, 0, 0, 0] and st.to_act() == (1,)


def test_no_attack_is_allowed() -> None:
    """ "can be sent" — the discarder may also not attack."""
    st = arrange(state(4), {0: ["Hornet"]})
    st.apply_text(0, "discard Hornet")
    st.apply_text(0, "no attack")
    assert st.to_act() == (1,) and st.skips == [0, 0, 0, 0]


def test_cheerful_discard_takes_every_other_cheerful_monster_along() -> None:
    """ "Cheerful: discarding a cheerful monster is sad, and causes all other happy
    monsters to leave you too. After discarding 1 merry monster, you must discard
    them all." The hand is then drawn back up to 8."""
    st = arrange(state(4), {0: ["Harpy", "Fairy", "Apsara"]})
    st.apply_text(0, "discard Harpy")
    assert names(st, st.discards) == ["Harpy", "Fairy", "Apsara"]
    assert total(st, 0) == 8 and not {"Fairy", "Apsara"} & set(hand(st, 0))


def test_mean_discard_costs_one_more_random_card() -> None:
    """ "Mean/selfish: when discarded, such a monster takes revenge on the player, and
    causes him to have to discard an additional random card." """
    st = arrange(state(4), {0: ["Imp"]})
    before = set(hand(st, 0))
    st.apply_text(0, "discard Imp")
    assert len(st.discards) == 2 and names(st, st.discards)[0] == "Imp"
    assert names(st, st.discards)[1] in before
    assert total(st, 0) == 8


def test_honest_draw_peeks_at_the_top_3_only_for_the_drawer() -> None:
    """ "Honest: when drawn from the stack, such a monster tells what it saw. Look at 3
    cards from the stack and then put them down." (put back in order)"""
    st = arrange(state(4), {}, stock=["Cancer", "Slime", "Red Slime", "Sea Slime"])
    seen = [c["name"] for c in st.view(0)["peek"]["cards"]]
    assert seen == ["Slime", "Red Slime", "Sea Slime"]
    assert names(st, st.stock[-3:][::-1]) == seen, "the stock is unchanged"
    assert st.view(1)["peek"] is None
    assert "peeked" in event_kinds(st, 0) and "peeked" not in event_kinds(st, 1)


def test_claiming_an_honest_monster_shows_the_discarders_hand() -> None:
    """ "If you have taken an honest monster from another player, it tells you what it
    saw in him: you can see what cards he is holding." """
    st = arrange(state(4), {0: ["Sea Bishop"], 1: ["Mermaid", "Merrow", "Unagi Joro"]})
    st.apply_text(0, "discard Sea Bishop")
    st.apply_text(1, "claim Piscine")
    seen = [c["name"] for c in st.view(1)["seen_hands"]["0"]]
    assert sorted(seen) == sorted(hand(st, 0))
    assert st.view(2)["seen_hands"] == {} and "saw_hand" not in event_kinds(st, 2)


def test_impatient_draw_may_draw_again_and_the_excess_is_discarded() -> None:
    """ "Impatient: when you draw an impatient monster, you can immediately draw another
    card." Reading 4: excess is discarded (the owner chooses)."""
    st = arrange(state(4), {}, stock=["Ghoul", "Slime"])
    assert st.phase == "impatient" and legal(st, 0) == ["draw", "stop"]
    st.apply_text(0, "draw")
    assert total(st, 0) == 10 and st.to_act() == (0,)
    st.apply_text(0, "discard Slime")
    assert st.to_act() == (0,), "still one card too many"
    st.apply_text(0, "discard Ghoul")
    assert total(st, 0) == 8 and st.to_act() == (1,)
    st = arrange(state(4), {}, stock=["Ghoul", "Slime"])
    st.apply_text(0, "stop")
    assert total(st, 0) == 9 and "Slime" not in hand(st, 0)


def test_proud_sets_aside_discards_its_type_and_bans_it_for_the_game() -> None:
    """ "Proud/strong: [...] You must discard all cards with the same type as the proud
    monster. Additionally, you can no longer collect cards with this type for the rest
    of the game. Set the proud monster aside so that you can see what type you can no
    longer collect." """
    st = arrange(state(4, rounds=3), {0: ["Amazoness", "Succubus", "Alice"]})
    st.apply_text(0, "discard Amazoness")
    v = st.view(2)
    assert [c["name"] for c in v["set_aside"][0]] == ["Amazoness"]
    assert names(st, st.discards) == ["Succubus", "Alice"]
    assert v["bans"][0] == ["Fiend"] and total(st, 0) == 8
    # The ban lasts the whole game: next round seat 0 may not claim a Fiend.
    st.stock.clear()
    st.apply(1, st.legal(1)[0])  # seat 1 needs a draw: the stock ran out
    assert st.round == 1 and st.view(0)["bans"][0] == ["Fiend"]
    arrange(st, {3: ["Lesser Succubus"], 0: ["Succubus", "Alice", "Dark Priest"]}, first=3)
    st.apply_text(3, "discard Lesser Succubus")
    assert st.phase != "claim" and st.to_act() == (0,)


def test_proud_beastman_bans_its_family() -> None:
    """Reading 1: a Beastman's "type" for collecting (and for pride) is its family."""
    st = arrange(state(4), {0: ["Centaur", "Unicorn", "Werecat"]})
    st.apply_text(0, "discard Centaur")
    assert st.view(0)["bans"][0] == ["Beastman/Centaur"]
    assert "Werecat" in hand(st, 0) and "Unicorn" not in hand(st, 0)


class _Dice(Rng):
    """An Rng whose dice give fixed results, then fall back to a real stream."""

    def __init__(self, results: list[int]) -> None:
        super().__init__(1)
        self.results = results

    def roll(self, notation: Any) -> int:
        return self.results.pop(0) if self.results else super().roll(notation)


def test_miscellaneous_rolls_2d20_minus_4_rerolls_outside_the_list_and_keeps_it() -> None:
    """ "Miscellaneous: such a monster can be of any nature. Roll 2 20 wall dice and
    subtract 4 from the result." Reading 5: rolled when first drawn, fixed until the
    deck is reshuffled; rolls outside the list are rolled again."""
    st = state(4)
    st.rng = _Dice([0, 35, 13])  # 0 and 35 are outside the list; 13 = cheerful
    arrange(st, {}, stock=["Alp"])
    alp = next(c for c in st.view(0)["hand"] if c["name"] == "Alp")
    assert alp["roll"] == 13 and alp["natures"] == ["cheerful"]
    assert alp["keys"] == ["Fiend", "Cheerful"], "a cheerful roll joins the cheerful set"
    st.apply_text(0, "discard Alp")
    top = st.view(1)["discard_top"]
    assert top["natures"] == ["cheerful"], "the nature stays fixed once rolled"
    # A new round reshuffles: every roll of a card in the stock is forgotten.
    st.stock.clear()
    st.apply(1, st.legal(1)[0])
    assert st.round == 1
    assert all(st.roll[c] == 0 for c in st.stock)


def test_misc_roll_is_visible_only_to_the_drawer() -> None:
    st = arrange(state(4), {}, stock=["Chimaera"])
    assert any(e.kind == "rolled" for e in st.events_since(0, 0))
    rolls_for_1 = [e for e in st.events_since(0, 1) if e.kind == "rolled"]
    assert all(e.data["card"] != "Chimaera" for e in rolls_for_1)


# -- rounds and the end ---------------------------------------------------------------------------
def test_stock_running_out_ends_the_round_with_no_winner() -> None:
    """Reading 6: "The stock running out ends the round with no winner." """
    st = arrange(state(4), {}, stock=["Slime"])
    st.stock.clear()
    st.apply_text(0, "discard Slime")
    res = st.view(0)["round_results"][0]
    assert res["winner"] is None and res["reason"] == "the stock ran out"
    assert st.round == 1 and st.scores == [0, 0, 0, 0]
    assert st.to_act() == (1,), "the deal rotates: seat 1 deals and plays first"


@pytest.mark.parametrize(
    ("variant", "options", "rounds"), [("v0.2", {}, 4), ("v0.2", {"rounds": 3}, 3), ("v0.1", {}, 1)]
)
def test_rounds_per_game(variant: str, options: dict[str, Any], rounds: int) -> None:
    """ "As in madjong, you play several rounds (3-4) and add up the points."
    (v0.1: one round.)"""
    st = state(4, variant, **options)
    for _ in range(rounds):
        assert not st.over
        st.stock.clear()
        st.apply(st.to_act()[0], st.legal(st.to_act()[0])[0])
        while st.phase != "discard" and not st.over:  # a nature may ask something first
            st.apply(st.to_act()[0], st.legal(st.to_act()[0])[-1])
    assert st.over and st.result is not None
    assert st.result.stats["rounds"] == rounds and st.result.stats["no_winner_rounds"] == rounds


def test_highest_total_wins() -> None:
    """ "The player who has the most points at the end of the game wins." """
    st = arrange(state(4, rounds=1), {}, stock=["Slime"])
    st.scores = [3, 7, 7, 0]
    st.stock.clear()
    st.apply_text(0, "discard Slime")
    assert st.over and st.result is not None
    assert st.result.winners == [1, 2] and st.result.scores == [3.0, 7.0, 7.0, 0.0]


def test_draws_are_seen_only_by_the_drawer() -> None:
    st = arrange(state(4), {}, stock=["Slime"])
    mine = [e for e in st.events_since(0, 0) if e.kind == "drew"]
    theirs = [e for e in st.events_since(0, 1) if e.kind == "drew"]
    assert mine[-1].data["card"]["name"] == "Slime"
    assert theirs and all("card" not in e.data for e in theirs)
    assert "Slime" not in str(st.view(1))


def test_every_discard_is_announced_with_its_nature() -> None:
    """ "Each time a player discards a card he must say aloud the monster type and
    nature so that other players know if they want/can take that card." """
    st = arrange(state(4), {0: ["Imp"]})
    n = st.event_count()
    st.apply_text(0, "discard Imp")
    seen_by_3 = [e for e in st.events_since(n, 3) if e.kind == "discarded"]
    assert seen_by_3[0].data["card"]["name"] == "Imp"
    assert seen_by_3[0].data["card"]["natures"] == ["mean"]
    assert seen_by_3[0].data["card"]["type"] == "Fiend"


def test_every_event_kind_has_a_readable_line() -> None:
    from bestiary.games.taxonomy import GAME

    st = arrange(state(4), {0: ["Hornet", "Harpy", "Fairy"], 1: UNDEAD3}, stock=["Cancer"])
    st.apply_text(0, "discard Hornet")
    st.apply_text(0, "attack 1")
    st.apply_text(0, "rps rock")
    st.apply_text(1, "rps paper")
    for e in st.events_since(0, 0) + st.events_since(0, 1):
        line = GAME.describe_event(e)
        assert "=" not in line and line, (e.kind, line)


def test_a_laid_set_stays_on_the_table() -> None:
    """ "Once you have completed a set in this way, you cannot change it again, it must
    remain on the table." Table cards are never offered for discard."""
    st = arrange(state(4), {0: ["Ghost"], 1: UNDEAD3})
    st.apply_text(0, "discard Ghost")
    st.apply_text(1, "claim Undead")
    offered = {a.removeprefix("discard ") for a in legal(st, 1) if a.startswith("discard ")}
    assert offered == set(hand(st, 1))
    assert not offered & {*UNDEAD3, "Ghost"}


def test_an_honest_peek_reveals_and_fixes_a_miscellaneous_roll() -> None:
    """Reading 5: a miscellaneous nature is rolled "when it is first drawn or revealed"."""
    st = arrange(state(4), {}, stock=["Cancer", "Chimaera", "Slime", "Red Slime"])
    chimaera = st.deck.card("Chimaera")
    assert chimaera is not None and st.roll[chimaera] > 0
    peeked = st.view(0)["peek"]["cards"][0]
    assert peeked["name"] == "Chimaera" and peeked["roll"] == st.roll[chimaera]


class _Last(Rng):
    """An Rng whose random picks are always the last item."""

    def randrange(self, n: int) -> int:
        return n - 1


def test_a_refill_draw_that_completes_the_hand_may_be_declared() -> None:
    """Reading 2: "A player may declare it after drawing" — a draw that refills the
    hand to 8 after a mean discard is a draw too (phase "declare": win or pass)."""
    named = ["Imp", "Mummy", "Zombie", "Lich", "Jiangshi", *MOLLUSK3]
    for answer in ("win", "pass"):
        st = arrange(state(4), {0: named}, stock=["Slime", "Mindflayer"])
        st.rng = _Last(0)
        # Imp (mean) takes the last card of the hand, Slime; the refill draws Mindflayer:
        # Undead 4 + Molluskan 4.
        st.apply_text(0, "discard Imp")
        assert st.phase == "declare" and legal(st, 0) == ["win", "pass"]
        assert st.view(0)["can_win"] is True
        st.apply_text(0, answer)
        if answer == "win":
            assert st.view(0)["round_results"][0]["winner"] == 0 and st.scores[0] == 3 + 0 + 3
        else:
            assert st.round == 0 and st.to_act() != (0,)


# -- readings 24 and 25 -----------------------------------------------------------------------
def test_claims_reset_when_a_round_ends() -> None:
    """Reading 24: "As in madjong, you play several rounds (3-4) and add up the
    points." — each round is a hand scored on its own; its claims go with it
    ("-2 sets of 4, during the game you took 2 cards from other players, 1 point")."""
    st = arrange(state(4), {0: ["Ghost"], 1: UNDEAD3})
    st.apply_text(0, "discard Ghost")
    st.apply_text(1, "claim Undead")
    assert st.claims == [0, 1, 0, 0] and st.view(2)["claims"] == [0, 1, 0, 0]
    st.apply(1, st.legal(1)[0])
    st.stock = []  # the next draw ends the round: "the stock ran out"
    st._begin_turn(2)
    assert st.round == 1 and st.round_results[0].winner is None
    assert st.claims == [0, 0, 0, 0] and st.view(2)["claims"] == [0, 0, 0, 0]
    assert st.tables == [[], [], [], []]


def test_a_laid_set_past_5_leaves_only_the_8_card_win() -> None:
    """Reading 25: "You can then collect another set of 4 monsters, or expand this
    set to 5 or 8 cards. When you draw another card of this type you can add it to
    the table." A 6th card may be added; the set stays whole on the table, so
    "2 sets of 4 [...], or a set of 5 of one type and 3 of another" are gone and
    only "8 cards of the same type" still wins."""
    st = arrange(
        state(2),
        {0: ["Ghost"], 1: [*UNDEAD3, *MOLLUSK3]},
        stock=["Slime", "Red Slime", "Skeleton", "Sea Slime", "Jiangshi"],
    )
    st.apply_text(0, "discard Ghost")
    st.apply_text(1, "claim Undead")
    undead = st.deck.key("Undead")

    def discard_a_filler(seat: int) -> None:
        keep = {*UNDEAD3, *MOLLUSK3, "Skeleton", "Jiangshi"}
        st.apply_text(seat, "discard " + next(n for n in hand(st, seat) if n not in keep))

    discard_a_filler(1)
    st.apply_text(0, "discard Red Slime")
    st.apply_text(1, "table Skeleton")
    discard_a_filler(1)
    st.apply_text(0, "discard Sea Slime")
    assert "table Jiangshi" in legal(st, 1)
    st.apply_text(1, "table Jiangshi")
    assert [len(cs) for k, cs in st.tables[1] if k == undead] == [6]
    # Four Molluskan in hand: 4+4 would win with a set of 4 Undead, not with 6.
    st.hands[1] = [*(st.deck.card(n) for n in [*MOLLUSK3, "Mindflayer"])]  # type: ignore[misc]
    st._recount(1)
    assert st._score(1) is None
    # Eight Undead (6 laid + 2 in hand) still win: a set of 8.
    st.hands[1] = [st.deck.card("Ghoul"), st.deck.card("Wight"), st.deck.card("Mindflayer")]  # type: ignore[list-item]
    st._recount(1)
    score = st._score(1)
    assert score is not None and score.pattern == "8"


def test_a_forced_discard_says_which_nature_forced_it() -> None:
    """ "Mean/selfish: when discarded, such a monster takes revenge on the player, and
    causes him to have to discard an additional random card." The log says so in
    words (not "Kappa (mean) (mean)": the card's nature, then the reason)."""
    from bestiary.engine.events import Event
    from bestiary.games.taxonomy.describe import describe

    card = {"name": "Kappa", "natures": ["mean"]}
    forced = Event(0, "discarded", {"seat": 2, "card": card, "why": "mean", "aside": False})
    chosen = Event(1, "discarded", {"seat": 2, "card": card, "why": "chosen", "aside": False})
    assert describe(forced) == (
        "A mean monster takes revenge: seat 2 discards Kappa (mean) at random"
    )
    assert describe(chosen) == "Seat 2 discards Kappa (mean)"
    assert describe(forced, ["Ann", "Bob", "Cy"]).endswith("Cy discards Kappa (mean) at random")
