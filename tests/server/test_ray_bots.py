"""Bots on Ray actors (``bestiary serve --ray-address``): a table of bots
plays to the very end the server would reach with local worker processes."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bestiary.engine import get_game
from bestiary.server import create_app
from bestiary.server.config import Limits

from .test_restart import _uninterrupted


def test_bots_think_on_ray_actors_and_play_the_same_game(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from bestiary.server.raypool import RayPool

    game = get_game("meat")
    # A generous budget: on a loaded CI machine a decision that overran the
    # usual one would fall back to a random move and change the game.
    limits = Limits(bot_seconds=60.0)
    app = create_app(str(tmp_path / "ray.sqlite3"), bot_delay=0, ray_address="local", limits=limits)
    with TestClient(app) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert isinstance(hub.bots, RayPool)
        seats = [{"kind": "bot", "agent": "normal"}] * 2  # the heuristic: a pool job
        t = client.post("/api/tables", json={"game": "meat", "seats": seats}).json()
        deadline = time.monotonic() + 300
        while client.get(f"/api/tables/{t['id']}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the Ray bots did not finish the game"
            time.sleep(0.2)
        rec = client.get(f"/api/tables/{t['id']}/record").json()
        assert hub.bots.calls == len(rec["moves"])  # every decision went to an actor
    table = {**t, "seats": [{"agent": "heuristic"}] * 2}
    assert [tuple(m) for m in rec["moves"]] == _uninterrupted(game.id, table, int(rec["seed"]))
