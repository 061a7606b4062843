"""Monster Maker gold, as pure functions (the state and the score tool share them).

<Treasure Cards>: "A player will receive gold equal to the number written on
the treasure card ... The 'D' written on some cards ... refers to the number
of dice that are rolled. This is done when the game is over."

| treasure gold | worth |
|---|---|
| ``300`` | 300 |
| ``NDxM±K`` (Mystic Map ``3Dx20``) | N six-sided dice, times M, plus K |
| Statue of Goddess (``special=goddess``) | its number on 1-3, 0 on 4-6 (rolled when drawn) |

Statue of Goddess: "Roll the dice. On a 1,2,or 3, has a value of 400gold. On a
4,5, or 6, is worthless."
| a prize card | its number |
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bestiary.engine import BadInput, Rng, UnknownCard
from bestiary.i18n import N_, domain

from .battle import (
    Member,
    charm_alone,
    member_distribution,
    spell_refusal,
    strengths,
    total_distribution,
    weapon_refusal,
    win_chance,
)
from .cards import CardSet, Gold, TreasureType
from .ruleset import MonsterMakerRules

_ = domain("monster_maker", __file__)

#: Statue of Goddess: "On a 1,2,or 3, has a value of 400gold".
GODDESS_KEEPS = frozenset({1, 2, 3})
DIE_FACES = 6


def goddess_keeps(roll: int) -> bool:
    return roll in GODDESS_KEEPS


def roll_gold(gold: Gold, rng: Rng) -> int:
    """One roll of a dice-valued treasure (the caller keeps it)."""
    if not gold.rolled:
        return gold.fixed
    return rng.roll(f"{gold.dice}D") * gold.times + gold.plus


@dataclass(frozen=True, slots=True)
class GoldRange:
    """What a treasure can be worth: the least, the most and the average."""

    low: int
    high: int
    mean: float

    def __add__(self, other: GoldRange) -> GoldRange:
        return GoldRange(self.low + other.low, self.high + other.high, self.mean + other.mean)


def gold_range(tt: TreasureType) -> GoldRange:
    """The range of a treasure's gold before any die is rolled."""
    g = tt.gold
    if tt.special == "goddess":
        keep = len(GODDESS_KEEPS) / DIE_FACES
        value = g.fixed
        return GoldRange(min(0, value), max(0, value), value * keep)
    if not g.rolled:
        return GoldRange(g.fixed, g.fixed, float(g.fixed))
    ends = (g.dice * g.times + g.plus, g.dice * DIE_FACES * g.times + g.plus)
    mean = g.dice * (DIE_FACES + 1) / 2 * g.times + g.plus
    return GoldRange(min(ends), max(ends), mean)


# ------------------------------------------------------------ the score tool
SHAPE = N_(
    'expected a JSON object with any of "treasures": [treasure names], '
    '"prizes": [prize names], "battle": {"monster": name, "party": [character name or '
    '{"character": name, "spell": name, "weapon": treasure name}], "road_back": true/false}'
)
KEYS = ("treasures", "prizes", "battle", "variant")
BATTLE_KEYS = ("monster", "party", "road_back")
MEMBER_KEYS = ("character", "spell", "weapon")


def _range_json(r: GoldRange) -> dict[str, Any]:
    return {"min": r.low, "max": r.high, "mean": round(r.mean, 4)}


def _names(payload: Mapping[str, Any], key: str) -> list[str]:
    raw = payload.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
        raise BadInput(
            _("{key!r} must be a list of names; {shape}").format(key=key, shape=_(SHAPE))
        )
    return raw


def _lookup(name: str, table: Mapping[str, int], known: Sequence[str]) -> int:
    i = table.get(name.casefold())
    if i is None:  # a malformed payload: BadInput, with UnknownCard's suggestions
        raise BadInput(
            _("{error}; see `bestiary cards monster-maker`").format(error=UnknownCard(name, known))
        )
    return i


def score_gold(cs: CardSet, treasures: Sequence[str], prizes: Sequence[str]) -> dict[str, Any]:
    """The gold of these treasures and prizes: the least, the most, the average
    (dice not yet rolled), card by card."""
    by_t = {t.name.casefold(): t.index for t in cs.treasures}
    by_p = {p.name.casefold(): p.index for p in cs.prizes}
    rows: list[dict[str, Any]] = []
    total = GoldRange(0, 0, 0.0)
    seen: set[int] = set()
    for name in treasures:
        t = _lookup(name, by_t, [x.name for x in cs.treasures])
        if t in seen:
            raise BadInput(
                _("treasure {name!r} is listed twice (one card each)").format(
                    name=cs.treasures[t].name
                )
            )
        seen.add(t)
        tt = cs.treasures[t]
        r = gold_range(tt)
        total = total + r
        gold = f"{tt.gold} (1-3 on 1D keeps it)" if tt.special == "goddess" else str(tt.gold)
        rows.append({"name": tt.name, "kind": "treasure", "gold": gold, **_range_json(r)})
    used: dict[int, int] = {}
    for name in prizes:
        p = _lookup(name, by_p, [x.name for x in cs.prizes])
        used[p] = used.get(p, 0) + 1
        pt = cs.prizes[p]
        if used[p] > pt.count:
            raise BadInput(
                _("prize {name!r} listed {n} times; there are {count}").format(
                    name=pt.name, n=used[p], count=pt.count
                )
            )
        r = GoldRange(pt.gold, pt.gold, float(pt.gold))
        total = total + r
        rows.append({"name": pt.name, "kind": "prize", "gold": str(pt.gold), **_range_json(r)})
    return {**_range_json(total), "breakdown": rows}


def _member(cs: CardSet, raw: object, k: int) -> tuple[int, str | None, str | None]:
    if isinstance(raw, str):
        return _card(cs, raw, "character"), None, None
    if not isinstance(raw, Mapping) or not isinstance(raw.get("character"), str):
        raise BadInput(
            _("party member {k} is {raw!r}; {shape}").format(k=k, raw=raw, shape=_(SHAPE))
        )
    extra = sorted(set(raw) - set(MEMBER_KEYS))
    if extra:
        raise BadInput(
            _("party member {k}: unknown key(s) {extra}; keys: character, spell, weapon").format(
                k=k, extra=", ".join(extra)
            )
        )
    spell, weapon = raw.get("spell"), raw.get("weapon")
    if not isinstance(spell, (str, type(None))) or not isinstance(weapon, (str, type(None))):
        raise BadInput(
            _("party member {k}: 'spell' and 'weapon' must be names; {shape}").format(
                k=k, shape=_(SHAPE)
            )
        )
    return _card(cs, raw["character"], "character"), spell, weapon


def _card(cs: CardSet, name: str, kind: str) -> int:
    card = cs.by_name.get(name.casefold())
    if card is None:
        raise BadInput(
            _("{error}; see `bestiary cards monster-maker`").format(
                error=UnknownCard(name, [c.name for c in cs.cards])
            )
        )
    if card.kind != kind:
        raise BadInput(
            _("{name!r} is a {kind} card, not a {wanted}").format(
                name=card.name, kind=card.kind, wanted=kind
            )
        )
    return card.index


def _party(
    cs: CardSet, rules: MonsterMakerRules, raw: object, monster: int, road_back: bool
) -> list[Member]:
    """The battle's party, checked with the rules' own refusals (battle.py)."""
    if not isinstance(raw, list) or not raw:
        raise BadInput(_("'party' must be a non-empty list; {shape}").format(shape=_(SHAPE)))
    by_t = {t.name.casefold(): t.index for t in cs.treasures}
    party: list[Member] = []
    for k, item in enumerate(raw):
        char, spell_name, weapon_name = _member(cs, item, k)
        spell = _card(cs, spell_name, "spell") if spell_name is not None else -1
        weapon = -1
        if weapon_name is not None:
            weapon = _lookup(weapon_name, by_t, [t.name for t in cs.treasures])
        refusal = spell_refusal(cs, rules, spell, char, monster) if spell >= 0 else None
        refusal = refusal or (weapon_refusal(cs, weapon, char, road_back) if weapon >= 0 else None)
        if refusal:
            raise BadInput(_("party member {k}: {refusal}").format(k=k, refusal=refusal))
        party.append(Member(char, spell, weapon))
    _check_counts(cs, rules, party)
    return party


def _check_counts(cs: CardSet, rules: MonsterMakerRules, party: list[Member]) -> None:
    """No more copies than the deck holds; a weapon once; Charm alone (A.iii)."""
    used: dict[int, int] = {}
    for m in party:
        for c in (m.card, m.spell):
            if c >= 0:
                used[c] = used.get(c, 0) + 1
    for c, n in used.items():
        if n > cs.cards[c].count:
            raise BadInput(
                _("{n} × {name} in the party; the deck has {count}").format(
                    n=n, name=cs.cards[c].name, count=cs.cards[c].count
                )
            )
    weapons = [m.weapon for m in party if m.weapon >= 0]
    if len(weapons) != len(set(weapons)):
        raise BadInput(_("a weapon is wielded by one character at a time"))
    charm = [m for m in party if charm_alone(cs, rules, m)]
    if charm and (len(party) > 1 or charm[0].weapon >= 0):
        raise BadInput(
            _(
                "Charm cannot be combined with other attackers (charm_alone=true): "
                "the 4D from Charm alone must overcome the monster"
            )
        )


def score_battle(
    cs: CardSet, rules: MonsterMakerRules, raw: object, carried: Sequence[str]
) -> dict[str, Any]:
    """A party's odds against a monster, from the game's own battle rules."""
    if not isinstance(raw, Mapping):
        raise BadInput(_("'battle' must be an object; {shape}").format(shape=_(SHAPE)))
    extra = sorted(set(raw) - set(BATTLE_KEYS))
    if extra:
        raise BadInput(
            _("'battle': unknown key(s) {extra}; keys: monster, party, road_back").format(
                extra=", ".join(extra)
            )
        )
    name = raw.get("monster")
    if not isinstance(name, str):
        raise BadInput(_("'battle' needs a 'monster' name; {shape}").format(shape=_(SHAPE)))
    monster = _card(cs, name, "monster")
    road_back = raw.get("road_back", False)
    if not isinstance(road_back, bool):
        raise BadInput(_("'road_back' must be true or false"))
    party = _party(cs, rules, raw.get("party"), monster, road_back)
    by_t = {t.name.casefold(): t for t in cs.treasures}
    # Royal Princess: "Battles on the way back are at -1 strength".
    penalty = sum(by_t[n.casefold()].battle_penalty for n in carried) if road_back else 0
    table = strengths(cs, rules)
    dist = total_distribution(cs, rules, table, party, penalty)
    strength = cs.cards[monster].value
    members = []
    for m in party:
        md = member_distribution(cs, rules, table, m)
        members.append(
            {
                "character": cs.cards[m.card].name,
                "dice": str(table[m.card]),
                "spell": cs.cards[m.spell].name if m.spell >= 0 else None,
                "spell_dice": str(table[m.spell]) if m.spell >= 0 else None,
                "weapon": cs.treasures[m.weapon].name if m.weapon >= 0 else None,
                **_dist_json(md),
            }
        )
    return {
        "monster": cs.cards[monster].name,
        "monster_strength": strength,
        "penalty": penalty,
        "win": round(win_chance(cs, rules, table, party, strength, penalty), 6),
        "total": _dist_json(dist),
        "party": members,
    }


def _dist_json(d: Mapping[int, float]) -> dict[str, Any]:
    return {"min": min(d), "max": max(d), "mean": round(sum(v * p for v, p in d.items()), 4)}


def score_payload(cs: CardSet, rules: MonsterMakerRules, payload: object) -> dict[str, Any]:
    """``bestiary score monster-maker``: gold of treasures/prizes, a battle's odds."""
    if not isinstance(payload, Mapping):
        raise BadInput(_(SHAPE))
    unknown = sorted(set(payload) - set(KEYS))
    if unknown:
        raise BadInput(
            _("unknown key(s) {unknown}; {shape}").format(
                unknown=", ".join(map(repr, unknown)), shape=_(SHAPE)
            )
        )
    if not any(k in payload for k in ("treasures", "prizes", "battle")):
        raise BadInput(_(SHAPE))
    treasures, prizes = _names(payload, "treasures"), _names(payload, "prizes")
    out: dict[str, Any] = {"gold": score_gold(cs, treasures, prizes)}
    if "battle" in payload:
        out["battle"] = score_battle(cs, rules, payload["battle"], treasures)
    return out
