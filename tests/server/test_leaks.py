"""Hidden information over the wire: every message the server sends a seat is
exactly what the protocol gives that seat — ``view(seat)``, the events
``events_since(n, seat)`` and ``legal(seat)`` — recomputed here from an
independent replay of the moves. DESIGN.md: "a seat's view and events never
contain what that seat may not know — the server sends exactly these"."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bestiary.engine import Rng, get_game
from bestiary.engine.protocol import Game, State
from bestiary.server.messages import event_json, table_names

from .conftest import create, hello, join, loadable_games, next_update, recv

GAMES = loadable_games()
MAX_MOVES = 400  # enough for a short game; long games are checked up to here


def _reference(game: Game, table: dict[str, Any], moves: list[tuple[int, str]]) -> State:
    state = game.new(
        table["players"], seed=table["seed"], variant=table["variant"], options=table["options"]
    )
    for seat, text in moves:
        state.apply_text(seat, text)
    return state


def _expected(
    game: Game, state: State, seat: int | None, since: int, shown: int, names: Any = None
) -> dict[str, Any]:
    """What the protocol gives ``seat``: its view, legal actions and the events
    after log index ``since``, numbered among the events it can see (log lines
    name seats by the table's public ``names``)."""
    events = []
    for k, e in enumerate(state.events_since(since, seat)):
        item = event_json(game, e, names)
        item["event"]["i"] = shown + k
        events.append(item)
    return {
        "view": state.view(seat),
        "events": events,
        "legal": [str(a) for a in state.legal(seat)] if seat is not None and not state.over else [],
    }


def _check(
    game: Game, state: State, seat: int | None, since: int, shown: int, msg: dict[str, Any]
) -> None:
    want = _expected(game, state, seat, since, shown, table_names(msg["table"]))
    got = {k: msg[k] for k in want}
    # JSON round trip: the wire carries JSON, so compare in JSON terms.
    assert got == json.loads(json.dumps(want)), f"seat {seat} got more or less than its own"
    if state.over:
        assert msg["result"] == state.result.to_json()  # type: ignore[union-attr]
    else:
        assert msg["result"] is None


def _shows(state: State, before: int, seat: int | None) -> bool:
    """Whether the events since log index ``before`` show ``seat`` anything."""
    return any(e.visible(seat) for e in state.log.events[before:])


def _until_pong(ws: Any) -> list[dict[str, Any]]:
    """Every message before the answer to a ping (the server keeps order)."""
    ws.send_json({"type": "ping"})
    out = []
    while (msg := recv(ws))["type"] != "pong":
        out.append(msg)
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_every_message_is_exactly_what_the_protocol_gives_that_seat(
    fast_client: TestClient, game_id: str
) -> None:
    """Random games of every loadable game, every seat human and connected,
    plus a spectator: each message is checked against an independent replay.
    A move that shows a seat nothing sends it nothing: no message, no counter."""
    client = fast_client
    game = get_game(game_id)
    players = game.default_players
    for seed in (1, 2):
        table = create(client, game_id, ["human"] * players, seed=seed)
        table["seed"] = seed
        tokens = [join(client, table["id"], s) for s in range(players)]
        rng = Rng(seed)
        moves: list[tuple[int, str]] = []
        with ExitStack() as stack:
            socks = [
                stack.enter_context(client.websocket_connect(f"/ws/tables/{table['id']}"))
                for _ in range(players + 1)
            ]
            seats: list[int | None] = [*range(players), None]
            state = _reference(game, table, moves)
            since = dict.fromkeys(seats, 0)
            shown = dict.fromkeys(seats, 0)  # events each seat was sent
            counter = dict.fromkeys(seats, 0)  # moves that showed each seat something
            latest: dict[int | None, dict[str, Any]] = {}
            for ws, seat in zip(socks, seats, strict=True):
                latest[seat] = hello(ws, tokens[seat] if seat is not None else None)
                _check(game, state, seat, 0, 0, latest[seat])
                since[seat] = state.event_count()
                shown[seat] = len(latest[seat]["events"])
            _no_other_hand_after_the_deal(state, latest)
            while not state.over and len(moves) < MAX_MOVES:
                owed = [s for s in range(players) if latest[s]["your_turn"]]
                seat = owed[rng.randrange(len(owed))]
                text = rng.choice(latest[seat]["legal"])
                socks[seat].send_json({"type": "act", "action": text})
                moves.append((seat, text))
                before = state.event_count()
                state.apply_text(seat, text)
                for ws, s in zip(socks, seats, strict=True):
                    got = _until_pong(ws)
                    assert len(got) <= 1 and all(m["type"] == "update" for m in got), got
                    if _shows(state, before, s):
                        counter[s] += 1
                        assert got, f"seat {s} was not told of {text!r}"
                    if not got:  # nothing sent: then nothing changed for this seat
                        want = _expected(game, state, s, since[s], shown[s])
                        assert not want["events"]
                        assert want["view"] == json.loads(json.dumps(latest[s]["view"]))
                        assert want["legal"] == latest[s]["legal"]
                        continue
                    latest[s] = got[0]
                    assert latest[s]["moves"] == counter[s]
                    _check(game, state, s, since[s], shown[s], latest[s])
                    since[s] = state.event_count()
                    shown[s] += len(latest[s]["events"])


def _hidden_hand_of(view: dict[str, Any], seat: int | None = None) -> list[Any] | None:
    """A seat's own hand as its own view shows it (``hand``, or ``hands[seat]``)."""
    hand = view.get("hand")
    if isinstance(hand, list):
        return list(hand)
    hands = view.get("hands")
    if seat is not None and isinstance(hands, list) and seat < len(hands):
        mine = hands[seat]
        return list(mine) if isinstance(mine, list) else None
    if seat is not None and isinstance(hands, dict):
        mine = hands.get(str(seat))
        return list(mine) if isinstance(mine, list) else None
    return None


def _contains(tree: Any, target: list[Any]) -> bool:
    if tree == target:
        return True
    if isinstance(tree, dict):
        return any(_contains(v, target) for v in tree.values())
    if isinstance(tree, list):
        return any(_contains(v, target) for v in tree)
    return False


def _no_other_hand_after_the_deal(state: State, msgs: dict[int | None, dict[str, Any]]) -> None:
    """Right after the deal (before any peek or reveal), no seat's message and
    no spectator's contains another seat's whole hand."""
    for o in range(state.players):
        hidden = _hidden_hand_of(state.view(o), o)
        if not hidden or len(hidden) < 2:
            continue
        wire = json.loads(json.dumps(hidden))
        for s, msg in msgs.items():
            if s != o:
                assert not _contains(msg["view"], wire), f"seat {s} sees seat {o}'s hand"
                assert not _contains(msg["events"], wire), f"seat {s} hears seat {o}'s hand"


def test_the_toy_game_never_shows_another_hand(client: TestClient) -> None:
    """The toy game hides hands: no card of another seat's hand, as that seat's
    own view shows it, reaches a seat before it is played to a trick."""
    game = get_game("toy")
    table = create(client, "toy", ["human", "human", "human"], seed=7)
    tokens = [join(client, table["id"], s) for s in range(3)]
    with ExitStack() as stack:
        socks = [
            stack.enter_context(client.websocket_connect(f"/ws/tables/{table['id']}"))
            for _ in range(3)
        ]
        msgs = [hello(ws, tok) for ws, tok in zip(socks, tokens, strict=True)]
        state = game.new(3, seed=7)
        while not state.over:
            hands = [_hidden_hand_of(state.view(s)) or [] for s in range(3)]
            for s, msg in enumerate(msgs):
                own = set(msg["view"]["hand"])
                others = {c for o in range(3) if o != s for c in hands[o]}
                assert not own & others
                shown = {
                    e["event"].get("cards") and tuple(e["event"]["cards"]) for e in msg["events"]
                }
                assert all(not c or set(c) <= set(hands[s]) | own for c in shown if c)
            seat = next(s for s in range(3) if msgs[s]["your_turn"])
            text = msgs[seat]["legal"][0]
            socks[seat].send_json({"type": "act", "action": text})
            state.apply_text(seat, text)
            msgs = [next_update(ws) for ws in socks]


class _Follower:
    """The reference replay of a table with bots, advanced to the point each
    message to ``seat`` describes: the message says only how many moves showed
    the seat something, so the prefix is found by replaying stored moves."""

    def __init__(self, game: Game, table: dict[str, Any], seat: int) -> None:
        self.game, self.seat = game, seat
        self.state = _reference(game, table, [])
        self.done = 0  # stored moves replayed
        self.counter = 0
        self.since = self.shown = 0

    def check(self, stored: list[tuple[int, str]], msg: dict[str, Any]) -> None:
        while True:
            if self.counter == msg["moves"]:
                try:
                    _check(self.game, self.state, self.seat, self.since, self.shown, msg)
                    break
                except AssertionError:
                    if self.done >= len(stored):
                        raise
            assert self.counter <= msg["moves"] and self.done < len(stored), "no prefix matches"
            before = self.state.event_count()
            self.state.apply_text(*stored[self.done])
            self.done += 1
            self.counter += _shows(self.state, before, self.seat)
        self.since = self.state.event_count()
        self.shown += len(msg["events"])


@pytest.mark.parametrize("game_id", GAMES)
def test_with_bots_a_seat_still_gets_only_its_own(fast_client: TestClient, game_id: str) -> None:
    """One person and server-side bots: each message to the person equals the
    protocol's output for that seat after some prefix of the accepted moves
    with the same count of moves shown to it."""
    client = fast_client
    game = get_game(game_id)
    players = game.default_players
    table = create(client, game_id, ["human"] + ["random"] * (players - 1), seed=5)
    table["seed"] = 5
    token = join(client, table["id"], 0)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    rng = Rng(5)
    follower = _Follower(game, table, 0)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        msg = hello(ws, token)
        while True:
            follower.check(hub.live[table["id"]].row.moves, msg)
            if msg["over"] or follower.done >= MAX_MOVES:
                break
            if msg["your_turn"]:
                ws.send_json({"type": "act", "action": rng.choice(msg["legal"])})
            msg = recv(ws)
            while msg["type"] == "error":
                # A move made stale by a bot's: the update for the bot's move follows.
                assert "not a legal action" in msg["message"] or "no decision" in msg["message"]
                msg = recv(ws)
