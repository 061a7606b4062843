"""Which bots a remote client may seat, and what each level plays.

A spec from the network is untrusted: ``ismcts:iterations=100000000`` would
keep a worker busy for hours, and a ``module:Class`` spec would import code.
So the lobby offers levels (``easy``, ``normal``, ``hard``), ``random``, the
game's own bots without options, and ``ismcts`` with bounded options only.
Stored tables are checked again when they load, so an old unbounded spec
does not come back after a restart.
"""

from __future__ import annotations

import logging

from ..agents.base import parse_spec
from ..engine.errors import BadAgentSpec
from ..engine.protocol import Game

log = logging.getLogger("bestiary.server")

LEVELS = ("easy", "normal", "hard")
# ismcts options a client may set, with their ranges (iterations: see Limits).
_ISMCTS_RANGES = {"c": (0.0, 10.0), "rollout_limit": (1.0, 400.0), "seconds": (0.05, 5.0)}
# Options that may be fractional (the others count something).
_FRACTIONAL = {"c", "seconds"}


def level_spec(game: Game, level: str) -> str:
    """The spec a level plays: easy is random, normal the game's own bot (or a
    short search), hard a search for a second a move, its playouts played by
    the game's own bot where it has one (it keeps that bot's move unless the
    samples show a better one)."""
    if level == "easy":
        return "random"
    if level == "normal":
        return "heuristic" if "heuristic" in game.agents() else "ismcts:iterations=100"
    if "heuristic" in game.agents():
        return "ismcts:seconds=1,rollout_limit=200"
    return "ismcts:iterations=400"


def choices(game: Game) -> list[str]:
    """What a client may ask for, for the lobby and error messages."""
    return [*LEVELS, "random", *sorted(game.agents()), "ismcts:iterations=N"]


def check_spec(game: Game, spec: str, max_iterations: int) -> str:
    """``spec`` cleaned, if a remote client may seat it; BadAgentSpec otherwise."""
    allowed = (
        f"agents: {', '.join(choices(game))} (iterations 1 to {max_iterations}, "
        "ismcts options c, rollout_limit and seconds 0.05 to 5)"
    )
    text = spec.strip()
    if len(text) > 80:
        raise BadAgentSpec(f"agent spec too long; {allowed}")
    name, options = parse_spec(text)
    if name in LEVELS or name == "random" or name in game.agents():
        if options:
            raise BadAgentSpec(f"bot {name!r} takes no options here; {allowed}")
        return name
    if name != "ismcts":
        raise BadAgentSpec(f"unknown agent {name[:30]!r}; {allowed}")
    for key, raw in options.items():
        lo, hi = (
            (1.0, float(max_iterations))
            if key == "iterations"
            else _ISMCTS_RANGES.get(key, (None, None))
        )
        if lo is None or hi is None:
            raise BadAgentSpec(f"ismcts option {key[:30]!r} cannot be set here; {allowed}")
        try:
            value = float(raw)
        except ValueError:
            raise BadAgentSpec(f"ismcts {key} must be a number; {allowed}") from None
        if not lo <= value <= hi or (key not in _FRACTIONAL and not value.is_integer()):
            raise BadAgentSpec(f"ismcts {key} must be from {lo:g} to {hi:g}; {allowed}")
    return text


def playable(game: Game, spec: str | None, max_iterations: int) -> str:
    """The spec a stored bot seat runs: a level resolved, and anything a client
    may no longer seat (an old table) replaced by the normal level."""
    try:
        clean = check_spec(game, spec or "random", max_iterations)
    except BadAgentSpec as exc:
        log.warning("bot spec %r refused (%s); playing the normal level", spec, exc)
        clean = "normal"
    return level_spec(game, clean) if clean in LEVELS else clean
