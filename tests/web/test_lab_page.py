"""The Lab page in headless Chromium: start two runs (shipped cards and a card
file from the lab folder), watch them finish, open a report, compare them.

The page is served by a small app that includes only the lab router (and the
static files), the way the main app will include it.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import uvicorn
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from bestiary.server.lab import WEB, lab_router

from .conftest import BROWSER_MARKS

pytestmark = BROWSER_MARKS
SHIPPED = Path(__file__).resolve().parents[2] / "bestiary/games/meat/data/cards.toml"
TOKEN = "the-operators-lab-token"


@pytest.fixture(scope="module")
def lab_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("lab")
    (folder / "lab" / "cards").mkdir(parents=True)
    changed = SHIPPED.read_text(encoding="utf-8").replace("attack = 1\n", "attack = 4\n", 1)
    (folder / "lab" / "cards" / "stronger.toml").write_text(changed, encoding="utf-8")
    app = FastAPI()
    engine = sa.create_engine(f"sqlite:///{folder / 'db.sqlite3'}")
    app.include_router(lab_router(engine, folder, token=TOKEN))
    app.mount("/static", StaticFiles(directory=WEB), name="static")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def start_run(page: Any, cards: str) -> None:
    page.select_option("#game", "meat")
    page.fill("#seats", "random,random")
    page.select_option("#cards", cards)
    page.fill("#games", "4")
    page.click("#start")


def test_lab_page_runs_reports_and_compares(lab_url: str, browser: Any) -> None:
    page = browser.new_page()
    try:
        page.goto(f"{lab_url}/lab")
        # the lab is the operator's: the page asks for their token first
        page.wait_for_selector("#token-form", state="visible")
        page.fill("#token", "a wrong guess")
        page.click("#sign-in-button")
        page.wait_for_function("document.getElementById('token-error').textContent.length > 0")
        page.fill("#token", TOKEN)
        page.click("#sign-in-button")
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#cards option").all_inner_texts() == ["shipped cards", "stronger.toml"]
        start_run(page, "")
        page.wait_for_selector("#runs tr")
        start_run(page, "stronger.toml")
        page.wait_for_function(
            "document.querySelectorAll('#runs tr[data-status=done]').length === 2", timeout=120_000
        )
        rows = page.locator("#runs tr")
        assert rows.count() == 2
        assert "stronger.toml" in rows.nth(0).inner_text()  # newest first
        assert "4/4" in rows.nth(1).inner_text()
        download = rows.nth(0).locator("a.report-file").get_attribute("href")
        assert download is not None and download.endswith("/report.html")
        # a report opens in the page's frame, with its sections and plots
        rows.nth(0).locator("button.report").click()
        frame = page.frame_locator("#report-frame")
        frame.locator("section#seats img.plot").wait_for(timeout=60_000)
        assert frame.locator("section#game").count() == 1
        # compare: A = shipped, B = the changed card file
        assert page.is_disabled("#compare")
        rows.nth(1).locator("input[name=a]").check()
        rows.nth(0).locator("input[name=b]").check()
        page.click("#compare")
        frame.locator("section#metrics").wait_for(timeout=60_000)
        assert "card files" in frame.locator("section#runs").inner_text()
        # a bad request is shown on the page, not thrown away
        page.fill("#seats", "random")
        page.click("#start")
        page.wait_for_function("document.getElementById('run-error').textContent.length > 0")
        assert "seats" in page.inner_text("#run-error")
    finally:
        page.close()
