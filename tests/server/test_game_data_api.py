"""The lobby's card-list and scoring endpoints, and file options refused remotely."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from bestiary.server.app import create_app


def _client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(str(tmp_path / "t.sqlite3"), bot_delay=0))


def test_cards_and_score_endpoints_answer_like_the_cli(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        cards = client.get("/api/games/taxonomy/cards").json()
        assert len(cards["cards"]) == 201 and "Orphans" in cards["orphans"]
        sprites = [c["name"] for c in cards["cards"] if c["keys"][0] == "Sprite"]
        piscine = [c["name"] for c in cards["cards"] if c["keys"][0] == "Piscine"]
        res = client.post(
            "/api/games/taxonomy/score", json={"hand": sprites + piscine, "claims": 0}
        ).json()
        assert res["valid"] and res["pattern"] == "4+4" and res["points"] == 9
        bad = client.post("/api/games/taxonomy/score", json={"hand": ["Fairyy"]})
        assert bad.status_code == 400 and "did you mean 'Fairy'" in bad.json()["detail"]
        assert client.get("/api/games/chess/cards").status_code == 404


def test_a_remote_client_cannot_make_the_server_read_a_file(tmp_path: Path) -> None:
    """Hidden information and the server's own files are sacred: `cards` names a file on
    the machine, so only the command line may set it."""
    secret = tmp_path / "secret.csv"
    secret.write_text("name,type,family\nTop Secret,Fiend,Imp\n")
    with _client(tmp_path) as client:
        for game, option in [("taxonomy", "cards"), ("monster-maker", "treasures")]:
            players = 2
            res = client.post(
                "/api/tables",
                json={
                    "game": game,
                    "seats": [{"kind": "bot", "agent": "random"}] * players,
                    "options": {option: str(secret)},
                },
            )
            assert res.status_code == 400
            assert "cannot be set remotely" in res.json()["detail"]
        assert client.get("/api/tables").json()["tables"] == []
        games = client.get("/api/games").json()["games"]
        tax = next(g for g in games if g["id"] == "taxonomy")
        assert next(o for o in tax["options"] if o["name"] == "cards")["path"] is True
