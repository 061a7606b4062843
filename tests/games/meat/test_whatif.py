"""``bestiary score meat``: what-if battles run the game's own battle rules."""

from __future__ import annotations

from typing import Any

import pytest

from bestiary.engine import BadInput
from bestiary.games.meat import GAME


def _score(payload: Any, **options: Any) -> dict[str, Any]:
    out = GAME.score_tool(payload, GAME.ruleset(None, options or None))
    assert out is not None
    return out


def test_the_manual_battle_example() -> None:
    """Manual, Bitwa: "Nekromanta oraz Parszywy Szczur wymieniają się śmiertelnymi
    obrażeniami i giną. Bober nie posiada przeciwnika i przeżywa bitwę, a Sir Duncan
    Culligan pokonuje Nekromutanta ... Sir Duncan Culligan pozostaje w polu bitwy z
    2 punktami obrony." """
    out = _score(
        {
            "sides": [
                {"left": "Nekromanta", "right": "Sir Duncan Culligan"},
                {"right": "Parszywy Szczur", "front": "Bober", "left": "Nekromutant"},
            ]
        }
    )
    died = {d["card"] for step in out["steps"] for d in step["died"]}
    assert died == {"Nekromanta", "Parszywy Szczur", "Nekromutant"}
    alive = {c["card"]: c["defence"] for c in out["survivors"]}
    assert alive == {"Sir Duncan Culligan": 2, "Bober": 3}
    # "Jeśli liczba kart jest równa, należy podliczyć dostępne punkty OBRONY".
    assert out["round"] == {"alive": [1, 1], "defence": [2, 3], "winner": "side 1"}


def test_reflex_kills_before_the_other_strikes() -> None:
    """REFLEKS: "jeśli zadane obrażenia są śmiertelne, przeciwna ISTOTA traci swój
    ruch i nie zadaje żadnych obrażeń"."""
    out = _score({"attacker": "Szermierz", "defender": "Kultysta z Nożem"})
    first, second = out["steps"]
    assert [h["from"] for h in first["hits"]] == ["Szermierz"]
    assert [d["card"] for d in first["died"]] == ["Kultysta z Nożem"]
    assert second["hits"] == [] and out["outcome"] == "the attacker wins"


def test_modifiers_change_the_fight() -> None:
    """TOKSYNA: "obrażenia zadane przez ISTOTĘ posiadającą tę zdolność są zawsze
    śmiertelne" — a gained TOXIN lets the Acolyte kill Arcymistrz."""
    plain = _score({"attacker": "Akolita", "defender": "Arcymistrz MBS XII"})
    assert plain["outcome"] == "the defender wins"
    toxic = _score(
        {
            "attacker": {"card": "Akolita", "keywords": ["TOXIN"], "defence": 5},
            "defender": {"card": "Arcymistrz MBS XII", "damage": 1},
        }
    )
    assert toxic["before"][0]["defence"] == 2 + 5 and toxic["before"][1]["defence"] == 4
    toxin = {h["from"]: h["toxin"] for h in toxic["steps"][1]["hits"]}
    assert toxin == {"Akolita": True, "Arcymistrz MBS XII": False}
    assert toxic["outcome"] == "the attacker wins"


def test_cleave_and_challenge() -> None:
    """CIĘCIE hits the creatures beside the target; WYZWANIE takes the damage
    aimed at its friendly neighbours."""
    out = _score(
        {
            "sides": [
                {"front": "Rzeźnik"},
                {"left": "Rekrut", "front": "Strażnik Bramy", "right": "Akolita"},
            ]
        }
    )
    hits = [h for s in out["steps"] for h in s["hits"] if h["from"] == "Rzeźnik"]
    # Three blows aimed at front, left and right all land on the challenger.
    assert [h["to"]["lane"] for h in hits] == ["front", "front", "front"]


@pytest.mark.parametrize(
    ("payload", "expect"),
    [
        ([], "JSON object"),
        ({}, "expected"),
        ({"attacker": "Bober"}, "expected"),
        ({"attacker": "Bober", "defender": "Bober", "x": 1}, "unexpected keys"),
        ({"sides": [{"front": "Bober"}]}, "two sides"),
        ({"sides": [{"middle": "Bober"}, {"front": "Bober"}]}, "lanes"),
        ({"attacker": 5, "defender": "Bober"}, "'card' name"),
        ({"attacker": "Bobr", "defender": "Bober"}, "did you mean"),
        ({"attacker": "Zemsta", "defender": "Bober"}, "destiny card"),
        ({"attacker": "Arcymistrz MBS XII", "defender": "Arcymistrz MBS XII"}, "1 copy"),
        ({"attacker": {"card": "Bober", "attack": "2"}, "defender": "Bober"}, "whole number"),
        ({"attacker": {"card": "Bober", "keywords": "TOXIN"}, "defender": "Bober"}, "list of"),
        ({"attacker": {"card": "Bober", "power": 1}, "defender": "Bober"}, "unknown field"),
        ({"attacker": {"card": "Bober", "damage": 3}, "defender": "Bober"}, "alive"),
    ],
)
def test_malformed_input_says_what_is_expected(payload: Any, expect: str) -> None:
    with pytest.raises(BadInput) as info:
        _score(payload)
    assert expect in str(info.value) and "\n" not in str(info.value)
