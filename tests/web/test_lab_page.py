"""The Lab page in headless Chromium: start two runs (shipped cards and a card
file from the lab folder), watch them finish, open a report, compare them.

Issue 28: "In the web Lab the report stays blank for 8.6 s with no sign of
loading, runs are known only by hex ids, and the compare page shows the
server's absolute path of a card file" -- so the report and the web Lab are
checked in a real browser: a loading sign while a report or a comparison is
made (held back here until the sign has been seen), runs by name (the
designer's, else what the run plays) with the id in the tooltip, plots with
their alt text, and no path of the server's data folder on any page.

The page is served by a small app that includes only the lab router (and the
static files), the way the main app will include it.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import sqlalchemy as sa
import uvicorn
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from bestiary.server.i18n_api import router as i18n_router
from bestiary.server.lab import WEB, lab_router

from .conftest import BROWSER_MARKS

pytestmark = BROWSER_MARKS
SHIPPED = Path(__file__).resolve().parents[2] / "bestiary/games/meat/data/cards.toml"
TOKEN = "the-operators-lab-token"


class Lab(NamedTuple):
    url: str
    folder: Path  # the server's data folder: no page may show where it is


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    folder = tmp_path_factory.mktemp("lab")
    (folder / "lab" / "cards").mkdir(parents=True)
    changed = SHIPPED.read_text(encoding="utf-8").replace("attack = 1\n", "attack = 4\n", 1)
    (folder / "lab" / "cards" / "stronger.toml").write_text(changed, encoding="utf-8")
    app = FastAPI()
    engine = sa.create_engine(f"sqlite:///{folder / 'db.sqlite3'}")
    app.include_router(lab_router(engine, folder, token=TOKEN))
    app.include_router(i18n_router)  # the page's words in its language, as the app serves them
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
    yield Lab(f"http://127.0.0.1:{port}", folder)
    server.should_exit = True
    thread.join(10)


def start_run(page: Any, cards: str, name: str = "") -> None:
    page.select_option("#game", "meat")
    page.fill("#seats", "random,random")
    page.select_option("#cards", cards)
    page.fill("#games", "4")
    page.fill("#run-name", name)
    page.click("#start")


class Held:
    """The first request whose URL matches, held back until ``release()``:
    the page's loading sign can be seen however fast the server answers."""

    def __init__(self, page: Any, pattern: str) -> None:
        self.page, self.pattern = page, re.compile(pattern)
        self.routes: list[Any] = []
        page.route(self.pattern, self.hold)

    def hold(self, route: Any) -> None:
        self.routes.append(route)  # answered by release()

    def release(self) -> None:
        while not self.routes:
            self.page.wait_for_timeout(20)
        self.routes[0].continue_()
        self.page.unroute(self.pattern)


def loading_sign_shows_until_loaded(page: Any, held: Held, words: str, loaded: Any) -> None:
    """While the frame waits for its page: the words in the status line and
    the frame busy; once the page is in (``loaded`` is there): neither."""
    page.wait_for_function("document.getElementById('report-status').textContent.length > 0")
    status = page.locator("#report-status")
    assert status.get_attribute("role") == "status" and status.inner_text() == words
    assert status.is_visible()
    assert page.get_attribute("#report-frame", "aria-busy") == "true"
    held.release()
    loaded.wait_for(timeout=60_000)
    page.wait_for_function("document.getElementById('report-status').textContent === ''")
    assert page.get_attribute("#report-frame", "aria-busy") == "false"


def no_server_paths(lab: Lab, *html: str) -> None:
    for text in html:
        assert str(lab.folder) not in text and "/lab/cards/" not in text


def test_lab_page_runs_reports_and_compares(lab: Lab, browser: Any) -> None:
    page = browser.new_page()
    try:
        page.goto(f"{lab.url}/lab")
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
        start_run(page, "stronger.toml", "stronger Acolyte")
        page.wait_for_function(
            "document.querySelectorAll('#runs tr[data-status=done]').length === 2", timeout=120_000
        )
        rows = page.locator("#runs tr")
        assert rows.count() == 2
        assert "stronger.toml" in rows.nth(0).inner_text()  # newest first
        assert "4/4" in rows.nth(1).inner_text()
        # runs by name, their ids in the tooltip: the designer's name, else what it plays
        names = page.locator("#runs td.run-name")
        assert names.nth(0).inner_text() == "stronger Acolyte"
        title = page.locator("#game option[value=meat]").inner_text()
        shown = names.nth(1).inner_text()
        plays = f"{title} · shipped cards · random vs random · 4 games · "
        assert shown.startswith(plays) and re.fullmatch(r"\d\d:\d\d", shown[len(plays) :]), shown
        for k in (0, 1):
            assert (
                names.nth(k).get_attribute("title")
                == f"run {rows.nth(k).get_attribute('data-run')}"
            )
        assert rows.nth(0).locator("input[name=b]").get_attribute("aria-label") == (
            "run stronger Acolyte as B"
        )
        download = rows.nth(0).locator("a.report-file").get_attribute("href")
        assert download is not None and download.endswith("/report.html")
        # a report opens in the page's frame, with its sections and plots, a
        # loading sign while it is made
        held = Held(page, r"/api/lab/runs/[0-9a-f]+/report\?")
        rows.nth(0).locator("button.report").click()
        frame = page.frame_locator("#report-frame")
        plots = frame.locator("img.plot")
        loading_sign_shows_until_loaded(page, held, "Making the report…", plots.first)
        assert frame.locator("section#game").count() == 1
        assert frame.locator("h1").inner_text() == "stronger Acolyte"
        assert frame.locator("section#seats img.plot").count() >= 1
        assert plots.count() >= 3
        for k in range(plots.count()):  # each plot says what it shows, and is drawn
            assert plots.nth(k).get_attribute("alt").strip()
            assert plots.nth(k).evaluate("img => img.complete && img.naturalWidth > 0")
        report = page.frame(url=re.compile(r"/report\?")).content()
        no_server_paths(lab, report)
        # compare: A = shipped, B = the changed card file
        assert page.is_disabled("#compare")
        rows.nth(1).locator("input[name=a]").check()
        rows.nth(0).locator("input[name=b]").check()
        held = Held(page, r"/api/lab/compare\?")
        page.click("#compare")
        metrics = frame.locator("section#metrics")
        loading_sign_shows_until_loaded(page, held, "Making the comparison…", metrics)
        assert "card files" in frame.locator("section#runs").inner_text()
        assert "stronger Acolyte" in frame.locator("section#change").inner_text()
        compared = page.frame(url=re.compile(r"/compare\?")).content()
        no_server_paths(lab, compared, page.content())
        # a bad request is shown on the page, not thrown away
        page.fill("#seats", "random")
        page.click("#start")
        page.wait_for_function("document.getElementById('run-error').textContent.length > 0")
        assert "seats" in page.inner_text("#run-error")
    finally:
        page.close()


def test_lab_page_fits_a_phone_and_names_variants_in_the_pages_language(
    lab: Lab, browser: Any
) -> None:
    """Issue 28: the web Lab "checked in a real browser". On a 390 px phone the
    page scrolled sideways (the runs table, 519 px wide); it now scrolls in its
    own box. A variant's name is shown in the page's language ("standardowy")."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_init_script("localStorage.setItem('bestiary:lang', 'pl')")
    page = ctx.new_page()
    try:
        page.goto(f"{lab.url}/lab")
        page.wait_for_selector("#token-form", state="visible")
        page.fill("#token", TOKEN)
        page.click("#sign-in-button")
        page.wait_for_selector("body[data-ready='1']")
        start_run(page, "")
        page.wait_for_selector("#runs tr")
        wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1], wide
        page.select_option("#game", "meat")
        assert page.locator("#variant option").all_inner_texts() == ["standardowy"]
    finally:
        ctx.close()
