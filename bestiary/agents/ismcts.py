"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012),
guided by the game's own bot where it has one.

Each iteration samples a determinization of what the deciding seat cannot
see, walks the shared tree with UCB restricted to the actions legal in that
sample (counting availability), expands one node, plays the sample out and
backs up every seat's reward. It needs only the protocol (clone,
determinize, legal, apply, to_act, result, and ``game.agents()`` for the
optional guide), so it plays any game.

What makes it stronger than the textbook version, all game-independent:

- **Budgets**: ``seconds=0.5`` (wall clock per decision) as well as, or
  instead of, ``iterations=``.
- **Guided playouts** (``rollout=auto|heuristic|random``): ``auto`` plays
  samples out with the game's ``heuristic`` bot for every seat (inside a
  determinization, so the bot sees only the sample) and falls back to
  random moves for games without one. The default is ``auto`` with a time
  budget (``seconds=``) and ``random`` with an iteration count alone: a
  heuristic playout costs tens of times a random one, and an iteration
  count should keep the speed it always had. A random playout of a card game says
  little about a move; a heuristic one says what happens against sensible
  play.
- **A prior** (``prior=8``): the guide's own choice for the real position is
  tried first and counts as ``prior`` extra visits, so a short search keeps
  the heuristic move unless the samples show something better. The search
  is then a policy-improvement step over the heuristic, never much worse.
- **Cheaper playouts** (``playout=samples=1;lookahead=0``): options for the
  heuristic inside playouts (not for the guide), each passed only to a bot
  that takes it, so one spec serves every game.
- **A tuned guide** (``guide=greed=0``): options for the heuristic that
  chooses the guide's move (the prior, and the move a paired root keeps),
  passed the same way; the default is the plain heuristic.
- **Significance** (``confidence=1``): the search overrules the guide only
  when its move's win rate beats the guide's by that many standard errors;
  otherwise one lucky playout, with UCB piling visits onto it, could.
- **Progressive widening** (``widen=2``): a node with ``n`` visits considers
  at most ``ceil(widen * sqrt(n + 1))`` of its moves (the guide's first), so
  a large action set does not spread a small budget over every move.
- **Short playouts scored by the game** (``depth=auto``, ``value=auto``): where
  the game offers a value estimate (:mod:`bestiary.agents.value`), a playout
  stops after ``depth`` decisions (the game's suggestion, else 20) and scores
  the sampled position with it, each seat's chance of winning, instead of
  playing to the end: many more, less noisy iterations per second.
  ``depth=0`` or ``value=none`` plays every sample to the end. A game may say
  where its estimate is worth asking (``value_ready``); with ``ready=auto`` a
  playout past ``depth`` goes on until then (capped by ``rollout_limit``).
  The default ``ready=none`` ignores it (not yet measured for strength).
- **Tree reuse** (``reuse=1``): the subtree under the chosen move is kept and
  reused at the next decision when replaying its moves on the search's own
  sample shows the seat exactly its current view (the context has no move
  history to match against); otherwise the search starts afresh.
- **Paired root** (``root=paired``; the default ``tree`` is the search above):
  no tree; each sample is played out after every move still in the running,
  the playout policy reseeded alike, so moves are compared on the same luck,
  and sequential halving drops the worse half each round
  (:mod:`bestiary.agents.paired`). ``iterations`` then counts playouts; the
  guide's move stays unless another beats it on the same samples by
  ``confidence`` standard errors.
- **Decisions left to the guide** (``leave=rps``): a decision whose every
  move starts with one of these words (``;``-separated) is the guide's, with
  no search: where the best play is a mix the guide already plays
  (rock-paper-scissors), a search of sampled opponents only spends time.
- **Simultaneous decisions**: the root is always the searching seat's own
  decision, even when the sample owes decisions from several seats at once.
  ``simultaneous=serial`` (the default) searches the seats of a simultaneous
  step one after another, as the state asks them; ``decoupled`` gives each
  seat its own statistics at that node (decoupled UCT), so no seat's choice
  in the tree depends on another's hidden one.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ..engine.errors import BestiaryError
from ..engine.protocol import Action, State
from ..engine.rng import Rng
from .context import AgentContext, option_flag
from .paired import paired_search
from .rollout import (
    BotRollout,
    RandomRollout,
    RolloutPolicy,
    accepted_options,
    bot_factory,
    parse_options,
    play_out,
)
from .value import GameValue, find_value

ROLLOUTS = ("auto", "heuristic", "random")
ROOTS = ("tree", "paired")
VALUES = ("auto", "none")
#: Playout length before the game's estimate scores it, when the game suggests none.
DEFAULT_DEPTH = 20
#: Tree reuse: how far (moves) and how widely (nodes) the kept tree is searched
#: for the position the seat now faces.
REUSE_DEPTH = 6
REUSE_NODES = 24


class _Node:
    """A tree node and, for the move that leads into it, that move's statistics."""

    __slots__ = ("arms", "avail", "children", "key", "mover", "reward", "square", "visits")

    def __init__(self, mover: int, key: str = "") -> None:
        self.mover = mover  # the seat whose move leads into this node (-1: a joint move)
        self.key = key  # that move's text form
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.square = 0.0  # sum of squared rewards (an estimate's rewards are not 0/1)
        # Sequential moves: move text -> child. Simultaneous steps: joint text -> child,
        # and each owed seat's own move statistics in ``arms[seat]``.
        self.children: dict[str, _Node] = {}
        self.arms: dict[int, dict[str, _Node]] = {}


def _smoothed(visits: int, reward: float, square: float) -> tuple[float, float]:
    """Mean and variance of a move's rewards with one fair-coin pseudo-playout."""
    mean = (reward + 0.5) / (visits + 1)
    second = (square + 0.5) / (visits + 1)
    return mean, max(second - mean * mean, 1e-4)


class ISMCTSAgent:
    def __init__(
        self,
        seed: int = 0,
        iterations: int | str | None = None,
        c: float | str = 0.7,
        rollout_limit: int | str = 400,
        seconds: float | str | None = None,
        rollout: str | None = None,
        prior: float | str = 8.0,
        widen: float | str = 2.0,
        epsilon: float | str = 0.0,
        simultaneous: str = "serial",
        playout: str = "",
        guide: str = "",
        confidence: float | str = 1.0,
        depth: int | str = "auto",
        value: str = "auto",
        reuse: bool | str = True,
        ready: str = "none",
        root: str = "tree",
        leave: str = "",
    ) -> None:
        self.rng = Rng(seed)
        self.seconds = float(seconds) if seconds is not None else None
        # A time budget alone means "as many iterations as fit".
        default_iterations = 200 if self.seconds is None else 10**9
        self.iterations = int(iterations) if iterations is not None else default_iterations
        self.c = float(c)
        self.rollout_limit = int(rollout_limit)
        if rollout is None:
            rollout = "auto" if self.seconds is not None else "random"
        self.rollout = str(rollout).strip().casefold()
        self.prior = float(prior)
        self.widen = float(widen)
        self.epsilon = float(epsilon)
        self.playout = parse_options(str(playout))
        self.guide_options = parse_options(str(guide), "guide")
        self.confidence = float(confidence)
        self.simultaneous = str(simultaneous).strip().casefold()
        self.reuse = option_flag("reuse", reuse)
        self.value = str(value).strip().casefold()
        if self.value not in VALUES:
            raise ValueError(f"value must be one of {', '.join(VALUES)}")
        self.ready = str(ready).strip().casefold()
        if self.ready not in VALUES:
            raise ValueError(f"ready must be one of {', '.join(VALUES)}, not {ready!r}")
        text = str(depth).strip().casefold()
        if text == "auto":
            self.depth: int | None = None
        else:
            try:
                self.depth = int(text)
            except ValueError:
                raise ValueError(f"depth must be auto or a whole number, not {depth!r}") from None
            if self.depth < 0:
                raise ValueError("depth must be auto or >= 0 (0: play to the end)")
        # Decisions whose every move starts with one of these words are left to
        # the guide (no search): e.g. rock-paper-scissors, where the seat's best
        # is the guide's even mix whatever a sampled opponent would do.
        self.leave = frozenset(w.strip().casefold() for w in str(leave).split(";") if w.strip())
        self.root = str(root).strip().casefold()
        if self.root not in ROOTS:
            raise ValueError(f"root must be one of {', '.join(ROOTS)}, not {root!r}")
        if self.simultaneous not in ("serial", "decoupled"):
            raise ValueError("simultaneous must be serial or decoupled")
        if self.iterations < 1:
            raise ValueError("iterations must be at least 1")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("seconds must be positive")
        if self.rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}")
        if self.prior < 0 or self.widen < 0 or not 0 <= self.epsilon <= 1:
            raise ValueError("prior and widen must be >= 0, epsilon in [0, 1]")
        # Per decision: iterations done and seconds spent (for measurements).
        self.last_iterations = 0
        self.last_seconds = 0.0
        # The root's moves after the last search: (move text, visits, mean reward),
        # most visited first — what a hint shows a player.
        self.last_ranking: list[tuple[str, int, float]] = []
        self._policies: dict[tuple[str, int], RolloutPolicy] = {}
        # Per decision: playouts the game's estimate ended, and the visits of the
        # subtree kept from the previous decision (0: searched afresh).
        self.last_estimated = 0
        self.last_reused = 0
        # The guide's move for the last searched position (None: no guide), so a
        # measurement can count how often the search overrules it.
        self.last_guide: str | None = None
        # After a search: the subtree under the chosen move, and the search's own
        # first sample with that move applied (to recognise the next position).
        self._kept: tuple[_Node, State] | None = None

    # ------------------------------------------------------------------ deciding
    def act(self, ctx: AgentContext) -> Action:
        legal = list(ctx.legal())
        if len(legal) == 1:
            self.last_ranking = [(str(legal[0]), 0, 0.0)]
            return legal[0]
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds is not None else math.inf
        root = self._reused(ctx, legal)
        self.last_reused = root.visits
        first = ctx.determinize()
        policy = self._policy(first)
        guide = self._guide(first, ctx)
        self.last_guide = guide
        if guide is not None and self._left_to_guide(legal):
            self._kept = None
            self.last_iterations = 0
            self.last_ranking = [(guide, 0, 0.0)]
            self.last_seconds = time.perf_counter() - start
            return next(a for a in legal if str(a) == guide)
        game_value, horizon = self._horizon(first)
        if self.root == "paired":
            return self._paired(ctx, legal, first, policy, guide, game_value, horizon, deadline)
        witness = first.clone() if self.reuse else None
        done = 0
        self.last_estimated = 0
        state: State | None = first
        while done < self.iterations:
            if state is None:
                state = ctx.determinize()
            state.quiet()
            self._iterate(root, state, ctx.seat, policy, guide, game_value, horizon)
            state = None
            done += 1
            if time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        self.last_seconds = time.perf_counter() - start
        action = self._best(root, legal, guide)
        self._keep(root, witness, ctx.seat, action)
        return action

    def _left_to_guide(self, legal: list[Action]) -> bool:
        """Is this a decision ``leave`` names (every move's first word one of it)?"""
        return bool(self.leave) and all(
            str(a).split(" ", 1)[0].casefold() in self.leave for a in legal
        )

    def _paired(
        self,
        ctx: AgentContext,
        legal: list[Action],
        first: State,
        policy: RolloutPolicy,
        guide: str | None,
        game_value: GameValue | None,
        horizon: int,
        deadline: float,
    ) -> Action:
        """``root=paired``: every candidate move played out on the same samples
        (:mod:`bestiary.agents.paired`); ``iterations`` counts playouts."""
        start = time.perf_counter()
        ready = self._ready(game_value)
        samples = iter([first])
        self.last_estimated = 0
        self._kept = None  # nothing of a tree to reuse

        def determinize() -> State:
            return next(samples, None) or ctx.determinize()

        def playout(state: State, seed: int) -> list[float]:
            policy.reseed(seed)
            rewards, estimated = play_out(
                state, policy, game_value, horizon, self.rollout_limit, ready
            )
            self.last_estimated += estimated
            return rewards

        found = paired_search(
            legal,
            ctx.seat,
            determinize,
            playout,
            self.rng,
            self.iterations,
            deadline,
            guide,
            self.confidence,
        )
        self.last_iterations = found.playouts
        self.last_ranking = found.ranking()
        self.last_reused = 0
        self.last_seconds = time.perf_counter() - start
        return found.action

    # ------------------------------------------------------------------ reuse
    def _keep(self, root: _Node, witness: State | None, me: int, action: Action) -> None:
        """Keep the subtree under the chosen move, with a sample of the position
        it leads to (the search's first sample, the move applied)."""
        self._kept = None
        child = root.children.get(str(action))
        if witness is None or child is None or child.mover != me or root.arms:
            return
        witness.quiet()
        try:
            witness.apply(me, action)
        except BestiaryError:
            return  # the sample disagrees with the position: keep nothing
        self._kept = (child, witness)

    def _reused(self, ctx: AgentContext, legal: list[Action]) -> _Node:
        """The kept subtree's node for this position, or a fresh root.

        The context gives no history, so the moves made since the last search
        are found by replaying the kept tree's moves (breadth first, at most
        REUSE_NODES nodes, REUSE_DEPTH moves deep) on the kept sample: a node is
        this position only if the replayed sample shows this seat exactly the
        view it has now, and the node's moves are this seat's own. Anything
        else (a chance draw, an opponent's move the sample could not make, a new
        game) is discarded and the search starts afresh. The node keeps only
        the moves legal now."""
        kept, self._kept = self._kept, None
        me = ctx.seat
        if not self.reuse or kept is None:
            return _Node(me)
        node, sample = kept
        view = ctx.view()
        frontier: list[tuple[_Node, State]] = [(node, sample)]
        looked = 0
        for _ in range(REUSE_DEPTH + 1):
            deeper: list[tuple[_Node, State]] = []
            for n, st in frontier:
                looked += 1
                if looked > REUSE_NODES:
                    return _Node(me)
                mine = bool(n.children) and all(c.mover == me for c in n.children.values())
                if mine and not n.arms and me in st.to_act() and st.view(me) == view:
                    keys = {str(a) for a in legal}
                    n.children = {k: c for k, c in n.children.items() if k in keys}
                    if n.children:
                        n.mover = me
                        return n
                for key, child in sorted(n.children.items(), key=lambda kc: -kc[1].visits):
                    if child.mover < 0 or child.mover not in st.to_act():
                        continue
                    moves = {str(a): a for a in st.legal(child.mover)}
                    if key not in moves:
                        continue
                    nxt = st.clone()
                    nxt.apply(child.mover, moves[key])
                    deeper.append((child, nxt))
            frontier = deeper
            if not frontier:
                break
        return _Node(me)

    def _policy(self, sample: State) -> RolloutPolicy:
        """One rollout policy per game and table size, built on first use."""
        key = (sample.game.id, sample.players)
        policy = self._policies.get(key)
        if policy is None:
            factory = None if self.rollout == "random" else bot_factory(sample, "heuristic")
            if factory is None and self.rollout == "heuristic":
                raise ValueError(f"{sample.game.id} has no heuristic bot to roll out with")
            if factory is None:
                policy = RandomRollout(self.rng)
            else:
                policy = BotRollout(factory, sample.players, self.rng, self.epsilon, self.playout)
            self._policies[key] = policy
        return policy

    def _horizon(self, sample: State) -> tuple[GameValue | None, int]:
        """The game's estimate (None with ``value=none`` or when it has none) and
        how many playout decisions come before it scores the position: ``depth``,
        else the game's suggestion, else DEFAULT_DEPTH; with no estimate (or
        ``depth=0``) playouts run to the end, capped by ``rollout_limit``."""
        game_value = find_value(sample) if self.value == "auto" else None
        if game_value is None or self.depth == 0:
            return None, self.rollout_limit
        depth = self.depth if self.depth is not None else game_value.depth or DEFAULT_DEPTH
        return game_value, min(depth, self.rollout_limit)

    def _ready(self, game_value: GameValue | None) -> Any:
        """The game's ``value_ready`` when ``ready=auto`` asks for it, else None."""
        return game_value.ready if game_value is not None and self.ready == "auto" else None

    def _guide(self, sample: State, ctx: AgentContext) -> str | None:
        """The heuristic's move for the real position (through the seat's own
        context, so it knows only what the seat knows), or None."""
        if self.prior <= 0 or self.rollout == "random":
            return None
        factory = bot_factory(sample, "heuristic")
        if factory is None:
            return None
        options = accepted_options(factory, self.guide_options)
        return str(factory(seed=self.rng.randrange(1 << 30), **options).act(ctx))

    def _best(self, root: _Node, legal: list[Action], guide: str | None) -> Action:
        """The most visited legal move (ties: the first tried), the guide's move
        counting ``prior`` more."""
        by_key = {str(a): a for a in legal}
        # The root's mover is the searching seat; its statistics are its arms
        # when the root is a decoupled simultaneous step, else the root's children.
        own = root.arms.get(root.mover, root.children)
        self.last_ranking = sorted(
            ((k, a.visits, a.reward / a.visits if a.visits else 0.0) for k, a in own.items()),
            key=lambda r: (-r[1], -r[2]),
        )
        scored = [
            (arm.visits + (self.prior if k == guide else 0.0), k)
            for k, arm in own.items()
            if k in by_key
        ]
        if guide in by_key and guide not in own:
            scored.append((self.prior, guide))
        best = max(scored, key=lambda nk: nk[0], default=None)
        if best is None:
            return self.rng.choice(legal)
        if guide in by_key and best[1] != guide and not self._significant(own, best[1], guide):
            return by_key[guide]
        return by_key[best[1]]

    def _significant(self, own: dict[str, _Node], alt: str, guide: str) -> bool:
        """Is ``alt`` better than the guide's move by more than ``confidence``
        standard errors? With a few playouts and win/loss rewards one lucky win
        can pile UCB's visits onto a move; that alone must not overrule the guide."""
        a = own[alt]
        g = own.get(guide)
        n_g = g.visits if g is not None else 0
        r_g = g.reward if g is not None else 0.0
        q_g = g.square if g is not None else 0.0
        # Smoothed by one pseudo-playout that is half a win (a fair coin), so a
        # move with 0 or 1 playouts is uncertain; the variance is the samples'
        # own (p(1-p) for win/loss rewards, less for an estimate's).
        p_a, v_a = _smoothed(a.visits, a.reward, a.square)
        p_g, v_g = _smoothed(n_g, r_g, q_g)
        se = math.sqrt(v_a / (a.visits + 1) + v_g / (n_g + 1))
        return p_a - p_g > self.confidence * se

    # ------------------------------------------------------------------ one iteration
    def _iterate(
        self,
        root: _Node,
        state: State,
        me: int,
        policy: RolloutPolicy,
        guide: str | None,
        game_value: GameValue | None = None,
        horizon: int | None = None,
    ) -> None:
        arms: list[_Node] = []  # the statistics this iteration updates
        node = root
        root.visits += 1
        expanded = False
        # Selection / expansion, one decision step at a time.
        while not state.over and not expanded:
            seats = state.to_act()
            if not seats:
                break
            g = guide if node is root else None
            if len(seats) == 1 or self.simultaneous == "serial":
                # The root is the searching seat's decision even if others owe one too.
                seat = me if node is root and me in seats else seats[0]
                arm, expanded = self._pick(node.children, node.visits, state, seat, policy, g)
                arms.append(arm)
                node = arm
                continue
            # A simultaneous step: every owed seat picks from its own statistics at
            # this node (decoupled UCT), so no seat's choice depends on another's
            # hidden one; the tree continues below the joint choice.
            order = sorted(seats, key=lambda s: s != me) if node is root else list(seats)
            joint = []
            for seat in order:
                if state.over or seat not in state.to_act():
                    continue
                own = node.arms.setdefault(seat, {})
                arm, _ = self._pick(
                    own, node.visits, state, seat, policy, g if seat == me else None
                )
                arms.append(arm)
                joint.append(f"{seat}:{arm.key}")
            key = "|".join(joint)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node(-1, key)
                expanded = True
            child.visits += 1
            node = child
        # Playout: to the end, or ``horizon`` decisions and then the game's estimate
        # (past the horizon while the game says its estimate is not ready yet).
        ready = self._ready(game_value)
        limit = self.rollout_limit if horizon is None else horizon
        rewards, estimated = play_out(state, policy, game_value, limit, self.rollout_limit, ready)
        self.last_estimated += estimated
        for arm in arms:
            r = rewards[arm.mover]
            arm.reward += r
            arm.square += r * r

    def _pick(
        self,
        arms: dict[str, _Node],
        parent_visits: int,
        state: State,
        seat: int,
        policy: RolloutPolicy,
        guide: str | None,
    ) -> tuple[_Node, bool]:
        """Choose ``seat``'s move among ``arms`` (expanding one if widening allows),
        apply it to ``state`` and count the visit; True if the arm is new."""
        keyed = {str(a): a for a in state.legal(seat)}
        tried = []
        for k in keyed:
            arm = arms.get(k)
            if arm is not None:
                arm.avail += 1
                tried.append(k)
        allowed = math.ceil(self.widen * math.sqrt(parent_visits + 1)) if self.widen else 1 << 30
        new = len(tried) < len(keyed) and (len(tried) < allowed or not tried)
        if new:
            k = self._expand_key(arms, keyed, state, seat, policy, guide)
            arm = arms[k] = _Node(seat, k)
            # availability counts the visits after this one (the textbook bookkeeping)
        else:
            k = self._select(tried, arms, guide)
            arm = arms[k]
        arm.visits += 1
        state.apply(seat, keyed[k])
        return arm, new

    def _expand_key(
        self,
        arms: dict[str, _Node],
        keyed: dict[str, Any],
        state: State,
        seat: int,
        policy: RolloutPolicy,
        guide: str | None,
    ) -> str:
        """Which untried move to add: the guide's first (at the root, the real
        position's heuristic move; deeper, the bot's move in this sample), then
        a random one."""
        untried = [k for k in keyed if k not in arms]
        if guide is not None and guide in untried:
            return guide
        if not arms and isinstance(policy, BotRollout) and len(untried) > 1:
            k = str(policy.choose(state, seat))
            if k in keyed:
                return k
        return self.rng.choice(untried)

    def _select(self, tried: list[str], arms: dict[str, _Node], guide: str | None) -> str:
        """UCB1 over the moves legal in this sample; the guide's move is surer by ``prior``."""
        best_k, best_v = tried[0], -math.inf
        c = self.c
        for k in tried:
            arm = arms[k]
            n = arm.visits + (self.prior if k == guide else 0.0)
            v = arm.reward / arm.visits + c * math.sqrt(math.log(max(arm.avail, 1)) / n)
            if v > best_v:
                best_k, best_v = k, v
        return best_k
