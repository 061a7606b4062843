"""The taxonomy rules as data: every option of rules v0.2 and its v0.1
variant, and the two variants by name."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.ruleset import Ruleset, option
from .cards import Deck, load_deck
from .scoring import ScoringTable
from .scoring_file import load_scoring


@dataclass(frozen=True)
class TaxonomyRules(Ruleset):
    rounds: int = option(4, "rounds in a game (rules v0.2: 3-4; v0.1: one)", choices=(1, 3, 4))
    claim_priority: str = option(
        "turn-order",
        "several claimants: the first in turn order after the discarder, or a random one",
        choices=("turn-order", "random"),
    )
    rps_ties: str = option(
        "repeat",
        "a rock-paper-scissors tie: play again, or nobody loses a turn",
        choices=("repeat", "no-loser"),
    )
    loyal: bool = option(True, "loyal monsters cannot be claimed (v0.2)")
    beastman_orphans: bool = option(
        True, "Beastman monsters alone in their family form their own orphan set (v0.2)"
    )
    orphan_eight: str = option(
        "seven-plus-one",
        "the 12-point set: 7 orphans and one other monster (v0.2) or 8 orphans (v0.1)",
        choices=("seven-plus-one", "eight"),
    )
    peek: int = option(3, "cards an honest monster lets you look at on a draw", choices=(1, 2, 3))
    cards: str = option("", "card file (CSV) to use instead of the shipped monsters.csv", path=True)
    scoring: str = option(
        "", "scoring table (TOML) to use instead of the shipped data/scoring.toml", path=True
    )
    claim_window: str = option(
        "eligible",
        "who answers a discard: the seats that may claim it (as at the table), or every "
        "other seat, claim or pass (no timing signal: RL, tournaments)",
        choices=("eligible", "all"),
    )

    def validate(self) -> None:
        # A malformed card file or scoring table is reported when the option is given.
        load_deck(self.cards, self.beastman_orphans)
        load_scoring(self.scoring)

    def deck(self) -> Deck:
        return load_deck(self.cards, self.beastman_orphans)

    def scoring_table(self) -> ScoringTable:
        return load_scoring(self.scoring)


V02 = TaxonomyRules()
# Rules v0.1: no loyal nature, orphans only from types, a set of 8 orphans
# scores 12, one round (reading 8).
V01 = TaxonomyRules(rounds=1, loyal=False, beastman_orphans=False, orphan_eight="eight")
VARIANTS = {"v0.2": V02, "v0.1": V01}
