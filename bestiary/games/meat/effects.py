"""The effect vocabulary: the interpreter every card ability runs through.

A card's ability is data (cards.toml): a list of ``Effect`` values, each a
verb (``do``) aimed at a target spec (``to``). This module turns a spec into
battlefield slots, players or teams and applies the verb. There is no code
per card: a new card is a new table in the data file.

Slots are ``seat * 3 + lane`` (lanes 0 left flank, 1 front, 2 right flank,
each from its owner's side). Players sit across the table, so a creature's
left flank faces the opponent's right flank: the opposite slot of
``(seat, lane)`` is ``(seat ^ 1, 2 - lane)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from bestiary.engine import EventLog
from bestiary.i18n import N_, domain

from .cards import Ability, CardDef, Effect, LeaderDef, keyword_names

_ = domain("meat", __file__)


class MeatState(Protocol):
    """What the effects read and change of a match (``rules.MeatState`` is one).
    A protocol, so that this module imports nothing above it: rules.py imports
    effects.py, never the other way round."""

    players: int
    field: list[int]
    tel: list[int]
    dmg: list[int]
    atk_mod: list[int]
    def_mod: list[int]
    kw_extra: list[int]
    doomed: list[bool]
    log: EventLog

    @property
    def over(self) -> bool: ...
    def draw(self, seat: int, creature: bool, count: int) -> None: ...
    def change_vitality(self, team: int, delta: int, source: str) -> None: ...
    def hurt(self, slot: int, amount: int, toxin: bool, source: str) -> None: ...
    def move(self, slot: int, lane: int, source: str) -> None: ...
    def leave_field(self, slot: int, to_hand: bool = False) -> None: ...
    def shown_name(self, slot: int) -> str | None: ...


def opposite(slot: int) -> int:
    seat, lane = divmod(slot, 3)
    return (seat ^ 1) * 3 + (2 - lane)


def beside(slot: int) -> list[int]:
    """The slots left and right of ``slot`` on the same side."""
    seat, lane = divmod(slot, 3)
    return [seat * 3 + x for x in (lane - 1, lane + 1) if 0 <= x < 3]


def chosen_targets(state: MeatState, seat: int, kind: str) -> list[int]:
    """Occupied slots a card of ``seat`` may choose for a target of ``kind``."""
    team = seat & 1
    field = state.field
    if kind == "own":
        seats: Iterable[int] = (seat,)
    elif kind == "ally":
        seats = range(team, state.players, 2)
    elif kind == "enemy":
        seats = range(team ^ 1, state.players, 2)
    elif kind == "creature":
        seats = range(state.players)
    else:
        return []
    return [s * 3 + x for s in seats for x in range(3) if field[s * 3 + x] >= 0]


def auto_slots(state: MeatState, to: str, seat: int, src: int, target: int) -> list[int]:
    """The creature slots an effect reaches (only occupied ones)."""
    f = state.field
    if to == "target":
        out = [target] if target >= 0 else []
    elif to == "self":
        out = [src] if src >= 0 else []
    elif to == "opposite":
        out = [opposite(src)] if src >= 0 else []
    elif to == "adjacent_allies":
        out = beside(src) if src >= 0 else []
    elif to == "all_allies":
        out = [seat * 3 + x for x in range(3)]
    elif to == "all_enemies":
        out = [(seat ^ 1) * 3 + x for x in range(3)]
    else:
        return []
    return [s for s in out if f[s] >= 0]


def run(
    state: MeatState,
    effects: Iterable[Effect],
    seat: int,
    src: int = -1,
    target: int = -1,
    toxin: bool = False,
    source: str = "",
) -> None:
    """Apply ``effects`` for the card owner ``seat``.

    ``src`` is the slot of the creature the ability belongs to (or the slot
    of a dying ally for "ally_dies" spells), ``target`` the chosen slot,
    ``toxin`` whether damage comes from a creature with TOXIN ("obrażenia
    zadane przez ISTOTĘ posiadającą tę zdolność są zawsze śmiertelne").
    """
    for e in effects:
        if state.over:
            return  # "rozgrywka kończy się": a finished game changes no more
        do, to = e.do, e.to
        if do == "draw":
            state.draw(seat, e.kind == "creature", e.amount)
            continue
        if do == "gain":
            state.tel[seat] += e.amount
            state.log.emit("gain", seat=seat, amount=e.amount, source=source)
            continue
        if to in ("enemy_team", "own_team"):
            team = (seat & 1) ^ (1 if to == "enemy_team" else 0)
            state.change_vitality(team, -e.amount if do == "damage" else e.amount, source)
            continue
        if do == "counter":
            continue  # handled by the stack in rules.py
        for slot in auto_slots(state, to, seat, src, target):
            apply_to_creature(state, e, slot, toxin, source)


def apply_to_creature(state: MeatState, e: Effect, slot: int, toxin: bool, source: str) -> None:
    iid = state.field[slot]
    if iid < 0:
        return
    do = e.do
    log = state.log.enabled  # events are built only when someone reads them
    if do == "damage":
        state.hurt(slot, e.amount, toxin, source)
    elif do == "heal":
        healed = min(e.amount, state.dmg[iid])
        state.dmg[iid] -= healed
        if log:
            state.log.emit(
                "healed", slot=slot, card=state.shown_name(slot), amount=healed, source=source
            )
    elif do == "buff":
        state.atk_mod[iid] += e.attack
        state.def_mod[iid] += e.defence
        if log:
            state.log.emit(
                "buffed",
                slot=slot,
                card=state.shown_name(slot),
                attack=e.attack,
                defence=e.defence,
                source=source,
            )
    elif do == "grant":
        state.kw_extra[iid] |= e.keyword
        if log:
            state.log.emit(
                "granted",
                slot=slot,
                card=state.shown_name(slot),
                keyword=keyword_names(e.keyword)[0],
                source=source,
            )
    elif do == "destroy":
        state.doomed[iid] = True
        if log:
            state.log.emit("destroyed", slot=slot, card=state.shown_name(slot), source=source)
    elif do == "move":
        # A move onto an occupied lane swaps the two creatures: the log tells
        # both moves (board.move tells the one the card aimed at).
        seat, lane = divmod(slot, 3)
        other = seat * 3 + e.lane
        swapped = other != slot and state.field[other] >= 0
        state.move(slot, e.lane, source)
        if log and swapped:
            state.log.emit(
                "moved",
                seat=seat,
                card=state.shown_name(slot),
                src=e.lane,
                dest=lane,
                source=source,
            )
    elif do == "return":
        state.leave_field(slot, to_hand=True)


# --------------------------------------------------------------------------- text
# A card's rules text, generated from its data in the current language (the
# manual's own words in Polish: ISTOTA, WITALNOŚĆ, TELESTARION, ODKRYCIE …).
_TO_TEXT = {
    "target": N_("the target"),
    "self": N_("this creature"),
    "opposite": N_("the creature opposite"),
    "adjacent_allies": N_("your creatures beside it"),
    "all_allies": N_("all your creatures"),
    "all_enemies": N_("all creatures of your opponent"),
    "enemy_team": N_("the opposing side's vitality"),
    "own_team": N_("your side's vitality"),
    "me": N_("you"),
    "spell": N_("the spell it answers"),
}
_TARGET_TEXT = {
    "creature": N_("any creature"),
    "enemy": N_("an enemy creature"),
    "ally": N_("a creature of your team"),
    "own": N_("one of your creatures"),
}
_LANE_TEXT = (N_("left flank"), N_("front"), N_("right flank"))
_KEYWORD_TEXT = {
    "REFLEX": N_("REFLEX"),
    "TOXIN": N_("TOXIN"),
    "CLEAVE": N_("CLEAVE"),
    "CHALLENGE": N_("CHALLENGE"),
}


def _kws(mask: int) -> list[str]:
    return [_(_KEYWORD_TEXT[k]) for k in keyword_names(mask)]


def effect_text(e: Effect) -> str:
    # A name the sentence declines ("zadaj celowi", "+2 OBRONY dla celu": nouns.toml).
    to = _.noun(_(_TO_TEXT[e.to]) if e.to in _TO_TEXT else e.to)
    if e.do == "damage":
        return _("deal {n} damage to {to}").format(n=e.amount, to=to)
    if e.do == "heal":
        return _("heal {n} on {to}").format(n=e.amount, to=to)
    if e.do == "buff":
        if e.attack and e.defence:
            text = _("{attack:+d} attack and {defence:+d} defence to {to}")
        elif e.attack:
            text = _("{attack:+d} attack to {to}")
        elif e.defence:
            text = _("{defence:+d} defence to {to}")
        else:
            text = _("nothing to {to}")
        return text.format(attack=e.attack, defence=e.defence, to=to)
    if e.do == "grant":
        return _("{to} gains {keyword}").format(to=to, keyword=(_kws(e.keyword) or ["?"])[0])
    if e.do == "draw":
        if e.kind == "creature":
            text = _.ngettext("draw {n} creature card", "draw {n} creature cards", e.amount)
        else:
            text = _.ngettext("draw {n} destiny card", "draw {n} destiny cards", e.amount)
        return text.format(n=e.amount)
    if e.do == "gain":
        return _.ngettext("gain {n} Telestarion", "gain {n} Telestarion", e.amount).format(
            n=e.amount
        )
    if e.do == "destroy":
        return _("destroy {to}").format(to=to)
    if e.do == "move":
        lane = _(_LANE_TEXT[e.lane]) if 0 <= e.lane < 3 else str(e.lane)
        return _("move {to} to the {lane}").format(to=to, lane=lane)
    if e.do == "return":
        return _("return {to} to its owner's hand").format(to=to)
    if e.do == "counter":
        return _("cancel the spell it answers")
    return e.do


def _effects_text(effects: Iterable[Effect]) -> str:
    return "; ".join(effect_text(e) for e in effects)


def _ability_text(a: Ability) -> str:
    if a.target:
        return _("♦{cost} (target: {target}): {effects}").format(
            cost=a.cost, target=_(_TARGET_TEXT[a.target]), effects=_effects_text(a.effects)
        )
    return _("♦{cost}: {effects}").format(cost=a.cost, effects=_effects_text(a.effects))


def card_text(d: CardDef) -> str:
    """A rules text generated from the card's data, in the current language."""
    parts: list[str] = []
    if d.type == "creature":
        parts += _kws(d.keywords)
        if d.reveal:
            parts.append(_("REVEAL: {effects}").format(effects=_effects_text(d.reveal)))
        if d.ability:
            parts.append(_ability_text(d.ability))
        if d.death:
            parts.append(_("On death: {effects}").format(effects=_effects_text(d.death)))
    elif d.type == "equipment":
        kws = _kws(d.keywords)
        whom = _(_TARGET_TEXT[d.target]) if d.target in _TARGET_TEXT else d.target
        stats = f"{d.attack:+d}/{d.defence:+d}"
        if d.fusion and kws:
            text = _("FUSION: attach to {whom}; it gets {stats}, {keywords}")
        elif d.fusion:
            text = _("FUSION: attach to {whom}; it gets {stats}")
        elif kws:
            text = _("Equipment: attach to {whom}; it gets {stats}, {keywords}")
        else:
            text = _("Equipment: attach to {whom}; it gets {stats}")
        parts.append(text.format(whom=whom, stats=stats, keywords=", ".join(kws)))
        if d.ability:
            parts.append(_("it gains {ability}").format(ability=_ability_text(d.ability)))
    else:
        if d.instant:
            parts.append(_("INSTANT"))
        effects = _effects_text(d.effects)
        if d.target:
            effects = _("Target {target}. {effects}").format(
                target=_(_TARGET_TEXT[d.target]), effects=effects
            )
        if d.on == "battle":
            effects = _("When the battle begins: {effects}").format(effects=effects)
        elif d.on == "ally_dies":
            effects = _("When your creature dies: {effects}").format(effects=effects)
        parts.append(effects)
    return ". ".join(parts)


def leader_text(x: LeaderDef) -> str:
    """What a leader's passive ability does, in the current language."""
    if x.passive == "faction_stat":
        return _("Your {faction} creatures get {attack:+d}/{defence:+d}").format(
            faction=x.faction, attack=x.attack, defence=x.defence
        )
    if x.passive == "telestarion":
        return _.ngettext(
            "Take {n} more Telestarion in every Opening",
            "Take {n} more Telestarion in every Opening",
            x.amount,
        ).format(n=x.amount)
    if x.passive == "destiny_draw":
        return _.ngettext(
            "Draw {n} more destiny card every round",
            "Draw {n} more destiny cards every round",
            x.amount,
        ).format(n=x.amount)
    if x.passive == "summary_bonus":
        return _("A won round deals {n} more damage (if you have a creature left)").format(
            n=x.amount
        )
    return _("Your first draft pick of each round costs {n} less").format(n=x.amount)
