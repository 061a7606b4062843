"""Every game played to its end through the page, in English and in Polish,
at a phone's, a tablet's and a desktop's size.

Issue 26, done when: "A browser test plays every game to the end at 390×844,
768×1024 and 1366×768, in English and in Polish, as a scripted player, and
asserts: the hand and the prompt are inside the first viewport; no element
is wider than the viewport; every visible text in Polish mode comes from the
Polish catalog (no English fallback; a list of allowed proper names only)".

One table per game and language: the page in seat 0 against bots that answer
at once, a fixed seed. The scripted player (scripted_player.js, in the page)
looks at each decision and names a legal control; the test taps it (phone)
or clicks it. The size changes after every decision — phone, tablet,
desktop, phone… — and the first decision made from the hand is measured at
all three, so each size sees the hand. The rulebooks' own options keep the
games short (each game's ``Setup`` says which); the seeds end them sooner.
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import TimeoutError as NoAnswer

from ..server.conftest import loadable_games
from ..server.serving import running
from .conftest import BROWSER_MARKS
from .polish_words import english_in, proper_names

pytestmark = BROWSER_MARKS

PLAYER = Path(__file__).with_name("scripted_player.js")
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}
DESKTOP = {"width": 1366, "height": 768}
SIZES = [PHONE, TABLET, DESKTOP]
NAME = "Ana"  # the person's name at every table


@dataclass(frozen=True)
class Setup:
    """A short game: who sits, the options, the seed, and which controls the
    scripted player prefers (first match wins; any legal control last)."""

    prompt: str  # the game's "what to do now" line
    hand: str  # the seat's hand
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    bot: str = "random"
    prefer: tuple[str, ...] = ()


GAMES = {
    # A duel of 3 vitality a side (the rulebook's 25 is an option): the
    # first battle won ends it. A creature is laid by picking it, then a lane.
    "meat": Setup(
        ".meat-prompt",
        ".meat-hand",
        seed=8,
        options={"vitality_1v1": 3},
        prefer=(
            "#board .meat-leader-card",
            "#board .meat-place",
            "#board .meat-card[draggable='true']",
        ),
    ),
    # One dungeon with the treasure room 20p in (the rulebook's options: how
    # many dungeons, how far the treasure).
    "monster-maker": Setup(
        ".mm-prompt",
        ".mm-hand",
        seed=7,
        options={"max_dungeons": 1, "treasure_distance": 20},
        prefer=("#board .mm-place",),
    ),
    # Only the final Era (the Era stack is an option): hands come from the
    # Gene Pool, which is not reshuffled, so a few generations end it.
    "teratozoic": Setup(
        ".tz-prompt",
        ".tz-hand",
        seed=2,
        options={"eras": "Teratozoic Era"},
    ),
    # One round (the option rules v0.1 plays: "rounds in a game"). The
    # heuristic bot collects to win, so the round ends long before the stock.
    "taxonomy": Setup(
        ".prompt",
        ".tx-hand",
        seed=20,
        options={"rounds": 1},
        bot="heuristic",
        prefer=(
            "#board [data-action='win']",
            "#board [data-action^='claim ']",
            "#board [data-action^='keep ']",
        ),
    ),
}
ANY_CONTROL = "#board [data-action]"
TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("to-the-end") / "tables.sqlite3")
    with running("monster-maker", db, bot_delay=0) as url:
        warm_the_bots(url)
        yield url


def warm_the_bots(server: str) -> None:
    """A search bot thinks in a worker process, which starts by importing
    every game (seconds). A Taxonomy table where that bot moves first (the
    dealer, seat 0) starts one now, while the other games are played; the
    idle worker then serves Taxonomy's games, which come last."""
    seats = [{"kind": "bot", "agent": GAMES["taxonomy"].bot}, {"kind": "human"}]
    made = httpx.post(
        f"{server}/api/tables",
        json={"game": "taxonomy", "seats": seats, "seed": 1, "options": {"rounds": 1}},
        headers={"X-Bestiary-Client": secrets.token_hex(8)},
    )
    assert made.status_code == 201, made.text
    joined = httpx.post(f"{server}/api/tables/{made.json()['id']}/join", json={"seat": 1})
    assert joined.status_code == 200, joined.text


@pytest.fixture(scope="module")
def pages(browser: Any) -> Iterator[dict[str, Any]]:
    """One page per language, kept for the module: a touch screen whose size
    the test changes, with the scripted player in every page it loads."""
    made: dict[str, Any] = {}
    contexts = []
    for lang in ("en", "pl"):
        ctx = browser.new_context(viewport=PHONE, has_touch=True)
        contexts.append(ctx)
        # The scripted games press each move once: no confirmation step.
        ctx.add_init_script(
            f"localStorage.setItem('bestiary:lang', '{lang}');"
            " localStorage.setItem('bestiary.confirm', '0');"
        )
        ctx.add_init_script(path=str(PLAYER))
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.errors = errors
        made[lang] = page
    yield made
    for ctx in contexts:
        ctx.close()


def seat_at_a_new_table(server: str, game: str, setup: Setup) -> str:
    """A table with the person in seat 0 and one bot: the seat link to open."""
    if game not in loadable_games():
        pytest.skip(f"{game} does not load yet")
    seats = [{"kind": "human"}, {"kind": "bot", "agent": setup.bot}]
    body = {"game": game, "seats": seats, "seed": setup.seed, "options": setup.options}
    made = httpx.post(
        f"{server}/api/tables", json=body, headers={"X-Bestiary-Client": secrets.token_hex(8)}
    )
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    joined = httpx.post(f"{server}/api/tables/{table}/join", json={"seat": 0, "name": NAME})
    assert joined.status_code == 200, joined.text
    # The seat link moves the seat to this page (js/table.js adoptSeatLink).
    return f"{server}/table/{table}#seat=0.{joined.json()['token']}"


# BESTIARY_PLAY_SHOTS=DIR keeps a screenshot of every fifth decision and of the
# end (DIR/<game>-<lang>-<n>.png), for a person to look at what was played.
SHOTS = os.environ.get("BESTIARY_PLAY_SHOTS")


def shoot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def play_to_the_end(page: Any, setup: Setup, moves: int = 80, name: str = "game") -> int:
    """Decide until the result shows; the number of moves made. The n-th
    move's choice comes from (seed, n), so a press that missed (the page drew
    itself again under the finger) changes no later choice."""
    prefer = [*setup.prefer, ANY_CONTROL]
    size = 0
    page.set_viewport_size(SIZES[size])
    all_sizes_seen = False
    made = 0
    missed = 0
    for turn in range(moves * 3):
        got = page.evaluate(
            "([prompt, hand, label]) => scripted.look(prompt, hand, label)",
            [setup.prompt, setup.hand, f"decision {turn}"],
        )
        if got.get("over"):
            return made
        if got.get("wait"):
            page.wait_for_function("() => scripted.ready(-1)", polling="raf", timeout=30000)
            continue
        if got["fromHand"] and not all_sizes_seen:
            # The first decision made from the hand: the other two sizes too.
            for other in (1, 2):
                page.set_viewport_size(SIZES[(size + other) % 3])
                page.evaluate(
                    "([prompt, hand, label]) => scripted.look(prompt, hand, label)",
                    [setup.prompt, setup.hand, f"decision {turn}"],
                )
            page.set_viewport_size(SIZES[size])
            all_sizes_seen = True
        if made % 5 == 0:
            shoot(page, f"{name}-{made:03d}-{SIZES[size]['width']}")
        r = random.Random(setup.seed * 1000 + made).random()
        press = page.evaluate("([r, prefer]) => scripted.pick(r, prefer)", [r, prefer])
        assert press is not None, f"decision {turn}: the page offers no control"
        assert press["covered"] is None, f"{press['what']} is covered by {press['covered']}"
        if SIZES[size] is PHONE:
            page.touchscreen.tap(press["x"], press["y"])
        else:
            page.mouse.click(press["x"], press["y"])
        if press["action"] and sent_a_move(page, got["moves"]):
            made += 1
            assert made <= moves, f"no end after {moves} moves"
            page.wait_for_function(
                "(mark) => scripted.ready(mark)", arg=got["mark"], polling="raf", timeout=30000
            )
        elif press["action"]:  # it should have sent a move: look again
            missed += 1
            assert missed <= 5, f"decision {turn}: {press['what']} does not answer"
            continue
        else:  # a card picked to be placed: the page marks it in the next frames
            page.evaluate(TWO_FRAMES)
        size = (size + 1) % 3
        page.set_viewport_size(SIZES[size])
    raise AssertionError(f"no end after {moves * 3} looks")


def sent_a_move(page: Any, before: int) -> bool:
    """Whether the press sent a move (a tap's click may come a moment after
    the touch; a press that missed sends nothing)."""
    try:
        page.wait_for_function(
            "(before) => scripted.seen.moves > before", arg=before, polling="raf", timeout=2000
        )
    except NoAnswer:
        return False
    return True


def check_the_end(page: Any) -> None:
    """At every size the result and the Rematch button are on the first
    screen; then the Table menu opens for its words to be read."""
    for size in SIZES:
        page.set_viewport_size(size)
        page.evaluate(
            "() => { scripted.collectTexts(); scripted.checkLayout("
            "[['the result', '#result-panel'], ['Rematch', '#rematch']], 'the end'); }"
        )
    page.click("#menu-open")
    page.wait_for_selector("#table-menu:not([hidden])")
    page.evaluate("scripted.collectTexts()")
    page.keyboard.press("Escape")


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_plays_to_its_end_at_every_size(
    server: str, pages: dict[str, Any], game: str, lang: str
) -> None:
    """Issue 26: "the hand and the prompt are inside the first viewport; no
    element is wider than the viewport; every visible text in Polish mode
    comes from the Polish catalog" — at every decision of a whole game, and
    the result with Rematch on the first screen at its end (each size)."""
    setup = GAMES[game]
    page = pages[lang]
    del page.errors[:]
    page.set_viewport_size(PHONE)
    page.goto(seat_at_a_new_table(server, game, setup))
    made = play_to_the_end(page, setup, name=f"{game}-{lang}")
    page.wait_for_selector("#result-panel:not([hidden])")
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        shoot(page, f"{game}-{lang}-end-{size['width']}")
    check_the_end(page)
    assert made > 0
    problems = page.evaluate("scripted.problems()")
    assert not problems, "\n".join(problems[:20])
    measured = page.evaluate("scripted.measured()")
    for size in SIZES:
        key = f"{size['width']}x{size['height']}"
        assert measured.get(key), f"no decision from the hand was measured at {key}: {measured}"
    assert not page.errors, page.errors
    if lang == "pl":
        names = (*proper_names(game), NAME)
        english: dict[tuple[str, tuple[str, ...]], str] = {}  # one text per place and words
        for text, where in page.evaluate("scripted.texts()"):
            if words := english_in(text, names):
                english.setdefault((where, tuple(words)), text)
        lines = [f"{where}: {text!r} has {list(w)}" for (where, w), text in english.items()]
        assert not lines, "English on the Polish page:\n" + "\n".join(lines[:30])


def test_the_polish_check_catches_an_english_fallback() -> None:
    """The check above is strict enough to see English where Polish belongs:
    a button, the turn bar and a variant's name left in English fail it; the
    same texts in Polish, with the cards' and the players' names, pass."""
    names = (*proper_names("monster-maker"), NAME)
    assert english_in("Discard", names) == ["discard"]
    assert english_in("Your turn", names) == ["your", "turn"]
    assert english_in("Monster Maker · standard · ruch 4", names) == ["standard"]
    assert english_in("Ana plays Corridor 10 before seat 1", names) == [
        "plays",
        "corridor",
        "before",
        "seat",
    ]
    assert english_in("Odrzuć kartę", names) == []
    assert english_in("Twój ruch.", names) == []
    assert english_in("Monster Maker · standardowy · ruch 4", names) == []
    # Monster Maker's card names are Polish on a Polish page: an English one is a fallback.
    assert english_in("Ana dobiera kartę Giant Rat (siła 8)", names) == ["giant", "rat"]
    assert english_in("Ana dobiera Olbrzymiego Szczura (siła 8)", names) == []
