"""Bots on a Ray cluster (``bestiary serve --ray-address ADDRESS``): the same
``run(fn, *args, seconds=…)`` as :class:`~.workers.WorkerPool`, on a pool of
Ray actors instead of local processes.

At most ``size`` calls at once, each on an actor of its own; a call over its
time budget (or whose caller is cancelled) kills that actor, and a fresh one
replaces it on the next call, exactly as a local worker is replaced. The
event loop only awaits the call's future.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.errors import BadInput, BestiaryError
from .fair import FairSlots, Key
from .workers import TooSlow, WorkerFailed

log = logging.getLogger("bestiary.server")


class _Thinker:
    """A Ray actor: answers ``(fn, args)`` calls like a local worker."""

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[str, Any]:
        try:
            return ("ok", fn(*args))
        except BestiaryError as exc:
            return ("bad", str(exc))
        except Exception as exc:
            return ("fail", f"{type(exc).__name__}: {exc}"[:300])


class RayPool:
    def __init__(self, size: int, name: str, address: str, caps: Sequence[int | None] = ()) -> None:
        try:
            import ray
        except ImportError:
            raise BadInput("--ray-address needs Ray: pip install 'bestiary[ray]'") from None
        self.ray = ray
        self.size, self.name = max(1, size), name
        self._started = not ray.is_initialized()
        if self._started:
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            except Exception as exc:
                reason = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
                raise BadInput(f"cannot join the Ray cluster at {address!r}: {reason}") from None
        self._actor = ray.remote(num_cpus=1)(_Thinker)
        self._idle: list[Any] = []
        self.slots = FairSlots(self.size, f"{name} actor(s)", caps)
        self.calls = 0

    async def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        seconds: float,
        wait: float | None = None,
        key: Key = (),
    ) -> Any:
        # Ray serializes the arguments in ``.remote()``, on the event loop: a snapshot.
        await self.slots.take(key, wait)
        actor = self._idle.pop() if self._idle else self._actor.remote()
        try:
            ref = actor.call.remote(fn, args)  # type: ignore[union-attr]
            try:
                kind, value = await asyncio.wait_for(asyncio.wrap_future(ref.future()), seconds)
            except TimeoutError:
                self._kill(actor)
                raise TooSlow(
                    f"stopped after {seconds:g} s (the time limit of this request)"
                ) from None
            except asyncio.CancelledError:
                self._kill(actor)
                raise
            except Exception as exc:  # the actor died, the cluster went away
                self._kill(actor)
                raise WorkerFailed(f"the Ray actor failed: {type(exc).__name__}") from None
            self.calls += 1
            self._idle.append(actor)
            if kind == "ok":
                return value
            if kind == "bad":
                raise BadInput(value)
            raise WorkerFailed(value)
        finally:
            self.slots.release(key)

    def _kill(self, actor: Any) -> None:
        with contextlib.suppress(Exception):
            self.ray.kill(actor)

    def refuse_if_over(self, key: Key = ()) -> None:
        self.slots.refuse_if_over(key)

    def close(self) -> None:
        self.slots.closed = True
        for actor in self._idle:
            self._kill(actor)
        self._idle.clear()
        if self._started:
            with contextlib.suppress(Exception):
                self.ray.shutdown()
