"""``card NAME`` at a prompt, in the player's language.

Issue 26, "whole Polish: every string a player can see — … card and ability
texts". ``card Korytarz 10`` found nothing in Polish (only the English
"Corridor 10" did), and a card read as the catalog's field names: "kind:
corridor, count: 16", "texts: en …; pl …".
"""

from __future__ import annotations

from bestiary.cli import cardtext
from bestiary.engine import get_game
from bestiary.i18n import use_language


def _card(game_id: str, name: str) -> list[str] | None:
    game = get_game(game_id)
    lines, _maybe = cardtext.lookup(game, game.ruleset(None), name)
    return lines


def test_a_card_is_found_by_its_polish_name_and_read_in_polish() -> None:
    with use_language("pl"):
        lines = _card("monster-maker", "korytarz 10")
        assert lines is not None and lines[0] == "Korytarz 10 (Corridor 10, karta)"
        assert "  kopii w talii: 16" in lines and "  wartość: 10" in lines
        statue = _card("monster-maker", "Posąg Bogini")
        assert statue is not None and "  złoto: 400" in statue and "  raz na grę: tak" in statue
        curse = _card("meat", "Klątwa")
        assert curse is not None
        assert "  tekst: Cel: ISTOTA przeciwnika. -2 ATAKU dla celu" in curse
        assert not any(line.startswith("  texts") for line in curse)
        ogre = _card("taxonomy", "Ogre")  # a monster's name is a proper name
        assert ogre is not None and "  natury: agresywna" in ogre


def test_english_reads_as_before_without_the_other_languages_text() -> None:
    with use_language("en"):
        lines = _card("monster-maker", "Corridor 10")
        assert lines == ["Corridor 10 (card)", "  kind: corridor", "  copies in the deck: 16",
                         "  value: 10"]  # fmt: skip
        curse = _card("meat", "Klątwa")
        text = "  text: Target an enemy creature. -2 attack to the target"
        assert curse is not None and text in curse
        assert _card("monster-maker", "Korytarz 10") is None  # Polish names are Polish only


# Fields whose values are proper names or notation, the same in both languages:
# the taxonomy's types, families and keys (a decision of RULES.md: "Types and
# families stay proper names"), M.E.A.T.'s factions (Polish in the rulebook),
# Monster Maker's dice ("2D+1", the rulebook's notation), Teratozoic's ends
# (the compass letters the build commands use).
_SAME_IN_BOTH = {
    "taxonomy": {"typ", "rodzina", "klucze zbierania"},
    "meat": {"frakcja", "wzmocnienie", "nazwa angielska"},
    "monster-maker": {"wartość", "złoto"},
    "teratozoic": {"końce"},
}


def _fields(lines: list[str]) -> list[tuple[str, str]]:
    return [tuple(line.strip().split(": ", 1)) for line in lines[1:]]  # type: ignore[misc]


def test_every_value_of_every_card_reads_in_polish() -> None:
    """Issue 26's "whole Polish" for ``card NAME``: the values of a card's
    fields were the card file's words ("rodzaj: corridor", "zdolności:
    avoids_traps, opens_doors", "rzadkość: common", "usposobienie: Proud",
    "zestaw: starting"). Every value with a word in it now reads in Polish,
    but for the proper names and notations above."""
    untranslated = []
    for game_id in ("taxonomy", "monster-maker", "meat", "teratozoic"):
        game = get_game(game_id)
        rules = game.ruleset(None)
        for section, record in cardtext.records(game, rules):
            with use_language("en"):
                english = _fields(cardtext.card_lines(section, record, None, game))
            with use_language("pl"):
                polish = _fields(cardtext.card_lines(section, record, None, game))
            for (_field, en), (pl_field, pl) in zip(english, polish, strict=True):
                if pl_field in _SAME_IN_BOTH[game_id] or pl_field == "tekst":
                    continue
                if any(ch.isalpha() for ch in en) and pl == en and en != "Elf":
                    untranslated.append(f"{game_id} {record['name']}: {pl_field}: {pl}")
    assert not untranslated, untranslated[:20]
    with use_language("pl"):
        thief = _card("monster-maker", "Złodziej")
        assert thief is not None
        assert "  rodzaj: postać" in thief
        assert "  zdolności: unika pułapek, otwiera drzwi" in thief
        pharaoh = _card("taxonomy", "Pharaoh")
        assert pharaoh is not None and "  usposobienie: dumna" in pharaoh
        acolyte = _card("meat", "Akolita")
        assert acolyte is not None and "  rzadkość: powszechna" in acolyte
