"""A Gymnasium single-agent environment: one seat learns, bots play the rest.

The opponents are agent specs (``heuristic``, ``random``,
``ismcts:seconds=0.2``) built with :func:`bestiary.agents.make_agent`; they
decide through an :class:`AgentContext`, as in any match. The learner sees
the same observation as in the AEC environment (``observation`` and
``action_mask``) and gets the same end-of-game reward. ``action_masks()``
returns the mask too, for maskable algorithms.

An action outside the mask is not played: the episode ends at once with
reward ``illegal_reward`` (default -1) and ``info["illegal_action"]``, so a
learner that ignores the mask is told, not silently corrected.

``max_players`` and ``reward="score"`` are the AEC environment's options
(:mod:`bestiary.rl.aec`). With ``"score"`` each step's reward is the change
of the learner's public score margin since its previous decision (the bots'
moves in between included), plus the win reward at the end.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..agents.base import AgentContext, make_agent
from ..engine.errors import IllegalAction
from ..engine.protocol import State
from ..engine.registry import get_game
from ..engine.rng import Rng
from .aec import RENDER_MODES, Payout
from .encoding import action_mask, observer_for, render_text


class SingleAgentEnv(gym.Env[dict[str, Any], np.int64]):
    metadata = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012 (the base class declares it so)

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        max_players: int | str | None = None,
        reward: str = "win",
    ) -> None:
        self.game = get_game(game_id)
        self.players = players or self.game.default_players
        self.variant = variant
        self.options = dict(options or {})
        self.rules = self.game.ruleset(variant, self.options)
        self.game.new(self.players, seed=0, variant=variant, options=self.options)
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be in 0..{self.players - 1}")
        self.seat = seat
        others = [s for s in range(self.players) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"give one opponent spec, or {len(others)} (one per other seat)")
        self.specs = dict(zip(others, specs, strict=True))
        for spec in specs:  # a bad spec fails now, naming the choices
            make_agent(self.game, spec)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES}")
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self.observer = observer_for(self.game, self.players, self.rules, max_players)
        self.payout = Payout(reward, self.game, self.players, self.rules)
        self.num_actions = self.game.num_actions(self.players, self.rules)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.observer.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.num_actions)
        self._seeds = random.Random()
        self.state: State | None = None
        self._ended = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = self._seeds.getrandbits(63)
        self.state = self.game.new(
            self.players, seed=game_seed, variant=self.variant, options=self.options
        )
        self.state.quiet()
        self.payout.start(self.state)  # before the bots' first moves, which count too
        self._ended = False
        self.bots = {
            s: make_agent(self.game, spec, seed=self._seeds.getrandbits(31))
            for s, spec in self.specs.items()
        }
        self.bot_rngs = {s: Rng(self._seeds.getrandbits(63)) for s in self.specs}
        self._play_bots()
        return self._obs(), {}

    def _play_bots(self) -> None:
        """Let the bots decide until the learner owes a decision or the game ends."""
        st = self.state
        assert st is not None
        while not st.over:
            owed = st.to_act()
            if self.seat in owed:
                return
            s = owed[0]
            st.apply(s, self.bots[s].act(AgentContext(st, s, self.bot_rngs[s])))

    def _obs(self) -> dict[str, Any]:
        st = self.state
        assert st is not None
        return {
            "observation": np.asarray(self.observer.encode(st.view(self.seat)), dtype=np.float32),
            "action_mask": action_mask(st, self.seat, self.num_actions),
        }

    def action_masks(self) -> npt.NDArray[np.int8]:
        assert self.state is not None
        return action_mask(self.state, self.seat, self.num_actions)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        st = self.state
        if st is None or st.over or self._ended:
            raise RuntimeError("call reset() before step() (the episode is over)")
        try:
            move = st.action_from_index(self.seat, int(action))
        except IllegalAction:
            self._ended = True
            return self._obs(), self.illegal_reward, True, False, {"illegal_action": True}
        st.apply(self.seat, move)
        self._play_bots()
        reward = self.payout.pay(st)[self.seat] if st.over or self.payout.every_step else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, st.over, False, {}

    def render(self) -> str | None:
        if self.state is None:
            return None
        text = render_text(self.game, self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text
