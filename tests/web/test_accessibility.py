"""An accessibility scan of the lobby and of every game's table (issue 26,
"Done when": "An accessibility scan (axe-core, run in that browser) reports
no serious or critical violation on the lobby and on each game's table").

axe-core is the script the ``axe-playwright-python`` package ships (a dev
dependency); it runs inside the same headless Chromium as the other browser
tests, on the page as a player sees it (a seat taken, bots in the others),
at desktop and phone width, in English and Polish.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..server.conftest import loadable_games
from ..server.serving import running
from .conftest import BROWSER_MARKS

pytestmark = BROWSER_MARKS

GAMES = ["taxonomy", "monster-maker", "meat", "teratozoic"]
SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
BAD = ("serious", "critical")


def _axe_script() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("a11y") / "tables.sqlite3")
    with running("taxonomy", db, bot_delay=0.3) as url:
        yield url


def _violations(page: Any) -> list[str]:
    page.evaluate(_axe_script())
    found = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['impact']}: {v['id']} ({v['help']}) at "
        + "; ".join(" ".join(n["target"]) for n in v["nodes"][:4])
        for v in found["violations"]
        if v["impact"] in BAD
    ]


def _page(browser: Any, size: str, lang: str) -> tuple[Any, Any]:
    phone = size == "phone"
    ctx = browser.new_context(viewport=SIZES[size], is_mobile=phone, has_touch=phone, locale=lang)
    page = ctx.new_page()
    return ctx, page


def _set_language(page: Any, lang: str) -> None:
    """The page's own EN | PL switch, as a player would use it (stored)."""
    page.evaluate(f"localStorage.setItem('bestiary:lang', {json.dumps(lang)})")


# Each page at both sizes, each size in one of the languages (the scan is
# slow: a full cross of sizes and languages would double the time for little).
LOOKS = [("desktop", "en"), ("phone", "pl")]


@pytest.mark.parametrize(("size", "lang"), LOOKS)
def test_the_lobby_has_no_serious_accessibility_violation(
    server: str, browser: Any, size: str, lang: str
) -> None:
    ctx, page = _page(browser, size, lang)
    try:
        page.goto(server + "/")
        _set_language(page, lang)
        page.goto(server + "/")
        page.wait_for_load_state("networkidle")
        assert _violations(page) == []
    finally:
        ctx.close()


@pytest.mark.parametrize(("size", "lang"), LOOKS)
@pytest.mark.parametrize("game", GAMES)
def test_each_table_has_no_serious_accessibility_violation(
    server: str, browser: Any, game: str, size: str, lang: str
) -> None:
    if game not in loadable_games():
        pytest.skip(f"{game} does not load")
    from bestiary.engine import get_game

    players = min(get_game(game).allowed_players())
    seats = [{"kind": "human", "name": "Ada"}] + [
        {"kind": "bot", "agent": "random"} for _ in range(players - 1)
    ]
    r = httpx.post(f"{server}/api/tables", json={"game": game, "seats": seats, "seed": 7})
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    joined = httpx.post(f"{server}/api/tables/{table}/join", json={"seat": 0, "name": "Ada"})
    assert joined.status_code == 200, joined.text
    ctx, page = _page(browser, size, lang)
    try:
        page.goto(server + "/")
        _set_language(page, lang)
        saved = json.dumps({"seat": 0, "token": joined.json()["token"]})
        page.evaluate(f"localStorage.setItem('bestiary:seat:{table}', {json.dumps(saved)})")
        page.goto(f"{server}/table/{table}")
        page.wait_for_selector("#conn[data-state='connected']")
        page.wait_for_timeout(300)  # the first update drawn
        assert _violations(page) == []
    finally:
        ctx.close()
