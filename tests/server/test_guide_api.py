"""GET /api/games/{id}/guide?lang=: the rules written for players (issue 26, "The
table, for players": "the page's Rules panel shows the game's RULES.md — the
engine's specification, in English even in Polish mode"; the guide comes first,
in the page's language, with a link to the specification)."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bestiary.engine.guide import guide_path
from bestiary.engine.registry import get_game

GAMES = ("taxonomy", "monster-maker", "meat", "teratozoic")
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_a_guide_in_english_and_polish(client: TestClient, game_id: str) -> None:
    texts = {}
    for lang in ("en", "pl"):
        r = client.get(f"/api/games/{game_id}/guide", params={"lang": lang})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["game"] == game_id and body["lang"] == lang
        # "with a link to the engine's specification"
        assert body["spec"] == f"/api/games/{game_id}/rules"
        assert client.get(body["spec"]).status_code == 200
        md = body["markdown"]
        # set-up, a turn, how to win: the sections a newcomer needs
        assert md.count("\n## ") >= 4, md[:200]
        # the rulebook citations stay in the source, never reach a reader
        assert "<!--" not in md and "rulebook 0" not in md
        texts[lang] = md
    assert "How to win" in texts["en"] and "Jak wygrać" in texts["pl"]
    assert texts["en"] != texts["pl"]


def test_the_guide_sources_cite_the_rulebook_lines() -> None:
    """ "cite the rulebook's lines in the source as HTML comments"."""
    for game_id in GAMES:
        for lang in ("en", "pl"):
            path = guide_path(get_game(game_id), lang)
            assert path is not None and path.stem == lang
            text = path.read_text(encoding="utf-8")
            assert text.count("<!-- rulebook 00") >= 4, (game_id, lang)


def test_every_nature_and_keyword_is_explained_in_both_languages(client: TestClient) -> None:
    """ "every nature/keyword/ability with its effect": the names the table shows."""
    want = {
        ("taxonomy", "en"): [
            "Aggressive",
            "Cheerful",
            "Mean",
            "Honest",
            "Impatient",
            "Proud",
            "Loyal",
            "Miscellaneous",
            "Beastman",
            "Orphans",
        ],
        ("taxonomy", "pl"): [
            "Agresywna",
            "Wesoła",
            "Złośliwa",
            "Szczera",
            "Niecierpliwa",
            "Dumna",
            "Lojalna",
            "Różna",
            "Beastman",
            "Sieroty",
        ],
        ("meat", "en"): ["REFLEX", "TOXIN", "CLEAVE", "CHALLENGE", "REVEAL", "FUSION", "INSTANT"],
        ("meat", "pl"): [
            "REFLEKS",
            "TOKSYNA",
            "CIĘCIE",
            "WYZWANIE",
            "ODKRYCIE",
            "FUZJA",
            "NATYCHMIASTOWA",
        ],
        ("monster-maker", "en"): ["Cleric", "Thief", "Sleep", "Charm", "Detour", "Trap", "OPEN"],
        ("monster-maker", "pl"): ["Kapłan", "Złodziej", "Sen", "Urok", "Objazd", "Pułapka", "OPEN"],
        ("teratozoic", "en"): ["Doubling", "Three-colour", "Grey", "loose", "Expression"],
        ("teratozoic", "pl"): ["podwajające", "trójkolorowe", "szare", "luźny", "Ekspresja"],
    }
    for (game_id, lang), names in want.items():
        md = client.get(f"/api/games/{game_id}/guide", params={"lang": lang}).json()["markdown"]
        missing = [n for n in names if f"**{n}" not in md and n not in md]
        assert not missing, (game_id, lang, missing)


def test_a_language_the_project_does_not_speak_is_a_clear_error(client: TestClient) -> None:
    r = client.get("/api/games/taxonomy/guide", params={"lang": "xx"})
    assert r.status_code == 422
    assert "'xx'" in r.json()["detail"] and "en, pl" in r.json()["detail"]


def test_the_guide_defaults_to_english_and_names_the_games_when_unknown(
    client: TestClient,
) -> None:
    assert client.get("/api/games/meat/guide").json()["lang"] == "en"
    r = client.get("/api/games/chess/guide", params={"lang": "pl"})
    assert r.status_code == 404
    assert "taxonomy" in r.json()["detail"] and "chess" in r.json()["detail"]


def test_the_guides_ship_in_the_wheel() -> None:
    """ "package data must be included in the wheel": every guide file matches a
    package-data pattern of a folder that setuptools' package finder includes."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    tool = conf["tool"]["setuptools"]
    patterns = tool["package-data"]["*"]
    include = tool["packages"]["find"]["include"]
    guides = sorted((ROOT / "bestiary" / "games").glob("*/guide/*.md"))
    assert len(guides) == 8
    for path in guides:
        package = ".".join(path.parent.relative_to(ROOT).parts)
        assert any(fnmatch(package, p) for p in include), package
        assert any(fnmatch(path.name, p) for p in patterns), path.name
