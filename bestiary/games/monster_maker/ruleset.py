"""Monster Maker's rule options: the appendix's house rules, the editions, the errata.

Defaults: the 2nd-edition reading where the rulebook speaks, else the
translator's stated preference (RULES.md gives every reason).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bestiary.engine import BadOptions, Ruleset, option
from bestiary.i18n import domain

_ = domain("monster_maker", __file__)


@dataclass(frozen=True)
class MonsterMakerRules(Ruleset):
    cards: str = option(
        "", "deck file (CSV, like data/deck.csv); empty: the shipped deck", path=True
    )
    treasures: str = option(
        "", "treasure file (CSV); empty: the 21 treasures of the appendix", path=True
    )
    prizes: str = option("", "prize file (CSV); empty: the shipped prize cards", path=True)
    dispel_costs_action: bool = option(
        False, "the Cleric's (or a treasure's) dispel uses up the turn's action (appendix A.i)"
    )
    detour_costs_action: bool = option(
        False, "playing a Detour uses up the turn's action (appendix A.ii)"
    )
    detour_edition: int = option(
        2,
        "2: a Detour also removes your most recent corridor (2nd edition); 1: it does not",
        choices=(1, 2),
    )
    spell_casters: Literal["anyone", "casters"] = option(
        "anyone", "who may cast spells: anyone (2nd edition) or only Elves and Magic-Users"
    )
    spell_strength: Literal["added", "replaces"] = option(
        "added", "an attack spell's strength is added to its caster's (2nd edition) or replaces it"
    )
    charm_alone: bool = option(
        True, "Charm cannot be combined with other attackers (the translator's house rule)"
    )
    fight_then_corridor: bool = option(
        False, "after winning a battle you may still play a corridor that turn (house rule)"
    )
    traps_face_up: bool = option(False, "trap cards lie face up in the draw pile (appendix A.iv)")
    sleep_errata: bool = option(True, "Sleep is 2D, not 1D (errata of the 2nd-edition rerelease)")
    once_per_game: Literal["remove", "redraw"] = option(
        "remove",
        "Secret Door and Statue of Goddess once a game: removed when a dead player returns "
        "them, or redrawn when drawn a second time",
    )
    victory: Literal["gold", "dungeons"] = option(
        "gold", "the winner: most gold over all dungeons, or most single-dungeon wins"
    )
    max_dungeons: int = option(
        0,
        "stop after this many dungeons (0: until the treasure or prize cards run out)",
        min=0,
        max=50,
    )
    treasure_distance: int = option(
        0,
        "perch to the treasure room (0: by players, 100; 80 with 5; 70 with 6)",
        min=0,
        max=300,
    )
    hand_limit: int = option(7, "cards dealt, and the most you may hold at the end of a turn")

    def validate(self) -> None:
        if self.max_dungeons < 0:
            raise BadOptions(
                _("max_dungeons={value} must be 0 (no limit) or more").format(
                    value=self.max_dungeons
                )
            )
        if self.treasure_distance < 0:
            raise BadOptions(
                _("treasure_distance={value} must be 0 or more").format(
                    value=self.treasure_distance
                )
            )
        if not 1 <= self.hand_limit <= 20:
            raise BadOptions(
                _("hand_limit={value} must be between 1 and 20").format(value=self.hand_limit)
            )


VARIANTS: dict[str, MonsterMakerRules] = {
    "standard": MonsterMakerRules(),
    "first-edition": MonsterMakerRules(detour_edition=1, sleep_errata=False),
    "house": MonsterMakerRules(fight_then_corridor=True),
}
