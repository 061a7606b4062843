"""Each game's table as a newcomer meets it, played to the end in headless
Chromium against bots, at desktop width and on a phone (390×844).

Issue 13, Browser: "meat: creatures placed in lanes still show in 'Your
hand'; leader choice is bare names — show each leader's effect";
"monster-maker: 'Your treasures: none yet' under your own row that lists
treasures; 'prize Prize 200'; final list numbered from 0; up to 19 action
buttons at once — group them"; "teratozoic: ... explain any game end on the
page"; "Phones: at 390 px the page scrolls sideways"; "Card and rules help on
the table page (hover/tap a card for its full text; a rules drawer with the
game's RULES.md rendered)".

Screenshots go to ``artifacts/screenshots/`` (CI artifacts, gitignored).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from bestiary.engine import Rng, get_game

from ..server.conftest import loadable_games
from ..server.serving import ROOT, running
from .conftest import BROWSER_MARKS

pytestmark = BROWSER_MARKS

SHOTS = ROOT / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
WIDTHS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
RULES = {
    "monster-maker": ROOT / "bestiary" / "games" / "monster_maker" / "RULES.md",
    "meat": ROOT / "bestiary" / "games" / "meat" / "RULES.md",
    "teratozoic": ROOT / "bestiary" / "games" / "teratozoic" / "RULES.md",
    "taxonomy": ROOT / "bestiary" / "games" / "taxonomy" / "RULES.md",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("newcomer") / "tables.sqlite3")
    with running("monster-maker", db, bot_delay=0.01) as url:
        yield url


class Seat:
    """A browser context seated at a fresh table (seat 0; bots after it)."""

    def __init__(
        self,
        server: str,
        browser: Any,
        game: str,
        bots: list[str],
        options: dict[str, Any],
        seed: int,
        viewport: dict[str, int],
    ) -> None:
        if game not in loadable_games():
            pytest.skip(f"{game} does not load yet")
        seats = [{"kind": "human", "name": "Newcomer"}] + [
            {"kind": "bot", "agent": a} for a in bots
        ]
        r = httpx.post(
            f"{server}/api/tables",
            json={"game": game, "seats": seats, "options": options, "seed": seed},
        )
        assert r.status_code == 201, r.text
        self.table = r.json()["id"]
        joined = httpx.post(
            f"{server}/api/tables/{self.table}/join", json={"seat": 0, "name": "Newcomer"}
        )
        assert joined.status_code == 200, joined.text
        phone = viewport["width"] < 600
        self.ctx = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
        self.page = self.ctx.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(server + "/")
        saved = json.dumps({"seat": 0, "token": joined.json()["token"]})
        self.page.evaluate(
            f"localStorage.setItem('bestiary:seat:{self.table}', {json.dumps(saved)})"
        )
        # A phone confirms each move (issue 26); these scripted games click straight.
        self.page.evaluate("localStorage.setItem('bestiary.confirm', '0')")
        self.page.goto(f"{server}/table/{self.table}")
        self.page.wait_for_selector("#conn[data-state='connected']")
        self.width = viewport["width"]
        self.widest = 0

    def over(self) -> bool:
        return self.page.evaluate("document.body.dataset.over") == "yes"

    def check_width(self) -> None:
        """No sideways scroll: the page is never wider than the screen."""
        w = int(self.page.evaluate("document.documentElement.scrollWidth"))
        self.widest = max(self.widest, w)
        assert w <= self.width, f"the page is {w}px wide on a {self.width}px screen"

    def shoot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        kind = "phone" if self.width < 600 else "desktop"
        self.page.screenshot(path=str(SHOTS / f"{name}-{kind}.png"), full_page=True)

    def play(
        self, choose: Callable[[Any], Any], moves: int, each: Callable[[], None] | None = None
    ) -> int:
        """Click what ``choose`` picks until the game is over (or ``moves``
        clicks), running ``each`` (checks) every few clicks."""
        clicks = 0
        for _ in range(moves * 40):
            if self.over() or clicks >= moves:
                break
            button = choose(self.page)
            if button is not None and button.count():
                try:
                    button.click(timeout=1000)
                except Exception:  # re-rendered under the cursor: try the fresh one
                    continue
                clicks += 1
                self.page.wait_for_timeout(40)
                if each and clicks % 5 == 0:
                    each()
            self.page.wait_for_timeout(25)
        return clicks

    def close(self) -> None:
        assert not self.errors, self.errors
        self.ctx.close()


def first(page: Any, *selectors: str) -> Any:
    for sel in selectors:
        b = page.locator(sel).first
        if b.count():
            return b
    return None


def show_card_help(seat: Seat, selector: str) -> str:
    """Hover a card (desktop) or long-press it (phone): its full text shows."""
    card = seat.page.locator(selector).first
    if seat.width < 600:
        card.dispatch_event("contextmenu")
    else:
        card.hover()
    seat.page.wait_for_selector("#card-help:not([hidden])")
    text = seat.page.inner_text("#card-help")
    assert text.strip()
    return text


# -- Monster Maker -----------------------------------------------------------------------


@pytest.mark.parametrize("viewport", WIDTHS)
def test_monster_maker_groups_actions_and_says_what_you_own(
    server: str, browser: Any, viewport: dict[str, int]
) -> None:
    """A one-dungeon game (max_dungeons=1, a 40p treasure room) to its end:
    the actions sit in named groups by card kind; "Your treasures" never says
    "none" while your own row lists a treasure; prizes read as gold; the final
    list is ranked from 1, best first."""
    seat = Seat(
        server,
        browser,
        "monster-maker",
        ["heuristic", "heuristic"],
        {"max_dungeons": 1, "treasure_distance": 40},
        2,
        viewport,
    )
    page = seat.page
    page.wait_for_selector(".mm-actions .action-group")
    seat.check_width()
    # Grouped: every action button sits in a titled group; a group's buttons
    # name the card, not the verb again (the title says it).
    groups = page.eval_on_selector_all(
        ".mm-actions .action-group",
        "gs => gs.map(g => [g.dataset.group, g.querySelector('.verb').textContent,"
        " [...g.querySelectorAll('button[data-action]')].map(b => b.textContent)])",
    )
    assert groups and all(title.strip() and buttons for _, title, buttons in groups), groups
    assert not any(
        b.startswith(("play ", "place ", "discard ")) for _, _, bs in groups for b in bs
    ), groups
    loose = page.locator(".mm-actions > button").count()
    assert loose == 0
    help_text = show_card_help(seat, ".mm-hand .mm-card")
    assert any(
        k in help_text for k in ("Corridor", "Monster", "Character", "Spell", "Detour", "Trap")
    ), help_text
    seat.shoot("monster-maker-start")

    problems: list[str] = []

    def each() -> None:
        seat.check_width()
        row, mine, board = page.evaluate(
            "() => { const r = document.querySelector('.mm-player.mine');"
            " const m = document.querySelector('.mm-mine');"
            " return [r ? r.querySelectorAll('.mm-treasure, .mm-gold').length : 0,"
            " m ? m.innerText : '', document.querySelector('#board').innerText]; }"
        )
        if row and "none" in mine:
            problems.append(f"own row lists {row} treasure(s), the panel says: {mine}")
        if "prize Prize" in board:
            problems.append("a prize reads 'prize Prize …'")

    def choose(p: Any) -> Any:
        return first(
            p,
            ".mm-place",
            ".mm-choices button[data-action^='place']",
            "[data-group='Battle'] button[data-action='roll']",
            "[data-group='Battle'] button[data-action^='fight with']",
            ".mm-card[data-kind='monster']:not([disabled])",
            ".mm-card[data-kind='corridor']:not([disabled])",
            "#board button[data-action]",
        )

    assert seat.play(choose, 200, each) > 0
    assert seat.over(), "the dungeon did not end"
    page.wait_for_selector(".mm-final")
    each()
    assert not problems, problems[:5]
    # Ranked from 1, best first: no "start=0", the gold never rises down the list.
    assert page.get_attribute(".mm-final ol", "start") in (None, "1")
    items = page.locator(".mm-final ol li")
    assert items.count() == 3
    golds = [
        int(x)
        for x in page.eval_on_selector_all(
            ".mm-final ol li",
            "ls => ls.map(l => (/: (\\d+) gold/.exec(l.textContent) || [0, -1])[1])",
        )
    ]
    assert golds == sorted(golds, reverse=True), golds
    result = httpx.get(f"{server}/api/tables/{seat.table}").json()["result"]
    assert page.locator(".mm-final li.winner").count() == len(result["winners"])
    seat.check_width()
    seat.shoot("monster-maker-end")
    seat.close()


# -- M.E.A.T. ----------------------------------------------------------------------------


@pytest.mark.parametrize("viewport", WIDTHS)
def test_meat_shows_leader_effects_and_a_hand_without_the_laid_creatures(
    server: str, browser: Any, viewport: dict[str, int]
) -> None:
    """A duel (vitality 6 a side) to its end: each leader is offered with
    what it does; a creature laid in a lane leaves "Your hand" at once."""
    seat = Seat(server, browser, "meat", ["heuristic"], {"vitality_1v1": 6}, 3, viewport)
    page = seat.page
    page.wait_for_selector(".meat-leader-card", timeout=15000)
    # The leaders' texts come with the card list, which may arrive after the
    # first drawing of the table; the page draws again when it does.
    page.wait_for_function(
        "() => [...document.querySelectorAll('.meat-leader-text')]"
        ".every(t => !t.textContent.startsWith('('))",
        timeout=15000,
    )
    texts = page.eval_on_selector_all(
        ".meat-leader-card .meat-leader-text", "ts => ts.map(t => t.textContent)"
    )
    catalog = httpx.get(f"{server}/api/games/meat/cards").json()
    effects = {x["text"] for x in catalog["leaders"]}
    assert texts and all(x in effects for x in texts), texts
    seat.check_width()
    seat.shoot("meat-leaders")
    chosen = page.locator(".meat-leader-card").first
    leader = page.inner_text(".meat-leader-card >> nth=0 >> strong")
    chosen.click()
    # Our own seat's leader (the bot's may be drawn first).
    page.wait_for_selector(".meat-seat[data-seat='0'] .meat-leader[data-help]")
    helps = page.eval_on_selector_all(
        ".meat-seat[data-seat='0'] .meat-leader", "ls => ls.map(l => l.dataset.help)"
    )
    assert helps and leader in helps[0] and any(e in helps[0] for e in effects), helps

    laid: list[tuple[list[str], str, list[str]]] = []

    def hand() -> list[str]:
        return page.eval_on_selector_all(
            ".meat-hand .meat-card", "cs => cs.map(c => c.dataset.card)"
        )

    def lay(p: Any, name: str, left: int) -> None:
        """Pick the creature, then a lane, until the hand holds ``left`` cards.
        A bot's update redraws the board: a press and release that land on
        two drawings of one button are no click, so a lost click is made again
        (the lane's button is there while the creature is picked)."""
        card = p.locator(f".meat-hand .meat-card[data-card={json.dumps(name, ensure_ascii=False)}]")
        for _ in range(6):
            if len(hand()) == left:
                return
            place = p.locator(".meat-place")
            if not place.count():  # pick it: the lanes offer their buttons
                with contextlib.suppress(Exception):
                    card.first.click(timeout=2000)
                    p.wait_for_selector(".meat-place", timeout=2000)
                continue
            with contextlib.suppress(Exception):
                place.first.click(timeout=2000)
            with contextlib.suppress(Exception):
                p.wait_for_function(
                    f"document.querySelectorAll('.meat-hand .meat-card').length === {left}",
                    timeout=2000,
                )
        assert len(hand()) == left, f"{name} was not laid: the hand is {hand()}"

    def choose(p: Any) -> Any:
        draft = p.locator(".meat-draft .card-button:not([disabled])")
        if draft.count():
            return draft.first
        place = p.locator(".meat-place")
        if place.count():
            return place.first
        pick = p.locator(".meat-card[draggable='true']")
        if pick.count():
            # Lay a creature: pick it, then a lane; the hand must lose it.
            before = hand()
            name = pick.first.get_attribute("data-card") or ""
            lay(p, name, len(before) - 1)
            laid.append((before, name, hand()))
            return None
        return p.locator("#board button[data-action]").first

    assert seat.play(choose, 400, seat.check_width) > 0
    assert seat.over(), "the duel did not end"
    assert laid, "no creature was laid in a lane"
    for before, name, after in laid:
        rest = list(before)
        rest.remove(name)
        assert sorted(after) == sorted(rest), (before, name, after)
    page.wait_for_selector("#result-panel:not([hidden])")
    seat.check_width()
    seat.shoot("meat-end")
    seat.close()


# -- Teratozoic --------------------------------------------------------------------------


@pytest.mark.parametrize("viewport", WIDTHS)
def test_teratozoic_explains_the_end_of_a_game(
    server: str, browser: Any, viewport: dict[str, int]
) -> None:
    """A game that starts in the final Era (eras=Teratozoic Era: hands from
    the Gene Pool only, no reshuffle) to its end: the page says why it ended
    and by which rule, how the score is counted, and who won."""
    seat = Seat(server, browser, "teratozoic", ["random"], {"eras": "Teratozoic Era"}, 1, viewport)
    page = seat.page
    page.wait_for_selector(".tz-hand svg.card")
    seat.check_width()
    assert "value" in show_card_help(seat, ".tz-hand svg.card")

    def choose(p: Any) -> Any:
        return first(
            p,
            "button[data-action='express']",
            "button[data-action='build best']",
            ".tz-cell.takeable",
            ".tz-card:not([disabled])",
            "#board button[data-action]",
        )

    seat.play(choose, 120, seat.check_width)
    assert seat.over(), "the game did not end"
    page.wait_for_selector(".tz-end")
    end = page.inner_text(".tz-end")
    assert page.get_attribute(".tz-end", "data-end") == "final-era"
    assert "Why the game ended" in end
    assert "when one or fewer players are able to compete, the game is over" in end
    assert "Score: the cards in up to three" in end
    result = httpx.get(f"{server}/api/tables/{seat.table}").json()["result"]
    if len(result["winners"]) == 1:
        assert "wins with" in end
    else:
        assert "share the win" in end
    seat.check_width()
    seat.shoot("teratozoic-end")
    seat.close()


def _final_state(
    players: int, options: dict[str, Any], want: Callable[[Any], bool], first: int = 0
) -> dict[str, Any]:
    """Seat 0's last page state of the first random game (seeds ``first``…) whose
    end ``want`` accepts: the view, the log and the result. ``first`` is where
    such a game was last found (a random game costs about half a second)."""
    game = get_game("teratozoic")
    for seed in range(first, first + 400):
        st = game.new(players, seed=seed, options=options)
        rng = Rng(seed)
        while not st.over:
            owed = st.to_act()
            s = owed[rng.randrange(len(owed))]
            moves = list(st.legal(s))
            st.apply(s, moves[rng.randrange(len(moves))])
        if want(st):
            log = [
                {"event": e.to_json(), "text": game.describe_event(e)}
                for e in st.events_since(0, 0)
            ]
            return {
                "game": "teratozoic",
                "seat": 0,
                "view": st.view(0),
                "legal": [],
                "yourTurn": False,
                "over": True,
                "result": st.result.to_json(),
                "table": {"status": "finished", "seats": []},
                "log": log,
            }
    raise AssertionError("no such game in 400 seeds")


RENDER_ONE = """async (state) => {
  const m = await import("/static/games/teratozoic.js");
  const root = document.createElement("div");
  root.id = "board";
  document.body.replaceChildren(root);
  m.render(root, state, { act() {}, seat: 0, seatLabel: (s) => `seat ${s}` });
  const end = root.querySelector(".tz-end");
  return end ? [end.dataset.end, end.innerText] : [null, root.innerText];
}"""


def test_teratozoic_explains_the_early_ends(server: str, browser: Any) -> None:
    """The reported game: 4 players, over after a few generations, every
    score 0 and four winners. RULES.md, Elimination: "if everyone left would
    fall out at once, nobody is eliminated and the game ends, scored as it
    stands" — the page says so, with the rulebook's five-card rule, that
    nobody could close a monster, and that the four share the win. And a
    game where all but one were eliminated says that."""

    def everyone_below_five(st: Any) -> bool:
        r = st.result
        return (
            not r.stats["final_era_reached"]
            and not r.stats["eliminated"]
            and len(r.winners) == 4
            and not any(r.scores)
        )

    def last_one_standing(st: Any) -> bool:
        return not st.result.stats["final_era_reached"] and st.result.stats["eliminated"] == 3

    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(server + "/")
        kind, text = page.evaluate(RENDER_ONE, _final_state(4, {}, everyone_below_five, 24))
        assert kind == "everyone-below-five", text
        assert "fewer than five cards in their whole Gene Pool" in text
        assert "they lose the game" in text
        assert "every score is 0" in text
        assert "seat 0, seat 1, seat 2, seat 3 share the win" in text
        assert "cannot play a generation" in text
        page.evaluate("document.body.style.width = '390px'")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "teratozoic-early-end.png"), full_page=True)
        kind, text = page.evaluate(RENDER_ONE, _final_state(4, {}, last_one_standing, 5))
        assert kind == "eliminated", text
        assert "Every other player was eliminated" in text
        assert "Eliminated players score 0 and cannot win" in text
    finally:
        page.close()


# -- Taxonomy ----------------------------------------------------------------------------


@pytest.mark.parametrize("viewport", WIDTHS)
def test_taxonomy_card_help_names_the_card(
    server: str, browser: Any, viewport: dict[str, int]
) -> None:
    """A table against the heuristic bot: the card help names a card's type
    and family; no sideways scroll. (Playing it to the end by clicking, at
    every screen size and in both languages: test_games_to_the_end.py.)"""
    seat = Seat(server, browser, "taxonomy", ["heuristic"], {"rounds": 1}, 4, viewport)
    page = seat.page
    page.wait_for_selector(".tx-hand svg.card")
    text = show_card_help(seat, ".tx-hand svg.card")
    assert "type " in text and "family " in text, text
    seat.check_width()
    seat.close()


def test_the_hint_button_is_for_your_own_turn(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Issue 11: "a 'hint' button on the web table: the strongest bot's suggested
    move for your seat". While the bot thinks (two seconds a move here) the button
    is disabled, where a click could only answer "not your turn"; on your turn
    it gives a move, what else it weighed and how long it searched, a line each."""
    db = str(tmp_path_factory.mktemp("hint") / "tables.sqlite3")
    with running("taxonomy", db, bot_delay=2.0) as url:
        seat = Seat(url, browser, "taxonomy", ["heuristic"], {"rounds": 1}, 4, DESKTOP)
        page = seat.page
        page.wait_for_selector("#hint:not([hidden]):not([disabled])")
        page.click("#hint")
        page.wait_for_function("document.getElementById('hint-box').innerText.startsWith('Hint: ')")
        # One line each: the move, what else it weighed, how it searched (the
        # lines used to run together: "…before seat 1Also weighed: …").
        lines = page.inner_text("#hint-box").splitlines()
        assert lines[0].startswith("Hint: ") and len(lines) >= 2, lines
        assert lines[-1].startswith("(") and "searches in" in lines[-1], lines
        page.locator("#board button[data-action]").first.click()
        page.wait_for_selector("#hint[disabled]", timeout=1800)  # the bot waits 2 s
        page.wait_for_selector("#hint:not([disabled])", timeout=15000)
        seat.close()


# -- the rules drawer --------------------------------------------------------------------


@pytest.mark.parametrize("viewport", WIDTHS)
def test_rules_drawer_renders_the_rules_safely(
    server: str, browser: Any, viewport: dict[str, int]
) -> None:
    """The "Rules" button opens a drawer with the game's RULES.md rendered
    (headings, tables, lists); Markdown is data: raw HTML shows as text and a
    javascript: link is no link. Without the server's rules the drawer says so."""
    seat = Seat(server, browser, "teratozoic", ["random"], {}, 3, viewport)
    page = seat.page
    markdown = RULES["teratozoic"].read_text(encoding="utf-8") + (
        '\n\nEvil: <img src=x onerror="window.pwned=1">'
        " [click](javascript:window.pwned=1) **bold**\n"
    )
    served = httpx.get(f"{server}/api/games/teratozoic/rules")
    page.route(
        f"{server}/api/games/teratozoic/rules",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps({"markdown": markdown})
        ),
    )
    page.click("#rules-open")
    # The rules for players come first (issue 26); RULES.md is one button away.
    page.click("#rules-spec")
    page.wait_for_selector("#rules-drawer:not([hidden]) .rules-body h2")
    body = page.locator("#rules-drawer .rules-body")
    assert body.locator("h2").count() >= 1 and body.locator("h3").count() >= 5
    assert body.locator("table.md-table").count() >= 2
    assert body.locator("li").count() >= 10
    assert "Teratozoic — the rules as implemented" in body.inner_text()
    assert body.locator("img").count() == 0
    assert body.locator("a[href^='javascript']").count() == 0
    assert "<img src=x" in body.inner_text()
    assert page.evaluate("window.pwned === undefined")
    seat.check_width()
    seat.shoot("rules-drawer")
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules-drawer", state="hidden")
    if served.status_code != 200:
        # The server has no rules endpoint yet: a fresh page says so.
        fresh = seat.ctx.new_page()
        fresh.goto(f"{server}/table/{seat.table}")
        fresh.wait_for_selector("#conn[data-state='connected']")
        fresh.click("#rules-open")
        fresh.wait_for_selector(".rules-missing")
        fresh.close()
    seat.close()


# -- the lobby -----------------------------------------------------------------------------


def test_the_lobby_fits_a_phone(server: str, browser: Any) -> None:
    """Issue 13: "at 390 px the page scrolls sideways": the lobby, with every
    game's options open, is never wider than a 390 px phone."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + "/")
        page.wait_for_selector("select option[value='teratozoic']", state="attached")
        picker = page.evaluate(
            "(() => { const s = document.querySelector(\"option[value='teratozoic']\")"
            ".closest('select'); return s && s.id; })()"
        )
        for gid in ("taxonomy", "monster-maker", "meat", "teratozoic"):
            if picker:
                page.select_option(f"#{picker}", gid)
                page.wait_for_timeout(200)
            page.evaluate("document.querySelectorAll('details').forEach(d => (d.open = true))")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (gid, width)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "lobby-phone.png"), full_page=True)
        assert not errors, errors
    finally:
        ctx.close()
