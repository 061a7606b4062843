"""The bridge with its deal drawn at an explicit chance node, for tree-walking
algorithms (CFR, exploitability, best response).

The ordinary bridge (:mod:`.game`) is ``SAMPLED_STOCHASTIC``: the deal and
every later draw come from the match's seeded RNG, so an algorithm that walks
the tree sees one deal and nothing else. Here the root is a chance node that
picks one of ``K`` fixed deals (engine states at the first decision), each
with probability ``1/K``; below it the match is played from that deal, its
later draws and dice fixed by the deal's own RNG. The game solved is
therefore **the variant with its deal drawn from K fixed deals**, not the
variant with every deal possible (docs/RL.md says what that changes).

**Linked deals** (:func:`linked_deals`). ``K`` independent seeds make a game
in which a seat's opening hand almost always names the deal, and with it the
other hand and the stock: measured on Monster Maker's variant, 8 seeds gave
19,089 decision nodes in 19,089 information sets, a perfect-information
game. So the deals are linked: deal 0 is the match of a seed, and deal
``i + 1`` is deal ``i`` redrawn by the game's ``determinize`` for one seat,
seats alternating. ``determinize`` keeps everything that seat knows (its
hand, what it has seen) and redraws the rest, so deals ``i`` and ``i + 1``
open the same for that seat: in every deal but the first and the last, each
seat starts unsure between two deals (in those two, one seat does).

**Information states** are the bridge's (the seat's view, then every event
it has seen and its own moves), counted from the deal: the events before it
(the deal itself) are summed up in the opening view, and a redrawn deal's
log still names the cards the other seat held before the redraw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pyspiel

from ..engine.protocol import State
from ..engine.rng import Rng
from .game import BridgeGame, openspiel_name
from .observer import ViewObserver
from .spec import MAX_STEPS
from .state import BridgeState, _Match
from .utility import utility_bounds


def deals_game_type(bridge: BridgeGame) -> pyspiel.GameType:
    game = bridge.spec.game
    players = bridge.spec.players
    return pyspiel.GameType(
        short_name=openspiel_name(game.id) + "_deals",
        long_name=f"Bestiary: {game.title} (deal drawn from fixed deals)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={},
    )


class DealsGame(pyspiel.Game):
    """A bridge game (its players, variant and options) whose deal is one of
    ``deals`` (engine states, each at its first decision), drawn uniformly at
    the root. Built directly, not registered; :func:`linked_deals` makes the
    deals."""

    def __init__(self, bridge: BridgeGame, deals: Sequence[Deal]) -> None:
        if not deals:
            raise ValueError("a game drawn from fixed deals needs at least one deal")
        self.bridge = bridge
        self.spec = bridge.spec
        self.deals = _Shared(deals)
        low, high = utility_bounds(self.spec.players, self.spec.teams)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.num_actions,
            max_chance_outcomes=len(self.deals),
            num_players=self.spec.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=MAX_STEPS + 1,  # the deal, then the match
        )
        super().__init__(deals_game_type(bridge), info, {})

    def new_initial_state(self) -> DealsState:
        """The root: a chance node over the deals."""
        return DealsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> DealsObserver:
        return DealsObserver(ViewObserver(self.spec, iig_obs_type, params))


class _Shared(tuple[Any, ...]):
    """The deals, shared by every state: OpenSpiel clones a Python state by
    deep-copying its attributes, and the deals never change."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


@dataclass(frozen=True)
class Deal:
    """One deal: the engine state at the first decision, and how it was made."""

    state: State
    label: str
    #: the seat for which it was redrawn from the previous deal (None: a seed's deal)
    redrawn_for: int | None = None


def linked_deals(bridge: BridgeGame, first_seed: int, count: int) -> list[Deal]:
    """``count`` deals: the match of ``first_seed``, then each deal redrawn from
    the one before by ``determinize`` for seat 0, 1, 0, … (see the module)."""
    spec = bridge.spec
    state = spec.game.new(spec.players, seed=first_seed, variant=spec.variant, options=spec.options)
    deals = [Deal(state, f"seed {first_seed}")]
    for i in range(1, count):
        seat = (i - 1) % spec.players
        # Each redraw has its own fixed seed, so the deals repeat run to run.
        state = state.determinize(seat, Rng(first_seed * 1_000 + i))
        deals.append(Deal(state, f"deal {i - 1} redrawn for seat {seat}", seat))
    return deals


class DealsState(BridgeState):
    """The root chance node, then the match from the drawn deal."""

    def __init__(self, game: DealsGame) -> None:
        pyspiel.State.__init__(self, game)
        self.spec = game.spec
        self.deals = game.deals
        self.deal: int | None = None
        self.seed = None  # no seed replays a redrawn deal: no match record
        self.match: _Match | None = None  # type: ignore[assignment]

    @property
    def dealt(self) -> bool:
        return self.match is not None

    def current_player(self) -> int:
        if not self.dealt:
            return int(pyspiel.PlayerId.CHANCE)
        return super().current_player()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Deal ``i`` with probability ``1/K``."""
        if self.dealt:
            return []
        p = 1.0 / len(self.deals)
        return [(i, p) for i in range(len(self.deals))]

    def _legal_actions(self, player: int) -> list[int]:
        if not self.dealt:
            return [i for i, _ in self.chance_outcomes()] if player < 0 else []
        return super()._legal_actions(player)

    def _apply_action(self, action: int) -> None:
        if self.dealt:
            super()._apply_action(action)
            return
        if not 0 <= action < len(self.deals):
            raise ValueError(f"deal {action} does not exist; deals are 0..{len(self.deals) - 1}")
        self.deal = action
        engine = self.deals[action].state.clone()
        start = engine.event_count()
        # Events are read from the deal on (the module's "Information states").
        self.match = _Match(engine, [], {seat: (start, "") for seat in range(self.spec.players)})

    def _action_to_string(self, player: int, action: int) -> str:
        if not self.dealt:
            return f"deal {action} ({self.deals[action].label})"
        return super()._action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self.dealt and super().is_terminal()

    def returns(self) -> list[float]:
        if not self.dealt:
            return [0.0] * self.spec.players
        return super().returns()

    def __str__(self) -> str:
        if not self.dealt:
            return f"deal to draw among {len(self.deals)} fixed deals"
        return super().__str__()


class DealsObserver:
    """The bridge's observer below the root; at the root nobody has seen
    anything yet (an empty string, a zero tensor)."""

    def __init__(self, inner: ViewObserver) -> None:
        self.inner = inner
        self.tensor = inner.tensor
        self.dict = inner.dict

    def set_from(self, state: DealsState, player: int) -> None:
        if state.dealt:
            self.inner.set_from(state, player)
        else:
            self.tensor[:] = 0.0

    def string_from(self, state: DealsState, player: int) -> str:
        return self.inner.string_from(state, player) if state.dealt else ""
