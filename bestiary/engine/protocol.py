"""The game protocol: a :class:`Game` (metadata + factory) and a :class:`State`
(one match in progress). Every game implements these; nothing else in the
engine knows any game's rules.

Shape (see DESIGN.md):

- ``to_act()``: the seats that owe a decision now (several at once for
  claim windows, duels, face-down tactics); ``()`` when the game is over.
- ``legal(seat)`` / ``apply(seat, action)``: ``apply`` raises
  :class:`IllegalAction` and leaves the state unchanged when the action is
  not legal for that seat now. Hidden simultaneous choices stay hidden
  until every owed seat has chosen; the state decides when a step is done.
- Actions are hashable, immutable values whose ``str()`` is a stable text
  form (``discard Werecat``, ``claim``, ``rps rock``) and which map to an
  integer in a fixed per-game action space (``action_index``) for RL masks.
- ``view(seat)`` and ``events_since(n, seat)`` contain nothing ``seat`` may
  not know (``None`` = spectator).
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from ..i18n import core
from .errors import BadPlayers, IllegalAction, UnknownVariant
from .eventrules import EventRule, rule_for
from .events import Event, EventLog
from .legality import not_your_turn, require_legal
from .rng import Rng
from .ruleset import Ruleset

if TYPE_CHECKING:
    from rich.console import RenderableType


@runtime_checkable
class Action(Protocol):
    """Any hashable immutable value with a stable ``str()`` text form."""

    def __str__(self) -> str: ...
    def __hash__(self) -> int: ...


def normalize_text(text: str) -> str:
    """Text forms compare case- and whitespace-insensitively."""
    return " ".join(text.split()).casefold()


@dataclass
class Result:
    """The outcome of a finished match."""

    scores: list[float]
    winners: list[int]
    # Game-specific statistics for the simulator: numbers are averaged,
    # strings counted, lists flattened (e.g. {"pattern": "4+4", "turns": 31}).
    stats: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "winners": list(self.winners), "stats": self.stats}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        return cls(list(data["scores"]), list(data["winners"]), dict(data.get("stats", {})))


class State(ABC):
    """One match in progress. Subclasses hold the game's data and rules."""

    game: Game
    players: int
    rules: Ruleset
    rng: Rng
    log: EventLog

    # -- who decides --------------------------------------------------------
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Seats that must decide now; ``()`` when the game is over."""

    @abstractmethod
    def legal(self, seat: int) -> Sequence[Action]:
        """The legal actions of ``seat`` now (empty if it owes no decision)."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> None:
        """Apply ``action`` for ``seat``; raise IllegalAction with the state unchanged."""

    # -- outcome ------------------------------------------------------------
    @property
    @abstractmethod
    def over(self) -> bool: ...

    @property
    @abstractmethod
    def result(self) -> Result | None: ...

    # -- information --------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-safe picture of the match as ``seat`` may know it (None: spectator)."""

    #: Entries of the view that ``partial_view`` builds without the rest.
    PARTIAL_FIELDS: ClassVar[frozenset[str]] = frozenset()

    def partial_view(self, seat: int, fields: frozenset[str]) -> dict[str, Any]:
        """The entries ``fields`` of ``view(seat)``, and only those: for bots that
        read a few fields thousands of times in a search's playouts. A game may
        build those of ``PARTIAL_FIELDS`` alone; whatever it does, the answer
        must equal the view's entries (tests/test_trust.py holds every game to
        that on random states)."""
        whole = self.view(seat)
        return {k: whole[k] for k in fields if k in whole}

    def events_since(self, n: int, seat: int | None) -> list[Event]:
        """Events with index ≥ ``n`` that ``seat`` may see."""
        return self.log.since(n, seat)

    def event_count(self) -> int:
        return len(self.log)

    def quiet(self) -> None:
        """Stop recording events (simulation and benchmarks do not read them)."""
        self.log.enabled = False

    # -- copies for search --------------------------------------------------
    #: Attributes a clone may share with its original because nothing changes
    #: them once the state is built (the game, the rules, card tables). Every
    #: other attribute must be copied: the trust tests (tests/test_trust.py)
    #: walk both objects and fail if any other mutable object is reachable from
    #: both, so a field added later cannot be forgotten by a fast ``clone()``.
    SHARED: ClassVar[frozenset[str]] = frozenset({"game", "rules"})
    #: Derived caches that a clone may reset and that are recomputed on demand;
    #: they are left out of fingerprints and of the sharing check.
    CACHES: ClassVar[frozenset[str]] = frozenset()

    def clone(self) -> State:
        """An independent exact copy. Games override this with a fast copy."""
        return copy.deepcopy(self)

    def zones(self) -> Mapping[str, Sequence[Any]]:
        """Every card of the match by zone (``"stock"``, ``"hand 0"``, …) as
        hashable ids. A determinization must hold the same multiset of cards
        (tests/test_trust.py). Games without cards return ``{}``."""
        return {}

    @abstractmethod
    def determinize(self, seat: int, rng: Rng) -> State:
        """A clone in which everything ``seat`` cannot know is resampled with ``rng``."""

    # -- the action space ---------------------------------------------------
    @abstractmethod
    def action_index(self, action: Action) -> int:
        """The action's integer in the game's fixed action space."""

    @abstractmethod
    def action_from_index(self, seat: int, index: int) -> Action:
        """The legal action of ``seat`` with that index (IllegalAction if none)."""

    # -- text forms ---------------------------------------------------------
    def parse(self, seat: int, text: str) -> Action:
        """The legal action of ``seat`` whose text form is ``text``.

        Raises IllegalAction naming the allowed actions. Games may override
        to accept abbreviations, but the exact text form must always work.
        """
        owed = self.to_act()
        if seat not in owed:
            raise not_your_turn(seat, owed, over=True)
        want = normalize_text(text)
        legal = self.legal(seat)
        for a in legal:
            if normalize_text(str(a)) == want:
                return a
        raise IllegalAction(
            core.gettext("{text!r} is not a legal action for seat {seat} now").format(
                text=text, seat=seat
            ),
            legal,
        )

    def apply_text(self, seat: int, text: str) -> Action:
        action = self.parse(seat, text)
        self.apply(seat, action)
        return action

    def check_legal(self, seat: int, action: Action) -> None:
        """Raise the right error when ``action`` is not legal for ``seat`` (helper for apply)."""
        owed = self.to_act()
        if seat not in owed:
            raise not_your_turn(seat, owed, self.over)
        require_legal(seat, action, self.legal(seat))


class LabTracker:
    """Statistics of one match for the designer's lab (``bestiary.lab``).

    The lab's runner makes one per match (``Game.lab_tracker``), calls
    ``step`` after every applied action when ``watches`` is set, and reads
    ``stats`` (JSON-safe numbers, strings, lists), ``items`` (card-level rows:
    ``{"kind", "name", "seat", "value"}``, ``seat`` -1 for none) and
    ``running`` (every seat's score after each round, for lead changes) from
    the final state. ``events``: keep the event log on in lab runs.
    """

    watches: ClassVar[bool] = False
    events: ClassVar[bool] = False

    def step(self, state: State, seat: int, action: Action) -> None:
        return None

    def stats(self, state: State) -> dict[str, Any]:
        return {}

    def items(self, state: State) -> list[dict[str, Any]]:
        return []

    def running(self, state: State) -> list[list[float]]:
        return []


class Game(ABC):
    """A game: metadata, variants and a factory for states.

    Optional hooks (used by the CLI and the server when a game offers them):
    ``render`` (terminal picture of a view), ``catalog`` / ``render_catalog``
    (``bestiary cards``), ``score_tool`` (``bestiary score``), ``agents``
    (game-specific bots by name).
    """

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # Player counts the game supports (defaults to min..max).
    player_counts: ClassVar[tuple[int, ...] | None] = None
    # A typical table size, for benchmarks and default simulations.
    default_players: ClassVar[int] = 4

    @property
    @abstractmethod
    def variants(self) -> Mapping[str, Ruleset]:
        """Variant name -> rules; the first one is the default."""

    @property
    def default_variant(self) -> str:
        return next(iter(self.variants))

    def allowed_players(self) -> tuple[int, ...]:
        if self.player_counts is not None:
            return self.player_counts
        return tuple(range(self.min_players, self.max_players + 1))

    def ruleset(
        self, variant: str | None = None, options: Mapping[str, Any] | None = None
    ) -> Ruleset:
        """The rules of ``variant`` with ``options`` applied (BadOptions/UnknownVariant)."""
        name = variant or self.default_variant
        if name not in self.variants:
            raise UnknownVariant(self.id, name, self.variants)
        return self.variants[name].with_options(options)

    def new(
        self,
        players: int,
        *,
        seed: int,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> State:
        """A new match. Bad players/variant/options raise before anything is built."""
        rules = self.ruleset(variant, options)
        if players not in self.allowed_players():
            raise BadPlayers(self.id, players, self.allowed_players())
        return self.create(players, seed, rules)

    @abstractmethod
    def create(self, players: int, seed: int, rules: Ruleset) -> State:
        """Build the initial state (players and rules already validated)."""

    @abstractmethod
    def num_actions(self, players: int, rules: Ruleset) -> int:
        """Size of the fixed action space (for RL masks)."""

    # -- optional hooks -----------------------------------------------------
    def agents(self) -> Mapping[str, Callable[..., Any]]:
        """Game-specific agent factories by name, e.g. ``{"heuristic": HeuristicAgent}``.
        A factory takes ``seed=`` and the spec's keyword options."""
        return {}

    def render(self, view: Mapping[str, Any], events: Sequence[Event]) -> RenderableType:
        """A Rich picture of ``view`` (and the latest ``events``) for the terminal."""
        from rich.pretty import Pretty

        return Pretty(dict(view))

    def describe_event(self, event: Event, names: Sequence[str] | None = None) -> str:
        """One log line for an event, in the current language (``bestiary.i18n``).
        ``names[seat]`` is how the table calls each seat (``seat_label``)."""
        parts = " ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.kind} {parts}".strip()

    def package_dir(self) -> Path | None:
        """The folder of the game's package: its RULES.md and data/ live there."""
        import sys

        module = sys.modules.get(type(self).__module__)
        file = getattr(module, "__file__", None)
        return Path(file).resolve().parent if file else None

    def rules_path(self) -> Path | None:
        """The game's RULES.md (how this engine reads the rulebook), if it has one."""
        folder = self.package_dir()
        path = folder / "RULES.md" if folder else None
        return path if path is not None and path.is_file() else None

    def event_rule(self, kind: str, data: Mapping[str, Any] | None = None) -> EventRule | None:
        """The RULES.md section and rulebook quote behind events of ``kind``
        (from ``data/event_rules.toml`` beside the game's code); given an
        event's ``data``, the narrower rule that table keeps for it, if any."""
        folder = self.package_dir()
        return rule_for(folder, kind, data) if folder else None

    def catalog(self, rules: Ruleset) -> dict[str, Any] | None:
        """JSON-safe card list for ``bestiary cards`` (None: this game has none)."""
        return None

    def render_catalog(self, catalog: Mapping[str, Any]) -> RenderableType:
        from rich.pretty import Pretty

        return Pretty(dict(catalog))

    def score_tool(self, payload: Mapping[str, Any], rules: Ruleset) -> dict[str, Any] | None:
        """``bestiary score``: JSON in, JSON out (BadInput on malformed input).
        None: this game has no scoring tool."""
        return None

    def teams(self, players: int) -> list[int] | None:
        """Team number of each seat, for team games (None: every seat for itself).
        ``simulate`` credits a team's win to each of its members in full."""
        return None

    def lab_tracker(self, state: State) -> LabTracker:
        """The lab's statistics of a match (games override: ``games/<id>/stats.py``)."""
        return LabTracker()

    def bench_extra(self, rules: Ruleset) -> dict[str, Any]:
        """Game-specific benchmarks (e.g. a solver's timings) for ``bestiary bench``."""
        return {}

    def info(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "players": list(self.allowed_players()),
            "default_players": self.default_players,
            "variants": list(self.variants),
            "options": type(self.variants[self.default_variant]).fields_info(),
            "agents": ["random", *[a for a in self.agents() if a != "random"]],
        }
