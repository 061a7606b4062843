"""The taxonomy web page (bestiary/web/games/taxonomy.js) in headless Chromium:
what a seat that is not asked about a discard sees (RULES.md reading 22), and
the claimer's choice of the laid set (reading 11). The page's files are served
straight from the package through Playwright's routing (no server process)."""

from __future__ import annotations

import mimetypes
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import bestiary
from bestiary.games.taxonomy.rules import TaxonomyState

from ...web.conftest import ARGS, BROWSER_MARKS, CHROMIUM
from .helpers import arrange, state
from .test_claims import MOLLUSK3, OTHER_UNDEAD3, UNDEAD3, world

pytestmark = BROWSER_MARKS
WEB = Path(bestiary.__file__).parent / "web"
ORIGIN = "http://bestiary.test"


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    from playwright.sync_api import Route, sync_playwright

    def serve(route: Route) -> None:
        path = route.request.url[len(ORIGIN) :].split("?")[0]
        if path.startswith("/static/"):
            file = WEB / path[len("/static/") :]
            if file.is_file():
                kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
                if file.suffix == ".js":
                    kind = "text/javascript"
                route.fulfill(body=file.read_bytes(), content_type=kind)
                return
            route.fulfill(status=404, body="")
            return
        route.fulfill(body="<!doctype html><html><body></body></html>", content_type="text/html")

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = browser.new_page()
        pg.route(f"{ORIGIN}/**", serve)
        pg.goto(f"{ORIGIN}/")
        yield pg
        browser.close()


def draw(page: Any, st: TaxonomyState, seat: int) -> str:
    """The page of ``seat`` as the server would send it; returns the board's HTML."""
    legal = [str(a) for a in st.legal(seat)]
    data = {"game": "taxonomy", "seat": seat, "view": st.view(seat), "legal": legal}
    data["yourTurn"] = bool(legal)
    return str(
        page.evaluate(
            """async (state) => {
                const m = await import('/static/games/taxonomy.js');
                const {h} = await import('/static/js/api.js');
                const root = document.createElement('div');
                m.render(root, state, {act() {}, seat: state.seat, h,
                                       seatLabel: (s) => `seat ${s}`});
                return root.innerHTML;
            }""",
            data,
        )
    )


def test_the_page_of_a_seat_not_asked_is_the_same_whoever_may_claim(page: Any) -> None:
    """ "Each time a player discards a card he must say aloud the monster type and
    nature so that other players know if they want/can take that card." Seat 2
    cannot claim: its page must not depend on who can."""
    pages = []
    for named in (
        {0: ["Ghost"], 1: UNDEAD3, 2: MOLLUSK3},
        {0: ["Ghost"], 3: UNDEAD3, 2: MOLLUSK3},
        {0: ["Ghost"], 1: UNDEAD3, 2: MOLLUSK3, 3: OTHER_UNDEAD3},
    ):
        st, _ = world(named)
        st.apply_text(0, "discard Ghost")
        html = draw(page, st, 2)
        # The phase as the page names it (taxonomy.js PHASE_NAME): the
        # discard phase reads "draw and discard", the claim window "claiming".
        assert "phase: draw and discard" in html and "phase: claiming" not in html
        assert "tx-claim" not in html
        pages.append(html)
    assert pages[0] == pages[1] == pages[2]


def test_the_claimer_picks_the_cards_to_keep_on_the_page(page: Any) -> None:
    st = arrange(state(4), {0: ["Ghost"], 1: [*UNDEAD3, "Pharaoh"]})
    st.apply_text(0, "discard Ghost")
    st.apply_text(1, "claim Undead")
    html = draw(page, st, 1)
    for name in [*UNDEAD3, "Pharaoh"]:
        assert f'data-action="keep {name}"' in html
    assert "Choose 1 card to keep in hand" in html
