"""The M.E.A.T. options as data: every number and switch of the rulebook a
table may change (RULES.md, "Options"), with their ranges."""

from __future__ import annotations

from dataclasses import dataclass

from bestiary.engine import BadOptions, Ruleset, option
from bestiary.i18n import domain

from .cards import load_cards

_ = domain("meat", __file__)


@dataclass(frozen=True)
class MeatRules(Ruleset):
    vitality_1v1: int = option(25, "vitality per side with 2 players", min=1, max=200)
    vitality_2v2: int = option(40, "vitality per team of two", min=1, max=300)
    vitality_3v3: int = option(50, "vitality per team of three", min=1, max=400)
    telestarion: int = option(
        7, "ounces of Telestarion each player takes in every Opening", min=0, max=50
    )
    telestarion_carry_over: bool = option(
        False, "unspent Telestarion is kept (default: the bank takes it back)"
    )
    draft_left: int = option(
        3, "creature cards left in the draft (go to the graveyard)", min=0, max=10
    )
    destiny_draw: int = option(3, "destiny cards each player draws per round", min=0, max=10)
    hand_limit: int = option(8, "cards in hand at the end of the Opening", min=1, max=30)
    instant_windows: bool = option(
        True, "INSTANT windows in Tactics and Battle (not only Activation)"
    )
    max_rounds: int = option(
        40, "safety limit; then the side with more vitality wins", min=1, max=200
    )
    cards: str = option("", "card file (TOML); empty: the bundled set", path=True)

    def validate(self) -> None:
        for name in ("vitality_1v1", "vitality_2v2", "vitality_3v3"):
            if getattr(self, name) < 1:
                raise BadOptions(_("{name} must be at least 1").format(name=name))
        if self.telestarion < 0 or self.destiny_draw < 0 or self.hand_limit < 0:
            raise BadOptions(_("telestarion, destiny_draw and hand_limit cannot be negative"))
        if not 0 <= self.draft_left <= 9:
            raise BadOptions(_("draft_left must be 0..9"))
        if self.max_rounds < 1:
            raise BadOptions(_("max_rounds must be at least 1"))
        if self.cards:
            # A bad card file is refused with the options, before any match
            # starts (BadCardFile names the file); the parsed set is cached.
            load_cards(self.cards)


VARIANTS = {"standard": MeatRules()}
