"""The lab inside the server, under hostile clients (issue 27, point 3).

"The lab inside the server is open and unbounded: anyone can POST
/api/lab/runs a 100,000-game run with bots at iterations=1e8, and 30 more
from one client; the server then ignores SIGTERM, and all 31 runs come back
after a restart." The lab is now off unless the operator turns it on, then
needs the operator's token; its runs have a table's bot bounds, a bound on
games, a quota of queued runs per client and a cancel; SIGTERM stops a run at
once (its finished games kept, the run resumed at the next start).

The settings come through the environment, as ``bestiary serve`` reads them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from bestiary.server import create_app
from tests.server.serving import BESTIARY, free_port

TOKEN = "the-operators-own-lab-token"
OPERATOR = {"Authorization": f"Bearer {TOKEN}"}
RUN = {"game": "meat", "seats": ["random", "random"], "games": 2}
# A game that takes minutes: a search of 5 seconds a move (the most a table allows).
SLOW = {"game": "meat", "seats": ["ismcts:seconds=5", "heuristic"], "games": 5}


@pytest.fixture
def lab_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BESTIARY_LAB", "1")
    monkeypatch.setenv("BESTIARY_LAB_TOKEN", TOKEN)


@pytest.fixture
def client(tmp_path: Path, lab_on: None) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "db.sqlite3"), bot_delay=0)) as c:
        yield c


def test_the_lab_is_off_unless_the_operator_turns_it_on(tmp_path: Path) -> None:
    """Issue 27: "The lab in the server is off unless the operator turns it on": a run
    is refused with a message that says how, and the page still opens (to say so)."""
    with TestClient(create_app(str(tmp_path / "db.sqlite3"), bot_delay=0)) as client:
        r = client.post("/api/lab/runs", json=RUN, headers=OPERATOR)
        assert r.status_code == 404 and "bestiary serve --lab" in r.json()["detail"]
        assert client.get("/api/lab/runs").status_code == 404
        assert client.get("/api/lab/status").json()["enabled"] is False
        assert client.get("/lab").status_code == 200


def test_the_lab_needs_the_operators_token(client: TestClient) -> None:
    """Issue 27: "... and then needs the operator's token (a bearer token)"."""
    for headers in ({}, {"Authorization": "Bearer not-the-token-at-all"}):
        r = client.post("/api/lab/runs", json=RUN, headers=headers)
        assert r.status_code == 401 and "token" in r.json()["detail"]
        assert r.headers["www-authenticate"] == "Bearer"
        assert client.get("/api/lab/runs", headers=headers).status_code == 401
    assert client.get("/api/lab/runs").status_code == 401  # nothing was started
    assert client.get("/api/lab/status").json() == {
        "enabled": True,
        "token_required": True,
        "signed_in": False,
    }
    assert client.get("/api/lab/runs", headers=OPERATOR).json() == {"runs": []}
    # The page signs in once: its reports and downloads (frames, links) carry a cookie.
    assert client.post("/api/lab/session").status_code == 401
    assert client.post("/api/lab/session", headers=OPERATOR).status_code == 200
    assert client.get("/api/lab/status").json()["signed_in"] is True
    assert TOKEN not in str(client.cookies.get("bestiary_lab"))
    assert client.get("/api/lab/runs").status_code == 200


def test_runs_have_the_bounds_of_a_tables_bots(client: TestClient) -> None:
    """Issue 27: "its runs use the same spec bounds as tables (the bot levels and
    bounded ismcts only), a bound on games per run"."""
    too_deep = RUN | {"seats": ["ismcts:iterations=100000000", "random"]}
    r = client.post("/api/lab/runs", json=too_deep, headers=OPERATOR)
    assert r.status_code == 400 and "iterations 1 to 2000" in r.json()["detail"]
    r = client.post("/api/lab/runs", json=RUN | {"games": 100_000}, headers=OPERATOR)
    assert r.status_code == 422 and "between 1 and 10000" in r.json()["detail"]
    r = client.post(
        "/api/lab/runs", json=RUN | {"seats": ["os:system", "random"]}, headers=OPERATOR
    )
    assert r.status_code == 400
    assert client.get("/api/lab/runs", headers=OPERATOR).json() == {"runs": []}
    # The levels a table offers are run as the table plays them.
    r = client.post("/api/lab/runs", json=RUN | {"seats": ["easy", "normal"]}, headers=OPERATOR)
    assert r.status_code == 200, r.text
    assert r.json()["seats"] == ["easy", "normal"] and r.json()["progress"] == 0.0


def test_one_client_holds_a_bounded_number_of_runs_and_may_cancel_them(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27: "a per-client quota of queued runs, a cancel endpoint": the fourth run
    from one client is refused (429) until one of its three is cancelled."""
    ids = []
    for _ in range(3):
        r = client.post("/api/lab/runs", json=SLOW, headers=OPERATOR)
        assert r.status_code == 200, r.text
        ids.append(r.json()["id"])
    r = client.post("/api/lab/runs", json=SLOW, headers=OPERATOR)
    assert r.status_code == 429 and "as the limit allows (3)" in r.json()["detail"]
    # the client's own id does not lift the quota: it is the client's address's
    r = client.post("/api/lab/runs", json=SLOW, headers=OPERATOR | {"X-Bestiary-Client": "x" * 12})
    assert r.status_code == 429
    for run_id in ids:
        r = client.post(f"/api/lab/runs/{run_id}/cancel", headers=OPERATOR)
        assert r.status_code == 200 and r.json()["status"] == "cancelled"
    r = client.post(f"/api/lab/runs/{ids[0]}/cancel", headers=OPERATOR)
    assert r.status_code == 409 and "cancelled" in r.json()["detail"]
    assert client.post("/api/lab/runs", json=RUN, headers=OPERATOR).status_code == 200


def _runs(db: Path) -> dict[str, tuple[str, int]]:
    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as c:
            rows = c.execute(sa.text("SELECT id, status, done FROM lab_runs")).all()
    finally:
        engine.dispose()
    return {r[0]: (r[1], r[2]) for r in rows}


def _stop(proc: subprocess.Popen[bytes]) -> float:
    """SIGTERM; seconds until the process ended (it is killed after 30)."""
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
        return float("inf")
    return time.monotonic() - t0


def _serve(db: Path, port: int) -> subprocess.Popen[bytes]:
    """``bestiary serve`` with the lab on (as the operator starts it), its log
    beside the database; given two minutes to start on a loaded machine."""
    env = {**os.environ, "BESTIARY_LAB": "1", "BESTIARY_LAB_TOKEN": TOKEN}
    args = [str(BESTIARY), "serve", "--port", str(port), "--db", str(db)]
    with open(db.with_suffix(".log"), "ab") as log:
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=log, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).is_success:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("bestiary serve did not start")


def _wait(url: str, run_id: str, ok: Any, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        run: dict[str, Any] = httpx.get(f"{url}/api/lab/runs/{run_id}", headers=OPERATOR).json()
        if ok(run):
            return run
        time.sleep(0.2)
    raise AssertionError(f"run {run_id} never got there: {run}")


def test_sigterm_stops_a_run_at_once_and_a_restart_resumes_it(tmp_path: Path) -> None:
    """Issue 27: "stop promptly on SIGTERM (finished games kept, the run resumable; a
    cancelled run does not come back after restart)": the server stops within
    seconds even in the middle of a minutes-long game."""
    db = tmp_path / "db.sqlite3"

    def start() -> tuple[subprocess.Popen[bytes], str]:
        port = free_port()
        return _serve(db, port), f"http://127.0.0.1:{port}"

    proc, url = start()
    try:
        slow = httpx.post(f"{url}/api/lab/runs", json=SLOW, headers=OPERATOR).json()["id"]
        _wait(url, slow, lambda r: r["status"] == "running")
        time.sleep(3.0)  # inside its first game's searches
    finally:
        took = _stop(proc)
    assert took < 12, f"the server took {took:.1f} s to stop"
    assert _runs(db)[slow] == ("queued", 0)  # no game finished: queued again

    proc, url = start()
    try:
        _wait(url, slow, lambda r: r["status"] == "running")  # resumed at the start
        cancel = httpx.post(f"{url}/api/lab/runs/{slow}/cancel", headers=OPERATOR)
        assert cancel.status_code == 200
        body = {"game": "meat", "seats": ["heuristic", "heuristic"], "games": 10_000}
        fast = httpx.post(f"{url}/api/lab/runs", json=body, headers=OPERATOR).json()["id"]
        _wait(url, fast, lambda r: r["done"] > 0)
    finally:
        took = _stop(proc)
    assert took < 12, f"the server took {took:.1f} s to stop"
    runs = _runs(db)
    assert runs[slow][0] == "cancelled"
    status, saved = runs[fast]
    assert status == "queued" and 0 < saved < 10_000  # stopped part way, its games saved

    proc, url = start()
    try:
        run = _wait(url, fast, lambda r: r["status"] == "running" and r["done"] > saved)
        assert run["progress"] > saved / 10_000
        assert httpx.get(f"{url}/api/lab/runs/{slow}", headers=OPERATOR).json()["status"] == (
            "cancelled"
        )  # it did not come back
    finally:
        took = _stop(proc)
    assert took < 12
