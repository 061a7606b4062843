"""Agents decide for one seat, seeing only what that seat may know.

An agent is anything with ``act(ctx) -> Action``. The :class:`AgentContext`
hands it the seat's ``view``, its ``legal`` actions and ``determinize`` (a
full state consistent with what the seat knows, for search); the real state
stays private to the context.

Agent specs are strings: ``random``, ``heuristic``, ``ismcts:iterations=400``.
Installed packages add agents by name through the ``bestiary.agents`` entry-point
group; ``module:object[:options]`` names any importable class or factory, where
the caller allows imports (see :func:`make_agent`).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Container, Mapping
from importlib.metadata import EntryPoint, entry_points

from ..engine.errors import BadAgentSpec
from ..engine.protocol import Game
from ..i18n import core
from .context import Agent, AgentContext
from .ismcts import ISMCTSAgent
from .random_agent import RandomAgent

__all__ = ["Agent", "AgentContext", "AgentFactory", "available_agents", "make_agent", "parse_spec"]


AgentFactory = Callable[..., Agent]

#: Entry-point group of installed agents: ``name = "package.module:Factory"``.
AGENT_GROUP = "bestiary.agents"


def parse_spec(spec: str, known: Container[str] = ()) -> tuple[str, dict[str, str]]:
    """``"ismcts:iterations=400,c=0.7"`` -> ``("ismcts", {"iterations": "400", "c": "0.7"})``.

    An import path keeps its object in the name:
    ``"mybots.deep:Agent:depth=3"`` -> ``("mybots.deep:Agent", {"depth": "3"})``.
    A name in ``known`` (the registered agents) is never read as a module.
    """
    name, _, rest = spec.strip().partition(":")
    if not name:
        raise BadAgentSpec(core.gettext("empty agent spec {spec!r}").format(spec=spec))
    head, colon, tail = rest.partition(":")
    looks_imported = "." in name or colon or (head and "=" not in head and "," not in head)
    if name not in known and looks_imported:
        # module:object[:options] (a module may be a single name: ``mybot:Agent``)
        if not head.strip():
            raise BadAgentSpec(
                core.gettext(
                    "agent spec {spec!r} names a module; write it module:object "
                    "(e.g. mybots.deep:Agent), with options after another colon"
                ).format(spec=spec)
            )
        name, rest = f"{name}:{head.strip()}", tail
    kwargs: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        if "=" not in part:
            raise BadAgentSpec(
                core.gettext("agent option {part!r} in {spec!r} must be written name=value").format(
                    part=part, spec=spec
                )
            )
        k, v = part.split("=", 1)
        kwargs[k.strip()] = v.strip()
    return name, kwargs


def is_import_path(name: str) -> bool:
    """``mybots.deep:Agent`` (an object in a module), as opposed to a registered name."""
    return ":" in name


def _generic_agents() -> Mapping[str, AgentFactory]:
    return {"random": RandomAgent, "ismcts": ISMCTSAgent}


@functools.cache
def _agent_entry_points() -> dict[str, EntryPoint]:
    # Read once per process: scanning the installed metadata takes milliseconds,
    # and a simulation builds agents for every game.
    return {ep.name: ep for ep in entry_points(group=AGENT_GROUP)}


def _load_entry_point(ep: EntryPoint) -> AgentFactory:
    try:
        factory = ep.load()
    except Exception as exc:  # a stale or broken package must name itself, not crash
        raise BadAgentSpec(
            core.gettext(
                "agent {name!r} ({source}) cannot be loaded: {kind}: {error}; "
                "if its package changed, re-run pip install -e . in it"
            ).format(name=ep.name, source=ep.value, kind=type(exc).__name__, error=exc)
        ) from None
    what = core.gettext("agent {name!r} ({source})").format(name=ep.name, source=ep.value)
    return _checked_factory(factory, what)


def _checked_factory(obj: object, what: str) -> AgentFactory:
    if not callable(obj):
        raise BadAgentSpec(
            core.gettext(
                "{what} is not a class or factory (it is a {kind}); "
                "an agent is built as Factory(seed=..., **options) and has act(ctx)"
            ).format(what=what, kind=type(obj).__name__)
        )
    return obj


def _import_agent(path: str) -> AgentFactory:
    """``module:object`` -> the object, with errors that say which part failed."""
    module_name, _, attr = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # ImportError, or the module's own code failing
        raise BadAgentSpec(
            core.gettext(
                "cannot import module {module!r} for agent {path!r}: {kind}: {error}"
            ).format(module=module_name, path=path, kind=type(exc).__name__, error=exc)
        ) from None
    obj: object = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise BadAgentSpec(
                core.gettext("module {module!r} has no {attr!r} (agent {path!r})").format(
                    module=module_name, attr=attr, path=path
                )
            )
        obj = getattr(obj, part)
    return _checked_factory(obj, f"{path!r}")


def available_agents(game: Game) -> dict[str, AgentFactory | EntryPoint]:
    """Agents by name: the generic ones, installed ones (``bestiary.agents`` entry
    points, loaded only when used), then the game's own."""
    return {**_generic_agents(), **_agent_entry_points(), **game.agents()}


def make_agent(game: Game, spec: str, seed: int = 0, *, allow_import: bool = False) -> Agent:
    """Build the agent a spec names, for ``game``; BadAgentSpec lists the choices.

    ``allow_import`` lets a spec name any importable object (``mybots:Agent``).
    Importing runs the module's code, so only a local user may ask for it: the
    command line sets it, the web server never does.
    """
    agents = available_agents(game)
    name, kwargs = parse_spec(spec, known=agents)
    factory: AgentFactory
    if is_import_path(name):
        if not allow_import:
            raise BadAgentSpec(
                core.gettext(
                    "agent {spec!r} names a module to import, which is not allowed here; "
                    "use an installed agent: {agents}"
                ).format(spec=spec, agents=", ".join(sorted(agents)))
            )
        factory = _import_agent(name)
    else:
        if name not in agents:
            raise BadAgentSpec(
                core.gettext(
                    "unknown agent {name!r} for {game}; agents: {agents} "
                    "(or module:object for your own)"
                ).format(name=name, game=game.id, agents=", ".join(sorted(agents)))
            )
        found = agents[name]
        factory = _load_entry_point(found) if isinstance(found, EntryPoint) else found
    try:
        agent = factory(seed=seed, **kwargs)
    except TypeError as exc:
        raise BadAgentSpec(
            core.gettext("agent {spec!r}: {error}").format(spec=spec, error=exc)
        ) from None
    except ValueError as exc:
        raise BadAgentSpec(
            core.gettext("agent {spec!r}: bad value ({error})").format(spec=spec, error=exc)
        ) from None
    if not callable(getattr(agent, "act", None)):
        raise BadAgentSpec(
            core.gettext("agent {spec!r} built a {kind}, which has no act(ctx) method").format(
                spec=spec, kind=type(agent).__name__
            )
        )
    return agent
