"""Run a real ``bestiary serve`` process on a free loopback port (crash and
browser tests). The toy game is no entry point, so for it the process
registers it before running the same CLI command."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
BESTIARY = ROOT / ".venv" / "bin" / "bestiary"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(
    game_id: str,
    db: str,
    port: int,
    bot_delay: float = 0.05,
    env: dict[str, str] | None = None,
    log: Path | None = None,
) -> subprocess.Popen[bytes]:
    """``env``: more environment variables (e.g. ``BESTIARY_LEASE_SECONDS``);
    ``log``: where the server's stderr goes (default: beside a SQLite file)."""
    args = ["serve", "--port", str(port), "--db", db, "--bot-delay", str(bot_delay)]
    if game_id in ("toy", "toy-slow"):  # test games are no entry points: register first
        module = "tests.engine.toygame" if game_id == "toy" else "tests.server.slowgame"
        code = (
            f"import sys; sys.path.insert(0, {str(ROOT)!r});"
            f"from {module} import GAME; from bestiary.engine import register; register(GAME);"
            f"from bestiary.cli import app; app({args!r})"
        )
        cmd = [sys.executable, "-c", code]
    else:
        cmd = [str(BESTIARY), *args]
    # The server's log goes next to its database, for a failing test to read.
    out = open(log or Path(db).with_suffix(".log"), "ab")  # noqa: SIM115 (the process keeps it)
    # A bot over its time budget plays a random move; on a loaded machine that
    # would break the tests that compare a served game with an offline replay.
    full = {**os.environ, "BESTIARY_BOT_SECONDS": "300", **(env or {})}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=out, env=full)
    out.close()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("bestiary serve did not start")


@contextmanager
def running(game_id: str, db: str, bot_delay: float = 0.05) -> Iterator[str]:
    """A served app for the duration of the block: yields its base URL."""
    port = free_port()
    proc = serve(game_id, db, port, bot_delay=bot_delay)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
