"""Teratozoic's options (a :class:`Ruleset`) and the Era stack they choose.

Variants and house rules are data: every option quotes the rulebook line it
comes from (RULES.md, "Set-up").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bestiary.engine import BadOptions, Ruleset, option
from bestiary.i18n import domain

from .cards import FINAL_ERA, Era, default_eras

_ = domain("teratozoic", __file__)

HAND = 5
ELIMINATION = 5  # 'fewer than five cards in their entire Gene Pool'


@dataclass(frozen=True)
class TeratozoicRules(Ruleset):
    advanced: bool = option(True, "include the 24 Advanced cards (doubling, nuclear waste…)")
    two_player: Literal["shorter", "third", "extra-era"] = option(
        "shorter",
        "2 players: remove the Apocalyptic Era (shorter), a third of the cards, or neither",
    )
    short_game: bool = option(
        False, "shorter first game: drop the 3+, 4+ and 5+ player Eras, start in the Temnozoic Era"
    )
    eras: tuple[str, ...] = option((), "house rule: the Era stack by name, top first (final last)")
    remove_third: Literal["none", "orange", "purple", "green"] = option(
        "none",
        "remove a third of the cards: this secondary colour + one primary, grey, three-colour",
    )
    no_waste: bool = option(False, "take out the nuclear waste (the grey cards)")
    doubling_ignores_colour: bool = option(
        False, "temporary rule: doubling cards double every card of their monster"
    )
    cards: str = option("", "card file (CSV, the format of data/cards.csv)", path=True)
    max_final_replays: int = option(
        3,
        "'If you still have a tie, play the Teratozoic Era again!': at most this many "
        "replays, then the still-tied players share the win (0: share at once)",
        min=0,
        max=10,
    )

    def validate(self) -> None:
        if not isinstance(self.max_final_replays, int) or self.max_final_replays < 0:
            raise BadOptions(
                _("max_final_replays must be a whole number >= 0, not {value!r}").format(
                    value=self.max_final_replays
                )
            )
        names = {e.name for e in default_eras()}
        for name in self.eras:
            if name not in names:
                raise BadOptions(
                    _("unknown Era {name!r}; Eras: {eras}").format(
                        name=name, eras=", ".join(sorted(names))
                    )
                )
        if self.eras and self.eras[-1] != FINAL_ERA:
            raise BadOptions(_("the Era stack must end with the {era}").format(era=FINAL_ERA))
        twice = sorted({n for n in self.eras if self.eras.count(n) > 1})
        if twice:
            raise BadOptions(
                _(
                    "eras: each Era card can be used once, but {twice} is listed more than once"
                ).format(twice=", ".join(map(repr, twice)))
            )


def era_stack(players: int, rules: TeratozoicRules) -> list[Era]:
    """The Era cards in play, top first (rulebook 'Era Cards' and the quick reference)."""
    eras = default_eras()
    if rules.eras:
        by_name = {e.name: e for e in eras}
        return [by_name[n] for n in rules.eras]
    if rules.short_game:
        return [e for e in eras if e.min_players == 0]
    stack = [e for e in eras if players >= e.min_players or e.min_players == 0]
    if players == 2:
        # 'For 2 players you can then remove either the Apocalyptic Era card or a
        # third of the monster cards'; experienced players may keep extra Eras.
        if rules.two_player == "shorter":
            stack = [e for e in eras if e.min_players == 0]
        else:
            stack = [e for e in eras if e.min_players <= 3]
    return stack


def removed_third(players: int, rules: TeratozoicRules) -> str | None:
    if rules.remove_third != "none":
        return rules.remove_third
    if players == 2 and rules.two_player == "third" and not rules.eras:
        return "orange"
    return None
