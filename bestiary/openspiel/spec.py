"""One OpenSpiel game's fixed settings: which Bestiary game, how many
players, which variant and options, and what follows from them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.protocol import Game
from ..engine.ruleset import Ruleset
from ..rl.encoding import Observer, observer_for

#: Decisions after which a match is cut off (a draw, every return 0), so that
#: ``GameInfo.max_game_length`` is a true bound. Random play ends every game
#: well inside it (under 2,000 decisions); the PettingZoo environment uses
#: the same limit.
MAX_STEPS = 20_000


@dataclass(frozen=True)
class Spec:
    game: Game
    players: int
    variant: str
    options: dict[str, Any] = field(hash=False)
    rules: Ruleset = field(hash=False)
    observer: Observer = field(hash=False)
    num_actions: int
    teams: list[int] | None = field(hash=False)

    @classmethod
    def build(cls, game: Game, players: int, variant: str | None, options: dict[str, Any]) -> Spec:
        """Validate through the engine (BadPlayers, UnknownVariant, BadOptions
        name what is allowed) and derive the rest."""
        variant = variant or game.default_variant
        game.new(players, seed=0, variant=variant, options=options)
        rules = game.ruleset(variant, options)
        return cls(
            game=game,
            players=players,
            variant=variant,
            options=dict(options),
            rules=rules,
            observer=observer_for(game, players, rules),
            num_actions=game.num_actions(players, rules),
            teams=game.teams(players),
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> Spec:
        # OpenSpiel clones a Python state by deep-copying its attributes; the
        # spec never changes, so every clone shares it.
        return self
