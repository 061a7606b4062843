"""Long work never runs on the event loop: scoring tools and bots think in
worker processes within a time budget, and shutdown does not wait for them."""

from __future__ import annotations

import itertools
import signal
import threading
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from bestiary.engine import register, unregister
from bestiary.server import create_app
from bestiary.server.config import Limits
from bestiary.server.limits import RateLimiter

from .conftest import loadable_games
from .serving import free_port, serve
from .slowgame import GAME as SLOW


def test_a_scoring_request_over_budget_is_stopped_and_others_are_served(
    tmp_path: Path,
) -> None:
    """A scoring tool that runs for a minute (as Teratozoic's exact build search
    did for 15 cards, on the event loop): the request gets a clear 503 within
    its budget, and meanwhile the lobby answers at once."""
    register(SLOW)
    app = create_app(str(tmp_path / "t.sqlite3"), bot_delay=0, limits=Limits(tool_seconds=2))
    try:
        with TestClient(app) as client:
            answer: dict[str, httpx.Response] = {}

            def score() -> None:
                answer["r"] = client.post("/api/games/toy-slow/score", json={})

            started = time.monotonic()
            worker = threading.Thread(target=score)
            worker.start()
            time.sleep(0.5)
            lobby = [time.monotonic()]
            for _ in range(5):
                assert client.get("/api/games").status_code == 200
                assert client.get("/api/tables").status_code == 200
                lobby.append(time.monotonic())
            slowest = max(b - a for a, b in itertools.pairwise(lobby))
            worker.join(60)
            assert not worker.is_alive()
            r = answer["r"]
            assert r.status_code == 503 and "time limit" in r.json()["detail"]
            assert time.monotonic() - started < 30
            assert slowest < 1.5, f"the lobby waited {slowest:.1f} s behind the search"
            # The stopped worker was replaced: the next request gets its answer.
            ok = client.post("/api/games/toy-slow/score", json={"quick": True})
            assert ok.status_code == 200 and ok.json() == {"score": 0}
    finally:
        unregister(SLOW.id)


def test_sigint_stops_the_server_while_a_bot_thinks(tmp_path: Path) -> None:
    """A bot deep in thought (this one sleeps a minute) must not hold up
    Ctrl-C: its worker is killed and the server exits in seconds."""
    port = free_port()
    proc = serve("toy-slow", str(tmp_path / "slow.sqlite3"), port, bot_delay=0)
    try:
        seats = [{"kind": "bot", "agent": "heuristic"}] * 2
        r = httpx.post(
            f"http://127.0.0.1:{port}/api/tables", json={"game": "toy-slow", "seats": seats}
        )
        assert r.status_code == 201, r.text
        time.sleep(3)  # the bot is thinking now
        stopped = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(20)
        assert time.monotonic() - stopped < 10
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_client_that_backs_off_is_forgiven_its_strikes() -> None:
    """Strikes (messages refused for rate) start again from zero once the
    client has been quiet long enough to refill its bucket."""
    now = [0.0]
    limiter = RateLimiter(rate=1.0, burst=2, clock=lambda: now[0])
    for _ in range(10):
        limiter.allow()
    assert limiter.strikes == 8
    now[0] += 5.0  # backs off
    assert limiter.allow()
    assert limiter.strikes == 0
    for _ in range(3):  # one token left: two refused, counted from zero
        limiter.allow()
    assert limiter.strikes == 2


@pytest.mark.skipif("taxonomy" not in loadable_games(), reason="taxonomy does not load")
def test_bots_without_delay_do_not_starve_the_server(client: TestClient) -> None:
    """Four random bots with no delay play hundreds of moves; a request made
    meanwhile is answered mid-game, not after the last move."""
    seats = [{"kind": "bot", "agent": "random"}] * 4
    t = client.post("/api/tables", json={"game": "taxonomy", "seats": seats}).json()
    info = client.get(f"/api/tables/{t['id']}").json()
    assert info["status"] == "playing", "the request waited for the whole game"
