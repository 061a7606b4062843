"""Limits on what one client may send: size and rate of websocket messages,
table creations, open sockets (token buckets, per socket and per client),
and the close codes a socket gets when it goes past one."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

MAX_MESSAGE_BYTES = 4096  # an action's text form is short; a view never travels this way
MAX_ACTION_CHARS = 200  # the longest action text accepted (and never echoed whole)
RATE_PER_SECOND = 10.0
BURST = 20
MAX_STRIKES = 50  # messages dropped for rate, since the client last calmed down, before closing
# Table chat, per socket, within its message quota above: a few at once, then
# one a second (a refusal says when to try again and is no strike).
CHAT_PER_SECOND = 1.0
CHAT_BURST = 3

# Close codes of the play socket beside the standard ones (1008 policy, 1009
# too large), modelled on the HTTP statuses (README: the wire protocol).
HELLO_LATE = 4408  # no hello within Limits.hello_seconds
TOO_SLOW = 4413  # more than Limits.socket_queue_bytes waited for a reader: reconnect
TOO_MANY_SOCKETS = 4429  # the client's sockets, or the server's, are at their limit


class RateLimiter:
    """A token bucket: ``burst`` messages at once, ``rate`` a second sustained.

    ``strikes`` counts refused messages; it starts again from zero once the
    bucket has refilled completely, so a client that backs off is forgiven and
    only one that keeps pushing is eventually disconnected.
    """

    def __init__(
        self,
        rate: float = RATE_PER_SECOND,
        burst: int = BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst = rate, float(burst)
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()
        self.strikes = 0

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= self.burst:
            self.strikes = 0  # quiet long enough to refill: past floods are forgiven
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.strikes += 1
        return False

    def retry_after(self) -> float:
        """Seconds until :meth:`allow` would say yes again (0: now)."""
        now = self.clock()
        tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate


class ClientBuckets:
    """One :class:`RateLimiter` per client key (an IP address), the least
    recently seen dropped beyond ``keep`` so the map cannot grow without end."""

    def __init__(self, rate: float, burst: int, keep: int = 10_000) -> None:
        self.rate, self.burst, self.keep = rate, burst, keep
        self._buckets: OrderedDict[str, RateLimiter] = OrderedDict()

    def allow(self, key: str) -> bool:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = RateLimiter(self.rate, self.burst)
            if len(self._buckets) > self.keep:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.allow()


class Counter:
    """How many things (open sockets, open tables) each client holds now."""

    def __init__(self) -> None:
        self._n: dict[str, int] = {}

    def get(self, key: str) -> int:
        return self._n.get(key, 0)

    def add(self, key: str, delta: int = 1) -> None:
        n = self._n.get(key, 0) + delta
        if n > 0:
            self._n[key] = n
        else:
            self._n.pop(key, None)


class Sockets:
    """The play sockets open now, counted from the moment each is accepted
    (a socket that never says hello holds memory too: issue 27), per client
    and in all, and how many were closed for each reason."""

    def __init__(self, per_client: int, in_all: int) -> None:
        self.per_client, self.in_all = per_client, in_all
        self.clients = Counter()
        self.total = 0
        self.closed: dict[int, int] = {}  # close code -> sockets closed with it

    def open(self, client: str) -> str | None:
        """Count a new socket of ``client``, or say why it may not open (not counted)."""
        if self.clients.get(client) >= self.per_client:
            return f"too many connections from your address (at most {self.per_client})"
        if self.total >= self.in_all:
            return f"the server holds all the connections it can ({self.in_all}); try again later"
        self.clients.add(client)
        self.total += 1
        return None

    def close(self, client: str) -> None:
        """A socket :meth:`open` counted has ended."""
        self.clients.add(client, -1)
        self.total -= 1

    def note(self, code: int) -> None:
        self.closed[code] = self.closed.get(code, 0) + 1
