"""Issue 27's attack runs found every bot table logging an ERROR with a
traceback ("the bots of table … stopped; again in 2 s") when the server
stopped: the workers were killed under the bots' loops. "No input, however
broken, produces a traceback" — and a normal stop is no input at all."""

from __future__ import annotations

import logging
import time

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
