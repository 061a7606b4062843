"""Undo on the table page (issue 26): "undo of your own last move until the
next seat has acted, on the page and in the terminal (bots wait a short,
configurable beat so that undo is real)". The turn bar offers it while the
server says it may (``can_undo``), by click or Ctrl+Z, in the page's language;
the page then shows the position as it was and says so in the log."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ..server.serving import running
from .conftest import BROWSER_MARKS

pytestmark = BROWSER_MARKS
ACTIONS = "els => els.map(e => e.dataset.action)"  # the moves a page offers


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("undo") / "undo.sqlite3")
    with running("toy", db, bot_delay=30.0) as url:  # the bots' beat outlasts the test
        yield url


def test_a_move_is_taken_back_on_the_page(server: str, browser: Any) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * 2
    table = httpx.post(f"{server}/api/tables", json={"game": "toy", "seats": seats}).json()["id"]
    joined = httpx.post(f"{server}/api/tables/{table}/join", json={"seat": 0, "name": "Ola"})
    token = joined.json()["token"]
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script("localStorage.setItem('bestiary:lang', 'pl')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server}/table/{table}#seat=0.{token}")
        page.wait_for_selector("#conn[data-state='connected']")
        page.wait_for_selector("#board [data-action]")
        assert page.is_hidden("#undo")  # nothing of one's own to take back yet
        actions = page.eval_on_selector_all("#board [data-action]", ACTIONS)
        lines = page.locator("#log li").count()

        page.click(f"#board [data-action='{actions[0]}']")
        page.wait_for_selector("#undo:not([hidden])")
        assert page.inner_text("#undo") == "cofnij"
        assert "Ctrl+Z" in (page.get_attribute("#undo", "title") or "")
        assert page.locator("#board [data-action]").count() == 0  # the bid waits for the others

        # By keyboard: Ctrl+Z takes it back.
        page.keyboard.press("Control+z")
        page.wait_for_selector("#log li.notice")
        assert page.inner_text("#log li.notice") == "Cofnięto twój ruch."
        page.wait_for_selector("#undo[hidden]", state="attached")
        again = page.eval_on_selector_all("#board [data-action]", ACTIONS)
        assert again == actions  # the position as it was: the same bids on offer
        assert page.locator("#log li:not(.notice)").count() == lines
        assert httpx.get(f"{server}/api/tables/{table}").json()["moves"] == 0

        # And by the button: another bid, taken back with a click.
        page.click(f"#board [data-action='{actions[1]}']")
        page.wait_for_selector("#undo:not([hidden])")
        page.click("#undo")
        page.wait_for_selector("#undo[hidden]", state="attached")
        page.wait_for_function("document.querySelectorAll('#board [data-action]').length > 0")
        assert httpx.get(f"{server}/api/tables/{table}").json()["moves"] == 0
        assert not errors, errors
    finally:
        ctx.close()
