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
from typing import TYPE_CHECKING

from .cards import LANES, Ability, CardDef, Effect, keyword_names

if TYPE_CHECKING:
    from .rules import MeatState


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
    if do == "damage":
        state.hurt(slot, e.amount, toxin, source)
    elif do == "heal":
        healed = min(e.amount, state.dmg[iid])
        state.dmg[iid] -= healed
        state.log.emit("healed", slot=slot, amount=healed, source=source)
    elif do == "buff":
        state.atk_mod[iid] += e.attack
        state.def_mod[iid] += e.defence
        state.log.emit("buffed", slot=slot, attack=e.attack, defence=e.defence, source=source)
    elif do == "grant":
        state.kw_extra[iid] |= e.keyword
        state.log.emit("granted", slot=slot, keyword=keyword_names(e.keyword)[0], source=source)
    elif do == "destroy":
        state.doomed[iid] = True
        state.log.emit("destroyed", slot=slot, source=source)
    elif do == "move":
        state.move(slot, e.lane, source)
    elif do == "return":
        state.leave_field(slot, to_hand=True)


# --------------------------------------------------------------------------- text
_TO_TEXT = {
    "target": "the target",
    "self": "this creature",
    "opposite": "the creature opposite",
    "adjacent_allies": "your creatures beside it",
    "all_allies": "all your creatures",
    "all_enemies": "all creatures of your opponent",
    "enemy_team": "the opposing side's vitality",
    "own_team": "your side's vitality",
    "me": "you",
    "spell": "the spell it answers",
}
_TARGET_TEXT = {
    "creature": "any creature",
    "enemy": "an enemy creature",
    "ally": "a creature of your team",
    "own": "one of your creatures",
}


def effect_text(e: Effect) -> str:
    to = _TO_TEXT.get(e.to, e.to)
    if e.do == "damage":
        return f"deal {e.amount} damage to {to}"
    if e.do == "heal":
        return f"heal {e.amount} on {to}"
    if e.do == "buff":
        parts = []
        if e.attack:
            parts.append(f"{e.attack:+d} attack")
        if e.defence:
            parts.append(f"{e.defence:+d} defence")
        return f"{' and '.join(parts) or 'nothing'} to {to}"
    if e.do == "grant":
        return f"{to} gains {keyword_names(e.keyword)[0]}"
    if e.do == "draw":
        return f"draw {e.amount} {e.kind} card{'s' if e.amount > 1 else ''}"
    if e.do == "gain":
        return f"gain {e.amount} Telestarion"
    if e.do == "destroy":
        return f"destroy {to}"
    if e.do == "move":
        return f"move {to} to the {LANES[e.lane]} lane"
    if e.do == "return":
        return f"return {to} to its owner's hand"
    if e.do == "counter":
        return "cancel the spell it answers"
    return e.do


def _effects_text(effects: Iterable[Effect]) -> str:
    return "; ".join(effect_text(e) for e in effects)


def _ability_text(a: Ability) -> str:
    aim = f" (target: {_TARGET_TEXT[a.target]})" if a.target else ""
    return f"♦{a.cost}{aim}: {_effects_text(a.effects)}"


def card_text(d: CardDef) -> str:
    """An English rules text generated from the card's data."""
    parts: list[str] = []
    if d.type == "creature":
        parts += keyword_names(d.keywords)
        if d.reveal:
            parts.append(f"REVEAL: {_effects_text(d.reveal)}")
        if d.ability:
            parts.append(_ability_text(d.ability))
        if d.death:
            parts.append(f"On death: {_effects_text(d.death)}")
    elif d.type == "equipment":
        kws = keyword_names(d.keywords)
        head = "FUSION" if d.fusion else "Equipment"
        whom = _TARGET_TEXT.get(d.target, d.target)
        stats = f"{d.attack:+d}/{d.defence:+d}"
        parts.append(
            f"{head}: attach to {whom}; it gets {stats}" + (f", {', '.join(kws)}" if kws else "")
        )
        if d.ability:
            parts.append(f"it gains {_ability_text(d.ability)}")
    else:
        if d.instant:
            parts.append("INSTANT")
        when = {"battle": "When the battle begins: ", "ally_dies": "When your creature dies: "}
        aim = f"Target {_TARGET_TEXT[d.target]}. " if d.target else ""
        parts.append(when.get(d.on, "") + aim + _effects_text(d.effects))
    return ". ".join(parts)
