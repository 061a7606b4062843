"""Limits on what one websocket may send: size of a message and rate."""

from __future__ import annotations

import time

MAX_MESSAGE_BYTES = 4096  # an action's text form is short; a view never travels this way
RATE_PER_SECOND = 10.0
BURST = 20
MAX_STRIKES = 50  # messages dropped for rate before the connection is closed


class RateLimiter:
    """A token bucket: ``BURST`` messages at once, ``RATE_PER_SECOND`` sustained."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = BURST) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.strikes = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.strikes += 1
        return False
