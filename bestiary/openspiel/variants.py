"""Each game's solvable research variant, read from its data folder.

A game that has a tiny variant for tree-walking algorithms describes it in
``bestiary/games/<id>/data/solvable.toml`` (data, like every variant: a
designer edits the file, not code)::

    players = 2
    deals = 4           # linked deals (deals.py), the first the match of first_seed
    first_seed = 0
    max_nodes = 2000000 # the walk gives up past this many nodes
    variant = "v0.2"    # optional: the game's default variant
    [options]           # the game's own options (``bestiary games --json``)
    rounds = 1
    cards = "solvable_monsters.csv"   # a file option: relative to data/

The game's RULES.md says, under "Solvable variant (research)", what the
variant keeps of the game, what it cuts and the rulebook lines it rests on.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyspiel

from ..engine.datafile import read_text
from ..engine.errors import BadOptions
from ..engine.protocol import Game
from ..engine.registry import all_games
from .deals import DealsGame, linked_deals
from .game import BridgeGame, openspiel_name

FILE = "solvable.toml"


@dataclass(frozen=True)
class SolvableVariant:
    """One game's tiny table: its OpenSpiel parameters and the deals drawn."""

    game: Game
    path: Path
    players: int
    deals: int
    first_seed: int
    max_nodes: int
    variant: str
    options: dict[str, Any] = field(hash=False)

    def bridge(self) -> BridgeGame:
        """The ordinary (sampled-chance) bridge game at this table."""
        params = {
            "players": self.players,
            "variant": self.variant,
            "options": json.dumps(self.options, sort_keys=True),
        }
        game = pyspiel.load_game(openspiel_name(self.game.id), params)
        assert isinstance(game, BridgeGame)
        return game

    def deals_game(self, deals: int | None = None) -> DealsGame:
        """The variant with its deal drawn from ``deals`` linked deals (default:
        the file's number), the first from ``first_seed``."""
        bridge = self.bridge()
        count = self.deals if deals is None else deals
        return DealsGame(bridge, linked_deals(bridge, self.first_seed, count))


def load_variant(game: Game) -> SolvableVariant | None:
    """The game's solvable variant, or None when its data folder has none.
    A malformed file raises BadOptions naming the file and the problem."""
    folder = game.package_dir()
    path = folder / "data" / FILE if folder else None
    if path is None or not path.exists():
        return None
    try:
        data = tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as exc:
        raise BadOptions(f"{path}: {exc}") from None
    options = dict(data.get("options", {}))
    paths = {f["name"] for f in game.ruleset().fields_info() if f["path"]}
    for name in paths & set(options):
        # A card file named by the variant lives beside it.
        options[name] = str((path.parent / str(options[name])).resolve())
    try:
        return SolvableVariant(
            game=game,
            path=path,
            players=int(data["players"]),
            deals=int(data["deals"]),
            first_seed=int(data.get("first_seed", 0)),
            max_nodes=int(data.get("max_nodes", 2_000_000)),
            variant=str(data.get("variant", game.default_variant)),
            options=options,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise BadOptions(f"{path}: players and deals are needed as whole numbers ({exc})") from None


def all_variants() -> dict[str, SolvableVariant | None]:
    """Every registered game's solvable variant (None where it has none)."""
    return {game.id: load_variant(game) for game in all_games()}
