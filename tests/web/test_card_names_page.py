"""Monster Maker's and Teratozoic's cards on a Polish page have Polish names.

Their card files are English; a Polish page showed "Corridor 10" on a card
whose banner said "KORYTARZ", and a Teratozoic hand of "elbow, hip, knee". The
page now reads each name from the language's catalog (``cardName``,
web/js/cards.js; ``GET /api/i18n/pl`` carries the games' names): a real table
in Polish, seat 0 against a bot, draws its hand as "Korytarz 10", "łokieć", with
the card's ``aria-label`` the name it shows; the moves it submits stay the
English text forms.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bestiary.games.teratozoic.cards import cards_from

from ..server.serving import running
from .conftest import BROWSER_MARKS
from .test_game_pages import open_table

pytestmark = BROWSER_MARKS

GAMES = Path(__file__).resolve().parents[2] / "bestiary" / "games"


def polish(game: str) -> dict[str, str]:
    """English card name → Polish name (the game's locale/pl/nouns.toml)."""
    with (GAMES / game / "locale" / "pl" / "nouns.toml").open("rb") as fh:
        return {k: v["name"] for k, v in tomllib.load(fh).items() if "name" in v}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("cardnames") / "cardnames.sqlite3")
    with running("monster-maker", db, bot_delay=0.5) as url:
        yield url


def polish_table(server: str, browser: Any, game: str, options: dict[str, Any], seed: int) -> Any:
    """A table with the human in seat 0 and a bot (``open_table``), shown in Polish."""
    page, _table, errors = open_table(server, browser, game, ["heuristic"], options, seed)
    page.errors = errors
    page.evaluate("localStorage.setItem('bestiary:lang', 'pl')")
    page.reload()
    page.wait_for_selector("#conn[data-state='connected']")
    return page


def test_monster_maker_hand_shows_polish_names(server: str, browser: Any) -> None:
    """A hand card reads "Korytarz 10", not "Corridor 10", and says so to a
    screen reader; the corridor buttons say the Polish name and still submit
    "play Corridor 10"."""
    page = polish_table(server, browser, "monster-maker", {"max_dungeons": 1}, seed=2)
    try:
        page.wait_for_selector(".mm-hand button.mm-card svg.card")
        cards = page.eval_on_selector_all(
            ".mm-hand button.mm-card",
            "els => els.map(b => [b.dataset.card, b.querySelector('svg.card')"
            ".getAttribute('aria-label'), b.querySelector('svg.card').textContent])",
        )
        names = polish("monster_maker")
        assert cards
        for english, label, face in cards:
            said = names[english]
            assert label.startswith(said + ","), (english, label)
            assert said.split()[0] in face, (english, face)
            if said != english:
                assert english not in label and english not in face
        # Every hand has corridors; their names and buttons are Polish.
        corridors = [c for c in cards if c[0].startswith("Corridor ")]
        assert corridors and all(c[1].startswith("Korytarz ") for c in corridors)
        buttons = page.eval_on_selector_all(
            "[data-group='Corridor'] button[data-action]",
            "els => els.map(b => [b.dataset.action, b.textContent])",
        )
        for action, text in buttons:
            assert action.startswith("play Corridor ")  # the protocol stays English
            assert text.startswith("Korytarz "), text
        assert not page.errors, page.errors
    finally:
        page.context.close()


def test_teratozoic_hand_shows_polish_body_parts(server: str, browser: Any) -> None:
    """A Teratozoic hand reads "łokieć", "biodro", not "elbow", "hip": each card's
    face prints its body part in Polish and its ``aria-label`` says it."""
    page = polish_table(server, browser, "teratozoic", {"short_game": True}, seed=2)
    try:
        page.wait_for_selector(".tz-hand button.tz-card svg.card")
        page.wait_for_function(
            "[...document.querySelectorAll('.tz-hand svg.card')]"
            ".every(e => !e.getAttribute('aria-label').startsWith('karta #'))",
            timeout=10000,
        )
        cards = page.eval_on_selector_all(
            ".tz-hand button.tz-card",
            "els => els.map(b => [Number(b.dataset.card), b.querySelector('svg.card')"
            ".getAttribute('aria-label'), b.querySelector('svg.card').textContent])",
        )
        deck = cards_from("")
        names = polish("teratozoic")
        assert cards
        for card_id, label, face in cards:
            part = deck[card_id].name.split(" ", 2)[2]
            assert label.startswith(names[part] + ","), (part, label)
            assert names[part].split()[0] in face
            assert part.split()[0] not in label.split(","), (part, label)
        # The Era is named in Polish too.
        assert page.inner_text(".tz-era-name").startswith("Era ")
        # The page's own lookup of any card and part (the catalog it loaded).
        got = page.evaluate(
            "async () => { const m = await import('/static/js/cards.js');"
            " return [m.cardName('elbow'), m.cardName('orange 1 elbow'),"
            " m.cardName('Corridor 10'), m.cardName('Home-made card')]; }"
        )
        assert got == ["łokieć", "pomarańczowy łokieć 1", "Korytarz 10", "Home-made card"]
        assert not page.errors, page.errors
    finally:
        page.context.close()
