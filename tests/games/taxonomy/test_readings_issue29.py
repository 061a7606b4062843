"""Issue 29, reading 13: a proud monster set aside stays aside for the rest of
the game (RULES.md, reading 13, "the card set aside")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bestiary.engine import Rng
from bestiary.games.taxonomy import GAME
from bestiary.games.taxonomy.bots import HeuristicAgent
from bestiary.games.taxonomy.cards import AGGRESSIVE, CHEERFUL, MEAN, PROUD
from bestiary.games.taxonomy.rules import TaxonomyState

from .helpers import arrange, ids, state

DISCARD_NATURES = AGGRESSIVE | CHEERFUL | MEAN | PROUD


class _Dice(Rng):
    """An Rng whose dice give fixed results, then fall back to a real stream."""

    def __init__(self, results: list[int]) -> None:
        super().__init__(1)
        self.results = results

    def roll(self, notation: Any) -> int:
        return self.results.pop(0) if self.results else super().roll(notation)


def _next_round(st: TaxonomyState) -> None:
    """The stock runs out on the next draw: the round ends, the next is dealt."""
    rnd = st.round
    st.stock.clear()
    seat = st.to_act()[0]
    # A discard that sets nothing aside (a card with no discard nature), so the
    # only card aside is the one the test put there.
    plain = [
        m
        for m in st.legal(seat)
        if str(m).startswith("discard ")
        and not st.nat[ids(st, [str(m).removeprefix("discard ")])[0]] & DISCARD_NATURES
    ]
    st.apply(seat, plain[0])
    assert st.round == rnd + 1


def _set_aside_amazoness(rounds: int = 4, variant: str | None = None) -> TaxonomyState:
    st = state(4, variant=variant, rounds=rounds)
    arrange(st, {0: ["Amazoness", "Succubus", "Alice"]})
    st.apply_text(0, "discard Amazoness")
    assert [c["name"] for c in st.view(1)["set_aside"][0]] == ["Amazoness"]
    return st


def _where(st: TaxonomyState, card: int) -> list[str]:
    return [zone for zone, cards in st.zones().items() if card in cards]


def test_a_proud_monster_stays_aside_for_the_rest_of_the_game() -> None:
    """v0.2: "Additionally, you can no longer collect cards with this type for the
    rest of the game. Set the proud monster aside so that you can see what type you
    can no longer collect." The card is the ban's marker: it is never shuffled back
    into the stock, so no later round deals or draws it."""
    st = _set_aside_amazoness()
    amazoness = ids(st, ["Amazoness"])[0]
    for rnd in (1, 2, 3):
        _next_round(st)
        assert st.round == rnd
        assert _where(st, amazoness) == ["aside 0"], f"round {rnd + 1}"
        for seat in range(4):
            v = st.view(seat)
            assert [c["name"] for c in v["set_aside"][0]] == ["Amazoness"]
            assert v["bans"][0] == ["Fiend"]
    # Every card is still somewhere: the deck dealt is the deck less the card.
    assert sum(len(z) for z in st.zones().values()) == st.deck.size
    assert len(st.stock) + sum(len(h) for h in st.hands) == st.deck.size - 1


def test_the_variant_v01_reads_the_same() -> None:
    """v0.1: "you can no longer collect cards with this type until the end of the
    game. Set the proud monster aside so that you can see what type you can no
    longer collect." — the same reading, in a v0.1 game of several rounds."""
    st = _set_aside_amazoness(rounds=3, variant="v0.1")
    amazoness = ids(st, ["Amazoness"])[0]
    _next_round(st)
    assert _where(st, amazoness) == ["aside 0"]
    assert [c["name"] for c in st.view(2)["set_aside"][0]] == ["Amazoness"]


def test_a_sample_never_deals_the_card_set_aside() -> None:
    """Search samples (determinize) resample the stock and the hidden hands from
    the cards still in play: the card set aside is not among them."""
    st = _set_aside_amazoness()
    amazoness = ids(st, ["Amazoness"])[0]
    _next_round(st)
    for seat in range(4):
        for k in range(10):
            det = st.determinize(seat, Rng(k))
            assert _where(det, amazoness) == ["aside 0"]


def test_the_bot_counts_the_card_set_aside_as_seen_in_later_rounds() -> None:
    """The heuristic bot's count of unseen cards per key reads the view's
    set-aside cards: in a later round the Amazoness (a Fiend) is not unseen."""
    st = _set_aside_amazoness()
    _next_round(st)
    view = st.view(1)
    bot = HeuristicAgent()
    seen_fiends = sum(
        1
        for pile in [view["hand"], view["discards"], *view["set_aside"]]
        for card in pile
        if "Fiend" in card["keys"]
    )
    seen_fiends += sum(
        1 for t in view["tables"] for s in t for card in s["cards"] if "Fiend" in card["keys"]
    )
    assert seen_fiends >= 1
    assert bot._unseen(view)["Fiend"] == view["key_sizes"]["Fiend"] - seen_fiends


def test_a_miscellaneous_card_set_aside_keeps_its_rolled_pride() -> None:
    """The card shows "what type you can no longer collect", and why: a
    miscellaneous monster that rolled proud stays aside as a proud card, though
    the next round's reshuffle forgets every other roll."""
    st = state(4, rounds=3)
    st.rng = _Dice([7])  # natures.toml [roll]: 7 = proud
    arrange(st, {}, stock=["Alp"])
    alp = ids(st, ["Alp"])[0]
    assert st.nat[alp] == PROUD and st.roll[alp] == 7
    st.apply_text(0, "discard Alp")
    assert [c["natures"] for c in st.view(1)["set_aside"][0]] == [["proud"]]
    _next_round(st)
    assert _where(st, alp) == ["aside 0"]
    assert [c["natures"] for c in st.view(1)["set_aside"][0]] == [["proud"]]
    assert st.view(1)["set_aside"][0][0]["roll"] == 7


def test_a_deck_too_small_without_the_cards_set_aside_ends_the_game(tmp_path: Path) -> None:
    """Reading 13: the cards set aside stay out of the deck. A designer's card
    file of 17 cards (8 a player and one to draw, for 2 players) cannot deal a
    second round once a proud monster is set aside: the game ends after the
    rounds played, with their scores."""
    lines = ["name,type,family,natures", "Boss,Lord,Lord,proud"]
    lines += [f"M{i},Type{i % 8},Fam,none" for i in range(16)]
    path = tmp_path / "small.csv"
    path.write_text("\n".join(lines) + "\n")
    st = GAME.new(2, seed=1, options={"cards": str(path), "rounds": 3})
    assert isinstance(st, TaxonomyState) and st.deck.size == 17
    others = [c for c in range(17) if st.deck.names[c] != "Boss"]
    boss = st.deck.card("Boss")
    assert boss is not None
    st.arrange([[boss, *others[:7]], others[7:15]], [others[15]], 0)
    # The stock is empty: seat 1's draw ends the round, and 16 cards cannot deal
    # the next one.
    st.apply_text(0, "discard Boss")
    assert _where(st, boss) == ["aside 0"]
    assert st.over and st.result is not None
    assert st.result.stats["rounds"] == 1
