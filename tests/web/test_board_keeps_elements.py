"""The game boards are redrawn in place (bestiary/web/js/morph.js).

Every socket update redraws the board. A board rebuilt whole swaps each
button for an identical new one, and a press and a release on two different
elements is no click: when a bot moved between a person's press and release,
the click was lost (CI lost a M.E.A.T. lane's "place here" click so). Here
the page's socket runs through the test (Playwright's ``route_web_socket``),
which replays the last update or a changed copy of it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ..server.conftest import loadable_games
from ..server.serving import running
from .conftest import BROWSER_MARKS

pytestmark = BROWSER_MARKS

# Each game with a table that starts with a decision for the person in seat 0.
GAMES = {
    "taxonomy": (["heuristic"], {"rounds": 1}, 4),
    "meat": (["heuristic"], {"vitality_1v1": 6}, 3),
    "monster-maker": (["heuristic"], {}, 1),
    "teratozoic": (["heuristic"], {"short_game": True}, 2),
}
BUTTON = "#board button[data-action]:not([disabled])"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("morph") / "tables.sqlite3")
    with running("monster-maker", db, bot_delay=0.01) as url:
        yield url


class Relay:
    """The page's play socket, through the test: what the server sent down
    (``down``) and what the page sent up (``up``)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.down: list[str] = []
        self.up: list[str] = []
        self.sockets: list[Any] = []
        page.route_web_socket("**/ws/tables/**", self.route)

    def route(self, ws: Any) -> None:
        upstream = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            self.down.append(message if isinstance(message, str) else message.decode())
            ws.send(message)

        def up(message: str | bytes) -> None:
            self.up.append(message if isinstance(message, str) else message.decode())
            upstream.send(message)

        upstream.on_message(down)
        ws.on_message(up)
        self.sockets.append(ws)

    def last_update(self) -> dict[str, Any]:
        for m in reversed(self.down):
            msg = json.loads(m)
            if msg.get("type") == "update":
                return dict(msg)
        raise AssertionError("no update came down the socket")

    def replay(self, msg: dict[str, Any]) -> None:
        """Send ``msg`` down as the server would, and wait until it is drawn."""
        self.page.evaluate("document.body.dataset.over = 'redrawing'")
        self.sockets[-1].send(json.dumps(msg))
        self.page.wait_for_function("document.body.dataset.over !== 'redrawing'")
        self.page.wait_for_timeout(50)  # the renderer's own redraws, if any

    def acts(self) -> list[str]:
        out = []
        for m in self.up:
            msg = json.loads(m)
            if msg.get("type") == "act":
                out.append(str(msg["action"]))
        return out

    def wait_quiet(self, selector: str, timeout: float = 60.0) -> None:
        """Until it is the person's turn, ``selector`` is on the board and no
        update has come for a moment (the bots wait for the person)."""
        deadline = time.monotonic() + timeout
        seen, since = -1, time.monotonic()
        while time.monotonic() < deadline:
            n = len(self.down)
            if n != seen:
                seen, since = n, time.monotonic()
            ready = self.page.evaluate(
                "sel => document.body.dataset.yourTurn === 'yes' && !!document.querySelector(sel)",
                selector,
            )
            if ready and time.monotonic() - since > 0.6:
                return
            self.page.wait_for_timeout(100)
        raise AssertionError(f"no quiet turn with {selector} on the board")


def open_seat(server: str, browser: Any, game: str) -> tuple[Any, Relay, list[str]]:
    if game not in loadable_games():
        pytest.skip(f"{game} does not load yet")
    bots, options, seed = GAMES[game]
    seats = [{"kind": "human", "name": "Presser"}] + [{"kind": "bot", "agent": a} for a in bots]
    r = httpx.post(
        f"{server}/api/tables",
        json={"game": game, "seats": seats, "options": options, "seed": seed},
    )
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    joined = httpx.post(f"{server}/api/tables/{table}/join", json={"seat": 0, "name": "Presser"})
    assert joined.status_code == 200, joined.text
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    relay = Relay(page)
    page.goto(server + "/")
    saved = json.dumps({"seat": 0, "token": joined.json()["token"]})
    page.evaluate(f"localStorage.setItem('bestiary:seat:{table}', {json.dumps(saved)})")
    page.goto(f"{server}/table/{table}")
    page.wait_for_selector("#conn[data-state='connected']")
    return page, relay, errors


def probe(page: Any, selector: str) -> str:
    """Mark the first element ``selector`` finds (a JS property, which a
    new element would not have); returns its data-action."""
    mark = """sel => {
      const b = document.querySelector(sel);
      b.__probe = 'before';
      window.__probe = b;
      return b.dataset.action || '';
    }"""
    return str(page.evaluate(mark, selector))


def probe_kept(page: Any) -> bool:
    kept = "() => window.__probe.isConnected && window.__probe.__probe === 'before'"
    return bool(page.evaluate(kept))


def press_probe(page: Any) -> None:
    """The mouse over the marked element, its button down (not yet up)."""
    box = page.evaluate_handle("window.__probe").as_element().bounding_box()
    assert box, "the marked element is not on screen"
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def click_probe(page: Any) -> None:
    """A real click (the mouse moves there, presses and releases)."""
    page.evaluate_handle("window.__probe").as_element().click(timeout=5000)


def sent_soon(relay: Relay, action: str) -> bool:
    for _ in range(100):
        if action in relay.acts():
            return True
        relay.page.wait_for_timeout(50)
    return False


def wait_for_act(relay: Relay, action: str) -> None:
    assert sent_soon(relay, action), f"{action!r} was not sent; sent: {relay.acts()}"


@pytest.mark.parametrize("game", list(GAMES))
def test_an_update_that_changes_nothing_keeps_the_board_buttons(
    server: str, browser: Any, game: str
) -> None:
    page, relay, errors = open_seat(server, browser, game)
    try:
        relay.wait_quiet(BUTTON)
        action = probe(page, BUTTON)
        assert action
        page.evaluate_handle("window.__probe").as_element().scroll_into_view_if_needed()
        # Pressed, then a bot's update (the same one again: nothing changed),
        # then released: the click counts, with the button's new handler.
        press_probe(page)
        relay.replay(relay.last_update())
        kept = probe_kept(page)  # before the release: its action changes the board
        page.mouse.up()
        sent = sent_soon(relay, action)
        assert sent and kept, f"click sent: {sent}; button kept: {kept}"
        assert not errors, errors
    finally:
        page.close()


def test_a_kept_button_acts_on_the_new_update(server: str, browser: Any) -> None:
    """A Monster Maker hand card keeps its button while what a click on it
    does follows the update: a click sends the new action, never the one the
    previous render's handler closed over."""
    page, relay, errors = open_seat(server, browser, "monster-maker")
    try:
        card = "#board .mm-card[data-action^='play ']:not([disabled])"
        relay.wait_quiet(card)
        before = probe(page, card)
        name = before[len("play ") :]
        msg = relay.last_update()
        legal = [a for a in msg["legal"] if a != before]
        if f"discard {name}" not in legal:
            legal.append(f"discard {name}")
        relay.replay({**msg, "legal": legal, "events": []})
        assert probe_kept(page), "the redraw replaced the card's button"
        assert page.evaluate("() => window.__probe.dataset.action") == f"discard {name}"
        click_probe(page)
        wait_for_act(relay, f"discard {name}")
        assert before not in relay.acts()
        assert not errors, errors
    finally:
        page.close()


def _morph_in_page(server: str, browser: Any, body: str) -> Any:
    """Run ``body`` (JavaScript returning the result) in a page with ``h``,
    ``morph`` and an empty ``root`` in the document, and return its result."""
    page = browser.new_page()
    try:
        page.goto(server + "/")
        return page.evaluate(
            """async () => {
              const { h } = await import('/static/js/api.js');
              const { morph } = await import('/static/js/morph.js');
              const root = document.createElement('div');
              document.body.append(root);
              try {
"""
            + body
            + """
              } finally {
                root.remove();
              }
            }"""
        )
    finally:
        page.close()


def test_morph_keeps_what_the_person_changed(server: str, browser: Any) -> None:
    """morph() itself: a kept element gets the new handler; keyed siblings
    keep their elements when they change places; what a person typed, an
    opened <details> and the focus survive a redraw that did not change them;
    a field the render changes shows the render's value."""
    out = _morph_in_page(
        server,
        browser,
        """              const calls = [];
              const draw = (tag, order, value) => morph(root, [
                h('button', { id: 'b', onclick: () => calls.push(tag) }, 'go ' + tag),
                h('ul', {}, ...order.map((k) => h('li', { 'data-key': k, tabindex: 0 }, k))),
                h('input', { class: 'typed', value: value }),
                h('details', {}, h('summary', {}, 'more'), 'text'),
              ]);
              draw('one', ['a', 'b', 'c'], 'x');
              const button = root.querySelector('#b');
              const items = [...root.querySelectorAll('li')];
              const typed = root.querySelector('.typed');
              typed.value = 'typed by hand';
              root.querySelector('details').open = true;
              const focus = items[0];  // 'a': it moves behind 'c' below
              focus.focus();
              draw('two', ['c', 'a', 'b'], 'x');
              button.click();
              const r = {
                sameButton: root.querySelector('#b') === button,
                text: button.textContent,
                calls: [...calls],
                order: [...root.querySelectorAll('li')].map((li) => li.textContent).join(''),
                sameItems: ['c', 'a', 'b'].every(
                  (k) => root.querySelector(`li[data-key=${k}]`) === items['abc'.indexOf(k)]),
                typed: typed.value,
                open: root.querySelector('details').open,
                focused: document.activeElement === focus,
              };
              draw('three', ['c'], 'y');  // the render changes the field now
              r.changed = typed.value;
              r.left = root.querySelectorAll('li').length;
              return r;
""",
    )
    assert out["sameButton"] and out["text"] == "go two"
    assert out["calls"] == ["two"]  # the new render's handler, never the old
    assert out["order"] == "cab" and out["sameItems"]
    assert out["typed"] == "typed by hand"
    assert out["open"] is True
    assert out["focused"] is True
    assert out["changed"] == "y"
    assert out["left"] == 1


def test_morph_draws_exactly_the_fresh_tree(server: str, browser: Any) -> None:
    """Random trees (keyed and unkeyed elements, text, SVG, repeated keys)
    morphed one into the next: the page shows the fresh tree's markup each
    time, and the kept elements are those whose key and tag still match."""
    out = _morph_in_page(
        server,
        browser,
        """              let seed = 12345;
              const rand = (n) => {  // xorshift32: reproducible
                seed ^= seed << 13;
                seed ^= seed >>> 17;
                seed ^= seed << 5;
                return (seed >>> 0) % n;
              };
              const NS = 'http://www.w3.org/2000/svg';
              const tree = (depth) => {
                const n = rand(6);
                const kids = [];
                for (let i = 0; i < n; i++) {
                  const r = rand(10);
                  if (r < 2) kids.push(['a', 'b', ' ', '—'][rand(4)]);
                  else if (depth > 2 || r < 4) {
                    kids.push(h('span', { class: ['x', 'y'][rand(2)] }, String(rand(3))));
                  }
                  else if (r < 5) {
                    const s = document.createElementNS(NS, 'svg');
                    s.setAttribute('viewBox', `0 0 ${rand(9)} 9`);
                    s.append(document.createElementNS(NS, ['rect', 'text'][rand(2)]));
                    kids.push(s);
                  } else {
                    const attrs = { class: ['c1', 'c2 on', 'c1 on'][rand(3)] };
                    if (rand(2)) attrs['data-card'] = String(rand(4));
                    if (rand(3) === 0) attrs['data-action'] = 'act ' + rand(3);
                    if (rand(4) === 0) attrs.disabled = true;
                    kids.push(h(['div', 'button', 'p'][rand(3)], attrs, ...tree(depth + 1)));
                  }
                }
                return kids;
              };
              let bad = 0;
              for (let round = 0; round < 300; round++) {
                const fresh = tree(0);
                const box = document.createElement('div');
                box.append(...fresh.map((c) => (c instanceof Node ? c.cloneNode(true) : c)));
                const want = box.innerHTML;
                morph(root, fresh);
                if (root.innerHTML !== want) bad++;
              }
              return bad;
""",
    )
    assert out == 0


def test_a_new_panel_leaves_the_others_in_place(server: str, browser: Any) -> None:
    """A panel that appears above others of its kind (Taxonomy's attack box
    above the hand, with a peek box of the same first class further down) is
    new: the hand, the peek and the table below keep their elements (the
    discard pile's opened <details> was lost so once)."""
    out = _morph_in_page(
        server,
        browser,
        """              const board = (attack) => [
                h('p', { class: 'turn' }, 'turn'),
                attack ? h('div', { class: 'tx-box tx-attack' }, 'attack?') : null,
                h('h3', {}, 'Your hand'),
                h('div', { class: 'tx-hand' }, h('div', { class: 'tx-group' }, 'g')),
                h('div', { class: 'tx-box tx-peek' }, 'peek'),
                h('h3', {}, 'On the table'),
                h('div', { class: 'tx-tables' }, h('details', {}, h('summary', {}, 'all'))),
              ];
              morph(root, board(false));
              const before = [...root.children];
              root.querySelector('details').open = true;
              morph(root, board(true));
              const after = [...root.children];
              const r = {
                kept: before.every((e) => after.includes(e)),
                classes: after.map((e) => e.className).join(','),
                open: root.querySelector('details').open,
              };
              return r;
""",
    )
    assert out["kept"], out
    assert out["classes"] == "turn,tx-box tx-attack,,tx-hand,tx-box tx-peek,,tx-tables"
    assert out["open"] is True


def test_the_action_filter_keeps_working_across_a_redraw(server: str, browser: Any) -> None:
    """More than 24 actions get a filter (generic.js). On a board redrawn in
    place the filter field is the live one and the buttons are kept: typing
    still hides the buttons whose text lacks the words, and a redraw that
    passes the typed words keeps the same buttons hidden."""
    out = _morph_in_page(
        server,
        browser,
        """              const { actionButtons } = await import('/static/js/generic.js');
              const legal = Array.from({ length: 30 }, (_, i) => `discard card${i}`);
              const acts = [];
              const api = { act: (a) => acts.push(a) };
              morph(root, [actionButtons({ legal }, api)]);
              const input = root.querySelector('input.filter');
              input.value = 'card1';
              input.dispatchEvent(new Event('input'));
              const shown = () =>
                [...root.querySelectorAll('button.action')].filter((b) => !b.hidden).length;
              const typed = shown();  // card1, card10 ... card19
              morph(root, [actionButtons({ legal }, api, input.value)]);
              const kept = root.querySelector('input.filter') === input;
              const after = shown();
              input.value = 'card2';
              input.dispatchEvent(new Event('input'));
              const again = shown();  // card2, card20 ... card29
              root.querySelector('button.action:not([hidden])').click();
              return { typed, kept, after, again, acts };
""",
    )
    assert out == {"typed": 11, "kept": True, "after": 11, "again": 11, "acts": ["discard card2"]}
