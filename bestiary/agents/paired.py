"""Paired root search: every candidate move played out on the same samples.

The search's ``root=paired`` mode (:mod:`bestiary.agents.ismcts`). In a game
of much luck the tree's comparison of two moves is swamped by the luck of
their samples: one move is tried where the sampled deck was kind, the other
where it was not. Here each sample (a determinization of what the seat
cannot see) is played out once after *every* move still in the running, the
playout policy reseeded alike for each, so two moves' playouts share the
hidden cards, the order they come in and the bots' coin flips, and differ
only by the move and what follows from it (common random numbers; the
policy-improvement-by-rollouts idea of Tesauro and Galperin, 1996, done on
information sets).

The budget is spent by sequential halving (Karnin, Koren and Somekh, 2013):
``ceil(log2 n)`` rounds; each round plays new samples for the moves left and
keeps the better half (the guide's move always stays), so the budget goes to
the moves that might be best. The best move by mean reward is played only if
its paired advantage over the guide's move, over the samples both were
played on, beats ``confidence`` standard errors; otherwise the guide's.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..engine.protocol import Action, State
from ..engine.rng import Rng

#: Plays a sample (the move already applied) on and gives every seat's reward;
#: the int is the seed the playout policy is reseeded with.
PlayOut = Callable[[State, int], Sequence[float]]


@dataclass
class PairedResult:
    """What a paired search found: the move and, per move, its playouts' rewards
    by sample number (a move dropped early has only the first samples)."""

    action: Action
    rewards: dict[str, dict[int, float]] = field(default_factory=dict)
    samples: int = 0
    playouts: int = 0

    def ranking(self) -> list[tuple[str, int, float]]:
        """(move, playouts, mean reward), the most played first, then the best."""
        rows = [
            (k, len(r), sum(r.values()) / len(r) if r else 0.0) for k, r in self.rewards.items()
        ]
        return sorted(rows, key=lambda row: (-row[1], -row[2]))


def paired_search(
    legal: Sequence[Action],
    me: int,
    determinize: Callable[[], State],
    play_out: PlayOut,
    rng: Rng,
    budget: int,
    deadline: float,
    guide: str | None,
    confidence: float,
) -> PairedResult:
    """Choose among ``legal`` for seat ``me`` with at most ``budget`` playouts and
    until ``deadline`` (``time.perf_counter()``; ``math.inf`` for none)."""
    by_key = {str(a): a for a in legal}
    others = [k for k in by_key if k != guide]
    rng.shuffle(others)  # no move is favoured by the order of the legal list
    # A budget smaller than the moves cannot try them all even once: keep as
    # many as it can try about twice over the rounds (the guide's first).
    alive = (([guide] if guide in by_key else []) + others)[: max(2, budget // 2)]
    out = PairedResult(legal[0], {k: {} for k in alive})
    rounds = max(1, math.ceil(math.log2(len(alive))))
    start = time.perf_counter()
    for r in range(rounds):
        left = rounds - r
        round_budget = (budget - out.playouts) // left
        round_deadline = start + (deadline - start) / rounds * (r + 1)
        wanted = max(1, round_budget // len(alive))
        for _ in range(wanted):
            _play_sample(alive, by_key, me, determinize, play_out, rng, out)
            if time.perf_counter() >= min(round_deadline, deadline):
                break
        if r < rounds - 1:
            alive = _better_half(alive, out, guide)
    best = max(alive, key=lambda k: _mean(out.rewards[k]))
    if guide in by_key and best != guide and not _beats(out, best, guide, confidence):
        best = guide
    out.action = by_key[best]
    return out


def _play_sample(
    alive: list[str],
    by_key: dict[str, Action],
    me: int,
    determinize: Callable[[], State],
    play_out: PlayOut,
    rng: Rng,
    out: PairedResult,
) -> None:
    """One new sample, played out after each move still in the running."""
    sample = determinize()
    sample.quiet()
    seed = rng.randrange(1 << 30)
    number = out.samples
    out.samples += 1
    for k in alive:
        state = sample.clone()
        state.apply(me, by_key[k])
        out.rewards[k][number] = float(play_out(state, seed)[me])
        out.playouts += 1


def _mean(rewards: dict[int, float]) -> float:
    return sum(rewards.values()) / len(rewards) if rewards else 0.0


def _better_half(alive: list[str], out: PairedResult, guide: str | None) -> list[str]:
    """The better half of ``alive`` by mean reward (every move in it was played on
    the same samples), and the guide's move whatever its rank."""
    ranked = sorted(alive, key=lambda k: -_mean(out.rewards[k]))
    kept = ranked[: math.ceil(len(ranked) / 2)]
    if guide in alive and guide not in kept:
        kept.append(guide)
    return kept


def _beats(out: PairedResult, best: str, guide: str, confidence: float) -> bool:
    """Does ``best`` beat ``guide`` on the samples both were played on by more
    than ``confidence`` standard errors of the paired differences?"""
    mine, theirs = out.rewards[best], out.rewards[guide]
    diffs = [mine[s] - theirs[s] for s in mine if s in theirs]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > confidence * math.sqrt(var / n)
