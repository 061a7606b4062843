"""Each game's own table page, end to end in headless Chromium.

Issue 6: "A table page per game, made for that game: ... Monster Maker (each
player's corridor track and distance, monsters in the way, dice rolls,
treasures), M.E.A.T. (the draft row, the three lanes face down then
revealed, vitality, the instant stack), Teratozoic (drag cards onto a grid
to build monsters, live score, the solver's hint, the Era)" and "the same
[play by clicking, save a screenshot] for a short game of each other game
once its page exists".

One server for the module; a table per game with bots in the other seats;
the human seat is joined through the API and its token put where the page
looks for it, then the page is played by clicking its own action buttons.
Screenshots go to ``artifacts/`` (gitignored).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from bestiary.engine import get_game

from ..server.conftest import loadable_games
from ..server.serving import ROOT, running
from .conftest import BROWSER_MARKS

ARTIFACTS = ROOT / "artifacts"
WEB_GAMES = ROOT / "bestiary" / "web" / "games"
pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("pages") / "pages.sqlite3")
    with running("monster-maker", db, bot_delay=0.01) as url:
        yield url


def card_list(game_id: str) -> str:
    """The game's card list as ``bestiary cards`` prints it (JSON)."""
    game = get_game(game_id)
    return json.dumps(game.catalog(game.variants[game.default_variant]))


def open_table(
    server: str,
    browser: Any,
    game: str,
    bots: list[str],
    options: dict[str, Any],
    seed: int,
    with_cards: bool = False,
) -> tuple[Any, str, list[str]]:
    """A table with the human in seat 0 and ``bots`` after it, opened as seat 0.

    ``with_cards``: the page is answered the game's card list at
    ``/api/games/<id>/cards`` and its scoring tool at ``/api/games/<id>/score``
    (``bestiary cards`` / ``bestiary score``, computed here by the game
    itself). The pages ask for both; the server does not serve them yet, and
    the pages then make do with the names they see and no score preview."""
    if game not in loadable_games():
        pytest.skip(f"{game} does not load yet")
    assert (WEB_GAMES / f"{game}.js").is_file()
    seats = [{"kind": "human", "name": "Tester"}] + [{"kind": "bot", "agent": a} for a in bots]
    r = httpx.post(
        f"{server}/api/tables",
        json={"game": game, "seats": seats, "options": options, "seed": seed},
    )
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    joined = httpx.post(f"{server}/api/tables/{table}/join", json={"seat": 0, "name": "Tester"})
    assert joined.status_code == 200, joined.text
    token = joined.json()["token"]
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    saved = json.dumps({"seat": 0, "token": token})
    page.evaluate(f"localStorage.setItem('bestiary:seat:{table}', {json.dumps(saved)})")
    if with_cards:
        body = card_list(game)
        page.route(
            f"{server}/api/games/{game}/cards",
            lambda route: route.fulfill(status=200, content_type="application/json", body=body),
        )
        g = get_game(game)
        rules = g.variants[g.default_variant]

        def score(route: Any) -> None:
            out = g.score_tool(json.loads(route.request.post_data or "{}"), rules)
            route.fulfill(status=200, content_type="application/json", body=json.dumps(out))

        page.route(f"{server}/api/games/{game}/score", score)
    page.goto(f"{server}/table/{table}")
    page.wait_for_selector("#conn[data-state='connected']")
    return page, table, errors


def play_by_clicking(
    page: Any, moves: int, choose: Callable[[Any], Any] | None = None, until_over: bool = True
) -> int:
    """Click the page's own action buttons until the game is over (or
    ``moves`` clicks); ``choose`` picks the button (default: the first)."""
    clicks = 0
    for _ in range(moves * 40):
        if page.evaluate("document.body.dataset.over") == "yes" or clicks >= moves:
            break
        button = choose(page) if choose else page.locator("#board button[data-action]").first
        if button is not None and button.count():
            try:
                button.click(timeout=1000)
                clicks += 1
                page.wait_for_timeout(60)
            except Exception:  # re-rendered under the cursor: try the fresh one
                pass
        page.wait_for_timeout(25)
    return clicks


def watch_and_replay(server: str, browser: Any, table: str, board: str, name: str) -> None:
    """A spectator (no seat token) sees the game's own page, without action
    buttons; the replay viewer draws the deal and every step with it too."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server}/table/{table}")
        page.wait_for_selector("#conn[data-state='connected']")
        page.wait_for_selector(board)
        assert page.locator("#board [data-action]").count() == 0
        page.click("#open-replay")
        page.wait_for_selector("#replay-panel:not([hidden])")
        page.click("#rp-first")
        page.wait_for_selector(board)
        page.click("#rp-next")
        page.click("#rp-next")
        page.wait_for_selector(board)
        assert page.inner_text("#rp-label").startswith("move 2 of ")
        shoot(page, f"{name}-replay")
        assert not errors, errors
    finally:
        ctx.close()


def drag(page: Any, source: Any, target: Any, done: str) -> None:
    """Drag ``source`` onto ``target`` until the page says ``done`` (a JS
    expression); a synthetic drag can miss, so it is tried three times."""
    for _ in range(3):
        source.drag_to(target)
        try:
            page.wait_for_function(done, timeout=5000)
            return
        except Exception:
            continue
    raise AssertionError(f"the drag never took effect: {done}")


def shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"page-{name}.png"), full_page=True)


# -- Monster Maker -----------------------------------------------------------------------


def test_monster_maker_page_shows_tracks_monsters_dice_hand_and_treasures(
    server: str, browser: Any
) -> None:
    """Issue 6: Monster Maker's page shows "each player's corridor track and
    distance, monsters in the way, dice rolls, treasures"; a one-dungeon
    game (max_dungeons=1, a 40p treasure room) is played to its end by
    clicking the page's grouped action buttons."""
    page, table, errors = open_table(
        server,
        browser,
        "monster-maker",
        ["heuristic", "heuristic"],
        {"max_dungeons": 1, "treasure_distance": 40},
        seed=2,
    )
    page.wait_for_selector(".mm-player")
    # One corridor track per player, each with its distance.
    assert page.locator(".mm-player").count() == 3
    assert page.locator(".mm-player svg.mm-track").count() == 3
    assert "/ 40p in" in page.inner_text(".mm-player[data-seat='0'] .mm-distance")
    # The hand as cards with their kind and strength marks.
    page.wait_for_selector(".mm-hand svg.card")
    labels = page.eval_on_selector_all(
        ".mm-hand svg.card", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert labels and all("type " in lab for lab in labels)
    shoot(page, "monster-maker-start")

    used: set[str] = set()

    def choose(p: Any) -> Any:
        # Fight and roll when a monster blocks the way (to see dice); place
        # monsters and play corridors by clicking the hand's cards.
        for what, sel in (
            ("placed", ".mm-place"),
            ("chose", ".mm-choices button[data-action^='place']"),
            ("rolled", "[data-group='Battle'] button[data-action='roll']"),
            ("fought", "[data-group='Battle'] button[data-action^='fight with']"),
            ("monster", ".mm-card[data-kind='monster']:not([disabled])"),
            ("corridor", ".mm-card[data-kind='corridor']:not([disabled])"),
            ("other", "#board button[data-action]"),
        ):
            b = p.locator(sel).first
            if b.count():
                used.add(what)
                return b
        return None

    clicks = play_by_clicking(page, 150, choose)
    assert clicks > 0
    assert page.evaluate("document.body.dataset.over") == "yes", "the dungeon did not end"
    assert {"corridor", "monster"} <= used, used
    log = page.inner_text("#log")
    assert "Tester plays a" in log and "Tester places" in log  # by clicking cards
    page.wait_for_selector("#result-panel:not([hidden])")
    # Someone reached or passed the treasure room: a corridor segment drawn.
    assert page.locator(".mm-track .mm-corridor").count() > 0
    assert page.locator(".mm-final").count() == 1
    shoot(page, "monster-maker-end")
    info = httpx.get(f"{server}/api/tables/{table}").json()
    assert info["status"] == "finished"
    assert not errors, errors
    watch_and_replay(server, browser, table, ".mm-player svg.mm-track", "monster-maker")


# -- M.E.A.T. ---------------------------------------------------------------------------------


def test_meat_page_shows_draft_lanes_vitality_hand_and_stack(server: str, browser: Any) -> None:
    """Issue 6: M.E.A.T.'s page shows "the draft row, the three lanes face
    down then revealed, vitality, the instant stack". A short duel
    (vitality 6 a side) against the heuristic bot is played to its end;
    creatures are placed by picking a hand card and then a lane."""
    page, table, errors = open_table(
        server, browser, "meat", ["heuristic"], {"vitality_1v1": 6}, seed=3
    )
    page.wait_for_selector(".meat-team")
    assert page.locator(".meat-vit").count() == 2
    assert "vitality 6 / 6" in page.inner_text(".meat-team.mine .meat-vit")
    seen: set[str] = set()

    def once(p: Any, what: str) -> None:
        if what not in seen:
            seen.add(what)
            shoot(p, f"meat-{what}")

    def choose(p: Any) -> Any:
        draft = p.locator(".meat-draft .card-button:not([disabled])")
        if draft.count():
            once(p, "draft")
            return draft.first
        place = p.locator(".meat-place")
        if place.count():
            return place.first
        pick = p.locator(".meat-card[draggable='true']")
        if pick.count():
            if "dragged" not in seen:
                # The first creature goes onto an empty lane by drag and drop.
                seen.add("dragged")
                before = pick.count()
                lane = p.locator(".meat-side.mine .meat-lane:has(.meat-empty)").first
                drag(
                    p,
                    pick.first,
                    lane,
                    "document.querySelectorAll(\".meat-card[draggable='true']\").length"
                    f" < {before}",
                )
                return None
            return pick.first
        enemy = p.locator(".meat-side:not(.mine) svg.card")
        if enemy.count():
            hidden = p.locator(".meat-side:not(.mine) svg.card[aria-label='face-down card']")
            once(p, "face-down" if hidden.count() == enemy.count() else "revealed")
        return p.locator("#board button[data-action]").first

    # A draft pick may also come through the last line of ``choose``: the bot
    # can finish its pick between our look at the row and the click, so the
    # page itself says whether a draft card was clicked.
    page.evaluate(
        "document.addEventListener('click', e => { if (e.target.closest('.meat-draft button'))"
        " document.body.dataset.drafted = 'yes'; }, true)"
    )
    clicks = play_by_clicking(page, 400, choose)
    assert clicks > 0
    assert page.evaluate("document.body.dataset.over") == "yes", "the duel did not end"
    page.wait_for_selector("#result-panel:not([hidden])")
    if page.evaluate("document.body.dataset.drafted") == "yes":
        seen.add("draft")
    assert {"draft", "dragged", "face-down", "revealed"} <= seen, seen
    assert page.locator(".meat-lane").count() == 6
    shoot(page, "meat-end")
    assert httpx.get(f"{server}/api/tables/{table}").json()["status"] == "finished"
    assert not errors, errors
    watch_and_replay(server, browser, table, ".meat-lanes", "meat")


# -- Teratozoic ---------------------------------------------------------------------------------


def test_teratozoic_page_shows_era_pools_hand_and_builds_on_a_grid(
    server: str, browser: Any
) -> None:
    """Issue 6: Teratozoic's page shows "the solver's hint, the Era", a live
    score and monsters built on a grid. A few generations against the
    heuristic bot, played by clicking: hold nothing back, take the solver's
    best build, take and keep cards by clicking them."""
    page, table, errors = open_table(
        server, browser, "teratozoic", ["heuristic"], {"short_game": True}, seed=2
    )
    page.wait_for_selector(".tz-era")
    assert page.inner_text(".tz-era-name").endswith("Era")
    assert page.locator(".tz-players tbody tr").count() == 2
    # The hand is drawn with its names (from the card list or the log), not
    # numbers. On a busy machine the first frame may come before the card list
    # does (the page draws again when it arrives), so wait for the names a while.
    page.wait_for_selector(".tz-hand svg.card")
    page.wait_for_function(
        "[...document.querySelectorAll('.tz-hand svg.card')]"
        ".every(e => !e.getAttribute('aria-label').includes('card #'))",
        timeout=10000,
    )
    hand = page.eval_on_selector_all(
        ".tz-hand svg.card", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert hand and not any("card #" in lab for lab in hand), hand

    shots = set()
    scores: list[str | None] = []

    def choose(p: Any) -> Any:
        if p.locator(".tz-builds .tz-build").count() and "grid" not in shots:
            shots.add("grid")
            # Read the build while it is on screen: later phases may not show one.
            assert p.locator(".tz-builds .tz-grid").count() > 0
            scores.append(p.locator(".tz-build").first.get_attribute("data-score"))
            shoot(p, "teratozoic-builds")
        for sel in (
            "button[data-action='express']",
            "button[data-action='build best']",
            ".tz-cell.takeable",
            ".tz-card:not([disabled])",
            "#board button[data-action]",
        ):
            b = p.locator(sel).first
            if b.count():
                return b
        return None

    clicks = play_by_clicking(page, 24, choose)
    assert clicks >= 10
    assert "grid" in shots, "no build was laid out on the grid"
    assert scores and scores[0] is not None and int(scores[0]) >= 0
    shoot(page, "teratozoic-later")
    info = httpx.get(f"{server}/api/tables/{table}").json()
    assert info["moves"] >= clicks
    assert not errors, errors


def test_teratozoic_page_plans_expression_with_a_live_solver_preview(
    server: str, browser: Any
) -> None:
    """With the card list and the scoring tool, Expression is planned on the
    page: a card dragged onto "held back" leaves the preview, which shows the
    solver's best build of the cards to express (a grid with each card's
    ends) and its score; confirming holds it back and expresses the rest."""
    page, _, errors = open_table(
        server, browser, "teratozoic", ["heuristic"], {"short_game": True}, seed=4, with_cards=True
    )
    page.wait_for_selector(".tz-preview .tz-grid")
    hand = page.locator(".tz-expressed .tz-card[draggable='true']")
    before = hand.count()
    assert before >= 4
    full = int(page.locator(".tz-preview .tz-build").get_attribute("data-score") or "-1")
    assert f"express these {before}" in page.inner_text(".tz-preview")
    assert page.locator(".tz-preview .tz-grid circle").count() > 0  # ends drawn
    shoot(page, "teratozoic-plan")
    drag(
        page,
        hand.first,
        page.locator(".tz-zone.tz-held"),
        "document.querySelector('.tz-zone.tz-held svg.card') !== null",
    )
    page.wait_for_function(
        f"document.querySelector('.tz-preview') && "
        f"document.querySelector('.tz-preview').innerText.includes('express these {before - 1}')"
    )
    fewer = int(page.locator(".tz-preview .tz-build").get_attribute("data-score") or "-1")
    assert 0 <= fewer <= full  # the solver's best of a subset is no better
    assert "back, face down" not in page.inner_text("#log")  # only a plan so far
    page.click(".tz-commit")
    page.wait_for_function("document.querySelector('#log').innerText.includes('back, face down')")
    page.wait_for_function("document.querySelector('#log').innerText.includes('1 card face down')")
    play_by_clicking(page, 1, lambda p: p.locator("button[data-action='build best']").first)
    page.wait_for_selector(".tz-builds .tz-grid")
    shoot(page, "teratozoic-ends")
    assert not errors, errors


def test_teratozoic_page_builds_a_monster_by_hand_on_the_grid(server: str, browser: Any) -> None:
    """Issue 6: "Teratozoic (drag cards onto a grid to build monsters, live
    score, the solver's hint ...)". RULES.md, Growth: a player "places cards
    by hand, step by step: `start <card>` begins a monster, `attach <card>
    <N|E|S|W> of <placed card>` lays a card where one of its ends meets an
    open end of a placed card ..., and `build placed` finishes (cards not
    placed lie apart on their own)". Against the heuristic bot, at Growth: a
    card dropped on the empty area starts a monster, a card dragged onto a
    spot beside it is attached there, and `build placed` plays the layout;
    the log, the move count and the server's score agree with the page's
    live score, which the solver's best build never beats."""
    page, table, errors = open_table(
        server, browser, "teratozoic", ["heuristic"], {"short_game": True}, seed=5
    )
    # What the page asks the server's scoring tool about layouts.
    layouts: list[Any] = []
    page.on(
        "request",
        lambda r: (
            layouts.append(r.post_data_json)
            if r.url.endswith("/api/games/teratozoic/score") and "placements" in (r.post_data or "")
            else None
        ),
    )
    express = page.locator("#board button[data-action='express']").first
    express.wait_for()
    express.click()
    page.wait_for_selector(".tz-placing-panel .tz-newmonster")
    moves_before = httpx.get(f"{server}/api/tables/{table}").json()["moves"]
    # No card placed yet: "build placed" is not legal, so not offered.
    assert page.locator("[data-action='build placed']").count() == 0
    # The hint and the live score come from the server's scoring tool.
    page.wait_for_selector(".tz-hint[data-score]")
    page.wait_for_selector(".tz-live[data-score]")

    # Start the first monster by dropping a card on the empty area.
    first = page.get_attribute(".tz-newmonster", "data-fits").split()[0]
    drag(
        page,
        page.locator(f".tz-tocard[data-card='{first}']"),
        page.locator(".tz-newmonster"),
        "document.querySelectorAll('.tz-placed').length === 1",
    )
    placed = 1
    # Until some card fits beside a placed one: start another monster by
    # clicking a card, then the empty area.
    while not page.locator(".tz-target:not([data-fits=''])").count():
        fits = (page.get_attribute(".tz-newmonster", "data-fits") or "").split()
        assert fits, "no card of this hand fits beside another: pick another seed"
        page.click(f".tz-tocard[data-card='{fits[0]}']")
        page.click(".tz-newmonster.fits[data-action^='start ']")
        placed += 1
        page.wait_for_function(f"document.querySelectorAll('.tz-placed').length === {placed}")

    # Drag a card onto a spot where its ends meet a placed card's: an attach.
    spot = page.locator(".tz-target:not([data-fits=''])").first
    x, y = spot.get_attribute("data-x"), spot.get_attribute("data-y")
    card = (spot.get_attribute("data-fits") or "").split()[0]
    name = page.inner_text(f".tz-tocard[data-card='{card}'] .tz-tocard-name")
    # Clicking the card marks where it fits: each such spot then carries its
    # exact legal `attach` text.
    page.click(f".tz-tocard[data-card='{card}']")
    page.wait_for_selector(f".tz-target.fits[data-action^='attach {name} ']")
    assert spot.get_attribute("data-action").startswith(f"attach {name} ")
    shoot(page, "teratozoic-by-hand-selected")
    drag(
        page,
        page.locator(f".tz-tocard[data-card='{card}']"),
        spot,
        f"document.querySelectorAll('.tz-placed').length === {placed + 1}",
    )
    placed += 1
    assert page.locator(f".tz-placed[data-card='{card}']").count() == 1
    page.wait_for_function(
        f"document.querySelector('#log').innerText.includes('Tester attaches {name} to monster')"
    )
    page.wait_for_selector("[data-action='build placed']")
    # The live score is the server's scoring tool's answer for this layout:
    # "…" (no data-score) until it is in.
    page.wait_for_selector(".tz-live[data-score]")
    live = int(page.get_attribute(".tz-live", "data-score") or "-1")
    best = int(page.get_attribute(".tz-hint", "data-score") or "-1")
    assert 0 <= live <= best
    # The page scores no layout itself: it sent this one, every played card
    # with its cell, to `bestiary score teratozoic`'s layout mode.
    last = layouts[-1]
    assert last["doubling_ignores_colour"] is False
    assert len(last["placements"]) == placed + page.locator(".tz-tocard").count()
    assert [name, int(x or "?"), int(y or "?")] in [p[:3] for p in last["placements"]]
    shoot(page, "teratozoic-by-hand")

    page.click(".tz-build-buttons [data-action='build placed']")
    # The server scores the layout as placed: the page's live score.
    page.wait_for_function("document.querySelector('#log').innerText.includes('Tester plays ')")
    log = page.inner_text("#log")
    grew = next(line for line in log.splitlines() if "Tester plays " in line)
    assert f"scores {live} point" in grew, (grew, live)
    assert name in grew
    assert log.count("Tester starts monster ") + log.count("Tester attaches ") == placed
    # Every placement and the build are moves of the table (with the bot's).
    # (The public counter moves once spectators are shown the build: poll.)
    deadline = time.monotonic() + 15
    moves = httpx.get(f"{server}/api/tables/{table}").json()["moves"]
    while moves < moves_before + placed + 1 and time.monotonic() < deadline:
        time.sleep(0.2)
        moves = httpx.get(f"{server}/api/tables/{table}").json()["moves"]
    assert moves >= moves_before + placed + 1
    page.wait_for_selector(".tz-builds .tz-grid")
    assert "Your monsters (placed)" in page.inner_text(".tz-builds")
    shoot(page, "teratozoic-by-hand-built")
    assert not errors, errors


def test_meat_page_draws_costs_and_stats_from_the_card_list(server: str, browser: Any) -> None:
    """With the game's card list, M.E.A.T.'s draft row shows each creature's
    cost, attack and defence."""
    page, _, errors = open_table(
        server, browser, "meat", ["heuristic"], {}, seed=8, with_cards=True
    )
    for _ in range(40):
        if page.locator(".meat-draft svg.card").count():
            break
        leader = page.locator("[data-group='Leader'] button").first
        if leader.count():
            leader.click()
        page.wait_for_timeout(100)
    page.wait_for_selector(".meat-draft svg.card")
    labels = page.eval_on_selector_all(
        ".meat-draft svg.card", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert labels and all("cost " in lab for lab in labels), labels
    shoot(page, "meat-draft-cards")
    assert not errors, errors


# -- every phase of real games, rendered ----------------------------------------------------------


def seat_states(game_id: str, players: int, seed: int, options: dict[str, Any]) -> list[dict]:
    """What the table page hands a game's renderer for seat 0 after every
    move of a random game: the view, the legal actions' text forms and the
    new log entries (the page adds them to the log, as ``js/table.js`` does)."""
    from bestiary.engine import Rng

    game = get_game(game_id)
    state = game.new(players, seed=seed, options=options)
    rng = Rng(seed)
    out: list[dict] = []
    seen = 0
    while True:
        legal = [str(a) for a in state.legal(0)] if not state.over else []
        new = [
            {"event": e.to_json(), "text": game.describe_event(e)}
            for e in state.events_since(seen, 0)
        ]
        seen = state.event_count()
        out.append(
            {
                "game": game_id,
                "seat": 0,
                "view": state.view(0),
                "legal": legal,
                "yourTurn": bool(legal),
                "over": state.over,
                "result": None,
                "table": {"status": "finished" if state.over else "playing", "seats": []},
                "events": new,
                "moves": len(out),
            }
        )
        if state.over:
            return out
        owed = state.to_act()
        seat = owed[rng.randrange(len(owed))]
        moves = list(state.legal(seat))
        state.apply(seat, moves[rng.randrange(len(moves))])


RENDER_ALL = """async ([game, states]) => {
  const m = await import(`/static/games/${game}.js`);
  if (m.catalogReady) await m.catalogReady(); // card names come from the card list
  const root = document.createElement("div");
  root.id = "board";
  document.body.replaceChildren(root);
  const acts = [];
  const api = { act: (a) => acts.push(a), seat: 0, seatLabel: (s) => `seat ${s}` };
  const errors = [];
  const seen = {};
  let log = [];
  for (const [i, s] of states.entries()) {
    if (s.moves === 0) log = [];
    log.push(...s.events);
    s.log = log;
    try {
      m.render(root, s, api);
    } catch (e) {
      errors.push(`state ${i}: ${e}`);
      continue;
    }
    for (const sel of SELECTORS) if (root.querySelector(sel)) seen[sel] = (seen[sel] || 0) + 1;
    // Every legal action has its button (or grid cell), and no other does.
    const shown = new Set([...root.querySelectorAll("[data-action]")].map((b) => b.dataset.action));
    for (const a of s.legal) if (!shown.has(a)) errors.push(`state ${i}: no button for ${a}`);
    for (const a of shown) if (!s.legal.includes(a)) errors.push(`state ${i}: ${a} is not legal`);
  }
  return { errors: errors.slice(0, 10), seen };
}"""


@pytest.mark.parametrize(
    ("game_id", "players", "options", "selectors"),
    [
        (
            "monster-maker",
            3,
            {"max_dungeons": 1},
            [".mm-battle", ".mm-battle-result", ".mm-prompt.bad", ".mm-final", ".mm-monster"],
        ),
        ("meat", 2, {"vitality_1v1": 12}, [".meat-stack li", ".meat-draft", ".meat-planned"]),
        (
            "teratozoic",
            2,
            {},
            [".tz-builds .tz-grid", ".tz-final", ".tz-cell.takeable", ".tz-placed", ".tz-target"],
        ),
    ],
)
def test_every_phase_of_a_random_game_renders(
    server: str,
    browser: Any,
    game_id: str,
    players: int,
    options: dict[str, Any],
    selectors: list[str],
) -> None:
    """The page draws the view after every move of random games (seat 0's
    side) without an error, offers exactly the legal actions as buttons,
    and shows its game-specific panels when the game gets there (battles
    and dice, traps, the stack, planned lanes, builds on the grid, the end)."""
    if game_id not in loadable_games():
        pytest.skip(f"{game_id} does not load yet")
    states: list[dict] = []
    for seed in (1, 2, 3):
        states += seat_states(game_id, players, seed, options)
        if len(states) > 600:
            break
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(server + "/")
        script = RENDER_ALL.replace("SELECTORS", json.dumps(selectors))
        out = page.evaluate(script, [game_id, states])
    finally:
        page.close()
    assert not out["errors"], out["errors"]
    missing = [s for s in selectors if not out["seen"].get(s)]
    assert not missing, f"never shown in {len(states)} states: {missing}"
