"""Fair deals: 128-bit seeds nobody chose, committed at the start and revealed
at the end.

A table's seed decides every card, so whoever knows it knows every hand. The
server draws it from :mod:`secrets` (2**128 values: no brute force from a
dealt hand), publishes ``sha256(str(seed))`` when the table is created, and
publishes the seed itself only with the record once the game is over; then
anyone can check ``sha256(seed) == commitment`` and replay the deal. Only a
solo table (one person against bots) may bring its own seed, and it is
marked as such.
"""

from __future__ import annotations

import hashlib
import secrets

SEED_BITS = 128


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


def commitment(seed: int) -> str:
    """The SHA-256 (hex) of the seed's decimal text: published from the start."""
    return hashlib.sha256(str(seed).encode()).hexdigest()
