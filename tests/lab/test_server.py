"""The Lab API: runs in the background, card files only from the lab folder."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient

from bestiary.server.lab import lab_router

TOKEN = "operator-token-for-tests"
OPERATOR = {"Authorization": f"Bearer {TOKEN}"}  # the lab is the operator's: every call


def lab_app(folder: Path, **kw: Any) -> FastAPI:
    engine = sa.create_engine(f"sqlite:///{folder / 'lab.sqlite3'}")
    app = FastAPI()
    app.include_router(lab_router(engine, folder, token=TOKEN, **kw))
    return app


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    cards = tmp_path / "lab" / "cards"
    cards.mkdir(parents=True)
    shipped = Path(__file__).resolve().parents[2] / "bestiary/games/meat/data/cards.toml"
    (cards / "mine.toml").write_bytes(shipped.read_bytes())
    (tmp_path / "secret.toml").write_text("x")
    return TestClient(lab_app(tmp_path, max_games=50), headers=OPERATOR)


def wait_done(client: TestClient, run_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        run = client.get(f"/api/lab/runs/{run_id}").json()
        if run["status"] in ("done", "failed"):
            return run  # type: ignore[no-any-return]
        time.sleep(0.2)
    raise AssertionError("the run did not finish")


def test_a_run_plays_in_the_background_and_has_a_report(client: TestClient) -> None:
    assert client.get("/api/lab/cards").json() == {"files": ["mine.toml"]}
    body = {"game": "meat", "seats": ["random", "random"], "games": 4, "cards": "mine.toml"}
    started = client.post("/api/lab/runs", json=body)
    assert started.status_code == 200, started.text
    run = wait_done(client, started.json()["id"])
    assert run["status"] == "done" and run["done"] == 4 and run["cards"] == "mine.toml"
    page = client.get(f"/api/lab/runs/{run['id']}/report")
    assert page.status_code == 200 and "<section id='seats'>" in page.text
    parquet = client.get(f"/api/lab/runs/{run['id']}/download")
    assert parquet.content[:4] == b"PAR1"
    other = wait_done(client, client.post("/api/lab/runs", json=body | {"cards": ""}).json()["id"])
    diff = client.get(f"/api/lab/compare?a={other['id']}&b={run['id']}")
    assert diff.status_code == 200 and "card files" in diff.text
    assert [r["id"] for r in client.get("/api/lab/runs").json()["runs"]] == [other["id"], run["id"]]


def test_paths_and_bad_requests_are_refused(client: TestClient) -> None:
    base = {"game": "meat", "seats": ["random", "random"], "games": 2}
    for cards in ("../secret.toml", "/etc/passwd", "secret.toml"):
        r = client.post("/api/lab/runs", json=base | {"cards": cards})
        assert r.status_code == 404, cards
    r = client.post("/api/lab/runs", json=base | {"options": {"cards": "/etc/passwd"}})
    assert r.status_code == 400 and "cannot be set remotely" in r.json()["detail"]
    r = client.post("/api/lab/runs", json=base | {"seats": ["os:system", "random"]})
    assert r.status_code == 400
    r = client.post("/api/lab/runs", json=base | {"games": 51})
    assert r.status_code == 422 and "between 1 and 50" in r.json()["detail"]
    r = client.post("/api/lab/runs", json=base | {"game": "chess"})
    assert r.status_code == 400
    assert client.get("/api/lab/runs/zzz/report").status_code == 404


def test_a_run_stopped_with_the_server_resumes_when_it_starts_again(tmp_path: Path) -> None:
    # Enough play that the run cannot end between its first saved games and the
    # shutdown: 80 random games (a third of a second) sometimes all finished first.
    body = {"game": "meat", "seats": ["heuristic", "heuristic"], "games": 100}
    # the block's end is the app's shutdown
    with TestClient(lab_app(tmp_path), headers=OPERATOR) as first:
        run_id = first.post("/api/lab/runs", json=body).json()["id"]
        deadline = time.monotonic() + 60
        while first.get(f"/api/lab/runs/{run_id}").json()["done"] == 0:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'lab.sqlite3'}")
    with engine.connect() as c:
        status, done = c.execute(sa.text("SELECT status, done FROM lab_runs")).one()
    assert status == "queued" and 0 < done < 100  # stopped part way, its games saved
    with TestClient(lab_app(tmp_path), headers=OPERATOR) as second:
        run = wait_done(second, run_id)
        assert run["status"] == "done" and run["done"] == 100
        report = second.get(f"/api/lab/runs/{run_id}/report.html")
        assert "attachment" in report.headers["content-disposition"]


def test_a_server_without_the_lab_extra_says_what_to_install(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The web extra does not bring the lab's packages: starting a run must say
    which extra to install, not fail in the background."""
    import importlib.util

    from fastapi.testclient import TestClient

    from bestiary.server.app import create_app
    from bestiary.server.config import Access

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a)
    )
    app = create_app(
        str(tmp_path / "db.sqlite3"), bot_delay=0, access=Access(lab=True, lab_token=TOKEN)
    )
    with TestClient(app, headers=OPERATOR) as client:
        r = client.post(
            "/api/lab/runs", json={"game": "meat", "seats": ["random", "random"], "games": 2}
        )
    assert r.status_code == 503
    assert "bestiary[lab]" in r.json()["detail"] and "pyarrow" in r.json()["detail"]
