"""A trained policy as an agent: ``policy(observation, mask) -> action index``.

A policy learnt in the environments (``bestiary.rl.env``, ``vector``, …) is a
function of what they hand a seat: the float32 observation vector and the
int8 mask over the game's fixed action space. :class:`PolicyAgent` builds both
for a seat from its :class:`~bestiary.agents.AgentContext` (its own view and
legal actions, with the game's ``observe.py`` encoding and
``state.action_index``: bit for bit what the environments give), asks the
policy, and plays the legal action with that index. So the policy plays
wherever an agent does:

```sh
bestiary simulate meat --seats "bestiary.rl.policy:PolicyAgent:policy=mypolicy:act,heuristic"
bestiary play meat --seats "human,bestiary.rl.policy:PolicyAgent:policy=mypolicy:act"
bestiary serve --agent "mine=bestiary.rl.policy:PolicyAgent:policy=mypolicy:act"
```

A policy trained with ``max_players`` (one observation length for every table
size) is played with the same option: ``…:policy=mypolicy:act,max_players=max``.

or, in the policy's own module, ``Agent = policy_agent(act)`` and the spec
``mypolicy:Agent``. A policy that returns an index outside the mask is not
corrected: the agent raises :class:`~bestiary.engine.errors.IllegalAction`
naming it (as the single-agent environment ends the episode).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..agents.context import AgentContext
from ..engine.errors import IllegalAction
from ..engine.protocol import Action, State
from .encoding import Observer, observer_for

#: What a policy is: observation (float32, the game's observation size) and
#: mask (int8, 1 at every legal index) in, one action index out.
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]


def load_policy(path: str) -> Policy:
    """``"package.module:function"`` -> the callable it names (ValueError saying
    what failed: ``make_agent`` turns it into a one-line BadAgentSpec)."""
    module_name, colon, attr = path.strip().partition(":")
    if not colon or not module_name or not attr:
        raise ValueError(
            f"policy must be written module:function (e.g. mypolicy:act), not {path!r}"
        )
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as exc:  # ImportError, or the module's own code failing
        raise ValueError(
            f"cannot import module {module_name!r} for policy {path!r}: {type(exc).__name__}: {exc}"
        ) from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"module {module_name!r} has no {attr!r} (policy {path!r})")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(
            f"policy {path!r} is a {type(obj).__name__}, not a function "
            "policy(observation, mask) -> action index"
        )
    policy: Policy = obj
    return policy


class _Space:
    """The encoder and action space of one game, player count and rules."""

    def __init__(self, ctx: AgentContext, max_players: int | str | None = None) -> None:
        # A determinized state is the only full state the context lends; it is
        # used for its game and its action_index, which depend on the game's
        # fixed action space alone (never on the cards dealt).
        indexer: State = ctx.determinize()
        self.players, self.rules = ctx.players, ctx.rules
        self.indexer = indexer
        self.observer: Observer = observer_for(
            indexer.game, self.players, self.rules, max_players=max_players
        )
        self.num_actions = indexer.game.num_actions(self.players, self.rules)

    def fits(self, ctx: AgentContext) -> bool:
        return ctx.players == self.players and ctx.rules == self.rules


def encode(
    ctx: AgentContext, space: _Space
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], list[int], Sequence[Action]]:
    """The seat's observation and mask (as the environments build them), the
    index of each legal action and the legal actions."""
    observation = np.asarray(space.observer.encode(ctx.view()), dtype=np.float32)
    legal = ctx.legal()
    indices = [space.indexer.action_index(a) for a in legal]
    mask = np.zeros(space.num_actions, dtype=np.int8)
    mask[indices] = 1
    return observation, mask, indices, legal


class PolicyAgent:
    """An agent that plays ``policy(observation, mask) -> index`` for its seat.

    ``policy`` is the callable or ``"module:function"`` (the spec option
    ``policy=module:function``). Built as ``PolicyAgent(seed=..., policy=...)``
    like every agent; the seed is unused (a policy that samples keeps its own
    random state). ``max_players``: as the environments' option of that name
    (``"max"`` or a whole number; from a spec, text), for a policy trained with it."""

    def __init__(
        self,
        seed: int = 0,
        policy: str | Policy | None = None,
        max_players: int | str | None = None,
    ) -> None:
        if policy is None:
            raise ValueError(
                "PolicyAgent needs policy=module:function "
                "(e.g. bestiary.rl.policy:PolicyAgent:policy=mypolicy:act)"
            )
        self.seed = seed
        self.policy: Policy = load_policy(policy) if isinstance(policy, str) else policy
        if isinstance(max_players, str) and max_players.strip().isdigit():
            max_players = int(max_players)  # from a spec: text
        self.max_players = max_players
        self._space: _Space | None = None

    def act(self, ctx: AgentContext) -> Action:
        space = self._space
        if space is None or not space.fits(ctx):
            space = self._space = _Space(ctx, self.max_players)
        observation, mask, indices, legal = encode(ctx, space)
        choice = self.policy(observation, mask)
        try:
            return legal[indices.index(int(choice))]
        except (ValueError, TypeError):
            shown = ", ".join(map(str, sorted(indices)[:20])) + (", …" if len(indices) > 20 else "")
            raise IllegalAction(
                f"the policy chose index {choice!r}, which is not legal for seat {ctx.seat}; "
                f"legal indices: {shown}"
            ) from None


def policy_agent(policy: Policy | str) -> Callable[..., PolicyAgent]:
    """A factory (``Factory(seed=...)``) of agents playing ``policy``: put
    ``Agent = policy_agent(act)`` in the policy's module and name it
    ``mymodule:Agent`` wherever an agent spec goes."""
    return functools.partial(PolicyAgent, policy=policy)


def first_legal(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
    """The smallest legal index: the simplest policy (an example and a test fixture)."""
    return int(np.flatnonzero(mask)[0])
