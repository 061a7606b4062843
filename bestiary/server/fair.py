"""Serving clients in turn: who waits for a bot step, a bot worker or a tool
worker is served round-robin, not first come first served.

Every waiter has a key, a path such as ``(address, client, table)``. The
queue is a tree of those paths: at each level the branches take turns, so an
address with ten busy tables gets one turn while another address with one
table gets the next, and within an address its clients, within a client its
tables, take turns the same way. A hog's tables therefore cost another
person at most one of the hog's steps, however many it seats.

:class:`FairSlots` adds places on top (at most ``size`` at once, as a pool
has workers) and a cap per level: e.g. at most half the bot workers for one
address, so a client who keeps every worker busy with long searches still
leaves one free for everyone else.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter, deque
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from ..engine.errors import BestiaryError

T = TypeVar("T")
Key = tuple[str, ...]


class Busy(BestiaryError):
    """Every place is taken and none came free in time (HTTP 503). ``retry_after``:
    the whole seconds after which a new try is likely to be served."""

    def __init__(self, message: str, retry_after: float = 1.0) -> None:
        super().__init__(message)
        self.retry_after = max(1, math.ceil(retry_after))


class TooMany(Busy):
    """This client already has its share of requests under way (HTTP 429)."""


class _Node(Generic[T]):
    __slots__ = ("children", "items")

    def __init__(self) -> None:
        # Insertion order is the order of turns: a served branch moves to the end.
        self.children: dict[str, _Node[T]] = {}
        self.items: deque[T] = deque()

    def empty(self) -> bool:
        return not self.items and not self.children


class RoundRobin(Generic[T]):
    """Items queued under keys (paths); :meth:`pop` takes the next one with
    every level of the path in turn. Within one key: first in, first out."""

    def __init__(self) -> None:
        self._root: _Node[T] = _Node()
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def push(self, key: Key, item: T) -> None:
        node = self._root
        for part in key:
            node = node.children.setdefault(part, _Node())
        node.items.append(item)
        self._count += 1

    def remove(self, key: Key, item: T) -> bool:
        """Take ``item`` out (a waiter that gave up); whether it was there."""
        path = [self._root]
        for part in key:
            child = path[-1].children.get(part)
            if child is None:
                return False
            path.append(child)
        try:
            path[-1].items.remove(item)
        except ValueError:
            return False
        self._count -= 1
        for depth in range(len(key), 0, -1):  # prune the branches left empty
            if not path[depth].empty():
                break
            del path[depth - 1].children[key[depth - 1]]
        return True

    def pop(
        self,
        blocked: Callable[[Key], bool] | None = None,
        rank: Callable[[Key], int] | None = None,
    ) -> tuple[Key, T] | None:
        """The next item whose path no level of ``blocked`` refuses (a client
        at its cap waits while others are served), or None. ``rank``: at each
        level the branches of least rank go first, in turn among equals (a
        branch that emptied when it was served forgets its place in the
        rotation: ``rank`` remembers, e.g. when each was last served)."""
        got = self._pop(self._root, (), blocked, rank)
        if got is not None:
            self._count -= 1
        return got

    def _pop(
        self,
        node: _Node[T],
        prefix: Key,
        blocked: Callable[[Key], bool] | None,
        rank: Callable[[Key], int] | None,
    ) -> tuple[Key, T] | None:
        if node.items:
            return prefix, node.items.popleft()
        parts = list(node.children)
        if rank is not None and len(parts) > 1:
            parts.sort(key=lambda part: rank((*prefix, part)))  # stable: in turn among equals
        for part in parts:
            key = (*prefix, part)
            if blocked is not None and blocked(key):
                continue
            child = node.children[part]
            got = self._pop(child, key, blocked, rank)
            if got is None:
                continue
            del node.children[part]  # served: its next turn comes after the others'
            if not child.empty():
                node.children[part] = child
            return got
        return None


class FairSlots:
    """At most ``size`` holders at once, handed out round-robin by key, with
    at most ``caps[i]`` holders under one prefix of ``i + 1`` parts (None: no
    cap). With ``most``, a prefix of ``i + 1`` parts may have at most
    ``most[i]`` requests under way (waiting or holding): one more is refused
    at once (:class:`TooMany`) instead of queueing behind its own."""

    def __init__(
        self,
        size: int,
        what: str,
        caps: Sequence[int | None] = (),
        most: Sequence[int | None] = (),
    ) -> None:
        self.size, self.what = max(1, size), what
        self.caps, self.most = tuple(caps), tuple(most)
        self.closed = False
        self.free = self.size
        self.held: Counter[Key] = Counter()  # holders under each prefix
        self.under_way: Counter[Key] = Counter()  # waiting or holding, under each prefix
        self.seconds = 1.0  # how long a place is held, on average (for Retry-After)
        # When each prefix with requests under way was last served (a count of
        # grants): the least recently served goes first, so a client whose one
        # request emptied its branch does not come back ahead of the others.
        self._last: dict[Key, int] = {}
        self._grants = 0
        self._queue: RoundRobin[asyncio.Future[None]] = RoundRobin()
        self.served: list[Key] = []  # the last grants, in order (tests, curiosity)

    def waiting(self) -> int:
        return len(self._queue)

    def _blocked(self, prefix: Key) -> bool:
        cap = self.caps[len(prefix) - 1] if len(prefix) <= len(self.caps) else None
        return cap is not None and self.held[prefix] >= cap

    def _prefixes(self, key: Key) -> list[Key]:
        return [key[: i + 1] for i in range(len(key))]

    def _grant(self) -> None:
        while self.free > 0:
            got = self._queue.pop(self._blocked, lambda prefix: self._last.get(prefix, 0))
            if got is None:
                return
            key, fut = got
            if fut.done():
                continue  # gave up meanwhile
            fut.set_result(None)
            self.free -= 1
            self.held.update(self._prefixes(key))
            self._grants += 1
            for prefix in self._prefixes(key):
                self._last[prefix] = self._grants
            self.served.append(key)
            del self.served[:-64]

    def refuse_if_over(self, key: Key = ()) -> None:
        """TooMany (or Busy when closing) now if ``key`` may not queue another
        request: a caller checks this before it builds a costly job (a copy of a
        state, its pickle), so a flood that is refused costs next to nothing."""
        if self.closed:
            raise Busy("the server is shutting down")
        for i, prefix in enumerate(self._prefixes(key)):
            most = self.most[i] if i < len(self.most) else None
            if most is not None and self.under_way[prefix] >= most:
                wait_s = max(1, math.ceil(self.seconds))
                raise TooMany(
                    f"you already have {self.under_way[prefix]} requests under way "
                    f"(at most {most} at once); try again in {wait_s} s",
                    retry_after=wait_s,
                )

    async def take(self, key: Key = (), wait: float | None = None) -> None:
        """Wait up to ``wait`` seconds (None: as long as it takes) for a place, or Busy."""
        self.refuse_if_over(key)
        self.under_way.update(self._prefixes(key))
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.push(key, fut)
        self._grant()
        try:
            await asyncio.wait_for(fut, wait)
        except TimeoutError:
            self._queue.remove(key, fut)
            self._done(key)
            # Those queued now are served before a new try, about this long each.
            retry = max(1, math.ceil(self.seconds * (1 + self.waiting() / self.size)))
            raise Busy(
                f"the server is busy ({self.size} {self.what} all taken); try again in {retry} s",
                retry_after=retry,
            ) from None
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release(key)  # granted, but its caller is gone
            else:
                self._queue.remove(key, fut)
                self._done(key)
            raise

    def release(self, key: Key = (), held: float | None = None) -> None:
        """A holder is done (``held``: for how many seconds, for Retry-After)."""
        if held is not None:
            self.seconds = 0.8 * self.seconds + 0.2 * held
        self.free += 1
        _drop(self.held, self._prefixes(key))
        self._done(key)
        self._grant()

    def _done(self, key: Key) -> None:
        _drop(self.under_way, self._prefixes(key))
        for prefix in self._prefixes(key):
            if prefix not in self.under_way:
                self._last.pop(prefix, None)  # gone quiet: nothing more to remember


def _drop(counts: Counter[Key], keys: list[Key]) -> None:
    """One fewer under each of ``keys``; a count that reaches 0 leaves (the
    counters would otherwise keep every client ever seen)."""
    for key in keys:
        counts[key] -= 1
        if counts[key] <= 0:
            del counts[key]
