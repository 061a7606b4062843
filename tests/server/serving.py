"""Run a real ``bestiary serve`` process on a free loopback port (crash and
browser tests). The toy game is no entry point, so for it the process
registers it before running the same CLI command."""

from __future__ import annotations

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


def serve(game_id: str, db: str, port: int, bot_delay: float = 0.05) -> subprocess.Popen[bytes]:
    args = ["serve", "--port", str(port), "--db", db, "--bot-delay", str(bot_delay)]
    if game_id == "toy":  # the toy game is not an entry point: register it first
        code = (
            f"import sys; sys.path.insert(0, {str(ROOT / 'tests' / 'engine')!r});"
            "from toygame import GAME; from bestiary.engine import register; register(GAME);"
            f"from bestiary.cli import app; app({args!r})"
        )
        cmd = [sys.executable, "-c", code]
    else:
        cmd = [str(BESTIARY), *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
