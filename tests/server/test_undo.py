"""Undo at the web table (issue 26, "Confirm and undo for people"): "undo of
your own last move until the next seat has acted, on the page and in the
terminal (bots wait a short, configurable beat so that undo is real)".

The rules (server/takeback.py): a person alone with bots takes back their own
last move while it revealed nothing and no other seat made a move they could
see; the store forgets the move, every socket the move showed something gets
``reset`` and its whole state anew, and nobody learns more than they could know.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bestiary.engine import register
from bestiary.server import create_app
from bestiary.server.live import LiveTable, rebuild
from bestiary.server.store import Store, database_url

from ..engine.toygame import GAME as TOY
from ..engine.toygame import ToyGame, ToyState
from .conftest import create, hello, join, next_update, recv


class WhisperState(ToyState):
    """Blind bids where nobody hears that another seat has chosen (the toy
    game announces it): a bot's bid shows the others nothing until the trick
    is complete."""

    def apply(self, seat: int, action: Any) -> None:
        self.check_legal(seat, action)
        self.pending[seat] = action.card
        self.log.emit("chose", to=[seat], seat=seat)
        if len(self.pending) == self.players:
            bids, best = self.pending, max(self.pending.values())
            winner = next(s for s, c in bids.items() if c == best)
            for s, c in bids.items():
                self.hands[s].remove(c)
                self.gone.append(c)
            self.tricks[winner] += 1
            self.played += 1
            self.log.emit("trick", bids={str(s): c for s, c in sorted(bids.items())}, winner=winner)
            self.pending = {}

    def view(self, seat: int | None) -> dict[str, Any]:
        view = super().view(seat)
        del view["chosen"]
        return view

    def clone(self) -> WhisperState:
        other = super().clone()
        other.__class__ = WhisperState
        return other  # type: ignore[return-value]


class WhisperGame(ToyGame):
    id = "toy-whisper"
    title = "Whispered bids (test game)"

    def create(self, players: int, seed: int, rules: Any) -> WhisperState:
        return WhisperState(self, players, seed, rules)


register(TOY)
register(WhisperGame())

BEAT = 30.0  # the bots' beat: long enough that they never answer before the test says so


@pytest.fixture
def slow(db_path: str) -> Iterator[TestClient]:
    """Bots that wait their beat (a long one) before answering a person."""
    with TestClient(create_app(db_path, bot_delay=BEAT)) as c:
        yield c


def _call(client: TestClient, fn: Callable[[], Awaitable[Any]]) -> Any:
    return client.portal.call(fn)  # type: ignore[union-attr]


def _live(client: TestClient, table_id: str) -> LiveTable:
    return client.app.state.hub.live[table_id]  # type: ignore[attr-defined,no-any-return]


def _stored(client: TestClient, table_id: str) -> list[tuple[int, str]]:
    row = client.app.state.hub.store.load_table(table_id)  # type: ignore[attr-defined]
    return list(row.moves)


def _until_pong(ws: Any) -> list[dict[str, Any]]:
    """Every message before the answer to a ping (the server keeps order)."""
    ws.send_json({"type": "ping"})
    out = []
    while (msg := recv(ws))["type"] != "pong":
        out.append(msg)
    return out


def _bot_moves(client: TestClient, table_id: str, seat: int) -> None:
    """The bot at ``seat`` answers now (as its loop does after its beat)."""
    table = _live(client, table_id)

    async def move() -> None:
        async with table.lock:
            await table._apply(seat, str(table.state.legal(seat)[0]), person=False)

    _call(client, move)


def _set_beat(client: TestClient, table_id: str, seconds: float) -> None:
    """The table's bots wait ``seconds`` from now on (a waiting bot starts again)."""
    table = _live(client, table_id)

    async def beat() -> None:
        table.bot_delay = seconds
        if table.bot_task is not None:
            table.bot_task.cancel()
            table.bot_task = None
        table.wake_bots()

    _call(client, beat)


def _sit(client: TestClient, game: str, seats: list[str], seed: int = 3) -> tuple[str, str]:
    table = create(client, game, seats, seed=seed)
    return table["id"], join(client, table["id"], 0)


def test_a_move_that_showed_nothing_goes_back_in_the_state_the_store_and_the_log(
    slow: TestClient,
) -> None:
    """The issue: "undo of your own last move until the next seat has acted".
    The bid goes back — state, counters, store rows — and both the player and a
    spectator (who saw that a bid was made) are reset, with a log line."""
    table_id, token = _sit(slow, "toy", ["human", "random", "random"])
    url = f"/ws/tables/{table_id}"
    with slow.websocket_connect(url) as ws, slow.websocket_connect(url) as watcher:
        first = hello(ws, token)
        seen = hello(watcher, None)
        assert first["can_undo"] is False and "can_undo" not in seen
        ws.send_json({"type": "act", "action": first["legal"][0]})
        moved = next_update(ws)
        assert moved["can_undo"] is True and moved["moves"] == 1
        assert next_update(watcher)["table"]["moves"] == 1
        assert _stored(slow, table_id) == [(0, first["legal"][0])]

        ws.send_json({"type": "undo"})
        assert recv(ws) == {"type": "reset", "why": "undo"}
        back = next_update(ws)
        for key in ("view", "legal", "events", "your_turn", "moves"):
            assert back[key] == first[key], key
        assert back["can_undo"] is False
        assert [n["texts"] for n in back["notices"]] == [
            {"en": "You took back your move.", "pl": "Cofnięto twój ruch."}
        ]
        assert _stored(slow, table_id) == []
        live = _live(slow, table_id)  # the state put back is the replay of what is stored
        replayed = rebuild(live.game, slow.app.state.hub.store.load_table(table_id))  # type: ignore[attr-defined]
        assert [live.state.view(v) for v in (None, 0, 1, 2)] == [
            replayed.view(v) for v in (None, 0, 1, 2)
        ]
        assert live.shown_moves == dict.fromkeys([None, 0, 1, 2], 0)
        assert recv(watcher) == {"type": "reset", "why": "undo"}
        again = next_update(watcher)
        assert again["view"] == seen["view"] and again["table"]["moves"] == 0
        assert again["notices"][0]["texts"]["en"] == "ann took back a move."

        # The table plays on from there: another bid is accepted and stored.
        ws.send_json({"type": "act", "action": first["legal"][1]})
        assert next_update(ws)["can_undo"] is True
        assert _stored(slow, table_id) == [(0, first["legal"][1])]


def test_no_undo_once_a_bot_has_answered(slow: TestClient) -> None:
    """The issue: "until the next seat has acted". The bot's bid completes
    the trick, which the player sees, so the bid stands."""
    table_id, token = _sit(slow, "toy", ["human", "random"])
    with slow.websocket_connect(f"/ws/tables/{table_id}") as ws:
        first = hello(ws, token)
        ws.send_json({"type": "act", "action": first["legal"][0]})
        assert next_update(ws)["can_undo"] is True
        _set_beat(slow, table_id, 0.01)
        answered = next_update(ws)
        assert any(e["event"]["kind"] == "trick" for e in answered["events"])
        assert answered["can_undo"] is False
        ws.send_json({"type": "undo"})
        refused = recv(ws)
        assert refused["type"] == "error" and refused["undo"] is True
        assert "other players have moved since" in refused["message"]
        assert refused["texts"]["pl"].startswith("Nie można cofnąć: inni gracze")
        # Both moves stand (the bot, leading the next trick, may have bid again).
        stored = _stored(slow, table_id)
        assert len(stored) >= 2 and stored[0] == (0, first["legal"][0]) and stored[1][0] == 1


def test_a_move_that_revealed_something_stands(slow: TestClient) -> None:
    """(b) "the move revealed nothing": the player's bid completes the trick
    and shows the bot's card, so it cannot go back."""
    table_id, token = _sit(slow, "toy", ["human", "random"])
    with slow.websocket_connect(f"/ws/tables/{table_id}") as ws:
        msg = hello(ws, token)
        _set_beat(slow, table_id, 0.01)  # the bot bids first
        while 1 not in msg["view"]["chosen"]:
            msg = next_update(ws)
        _live(slow, table_id).bot_delay = BEAT  # and then waits
        ws.send_json({"type": "act", "action": msg["legal"][0]})
        done = next_update(ws)
        assert any(e["event"]["kind"] == "trick" for e in done["events"])
        assert done["can_undo"] is False
        ws.send_json({"type": "undo"})
        refused = recv(ws)
        assert "showed you something new" in refused["message"]
        assert msg["legal"][0] in refused["message"]
        assert len(_stored(slow, table_id)) == 2


def test_no_undo_with_a_second_person_at_the_table(slow: TestClient) -> None:
    """(c): another person may have seen the move; the table cannot ask them."""
    table = create(slow, "toy", ["human", "human"], seed=3)
    tokens = [join(slow, table["id"], 0), join(slow, table["id"], 1, name="bo")]
    url = f"/ws/tables/{table['id']}"
    with slow.websocket_connect(url) as a, slow.websocket_connect(url) as b:
        first = hello(a, tokens[0])
        hello(b, tokens[1])
        a.send_json({"type": "act", "action": first["legal"][0]})
        assert next_update(a)["can_undo"] is False
        next_update(b)
        a.send_json({"type": "undo"})
        refused = recv(a)
        assert "another person plays at this table" in refused["message"]
        assert "inna osoba" in refused["texts"]["pl"]
        assert _until_pong(b) == []  # the other person hears nothing of it
        assert len(_stored(slow, table["id"])) == 1


def test_bots_that_answer_at_once_leave_no_moment_for_undo(client: TestClient) -> None:
    """The issue: "bots wait a short, configurable beat so that undo is
    real". With a beat of 0 (``bestiary serve --bot-delay 0``) there is none, and the
    refusal says why."""
    table_id, token = _sit(client, "toy", ["human", "random"])
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        first = hello(ws, token)
        assert first["can_undo"] is False
        ws.send_json({"type": "undo"})
        refused = recv(ws)
        assert "bot delay is 0" in refused["message"]


def test_refused_undos_change_nothing(slow: TestClient) -> None:
    """Bad input leaves the table as it was: a spectator's undo, an undo
    with no move to take back, a second undo of the same move."""
    table_id, token = _sit(slow, "toy", ["human", "random", "random"])
    url = f"/ws/tables/{table_id}"
    with slow.websocket_connect(url) as ws, slow.websocket_connect(url) as watcher:
        first = hello(ws, token)
        hello(watcher, None)
        ws.send_json({"type": "undo"})
        assert "no move of your own" in recv(ws)["message"]
        watcher.send_json({"type": "undo"})
        assert recv(watcher) == {"type": "error", "message": "spectators cannot take moves back"}
        ws.send_json({"type": "act", "action": first["legal"][0]})
        next_update(ws)
        next_update(watcher)
        ws.send_json({"type": "undo"})
        assert recv(ws)["type"] == "reset"
        next_update(ws)
        ws.send_json({"type": "undo"})
        assert "no move of your own" in recv(ws)["message"]
        assert _stored(slow, table_id) == []
        assert _until_pong(ws) == []


def test_a_store_that_disagrees_refuses_the_undo_and_resets_to_the_store(
    slow: TestClient,
) -> None:
    """Never a wrong state: when the store does not hold the moves the table
    holds (it cannot happen with one process), nothing is deleted and every
    socket starts again from what is stored."""
    table_id, token = _sit(slow, "toy", ["human", "random", "random"])
    store = slow.app.state.hub.store  # type: ignore[attr-defined]
    with slow.websocket_connect(f"/ws/tables/{table_id}") as ws:
        first = hello(ws, token)
        ws.send_json({"type": "act", "action": first["legal"][0]})
        next_update(ws)
        assert store.take_back(table_id, 0, 1)  # behind the table's back
        ws.send_json({"type": "undo"})
        assert recv(ws)["type"] == "reset"
        assert next_update(ws)["view"] == first["view"]
        assert "other players have moved since" in recv(ws)["message"]
        assert _live(slow, table_id).moves == 0


def test_a_bots_move_the_player_could_not_see_goes_back_with_theirs(slow: TestClient) -> None:
    """Whispered bids: the first bot's bid shows the player nothing, so it
    neither closes the window (which would tell the player that a bot had
    bid) nor survives the undo; a spectator, shown nothing all along, is sent
    nothing at all."""
    table_id, token = _sit(slow, "toy-whisper", ["human", "random", "random"])
    url = f"/ws/tables/{table_id}"
    with slow.websocket_connect(url) as ws, slow.websocket_connect(url) as watcher:
        first = hello(ws, token)
        hello(watcher, None)
        ws.send_json({"type": "act", "action": first["legal"][0]})
        assert next_update(ws)["can_undo"] is True
        _bot_moves(slow, table_id, 1)
        assert _until_pong(ws) == []  # nothing to see, nothing sent: the window stays open
        assert len(_stored(slow, table_id)) == 2
        ws.send_json({"type": "undo"})
        assert recv(ws)["type"] == "reset"
        assert next_update(ws)["view"] == first["view"]
        assert _stored(slow, table_id) == []
        assert _until_pong(watcher) == []
        # The second bot's bid completes the trick: that one the player sees.
        ws.send_json({"type": "act", "action": first["legal"][0]})
        next_update(ws)
        _bot_moves(slow, table_id, 1)
        _bot_moves(slow, table_id, 2)
        assert next_update(ws)["can_undo"] is False


def _spectator_sees(client: TestClient, bid: int) -> list[str]:
    """What a spectator is sent while the player bids ``bid`` and takes it back."""
    table_id, token = _sit(client, "toy", ["human", "random", "random"], seed=11)
    url = f"/ws/tables/{table_id}"
    with client.websocket_connect(url) as ws, client.websocket_connect(url) as watcher:
        first = hello(ws, token)
        seen = [hello(watcher, None)]
        ws.send_json({"type": "act", "action": first["legal"][bid]})
        next_update(ws)
        ws.send_json({"type": "undo"})
        assert recv(ws)["type"] == "reset"
        next_update(ws)
        seen += _until_pong(watcher)
    created = seen[0]["table"]["created_at"]
    return [json.dumps(m).replace(table_id, "ID").replace(created, "WHEN") for m in seen]


def test_a_spectator_cannot_tell_which_hidden_bid_was_taken_back(slow: TestClient) -> None:
    """A spectator learns that a move was taken back (that is public) but not
    what it was: two worlds that differ only in the hidden bid give the very
    same messages."""
    one, other = _spectator_sees(slow, 0), _spectator_sees(slow, 2)
    assert one == other
    kinds = [json.loads(m)["type"] for m in one]
    assert kinds == ["update", "update", "reset", "update"]


def test_another_process_undo_notice_makes_a_replica_read_the_table_again(
    slow: TestClient,
) -> None:
    """Several processes: an ``undo`` notice (moves from n on deleted by
    another process) resets this process's sockets to the stored table."""
    table_id, token = _sit(slow, "toy", ["human", "random", "random"])
    hub = slow.app.state.hub  # type: ignore[attr-defined]
    with slow.websocket_connect(f"/ws/tables/{table_id}") as ws:
        first = hello(ws, token)
        ws.send_json({"type": "act", "action": first["legal"][0]})
        next_update(ws)
        assert hub.store.take_back(table_id, 0, 2) is False  # not the moves it holds
        assert hub.store.take_back(table_id, 0, 1) is True

        async def notice() -> None:
            await hub._notice("undo", table_id, 0)

        _call(slow, notice)
        assert recv(ws)["type"] == "reset"
        back = next_update(ws)
        assert back["view"] == first["view"] and back["legal"] == first["legal"]


PG = os.environ.get("BESTIARY_TEST_PG_URL")


@pytest.mark.postgres
@pytest.mark.skipif(not PG, reason="BESTIARY_TEST_PG_URL is not set (no PostgreSQL server)")
def test_on_postgresql_the_store_takes_back_and_the_table_refuses(tmp_path: Path) -> None:
    """The store's take_back works on PostgreSQL too and is announced; the
    live table still refuses undo there (a replica that has not heard yet
    could write on top of the old history) and says so."""
    import psycopg

    assert PG is not None
    name = f"bestiary_test_{secrets.token_hex(4)}"
    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"{PG.rsplit('/', 1)[0]}/{name}"
    try:
        with TestClient(create_app(url, bot_delay=BEAT)) as client:
            table_id, token = _sit(client, "toy", ["human", "random", "random"])
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                first = hello(ws, token)
                ws.send_json({"type": "act", "action": first["legal"][0]})
                assert next_update(ws)["can_undo"] is False
                ws.send_json({"type": "undo"})
                assert "several server processes" in recv(ws)["message"]
        store = Store(database_url(url))
        try:
            with psycopg.connect(url, autocommit=True) as listener:
                listener.execute("LISTEN bestiary")
                assert store.take_back(table_id, 0, 1) is True
                notes = [n.payload for n in listener.notifies(timeout=5, stop_after=1)]
            assert notes and notes[0].endswith(f" undo {table_id} 0")
            assert store.load_table(table_id).moves == []  # type: ignore[union-attr]
        finally:
            store.dispose()
    finally:
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
