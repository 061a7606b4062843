"""A PettingZoo Parallel environment: every seat that owes a decision gives it
in the same step.

Several seats owe a decision at once in Taxonomy's claim window and duels,
M.E.A.T.'s face-down tactics, hand-limit discards and destiny payments, and
Teratozoic's growth. There the AEC environment asks them one after another;
here each gets its observation from the same state, before anyone has chosen,
and all choices go in together: one decision per owing seat per step (where a
seat places card after card, as in the growth or the tactics, each step takes
every owing seat's next one).

Every other phase is sequential: exactly one seat owes a move. Such a step is
still a Parallel step, with one action that counts:

- ``agents`` holds every seat until the game ends (PettingZoo's
  ``parallel_api_test`` requires that a live agent stays in ``agents`` until
  it terminates, so seats cannot drop out between turns);
- each seat gets its observation every step; the ``action_mask`` of a seat
  that owes nothing is all zero and ``infos[agent]["to_act"]`` is False, and
  whatever action it is given is ignored (``None`` is fine);
- a seat that owes a decision must give one (a missing or masked-out action
  raises before anything is played, so the state is unchanged).

The owing seats' actions are played in seat order. In M.E.A.T.'s activation
either member of the acting team may act, and the first one's action can end
the other's turn: an action the state no longer asks for when its turn comes
is not played, and ``infos[agent]["played"]`` says so (True for every action
that was played).

Observations, actions and rewards are the AEC environment's
(:mod:`bestiary.rl.aec`): ``{"observation", "action_mask"}`` per seat, an
index in the game's action space, 1 shared among the winners at the end;
``max_players`` and ``reward="score"`` are its options too (with
``"score"`` every step pays each seat the change of its public score
margin since the previous step).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pettingzoo import ParallelEnv

from ..engine.errors import IllegalAction
from .aec import RENDER_MODES, TableEnv


class BestiaryParallel(TableEnv, ParallelEnv):
    """One table of ``game_id``; see the module docstring."""

    metadata = {  # noqa: RUF012 (the base class declares it so)
        "render_modes": list(RENDER_MODES),
        "name": "bestiary_parallel",
        "is_parallelizable": True,
    }

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        seed: int | None = None,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        max_steps: int = 20_000,
        max_players: int | str | None = None,
        reward: str = "win",
    ) -> None:
        self._open_table(
            game_id,
            players,
            variant,
            options,
            render_mode,
            max_steps,
            "bestiary_{id}_parallel",
            max_players,
            reward,
        )
        self.agents: list[str] = []
        self._seeds = random.Random(seed) if seed is not None else random.Random()

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game; ``seed`` as in the AEC environment (the deal, every die,
        and the seeds of later unseeded resets). ``options`` is ignored."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self._new_game(self._seeds.getrandbits(63))
        self.agents = list(self.possible_agents)
        self.steps = 0
        owed = set(self.state.to_act())
        return self._observations(), {a: {"to_act": self._seat[a] in owed} for a in self.agents}

    def _observations(self) -> dict[str, Any]:
        return {a: self._observation(self._seat[a]) for a in self.possible_agents}

    def _decode(self, actions: Mapping[str, Any]) -> dict[int, int]:
        """The owing seats' moves, all checked before any is played."""
        if not isinstance(actions, Mapping):
            raise ValueError("actions must be a dict of agent -> action index")
        moves: dict[int, int] = {}
        for seat in self.state.to_act():
            agent = self.possible_agents[seat]
            if actions.get(agent) is None:
                owed = [self.possible_agents[s] for s in self.state.to_act()]
                raise ValueError(
                    f"{agent} owes a decision: give an action for each of {owed} "
                    "(nothing was played)"
                )
            try:
                index = int(actions[agent])
            except (TypeError, ValueError):
                raise ValueError(
                    f"{agent}'s action must be an index in 0..{self.num_actions - 1}, "
                    f"not {actions[agent]!r} (nothing was played)"
                ) from None
            self.state.action_from_index(seat, index)  # IllegalAction, nothing played
            moves[seat] = index
        return moves

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, Any],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        if not self.agents:
            raise RuntimeError("call reset() before step() (the game is over)")
        moves = self._decode(actions)
        played: dict[int, bool] = {}
        for seat, index in sorted(moves.items()):
            # A seat that the earlier moves relieved (M.E.A.T.'s activation)
            # is not asked any more; its move is not played.
            try:
                move = self.state.action_from_index(seat, index)
            except IllegalAction:
                played[seat] = False
                continue
            self.state.apply(seat, move)
            played[seat] = True
        self.steps += 1
        over = self.state.over
        truncated = not over and self.steps >= self.max_steps
        pay = self.payout.pay(self.state)
        agents = self.agents
        obs = self._observations()
        owed = set(self.state.to_act())
        rewards = {a: pay[self._seat[a]] for a in agents}
        terminations = {a: over for a in agents}
        truncations = {a: truncated for a in agents}
        infos: dict[str, dict[str, Any]] = {}
        for a in agents:
            seat = self._seat[a]
            info: dict[str, Any] = {"to_act": seat in owed and not truncated}
            if seat in played:
                info["played"] = played[seat]
            infos[a] = info
        if over or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos


#: ``bestiary.rl.parallel_env("taxonomy", players=4, seed=0)``: PettingZoo's name
#: for the constructor, the class itself (its signature stays in one place).
parallel_env = BestiaryParallel


__all__ = ["BestiaryParallel", "parallel_env"]
