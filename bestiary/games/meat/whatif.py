"""``bestiary score meat``: what if these creatures met in battle?

JSON in, JSON out. The creatures are put face up on a real two-player
battlefield (no leaders) and the game's own battle runs on it
(``MeatState.fight``: REFLEX first, then the rest; TOXIN, CLEAVE, CHALLENGE,
death abilities), so the answer is exactly what a match would do. The result
names who survives, who wins the round by the summary's count
(``MeatState.round_winner``) and lists every step with its log lines.

Input, one of:

- ``{"attacker": CARD, "defender": CARD}``: the two face each other on the
  front lanes (attacker: side 0, defender: side 1);
- ``{"sides": [{LANE: CARD, ...}, {LANE: CARD, ...}]}``: up to three creatures
  a side, LANE = left / front / right as seen by that side's owner (a left
  flank faces the other side's right flank);

where CARD is a creature's name or ``{"card": NAME, "attack": N, "defence": N,
"damage": N, "keywords": [KEYWORD, ...]}`` (modifiers optional: attack and
defence add to the card's, damage is already taken, keywords are gained).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bestiary.engine import BadInput, UnknownCard
from bestiary.engine.protocol import Game
from bestiary.i18n import N_, domain

from .cards import KEYWORDS, LANES, keyword_names
from .describe import describe
from .rules import P_ACTIVATION, MeatState
from .ruleset import MeatRules

_ = domain("meat", __file__)
ngettext = _.ngettext

SHAPE = N_(
    'expected {"attacker": CARD, "defender": CARD} or '
    '{"sides": [{"left"|"front"|"right": CARD, ...}, {...}]}, where CARD is a creature '
    'name or {"card": NAME, "attack": N, "defence": N, "damage": N, "keywords": [...]}'
)
_MODS = ("attack", "defence", "damage")
_SPEC_KEYS = {"card", *_MODS, "keywords"}


def what_if(game: Game, payload: Mapping[str, Any], rules: MeatRules) -> dict[str, Any]:
    """Run the battle ``payload`` describes on a real two-seat state of
    ``game``; BadInput says the expected shape."""
    sides = _sides(payload)
    st = MeatState(game, 2, 0, rules)
    st.leader = [-1, -1]
    st.phase = P_ACTIVATION
    used: set[int] = set()
    for side, lanes in enumerate(sides):
        for lane, spec in lanes.items():
            _place(st, side * 3 + LANES.index(lane), spec, used)
    before = [_creature(st, slot) for slot in range(6) if st.field[slot] >= 0]
    steps = _battle_steps(st)
    win, alive, total = st.round_winner()
    after = [_creature(st, slot) for slot in range(6) if st.field[slot] >= 0]
    out: dict[str, Any] = {
        "before": before,
        "steps": steps,
        "survivors": after,
        "round": {
            "alive": alive,
            "defence": total,
            "winner": "draw" if win < 0 else f"side {win}",
        },
    }
    if "attacker" in payload:
        out["outcome"] = _duel_outcome(st)
    return out


def _battle_steps(st: MeatState) -> list[dict[str, Any]]:
    """The battle's passes as ``fight()`` runs them, each with what it did."""
    steps = []
    for reflex in st.STRIKES:
        if st.over:
            break
        first = st.event_count()
        st._strike(reflex)
        events = st.events_since(first, None)
        died = [e.data for e in events if e.kind == "died"]
        steps.append(
            {
                "step": "REFLEX creatures strike" if reflex else "the other creatures strike",
                "hits": [_hit(e.data) for e in events if e.kind == "damaged"],
                "died": [_slot(d["slot"]) | {"card": d["card"]} for d in died],
                "log": [describe(e) for e in events],
            }
        )
    return steps


def _sides(payload: Mapping[str, Any]) -> list[dict[str, Any]]:
    if not isinstance(payload, Mapping):
        raise BadInput(_("the input must be a JSON object; {shape}").format(shape=_(SHAPE)))
    keys = set(payload) - {"variant"}
    if keys == {"attacker", "defender"}:
        return [{"front": payload["attacker"]}, {"front": payload["defender"]}]
    if keys == {"sides"}:
        sides = payload["sides"]
        if not isinstance(sides, list) or len(sides) != 2:
            raise BadInput(_("'sides' must be a list of two sides; {shape}").format(shape=_(SHAPE)))
        for side in sides:
            if not isinstance(side, dict) or not side or set(side) - set(LANES):
                raise BadInput(
                    _("a side maps lanes (left, front, right) to creatures; {shape}").format(
                        shape=_(SHAPE)
                    )
                )
        return sides
    raise BadInput(
        _("unexpected keys {keys}; {shape}").format(keys=sorted(keys) or _("none"), shape=_(SHAPE))
    )


def _place(st: MeatState, slot: int, spec: Any, used: set[int]) -> None:
    if isinstance(spec, str):
        spec = {"card": spec}
    if not isinstance(spec, dict) or not isinstance(spec.get("card"), str):
        raise BadInput(
            _("a creature must be a name or an object with a 'card' name; {shape}").format(
                shape=_(SHAPE)
            )
        )
    if set(spec) - _SPEC_KEYS:
        raise BadInput(
            _("unknown field(s) {fields}; a creature takes {allowed}").format(
                fields=", ".join(sorted(set(spec) - _SPEC_KEYS)),
                allowed=", ".join(sorted(_SPEC_KEYS)),
            )
        )
    try:
        d = st.cs.card(spec["card"])
    except UnknownCard as exc:
        raise BadInput(str(exc)) from None
    if not d.is_creature:
        raise BadInput(_("{name!r} is a destiny card; only creatures fight").format(name=d.name))
    free = [i for i in st.cs.instances(d.name) if i not in used]
    if not free:
        raise BadInput(
            ngettext("{name!r} has only {n} copy", "{name!r} has only {n} copies", d.copies).format(
                name=d.name, n=d.copies
            )
        )
    iid = free[0]
    used.add(iid)
    mods = {}
    for key in _MODS:
        value = spec.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not -20 <= value <= 20:
            raise BadInput(_("'{key}' must be a whole number from -20 to 20").format(key=key))
        mods[key] = value
    kws = spec.get("keywords", [])
    if not isinstance(kws, list) or not all(isinstance(k, str) and k in KEYWORDS for k in kws):
        raise BadInput(
            _("'keywords' must be a list of {keywords}").format(keywords=", ".join(KEYWORDS))
        )
    for pile in (st.cdeck, st.cgrave):
        if iid in pile:
            pile.remove(iid)
    st.field[slot] = iid
    st.up[slot] = True
    st.atk_mod[iid] = mods["attack"]
    st.def_mod[iid] = mods["defence"]
    st.dmg[iid] = mods["damage"]
    for k in kws:
        st.kw_extra[iid] |= KEYWORDS[k]
    if st.defence(slot) <= 0:
        raise BadInput(
            _("{name} would start with {defence} defence; it must be alive").format(
                name=d.name, defence=st.defence(slot)
            )
        )


def _slot(slot: int) -> dict[str, Any]:
    return {"side": slot // 3, "lane": LANES[slot % 3]}


def _creature(st: MeatState, slot: int) -> dict[str, Any]:
    return _slot(slot) | {
        "card": st.name(st.field[slot]),
        "attack": st.attack(slot),
        "defence": st.defence(slot),
        "keywords": keyword_names(st.keywords(slot)),
    }


def _hit(data: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "to": _slot(data["slot"]),
        "amount": data["amount"],
        "toxin": data["toxin"],
        "from": data["source"],
    }


def _duel_outcome(st: MeatState) -> str:
    a, b = st.field[1] >= 0, st.field[4] >= 0
    if a and b:
        return "both survive"
    if a:
        return "the attacker wins"
    if b:
        return "the defender wins"
    return "both die"
