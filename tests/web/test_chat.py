"""Table chat on the page (issue 26): "a quick message reads in the reader's
language" and free text "shown as text, never HTML"; the chat panel is
accessible ("labels, aria-live polite for new messages") and a "mute chat"
switch in the Table menu hides it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ..server.serving import running
from .conftest import BROWSER_MARKS

pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("chat") / "chat.sqlite3")
    with running("toy", db, bot_delay=0.0) as url:
        yield url


def _seated(server: str, browser: Any, table: str, seat: int, name: str, lang: str) -> Any:
    """A page of its own (browser context) in ``lang`` holding ``seat``."""
    joined = httpx.post(f"{server}/api/tables/{table}/join", json={"seat": seat, "name": name})
    assert joined.status_code == 200, joined.text
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    ctx.add_init_script(f"localStorage.setItem('bestiary:lang', '{lang}')")
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{server}/table/{table}#seat={seat}.{joined.json()['token']}")
    page.wait_for_selector("#conn[data-state='connected']")
    return page


def test_a_quick_message_reads_in_the_readers_language_and_text_stays_text(
    server: str, browser: Any
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}]
    table = httpx.post(f"{server}/api/tables", json={"game": "toy", "seats": seats}).json()["id"]
    ann = _seated(server, browser, table, 0, "Ann", "en")
    ola = _seated(server, browser, table, 1, "Ola", "pl")
    try:
        assert ola.get_attribute("#chat-list", "aria-live") == "polite"
        assert ola.inner_text("label[for='chat-input']") == "Wiadomość"
        ann.click("#chat-quick [data-quick='gg']")
        ola.wait_for_selector("#chat-list .chat-line")
        assert ola.inner_text("#chat-list .chat-line .chat-text") == "Dobra gra!"
        assert ola.inner_text("#chat-list .chat-line .chat-name") == "Ann:"
        ann.wait_for_selector("#chat-list .chat-line")
        assert ann.inner_text("#chat-list .chat-line .chat-text") == "Good game!"

        # "free text ... shown as text, never HTML".
        ann.fill("#chat-input", "<b>x</b>")
        ann.press("#chat-input", "Enter")
        ola.wait_for_function("document.querySelectorAll('#chat-list .chat-line').length === 2")
        last = ola.locator("#chat-list .chat-line .chat-text").nth(1)
        assert last.text_content() == "<b>x</b>"
        assert ola.locator("#chat-list b").count() == 0
        assert ann.input_value("#chat-input") == ""  # sent: the field is cleared

        # A reconnecting page (a reload) gets the table's chat again.
        ola.reload()
        ola.wait_for_function("document.querySelectorAll('#chat-list .chat-line').length === 2")

        # "Off for a seat that mutes it": the Table menu's switch hides the
        # messages and the text field; the quick buttons stay.
        ola.click("#menu-open")
        ola.check("#chat-mute")
        ola.click("#menu-close")
        assert ola.is_hidden("#chat-list") and ola.is_hidden("#chat-form")
        assert ola.is_visible("#chat-quick [data-quick='well_played']")
        ann.click("#chat-quick [data-quick='thinking']")
        ann.wait_for_function("document.querySelectorAll('#chat-list .chat-line').length === 3")
        assert ola.locator("#chat-list .chat-line").count() == 0
        assert not ann.errors and not ola.errors, ann.errors + ola.errors
    finally:
        ann.context.close()
        ola.context.close()
