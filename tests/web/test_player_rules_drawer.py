"""The page's Rules panel and the lobby's "How to play" (issue 26, "The table, for
players": the Rules panel showed RULES.md, "the engine's specification, in English
even in Polish mode"; now "the player guide first, in the page's language, with a
link to the engine's specification", and "a 'How to play' link per game")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ..server.serving import running
from .conftest import BROWSER_MARKS

pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("guide") / "guide.sqlite3")
    with running("taxonomy", db, bot_delay=0) as url:
        yield url


def _page(browser: Any, server: str, lang: str) -> Any:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(server + "/")
    page.evaluate(f"localStorage.setItem('bestiary:lang', '{lang}')")
    page.reload()
    return page


def _body_has(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => (document.querySelector('#rules-body') || {}).innerText?.includes(t)", arg=text
    )


@pytest.mark.parametrize(
    ("lang", "guide", "button"),
    [
        ("en", "How to win", "How to play"),
        ("pl", "Jak wygrać", "Jak grać"),
    ],
)
def test_the_lobby_and_the_table_open_the_guide_in_the_pages_language(
    server: str, browser: Any, lang: str, guide: str, button: str
) -> None:
    page = _page(browser, server, lang)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.wait_for_selector("#game option[value='teratozoic']", state="attached")
    page.select_option("#game", "teratozoic")
    link = page.locator("button.how-to-play")
    assert link.inner_text() == button
    link.click()
    _body_has(page, guide)
    assert "Teratozoic" in page.inner_text("#rules-body")
    assert "<!--" not in page.inner_text("#rules-body")  # citations stay in the source
    # the engine's specification is one button away, and back again
    page.click("#rules-spec")
    _body_has(page, "Teratozoic — the rules as implemented")
    page.click("#rules-guide")
    _body_has(page, guide)
    page.click("#rules-close")
    # another game's link opens that game's guide
    page.select_option("#game", "taxonomy")
    page.click("button.how-to-play")
    _body_has(page, "Beastman")
    page.click("#rules-close")
    # at a table: the Rules button shows the same guide first
    page.click("#create")
    page.wait_for_url("**/table/**")
    page.click("#rules-open")
    _body_has(page, guide)
    assert page.locator("#rules-spec").count() == 1
    assert not errors, errors
    page.close()
