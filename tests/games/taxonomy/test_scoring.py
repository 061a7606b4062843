"""Scoring: every row of the table (RULES.md reading 7), best splits and the
`bestiary score` payload.

Key sizes used (shipped cards): Sprite, Piscine, Molluskan Demihuman 4;
Demihuman 5; Cheerful 7; Plant 8; Semisolid Life Form 9; Fiend 13;
Orphans 7; Beastman orphans 11.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bestiary.engine import BadInput, UnknownCard
from bestiary.games.taxonomy import GAME
from bestiary.games.taxonomy.cards import load_deck
from bestiary.games.taxonomy.scoring import best_score
from bestiary.games.taxonomy.scoring_file import load_scoring

SPRITE = ["Fairy", "Leannan Sidhe", "Titania", "Pixie"]
PISCINE = ["Mermaid", "Merrow", "Sea Bishop", "Unagi Joro"]
MOLLUSK = ["Scylla", "Kraken", "Mindflayer", "Giant Slug"]
DEMIHUMAN = ["Goblin", "Hobgoblin", "Ogre", "Troll", "Aka-Oni"]
PLANT = ["Alraune", "Liliraune", "Barometz", "Mandragora", "Kesaran Pasaran", "Flowkelp"]
PLANT += ["Dryad", "Tentacle"]
SLIMES = ["Slime", "Red Slime", "Queen Slime", "Sea Slime", "Bubble Slime", "Dark Slime"]
SLIMES += ["Parasitic Slime", "Humpty Egg"]
FIENDS = ["Succubus", "Lesser Succubus", "Amazoness", "Alice", "Alp", "Dark Priest", "Lilim"]
FIENDS += ["Demon"]
ORPHANS = ["Matango", "Dwarf", "Roper", "Cancer", "Gazer", "Ao-Oni", "Otohime"]
BEAST_ORPHANS = ["Weresheep", "Orc", "Werebat", "Cyclops", "Yeti", "Selkie", "Satyros", "Wendigo"]


def score(
    hand: list[str],
    exposed: list[list[str]] | None = None,
    claims: int | None = None,
    variant: str = "v0.2",
) -> dict[str, object]:
    payload: dict[str, object] = {"hand": hand}
    if exposed is not None:
        payload["exposed"] = exposed
    if claims is not None:
        payload["claims"] = claims
    return GAME.score_tool(payload, GAME.ruleset(variant))


def points(result: dict[str, object]) -> int:
    assert result["valid"] is True, result
    p = result["points"]
    assert isinstance(p, int)
    return p


# -- method points ----------------------------------------------------------------------
def test_two_fours_no_claims_scores_3_for_the_method() -> None:
    """ "-2 sets of 4, no cards were taken from other players during the game, 3pts" """
    r = score(SPRITE + PISCINE)
    assert r["pattern"] == "4+4"
    assert r["breakdown"][0] == {"rule": "two sets of 4, no claims", "points": 3}  # type: ignore[index]
    assert points(r) == 3 + 3 + 3


def test_two_fours_one_claim_scores_2() -> None:
    """ "-2 sets of 4, 1 card taken from another player during the game, 2 points" """
    r = score(SPRITE, exposed=[MOLLUSK])
    assert r["breakdown"][0]["points"] == 2  # type: ignore[index]
    assert points(r) == 2 + 3 + 3


def test_two_fours_two_claims_scores_1() -> None:
    """ "-2 sets of 4, during the game you took 2 cards from other players, 1 point" """
    r = score([], exposed=[SPRITE, MOLLUSK])
    assert r["breakdown"][0]["points"] == 1  # type: ignore[index]
    assert points(r) == 1 + 3 + 3


def test_five_three_no_claims_scores_3_and_the_three_scores_0() -> None:
    """ "-a set of 5 cards and 3 cards, no cards were taken [...], 3pts"; the 5 is
    scored as a set of 4 (Demihuman: 5 cards -> 2), the 3 scores 0."""
    r = score(DEMIHUMAN + PISCINE[:3])
    assert r["pattern"] == "5+3"
    sets = r["sets"]
    assert [s["points"] for s in sets] == [2, 0]  # type: ignore[index,union-attr]
    assert points(r) == 3 + 2 + 0


@pytest.mark.parametrize("claims", [1, 2])
def test_five_three_with_one_or_two_claims_scores_2(claims: int) -> None:
    """ "-a set of 5 cards and 3 cards, you have taken 1 or 2 cards from other players, 2pts" """
    r = score(DEMIHUMAN + PISCINE[:3], claims=claims)
    assert r["pattern"] == "5+3"
    assert r["breakdown"][0]["points"] == 2  # type: ignore[index]
    assert points(r) == 2 + 2


def test_eight_concealed_5_exposed_4() -> None:
    """ "-set of 8 cards, obscured (never took cards from other players' discards), 5 pts";
    "-a set of 8 cards, exposed, 4pts". Plant has exactly 8 cards: 6 points."""
    assert points(score(PLANT)) == 5 + 6
    r = score(PLANT[4:], exposed=[PLANT[:4]])
    assert r["pattern"] == "8"
    assert points(r) == 4 + 6


# -- content points ---------------------------------------------------------------------
def test_set_of_4_of_a_key_of_4_scores_3() -> None:
    """ "-set of 4 monsters from a type in which there are only 4 monsters, 3pts" """
    r = score(SPRITE + PISCINE)
    assert [s["points"] for s in r["sets"]] == [3, 3]  # type: ignore[union-attr,index]


def test_set_of_4_of_a_key_of_5_to_7_scores_2() -> None:
    """ "-a set of 4 monsters of a type with 5 to 7 monsters [...], 2pts" """
    r = score(DEMIHUMAN[:4] + SPRITE)
    assert points(r) == 3 + 2 + 3


def test_set_of_4_orphans_scores_2() -> None:
    """ "[...] or a set of 4 orphans, 2pts" """
    r = score(ORPHANS[:4] + SPRITE)
    keys = {s["key"]: s["points"] for s in r["sets"]}  # type: ignore[union-attr,index]
    assert keys == {"Orphans": 2, "Sprite": 3}


def test_set_of_4_of_a_key_of_8_or_more_scores_0() -> None:
    """ "-a set of 4 monsters of a type with 8 or more monsters, 0pts" """
    r = score(PLANT[:4] + SPRITE)
    keys = {s["key"]: s["points"] for s in r["sets"]}  # type: ignore[union-attr,index]
    assert keys == {"Plant": 0, "Sprite": 3}


def test_set_of_8_of_a_key_of_8_scores_6() -> None:
    """ "-a set of 8 monsters of a type with only 8 monsters, 6pts" """
    assert score(PLANT)["sets"][0]["points"] == 6  # type: ignore[index]


def test_set_of_8_of_a_key_of_9_to_12_scores_3() -> None:
    """ "-set of 8 monsters of a type with 9 to 12 monsters, 3pts" (Slimes: 9)"""
    assert points(score(SLIMES)) == 5 + 3


def test_set_of_8_of_a_key_of_13_or_more_scores_0() -> None:
    """ "-set of 8 monsters of a type with 13 or more monsters, 0pts" (Fiend: 13)"""
    assert points(score(FIENDS)) == 5 + 0


def test_seven_orphans_and_one_other_scores_12() -> None:
    """ "-a set of 7 orphans and one other monster, 12pts" """
    r = score([*ORPHANS, "Slime"])
    assert r["pattern"] == "8"
    assert points(r) == 5 + 12


def test_eight_beastman_orphans_score_12() -> None:
    """Reading 7: "7 orphans and one other monster (8 orphans included) 12";
    Beastman orphans are their own orphan set (v0.2)."""
    r = score(BEAST_ORPHANS)
    assert r["sets"][0]["key"] == "Beastman orphans"  # type: ignore[index]
    assert points(r) == 5 + 12


def test_orphan_sets_never_mix() -> None:
    """ "A set of orphans can be collected either from the "beastman" type or from
    other types, they cannot be mixed." """
    r = score(ORPHANS[:4] + BEAST_ORPHANS[:4])
    keys = sorted(s["key"] for s in r["sets"])  # type: ignore[union-attr,index]
    assert keys == ["Beastman orphans", "Orphans"]
    assert score(ORPHANS[:6] + BEAST_ORPHANS[:2])["valid"] is False


def test_best_split_is_scored() -> None:
    """Reading 7: "Where a hand can be split in several ways, it scores its best
    split." Fairy is a Sprite and Cheerful: Sprite 4 + Cheerful 4 (8 points)
    beats Cheerful 5 + Sprite 3 (5 points)."""
    r = score([*SPRITE, "Harpy", "Gandharva", "Apsara", "Witch"])
    assert r["pattern"] == "4+4"
    assert points(r) == 3 + 3 + 2


def test_cheerful_set_of_any_types() -> None:
    """ "merry monsters get along very well with each other, so you can collect a set
    of merry monsters regardless of their types." (Cheerful: 7 cards -> 2)"""
    r = score(["Harpy", "Fairy", "Dwarf", "Witch", *PISCINE])
    keys = {s["key"]: s["points"] for s in r["sets"]}  # type: ignore[union-attr,index]
    assert keys == {"Cheerful": 2, "Piscine": 3}


# -- v0.1 -------------------------------------------------------------------------------
def test_v01_eight_orphans_score_12_and_seven_plus_one_does_not(tmp_path: Path) -> None:
    """v0.1: "-set of 8 orphans, 12pts" (no 7+1 rule; orphans only from types).
    The shipped deck has 7 type orphans, so a card file with 8 is used."""
    lines = ["name,type,family"]
    lines += [f"Lonely {i},Type{i},Fam{i}" for i in range(8)]
    lines += [f"Slime {i},Slimy,Slime" for i in range(20)]
    path = tmp_path / "cards.csv"
    path.write_text("\n".join(lines) + "\n")
    rules = GAME.ruleset("v0.1", {"cards": str(path)})
    r = GAME.score_tool({"hand": [f"Lonely {i}" for i in range(8)]}, rules)
    assert r["valid"] is True and r["points"] == 5 + 12
    r = GAME.score_tool({"hand": [f"Lonely {i}" for i in range(7)] + ["Slime 0"]}, rules)
    assert r["valid"] is False


def test_v01_has_no_beastman_orphans() -> None:
    """Reading 8: in v0.1 orphans come only from types."""
    assert score(BEAST_ORPHANS, variant="v0.1")["valid"] is False


# -- the tool's input -------------------------------------------------------------------
def test_not_a_winning_hand_says_why() -> None:
    r = score(SPRITE[:3] + PISCINE[:3] + ["Slime", "Troll"])
    assert r["valid"] is False and "not a winning hand" in str(r["reason"])


def test_wrong_card_count_is_not_valid() -> None:
    r = score(SPRITE + PISCINE[:3])
    assert r["valid"] is False and "8 cards" in str(r["reason"])


def test_unknown_card_raises() -> None:
    with pytest.raises(UnknownCard, match="Griffonafar"):
        score(SPRITE + PISCINE[:3] + ["Griffonafar"])


@pytest.mark.parametrize(
    "payload",
    [
        {"hand": "Fairy"},
        {"hand": [1, 2]},
        {},
        {"hand": SPRITE + PISCINE, "claims": "one"},
        {"hand": SPRITE + PISCINE, "claims": 3},
        {"hand": SPRITE, "exposed": [PISCINE], "claims": 0},
        {"hand": SPRITE + PISCINE, "colour": "red"},
        {"hand": SPRITE + SPRITE},
    ],
)
def test_malformed_payload_raises_bad_input(payload: dict[str, object]) -> None:
    with pytest.raises(BadInput):
        GAME.score_tool(payload, GAME.ruleset())


def test_exposed_set_as_object_with_key() -> None:
    r = GAME.score_tool(
        {"hand": PISCINE, "exposed": [{"key": "Sprite", "cards": SPRITE}], "claims": 1},
        GAME.ruleset(),
    )
    assert r["valid"] is True and r["points"] == 2 + 3 + 3


def test_best_score_respects_table_sets() -> None:
    """Table sets are fixed: their cards must stay in the set of their key."""
    deck = load_deck()
    c = deck.card
    sprite = [c(n) for n in SPRITE]
    cheer = [c(n) for n in ["Harpy", "Gandharva", "Apsara", "Witch"]]
    # The Cheerful key laid on the table with Fairy: Sprite cannot use Fairy.
    table = [(deck.key("Cheerful"), [sprite[0], *cheer[:3]])]
    s = best_score(deck, [*sprite[1:], cheer[3]], table, 1, scoring=load_scoring())  # type: ignore[arg-type]
    assert s is not None and s.pattern == "5+3"


# -- readings 26 and 27 -------------------------------------------------------------------
def test_the_5_of_a_5_3_scores_as_a_set_of_4_and_the_3_scores_0() -> None:
    """Reading 26: the content rows speak only of sets of 4 and 8 ("-a set of 4
    monsters of a type with 5 to 7 monsters [...], 2pts"); "a set of 5 cards and 3
    cards" has method rows only. 5 Demihuman (a key of 5): its set-of-4 row, 2;
    3 Sprite: 0, although 4 Sprite (a key of 4) would score 3."""
    r = score(DEMIHUMAN + SPRITE[:3])
    assert r["pattern"] == "5+3"
    five, three = r["sets"]  # type: ignore[misc]
    assert (five["key"], five["points"]) == ("Demihuman", 2)
    assert (three["key"], three["points"]) == ("Sprite", 0)
    rules = [row["rule"] for row in r["breakdown"]]  # type: ignore[union-attr,index]
    assert "set of 5 Demihuman (a key of 5 cards), scored as a set of 4" in rules
    assert "set of 3 Sprite (the 3 of a 5+3)" in rules
    assert points(score(SPRITE + PISCINE)) == 3 + 3 + 3, "a set of 4 Sprite scores 3"


def test_seven_beastman_orphans_and_one_other_monster_score_12() -> None:
    """Reading 27: "you can also collect orphans from this type [...] A set of
    orphans can be collected either from the "beastman" type or from other types"
    and "-a set of 7 orphans and one other monster, 12pts": 7 Beastman orphans
    and a Slime make the 12-point set."""
    r = score([*BEAST_ORPHANS[:7], "Slime"])
    assert r["pattern"] == "8" and r["sets"][0]["key"] == "Beastman orphans"  # type: ignore[index]
    assert r["sets"][0]["points"] == 12 and points(r) == 5 + 12  # type: ignore[index]
    assert score([*BEAST_ORPHANS[:6], "Slime", "Red Slime"])["valid"] is False
