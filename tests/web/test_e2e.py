"""End to end in headless Chromium (Debian's, driven by Playwright through
``executable_path``; BESTIARY_CHROMIUM is exported by scripts/services.sh).

Issue 6: "open the lobby, start a taxonomy game with three bots, play it to
the end by clicking, and save a screenshot". Until the taxonomy game loads,
the same walk is made with the toy game on the generic table page.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bestiary.engine import get_game

from ..server.conftest import loadable_games
from ..server.serving import ROOT, free_port, serve

CHROMIUM = os.environ.get("BESTIARY_CHROMIUM")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = ROOT / "artifacts"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM, reason="BESTIARY_CHROMIUM is not set (no chromium)"),
]

GAME = "taxonomy" if "taxonomy" in loadable_games() else "toy"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("e2e") / "e2e.sqlite3")
    port = free_port()
    proc = serve(GAME, db, port, bot_delay=0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def test_lobby_to_the_end_of_a_game_by_clicking(server: str, browser: Any) -> None:
    game = get_game(GAME)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.wait_for_selector(f"#game option[value='{GAME}']", state="attached")
    page.fill("#name", "Tester")
    page.select_option("#game", GAME)
    players = 4 if 4 in game.allowed_players() else game.default_players
    page.select_option("#players", str(players))
    kinds = page.locator(".seat-kind")
    assert kinds.count() == players
    assert kinds.nth(0).input_value() == "human"
    assert all("bot:" in kinds.nth(i).input_value() for i in range(1, players))
    page.click("#create")
    page.wait_for_url("**/table/**")
    page.wait_for_selector("#conn[data-state='connected']")
    clicks = 0
    for _ in range(3000):
        if page.evaluate("document.body.dataset.over") == "yes":
            break
        button = page.locator("#board [data-action]:not([disabled])").first
        if button.count():
            try:
                button.click(timeout=1000)
                clicks += 1
            except Exception:  # re-rendered under the cursor: try the fresh one
                pass
        page.wait_for_timeout(30)
    assert page.evaluate("document.body.dataset.over") == "yes", "the game did not finish"
    assert clicks > 0
    page.wait_for_selector("#result-panel:not([hidden])")
    assert page.locator("#result table.scores tbody tr").count() == players
    assert page.locator("#log li").count() > 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"e2e-{GAME}-end.png"), full_page=True)

    # The replay viewer steps back to the deal and forward to the end.
    page.click("#open-replay")
    page.wait_for_selector("#replay-panel:not([hidden])")
    page.click("#rp-first")
    assert "the deal" in page.inner_text("#rp-label")
    page.click("#rp-next")
    assert page.inner_text("#rp-label").startswith("move 1 of ")
    page.screenshot(path=str(ARTIFACTS / f"e2e-{GAME}-replay.png"), full_page=True)
    assert not errors, errors
    table_id = page.url.rsplit("/", 1)[-1].split("#")[0]
    info = httpx.get(f"{server}/api/tables/{table_id}").json()
    assert info["status"] == "finished" and info["seats"][0]["name"] == "Tester"


def test_a_friend_joins_through_the_invitation_link(server: str, browser: Any) -> None:
    """Share the link: a second browser takes the free seat, and both see the
    table start; a third person watching gets no action buttons."""
    game = get_game(GAME)
    players = game.allowed_players()[0]
    seats = [{"kind": "human"}] * 2 + [{"kind": "bot", "agent": "random"}] * (players - 2)
    table = httpx.post(f"{server}/api/tables", json={"game": GAME, "seats": seats}).json()
    alice, bob, carol = (browser.new_context() for _ in range(3))
    try:
        pa, pb, pc = alice.new_page(), bob.new_page(), carol.new_page()
        for p in (pa, pb):
            p.goto(f"{server}/")
            p.evaluate("localStorage.setItem('bestiary:name', 'friend')")
        pa.goto(f"{server}/table/{table['id']}")
        pa.click("li[data-seat='0'] .take-seat")
        pa.wait_for_selector("#conn[data-state='connected']")
        invite = pa.input_value("#invite")
        pb.goto(invite)
        pb.click("li[data-seat='1'] .take-seat")
        pb.wait_for_selector("#conn[data-state='connected']")
        pa.wait_for_function("document.title.length > 0 && !document.querySelector('.take-seat')")
        pc.goto(invite)
        pc.wait_for_selector("#conn[data-state='connected']")
        assert pc.inner_text("#conn") == "watching"
        assert pc.locator("#board [data-action]").count() == 0
        for _ in range(200):  # someone (whoever the game calls first) gets buttons
            if (
                pa.locator("#board [data-action]").count()
                + pb.locator("#board [data-action]").count()
            ):
                break
            pa.wait_for_timeout(50)
        else:
            raise AssertionError("no seat was offered an action")
    finally:
        for ctx in (alice, bob, carol):
            ctx.close()


def test_artifacts_folder_is_ignored_by_git() -> None:
    assert "/artifacts/" in Path(ROOT / ".gitignore").read_text()
