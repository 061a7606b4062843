"""Feeding a process pool a stream of jobs without listing them first.

``multiprocessing.Pool.imap_unordered`` takes its whole input at once (a
thread of the pool walks the iterable as fast as it can), so ``-n 100000000``
built a hundred million jobs before the first game and died with
MemoryError. :func:`stream` keeps only ``window`` jobs in flight and asks the
iterator for the next one as each result comes back.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.pool import Pool
from typing import TypeVar

J = TypeVar("J")
R = TypeVar("R")


def stream(pool: Pool, fn: Callable[[J], R], jobs: Iterable[J], window: int) -> Iterator[R]:
    """``fn(job)`` for every job, in the order they finish, with at most
    ``window`` jobs submitted and not yet returned. An error raised by ``fn``
    is raised here, as ``imap_unordered`` does."""
    done: queue.SimpleQueue[tuple[bool, object]] = queue.SimpleQueue()
    pending = 0
    source = iter(jobs)

    def submit() -> bool:
        nonlocal pending
        for job in source:
            pool.apply_async(
                fn,
                (job,),
                callback=lambda r: done.put((True, r)),
                error_callback=lambda e: done.put((False, e)),
            )
            pending += 1
            return True
        return False

    while pending < max(1, window) and submit():
        pass
    while pending:
        ok, value = done.get()
        pending -= 1
        if not ok:
            assert isinstance(value, BaseException)
            raise value
        submit()
        yield value  # type: ignore[misc]
