"""Factored actions: one flat action chosen as a short sequence of small choices.

Teratozoic's fixed action space has 74,212 indices (``5n + 4 + 8n²`` for
``n`` = 96 cards) and about six are legal at a time. Here the same decision
is made in two small steps, each with its own mask:

1. **what** (484 choices for 96 cards): ``hold c``, ``express``,
   ``build best|flat|placed``, ``take c``, ``keep c``, or ``lay c`` /
   ``lay c turned`` (place card ``c`` by hand in that orientation);
2. **where** (385 choices), only after a ``lay``: ``new monster`` (the game's
   ``start``) or ``<N|E|S|W> of a`` (the game's ``attach`` on that side of
   the placed card ``a``).

Every flat index has exactly one code (a tuple of choices, one or two long)
and no code is the beginning of another, so a sequence is complete exactly
when it names a flat action. The masks come from the legal flat actions:
at each step a choice is allowed when some legal flat action's code starts
with the choices so far followed by it, so every legal action is reachable,
no illegal one is, and no allowed choice leads to a dead end.

:class:`FactoredLayout` is generic (any game, given ``flat -> parts``);
:func:`teratozoic_layout` builds Teratozoic's from its action table: every
action object of the card set, numbered by the game's own
``state.action_index``. The environments wrap the flat ones
(:class:`bestiary.rl.aec.BestiaryAEC`, :class:`bestiary.rl.single.SingleAgentEnv`):
the game is stepped only when a flat action is complete; a step that only
narrows the choice gives reward 0 and the same agent chooses again. The
observation is the flat one followed by where the decision stands: a
one-hot of the step (``depth`` entries), then a one-hot of each choice made
so far (``sizes[0] + … + sizes[depth - 2]`` entries, zeros where not chosen).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.errors import IllegalAction
from ..engine.protocol import State
from .aec import BestiaryAEC
from .single import SingleAgentEnv

IntArray = npt.NDArray[np.int64]
# Past this many mixed-radix keys a code -> flat lookup table would be too big.
_MAX_KEYS = 50_000_000


@dataclass(frozen=True, eq=False)
class FactoredLayout:
    """How a fixed action space of ``num_actions`` flat indices is chosen in
    steps: ``codes[flat]`` is the flat action's code, padded with -1 after
    its last part; step ``k`` has ``sizes[k]`` choices, named ``labels[k]``."""

    num_actions: int
    sizes: tuple[int, ...]
    codes: IntArray  # (num_actions, depth)
    labels: tuple[tuple[str, ...], ...]
    _by_key: IntArray  # mixed-radix key of a code -> flat index, -1 if none

    @property
    def depth(self) -> int:
        """The most choices one flat action takes."""
        return len(self.sizes)

    @property
    def max_choices(self) -> int:
        """The size of the environments' ``Discrete`` action space."""
        return max(self.sizes)

    @classmethod
    def from_split(
        cls,
        num_actions: int,
        split: Callable[[int], Sequence[int]],
        labels: Sequence[Sequence[str]] | None = None,
    ) -> FactoredLayout:
        """A layout from ``split(flat) -> (part1, part2, ...)``, parts >= 0
        (see :meth:`from_codes`)."""
        if num_actions < 1:
            raise ValueError(f"num_actions must be at least 1, not {num_actions}")
        parts = [tuple(int(p) for p in split(i)) for i in range(num_actions)]
        codes = np.full((num_actions, max(len(p) for p in parts)), -1, dtype=np.int64)
        for i, p in enumerate(parts):
            codes[i, : len(p)] = p
        return cls.from_codes(codes, labels)

    @classmethod
    def from_codes(
        cls, codes: IntArray, labels: Sequence[Sequence[str]] | None = None
    ) -> FactoredLayout:
        """A layout from ``codes[flat]``, each row a code padded with -1.
        Codes may differ in length, but no two flat actions may share one and
        no code may begin another (a sequence would then be complete and
        incomplete at once): both are refused with a ValueError."""
        codes = np.asarray(codes, dtype=np.int64)
        if codes.ndim != 2 or codes.shape[0] < 1 or codes.shape[1] < 1:
            raise ValueError("codes must be a 2-d array, one row per flat action")
        present = codes >= 0
        if not present[:, 0].all():
            raise ValueError("every flat action needs a code of at least one part")
        if (present[:, 1:] & ~present[:, :-1]).any() or (codes < -1).any():
            raise ValueError("a code is parts >= 0 followed only by -1 padding")
        sizes = tuple(int(codes[:, k].max()) + 1 for k in range(codes.shape[1]))
        table = _key_table(codes, sizes)
        if labels is None:
            labels = [[str(c) for c in range(size)] for size in sizes]
        if [len(ls) for ls in labels] != list(sizes):
            raise ValueError(f"labels must name {list(sizes)} choices per step")
        return cls(len(codes), sizes, codes, tuple(tuple(ls) for ls in labels), table)

    @classmethod
    def from_labels(
        cls,
        actions: Sequence[Any],
        parts: Callable[[Any], Sequence[Hashable]],
        name: Callable[[Hashable], str] = str,
    ) -> FactoredLayout:
        """A layout from the flat actions in index order and ``parts(action)``,
        one label per step (``name(label)`` names it for people). Each step's
        labels are numbered in the order they first appear, so the numbering
        follows the game's own action numbering and nothing is listed by hand."""
        coded = [tuple(parts(action)) for action in actions]
        codes = np.full((len(coded), max(map(len, coded))), -1, dtype=np.int64)
        names: list[list[str]] = []
        for k in range(codes.shape[1]):
            rows = [i for i, p in enumerate(coded) if len(p) > k]
            level = [coded[i][k] for i in rows]
            number = {label: j for j, label in enumerate(dict.fromkeys(level))}
            codes[rows, k] = [number[label] for label in level]
            names.append([name(label) for label in number])
        return cls.from_codes(codes, names)

    def code(self, flat: int) -> tuple[int, ...]:
        """The choices that make flat action ``flat``."""
        if not 0 <= flat < self.num_actions:
            raise ValueError(f"flat action must be in 0..{self.num_actions - 1}, not {flat}")
        return tuple(int(p) for p in self.codes[flat] if p >= 0)

    def flat(self, code: Sequence[int]) -> int:
        """The flat action that ``code`` makes (ValueError if it makes none)."""
        key = _key(code, self.sizes)
        found = -1 if key is None else int(self._by_key[key])
        if found < 0:
            raise ValueError(f"{list(code)} is not the code of any action")
        return found

    def describe(self, code: Sequence[int]) -> str:
        """The labels of a (partial) code, for people: ``lay 12 / N of 40``."""
        return " / ".join(self.labels[k][p] for k, p in enumerate(code))


def _key(code: Sequence[int], sizes: Sequence[int]) -> int | None:
    """A code's number in mixed radix ``size + 1`` per step (``size`` = no part)."""
    if len(code) > len(sizes) or any(not 0 <= p < s for p, s in zip(code, sizes, strict=False)):
        return None
    key = 0
    for k, size in enumerate(sizes):
        key = key * (size + 1) + (int(code[k]) if k < len(code) else size)
    return key


def _keys(codes: IntArray, sizes: Sequence[int]) -> IntArray:
    """``_key`` of every row."""
    radix = np.array([s + 1 for s in sizes], dtype=np.int64)
    padded = np.where(codes < 0, radix - 1, codes)
    keys = np.zeros(len(codes), dtype=np.int64)
    for k in range(len(sizes)):
        keys = keys * radix[k] + padded[:, k]
    return keys


def _key_table(codes: IntArray, sizes: tuple[int, ...]) -> IntArray:
    """Code key -> flat index (-1: no action), after checking that the codes
    are unique and that none begins another."""
    total = int(np.prod([s + 1 for s in sizes], dtype=np.float64))
    if total > _MAX_KEYS:
        raise ValueError(f"steps of {list(sizes)} choices are too many to index ({total} codes)")
    keys = _keys(codes, sizes)
    table = np.full(total, -1, dtype=np.int64)
    table[keys] = np.arange(len(codes), dtype=np.int64)
    if (table[keys] != np.arange(len(codes))).any():
        first = int(np.flatnonzero(table[keys] != np.arange(len(codes)))[0])
        raise ValueError(
            f"flat actions {int(table[keys[first]])} and {first} share the code "
            f"{[int(p) for p in codes[first] if p >= 0]}"
        )
    for k in range(1, codes.shape[1]):
        longer = np.flatnonzero(codes[:, k] >= 0)
        cut = codes[longer].copy()
        cut[:, k:] = -1
        clash = table[_keys(cut, sizes)]
        if (clash >= 0).any():
            at = int(np.flatnonzero(clash >= 0)[0])
            raise ValueError(
                f"the code of flat action {int(clash[at])} begins the code of "
                f"flat action {int(longer[at])}"
            )
    return table


# ---------------------------------------------------------------- Teratozoic
def teratozoic_layout(state: State) -> FactoredLayout:
    """Teratozoic's layout for the card set of ``state`` (cached per card set):
    step 1 the move and its card (``5n + 4`` choices), step 2 where a laid
    card goes (``4n + 1``). Built from the action table; a flat index that no
    action of the table claims, or two that claim one, is an error."""
    acts = state.acts  # type: ignore[attr-defined]
    cached = _TERATOZOIC.get(id(acts))
    if cached is not None and cached[0] is acts:
        return cached[1]
    actions = _every_teratozoic_action(state)
    by_flat: dict[int, Any] = {}
    for action in actions:
        flat = state.action_index(action)
        if flat in by_flat:
            raise ValueError(f"{by_flat[flat]} and {action} share flat index {flat}")
        by_flat[flat] = action
    size = state.game.num_actions(state.players, state.rules)
    if sorted(by_flat) != list(range(size)):
        raise ValueError(f"the action table does not number 0..{size - 1} once each")
    layout = FactoredLayout.from_labels(
        [by_flat[i] for i in range(size)], _teratozoic_labeller(), _teratozoic_name
    )
    if len(_TERATOZOIC) > 8:
        _TERATOZOIC.clear()
    _TERATOZOIC[id(acts)] = (acts, layout)
    return layout


_TERATOZOIC: dict[int, tuple[Any, FactoredLayout]] = {}


def _every_teratozoic_action(state: State) -> list[Any]:
    """Every action of the card set, legal somewhere or not: the table's own
    instances, and fresh ones for the indices the space reserves but no
    placement uses (a card with one orientation turned, ends that never meet)."""
    # Imported here: the generic layer and the other games need no Teratozoic.
    from ..games.teratozoic.actions import BUILD_BEST, BUILD_FLAT, BUILD_PLACED, EXPRESS, Start

    acts = state.acts  # type: ignore[attr-defined]
    deck = acts.deck
    n = len(deck)
    out: list[Any] = [EXPRESS, BUILD_BEST, BUILD_FLAT, BUILD_PLACED]
    out += [*acts.hold, *acts.take, *acts.keep]
    for c in range(n):
        listed = {s.turned: s for s in acts.start[c]}
        out += [listed.get(t == 1) or Start(c, deck[c].name, t == 1) for t in range(2)]
    out += [
        acts.attach(c, side, anchor, t)
        for c in range(n)
        for anchor in range(n)
        for side in range(4)
        for t in range(2)
    ]
    return out


def _teratozoic_labeller() -> Callable[[Any], tuple[Hashable, ...]]:
    """The labels of an action, per step. Step 1: the move and its card (a
    card laid by hand: with its orientation); step 2, for a laid card only:
    where. The labels are tuples; :func:`_teratozoic_name` names them."""
    from ..games.teratozoic.actions import Attach, BuildChoice, Start

    def parts(action: Any) -> tuple[Hashable, ...]:
        if isinstance(action, Attach):  # the most common, tested first
            return (("lay", action.card, action.turned), (action.edge, action.anchor))
        if isinstance(action, Start):
            return (("lay", action.card, action.turned), ("new monster",))
        if isinstance(action, BuildChoice):
            return (("build", action.kind),)
        card = getattr(action, "card", None)
        kind = str(action).split()[0]  # hold, take, keep, express: the text form's verb
        return ((kind,) if card is None else (kind, card),)

    return parts


def _teratozoic_name(label: Hashable) -> str:
    """``lay 12 turned``, ``N of 40``, ``hold 3``: cards by number (their row
    in the card file), as names may repeat."""
    assert isinstance(label, tuple)
    if label[0] == "lay":
        return f"lay {label[1]}" + (" turned" if label[2] else "")
    if isinstance(label[0], int):
        return f"{'NESW'[label[0]]} of {label[1]}"
    return " ".join(str(x) for x in label)


LAYOUTS: Mapping[str, Callable[[State], FactoredLayout]] = {"teratozoic": teratozoic_layout}


def layout_for(state: State) -> FactoredLayout:
    """The layout offered for ``state``'s game (only Teratozoic so far)."""
    make = LAYOUTS.get(state.game.id)
    if make is None:
        raise ValueError(
            f"factored actions are offered for {', '.join(sorted(LAYOUTS))}, not "
            f"{state.game.id!r}; pass layout=FactoredLayout.from_split(...) to factor it"
        )
    return make(state)


# ---------------------------------------------------------------- one decision
class Decision:
    """One seat's decision in progress: its legal flat actions, their codes,
    and the choices made so far. A few legal actions at a time, so plain
    Python lists beat array calls here."""

    def __init__(self, layout: FactoredLayout, legal_flat: Sequence[int]) -> None:
        self.layout = layout
        self.flats = sorted(int(f) for f in legal_flat)
        rows = layout.codes[self.flats].tolist() if self.flats else []
        self.codes = [tuple(p for p in row if p >= 0) for row in rows]
        self.chosen: list[int] = []
        self._open = list(range(len(self.flats)))  # legal actions still matching

    def allowed(self) -> list[int]:
        """The choices allowed at this step, in order."""
        k = len(self.chosen)
        return sorted({self.codes[i][k] for i in self._open if len(self.codes[i]) > k})

    def mask(self) -> npt.NDArray[np.int8]:
        out = np.zeros(self.layout.max_choices, dtype=np.int8)
        out[self.allowed()] = 1
        return out

    def choose(self, choice: int, who: str) -> int | None:
        """Make ``choice``; the flat action once the code is complete, else None.
        A choice outside the mask raises IllegalAction and changes nothing."""
        k = len(self.chosen)
        still = [i for i in self._open if len(self.codes[i]) > k and self.codes[i][k] == choice]
        if not still:
            raise IllegalAction(
                f"choice {choice} is not allowed at step {k + 1} of {who}'s decision",
                [f"{c} ({self.layout.labels[k][c]})" for c in self.allowed()],
            )
        self.chosen.append(int(choice))
        self._open = still
        # Codes are unique and none begins another: one that ends here is the only match.
        done = [i for i in still if len(self.codes[i]) == k + 1]
        return self.flats[done[0]] if done else None

    def progress(self) -> npt.NDArray[np.float32]:
        """Where the decision stands: the step (one-hot) and each choice made."""
        layout = self.layout
        out = np.zeros(progress_size(layout), dtype=np.float32)
        out[len(self.chosen)] = 1.0
        at = layout.depth
        for k, size in enumerate(layout.sizes[:-1]):
            if k < len(self.chosen):
                out[at + self.chosen[k]] = 1.0
            at += size
        return out


def progress_size(layout: FactoredLayout) -> int:
    """How many entries the observation gains: the step and the choices so far."""
    return layout.depth + sum(layout.sizes[:-1])


def legal_flat(state: State, seat: int) -> list[int]:
    return [state.action_index(a) for a in state.legal(seat)]


def _spaces(
    observation: spaces.Space[Any], layout: FactoredLayout
) -> tuple[spaces.Dict, spaces.Discrete]:
    assert isinstance(observation, spaces.Dict)
    flat_obs = observation["observation"]
    assert isinstance(flat_obs, spaces.Box)
    size = flat_obs.shape[0] + progress_size(layout)
    return (
        spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (layout.max_choices,), np.int8),
            }
        ),
        spaces.Discrete(layout.max_choices),
    )


def _checked_layout(
    layout: FactoredLayout | None, state: State, num_actions: int
) -> FactoredLayout:
    layout = layout if layout is not None else layout_for(state)
    if layout.num_actions != num_actions:
        raise ValueError(
            f"the layout factors {layout.num_actions} actions; {state.game.id} has {num_actions}"
        )
    return layout


# ---------------------------------------------------------------- PettingZoo
class FactoredAEC(AECEnv):
    """The AEC environment ``inner`` with its actions chosen step by step
    (module docstring). Agents, rewards, terminations, seeding and
    ``max_steps`` (counted in flat actions) are the inner environment's."""

    metadata = {  # noqa: RUF012 (the base class declares it so)
        "render_modes": list(BestiaryAEC.metadata["render_modes"]),
        "name": "bestiary_factored",
        "is_parallelizable": False,
    }

    def __init__(self, inner: BestiaryAEC, layout: FactoredLayout | None = None) -> None:
        super().__init__()
        self.inner = inner
        self.layout = _checked_layout(layout, inner.state, inner.num_actions)
        self.render_mode = inner.render_mode
        self.metadata = {**self.metadata, "name": f"bestiary_factored_{inner.game.id}"}
        self.possible_agents = list(inner.possible_agents)
        obs, act = _spaces(inner.observation_space(self.possible_agents[0]), self.layout)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self._decision: Decision | None = None

    @property
    def state(self) -> State:
        return self.inner.state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.inner.reset(seed=seed, options=options)
        self._mirror()

    def _mirror(self) -> None:
        """Take the inner environment's bookkeeping after it has stepped."""
        inner = self.inner
        self.agents = list(inner.agents)
        self.rewards = dict(inner.rewards)
        self._cumulative_rewards = dict(inner._cumulative_rewards)
        self.terminations = dict(inner.terminations)
        self.truncations = dict(inner.truncations)
        self.infos = {a: dict(i) for a, i in inner.infos.items()}
        self.agent_selection = inner.agent_selection
        self._decision = None

    def _decision_of(self, agent: str) -> Decision:
        """The decision in progress for the agent to act, a fresh one otherwise."""
        seat = self.possible_agents.index(agent)
        if agent != self.agent_selection:
            return Decision(self.layout, legal_flat(self.state, seat))
        if self._decision is None:
            self._decision = Decision(self.layout, legal_flat(self.state, seat))
        return self._decision

    def observe(self, agent: str) -> dict[str, Any]:
        flat = self.inner.observe(agent)
        decision = self._decision_of(agent)
        return {
            "observation": np.concatenate([flat["observation"], decision.progress()]),
            "action_mask": decision.mask(),
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self.inner.step(action)  # the inner environment retires the agent
            self._mirror()
            return
        if action is None:
            raise IllegalAction(f"{agent} owes a choice; None is only for finished agents")
        flat = self._decision_of(agent).choose(int(action), agent)
        if flat is not None:
            self.inner.step(flat)
            self._mirror()
            self.infos[agent]["flat_action"] = flat
            return
        # Only narrowed: nothing happens in the game, the same agent goes on.
        self.infos[agent].pop("flat_action", None)  # the info tells of this step
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._accumulate_rewards()

    def render(self) -> str | None:
        return self.inner.render()

    def close(self) -> None:
        self.inner.close()


# ---------------------------------------------------------------- Gymnasium
class FactoredSingleAgentEnv(gym.Env[dict[str, Any], np.int64]):
    """The single-agent environment ``inner`` with the learner's actions chosen
    step by step (module docstring). A choice outside the mask ends the
    episode with the inner environment's ``illegal_reward`` and
    ``info["illegal_action"]``; the step that completes a flat action reports
    it as ``info["flat_action"]``."""

    metadata = {"render_modes": list(SingleAgentEnv.metadata["render_modes"])}  # noqa: RUF012

    def __init__(self, inner: SingleAgentEnv, layout: FactoredLayout | None = None) -> None:
        self.inner = inner
        probe = inner.game.new(inner.players, seed=0, variant=inner.variant, options=inner.options)
        self.layout = _checked_layout(layout, probe, inner.num_actions)
        self.render_mode = inner.render_mode
        self.observation_space, self.action_space = _spaces(inner.observation_space, self.layout)
        self._decision: Decision | None = None
        self._flat_obs: Mapping[str, Any] = {}
        self._ended = False

    def _obs(self, flat: Mapping[str, Any]) -> dict[str, Any]:
        decision = self._current()
        return {
            "observation": np.concatenate([flat["observation"], decision.progress()]),
            "action_mask": decision.mask(),
        }

    def _current(self) -> Decision:
        if self._decision is None:
            st = self.inner.state
            assert st is not None
            seat = self.inner.seat
            legal = [] if st.over else legal_flat(st, seat)
            self._decision = Decision(self.layout, legal)
        return self._decision

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        flat, info = self.inner.reset(seed=seed, options=options)
        self._decision = None
        self._ended = False
        self._flat_obs = flat
        return self._obs(flat), info

    def action_masks(self) -> npt.NDArray[np.int8]:
        return self._current().mask()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        st = self.inner.state
        if st is None or st.over or self._ended:
            raise RuntimeError("call reset() before step() (the episode is over)")
        try:
            flat = self._current().choose(int(action), f"player_{self.inner.seat}")
        except IllegalAction:
            self._ended = True
            info = {"illegal_action": True}
            return self._obs(self._flat_obs), self.inner.illegal_reward, True, False, info
        if flat is None:  # only narrowed: the game waits, the learner goes on
            return self._obs(self._flat_obs), 0.0, False, False, {}
        obs, reward, terminated, truncated, info = self.inner.step(flat)
        self._decision = None
        self._flat_obs = obs
        self._ended = terminated or truncated
        return self._obs(obs), float(reward), terminated, truncated, {**info, "flat_action": flat}

    def render(self) -> str | None:
        return self.inner.render()

    def close(self) -> None:
        self.inner.close()


# ---------------------------------------------------------------- constructors
def raw_env(
    game_id: str,
    players: int | None = None,
    layout: FactoredLayout | None = None,
    **kwargs: Any,
) -> FactoredAEC:
    """The factored AEC environment without PettingZoo's order checks;
    ``kwargs`` go to :func:`bestiary.rl.raw_env` (``variant``, ``options``,
    ``render_mode``, ``max_steps``, ...). ``layout``: the game's own when
    left out (only Teratozoic has one)."""
    from . import raw_env as flat_env

    return FactoredAEC(flat_env(game_id, players, **kwargs), layout)


def env(
    game_id: str,
    players: int | None = None,
    layout: FactoredLayout | None = None,
    **kwargs: Any,
) -> Any:
    """``bestiary.rl.factored.env("teratozoic", players=4)``: the AEC environment
    with factored actions, wrapped to refuse calls out of order."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(game_id, players, layout, **kwargs))


def single_agent_env(
    game_id: str,
    players: int | None = None,
    seat: int = 0,
    opponents: str | Sequence[str] = "heuristic",
    layout: FactoredLayout | None = None,
    **kwargs: Any,
) -> FactoredSingleAgentEnv:
    """One learning seat against bots, its actions factored; ``kwargs`` go to
    :func:`bestiary.rl.single_agent_env` (``variant``, ``options``,
    ``render_mode``, ``illegal_reward``, ...)."""
    from . import single_agent_env as flat_env

    return FactoredSingleAgentEnv(flat_env(game_id, players, seat, opponents, **kwargs), layout)


__all__ = [
    "LAYOUTS",
    "Decision",
    "FactoredAEC",
    "FactoredLayout",
    "FactoredSingleAgentEnv",
    "env",
    "layout_for",
    "raw_env",
    "single_agent_env",
    "teratozoic_layout",
]
