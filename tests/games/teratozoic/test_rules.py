"""Scenario tests for every rule, each quoting the rulebook line it checks."""

from __future__ import annotations

import pytest

from bestiary.engine import BadOptions, IllegalAction, NotYourTurn
from bestiary.games.teratozoic.cards import Era, default_eras
from bestiary.games.teratozoic.rules import (
    BUILD_BEST,
    BUILD_FLAT,
    EXPRESS,
    Hold,
    Keep,
    Take,
    TeratozoicState,
    era_stack,
)
from bestiary.games.teratozoic.solver import score_pool

from .helpers import DECK, GAME, ids, new, play_out, rig_hand, zones

ERA = {e.name: e for e in default_eras()}


def names(stack: list[Era]) -> list[str]:
    return [e.name for e in stack]


# ---------------------------------------------------------------- set-up
@pytest.mark.parametrize(
    ("players", "options", "expected"),
    [
        (
            6,
            {},
            [
                "Apocalyptic",
                "Post-Apocalyptic",
                "Temnozoic",
                "Post-Temnozoic",
                "Pre-Teratozoic",
                "Early Teratozoic",
                "Teratozoic",
            ],
        ),
        (
            5,
            {},
            [
                "Apocalyptic",
                "Post-Apocalyptic",
                "Temnozoic",
                "Post-Temnozoic",
                "Pre-Teratozoic",
                "Early Teratozoic",
                "Teratozoic",
            ],
        ),
        (
            4,
            {},
            [
                "Apocalyptic",
                "Post-Apocalyptic",
                "Temnozoic",
                "Post-Temnozoic",
                "Pre-Teratozoic",
                "Teratozoic",
            ],
        ),
        (3, {}, ["Apocalyptic", "Temnozoic", "Pre-Teratozoic", "Teratozoic"]),
        (2, {}, ["Temnozoic", "Pre-Teratozoic", "Teratozoic"]),
        (
            2,
            {"two_player": "extra-era"},
            ["Apocalyptic", "Temnozoic", "Pre-Teratozoic", "Teratozoic"],
        ),
        (2, {"two_player": "third"}, ["Apocalyptic", "Temnozoic", "Pre-Teratozoic", "Teratozoic"]),
        (6, {"short_game": True}, ["Temnozoic", "Pre-Teratozoic", "Teratozoic"]),
        (
            6,
            {"eras": ("Temnozoic Era", "Pre-Teratozoic Era", "Teratozoic Era")},
            ["Temnozoic", "Pre-Teratozoic", "Teratozoic"],
        ),
    ],
)
def test_era_stack_by_player_count(
    players: int, options: dict[str, object], expected: list[str]
) -> None:
    """Era Card Setup - Quick Reference: '2-3 players: Apocalyptic, Temnozoic,
    Pre-Teratozoic, Teratozoic; 4 players: ...; 5-6 Players: ...; 2 players
    (shorter game): Temnozoic, Pre-Teratozoic, Teratozoic'; 'For 2 players you can
    then remove either the Apocalyptic Era card or a third of the monster cards'."""
    rules = GAME.ruleset(None, options)
    assert names(era_stack(players, rules)) == [f"{n} Era" for n in expected]


def test_era_option_must_end_with_the_teratozoic_era() -> None:
    with pytest.raises(BadOptions, match="must end"):
        GAME.ruleset(None, {"eras": "Temnozoic Era"})
    with pytest.raises(BadOptions, match="unknown Era"):
        GAME.ruleset(None, {"eras": "Stone Age,Teratozoic Era"})


def test_starting_gene_pools_and_first_hands() -> None:
    """'A Gene Pool consists of six cards of a single color with each value (1-6)
    represented'; 'Shuffle all remaining monster cards together to form the
    Mutations Deck'; 'drawing 4 cards from the Mutations Deck and then 1 card
    from their Gene Pool'."""
    st = new(4, seed=3)
    colours_pools = set()
    for s in range(4):
        own = st.pool[s] + st.hand[s][-1:]  # mutations first, then the Gene Pool
        assert len(own) == 6
        assert sorted(DECK[c].value for c in own) == [1, 2, 3, 4, 5, 6]
        assert len({(DECK[c].colour, DECK[c].pool) for c in own}) == 1
        colours_pools.add((DECK[own[0]].colour, DECK[own[0]].pool))
        assert len(st.hand[s]) == 5 and len(st.pool[s]) == 5
    assert len(colours_pools) == 4
    assert len(st.mutations) == 96 - 6 * 4 - 4 * 4  # unused starting pools are mutations too
    assert sorted(zones(st)) == list(range(96))


def test_first_hand_of_the_shorter_two_player_game_is_three_plus_two() -> None:
    st = new(2, seed=3)
    assert st.era.name == "Temnozoic Era"
    assert all(len(st.pool[s]) == 4 for s in range(2))


def test_starting_player_draws_and_declares_first() -> None:
    """'Select a starting player ... who will draw first; always proceed clockwise.'"""
    st = new(4, seed=11)
    first = st.previous_winner
    drew = [e.data["seat"] for e in st.events_since(0, None) if e.kind == "drew"]
    assert drew == [(first + k) % 4 for k in range(4)]
    assert st.to_act() == (first,)


def test_basic_version_removes_the_advanced_cards() -> None:
    """'removing all the Advanced cards from the deck.'"""
    st = GAME.new(4, seed=1, variant="basic")
    assert isinstance(st, TeratozoicState)
    assert all(DECK[c].set != "advanced" for c in zones(st))
    assert len(zones(st)) == 72


def test_experienced_options_remove_a_third_and_the_waste() -> None:
    """'an entire secondary color (plus one primary-colored, one grey, and one
    three-color card, for 32 total)'; 'Taking out the nuclear waste'."""
    st = new(4, seed=1, remove_third="purple")
    assert len(zones(st)) == 64 and all(DECK[c].third != "purple" for c in zones(st))
    st = new(2, seed=1, two_player="third")
    assert len(zones(st)) == 64
    st = new(4, seed=1, no_waste=True)
    assert len(zones(st)) == 93 and all(DECK[c].colour != "grey" for c in zones(st))
    with pytest.raises(BadOptions, match="starting Gene Pools"):
        new(5, seed=1, remove_third="green")


# ---------------------------------------------------------------- expression
def test_expression_minimum_and_hidden_recessive_genes() -> None:
    """'the winner of the previous generation ... declares whether they will play
    all their cards (refer to the Era card for the minimum), or hold some back';
    'Recessive genes ... are placed face down'."""
    st = new(3, seed=2)
    seat = st.to_act()[0]
    other = (seat + 1) % 3
    hand = list(st.hand[seat])
    st.apply(seat, Hold(hand[0], DECK[hand[0]].name))
    # Apocalyptic Era: play at least 4 of 5.
    assert [a for a in st.legal(seat) if isinstance(a, Hold)] == []
    with pytest.raises(IllegalAction):
        st.apply(seat, Hold(hand[1], DECK[hand[1]].name))
    with pytest.raises(NotYourTurn):
        st.apply(other, EXPRESS)
    st.apply(seat, EXPRESS)
    # Others see how many are face down, not which.
    v = st.view(other)
    assert v["players"][seat]["held_count"] == 1 and v["players"][seat]["played"] is None
    assert all(e.data.get("card") != hand[0] for e in st.events_since(0, other) if e.kind == "held")
    assert "hand" not in [e.kind for e in st.events_since(0, other) if e.data.get("seat") == seat]
    assert st.view(seat)["held_cards"] == [hand[0]]


# ---------------------------------------------------------------- growth
def _to_growth(st: TeratozoicState) -> None:
    while st.phase == "expression":
        st.apply(st.to_act()[0], EXPRESS)


def test_growth_is_simultaneous_and_hidden_until_all_have_built() -> None:
    """'All players lay out the cards they have chosen to play at the same time'."""
    st = new(3, seed=4)
    _to_growth(st)
    assert set(st.to_act()) == {0, 1, 2}
    st.apply(0, BUILD_FLAT)
    assert set(st.to_act()) == {1, 2}
    v = st.view(1)
    assert v["players"][0]["chosen"] and v["players"][0]["build"] is None
    assert v["my_choice"] is None
    st.apply(1, BUILD_BEST)
    st.apply(2, BUILD_BEST)
    assert st.phase in ("breed-play", "breed-hand", "expression")
    assert st.builds[0] is not None or st.generation == 2


def test_most_valuable_play_wins() -> None:
    """'The player with the most valuable monsters in play is the winner'."""
    st = new(2, seed=6, two_player="extra-era")
    rig_hand(
        st, 0, ("orange 1 head", "green 1 hook", "purple 1 hook", "green 1 elbow", "orange 2 claw")
    )
    rig_hand(
        st, 1, ("purple 6 torso", "green 6 torso", "orange 6 belly", "purple 5 neck", "green 5 maw")
    )
    st.previous_winner = 0
    st._start_generation()
    _to_growth(st)
    st.apply(0, BUILD_BEST)
    st.apply(1, BUILD_BEST)
    assert st.winner == 1


def test_ties_draw_from_the_gene_pool_until_a_clear_winner() -> None:
    """'If any two or more players tie for first place in a generation, every
    player draws the next card from their Gene Pool, puts it into play, and
    recalculates their score ... repeated until there is a clear winner.'"""
    st = new(2, seed=8, two_player="extra-era")
    rig_hand(
        st, 0, ("orange 1 head", "orange 2 hoof", "orange 3 haunch", "green 4 tail", "purple 5 maw")
    )
    rig_hand(
        st,
        1,
        ("purple 1 head", "purple 2 hoof", "purple 3 haunch", "green 4 right arm", "orange 5 maw"),
    )
    # Known next Gene Pool cards: seat 0 gets a 6, seat 1 a 2.
    six, two = ids("orange 6 torso", "purple 2 knee")
    for s, c in ((0, six), (1, two)):
        for pile in [st.mutations, *st.pool, *st.gdiscard]:
            if c in pile:
                pile.remove(c)
        st.pool[s].append(c)
    st.previous_winner = 0
    st._start_generation()
    _to_growth(st)
    st.apply(0, BUILD_FLAT)
    st.apply(1, BUILD_FLAT)
    ties = [e for e in st.events_since(0, None) if e.kind == "tie"]
    assert len(ties) == 1 and ties[0].data["score"] == 15
    assert st.tie_cards == [[six], [two]]
    assert st.winner == 0
    # The tie cards are in play: the winner may take them.
    assert Take(two, DECK[two].name) in st.legal(0)


# ---------------------------------------------------------------- breeding
def test_breeding_from_play_first_then_from_hand_exactly_as_many() -> None:
    """'First, the winner gains a number of cards from play ... they may select from
    any player's played cards'; 'Then every player gains a number of cards from
    their own hand'; 'Each player must gain the number of cards specified on the
    Era card, if possible, and never more'."""
    st = new(3, seed=9)
    _to_growth(st)
    for s in st.competing:
        st.apply(s, BUILD_BEST)
    w = st.winner
    assert w is not None and st.phase == "breed-play"
    others_cards = [c for s in st.competing if s != w for c in st.played(s)]
    take = next(a for a in st.legal(w) if isinstance(a, Take) and a.card in others_cards)
    st.apply(w, take)
    # Apocalyptic: winner takes 1 from play, then 1 from hand; others 1 from hand.
    assert st.phase == "breed-hand" and st.to_act() == (w,)
    assert all(isinstance(a, Keep) and a.card in st.hand[w] for a in st.legal(w))
    assert take.card not in {a.card for s in st.competing for a in ([] if s != w else st.legal(w))}
    gen = st.generation
    owner = next(s for s in st.competing if take.card in st.hand[s])
    while st.generation == gen:
        seat = st.to_act()[0]
        keep = st.legal(seat)[0]
        assert isinstance(keep, Keep) and take.card != keep.card
        st.apply(seat, keep)
    assert take.card in st.gdiscard[w]
    assert len(st.gdiscard[w]) == 2
    assert all(len(st.gdiscard[s]) == 1 for s in range(3) if s != w)
    assert owner != w


def test_non_gained_cards_go_to_the_mutations_discard_pile() -> None:
    """'All cards which were not added to player Gene Pools during Breeding are put
    in the Mutations Deck Discard Pile.'"""
    st = new(4, seed=10)
    before = sorted(zones(st))
    gen = st.generation
    play_steps = 0
    while st.generation == gen:
        seat = st.to_act()[0]
        st.apply(seat, st.legal(seat)[0])
        play_steps += 1
    assert len(st.mut_discard) == 4 * 5 - (1 + 4)  # 20 cards drawn, 5 gained
    assert sorted(zones(st)) == before


# ---------------------------------------------------------------- mutation / Eras
def _clear_hands(st: TeratozoicState) -> None:
    for s in range(st.players):
        st.mut_discard += st.hand[s]
        st.hand[s] = []


def test_era_advances_mid_draw_and_the_new_ratio_applies() -> None:
    """'If the Mutations Deck runs out ... immediately advance to the next Era ...
    (so if a player was trying to draw 4 cards, only got 3 before the shuffle, and
    the new Era calls for 3, they are done drawing from the Mutations Deck)'."""
    st = new(3, seed=12)
    _clear_hands(st)
    st.mut_discard += st.mutations[:-3]
    st.mutations = st.mutations[-3:]
    n_events = st.event_count()
    st._draw_round(0)
    assert st.era.name == "Temnozoic Era"
    drew = [e.data for e in st.events_since(n_events, None) if e.kind == "drew"]
    assert [(d["mutations"], d["gene_pool"]) for d in drew] == [(3, 2), (3, 2), (3, 2)]
    assert [e.name for e in st.era_discard] == ["Apocalyptic Era"]


def test_final_era_mid_draw_uses_the_previous_ratio_and_the_last_shuffle() -> None:
    """'When the final Era (the Teratozoic Era) begins in the middle of a draw, for
    that draw only, shuffle the Mutations Deck so that remaining players may
    continue to draw ... according to the previous Era'; 'all players should
    immediately shuffle their Gene Pool Discard Pile and their remaining Gene Pool
    (not their hand, if any) together for the last time.'"""
    st = new(3, seed=13)
    st.eras = [ERA["Pre-Teratozoic Era"], ERA["Teratozoic Era"]]
    _clear_hands(st)
    for s in range(3):  # some cards in every discard pile
        st.gdiscard[s].append(st.pool[s].pop())
    st.mut_discard += st.mutations[:-1]
    st.mutations = st.mutations[-1:]
    n_events = st.event_count()
    st._draw_round(0)
    assert st.era.final and st.final_shuffled
    drew = [e.data for e in st.events_since(n_events, None) if e.kind == "drew"]
    assert [(d["mutations"], d["gene_pool"]) for d in drew] == [(2, 3), (2, 3), (2, 3)]
    assert all(st.gdiscard[s] == [] for s in range(3))
    # The generation is played and gained under the Teratozoic Era card.
    st._start_generation()
    assert st.min_play(0) == ERA["Teratozoic Era"].min_play
    # 'once a player's Gene Pool is exhausted they cannot shuffle it'.
    st.gdiscard[0] = st.pool[0]
    st.pool[0] = []
    assert st._draw_pool(0) is None


def test_elimination_below_five_cards() -> None:
    """'if a player ever has fewer than five cards in their entire Gene Pool
    (including their Gene Pool Discard Pile and hand), they lose the game—they
    should add their Gene Pool to the Mutations Deck Discard Pile.'"""
    st = new(3, seed=14)
    before = sorted(zones(st))
    victim = (st.previous_winner + 1) % 3
    st.mut_discard += st.pool[victim][:3]
    del st.pool[victim][:3]
    gen = st.generation
    while st.generation == gen and not st.over:
        seat = st.to_act()[0]
        st.apply(seat, st.legal(seat)[0])
    assert st.eliminated[victim]
    assert st.pool[victim] == [] and st.gdiscard[victim] == [] and st.hand[victim] == []
    assert victim not in st.competing
    assert sorted(zones(st)) == before


def test_game_ends_when_one_or_fewer_can_compete() -> None:
    """'when one or fewer players are able to compete, the game is over.'"""
    st = new(3, seed=15)
    for victim in (1, 2):
        st.mut_discard += st.pool[victim]
        st.pool[victim] = []
    gen = st.generation
    while st.generation == gen and not st.over:
        seat = st.to_act()[0]
        st.apply(seat, st.legal(seat)[0])
    assert st.over and st.result is not None
    assert st.result.winners == [0]
    assert st.to_act() == ()


def test_a_whole_game_ends_in_the_final_era_with_final_scoring() -> None:
    """'At the end of the Teratozoic Era, each player assembles their entire Gene
    Pool ... The player with the highest total is the winner.'"""
    st = new(3, seed=16)
    play_out(st)
    assert st.over and st.era.final
    res = st.result
    assert res is not None
    for s in range(3):
        if not st.eliminated[s]:
            assert res.scores[s] == score_pool(DECK, st.owned(s)).cards
    alive = [s for s in range(3) if not st.eliminated[s]]
    assert set(res.winners) <= set(alive)
    assert max(res.scores[s] for s in res.winners) == max(res.scores[s] for s in alive)


def test_final_tie_break_counts_monsters_from_the_remaining_cards() -> None:
    """'If two or more players have the same highest total, those players should
    count the number of single-color creatures with no loose ends they're able to
    assemble from their remaining cards; the player with the most creatures is the winner.'"""
    st = new(2, seed=17)
    green_sun = [c.id for c in DECK if c.colour == "green" and c.pool == "sun"]
    orange_sun = [c.id for c in DECK if c.colour == "orange" and c.pool == "sun"]
    # Both close six cards; seat 0's two extra cards make one more closed monster.
    st.pool = [
        green_sun + ids("green 6 tentacle-brain", "green 2 hoof"),
        orange_sun + ids("red 6 fire-gland", "grey 0 nuclear waste"),
    ]
    st.gdiscard = [[], []]
    st.hand = [[], []]
    st._finish()
    assert st.result is not None
    assert st.result.scores == [6.0, 6.0]
    assert st.result.winners == [0]


def test_bad_options_are_refused() -> None:
    with pytest.raises(BadOptions):
        GAME.new(4, seed=1, options={"two_player": "sometimes"})
    with pytest.raises(BadOptions):
        GAME.new(4, seed=1, options={"nonsense": 1})


def test_when_everyone_left_would_lose_at_once_the_game_ends_scored() -> None:
    """Reading (RULES.md): 'when one or fewer players are able to compete, the game
    is over' — if the last players all fall below five cards together, nobody is
    eliminated and they are scored as they stand."""
    st = new(3, seed=18)
    for s in range(3):
        st.mut_discard += st.pool[s][:3]
        del st.pool[s][:3]
    gen = st.generation
    while st.generation == gen and not st.over:
        seat = st.to_act()[0]
        st.apply(seat, st.legal(seat)[0])
    assert st.over and st.result is not None
    assert not any(st.eliminated) and st.result.winners


def test_a_human_can_place_cards_by_hand() -> None:
    """'They may adjust their monsters' configurations until they are satisfied':
    placing the worked example's single connection by hand scores 27, the
    solver's build 32."""
    from bestiary.games.teratozoic.rules import BUILD_PLACED, Attach, Start

    st = new(2, seed=19, two_player="extra-era")
    hand = (
        "green 6 tentacle-brain",
        "green 1 tentacle-with-science",
        "green 3 segment",
        "purple 3 left arm",
        "purple 5 pincer",
    )
    rig_hand(st, 0, hand)
    st.previous_winner = 0
    st._start_generation()
    _to_growth(st)
    brain, science = ids(hand[0], hand[1])
    st.apply(0, Start(brain, hand[0]))
    attach = Attach(science, hand[1], 2, brain, hand[0])  # on the brain's S side
    assert str(attach) == f"attach {hand[1]} S of {hand[0]}"
    assert st.parse(0, str(attach)) == attach
    st.apply(0, attach)
    # Only cards whose ends meet an open end may be attached: the purple arm (E)
    # cannot hang below the science card (its N end is used).
    assert all(not (isinstance(a, Attach) and a.anchor == science) for a in st.legal(0))
    assert st.view(0)["placing"] and st.view(1).get("placing") == []
    st.apply(0, BUILD_PLACED)
    st.apply(1, BUILD_BEST)
    b = st.builds[0]
    assert b is not None and b.score == 27


def test_a_short_last_hand_is_still_played_in_the_final_era() -> None:
    """'they should play their last hand, even if it is fewer than 5 cards—and they
    could still have won!'"""
    st = new(3, seed=20)
    st.eras = [ERA["Teratozoic Era"]]
    st.final_shuffled = True
    _clear_hands(st)
    for s in range(3):
        st.gdiscard[s] += st.pool[s][2:] if s == 0 else []
        del st.pool[s][2 if s == 0 else 5 :]
    st._draw_round(0)
    assert len(st.hand[0]) == 2 and st.pool[0] == []
    st._start_generation()
    assert 0 in st.competing and st.min_play(0) == 1
    # Next time its Gene Pool is empty: it cannot compete any more.
    st.hand[0] = []
    st._start_generation()
    assert 0 not in st.competing


def test_a_malformed_card_file_is_refused_with_its_line(tmp_path: object) -> None:
    """Data lives in data files; a broken one names the file, line and problem."""
    from pathlib import Path

    from bestiary.engine import BadCardFile
    from bestiary.games.teratozoic.cards import DATA, load_cards

    assert isinstance(tmp_path, Path)
    good = (DATA / "cards.csv").read_text(encoding="utf-8").splitlines()
    bad = [ln.replace(",orange,1,S,", ",pink,1,S,") for ln in good]
    path = tmp_path / "cards.csv"
    path.write_text("\n".join(bad) + "\n", encoding="utf-8")
    with pytest.raises(BadCardFile, match=r"line 9: colour 'pink'"):
        load_cards(path)
    bad = [
        ln.replace("orange 1 head,starting,sun,orange,1,S", "orange 1 head,starting,sun,orange,1,Q")
        for ln in good
    ]
    path.write_text("\n".join(bad) + "\n", encoding="utf-8")
    with pytest.raises(BadCardFile, match="bad end 'Q'"):
        GAME.new(3, seed=1, options={"cards": str(path)})


def test_the_game_cannot_advance_beyond_the_teratozoic_era() -> None:
    """'The game cannot advance beyond the Teratozoic Era'."""
    st = new(3, seed=22)
    st.eras = [ERA["Teratozoic Era"]]
    st.mut_discard += st.mutations
    st.mutations = []
    assert not st._advance_era()
    assert st.era.name == "Teratozoic Era" and st.mutations == []
