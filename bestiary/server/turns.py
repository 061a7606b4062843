"""Bots are background work: one bot step per turn of the event loop.

Every bot of every table waits here before it uses the event loop for more
than a moment (deciding inline, applying and storing a move, building the
updates). :class:`BotTurns` lets them through one at a time, each in its own
iteration of the loop, and the loop polls its sockets between two iterations.
So a person's ``act`` that arrives while hundreds of bot timers fall due
together is read and applied after at most one bot step, instead of behind
the whole burst (the bots' timers all fire in one iteration otherwise, and
each step runs to its next ``await`` before the loop looks at a socket).

When the bots want more of the CPU than there is, they queue here and move
later than their ``bot_delay``: the people's moves keep their pace. They
also get at most ``share`` of the loop's time: after a bot step that took
``t`` seconds the next waits ``t * (1 / share - 1)`` (as long again with
the default of one half). A server whose bots would take all its CPU stays
idle part of the time, so the operating system runs it at once when a
person's message arrives, even on a machine busy with other work.

The turns go round-robin by (address, client, table), not first come first
served (:mod:`.fair`): a client who seats five hundred bots gets one turn,
then another client's bot gets the next, whatever the order they queued in.
"""

from __future__ import annotations

import asyncio

from .fair import Key, RoundRobin


class BotTurns:
    """A queue of bot steps, served round-robin by key and released one per
    loop iteration (``call_soon``: the loop polls I/O before it runs the next)."""

    def __init__(self, share: float = 1.0) -> None:
        if not 0 < share <= 1:
            raise ValueError("the bots' share of the loop is more than 0 and at most 1")
        self.share = share
        self._waiting: RoundRobin[asyncio.Future[None]] = RoundRobin()
        self._scheduled = False
        self.granted = 0  # turns given so far (for tests and curiosity)

    def pause(self, step: float) -> float:
        """Seconds to leave the loop to others after a bot step of ``step`` seconds."""
        return step * (1 / self.share - 1)

    def __len__(self) -> int:
        return len(self._waiting)

    async def wait(self, key: Key = ()) -> None:
        """Return when it is this bot's turn to use the loop; ``key``: whose bot
        it is, (address, client, table)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._waiting.push(key, fut)
        self._kick(loop)
        try:
            await fut
        except asyncio.CancelledError:  # table closed: the next in line is released instead
            self._waiting.remove(key, fut)
            raise

    def _kick(self, loop: asyncio.AbstractEventLoop, pause: float = 0.0) -> None:
        if not self._scheduled and self._waiting:
            self._scheduled = True
            if pause > 0.0005:
                loop.call_later(pause, self._release, loop)
            else:
                loop.call_soon(self._release, loop)

    def _release(self, loop: asyncio.AbstractEventLoop) -> None:
        self._scheduled = False
        while (got := self._waiting.pop()) is not None:
            fut = got[1]
            if not fut.done():  # a cancelled waiter gives its turn to the next
                fut.set_result(None)
                self.granted += 1
                # The woken bot runs in the next iteration (its wake-up is
                # queued now); this runs right after its step, in the same one.
                self._scheduled = True
                loop.call_soon(self._after_step, loop, loop.time())
                return

    def _after_step(self, loop: asyncio.AbstractEventLoop, granted_at: float) -> None:
        """The granted bot's step is over: it cost ``now - granted_at`` (with
        whatever else ran in that iteration), paid for by a pause before the
        next bot's turn. Measured here, not at the next turn: time with no bot
        waiting (a person thinking) is no bot's cost."""
        self._scheduled = False
        # The next turn in the next iteration (or after the pause): the sockets
        # are polled in between.
        self._kick(loop, self.pause(loop.time() - granted_at))
