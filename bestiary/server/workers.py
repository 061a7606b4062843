"""A small pool of worker processes for CPU-bound work (bots, scoring tools),
each call with a time limit.

Why not ``ProcessPoolExecutor``: a call over its budget must be stopped, and
an executor cannot stop one task. Here every worker is a process with its own
pipe; a call that overruns (or whose caller is cancelled, e.g. at shutdown)
kills exactly that worker, and a fresh one replaces it on the next call. The
event loop only waits: a thread per worker blocks on the pipe.

A job is pickled on the event loop, when it is asked for: the worker gets a
snapshot of that moment. Pickling in the waiting thread instead would walk
the arguments (a table's state, and whatever it shares with the live game,
such as a card set's action table) while the event loop goes on changing
them: "dictionary changed size during iteration", and a bot that stalls.

Callers are served in turn, not first come first served (:mod:`.fair`):
each call carries a key (address, client, table), the keys take turns for
the workers, and a pool may cap how many workers one key holds and how many
calls one key has under way (one more is refused at once, HTTP 429, with a
Retry-After).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any, Protocol

from ..engine.errors import BadInput, BestiaryError
from .fair import Busy, FairSlots, Key, TooMany

__all__ = ["Busy", "Pool", "TooMany", "TooSlow", "WorkerFailed", "WorkerPool", "snapshot"]

log = logging.getLogger("bestiary.server")

READY_SECONDS = 60.0  # a fresh worker imports the package and every game first


class Pool(Protocol):
    """What the server needs of a pool: a local :class:`WorkerPool` or a
    :class:`~.raypool.RayPool`."""

    async def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        seconds: float,
        wait: float | None = None,
        key: Key = (),
    ) -> Any: ...

    def refuse_if_over(self, key: Key = ()) -> None:
        """TooMany now if ``key`` already has as many calls under way as it may."""
        ...

    def close(self) -> None: ...


class TooSlow(BestiaryError):
    """The call ran over its time budget and was stopped (HTTP 503)."""


class WorkerFailed(BestiaryError):
    """The worker crashed or raised something other than a BestiaryError."""


def snapshot(fn: Callable[..., Any], args: tuple[Any, ...]) -> bytes:
    """The job as bytes, taken now, on the event loop (see the module's
    docstring); WorkerFailed if an argument does not pickle."""
    try:
        return pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:
        raise WorkerFailed(f"the job cannot be sent to a worker: {type(exc).__name__}") from None


def _serve(conn_in: Connection, conn_out: Connection) -> None:
    """A worker's loop: load the games, then answer ``(fn, args)`` calls."""
    from ..engine.registry import game_ids, get_game

    for gid in game_ids():  # so the first call pays no import
        with contextlib.suppress(Exception):  # a game that fails to load fails its own calls
            get_game(gid)
    conn_out.send(("ready",))
    while True:
        try:
            job = conn_in.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            fn, args = pickle.loads(job)
            out: tuple[Any, ...] = ("ok", fn(*args))
        except BestiaryError as exc:
            out = ("bad", str(exc))
        except Exception as exc:  # also a job that does not unpickle here
            out = ("fail", f"{type(exc).__name__}: {exc}"[:300])
        try:
            conn_out.send(out)
        except (BrokenPipeError, OSError):
            return  # the server is gone
        except Exception as exc:  # a result that does not pickle
            conn_out.send(("fail", f"{type(exc).__name__}: {exc}"[:300]))


def worker_main() -> None:
    """Entry of a worker process: calls on stdin, answers on stdout (the
    process's own prints go to stderr so they cannot garble the channel)."""
    out_fd = os.dup(1)
    os.dup2(2, 1)
    _serve(Connection(0, writable=False), Connection(out_fd, readable=False))


class _Worker:
    """A fresh interpreter (not a fork of this threaded server, and not a
    re-run of its ``__main__`` as multiprocessing's spawn would do), with
    this process's import path so it finds every registered game."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        code = "from bestiary.server.workers import worker_main; worker_main()"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.send = Connection(os.dup(self.proc.stdin.fileno()), readable=False)
        self.recv = Connection(os.dup(self.proc.stdout.fileno()), writable=False)
        self.proc.stdin.close()
        self.proc.stdout.close()
        self.ready = False

    def call(self, job: bytes, seconds: float) -> Any:
        """Blocking (run in a thread): the result of the pickled call ``job``, or raise."""
        try:
            if not self.ready:
                if not self.recv.poll(READY_SECONDS):
                    raise WorkerFailed("a worker process did not start")
                self.recv.recv()
                self.ready = True
            self.send.send_bytes(job)
            if not self.recv.poll(seconds):
                raise TooSlow(f"stopped after {seconds:g} s (the time limit of this request)")
            kind, *rest = self.recv.recv()
        except (EOFError, OSError):
            raise WorkerFailed("the worker process died") from None
        if kind == "ok":
            return rest[0]
        if kind == "bad":
            raise BadInput(rest[0])
        raise WorkerFailed(rest[0])

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        self.send.close()
        self.recv.close()


class WorkerPool:
    """At most ``size`` calls at once, each in its own process and time limit;
    ``caps``/``most``: see :class:`~.fair.FairSlots`."""

    def __init__(
        self,
        size: int,
        name: str,
        caps: Sequence[int | None] = (),
        most: Sequence[int | None] = (),
    ) -> None:
        self.size, self.name = max(1, size), name
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self.slots = FairSlots(self.size, f"{name} worker(s)", caps, most)
        self._threads = ThreadPoolExecutor(self.size, thread_name_prefix=f"wait-{name}")

    @property
    def busy(self) -> int:
        return len(self._all) - len(self._idle)

    async def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        seconds: float,
        wait: float | None = None,
        key: Key = (),
    ) -> Any:
        """``fn(*args)`` in a worker, stopped after ``seconds``. ``wait``: how long
        to queue for a free worker (None: as long as it takes) before Busy;
        ``key``: who asks (address, client, table), served in turn with others."""
        self.slots.refuse_if_over(key)  # before the pickle: a refused flood costs little
        job = snapshot(fn, args)  # now, on the event loop: nothing changes under it
        await self.slots.take(key, wait)
        worker: _Worker | None = None
        started = time.monotonic()
        try:
            worker = self._idle.pop() if self._idle else self._start()
            out = await asyncio.get_running_loop().run_in_executor(
                self._threads, worker.call, job, seconds
            )
            self._idle.append(worker)
            return out
        except BadInput:
            if worker is not None:
                self._idle.append(worker)  # a clean refusal: the worker is fine
            raise
        except BaseException:
            if worker is not None:  # overran, crashed or cancelled: stop it for good
                self._retire(worker)
            raise
        finally:
            self.slots.release(key, time.monotonic() - started)

    def refuse_if_over(self, key: Key = ()) -> None:
        self.slots.refuse_if_over(key)

    def _start(self) -> _Worker:
        worker = _Worker()
        self._all.add(worker)
        return worker

    def _retire(self, worker: _Worker) -> None:
        self._all.discard(worker)
        worker.kill()

    def close(self) -> None:
        """Kill every worker now (threads waiting on them then return at once)."""
        self.slots.closed = True
        for worker in list(self._all):
            self._retire(worker)
        self._idle.clear()
        self._threads.shutdown(wait=False, cancel_futures=True)
