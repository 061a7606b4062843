"""Issue 26 ("The table, for players"): what each game's table page shows.

Real games on a real server in headless Chromium: the M.E.A.T. battlefield
drawn as the players sit (each creature over the one it fights), target
buttons that name the creature, Monster Maker's fight odds, Taxonomy's loyal
nature told as the rulebook tells it, and a long-press that shows a card's
text instead of playing it.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from bestiary.games.meat.effects import opposite

from ..server.serving import running
from .conftest import BROWSER_MARKS
from .test_game_pages import open_table

pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("issue26") / "issue26.sqlite3")
    with running("meat", db, bot_delay=0.0) as url:
        yield url


def finished_bot_table(
    server: str, game: str, players: int, options: dict[str, Any], seed: int
) -> str:
    """A table of ``players`` random bots (a solo table may choose its seed),
    played to its end by the server."""
    seats = [{"kind": "bot", "agent": "easy"} for _ in range(players)]
    r = httpx.post(
        f"{server}/api/tables",
        json={"game": game, "seats": seats, "options": options, "seed": seed},
    )
    assert r.status_code == 201, r.text
    table = str(r.json()["id"])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if httpx.get(f"{server}/api/tables/{table}").json()["status"] == "finished":
            return table
        time.sleep(0.3)
    raise AssertionError(f"the bots did not finish table {table}")


# -- 1. the M.E.A.T. battlefield -------------------------------------------------------------


def strikes(frames: list[dict[str, Any]]) -> list[tuple[int, int, int]]:
    """(frame before the battle, attacker slot, victim slot) for every strike of
    every battle in a replay, read from the record's events: a ``damaged``
    event whose source is a creature on the other side of the field as the
    frame before the battle shows it (a name found once there), not turned
    aside by a CHALLENGE, and aimed where the rule sends it: "each creature
    attacks the creature opposite it" (effects.opposite). CLEAVE's extra hits
    on the creatures beside its target are left out: they are not opposite."""
    found = []
    for i, frame in enumerate(frames):
        events = [e["event"] for e in frame["events"]]
        kinds = [e["kind"] for e in events]
        if "battle" not in kinds or i == 0:
            continue
        field = frames[i - 1]["view"]["field"]
        where: dict[tuple[int, str], list[int]] = {}
        for row in field:
            for lane, cr in enumerate(row["creatures"]):
                if cr and cr.get("card"):
                    where.setdefault((row["seat"] & 1, cr["card"]), []).append(
                        row["seat"] * 3 + lane
                    )
        for k in range(kinds.index("battle"), len(events)):
            e = events[k]
            if e["kind"] == "summary":
                break
            if e["kind"] != "damaged" or not e.get("source"):
                continue
            if k and events[k - 1]["kind"] == "challenged":
                continue
            victim = int(e["slot"])
            team = (victim // 3) & 1
            slots = where.get((team ^ 1, e["source"]), [])
            if len(slots) == 1 and opposite(slots[0]) == victim:
                found.append((i - 1, slots[0], victim))
    return found


def open_replay(page: Any, server: str, table: str) -> None:
    """Opens ``table``'s page and its replay viewer, and waits for the replay's
    response (its frames are drawn a moment later: :func:`step_to`)."""
    page.set_default_timeout(90_000)  # a replay on a busy machine can take a while
    page.goto(f"{server}/table/{table}")
    page.wait_for_selector("#conn[data-state='connected']")
    with page.expect_response(lambda r: "/replay" in r.url):
        page.click("#open-replay")


def step_to(page: Any, step: int) -> None:
    """Shows move ``step`` in the replay viewer. Its frames arrive a moment
    after the response (parsed, then drawn): the step is set again until the
    viewer's label names it."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        page.eval_on_selector(
            "#rp-step",
            "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input')); }",
            step,
        )
        if page.inner_text("#rp-label").startswith(f"move {step} of "):
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"the replay viewer never showed move {step}")


def lane_box(page: Any, slot: int) -> dict[str, float]:
    seat, lane = divmod(slot, 3)
    lanes = ("left", "front", "right")
    box = page.locator(f".meat-lane[data-seat='{seat}'][data-lane='{lanes[lane]}']").bounding_box()
    assert box, f"slot {slot} is not drawn"
    return dict(box)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_meat_each_creature_is_drawn_across_from_the_one_it_fights(
    server: str, browser: Any, players: int
) -> None:
    """Issue 26: "The creature drawn opposite yours is not the one it fights:
    players sit across the table, so your left flank fights their right flank"
    (rulebook: players sit facing each other, each with one opponent
    opposite; the record says "Rekrut deals 3 to Nekromutant (seat 1's right
    flank)"). A seeded game of bots is replayed on the page, seen by seat 1
    and by a spectator; for every strike of every battle, the striker's lane
    and its victim's lane are drawn in the same column (their boxes' centres
    line up) and on different rows, and the lanes are labelled from the
    viewer's side ("your left flank" over against "their right flank")."""
    options = {"max_rounds": 2}
    table = finished_bot_table(server, "meat", players, options, seed=26 + players)
    frames = httpx.get(f"{server}/api/tables/{table}/replay", timeout=120).json()["frames"]
    found = strikes(frames)
    assert len(found) >= 2, f"the seeded game had too few strikes to check: {found}"
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        open_replay(page, server, table)
        page.wait_for_selector("#replay-panel:not([hidden])")
        for seen_by in ("", "1"):
            if seen_by:
                with page.expect_response(lambda r: "/replay" in r.url):
                    page.select_option("#rp-seat", seen_by)
                # Seat 1's frames are drawn once its row says "(you)".
                page.wait_for_function(
                    "(document.querySelector(\".meat-side[data-seat='1'] .meat-side-name\")"
                    "?.textContent || '').includes('(you)')"
                )
            for step, attacker, victim in found:
                step_to(page, step)
                page.wait_for_selector(".meat-lane")
                a, v = lane_box(page, attacker), lane_box(page, victim)
                ax, vx = a["x"] + a["width"] / 2, v["x"] + v["width"] / 2
                assert abs(ax - vx) < 2, (
                    f"players={players} seen by {seen_by or 'a spectator'}: slot {attacker} "
                    f"strikes slot {victim} but they are drawn {ax - vx:+.0f}px apart"
                )
                assert abs(a["y"] - v["y"]) > a["height"] / 2, "the two sides share a row"
            if seen_by == "1":
                mine = page.inner_text(
                    ".meat-lane[data-seat='1'][data-lane='left'] .meat-lane-name"
                )
                across = page.inner_text(
                    ".meat-lane[data-seat='0'][data-lane='right'] .meat-lane-name"
                )
                assert mine.lower() == "your left flank", mine
                assert across.lower() == "their right flank", across
        assert not errors, errors
    finally:
        ctx.close()


# -- 3. the terminal and the page agree ---------------------------------------------------


def test_monster_maker_page_shows_the_terminals_fight_odds(server: str, browser: Any) -> None:
    """Issue 26: "the page shows no Monster Maker fight odds (the terminal does:
    '72% to win')". A seeded game of bots is replayed on the page; at every
    step with a battle under way, the page shows the very line the terminal
    prints (render.battle_odds: the game's own battle rules), and the roll
    button carries the same chance."""
    from bestiary.games.monster_maker.render import battle_odds
    from bestiary.i18n import use_language

    table = finished_bot_table(
        server, "monster-maker", 3, {"max_dungeons": 1, "treasure_distance": 40}, seed=11
    )
    frames = httpx.get(f"{server}/api/tables/{table}/replay", timeout=120).json()["frames"]
    with use_language("en"):
        steps = [
            (i, battle_odds(f["view"])) for i, f in enumerate(frames) if f["view"].get("battle")
        ]
    steps = [(i, line) for i, line in steps if line][:6]
    assert steps, "the seeded game had no battle with a party"
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        open_replay(page, server, table)
        for step, line in steps:
            step_to(page, step)
            page.wait_for_selector(".mm-odds")
            shown = page.inner_text(".mm-odds")
            assert shown == f"Odds: {line}", (step, shown, line)
            assert re.search(r"\d+% to win", line)
    finally:
        ctx.close()


def test_meat_target_buttons_name_the_creature_and_whose_lane(server: str, browser: Any) -> None:
    """Issue 26: "M.E.A.T. targets are named by lane only on the page (name the
    creature and whose lane: 'Nekromutant (seat 1's right flank)')". A game is
    played by clicking until a card asks for a target; every target button
    names the creature the view shows on that slot and the lane from the
    player's side ("their right flank"; "your front")."""
    page, _table, errors = open_table(server, browser, "meat", ["easy"], {}, seed=7)
    aim = "#board .meat-aim button[data-action]"
    for _ in range(150):
        if page.locator(aim).count():
            break
        if page.evaluate("document.body.dataset.over") == "yes":
            break
        buttons = page.locator("#board button[data-action]")
        texts = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
        pick = next((i for i, a in enumerate(texts) if a and a not in ("done", "pass")), None)
        if pick is None and texts:
            pick = 0
        if pick is not None:
            with contextlib.suppress(Exception):  # redrawn under the cursor: look again
                buttons.nth(pick).click(timeout=1000)
        page.wait_for_timeout(120)
    assert page.locator(aim).count(), "no card asked for a target in this game"
    lanes = {"left": "left flank", "front": "front", "right": "right flank"}
    for i in range(page.locator(aim).count()):
        button = page.locator(aim).nth(i)
        action = str(button.get_attribute("data-action"))
        m = re.search(r" @ s(\d+) (left|front|right)$", action)
        assert m, action
        seat, lane = int(m.group(1)), m.group(2)
        card = page.locator(f".meat-lane[data-seat='{seat}'][data-lane='{lane}'] svg.card")
        label = card.get_attribute("aria-label") if card.count() else None
        name = label.split(",")[0] if label and not label.startswith("face-down") else None
        whose = "your" if seat == 0 else "their"
        text = button.inner_text()
        assert f"{whose} {lanes[lane]}" in text, (action, text)
        if name:
            assert text == f"{name} ({whose} {lanes[lane]})", (action, text)
    assert not errors, errors


def test_taxonomy_tells_a_loyal_monster_cannot_be_claimed(server: str, browser: Any) -> None:
    """Issue 26: the page said "loyal: it cannot be discarded"; the rulebook
    (v0.2): "A loyal monster stays loyal even after being discarded. Such a
    card cannot be taken into your set" (it is not claimable; the engine lets
    you discard it). Seat 0 of seed 3 is dealt Jinn of the Jar (loyal): its
    card help says so, in English and in Polish."""
    page, _table, errors = open_table(server, browser, "taxonomy", ["easy"], {}, seed=3)
    jinn = ".tx-hand svg.card[aria-label^='Jinn of the Jar']"
    page.wait_for_selector(jinn)
    text = str(page.get_attribute(jinn, "data-help"))
    assert "loyal: when it is discarded, nobody may take it into their set" in text, text
    assert "cannot be discarded" not in text
    page.evaluate("localStorage.setItem('bestiary:lang', 'pl')")
    page.reload()
    page.wait_for_function(
        f"(document.querySelector(\"{jinn}\")?.getAttribute('data-help') || '').includes('lojalna')"
    )
    polish = str(page.get_attribute(jinn, "data-help"))
    assert "nikt nie może wziąć jej do swojego zestawu" in polish, polish
    assert "nie można jej odrzucić" not in polish
    assert not errors, errors


# -- 4. cards: a long-press reads a card, it does not play it --------------------------------


def test_a_long_press_shows_the_cards_text_and_does_not_play_it(server: str, browser: Any) -> None:
    """Issue 26: "a long-press on a touch screen must show the card's text, not
    play it — today an emulated long-press played a card". On a phone-sized
    touch screen a finger held on a playable card of Monster Maker's hand
    opens its text and plays nothing (no move sent, none waiting for
    Confirm); a short tap still plays it."""
    seats = [{"kind": "human", "name": "Tester"}] + [{"kind": "bot", "agent": "easy"}] * 2
    r = httpx.post(
        f"{server}/api/tables", json={"game": "monster-maker", "seats": seats, "seed": 2}
    )
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    token = httpx.post(
        f"{server}/api/tables/{table}/join", json={"seat": 0, "name": "Tester"}
    ).json()["token"]
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        page = ctx.new_page()
        page.set_default_timeout(90_000)  # a replay on a busy machine can take a while
        sent: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))

        def chosen() -> bool:
            """A move was played: sent, or (touch screens confirm each move) waiting for Confirm."""
            waiting = page.evaluate("document.body.dataset.pending") == "yes"
            return waiting or any('"act"' in f for f in sent)

        page.goto(server + "/")
        saved = json.dumps({"seat": 0, "token": token})
        page.evaluate(f"localStorage.setItem('bestiary:seat:{table}', {json.dumps(saved)})")
        page.goto(f"{server}/table/{table}")
        page.wait_for_selector("#conn[data-state='connected']")
        button = page.locator(".mm-hand .card-button[data-action]").first
        button.wait_for()
        name = str(button.get_attribute("data-card"))
        box = button.bounding_box()
        assert box
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp = ctx.new_cdp_session(page)
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
        )
        page.wait_for_timeout(900)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        page.wait_for_timeout(800)
        assert page.is_visible("#card-help"), "a long-press did not show the card's text"
        assert page.inner_text("#card-help").startswith(name)
        assert not chosen(), f"a long-press played the card: {sent}"
        page.tap(".mm-hand .card-button[data-action] >> nth=0")
        page.wait_for_timeout(800)
        assert chosen(), f"a tap no longer plays the card: {sent}"
    finally:
        ctx.close()


# -- 5. motion that shows what happened ---------------------------------------------------------


@pytest.mark.parametrize("reduced", [False, True])
def test_meat_cards_arrive_with_a_short_motion_unless_reduced(
    server: str, browser: Any, reduced: bool
) -> None:
    """Issue 26: "a short CSS transition when a card moves from hand to pile or
    a creature strikes; none under prefers-reduced-motion". A creature on a
    lane plays a short arrival (at most half a second; a damaged one its hit);
    a browser that asks for reduced motion gets none."""
    table = finished_bot_table(server, "meat", 2, {"max_rounds": 2}, seed=28)
    frames = httpx.get(f"{server}/api/tables/{table}/replay", timeout=120).json()["frames"]
    step = next(
        i
        for i, f in enumerate(frames)
        if any(c and c.get("card") for r in f["view"]["field"] for c in r["creatures"])
    )
    ctx = browser.new_context(
        viewport={"width": 1366, "height": 768},
        reduced_motion="reduce" if reduced else "no-preference",
    )
    try:
        page = ctx.new_page()
        open_replay(page, server, table)
        step_to(page, step)
        creature = page.locator(".meat-lane > svg.card[data-key]").first
        creature.wait_for()
        name, seconds = creature.evaluate(
            "el => { const s = getComputedStyle(el);"
            " return [s.animationName, parseFloat(s.animationDuration)]; }"
        )
        if reduced:
            assert name == "none", name
        else:
            assert name in ("meat-arrive", "meat-hit"), name
            assert 0 < seconds <= 0.5, seconds
    finally:
        ctx.close()


# -- 8. the honest peek: only the cards still on top, none at the end ----------------------


def test_taxonomy_peek_shows_only_the_cards_still_on_top_and_goes_at_the_end(
    server: str, browser: Any
) -> None:
    """Issue 26, point 8: "Taxonomy's 'honest peek' box stays on screen to the
    end". The rulebook (v0.2): an honest monster lets you "see the top 3
    cards of the stock"; each draw since then took the first of them. The
    terminal shows the ones left (render.py, peek_left); the page showed all
    three to the end of the game."""
    from bestiary.engine import get_game

    state = get_game("taxonomy").new(2, seed=5)
    view = json.loads(json.dumps(state.view(0)))
    cards = view["hand"][:3]
    page = browser.new_page()
    page.goto(server + "/static/index.html")

    def peeked(stock: int, phase: str) -> list[str]:
        probe = {**view, "peek": {"cards": cards, "stock_then": 100}, "stock": stock}
        probe["phase"] = phase
        state_js = {"game": "taxonomy", "seat": 0, "view": probe, "legal": [], "yourTurn": False}
        return list(
            page.evaluate(
                """async (state) => {
                    const m = await import('/static/games/taxonomy.js');
                    const {h} = await import('/static/js/api.js');
                    const root = document.createElement('div');
                    document.body.append(root);
                    m.render(root, state, {act() {}, seat: 0, h, seatLabel: (s) => `seat ${s}`});
                    const names = [...root.querySelectorAll('.tx-peek svg.card')]
                        .map((c) => c.getAttribute('aria-label'));
                    root.remove();
                    return names;
                }""",
                state_js,
            )
        )

    names = [c["name"] for c in cards]
    shown = peeked(100, "discard")  # an aria-label starts with the card's name
    assert len(shown) == 3 and all(a.startswith(n) for a, n in zip(shown, names, strict=True))
    left = peeked(98, "discard")
    assert len(left) == 1 and left[0].startswith(names[2]), left
    assert peeked(97, "discard") == []
    assert peeked(100, "over") == []
    page.close()
