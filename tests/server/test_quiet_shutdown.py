"""Issue 27's attack runs found every bot table logging an ERROR with a
traceback ("the bots of table … stopped; again in 2 s") when the server
stopped: the workers were killed under the bots' loops. "No input, however
broken, produces a traceback" — and a normal stop is no input at all."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bestiary.server import create_app

from .conftest import create


def test_stopping_the_server_with_bots_playing_logs_no_error(
    db_path: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bestiary.server")
    with TestClient(create_app(db_path, bot_delay=0.0)) as client:
        for _ in range(3):
            create(client, seats=["heuristic", "heuristic"], game="meat")
        time.sleep(1.0)  # the bots are in the middle of their games
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]


def test_a_request_the_stop_cuts_off_is_answered_503_without_a_traceback(db_path: str) -> None:
    """A hint queued for the tool worker when the server stops is cancelled by
    uvicorn after its grace period; it logged "Exception in ASGI application"
    with the CancelledError's traceback. Now the request is answered "503 the
    server is shutting down" and the cancellation ends there."""
    import asyncio

    from bestiary.server.cutoff import SHUTTING_DOWN, CutOff

    sent: list[Any] = []

    async def endless(scope: Any, receive: Any, send: Any) -> None:
        await asyncio.Event().wait()  # a hint waiting for its worker

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> Any:
        return {"type": "http.request", "body": b""}

    async def main() -> None:
        app = CutOff(endless)
        task = asyncio.create_task(
            app({"type": "http", "method": "POST", "path": "/x"}, receive, send)
        )
        await asyncio.sleep(0.01)
        task.cancel()  # what uvicorn does once its grace period is over
        await task  # ends normally: nothing raised

    asyncio.run(main())
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 503
    assert SHUTTING_DOWN in sent[1]["body"].decode()
    # ... and the served app has it outermost, around every route.
    stack = create_app(db_path).user_middleware
    assert stack[0].cls is CutOff
