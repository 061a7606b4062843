"""N tables of one game stepped together, NumPy arrays in and out (Gymnasium's
vector API).

The engine is Python, so nothing here runs the N games "in parallel": each
``step`` still applies N moves, builds N views and encodes N observations.
What a batch saves is everything around that: no PettingZoo bookkeeping
(agent iteration, reward dicts, order checks); the observations and masks
of all tables written together at the end of a step, from each table's
non-zero entries where the game's observer has a sparse encoding
(``encoding.py``; Taxonomy's reads only what it encodes), and each mask
from the legal list's indices, in a few NumPy calls per step; with
``copy=True`` (the default) new arrays at each step that are returned as
they are (every row is written again, so nothing is copied); and the legal
list kept so the chosen index is turned back into a move with one list
lookup (``action_from_index`` would rebuild the legal list and scan it
again).

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

from ..agents.features import SparseRow
from ..engine.errors import IllegalAction
from ..engine.protocol import Action, Game, State
from ..engine.registry import get_game
from .aec import Payout, check_reward, win_rewards
from .encoding import observation, observer_for, sparse_encoder


class _RowWrites:
    """One step's new observation rows (sparse) and mask changes, gathered
    table by table into flat lists and written together by :meth:`flush`: a
    few NumPy calls per step instead of a few per table (most of the cost of
    a row written alone is NumPy's per-call overhead and its list conversion)."""

    #: Fewer rows than this are written one by one (the bulk write's dozen
    #: NumPy calls cost more than a few rows' own few).
    BULK = 4

    def __init__(self) -> None:
        self._rows: list[int] = []  # the rows of the new observations
        self._ones: list[int] = []  # their positions holding 1, row after row
        self._n_ones: list[int] = []  # how many of them each row has
        self._idx: list[int] = []  # their other non-zero positions ...
        self._n_idx: list[int] = []
        self._values: list[float] = []  # ... and those positions' values
        self._mask_rows: list[int] = []
        self._clear: list[int] = []  # mask positions to clear, row after row
        self._n_clear: list[int] = []
        self._set: list[int] = []  # then those to set
        self._n_set: list[int] = []

    def observation(self, i: int, row: SparseRow) -> None:
        """Row ``i`` becomes ``row`` (all of it: the rest is zeroed)."""
        self._rows.append(i)
        self._ones += row.ones
        self._n_ones.append(len(row.ones))
        self._idx += row.idx
        self._n_idx.append(len(row.idx))
        self._values += row.values

    def mask(self, i: int, old: list[int], new: list[int]) -> None:
        """Mask row ``i``: the positions ``old`` (all its True ones) cleared, ``new`` set."""
        self._mask_rows.append(i)
        self._clear += old
        self._n_clear.append(len(old))
        self._set += new
        self._n_set.append(len(new))

    def flush(
        self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_], zeroed: bool
    ) -> None:
        """Write everything gathered since the last flush into ``obs`` and
        ``masks``; ``zeroed``: they are new zero arrays (nothing to clear)."""
        if len(self._rows) >= self.BULK:
            self._bulk_observations(obs, zeroed)
        else:
            ones = idx = 0  # where the current row's entries start in the flat lists
            for i, n_ones, n_idx in zip(self._rows, self._n_ones, self._n_idx, strict=True):
                row = obs[i]
                if not zeroed:
                    row.fill(0.0)
                row[self._ones[ones : ones + n_ones]] = 1.0
                row[self._idx[idx : idx + n_idx]] = self._values[idx : idx + n_idx]
                ones, idx = ones + n_ones, idx + n_idx
        if len(self._mask_rows) >= self.BULK:
            self._bulk_masks(masks, zeroed)
        else:
            old = new = 0
            for i, n_old, n_new in zip(self._mask_rows, self._n_clear, self._n_set, strict=True):
                mask = masks[i]
                if not zeroed:
                    mask[self._clear[old : old + n_old]] = False
                mask[self._set[new : new + n_new]] = True
                old, new = old + n_old, new + n_new
        for gathered in (self._rows, self._ones, self._n_ones, self._idx, self._n_idx):
            gathered.clear()
        self._values.clear()
        for gathered in (self._mask_rows, self._clear, self._n_clear, self._set, self._n_set):
            gathered.clear()

    def _bulk_observations(self, obs: npt.NDArray[np.float32], zeroed: bool) -> None:
        rows = np.array(self._rows, np.intp)
        if not zeroed and len(self._rows) == obs.shape[0]:
            obs.fill(0.0)  # every table stepped: one memset
        elif not zeroed:
            obs[rows] = 0.0
        # Entry j of row i is entry i * width + j of the flat array.
        starts, flat = rows * obs.shape[1], obs.reshape(-1)
        flat[np.repeat(starts, self._n_ones) + np.array(self._ones, np.intp)] = 1.0
        idx = np.repeat(starts, self._n_idx) + np.array(self._idx, np.intp)
        flat[idx] = np.array(self._values, np.float32)

    def _bulk_masks(self, masks: npt.NDArray[np.bool_], zeroed: bool) -> None:
        starts = np.array(self._mask_rows, np.intp) * masks.shape[1]
        flat = masks.reshape(-1)
        if not zeroed:
            flat[np.repeat(starts, self._n_clear) + np.array(self._clear, np.intp)] = False
        flat[np.repeat(starts, self._n_set) + np.array(self._set, np.intp)] = True


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

        # The outputs, written row by row. With ``copy`` the observations and
        # masks are new zero arrays at every reset and step (every row is
        # written again: the arrays returned before stay the caller's, with no
        # copy made); without it these same arrays, written in place.
        self._obs = np.zeros((num_envs, self.observer.size), np.float32)
        self._masks = np.zeros((num_envs, self.num_actions), np.bool_)
        self._seats = np.zeros(num_envs, np.int64)
        self._rewards = np.zeros((num_envs, self.players), np.float64)
        self._terms = np.zeros(num_envs, np.bool_)
        self._truncs = np.zeros(num_envs, np.bool_)
        self._steps = [0] * num_envs
        # Where the game's observer has a sparse encoding (encoding.py), each
        # row's non-zero entries are gathered and the step's rows written
        # together (_RowWrites). Otherwise the encoder returns a Python list of
        # floats and struct packs it straight into its row's bytes as float32
        # (the same rounding as NumPy's cast), several times faster than
        # NumPy's element-by-element conversion.
        self._sparse = sparse_encoder(self.observer)
        self._row_bytes = self.observer.size * 4
        self._pack_row = struct.Struct(f"={self.observer.size}f").pack_into
        self._obs_bytes = self._obs.data.cast("B")
        self._writes = _RowWrites()

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
        idx = list(map(state.action_index, legal))
        # The mask: the previous mask's positions cleared, these set (at the flush).
        self._writes.mask(i, self._legal_idx[i], idx)
        self._legal[i] = legal
        self._legal_idx[i] = idx
        self._seats[i] = seat
        if self._sparse is not None:
            self._writes.observation(i, self._sparse(state, seat))
        else:
            self._write_obs(i, state, seat)

    def _write_obs(self, i: int, state: State, seat: int) -> None:
        """Row ``i`` of the observations, now, from the dense encoding."""
        self._pack_row(
            self._obs_bytes, i * self._row_bytes, *self.observer.encode(state.view(seat))
        )

    def _new_arrays(self) -> None:
        """New zero observation and mask arrays (``copy``: the caller keeps the last)."""
        self._obs = np.zeros(self._obs.shape, np.float32)
        self._masks = np.zeros(self._masks.shape, np.bool_)
        if self._sparse is None:  # the dense rows are packed into its bytes
            self._obs_bytes = self._obs.data.cast("B")

    def _outputs(self) -> dict[str, npt.NDArray[Any]]:
        self._writes.flush(self._obs, self._masks, zeroed=self.copy)
        # With copy, the arrays are new at each step (_new_arrays): nothing writes them again.
        seats = self._seats.copy() if self.copy else self._seats
        return {"observation": self._obs, "action_mask": self._masks, "seat": seats}

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
        if self.copy:
            self._new_arrays()
        else:
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
        if self.copy:
            self._new_arrays()
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
        final_obs = {
            "observation": observation(self.observer, state, last_seat),
            "action_mask": np.zeros(self.num_actions, np.bool_),
            "seat": last_seat,
        }
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
