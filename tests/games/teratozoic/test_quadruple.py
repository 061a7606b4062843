"""'If you need to double a monster's value, double both face values and bonus
points. (Doubled twice = quadrupled.)' — possible with the standard deck.

The reconstructed deck has two doubling cards of each colour (RULES.md,
Cards): the tentacle-with-science and the armoured spine.
"""

from __future__ import annotations

from bestiary.games.teratozoic.solver import best_build
from bestiary.games.teratozoic.tiles import Placement, monster_value, score_layout

from .helpers import DECK, ids

COLUMN = ("green 6 tentacle-brain", "green 4 armoured spine", "green 1 tentacle-with-science")


def test_each_colour_has_two_doubling_cards() -> None:
    for colour in ("orange", "purple", "green"):
        doublers = [c.name for c in DECK if c.colour == colour and c.doubler]
        assert len(doublers) == 2, doublers


def test_a_card_doubled_twice_is_quadrupled() -> None:
    """Brain (end S) over the armoured spine (N S) over the science (end N): one
    closed all-green monster with two green doubling cards. Face values and the
    single-colour bonus are quadrupled: (6 + 4 + 1 + 1) x 4 = 48, and +1 for no
    loose ends anywhere."""
    brain, spine, science = ids(*COLUMN)
    build = score_layout(
        DECK,
        [Placement(brain, 0, 1), Placement(spine, 0, 0), Placement(science, 0, -1)],
    )
    (monster,) = build.monsters
    assert monster.closed and monster.value == 48
    assert build.score == 49
    # Each card is worth four times its face value.
    assert monster_value([DECK[brain]], False, False) == 6
    assert monster_value([DECK[c] for c in (brain, spine, science)], False, False) == 44
    # The solver finds it as the best build of these three cards.
    assert best_build(DECK, [brain, spine, science]).score == 49


def test_doubling_still_follows_colour() -> None:
    """A doubling card doubles the cards of its own colour only (RULES.md): a
    purple armoured spine next to a green science doubles neither green card."""
    brain, science = ids("green 6 tentacle-brain", "green 1 tentacle-with-science")
    (spine,) = ids("purple 4 armoured spine")
    cards = [DECK[brain], DECK[spine], DECK[science]]
    # Green brain and science doubled once (by the green science), purple spine once.
    assert monster_value(cards, False, False) == (6 + 1) * 2 + 4 * 2
