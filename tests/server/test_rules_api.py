"""GET /api/games/{id}/rules: the RULES.md the table's rules drawer shows (issue 13:
"a rules drawer with the game's RULES.md rendered")."""

from __future__ import annotations

from fastapi.testclient import TestClient

from bestiary.engine.registry import get_game


def test_the_rules_drawer_gets_the_games_rules_md(client: TestClient) -> None:
    for game_id in ("taxonomy", "meat", "monster-maker", "teratozoic"):
        r = client.get(f"/api/games/{game_id}/rules")
        assert r.status_code == 200, r.text
        path = get_game(game_id).rules_path()
        assert path is not None
        assert r.json()["markdown"] == path.read_text(encoding="utf-8")


def test_an_unknown_game_has_no_rules_and_the_error_names_the_games(client: TestClient) -> None:
    r = client.get("/api/games/chess/rules")
    assert r.status_code == 404
    assert "taxonomy" in r.json()["detail"] and "chess" in r.json()["detail"]
