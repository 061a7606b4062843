"""The game-independent core: protocol, rng, events, records, errors, registry."""

from .errors import (
    BadAgentSpec,
    BadCardFile,
    BadInput,
    BadOptions,
    BadPlayers,
    BadRecord,
    BestiaryError,
    IllegalAction,
    NotYourTurn,
    UnknownCard,
    UnknownGame,
    UnknownVariant,
)
from .events import Event, EventLog
from .protocol import Action, Game, Result, State, normalize_text
from .record import Match, MatchRecord, replay, replay_steps
from .registry import all_games, game_ids, get_game, register, unregister
from .rng import Dice, Rng
from .ruleset import Ruleset, option, parse_option_args

__all__ = [
    "Action",
    "BadAgentSpec",
    "BadCardFile",
    "BadInput",
    "BadOptions",
    "BadPlayers",
    "BadRecord",
    "BestiaryError",
    "Dice",
    "Event",
    "EventLog",
    "Game",
    "IllegalAction",
    "Match",
    "MatchRecord",
    "NotYourTurn",
    "Result",
    "Rng",
    "Ruleset",
    "State",
    "UnknownCard",
    "UnknownGame",
    "UnknownVariant",
    "all_games",
    "game_ids",
    "get_game",
    "normalize_text",
    "option",
    "parse_option_args",
    "register",
    "replay",
    "replay_steps",
    "unregister",
]
