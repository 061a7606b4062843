"""N tables of one game stepped together, NumPy arrays in and out (Gymnasium's
vector API).

The engine is Python, so nothing here runs the N games "in parallel": each
``step`` still applies N moves, builds N views and encodes N observations.
What a batch saves is everything around that: no PettingZoo bookkeeping
(agent iteration, reward dicts, order checks), one preallocated array per
output written in place, each mask set and cleared with one fancy-index
assignment from the legal list, and that legal list kept so the chosen index
is turned back into a move with one list lookup (``action_from_index`` would
rebuild the legal list and scan it again).

Every table is the AEC environment's table: table ``i`` reset with seed
``s`` deals the games that ``bestiary.rl.env`` reset with seed ``s + i``
deals, and gives the same observations, masks and rewards for the same
actions (tests/rl/test_vector.py checks it step by step).

Outputs of ``step(actions)`` (``actions``: one index per table):

- observation: a dict of ``observation`` (N × size, float32, the view of the
  seat to act), ``action_mask`` (N × num_actions, bool) and ``seat`` (N, the
  seat to act, public as PettingZoo's ``agent_selection`` is);
- rewards: N × players (not Gymnasium's usual N: every seat is paid at the
  end of a game, 1 shared among the winners, as in the AEC environment;
  with ``reward="score"`` every step also pays each seat of the stepped
  table the change of its public score margin);
- terminations, truncations: N (a truncation at ``max_steps`` moves);
- infos: ``{}`` unless a table finished: then ``final_obs`` (the finished
  table's observation for the seat that made the last move, mask all False)
  and ``final_info`` (``result``: scores and winners; ``steps``), with their
  ``_final_obs`` / ``_final_info`` flags, as Gymnasium's own vector envs.

``max_players`` pads the observation as in the AEC environment (every table
size of the game, one length).

Autoreset is ``SAME_STEP``: a finished table starts its next game (the next
seed of its own seed stream, as the AEC environment's unseeded ``reset``)
within the same ``step``, so the observation returned for it is the new
game's first one.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..engine.errors import IllegalAction
from ..engine.protocol import Action, Game, State
from ..engine.registry import get_game
from .aec import Payout, check_reward, win_rewards
from .encoding import observer_for


class BestiaryVectorEnv(VectorEnv):
    """``num_envs`` tables of ``game_id``; see the module docstring."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        num_envs: int = 1,
        players: int | None = None,
        seed: int | None = None,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        max_steps: int = 20_000,
        copy: bool = True,
        max_players: int | str | None = None,
        reward: str = "win",
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        if not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps must be a whole number of at least 1, not {max_steps!r}")
        self.game: Game = get_game(game_id)
        self.players = players or self.game.default_players
        self.variant = variant
        self.options = dict(options or {})
        self.rules = self.game.ruleset(variant, self.options)
        # One state now, so bad players/variant/options fail here, not at reset.
        self.game.new(self.players, seed=0, variant=variant, options=self.options)
        self.observer = observer_for(self.game, self.players, self.rules, max_players)
        self.reward = check_reward(reward)
        # One payout per table (a "score" payout remembers its table's margins).
        first = Payout(self.reward, self.game, self.players, self.rules)
        self._payouts = [first] + [first.twin() for _ in range(num_envs - 1)]
        self._shaped = self.reward != "win"
        self.num_actions = self.game.num_actions(self.players, self.rules)
        self.num_envs = num_envs
        self.max_steps = max_steps
        self.copy = copy
        self.render_mode = None
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.observer.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.bool_),  # type: ignore[arg-type]
                "seat": spaces.Discrete(self.players),
            }
        )
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {**self.metadata, "name": f"bestiary_{self.game.id}_vector"}

        # Preallocated outputs, written in place row by row.
        self._obs = np.zeros((num_envs, self.observer.size), np.float32)
        self._masks = np.zeros((num_envs, self.num_actions), np.bool_)
        self._seats = np.zeros(num_envs, np.int64)
        self._rewards = np.zeros((num_envs, self.players), np.float64)
        self._terms = np.zeros(num_envs, np.bool_)
        self._truncs = np.zeros(num_envs, np.bool_)
        self._steps = [0] * num_envs
        # The encoders return Python lists of floats; struct packs one straight
        # into its row's bytes as float32 (the same rounding as NumPy's cast),
        # several times faster than NumPy's element-by-element conversion.
        self._row_bytes = self.observer.size * 4
        self._pack_row = struct.Struct(f"={self.observer.size}f").pack_into
        self._obs_bytes = self._obs.data.cast("B")

        # Per table: its seed stream, its state, and the seat to act's legal
        # moves with their indices (the mask's True positions).
        if seed is None:  # unseeded: each table its own seed from the system
            starts = [random.SystemRandom().getrandbits(63) for _ in range(num_envs)]
        else:
            starts = [int(seed) + i for i in range(num_envs)]
        self._seeds = [random.Random(s) for s in starts]
        self._states: list[State] = []
        self._legal: list[Sequence[Action]] = [()] * num_envs
        self._legal_idx: list[list[int]] = [[] for _ in range(num_envs)]
        self._started = False

    # ------------------------------------------------------------------ tables
    def _new_game(self, i: int) -> State:
        """Table ``i``'s next game, from its seed stream (as ``BestiaryAEC.reset``)."""
        state = self.game.new(
            self.players,
            seed=self._seeds[i].getrandbits(63),
            variant=self.variant,
            options=self.options,
        )
        state.quiet()
        self._steps[i] = 0
        self._payouts[i].start(state)
        return state

    def _observe(self, i: int) -> None:
        """Write table ``i``'s row: the seat to act, its mask and its observation."""
        state = self._states[i]
        owed = state.to_act()
        seat = owed[0] if owed else 0
        legal = state.legal(seat) if owed else ()
        index = state.action_index
        idx = [index(a) for a in legal]
        row = self._masks[i]
        row[self._legal_idx[i]] = False  # clear the previous mask's positions only
        row[idx] = True
        self._legal[i] = legal
        self._legal_idx[i] = idx
        self._seats[i] = seat
        self._pack_row(
            self._obs_bytes, i * self._row_bytes, *self.observer.encode(state.view(seat))
        )

    def _single_obs(self, i: int) -> dict[str, Any]:
        return {
            "observation": self._obs[i].copy(),
            "action_mask": self._masks[i].copy(),
            "seat": int(self._seats[i]),
        }

    def _outputs(self) -> dict[str, npt.NDArray[Any]]:
        if self.copy:
            return {
                "observation": self._obs.copy(),
                "action_mask": self._masks.copy(),
                "seat": self._seats.copy(),
            }
        return {"observation": self._obs, "action_mask": self._masks, "seat": self._seats}

    # ------------------------------------------------------------------ API
    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        """New games on every table. ``seed`` (an int: table ``i`` gets
        ``seed + i``; or one seed per table) fixes the deals and the seeds of
        the games that follow. Game options are fixed at construction;
        ``options`` is ignored, as in the AEC environment."""
        if seed is not None:
            seeds = self._table_seeds(seed)
            self._seeds = [random.Random(s) for s in seeds]
            super().reset(seed=seeds[0])
        self._states = [self._new_game(i) for i in range(self.num_envs)]
        self._masks[:] = False
        self._legal_idx = [[] for _ in range(self.num_envs)]
        for i in range(self.num_envs):
            self._observe(i)
        self._rewards[:] = 0.0
        self._terms[:] = False
        self._truncs[:] = False
        self._started = True
        return self._outputs(), {}

    def _table_seeds(self, seed: Any) -> list[int]:
        """One seed per table from ``reset``'s ``seed`` (ValueError if neither form)."""
        if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            return [int(seed) + i for i in range(self.num_envs)]
        seeds = list(seed) if isinstance(seed, Sequence | np.ndarray) else []
        if len(seeds) != self.num_envs or not all(
            isinstance(s, int | np.integer) and not isinstance(s, bool) for s in seeds
        ):
            raise ValueError(
                f"seed must be an int or {self.num_envs} ints (one per table), not {seed!r}"
            )
        return [int(s) for s in seeds]

    def _decode(self, actions: Any) -> list[Action]:
        """The move each table's index names; every one is checked before any
        is played, so a bad batch changes nothing."""
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs,) or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} integer indices (one per table), "
                f"got shape {arr.shape} of {arr.dtype}"
            )
        moves: list[Action] = []
        for i, a in enumerate(arr.tolist()):
            idx = self._legal_idx[i]
            try:
                moves.append(self._legal[i][idx.index(a)])
            except ValueError:
                raise IllegalAction(
                    f"table {i}: action {a} is not in the mask of seat "
                    f"{int(self._seats[i])} (no table was stepped)",
                    self._legal[i],
                ) from None
        return moves

    def step(
        self, actions: Any
    ) -> tuple[
        dict[str, npt.NDArray[Any]],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        moves = self._decode(actions)
        self._rewards[:] = 0.0
        self._terms[:] = False
        self._truncs[:] = False
        infos: dict[str, Any] = {}
        for i, move in enumerate(moves):
            state = self._states[i]
            state.apply(int(self._seats[i]), move)
            self._steps[i] += 1
            if self._shaped:
                self._rewards[i] = self._payouts[i].pay(state)
            if state.over or self._steps[i] >= self.max_steps:
                infos = self._finish(i, infos)
            else:
                self._observe(i)
        return self._outputs(), self._rewards.copy(), self._terms.copy(), self._truncs.copy(), infos

    def _finish(self, i: int, infos: dict[str, Any]) -> dict[str, Any]:
        """Pay table ``i``, keep its final observation and start its next game."""
        state = self._states[i]
        last_seat = int(self._seats[i])
        if state.over:
            if not self._shaped:  # a shaped payout was made in step, win included
                self._rewards[i] = win_rewards(state)
            self._terms[i] = True
        else:
            self._truncs[i] = True
        # The finished table as the seat that moved last sees it (no move is owed).
        self._masks[i, self._legal_idx[i]] = False
        self._legal[i], self._legal_idx[i] = (), []
        self._pack_row(
            self._obs_bytes, i * self._row_bytes, *self.observer.encode(state.view(last_seat))
        )
        final_obs = self._single_obs(i)
        result = state.result
        final_info: dict[str, Any] = {"steps": self._steps[i]}
        if result is not None:
            final_info["result"] = {"scores": list(result.scores), "winners": list(result.winners)}
        infos = self._add_info(infos, {"final_obs": final_obs, "final_info": final_info}, i)
        self._states[i] = self._new_game(i)
        self._observe(i)
        return infos

    def states(self) -> list[State]:
        """The tables' states (for inspection and tests; do not change them)."""
        return list(self._states)


def vector(
    game_id: str,
    num_envs: int = 1,
    players: int | None = None,
    seed: int | None = None,
    variant: str | None = None,
    max_steps: int = 20_000,
    copy: bool = True,
    max_players: int | str | None = None,
    reward: str = "win",
    **options: Any,
) -> BestiaryVectorEnv:
    """``bestiary.rl.vector("taxonomy", num_envs=64, players=4, seed=0, rounds=3)``:
    ``num_envs`` tables stepped together; keyword arguments other than these
    are the game's options."""
    return BestiaryVectorEnv(
        game_id,
        num_envs,
        players,
        seed,
        variant,
        options,
        max_steps=max_steps,
        copy=copy,
        max_players=max_players,
        reward=reward,
    )
