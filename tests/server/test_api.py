"""The lobby API: create, list, join, seat tokens, clear errors, OpenAPI."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .conftest import create, join


def test_openapi_schema_lists_the_lobby_api(client: TestClient) -> None:
    """Issue 6: "An OpenAPI schema at /openapi.json"."""
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/tables", "/api/tables/{table_id}/join"} <= set(paths)


def test_games_lists_variants_options_and_bots(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    toy = games["toy"]
    assert toy["variants"] == ["standard", "lowball"]
    assert {o["name"] for o in toy["options"]} == {"tricks", "high_wins"}
    assert "random" in toy["agents"] and toy["has_page"] is False


def test_a_table_with_a_free_human_seat_waits_and_is_listed_open(client: TestClient) -> None:
    t = create(client, seats=["human", "random", "random"])
    assert t["status"] == "waiting"
    waiting = client.get("/api/tables", params={"status": "waiting"}).json()["tables"]
    assert [x["id"] for x in waiting] == [t["id"]]
    assert [s["taken"] for s in t["seats"]] == [False, True, True]


def test_joining_the_last_free_seat_starts_the_table(client: TestClient) -> None:
    t = create(client, seats=["human", "human", "random"])
    join(client, t["id"], 1)
    assert client.get(f"/api/tables/{t['id']}").json()["status"] == "waiting"
    join(client, t["id"])  # the first free seat: 0
    info = client.get(f"/api/tables/{t['id']}").json()
    assert info["status"] == "playing"
    assert [s["name"] for s in info["seats"]][:2] == ["ann", "ann"]


def test_seat_tokens_are_long_random_and_never_shown(client: TestClient) -> None:
    """Joining returns an unguessable token; the table info never contains it."""
    t = create(client, seats=["human", "human"])
    a, b = join(client, t["id"], 0), join(client, t["id"], 1)
    assert a != b and len(a) >= 40
    listing = client.get("/api/tables").text + client.get(f"/api/tables/{t['id']}").text
    assert a not in listing and b not in listing


def test_a_taken_seat_cannot_be_joined_again(client: TestClient) -> None:
    t = create(client, seats=["human", "human"])
    join(client, t["id"], 0)
    r = client.post(f"/api/tables/{t['id']}/join", json={"seat": 0})
    assert r.status_code == 409 and "free seats: 1" in r.json()["detail"]
    r = client.post(f"/api/tables/{t['id']}/join", json={"seat": 2})
    assert r.status_code == 404 and "seats 0 to 1" in r.json()["detail"]


def test_a_bot_seat_cannot_be_joined(client: TestClient) -> None:
    t = create(client, seats=["human", "random"])
    r = client.post(f"/api/tables/{t['id']}/join", json={"seat": 1})
    assert r.status_code == 409


def test_bad_requests_say_what_is_allowed(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "nope", "seats": [{"kind": "human"}]})
    assert r.status_code == 404 and "known games" in r.json()["detail"]
    r = client.post("/api/tables", json={"game": "toy", "seats": [{"kind": "human"}]})
    assert r.status_code == 400 and "allowed: 2, 3" in r.json()["detail"]
    r = client.post(
        "/api/tables",
        json={"game": "toy", "seats": [{"kind": "human"}, {"kind": "bot", "agent": "genius"}]},
    )
    assert r.status_code == 400 and "agents: " in r.json()["detail"]
    r = client.post(
        "/api/tables",
        json={"game": "toy", "variant": "x", "seats": [{"kind": "human"}] * 2},
    )
    assert r.status_code == 400 and "variants: standard, lowball" in r.json()["detail"]
    r = client.post(
        "/api/tables",
        json={"game": "toy", "options": {"tricks": 7}, "seats": [{"kind": "human"}] * 2},
    )
    assert r.status_code == 400 and "choices: 1, 2, 3" in r.json()["detail"]
    r = client.post("/api/tables", json={"game": "toy", "seats": "everyone"})
    assert r.status_code == 422 and "Traceback" not in r.text
    assert client.get("/api/tables").json()["tables"] == []  # nothing half-created


def test_options_and_variant_are_stored_with_the_table(client: TestClient) -> None:
    t = create(client, seats=["human", "human"], variant="lowball", options={"tricks": "2"})
    assert (t["variant"], t["options"]) == ("lowball", {"tricks": "2"})


def test_unknown_table_is_404(client: TestClient) -> None:
    assert client.get("/api/tables/nothing-here").status_code == 404
    assert client.post("/api/tables/nothing-here/join", json={}).status_code == 404


def test_record_and_replay_wait_for_the_end(client: TestClient) -> None:
    """The full record would show hidden cards: it opens only when the game is over."""
    t = create(client, seats=["human", "random"])
    assert client.get(f"/api/tables/{t['id']}/record").status_code == 409
    assert client.get(f"/api/tables/{t['id']}/replay").status_code == 409


def test_pages_and_static_client_are_served(client: TestClient) -> None:
    assert "lobby.js" in client.get("/").text
    assert "table.js" in client.get("/table/abc").text
    r = client.get("/static/js/generic.js")
    assert r.status_code == 200 and "export function render" in r.text


def test_a_crash_inside_is_a_plain_500_without_a_trace(db_path: str) -> None:
    """Issue 6: "no stack traces to clients"."""
    from typing import Any

    from bestiary.engine import get_game, register, unregister
    from bestiary.server import create_app

    class Crashing(type(get_game("toy"))):  # type: ignore[misc]
        id = "toy-crashing"

        def create(self, players: int, seed: int, rules: Any) -> Any:
            raise ZeroDivisionError("internal detail")

    register(Crashing())
    try:
        app = create_app(db_path, bot_delay=0)
        with TestClient(app, raise_server_exceptions=False) as c:
            r = c.post("/api/tables", json={"game": "toy-crashing", "seats": [{}, {}]})
            assert r.status_code == 500
            assert r.json() == {"detail": "internal server error"}
            assert "ZeroDivisionError" not in r.text and "internal detail" not in r.text
    finally:
        unregister("toy-crashing")
