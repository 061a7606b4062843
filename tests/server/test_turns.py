"""Bots are background work: their steps take turns, one per iteration of the
event loop, so what people sent is read between two bot steps."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

from fastapi.testclient import TestClient

from bestiary.server import create_app
from bestiary.server.store import STORE_THREADS, Store, database_url
from bestiary.server.turns import BotTurns

from .conftest import create


def test_bot_turns_let_other_work_run_between_two_bot_steps() -> None:
    """Twenty bots due at once do not run back to back: work that became
    ready meanwhile (a person's message) runs after the first of them."""
    order: list[str] = []

    async def main() -> None:
        turns = BotTurns()

        async def bot(i: int) -> None:
            await turns.wait()
            order.append(f"bot{i}")

        bots = [asyncio.create_task(bot(i)) for i in range(20)]
        await asyncio.sleep(0)  # every bot is queued now
        asyncio.get_running_loop().call_soon(order.append, "person")
        await asyncio.gather(*bots)
        assert turns.granted == 20

    asyncio.run(main())
    assert sorted(order) == sorted(["person", *(f"bot{i}" for i in range(20))])
    assert order.index("person") <= 1, order


def test_a_cancelled_bot_gives_its_turn_to_the_next() -> None:
    async def main() -> list[int]:
        turns = BotTurns()
        done: list[int] = []

        async def bot(i: int) -> None:
            await turns.wait()
            done.append(i)

        tasks = [asyncio.create_task(bot(i)) for i in range(3)]
        await asyncio.sleep(0)
        tasks[0].cancel()
        await asyncio.gather(*tasks[1:])
        return done

    assert asyncio.run(main()) == [1, 2]


def test_every_bot_move_waits_for_a_turn(db_path: str) -> None:
    """The bots of a table move only through the server's queue of bot turns."""
    with TestClient(create_app(db_path, bot_delay=0)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        t = create(client, seats=["random", "random"])

        async def wait_end() -> int:
            for _ in range(2000):
                if hub.info(t["id"])["status"] == "finished":
                    break
                await asyncio.sleep(0.01)
            return int(hub.turns.granted)

        granted = client.portal.call(wait_end)  # type: ignore[union-attr]
        moves = len(hub.row(t["id"]).moves)
        assert hub.info(t["id"])["status"] == "finished"
        assert granted >= moves > 0


def test_people_store_calls_do_not_queue_behind_busy_bot_threads(tmp_path: Path) -> None:
    """With every bot thread of the store busy, a person's store call
    (``urgent``) still runs at once on the people's threads."""
    store = Store(database_url(str(tmp_path / "s.sqlite3")))
    release = asyncio.Event()

    async def main() -> str:
        loop = asyncio.get_running_loop()

        def blocked() -> None:
            asyncio.run_coroutine_threadsafe(release.wait(), loop).result()

        bots = [asyncio.ensure_future(store.run(blocked)) for _ in range(STORE_THREADS + 2)]
        await asyncio.sleep(0.05)
        try:
            return str(await asyncio.wait_for(store.run(lambda: "moved", urgent=True), 10))
        finally:
            release.set()
            await asyncio.gather(*bots)

    try:
        assert asyncio.run(main()) == "moved"
    finally:
        store.dispose()


def test_serving_freezes_what_lives_as_long_as_the_process(db_path: str) -> None:
    """``bestiary serve`` (``freeze_gc``): once started, the program's own
    objects are out of the collector's walks and young collections are rarer."""
    before = gc.get_threshold()
    gc.unfreeze()
    try:
        with TestClient(create_app(db_path, bot_delay=0, freeze_gc=True)):
            assert gc.get_freeze_count() > 0
            assert gc.get_threshold()[0] >= 10_000
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_an_app_for_tests_leaves_the_collector_alone(db_path: str) -> None:
    before = gc.get_threshold()
    with TestClient(create_app(db_path, bot_delay=0)):
        assert gc.get_threshold() == before


def test_notices_of_a_table_coalesce_into_one_catch_up_at_a_time(db_path: str) -> None:
    """Another process's notices (several processes): a table catches up in the
    background, once for a burst of notices, and once more for a notice that
    arrives while it catches up."""
    with TestClient(create_app(db_path, bot_delay=0)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        t = create(client, seats=["human", "random"])
        table = hub.live[t["id"]]
        calls: list[int] = []

        async def counting() -> None:
            calls.append(1)
            if len(calls) == 1:
                table.follow()  # a notice while catching up: one more look
            await asyncio.sleep(0.01)

        async def run() -> None:
            table.catch_up = counting
            for _ in range(5):
                table.follow()
            while table._follower is not None:
                await asyncio.sleep(0.01)

        client.portal.call(run)  # type: ignore[union-attr]
        assert len(calls) == 2


def test_the_rule_behind_an_event_kind_is_looked_up_once_per_language() -> None:
    """Building updates asks the game for the rule behind an event kind once
    per language, not once per event (the lookup reads the disk)."""
    from bestiary.engine.events import Event
    from bestiary.engine.registry import get_game
    from bestiary.i18n import LANGUAGES
    from bestiary.server import messages

    game = get_game("toy")
    kind = f"kind-{id(object())}"  # a kind no other test asked about
    asked: list[str] = []
    real = type(game).event_rule

    def counting(self: object, k: str) -> object:
        if k == kind:
            asked.append(k)
        return real(self, k)  # type: ignore[arg-type]

    type(game).event_rule = counting  # type: ignore[method-assign,assignment]
    try:
        for i in range(5):
            messages.event_json(game, Event(i, kind, {}))
    finally:
        type(game).event_rule = real  # type: ignore[method-assign]
    assert len(asked) == len(LANGUAGES)


def test_bots_leave_the_loop_to_others_for_their_share() -> None:
    """With half the loop for bots, a bot step that held the loop for a while
    is followed by a pause as long, in which what came meanwhile (a person's
    message) runs before the next bot."""
    import time

    order: list[str] = []

    async def main() -> None:
        turns = BotTurns(share=0.5)
        loop = asyncio.get_running_loop()

        async def bot(i: int) -> None:
            await turns.wait()
            order.append(f"bot{i}")
            if i == 0:
                loop.call_later(0.005, order.append, "person")
                time.sleep(0.05)  # a long step, holding the loop

        await asyncio.gather(bot(0), bot(1))

    asyncio.run(main())
    assert order == ["bot0", "person", "bot1"]


def test_time_with_no_bot_waiting_is_no_bots_cost() -> None:
    """The pause pays for a bot's step only: after a quick bot step and a
    second of nobody waiting (a person thinking), the next bot moves at once.
    (The first version charged the idle second to the step and made the next
    bot wait as long again: a table with a person could take half a minute to
    answer.)"""
    import time

    waited: list[float] = []

    async def main() -> None:
        turns = BotTurns(share=0.5)
        await turns.wait()  # a quick step
        await asyncio.sleep(0.3)  # nobody waits for a turn
        t0 = time.perf_counter()
        await turns.wait()
        waited.append(time.perf_counter() - t0)

    asyncio.run(main())
    assert waited[0] < 0.1, waited


def test_the_pause_after_a_bot_step_follows_the_share() -> None:
    assert BotTurns(share=0.5).pause(0.01) == 0.01
    assert BotTurns(share=0.25).pause(0.01) == 0.03
    assert BotTurns().pause(0.01) == 0.0
    for bad in (0.0, 1.5):
        try:
            BotTurns(share=bad)
        except ValueError:
            continue
        raise AssertionError(f"share {bad} accepted")
