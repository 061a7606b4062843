"""Issue 27, point 10: "the bot worker pool pickles a job in a thread while
the event loop goes on using the table — 'dictionary changed size during
iteration' 43 times at Teratozoic tables".

What is promised instead: a job is a snapshot taken on the event loop (its
pickle is made there, when the job is asked for), so nothing the live table
changes afterwards can change under it. The clones the jobs carry share
nothing that changes with the live game: tests/engine/test_clone_shares_nothing.py.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from bestiary.server.jobs import bot_seed
from bestiary.server.workers import WorkerPool

pickled_in: list[str] = []  # the threads that pickled a Witness (in this process)


class Witness:
    """An argument that notes which thread pickles it."""

    def __reduce__(self) -> tuple[Any, ...]:
        pickled_in.append(threading.current_thread().name)
        return (Witness, ())

    def __str__(self) -> str:
        return "witness"


def test_a_job_is_pickled_on_the_event_loop_when_it_is_asked_for() -> None:
    """The pickle is made by the thread that runs the event loop, before the
    call waits for a worker: not later, in the thread that waits on the pipe."""
    pickled_in.clear()

    async def main() -> int:
        pool = WorkerPool(1, "test")
        try:
            return int(await pool.run(bot_seed, Witness(), 0, 0, seconds=60))
        finally:
            pool.close()

    loop_thread = threading.current_thread().name
    assert asyncio.run(main()) == bot_seed("witness", 0, 0)  # type: ignore[arg-type]
    assert pickled_in == [loop_thread]
