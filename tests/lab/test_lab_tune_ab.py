"""The tuner and the sequential A/B test from the web Lab's API (issue 28).

Issue 28: "A tuner: `bestiary tune GAME --cards FILE --field 'CARD.FIELD'
--range A..B --target 'METRIC=VALUE'` searches the value ... and reports the
curve, the value found and its interval; also from the web Lab", and the
sequential A/B mode beside it. From the web they are rows of the lab's runs:
the operator's token, the quota per client, a table's bot bounds, the bound on
games (every game the job may play), a child process, progress, cancel, and a
resume after a restart. A bad field, range, target or metric is a 4xx that
says what is allowed and stores nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient

from bestiary.lab import plots
from bestiary.server.lab import lab_router

TOKEN = "operator-token-for-tune-tests"
OPERATOR = {"Authorization": f"Bearer {TOKEN}"}
SHIPPED = Path(__file__).resolve().parents[2] / "bestiary/games/meat/data/cards.toml"
FIELD = "Kat z Wieży.passive.amount"
TUNE = {
    "game": "meat",
    "seats": ["random", "random"],
    "cards": "mine.toml",
    "field": FIELD,
    "range": "0..4",
    "target": "item:leader:Kat z Wieży=0.5",
    "games_per_step": 10,
}
AB = {
    "game": "meat",
    "seats": ["random", "random"],
    "cards_a": "",
    "cards_b": "stronger.toml",
    "metric": "seat0_win",
    "batch": 5,
    "budget": 10,
}


def lab_app(folder: Path, **kw: Any) -> FastAPI:
    engine = sa.create_engine(f"sqlite:///{folder / 'lab.sqlite3'}")
    app = FastAPI()
    app.include_router(lab_router(engine, folder, token=TOKEN, **kw))
    return app


def lab_folder(folder: Path) -> Path:
    cards = folder / "lab" / "cards"
    cards.mkdir(parents=True, exist_ok=True)
    text = SHIPPED.read_text(encoding="utf-8")
    (cards / "mine.toml").write_text(text, encoding="utf-8")
    (cards / "stronger.toml").write_text(
        text.replace("attack = 1\n", "attack = 4\n", 1), encoding="utf-8"
    )
    (cards / "flat.csv").write_text("name,attack\nX,1\n", encoding="utf-8")
    return folder


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(lab_app(lab_folder(tmp_path), max_games=200), headers=OPERATOR)


def wait(client: TestClient, run_id: str, ok: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        run: dict[str, Any] = client.get(f"/api/lab/runs/{run_id}").json()
        if ok(run):
            return run
        time.sleep(0.1)
    raise AssertionError(f"run {run_id} never got there: {run}")


def ended(run: dict[str, Any]) -> bool:
    return run["status"] not in ("queued", "running")


def stored(folder: Path) -> list[dict[str, Any]]:
    engine = sa.create_engine(f"sqlite:///{folder / 'lab.sqlite3'}")
    try:
        with engine.connect() as c:
            return [dict(r) for r in c.execute(sa.text("SELECT * FROM lab_runs")).mappings()]
    finally:
        engine.dispose()


def test_a_tune_reports_the_curve_the_value_found_and_its_interval(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28: the tuner "reports the curve, the value found and its interval;
    also from the web Lab". With random bots and 10 games a value on seeds 0-9,
    Kat z Wieży's seat wins 67% at bonus 0 and 33% at 4: 50% is crossed."""
    choices = client.get("/api/lab/tune/choices", params={"game": "meat", "cards": "mine.toml"})
    assert choices.status_code == 200
    assert FIELD in choices.json()["fields"] and "Akolita.attack" in choices.json()["fields"]
    assert {"seat0_win", "item:leader:Kat z Wieży"} <= set(choices.json()["metrics"])
    started = client.post("/api/lab/tune", json=TUNE)
    assert started.status_code == 200, started.text
    job = started.json()
    # the bound counts every game it may play: 10 a value, at most 2 + ceil(log2 4) values
    assert job["kind"] == "tune" and job["games"] == 40 and job["cards"] == "mine.toml"
    run = wait(client, job["id"], ended)
    assert run["status"] == "done", run["error"]
    res = run["result"]
    assert res["field"] == FIELD and res["metric"] == "item:leader:Kat z Wieży"
    values = [p["value"] for p in res["curve"]]
    assert values == sorted(values) and values[0] == 0 and values[-1] == 4
    assert res["found"] in values and res["interval"][0] <= res["found"] <= res["interval"][1]
    for p in res["curve"]:
        assert p["low"] <= p["metric"] <= p["high"]
    assert run["done"] == 10 * len(values)  # progress: every game played
    # its page: the value found, the curve as a plot with labelled axes and a table
    drawn: list[dict[str, Any]] = []
    lines = plots.lines

    def spy(*args: Any, **kw: Any) -> str:
        drawn.append(kw | {"title": args[2], "series": list(args[1])})
        return lines(*args, **kw)

    monkeypatch.setattr(plots, "lines", spy)
    page = client.get(f"/api/lab/runs/{run['id']}/result")
    assert page.status_code == 200
    assert f"{FIELD} = {res['found']} brings item:leader:Kat z Wieży nearest 0.5" in page.text
    assert "<section id='curve'>" in page.text and "img class='plot'" in page.text
    assert drawn[0]["xlabel"] == f"value of {FIELD}"
    assert drawn[0]["ylabel"] == "item:leader:Kat z Wieży"
    assert drawn[0]["series"] == ["item:leader:Kat z Wieży", "target 0.5"]
    assert str(tmp_path) not in page.text and str(tmp_path) not in str(run)
    # in the page's language
    polish = client.get(f"/api/lab/runs/{run['id']}/result?lang=pl")
    assert "<html lang='pl'>" in polish.text and "wartość" in polish.text
    # a tune has no run file: its report and download say what it is instead
    r = client.get(f"/api/lab/runs/{run['id']}/download")
    assert r.status_code == 409 and "open its result" in r.json()["detail"]


def test_an_ab_test_reports_its_decision_interval_and_games(client: TestClient) -> None:
    """Issue 28's sequential A/B mode from the web: the decision, the estimate
    with its always-valid interval and the games played (both versions)."""
    started = client.post("/api/lab/ab", json=AB)
    assert started.status_code == 200, started.text
    assert started.json()["kind"] == "ab" and started.json()["games"] == 20  # 10 a side
    run = wait(client, started.json()["id"], ended)
    assert run["status"] == "done", run["error"]
    res = run["result"]
    assert res["decision"] == "open"  # 10 games a side cannot tell two random bots apart
    assert res["games"] == 10 and run["done"] == 20
    assert res["low"] <= res["diff"] <= res["high"] and len(res["looks"]) == 2
    page = client.get(f"/api/lab/runs/{run['id']}/result")
    assert page.status_code == 200
    assert "Not answered within the budget" in page.text
    assert "over 10 games a side" in page.text and "20 games played in all" in page.text
    assert "A: shipped cards; B: stronger.toml" in page.text
    assert "<section id='looks'>" in page.text and "img class='plot'" in page.text


@pytest.mark.parametrize(
    ("path", "change", "code", "says"),
    [
        ("tune", {"field": "Kat z Wieży.faction"}, 400, "its fields: passive.amount"),
        ("tune", {"field": "Nobody.attack"}, 400, "its cards: Akolita, Nekromanta"),
        ("tune", {"field": "attack"}, 400, "is not CARD.FIELD"),
        ("tune", {"range": "4..0"}, 400, "two whole numbers A..B with A < B"),
        ("tune", {"range": "a..b"}, 400, "two whole numbers A..B with A < B"),
        ("tune", {"target": "seat0_win"}, 400, "must be METRIC=VALUE"),
        ("tune", {"target": "seat0_win=half"}, 400, "must be METRIC=VALUE"),
        ("tune", {"target": "seat5_win=0.5"}, 400, "allowed: seat0_win … seat1_win"),
        ("tune", {"target": "nope=0.5"}, 400, "allowed: seat0_win … seat1_win"),
        ("tune", {"cards": "flat.csv"}, 400, "edits TOML card files"),
        ("tune", {"cards": ""}, 400, "needs a card file"),
        ("tune", {"cards": "../secret.toml"}, 404, "no card file"),
        ("tune", {"games_per_step": 60}, 422, "up to 240 games"),
        ("tune", {"seats": ["ismcts:iterations=100000000", "random"]}, 400, "iterations"),
        ("ab", {"cards_b": ""}, 400, "versions A and B are the same"),
        ("ab", {"metric": "margin"}, 400, "allowed: seat0_win … seat1_win"),
        ("ab", {"budget": 101}, 422, "up to 202 games"),
        ("ab", {"seats": ["os:system", "random"]}, 400, ""),
    ],
)
def test_a_bad_request_says_what_is_allowed_and_stores_nothing(
    client: TestClient, tmp_path: Path, path: str, change: dict[str, Any], code: int, says: str
) -> None:
    """Issue 28 (the brief of this work): "a bad field, range, target or metric
    gets a clear 4xx answer that says what is allowed, and changes no stored record"."""
    body = (TUNE if path == "tune" else AB) | change
    r = client.post(f"/api/lab/{path}", json=body)
    assert r.status_code == code, r.text
    assert says in r.json()["detail"]
    assert str(tmp_path) not in r.text
    assert stored(tmp_path) == [] and client.get("/api/lab/runs").json() == {"runs": []}


def test_the_token_and_the_quota_hold_for_tunes_and_ab_tests(tmp_path: Path) -> None:
    """Issue 27's guards (the operator's token, a quota of queued jobs per client,
    a cancel) for the new jobs as for runs."""
    client = TestClient(lab_app(lab_folder(tmp_path), runs_per_client=1))
    operator = TestClient(client.app, headers=OPERATOR)
    for url, body in (("/api/lab/tune", TUNE), ("/api/lab/ab", AB)):
        r = client.post(url, json=body)
        assert r.status_code == 401 and "token" in r.json()["detail"]
    r = client.get("/api/lab/tune/choices", params={"game": "meat", "cards": "mine.toml"})
    assert r.status_code == 401
    assert stored(tmp_path) == []
    big = TUNE | {"games_per_step": 500, "range": "0..1000"}  # minutes of games
    first = client.post("/api/lab/tune", json=big, headers=OPERATOR)
    assert first.status_code == 200, first.text
    r = client.post("/api/lab/ab", json=AB, headers=OPERATOR)
    assert r.status_code == 429 and "as the limit allows (1)" in r.json()["detail"]
    assert len(stored(tmp_path)) == 1
    wait(operator, first.json()["id"], lambda j: j["status"] == "running")
    r = client.post(f"/api/lab/runs/{first.json()['id']}/cancel", headers=OPERATOR)
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    r = client.post("/api/lab/ab", json=AB, headers=OPERATOR)
    assert r.status_code == 200, r.text


def test_a_tune_stopped_with_the_server_resumes_from_its_steps(tmp_path: Path) -> None:
    """Like a run (issue 27): when the server stops, the tune in progress is
    interrupted and queued again; the next start resumes it from the steps it
    saved (none is played twice) and it ends with its answer."""
    lab_folder(tmp_path)
    # Random bots play hundreds of games a second: steps long enough that the
    # tune cannot end between its second step's first saved games and the stop.
    body = TUNE | {"games_per_step": 300}
    with TestClient(lab_app(tmp_path), headers=OPERATOR) as client:
        job = client.post("/api/lab/tune", json=body).json()
        wait(client, job["id"], lambda j: j["done"] >= 310)  # into its second step
    (status, done) = next(
        (r["status"], r["done"]) for r in stored(tmp_path) if r["id"] == job["id"]
    )
    assert status == "queued" and 300 <= done < 1200
    steps = sorted(p.name for p in (tmp_path / "lab" / "runs" / job["id"]).glob("*.parquet"))
    assert steps  # the steps it played are kept
    with TestClient(lab_app(tmp_path), headers=OPERATOR) as client:
        run = wait(client, job["id"], ended)
    assert run["status"] == "done", run["error"]
    curve = run["result"]["curve"]
    assert run["done"] == 300 * len(curve) and all(p["games"] > 0 for p in curve)
    assert (curve[0]["value"], curve[-1]["value"]) == (0, 4)  # both ends of the range


def test_an_older_database_gets_the_new_columns(tmp_path: Path) -> None:
    """A database made before tunes and A/B tests: its runs stay runs."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'lab.sqlite3'}")
    with engine.begin() as c:
        c.execute(
            sa.text(
                "CREATE TABLE lab_runs (id VARCHAR(12) PRIMARY KEY, game VARCHAR(64) NOT NULL, "
                "variant VARCHAR(64) NOT NULL, seats TEXT NOT NULL, options TEXT NOT NULL, "
                "cards VARCHAR(100) NOT NULL, seed INTEGER NOT NULL, games INTEGER NOT NULL, "
                "done INTEGER NOT NULL, status VARCHAR(16) NOT NULL, error TEXT, "
                "games_per_second FLOAT, created DATETIME NOT NULL)"
            )
        )
        c.execute(
            sa.text(
                "INSERT INTO lab_runs VALUES ('0123456789ab', 'meat', '', '[\"random\"]', '{}', "
                "'', 0, 4, 4, 'done', NULL, 1.0, '2026-01-01 00:00:00')"
            )
        )
    engine.dispose()
    client = TestClient(lab_app(lab_folder(tmp_path)), headers=OPERATOR)
    (old,) = client.get("/api/lab/runs").json()["runs"]
    assert old["kind"] == "run" and old["result"] is None and old["config"] is None
