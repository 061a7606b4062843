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
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..agents.value import terminal_rewards
from ..engine.protocol import Game, State
from ..engine.registry import get_game
from .encoding import action_mask, observation, observer_for, render_text

RENDER_MODES = ("ansi", "human")


def win_rewards(state: State) -> list[float]:
    """1 shared among the winners, 0 for the others (all 0 while unfinished);
    in a team game each member of a winning team gets it in full (the search's
    rewards, ``agents.value.terminal_rewards``)."""
    result = state.result
    if result is None:
        return [0.0] * state.players
    return terminal_rewards(result, state.players, state.game.teams(state.players))


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
        self.observer = observer_for(self.game, self.players, self.rules)
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
    ) -> None:
        super().__init__()
        self._open_table(
            game_id, players, variant, options, render_mode, max_steps, "bestiary_{id}"
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
        if self.state.over:
            for a, r in zip(self.possible_agents, win_rewards(self.state), strict=True):
                self.rewards[a] = r
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
