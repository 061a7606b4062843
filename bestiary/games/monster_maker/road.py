"""The road home as arithmetic on the corridors in a hand: whether some of them
land a road exactly (§3 <The Road Back>: "when your return path reaches
precisely 105p, you return from the dungeon"). Pure functions, read by the
state (who is "unable to return" in the endgame, ``dungeon.py``) and by the
heuristic bot (``bots.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

# Past this many corridors every subset is not tried (a hand holds 8 cards at
# most, so only a designer's odd table gets here): the road is taken as open.
MAX_TRIED = 16


def reachable(values: Sequence[int], target: int) -> bool:
    """Some of ``values`` (each used once) add up to exactly ``target``."""
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums if s + v <= target}
    return target in sums


def lands_back(corridors: Sequence[int], left: int) -> bool:
    """On the road back with ``left`` perch to go: some corridors land it
    exactly (a corridor that overshoots can never be played, board.py)."""
    return left <= 0 or reachable(corridors, left)


def lands_out_and_back(corridors: Sequence[int], need: int, out: int, extra: int) -> bool:
    """On the way out, ``need`` perch short of the treasure room after ``out``:
    some corridors reach the room ("100p (perch) or more") and the others land
    the road back, whose length is the whole way out plus ``extra`` (the OPEN
    penalties known so far; a treasure still to be drawn may add more).

    The room is announced on the corridor that reaches it, so the corridors
    played out are a set whose sum reaches ``need`` while the set less its
    longest one does not (played longest last)."""
    n = len(corridors)
    if n > MAX_TRIED:
        return True
    for mask in range(1, 1 << n):
        go = [corridors[i] for i in range(n) if mask >> i & 1]
        total = sum(go)
        if total < need or total - max(go) >= need:
            continue
        back = [corridors[i] for i in range(n) if not mask >> i & 1]
        if reachable(back, out + total + extra):
            return True
    return False
