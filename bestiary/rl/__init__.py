"""Standard learning environments for every Bestiary game (``pip install 'bestiary[rl]'``).

- :func:`env`: a PettingZoo AEC environment (every seat is an agent).
- :func:`single_agent_env`: a Gymnasium environment where one seat learns
  and bots (``heuristic``, ``ismcts:...``) play the others.
- :func:`vector`: N tables stepped together, NumPy arrays in and out
  (Gymnasium's vector API).
- :func:`parallel_env`: a PettingZoo Parallel environment (the seats that
  owe a decision at once give it in one step).
- :mod:`bestiary.rl.factored`: the AEC and single-agent environments with
  Teratozoic's actions chosen in two small steps (the card, then where).

Observations are built from the seat's own view only, by the game's
``observe.py``; the action space is the game's fixed one, with a mask.

Every constructor takes two options, off by default: ``max_players`` (an
int, or ``"max"`` for the game's largest table) gives every table size of
the game the same observation length, and ``reward="score"`` adds, every
step, the change of each seat's public score margin to the win reward
(shaping; see :class:`bestiary.rl.aec.ScoreMargins`). See docs/RL.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import factored
from .aec import BestiaryAEC
from .parallel import BestiaryParallel, parallel_env
from .single import SingleAgentEnv
from .vector import BestiaryVectorEnv, vector


def raw_env(
    game_id: str,
    players: int | None = None,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    max_steps: int = 20_000,
    max_players: int | str | None = None,
    reward: str = "win",
) -> BestiaryAEC:
    """The AEC environment without PettingZoo's order-checking wrapper."""
    return BestiaryAEC(
        game_id, players, variant, options, render_mode, max_steps, max_players, reward
    )


def env(
    game_id: str,
    players: int | None = None,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    max_steps: int = 20_000,
    max_players: int | str | None = None,
    reward: str = "win",
) -> Any:
    """``bestiary.rl.env("taxonomy", players=4)``: the AEC environment, wrapped
    (as PettingZoo's own environments are) to refuse calls out of order."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(
        raw_env(game_id, players, variant, options, render_mode, max_steps, max_players, reward)
    )


def single_agent_env(
    game_id: str,
    players: int | None = None,
    seat: int = 0,
    opponents: str | Sequence[str] = "heuristic",
    **kwargs: Any,
) -> SingleAgentEnv:
    """One learning seat against bots; see :class:`SingleAgentEnv` (its keyword
    arguments: ``variant``, ``options``, ``render_mode``, ``illegal_reward``,
    ``max_players``, ``reward``)."""
    return SingleAgentEnv(game_id, players, seat, opponents, **kwargs)


__all__ = [
    "BestiaryAEC",
    "BestiaryParallel",
    "BestiaryVectorEnv",
    "SingleAgentEnv",
    "env",
    "factored",
    "parallel_env",
    "raw_env",
    "single_agent_env",
    "vector",
]
