"""Which bots a remote client may seat, and what each level plays.

A spec from the network is untrusted: ``ismcts:iterations=100000000`` would
keep a worker busy for hours, and a ``module:Class`` spec would import code.
So the lobby offers levels (``easy``, ``normal``, ``hard``), ``random``, the
game's own bots without options, and ``ismcts`` with bounded options only.
Stored tables are checked again when they load, so an old unbounded spec
does not come back after a restart.

The operator (whoever starts ``bestiary serve``) may add agents of their own:
``--agent NAME=module:Object`` makes NAME a bot kind for every game. Those
modules are imported once at start-up (:func:`operator_agents`) and by the
bot workers; a client only ever names NAME, never a module.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping

from ..agents.base import _import_agent, is_import_path, parse_spec
from ..agents.value import search_options
from ..engine.errors import BadAgentSpec
from ..engine.protocol import Game

log = logging.getLogger("bestiary.server")

LEVELS = ("easy", "normal", "hard")
# ismcts options a client may set, with their ranges (iterations and the most
# seconds: see Limits, max_iterations and max_search_seconds).
_ISMCTS_RANGES = {"c": (0.0, 10.0), "rollout_limit": (1.0, 400.0)}
MIN_SECONDS = 0.05
MAX_SECONDS = 5.0  # Limits.max_search_seconds by default
# Options that may be fractional (the others count something).
_FRACTIONAL = {"c", "seconds"}


def level_spec(game: Game, level: str, players: int | None = None) -> str:
    """The spec a level plays: easy is random, normal the game's own bot (or a
    short search), hard a search for a second a move, its playouts played by
    the game's own bot where it has one (it keeps that bot's move unless the
    samples show a better one), with the options the game names for a table
    of ``players``."""
    if level == "easy":
        return "random"
    if level == "normal":
        return "heuristic" if "heuristic" in game.agents() else "ismcts:iterations=100"
    extra = search_options(game, players)  # what the game's search plays best with
    if "heuristic" in game.agents():
        return "ismcts:seconds=1,rollout_limit=200" + (f",{extra}" if extra else "")
    return "ismcts:iterations=400" + (f",{extra}" if extra else "")


_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}")


def parse_agent_args(items: Iterable[str]) -> dict[str, str]:
    """``["mine=mybots.deep:Agent", ...]`` (``--agent``) -> ``{"mine": "mybots.deep:Agent"}``."""
    out: dict[str, str] = {}
    for item in items:
        name, eq, path = (part.strip() for part in item.partition("="))
        if not eq or not name or not path:
            raise BadAgentSpec(
                f"--agent {item.strip()[:60]!r} must be written NAME=module:Object "
                "(e.g. mine=mybots.deep:Agent)"
            )
        if name in out:
            raise BadAgentSpec(f"--agent {name[:40]!r} is given twice")
        out[name] = path
    return out


def operator_agents(agents: Mapping[str, str], bots: Iterable[str] = ()) -> dict[str, str]:
    """The operator's ``NAME -> module:Object[:options]`` mapping, checked: each
    NAME is a plain name that clashes with no level, generic agent or game bot
    (``bots``), and each object imports and builds an agent with ``act(ctx)``.
    BadAgentSpec (one line) otherwise."""
    taken = {*LEVELS, "random", "ismcts", *bots}
    out: dict[str, str] = {}
    for name, spec in agents.items():
        if not _NAME.fullmatch(name):
            raise BadAgentSpec(
                f"agent name {name[:40]!r} must be a letter then letters, digits, - or _ "
                "(at most 40)"
            )
        if name in taken:
            raise BadAgentSpec(
                f"agent name {name!r} is already a level or a bot; choose another "
                f"(taken: {', '.join(sorted(taken))})"
            )
        path, options = parse_spec(spec)
        if not is_import_path(path):
            raise BadAgentSpec(
                f"agent {name!r}: {spec[:80]!r} must name module:Object (e.g. mybots.deep:Agent)"
            )
        try:
            factory = _import_agent(path)
        except BadAgentSpec as exc:
            raise BadAgentSpec(f"agent {name!r}: {' '.join(str(exc).split())}") from None
        try:
            agent = factory(seed=0, **options)
        except Exception as exc:
            raise BadAgentSpec(
                f"agent {name!r} ({spec}) cannot be built: {type(exc).__name__}: {exc}"
            ) from None
        if not callable(getattr(agent, "act", None)):
            raise BadAgentSpec(
                f"agent {name!r} ({spec}) built a {type(agent).__name__}, "
                "which has no act(ctx) method: it is not an agent"
            )
        out[name] = spec.strip()
    return out


def choices(game: Game, agents: Mapping[str, str] | None = None) -> list[str]:
    """What a client may ask for, for the lobby and error messages (``agents``:
    the operator's own, by name)."""
    own = sorted(agents or {})
    return [*LEVELS, "random", *sorted(game.agents()), *own, "ismcts:iterations=N"]


def check_spec(
    game: Game,
    spec: str,
    max_iterations: int,
    agents: Mapping[str, str] | None = None,
    max_seconds: float = MAX_SECONDS,
) -> str:
    """``spec`` cleaned, if a remote client may seat it; BadAgentSpec otherwise.
    ``agents``: the operator's agents, seated by name only (no options);
    ``max_seconds``: the operator's cap on a move's search."""
    agents = agents or {}
    top = max(MIN_SECONDS, max_seconds)
    allowed = (
        f"agents: {', '.join(choices(game, agents))} (iterations 1 to {max_iterations}, "
        f"ismcts options c, rollout_limit and seconds {MIN_SECONDS:g} to {top:g})"
    )
    text = spec.strip()
    if len(text) > 80:
        raise BadAgentSpec(f"agent spec too long; {allowed}")
    name, options = parse_spec(text, known=agents)
    if name in LEVELS or name == "random" or name in game.agents() or name in agents:
        if options:
            raise BadAgentSpec(f"bot {name!r} takes no options here; {allowed}")
        return name
    if name != "ismcts":
        raise BadAgentSpec(f"unknown agent {name[:30]!r}; {allowed}")
    for key, raw in options.items():
        lo, hi = (
            (1.0, float(max_iterations))
            if key == "iterations"
            else (MIN_SECONDS, top)
            if key == "seconds"
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


def playable(
    game: Game,
    spec: str | None,
    max_iterations: int,
    agents: Mapping[str, str] | None = None,
    players: int | None = None,
    max_seconds: float = MAX_SECONDS,
) -> str:
    """The spec a stored bot seat runs at a table of ``players``: a level
    resolved, an operator's agent resolved to its ``module:Object``, and
    anything a client may no longer seat (an old table, an agent the operator
    no longer enables) replaced by the normal level. A search never runs
    longer than ``max_seconds`` a move (the hard level included)."""
    agents = agents or {}
    try:
        # A stored search asking more than today's cap plays, capped (below).
        top = max(max_seconds, MAX_SECONDS)
        clean = check_spec(game, spec or "random", max_iterations, agents, top)
    except BadAgentSpec as exc:
        log.warning("bot spec %r refused (%s); playing the normal level", spec, exc)
        clean = "normal"
    if clean in agents:
        return agents[clean]
    runs = level_spec(game, clean, players) if clean in LEVELS else clean
    return capped(runs, max_seconds)


def capped(spec: str, max_seconds: float) -> str:
    """``spec`` with its ``seconds`` option lowered to ``max_seconds`` if it asks more."""
    name, options = parse_spec(spec)
    raw = options.get("seconds")
    if name != "ismcts" or raw is None or float(raw) <= max_seconds:
        return spec
    options["seconds"] = f"{max(MIN_SECONDS, max_seconds):g}"
    return f"{name}:{','.join(f'{k}={v}' for k, v in options.items())}"


def imports(spec: str, agents: Mapping[str, str] | None) -> bool:
    """Whether ``spec`` (from :func:`playable`) is one of the operator's agents,
    the only specs the server builds with imports allowed."""
    return spec in (agents or {}).values()
