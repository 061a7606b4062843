"""Nothing is lost: tables resume after a restart, even after ``kill -9``.

Issue 6: "Restarting the server — even after kill -9 in the middle of a game —
resumes every table exactly where it was", and the crash test: "a real
`bestiary serve` process killed with SIGKILL mid-game, restarted, the table
continues to the same result as an uninterrupted replay".
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from bestiary.engine import get_game, replay
from bestiary.engine.record import MatchRecord
from bestiary.server import create_app
from bestiary.server.live import bot_move

from .conftest import create, hello, join, loadable_games, next_update
from .serving import free_port as _free_port
from .serving import serve as _serve


def test_a_restarted_app_resumes_the_table_where_it_was(db_path: str) -> None:
    with TestClient(create_app(db_path, bot_delay=0)) as client:
        t = create(client, seats=["human", "human"], seed=8)
        tokens = [join(client, t["id"], 0), join(client, t["id"], 1)]
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            msg = hello(ws, tokens[0])
            ws.send_json({"type": "act", "action": msg["legal"][1]})
            before = next_update(ws)
    with TestClient(create_app(db_path, bot_delay=0)) as client:
        assert client.get(f"/api/tables/{t['id']}").json()["moves"] == 1
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            again = hello(ws, tokens[0])
            assert again["view"] == before["view"]  # the same hand, the same hidden choice
            assert again["view"]["my_choice"] == int(msg["legal"][1].split()[1])
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            other = hello(ws, tokens[1])  # tokens survive the restart
            assert other["your_turn"]


def _uninterrupted(game_id: str, table: dict[str, Any], seed: int) -> list[tuple[int, str]]:
    """The same bots playing the same table in one go, without any server."""
    game = get_game(game_id)
    specs = [s["agent"] for s in table["seats"]]
    state = game.new(table["players"], seed=seed, variant=table["variant"])
    moves: list[tuple[int, str]] = []
    while not state.over:
        seat = min(state.to_act())
        text = bot_move(game, state, specs[seat], seed, seat, len(moves))
        state.apply_text(seat, text)
        moves.append((seat, text))
    return moves


def test_kill_9_mid_game_and_the_table_finishes_as_if_nothing_happened(tmp_path: Path) -> None:
    real = [g for g in loadable_games() if g != "toy"]
    game_id = "taxonomy" if "taxonomy" in real else (real[0] if real else "toy")
    game = get_game(game_id)
    db = str(tmp_path / "crash.sqlite3")
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    seed = 12345
    proc = _serve(game_id, db, port, bot_delay=0.02)
    bot = "heuristic" if "heuristic" in game.agents() else "random"  # shorter games
    try:
        seats = [{"kind": "bot", "agent": bot}] * game.default_players
        r = httpx.post(f"{base}/api/tables", json={"game": game_id, "seats": seats, "seed": seed})
        assert r.status_code == 201, r.text
        table = r.json()
        for _ in range(400):  # let it get some way into the game
            moves = httpx.get(f"{base}/api/tables/{table['id']}").json()["moves"]
            if moves >= 3:
                break
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        killed_at = moves
    finally:
        if proc.poll() is None:
            proc.kill()
    proc = _serve(game_id, db, port, bot_delay=0)
    try:
        info: dict[str, Any] = {}
        for _ in range(3000):
            info = httpx.get(f"{base}/api/tables/{table['id']}").json()
            if info["status"] == "finished":
                break
            time.sleep(0.05)
        assert info["status"] == "finished", "the table did not resume after the restart"
        rec = MatchRecord.from_json(httpx.get(f"{base}/api/tables/{table['id']}/record").json())
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
    assert 3 <= killed_at < len(rec.moves)  # it was killed mid-game
    assert rec.moves == _uninterrupted(game_id, table, seed)
    assert replay(rec).result.to_json() == info["result"]  # type: ignore[union-attr]
