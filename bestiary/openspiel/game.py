"""A Bestiary game as an OpenSpiel Python game (``pyspiel.Game``).

Parameters (``pyspiel.load_game("bestiary_meat", {"players": 4})`` or
``"bestiary_taxonomy(players=3,variant=v0.1)"``):

- ``players``: table size (the game's allowed counts; default its typical one);
- ``variant``: rule variant (default the game's first);
- ``options``: house-rule options as a JSON object text (default none);
- ``seed``: seeds the stream of deals, so runs repeat; ``-1`` draws from the
  system. Each ``new_initial_state()`` takes the next match seed from it;
  ``state_for_seed(n)`` builds the match of one seed.
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

import pyspiel

from ..engine.errors import BadInput, BadRecord
from ..engine.protocol import Game
from ..engine.record import MatchRecord, parse_json
from .observer import ViewObserver
from .spec import MAX_STEPS, Spec
from .state import BridgeState
from .utility import utility_bounds


def openspiel_name(game_id: str) -> str:
    """``monster-maker`` -> ``bestiary_monster_maker`` (OpenSpiel names are identifiers)."""
    return "bestiary_" + game_id.replace("-", "_")


def game_type(game: Game) -> pyspiel.GameType:
    allowed = game.allowed_players()
    default_players = game.default_players if game.default_players in allowed else allowed[0]
    return pyspiel.GameType(
        short_name=openspiel_name(game.id),
        long_name=f"Bestiary: {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(allowed),
        min_num_players=min(allowed),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": default_players,
            "variant": game.default_variant,
            "options": "",
            "seed": 0,
        },
    )


def _options(text: str) -> dict[str, Any]:
    if not text.strip():
        return {}
    try:
        value = parse_json(text)
    except BadInput as exc:
        raise BadInput(f"options must be a JSON object of name: value ({exc})") from None
    if not isinstance(value, dict):
        raise BadInput(f"options must be a JSON object of name: value, not {text!r}")
    return value


class BridgeGame(pyspiel.Game):
    """One Bestiary game at one table size, variant and options.

    OpenSpiel builds it as ``factory(params)``: :func:`game_class` makes one
    subclass per Bestiary game with ``bestiary_game`` set."""

    bestiary_game: ClassVar[Game | None] = None

    def __init__(self, params: dict[str, Any] | None = None, game: Game | None = None) -> None:
        game = game or type(self).bestiary_game
        if game is None:
            raise TypeError("BridgeGame needs a Bestiary game (use game_class(game))")
        gtype = game_type(game)
        merged = {**gtype.parameter_specification, **(params or {})}
        players = int(merged["players"])
        self.spec = Spec.build(game, players, str(merged["variant"]), _options(merged["options"]))
        low, high = utility_bounds(players, self.spec.teams)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=MAX_STEPS,
        )
        super().__init__(gtype, info, params or {})
        seed = int(merged["seed"])
        self._seeds = random.Random(None if seed == -1 else seed)

    def new_initial_state(self) -> BridgeState:
        """A new match, its seed the next from the game's ``seed`` stream."""
        return BridgeState(self, self._seeds.getrandbits(63))

    def state_for_seed(self, seed: int) -> BridgeState:
        """The match of one seed (the seed of a Bestiary record)."""
        return BridgeState(self, seed)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        return ViewObserver(self.spec, iig_obs_type, params)

    def deserialize_state(self, text: str) -> BridgeState:
        """Rebuild a state from ``BridgeState.serialize()`` (a match record:
        game, variant, options, players, seed, moves). BadRecord says what
        does not fit."""
        data = parse_json(text)
        if not isinstance(data, dict):
            raise BadRecord("a serialized Bestiary state is a match record (a JSON object)")
        record = MatchRecord.from_json(data)
        spec = self.spec
        mine = (spec.game.id, spec.players, spec.variant, spec.options)
        theirs = (record.game, record.players, record.variant, record.options)
        if mine != theirs:
            raise BadRecord(
                "the record is for game, players, variant, options = "
                f"{json.dumps(theirs)}, but this game is {json.dumps(mine)}"
            )
        state = self.state_for_seed(record.seed)
        for number, (seat, text_form) in enumerate(record.moves, start=1):
            if state.is_terminal() or seat != state.current_player():
                raise BadRecord(
                    f"move {number} is seat {seat}'s, but seat "
                    f"{state.current_player()} is to act (the record does not replay)"
                )
            action = state.engine.parse(seat, text_form)  # IllegalAction names the legal ones
            state.apply_action(state.engine.action_index(action))
        return state


def game_class(game: Game) -> type[BridgeGame]:
    """The factory OpenSpiel registers for ``game``. A class, not a closure:
    OpenSpiel's registry outlives the interpreter, and a function object it
    released last would be freed after Python shut down (an abort at exit)."""
    name = "Bridge_" + game.id.replace("-", "_")
    return type(name, (BridgeGame,), {"bestiary_game": game, "__module__": __name__})
