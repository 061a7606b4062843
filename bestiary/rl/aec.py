"""A PettingZoo AEC environment for any Bestiary game.

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers). Each step is one
decision of ``agent_selection``, the first seat in ``state.to_act()``. When
several seats owe a decision at once (a claim window, rock-paper-scissors,
face-down tactics) they are asked one after another; the state keeps each
choice hidden until all are in, and an observation is built only from that
seat's ``view``, so no agent sees another's hidden choice. (That a seat is
being asked is PettingZoo's public ``agent_selection``; a policy that reads
only its observation learns nothing from it.)

Observations are ``{"observation": float32 vector in [0, 1], "action_mask":
int8 vector over the game's fixed action space}``; actions are indices in
that space (``state.action_index``). Rewards come at the end: a win is 1,
shared among tied winners (and team mates in team games each get it in
full when the game lists them as winners); everyone else gets 0.

Two options, off by default (docs/RL.md, "Table sizes and score rewards"):

- ``max_players``: every table size of the game gives the same observation
  length (per-seat blocks padded to that many seats, presence bits at the
  end; ``"max"``: the game's largest table).
- ``reward="score"``: shaping. After every step each seat is also paid the
  change of its public score margin (:class:`ScoreMargins`), so over a game
  it earns its final margin plus the win reward.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..agents.value import terminal_rewards
from ..engine.protocol import Game, State
from ..engine.registry import get_game
from ..engine.ruleset import Ruleset
from .encoding import action_mask, observation, observer_for, render_text, scorer_for

RENDER_MODES = ("ansi", "human")
REWARDS = ("win", "score")


def win_rewards(state: State) -> list[float]:
    """1 shared among the winners, 0 for the others (all 0 while unfinished);
    in a team game each member of a winning team gets it in full (the search's
    rewards, ``agents.value.terminal_rewards``)."""
    result = state.result
    if result is None:
        return [0.0] * state.players
    return terminal_rewards(result, state.players, state.game.teams(state.players))


def check_reward(reward: object) -> str:
    """``reward`` if it names a reward scheme, else a ValueError naming them."""
    if isinstance(reward, str) and reward in REWARDS:
        return reward
    raise ValueError(
        "reward must be 'win' (1 shared among the winners at the end) or 'score' "
        "(also, every step, the change of each seat's public score margin), "
        f"not {reward!r}"
    )


class ScoreMargins:
    """Each seat's score margin: its side's score minus the mean of the other
    sides' scores, divided by the game's ``score_scale`` (a side is a team in
    a team game, else a seat; a side's score is its members' mean).

    The scores are public: while the game runs, what the view shows every
    seat alike (``Observer.public_scores`` of the entries ``score_fields``,
    built alone by ``partial_view`` where the game can; a game with no
    running score, such as Teratozoic, counts 0 for everyone), at the end the
    result's scores. So the margins use nothing any seat could not know, and
    with sides of one size they sum to 0 over the seats."""

    def __init__(self, game: Game, players: int, rules: Ruleset) -> None:
        self.scorer = scorer_for(game, players, rules)
        self.players = players
        teams = game.teams(players)
        self.sides = list(teams) if teams else list(range(players))
        self.scale = float(self.scorer.score_scale)

    def scores(self, state: State) -> list[float] | None:
        """Each seat's public score now (None: nothing scored yet)."""
        result = state.result
        if result is not None:
            return [float(x) for x in result.scores]
        if not self.scorer.running_score:
            return None
        # The fields are public (alike in every seat's view): seat 0's will do,
        # and partial_view builds just them where the game can.
        return self.scorer.public_scores(state.partial_view(0, self.scorer.score_fields))

    def __call__(self, state: State) -> list[float]:
        scores = self.scores(state)
        if scores is None:
            return [0.0] * self.players
        members: dict[int, list[float]] = {}
        for side, x in zip(self.sides, scores, strict=True):
            members.setdefault(side, []).append(x)
        side_score = {side: sum(xs) / len(xs) for side, xs in members.items()}
        out = []
        for side in self.sides:
            others = [x for t, x in side_score.items() if t != side]
            out.append((side_score[side] - sum(others) / len(others)) / self.scale)
        return out


class Payout:
    """What every seat of one table is paid after each transition: with
    ``"win"`` the win reward at the end only; with ``"score"`` also, every
    step, the change of its :class:`ScoreMargins` since the last payment
    (from :meth:`start`). Over a whole game a seat's ``"score"`` rewards sum
    to its final margin minus its margin at the deal (0 in every game) plus
    its win reward."""

    def __init__(self, reward: object, game: Game, players: int, rules: Ruleset) -> None:
        self.reward = check_reward(reward)
        self.margins = ScoreMargins(game, players, rules) if self.reward == "score" else None
        self._last = [0.0] * players

    def twin(self) -> Payout:
        """A payout for another table of the same game (sharing the scorer)."""
        other = copy.copy(self)
        other._last = [0.0] * len(self._last)
        return other

    @property
    def every_step(self) -> bool:
        """True when steps before the end may pay something."""
        return self.margins is not None

    def start(self, state: State) -> None:
        """A new game: margins count from ``state``."""
        if self.margins is not None:
            self._last = self.margins(state)

    def pay(self, state: State) -> list[float]:
        """Each seat's reward for the steps since the last call (or :meth:`start`)."""
        paid = win_rewards(state)
        if self.margins is None:
            return paid
        now = self.margins(state)
        paid = [w + m - last for w, m, last in zip(paid, now, self._last, strict=True)]
        self._last = now
        return paid


class TableEnv:
    """What the AEC and the Parallel environment share: one game's table, its
    agents, spaces, observations and picture. A subclass calls
    :meth:`_open_table` first in ``__init__``."""

    metadata: dict[str, Any]
    render_mode: str | None

    def _open_table(
        self,
        game_id: str,
        players: int | None,
        variant: str | None,
        options: Mapping[str, Any] | None,
        render_mode: str | None,
        max_steps: int,
        name: str,
        max_players: int | str | None = None,
        reward: str = "win",
    ) -> None:
        """The table's settings, spaces and agents; ``name`` is the metadata
        name, ``{id}`` standing for the game's id."""
        self.game: Game = get_game(game_id)
        self.players = players or self.game.default_players
        self.variant = variant
        self.options = dict(options or {})
        self.rules = self.game.ruleset(variant, self.options)
        # Build one state now so bad players/variant/options fail here, not at reset.
        self.state: State = self.game.new(
            self.players, seed=0, variant=variant, options=self.options
        )
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES}")
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.metadata = {**self.metadata, "name": name.format(id=self.game.id)}
        self.observer = observer_for(self.game, self.players, self.rules, max_players)
        self.payout = Payout(reward, self.game, self.players, self.rules)
        self.num_actions = self.game.num_actions(self.players, self.rules)
        self.possible_agents = [f"player_{s}" for s in range(self.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.observer.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            }
        )
        act_space = spaces.Discrete(self.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _new_game(self, seed: int) -> None:
        """A fresh state dealt from ``seed``, its event log off (nobody reads it)."""
        self.state = self.game.new(
            self.players, seed=seed, variant=self.variant, options=self.options
        )
        self.state.quiet()
        self.payout.start(self.state)

    def _observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees now: its encoded view and its action mask."""
        return {
            "observation": observation(self.observer, self.state, seat),
            "action_mask": action_mask(self.state, seat, self.num_actions),
        }

    def render(self) -> str | None:
        text = render_text(self.game, self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class BestiaryAEC(TableEnv, AECEnv):
    """One table of ``game_id``; see the module docstring."""

    metadata = {  # noqa: RUF012 (the base class declares it so)
        "render_modes": list(RENDER_MODES),
        "name": "bestiary",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        max_steps: int = 20_000,
        max_players: int | str | None = None,
        reward: str = "win",
    ) -> None:
        super().__init__()
        self._open_table(
            game_id,
            players,
            variant,
            options,
            render_mode,
            max_steps,
            "bestiary_{id}",
            max_players,
            reward,
        )
        self._seeds = random.Random()

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` fixes the deal and every die (and the seeds of
        later unseeded resets). Game options are fixed at construction; the
        ``options`` argument of this call is ignored."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self._new_game(self._seeds.getrandbits(63))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.steps = 0
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        owed = self.state.to_act()
        return self.possible_agents[owed[0]] if owed else self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        return self._observation(self._seat[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        move = self.state.action_from_index(seat, int(action))  # IllegalAction if masked out
        self.state.apply(seat, move)
        self.steps += 1
        self._clear_rewards()
        if self.state.over or self.payout.every_step:
            for a, r in zip(self.possible_agents, self.payout.pay(self.state), strict=True):
                self.rewards[a] = r
        if self.state.over:
            for a in self.possible_agents:
                self.terminations[a] = True
        elif self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        self._accumulate_rewards()
        if self.state.over or self.steps >= self.max_steps:
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self._next_agent()
        if self.render_mode == "human":
            self.render()
