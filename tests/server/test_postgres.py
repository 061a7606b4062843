"""The store on a real PostgreSQL server (BESTIARY_TEST_PG_URL, which
scripts/services.sh exports): migrations, tables, seats, moves, restart.
Each test run creates a database of its own and drops it afterwards."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from bestiary.server import create_app
from bestiary.server.store import Store, database_url

from .conftest import create, hello, join, next_update

PG = os.environ.get("BESTIARY_TEST_PG_URL")
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not PG, reason="BESTIARY_TEST_PG_URL is not set (no PostgreSQL server)"),
]


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    import psycopg

    assert PG is not None
    name = f"bestiary_test_{secrets.token_hex(4)}"
    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = PG.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_postgresql_url_uses_psycopg_3() -> None:
    assert database_url("postgresql://u@h:5/db") == "postgresql+psycopg://u@h:5/db"


def test_migrations_run_twice_without_harm(pg_url: str) -> None:
    store = Store(database_url(pg_url))
    try:
        store.migrate()
        store.migrate()  # already at head: nothing to do
        assert store.table_ids(("waiting", "playing", "finished")) is not None
    finally:
        store.dispose()


def test_play_and_resume_on_postgresql(pg_url: str) -> None:
    """Create, join, play a move, restart the app: the move and the tokens are
    still there, and the game then plays to its end and is stored finished."""
    with TestClient(create_app(pg_url, bot_delay=0)) as client:
        t = create(client, seats=["human", "human"], seed=21)
        tokens = [join(client, t["id"], 0), join(client, t["id"], 1)]
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            msg = hello(ws, tokens[0])
            ws.send_json({"type": "act", "action": msg["legal"][0]})
            before = next_update(ws)
    with TestClient(create_app(pg_url, bot_delay=0)) as client:
        with (
            client.websocket_connect(f"/ws/tables/{t['id']}") as a,
            client.websocket_connect(f"/ws/tables/{t['id']}") as b,
        ):
            msgs = [hello(a, tokens[0]), hello(b, tokens[1])]
            assert msgs[0]["view"] == before["view"] and msgs[0]["moves"] == 1
            while not msgs[0]["over"]:
                seat = 0 if msgs[0]["your_turn"] else 1
                (a, b)[seat].send_json({"type": "act", "action": msgs[seat]["legal"][0]})
                msgs = [next_update(a), next_update(b)]
        rec = client.get(f"/api/tables/{t['id']}/record").json()
        assert len(rec["moves"]) == 6 and rec["result"] == msgs[0]["result"]
        finished = client.get("/api/tables", params={"status": "finished"}).json()["tables"]
        assert t["id"] in [x["id"] for x in finished]


def test_a_move_number_is_written_once(pg_url: str) -> None:
    """The (table, move number) key refuses a second writer of the same move,
    so two servers on one database cannot fork a table's history."""
    from bestiary.server.store import MoveTaken

    with TestClient(create_app(pg_url, bot_delay=0)) as client:
        t = create(client, seats=["human", "human"], seed=1)
        store = client.app.state.store  # type: ignore[attr-defined]
        with store.recording_move(t["id"], 0, 0, "bid 1"):
            pass
        with pytest.raises(MoveTaken), store.recording_move(t["id"], 0, 1, "bid 2"):
            pass
        assert store.load_table(t["id"]).moves == [(0, "bid 1")]


def test_a_move_written_in_one_statement_is_stored_announced_and_written_once(
    pg_url: str,
) -> None:
    """``write_move`` (the store threads' path): the move is stored, its notice
    reaches a listener, and a second writer of the number gets MoveTaken with
    nothing written."""
    import psycopg

    from bestiary.server.store import CHANNEL, MoveTaken

    with TestClient(create_app(pg_url, bot_delay=0)) as client:
        t = create(client, seats=["human", "human"], seed=1)
        store = client.app.state.store  # type: ignore[attr-defined]
        with psycopg.connect(pg_url, autocommit=True) as ear:
            ear.execute(f"LISTEN {CHANNEL}")
            store.write_move(t["id"], 0, 0, "bid 1", None)
            with pytest.raises(MoveTaken):
                store.write_move(t["id"], 0, 1, "bid 2", None)
            notes = [n.payload for n in ear.notifies(timeout=5, stop_after=1)]
        assert store.load_table(t["id"]).moves == [(0, "bid 1")]
        assert notes == [f"{store.node} move {t['id']} 1"]


def test_lobby_joining_and_hello_work_with_the_store_off_the_event_loop(pg_url: str) -> None:
    """Creating, listing, joining and saying hello on PostgreSQL (their store
    calls run on the store's threads) behave as before."""
    with TestClient(create_app(pg_url, bot_delay=0)) as client:
        t = create(client, seats=["human", "random"])
        listed = client.get("/api/tables", params={"status": "waiting"}).json()
        assert t["id"] in {x["id"] for x in listed["tables"]}
        token = join(client, t["id"], 0)
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            assert hello(ws, token)["seat"] == 0


def test_a_bots_move_is_announced_after_its_commit(pg_url: str) -> None:
    """A bot's move (``notice_after``) commits without a NOTIFY in its
    transaction; its notice follows from the store's notice thread, and a
    taken number still raises MoveTaken and announces nothing."""
    import psycopg

    from bestiary.server.store import CHANNEL, MoveTaken

    with TestClient(create_app(pg_url, bot_delay=0)) as client:
        t = create(client, seats=["human", "human"], seed=1)
        store = client.app.state.store  # type: ignore[attr-defined]
        with psycopg.connect(pg_url, autocommit=True) as ear:
            ear.execute(f"LISTEN {CHANNEL}")
            store.write_move(t["id"], 0, 0, "bid 1", None, True)
            with pytest.raises(MoveTaken):
                store.write_move(t["id"], 0, 1, "bid 2", None, True)
            store.write_move(t["id"], 1, 1, "bid 2", None, True)
            notes = [n.payload for n in ear.notifies(timeout=5, stop_after=2)]
        assert store.load_table(t["id"]).moves == [(0, "bid 1"), (1, "bid 2")]
        assert notes == [f"{store.node} move {t['id']} 1", f"{store.node} move {t['id']} 2"]


def test_bots_moves_of_many_tables_are_written_in_one_statement(pg_url: str) -> None:
    """``Store.write_bot_move``: moves of several tables queued together are
    written by one statement and one commit; a number another writer already
    stored is skipped (MoveTaken for its waiter, nothing written) while the
    rest of the batch is stored and announced; waiters hear only after the
    commit."""
    import asyncio

    import psycopg

    from bestiary.server.store import CHANNEL, MoveTaken
    from bestiary.server.store import _now as store_now

    with TestClient(create_app(pg_url, bot_delay=0)) as client:
        ids = [create(client, seats=["human", "human"], seed=i)["id"] for i in range(3)]
        store = client.app.state.store  # type: ignore[attr-defined]
        store.write_move(ids[1], 0, 0, "bid 3", None)  # move 0 of the second table is taken

        async def batch() -> list[BaseException | None]:
            loop = asyncio.get_running_loop()
            futs = [loop.create_future() for _ in ids]
            items = [(t, 0, 0, "bid 1", store_now(), f) for t, f in zip(ids, futs, strict=True)]
            before = store.writer.batches
            await asyncio.to_thread(store.writer._handle, items)  # what its thread does
            assert store.writer.batches == before + 1  # one statement, one commit
            done = await asyncio.gather(*futs, return_exceptions=True)
            return [d if isinstance(d, BaseException) else None for d in done]

        with psycopg.connect(pg_url, autocommit=True) as ear:
            ear.execute(f"LISTEN {CHANNEL}")
            outcome = asyncio.run(batch())
            notes = {n.payload for n in ear.notifies(timeout=5, stop_after=2)}
        assert outcome[0] is None and outcome[2] is None
        assert isinstance(outcome[1], MoveTaken)
        assert store.load_table(ids[0]).moves == [(0, "bid 1")]
        assert store.load_table(ids[1]).moves == [(0, "bid 3")]  # untouched
        assert store.load_table(ids[2]).moves == [(0, "bid 1")]
        assert notes == {f"{store.node} move {ids[0]} 1", f"{store.node} move {ids[2]} 1"}

        async def queued() -> None:  # through the writer's thread
            await asyncio.gather(*(store.write_bot_move(t, 1, 1, "bid 2") for t in ids))

        asyncio.run(queued())
        assert [store.load_table(t).moves[-1] for t in ids] == [(1, "bid 2")] * 3


def test_a_failed_batch_of_bots_moves_fails_every_waiter_and_writes_nothing(pg_url: str) -> None:
    """A statement of the move writer that fails (here: a move of a table that
    does not exist) gives every waiter of its batch the error, writes none of
    them, and the writer's thread goes on with the next batch."""
    import asyncio

    import sqlalchemy as sa

    from bestiary.server.store import _now as store_now

    with TestClient(create_app(pg_url, bot_delay=0)) as client:
        t = create(client, seats=["human", "human"], seed=5)["id"]
        store = client.app.state.store  # type: ignore[attr-defined]

        async def failing() -> list[BaseException | None]:
            loop = asyncio.get_running_loop()
            futs = [loop.create_future() for _ in range(2)]
            items = [
                (t, 0, 0, "bid 1", store_now(), futs[0]),
                ("no-such-table", 0, 0, "bid 1", store_now(), futs[1]),
            ]
            await asyncio.to_thread(store.writer._handle, items)
            done = await asyncio.gather(*futs, return_exceptions=True)
            return [d if isinstance(d, BaseException) else None for d in done]

        outcome = asyncio.run(failing())
        assert all(isinstance(e, sa.exc.IntegrityError) for e in outcome), outcome
        assert store.load_table(t).moves == []

        async def after() -> None:
            await store.write_bot_move(t, 0, 0, "bid 2")

        asyncio.run(after())
        assert store.load_table(t).moves == [(0, "bid 2")]
