"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012).

Each iteration samples a determinization of what the deciding seat cannot
see, walks the shared tree with UCB restricted to the actions legal in that
sample (counting availability), expands one node, plays random moves to the
end and backs up every seat's reward. It needs only the protocol (clone,
determinize, legal, apply, to_act, result), so it plays any game.
"""

from __future__ import annotations

import math
from typing import Any

from ..engine.protocol import Action, Result, State
from ..engine.rng import Rng
from .base import AgentContext


class _Node:
    __slots__ = ("avail", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat whose move leads into this node
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.children: dict[Any, _Node] = {}


def _rewards(result: Result | None, players: int) -> list[float]:
    """1 shared among the winners, 0 for everyone else (and for unfinished rollouts)."""
    if result is None:
        return [0.0] * players
    out = [0.0] * players
    if result.winners:
        share = 1.0 / len(result.winners)
        for w in result.winners:
            out[w] = share
    return out


class ISMCTSAgent:
    def __init__(
        self,
        seed: int = 0,
        iterations: int | str = 200,
        c: float | str = 0.7,
        rollout_limit: int | str = 400,
    ) -> None:
        self.rng = Rng(seed)
        self.iterations = int(iterations)
        self.c = float(c)
        self.rollout_limit = int(rollout_limit)
        if self.iterations < 1:
            raise ValueError("iterations must be at least 1")

    def act(self, ctx: AgentContext) -> Action:
        legal = list(ctx.legal())
        if len(legal) == 1:
            return legal[0]
        root = _Node(ctx.seat)
        for _ in range(self.iterations):
            state = ctx.determinize()
            state.quiet()
            self._iterate(root, state)
        by_key = {str(a): a for a in legal}
        best = max(
            (n for k, n in root.children.items() if k in by_key),
            key=lambda n: n.visits,
            default=None,
        )
        if best is None:
            return self.rng.choice(legal)
        for k, n in root.children.items():
            if n is best:
                return by_key[k]
        return self.rng.choice(legal)

    def _iterate(self, root: _Node, state: State) -> None:
        path = [root]
        node = root
        # Selection / expansion.
        while not state.over:
            seats = state.to_act()
            if not seats:
                break
            seat = seats[0]
            legal = state.legal(seat)
            keyed = {str(a): a for a in legal}
            untried = [k for k in keyed if k not in node.children]
            for k in keyed:
                child = node.children.get(k)
                if child is not None:
                    child.avail += 1
            if untried:
                k = self.rng.choice(untried)
                child = _Node(seat)
                node.children[k] = child
                state.apply(seat, keyed[k])
                path.append(child)
                break
            log_c = self.c
            best_k, best_v = None, -1.0
            for k in keyed:
                ch = node.children[k]
                v = ch.reward / ch.visits + log_c * math.sqrt(
                    math.log(max(ch.avail, 1)) / ch.visits
                )
                if v > best_v:
                    best_k, best_v = k, v
            assert best_k is not None
            node = node.children[best_k]
            state.apply(seat, keyed[best_k])
            path.append(node)
        # Rollout.
        steps = 0
        choice = self.rng.choice
        while not state.over and steps < self.rollout_limit:
            seats = state.to_act()
            if not seats:
                break
            seat = seats[0]
            state.apply(seat, choice(state.legal(seat)))
            steps += 1
        rewards = _rewards(state.result if state.over else None, state.players)
        for n in path:
            n.visits += 1
            n.reward += rewards[n.mover]
