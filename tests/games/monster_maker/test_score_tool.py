"""The score tool (``bestiary score monster-maker``, ``Game.score_tool``): the
gold of a set of treasures with dice ranges, and a party's odds against a
monster from the game's own battle rules."""

from __future__ import annotations

from typing import Any

import pytest

from bestiary.engine import BadInput
from bestiary.games.monster_maker import GAME

from .mm_helpers import at_treasure, cid, dice, do, give, table, tid, walk


def _score(payload: Any, variant: str | None = None, **options: Any) -> dict[str, Any]:
    out = GAME.score_tool(payload, GAME.ruleset(variant, options))
    assert out is not None
    return out


def test_gold_of_treasures_with_dice_ranges_and_breakdown() -> None:
    """Appendix C: Mystic Map 3Dx20, Cursed Ornament 4Dx20-200, Ring 150; Statue
    of Goddess: "On a 1,2,or 3, has a value of 400gold. On a 4,5, or 6, is worthless"."""
    out = _score({"treasures": ["Mystic Map", "cursed ornament", "Ring", "Statue of Goddess"]})
    rows = {r["name"]: r for r in out["gold"]["breakdown"]}
    assert (rows["Mystic Map"]["min"], rows["Mystic Map"]["max"]) == (60, 360)
    assert rows["Mystic Map"]["mean"] == 210 and rows["Mystic Map"]["gold"] == "3Dx20"
    assert (rows["Cursed Ornament"]["min"], rows["Cursed Ornament"]["max"]) == (-120, 280)
    assert rows["Cursed Ornament"]["mean"] == 80
    assert rows["Ring"]["min"] == rows["Ring"]["max"] == 150
    assert (rows["Statue of Goddess"]["min"], rows["Statue of Goddess"]["max"]) == (0, 400)
    assert rows["Statue of Goddess"]["mean"] == 200
    gold = out["gold"]
    assert (gold["min"], gold["max"], gold["mean"]) == (90, 1190, 640)


def test_prizes_count_their_gold() -> None:
    out = _score({"prizes": ["Prize 200", "Prize 500"]})
    assert out["gold"]["min"] == out["gold"]["max"] == 700


def _state_odds(monster: str, hand: tuple[str, ...], moves: list[str], **opts: Any) -> float:
    """The odds as the *state* resolves the battle: every total the dice can make,
    scripted into a real battle, weighted by its probability."""
    st = table(**opts)
    chars = [m.split(" ")[-1] for m in moves if m.startswith("fight with ")]
    spells = [m.split(" ")[1] for m in moves if m.startswith("cast ")]
    dists = [st.strength[cid(st, n)].distribution() for n in chars + spells]  # type: ignore[union-attr]
    order = list(range(len(dists)))  # the state rolls the character, then its spell
    if spells:
        order = [0, len(chars), *range(1, len(chars))]
    total = 0.0

    def walk_rolls(i: int, rolls: list[int], p: float) -> None:
        nonlocal total
        if i == len(order):
            s = table(**opts)
            walk(s, 0, 20)
            s.monster[0] = cid(s, monster)
            give(s, 0, *hand)
            for m in moves:
                do(s, m)
            dice(s, *rolls)
            do(s, "roll")
            total += p * (s.monster[0] < 0)
            return
        for v, q in dists[order[i]].items():
            walk_rolls(i + 1, [*rolls, v], p * q)

    walk_rolls(0, [], 1.0)
    return total


@pytest.mark.parametrize(
    ("options", "monster", "party", "hand", "moves"),
    [
        (
            {},
            "Ogre",
            ["Fighter", "Elf"],
            ("Fighter", "Elf"),
            ["fight with Fighter", "fight with Elf"],
        ),
        (
            {},
            "Orc",
            [{"character": "Thief", "spell": "Sleep"}],
            ("Thief", "Sleep"),
            ["fight with Thief", "cast Sleep by Thief"],
        ),
        (
            {"spell_strength": "replaces"},
            "Orc",
            [{"character": "Thief", "spell": "Sleep"}],
            ("Thief", "Sleep"),
            ["fight with Thief", "cast Sleep by Thief"],
        ),
        (
            {"sleep_errata": False},
            "Orc",
            [{"character": "Thief", "spell": "Sleep"}],
            ("Thief", "Sleep"),
            ["fight with Thief", "cast Sleep by Thief"],
        ),
    ],
)
def test_battle_odds_are_the_states_own(
    options: dict[str, Any], monster: str, party: list[Any], hand: tuple[str, ...], moves: list[str]
) -> None:
    """<Battle>: "the characters' strength must be equal to or greater than that
    number" — the tool's odds equal the state's battles over every dice total."""
    out = _score({"battle": {"monster": monster, "party": party}}, **options)
    assert out["battle"]["win"] == pytest.approx(
        _state_odds(monster, hand, moves, **options), abs=1e-6
    )


def test_sleep_errata_changes_the_odds() -> None:
    """Errata D: "Sleep's value should be 2D, not 1D." Thief 2D+1 + Sleep vs Orc (11)."""
    battle = {"battle": {"monster": "Orc", "party": [{"character": "Thief", "spell": "Sleep"}]}}
    new, old = _score(battle), _score(battle, "first-edition")
    assert new["battle"]["party"][0]["spell_dice"] == "2D"
    assert old["battle"]["party"][0]["spell_dice"] == "1D"
    assert new["battle"]["win"] > old["battle"]["win"]


def test_royal_princess_and_weapons_on_the_road_back() -> None:
    """Royal Princess: "Battles on the way back are at -1 strength"; Magic Sword:
    "+2 during combat to a Fighter or Elf" (weapons: "on the way back")."""
    party = [{"character": "Fighter", "weapon": "Magic Sword"}]
    out = _score(
        {
            "treasures": ["Royal Princess"],
            "battle": {"monster": "Ogre", "party": party, "road_back": True},
        }
    )
    b = out["battle"]
    assert b["penalty"] == 1 and b["total"]["min"] == 3 + 3 + 2 - 1
    st = table()
    at_treasure(st, 0)
    st.held[0] = [tid(st, "Royal Princess"), tid(st, "Magic Sword")]
    assert st.battle_penalty(0) == b["penalty"]  # the state's own penalty


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([], "expected a JSON object"),
        ({}, "expected a JSON object with any of"),
        ({"gold": 1}, "unknown key(s) 'gold'"),
        ({"treasures": "Ring"}, "'treasures' must be a list of names"),
        ({"treasures": ["Rnig"]}, "did you mean 'Ring'"),
        ({"treasures": ["Ring", "Ring"]}, "listed twice"),
        ({"prizes": ["Prize 500", "Prize 500"]}, "there are 1"),
        ({"battle": {"monster": "Ogre"}}, "'party' must be a non-empty list"),
        ({"battle": {"party": ["Fighter"]}}, "needs a 'monster' name"),
        ({"battle": {"monster": "Fighter", "party": ["Elf"]}}, "'Fighter' is a character card"),
        ({"battle": {"monster": "Ogre", "party": [3]}}, "party member 0 is 3"),
        (
            {"battle": {"monster": "Dragon", "party": [{"character": "Elf", "spell": "Sleep"}]}},
            "Sleep only works on human-type monsters",
        ),
        (
            {"battle": {"monster": "Ogre", "party": [{"character": "Elf", "weapon": "Magic Bow"}]}},
            "weapons work only on the road back",
        ),
        (
            {
                "battle": {
                    "monster": "Ogre",
                    "party": [{"character": "Elf", "spell": "Charm"}, "Fighter"],
                }
            },
            "Charm cannot be combined",
        ),
        ({"battle": {"monster": "Ogre", "party": ["Magic-User"] * 6}}, "the deck has 5"),
    ],
)
def test_malformed_input_says_what_is_expected(payload: Any, message: str) -> None:
    with pytest.raises(BadInput) as err:
        _score(payload)
    assert message in str(err.value) and "\n" not in str(err.value)
