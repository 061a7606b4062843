"""The monster-building solver: the rulebook's worked example, brute force, tiles."""

from __future__ import annotations

import itertools
import random

import pytest

from bestiary.engine import BadInput
from bestiary.games.teratozoic.solver import (
    best_build,
    close_all,
    flat_build,
    largest_closed,
    score_pool,
    shape_of,
)
from bestiary.games.teratozoic.tiles import (
    Placement,
    monster_value,
    orientations,
    parse_ends,
    score_layout,
    turned,
)

from .helpers import DECK, ids

EXAMPLE = ids(
    "green 6 tentacle-brain",
    "green 1 tentacle-with-science",
    "green 3 segment",
    "purple 3 left arm",
    "purple 5 pincer",
)


def test_worked_example_19_without_connections() -> None:
    """'If this hand was played without making any connections, it would only be
    worth 19 points.' (The tentacle-with-science doubles itself even alone.)"""
    assert flat_build(DECK, EXAMPLE).score == 19
    layout = [Placement(c, 3 * i, 0) for i, c in enumerate(EXAMPLE)]
    assert score_layout(DECK, layout).score == 19


def test_worked_example_27_with_one_connection() -> None:
    """'By making a single connection, that could be increased to 27 points ...
    the tentacle-with-science, in addition to doubling itself and the
    tentacle-brain, doubles the bonus point earned by creating an all-green
    monster with no loose ends.'"""
    brain, science, segment, arm, pincer = EXAMPLE
    layout = [
        Placement(brain, 0, 1),
        Placement(science, 0, 0),  # its N end meets the brain's S end
        Placement(segment, 5, 0),
        Placement(arm, 10, 0),
        Placement(pincer, 15, 0),
    ]
    build = score_layout(DECK, layout)
    assert build.score == 27
    green = next(m for m in build.monsters if brain in m.cards)
    assert green.closed and green.value == (6 + 1 + 1) * 2


def test_worked_example_32_fully_built_is_the_best() -> None:
    """'So by building monsters, this hand's score goes from an very nice 19
    points to an excellent 32 points!'"""
    build = best_build(DECK, EXAMPLE)
    assert build.score == 32
    assert build.all_closed
    # The solver's layout really scores 32 when laid out as given.
    placements = []
    for k, m in enumerate(build.monsters):
        placements += [Placement(p.card, p.x + 20 * k, p.y, p.turned) for p in m.placements]
    assert score_layout(DECK, placements).score == 32


def test_scoring_rules_single_colour_bonus_and_doubling() -> None:
    """'+1 bonus point for each single-color monster with no loose ends
    (Three-color cards are *not* single-color!)'; 'Doubled twice = quadrupled.'"""
    head, claw = DECK[ids("green 1 head")[0]], DECK[ids("green 2 claw")[0]]
    assert monster_value([head, claw], True, False) == 1 + 2 + 1
    assert monster_value([head, claw], False, False) == 3
    chimera = DECK[ids("three-colour 5 chimera")[0]]
    assert monster_value([head, chimera], True, False) == 6  # no bonus
    d1 = DECK[ids("green 1 tentacle-with-science")[0]]
    d2 = DECK[ids("orange 1 tentacle-with-science")[0]]
    # A green doubler doubles green cards only...
    assert monster_value([d1, d2, head], False, False) == 2 + 2 + 2
    # ...unless 'the doubling cards ignore color' (then x4 for two doublers).
    assert monster_value([d1, d2, head], False, True) == 4 + 4 + 4
    assert monster_value([d1, head, claw], True, False) == (1 + 1 + 2 + 1) * 2


def test_rotation_is_180_degrees_and_blue_ends_are_off_centre() -> None:
    """'Pay attention to how you orient and combine various cards, and keep an eye
    out for the blue card, whose loose ends aren't centered'."""
    n_only = parse_ends("N")
    assert turned(orientations(n_only)[0]) == orientations(parse_ends("S"))[0]
    blue = DECK[ids("blue 6 frost-spine")[0]]
    # Its ends never meet a centred end: it can join no monster.
    for other in DECK:
        if other.colour != "blue":
            assert close_all(tuple(sorted((shape_of(blue), shape_of(other))))) is None
    assert best_build(DECK, [blue.id, *ids("green 2 claw", "green 1 head")]).score == 6 + 4


def test_cards_cannot_overlap() -> None:
    """'Note: Cards cannot overlap.'"""
    a, b = ids("green 1 head", "green 2 claw")
    with pytest.raises(BadInput, match="overlap"):
        score_layout(DECK, [Placement(a, 0, 0), Placement(b, 0, 0)])


def _brute_force(cards: list[int]) -> int:
    """Best score over every layout of the cards in a 3x3 box (enough for 3 cards:
    any connected group of 3 fits, and apart groups can sit apart)."""
    cells = [(x, y) for x in range(3) for y in range(3)]
    best = -1
    for where in itertools.permutations(cells, len(cards)):
        for turns in itertools.product((False, True), repeat=len(cards)):
            pl = [Placement(c, x, y, t) for c, (x, y), t in zip(cards, where, turns, strict=True)]
            best = max(best, score_layout(DECK, pl).score)
    return best


@pytest.mark.parametrize("seed", range(6))
def test_best_build_matches_brute_force_on_three_cards(seed: int) -> None:
    """The solver is exact: on small sets it finds what trying every layout finds."""
    rng = random.Random(seed)
    for _ in range(4):
        # Bias towards cards that can connect (same colour, doublers).
        colour = rng.choice(["orange", "purple", "green"])
        pool = [c.id for c in DECK if c.colour == colour] + [rng.randrange(len(DECK))]
        cards = rng.sample(pool, 3)
        assert best_build(DECK, cards).score == _brute_force(cards), [DECK[c].name for c in cards]


def test_largest_closed_matches_brute_force() -> None:
    """Largest closed monster of a multiset = the largest subset the hand solver can close."""
    rng = random.Random(3)
    for _ in range(15):
        cards = rng.sample([c.id for c in DECK if c.colour == "purple"], 6)
        per: dict[tuple[int, ...], int] = {}
        for c in cards:
            per[shape_of(DECK[c])] = per.get(shape_of(DECK[c]), 0) + 1
        shapes = sorted(per)
        got = largest_closed(shapes, [per[s] for s in shapes])
        brute = 0
        for k in range(1, 7):
            for sub in itertools.combinations(cards, k):
                if close_all(tuple(sorted(shape_of(DECK[c]) for c in sub))) is not None:
                    brute = max(brute, k)
        assert got.size == brute and got.exact


def test_final_scoring_counts_cards_in_three_closed_single_colour_monsters() -> None:
    """'assembles their entire Gene Pool into up to three of the largest
    single-color monsters with no loose ends ... one monster of each color, and
    add up the number of cards'. A starting ☉ pool closes all six cards."""
    sun = [c.id for c in DECK if c.colour == "green" and c.pool == "sun"]
    assert score_pool(DECK, sun).cards == 6
    cross = [c.id for c in DECK if c.colour == "orange" and c.pool == "cross"]
    # The ☒ pool: four corners make a ring; spine and belly cannot both close.
    p = score_pool(DECK, sun + cross)
    assert p.cards == 6 + 4 and p.monsters == 2
    chimera = ids("three-colour 5 chimera", "grey 0 nuclear waste")
    assert score_pool(DECK, sun + chimera).cards == 6  # never single-colour


def test_closed_monster_packing_matches_brute_force() -> None:
    """The first tie-break counts 'the number of single-color creatures with no
    loose ends they're able to assemble from their remaining cards': the most
    disjoint closed monsters, checked against trying every split."""
    from bestiary.games.teratozoic.solver import count_closed_monsters

    def brute(cards: tuple[int, ...]) -> int:
        if not cards:
            return 0
        first, rest = cards[0], cards[1:]
        best = brute(rest)
        for k in range(len(rest) + 1):
            for sub in itertools.combinations(rest, k):
                group = (first, *sub)
                if close_all(tuple(sorted(shape_of(DECK[c]) for c in group))) is not None:
                    left = tuple(c for c in rest if c not in sub)
                    best = max(best, 1 + brute(left))
        return best

    rng = random.Random(5)
    for _ in range(10):
        cards = tuple(rng.sample([c.id for c in DECK if c.colour == "orange"], 7))
        per: dict[tuple[int, ...], int] = {}
        for c in cards:
            per[shape_of(DECK[c])] = per.get(shape_of(DECK[c]), 0) + 1
        shapes = sorted(per)
        assert count_closed_monsters(shapes, [per[s] for s in shapes]) == brute(cards)
