"""Monster Maker battles as pure functions: one copy of the rules, used by the
state (rolling), the heuristic bot and the score tool (exact odds).

<Battle>: "In order to win a battle, the characters' strength must be equal to
or greater than that number ... If you use 2 or more character cards, figure
out each character's strength, add them together". A party member is a
character card, optionally with one spell (A.iii: added to or replacing its
strength; Charm alone under the translator's house rule) and one weapon
(a treasure's bonus, on the road back only). Royal Princess subtracts from the
total.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bestiary.i18n import domain

from .cards import CardSet, Strength
from .ruleset import MonsterMakerRules

_ = domain("monster_maker", __file__)

#: Errata (appendix D): "Sleep's value should be 2D, not 1D."
SLEEP_ERRATA = Strength.parse("2D")

Distribution = dict[int, float]


def strengths(cs: CardSet, rules: MonsterMakerRules) -> tuple[Strength | None, ...]:
    """Every deck card's strength under the rules in force (None: not a fighter/spell).

    The one place the Sleep errata applies: rolls, labels, the bot and the
    score tool all read this table, so what a card shows is what it rolls."""
    table = [c.strength for c in cs.cards]
    sleep = cs.by_name.get("sleep")
    if rules.sleep_errata and sleep is not None and sleep.kind == "spell":
        table[sleep.index] = SLEEP_ERRATA
    return tuple(table)


@dataclass(frozen=True, slots=True)
class Member:
    """One character in a battle: its card, its spell (-1: none), its weapon (-1: none)."""

    card: int
    spell: int = -1
    weapon: int = -1


def charm_alone(cs: CardSet, rules: MonsterMakerRules, m: Member) -> bool:
    """A.iii house rule: "the 4D from Charm alone must overcome the monster"."""
    return rules.charm_alone and m.spell >= 0 and cs.cards[m.spell].has("charm")


def counted(cs: CardSet, rules: MonsterMakerRules, m: Member) -> tuple[bool, bool]:
    """Which rolls make the member's strength: (the character's, the spell's).

    A.iii: "2nd edition rules state that the numbers *are* added" (``added``);
    ``replaces``: the spell's number stands in for the character's."""
    if m.spell < 0:
        return True, False
    if charm_alone(cs, rules, m):
        return False, True
    return rules.spell_strength == "added", True


def member_strength(
    cs: CardSet, rules: MonsterMakerRules, m: Member, char_roll: int, spell_roll: int
) -> int:
    """The member's strength from its rolls (the rolls that do not count are ignored)."""
    use_char, use_spell = counted(cs, rules, m)
    v = (char_roll if use_char else 0) + (spell_roll if use_spell else 0)
    if m.weapon >= 0 and not charm_alone(cs, rules, m):
        v += cs.treasures[m.weapon].weapon_bonus
    return v


def wins(total: int, monster_strength: int) -> bool:
    """<Battle>: "equal to or greater than that number"."""
    return total >= monster_strength


def _dist(st: Strength | None) -> Distribution:
    return st.distribution() if st is not None else {0: 1.0}


def add(a: Distribution, b: Distribution) -> Distribution:
    """The distribution of the sum of two independent totals (a party's and a
    member's): a party's total adds up its members in order."""
    out: Distribution = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0.0) + p * q
    return out


def member_distribution(
    cs: CardSet, rules: MonsterMakerRules, table: Sequence[Strength | None], m: Member
) -> Distribution:
    """Exact distribution of the member's strength (from :func:`member_strength`)."""
    use_char, use_spell = counted(cs, rules, m)
    chars = _dist(table[m.card]) if use_char else {0: 1.0}
    spells = _dist(table[m.spell]) if use_spell and m.spell >= 0 else {0: 1.0}
    out: Distribution = {}
    for c, p in chars.items():
        for s, q in spells.items():
            v = member_strength(cs, rules, m, c if use_char else 0, s if use_spell else 0)
            out[v] = out.get(v, 0.0) + p * q
    return out


def total_distribution(
    cs: CardSet,
    rules: MonsterMakerRules,
    table: Sequence[Strength | None],
    party: Iterable[Member],
    penalty: int = 0,
) -> Distribution:
    """Exact distribution of the party's total after the Royal Princess's penalty."""
    d: Distribution = {0: 1.0}
    for m in party:
        d = add(d, member_distribution(cs, rules, table, m))
    return penalised(d, penalty)


def penalised(d: Distribution, penalty: int) -> Distribution:
    """A party's total (``d``, its members added up) after the Royal
    Princess's penalty, in increasing order."""
    return {v - penalty: p for v, p in sorted(d.items())}


def chance(d: Distribution, monster_strength: int) -> float:
    """P(a total of distribution ``d`` beats a monster of that strength)."""
    return sum(p for v, p in d.items() if wins(v, monster_strength))


def win_chance(
    cs: CardSet,
    rules: MonsterMakerRules,
    table: Sequence[Strength | None],
    party: Sequence[Member],
    monster_strength: int,
    penalty: int = 0,
) -> float:
    """P(the party beats a monster of that strength); 0 for an empty party."""
    if not party:
        return 0.0
    return chance(total_distribution(cs, rules, table, party, penalty), monster_strength)


# ------------------------------------------------------------ who may do what
# Which rule forbids a spell or a weapon (0: none). The legal moves and the bots
# ask only may_cast / may_wield, many times a turn; the refusal's words are built
# only where a person reads them (spell_refusal, weapon_refusal).
_NOT_A_SPELL, _NOT_HUMAN, _NOT_A_CASTER = 1, 2, 3
_NOT_A_WEAPON, _NOT_ON_THE_WAY_BACK, _NOT_THIS_CLASS = 1, 2, 3


def _spell_fault(
    cs: CardSet, rules: MonsterMakerRules, spell: int, caster: int, monster: int
) -> int:
    """<Spells>: "Sleep and Charm spells only work on human type monsters";
    A.iii: anyone may cast (2nd edition) or only Elves and Magic-Users."""
    sc = cs.cards[spell]
    if sc.kind != "spell":
        return _NOT_A_SPELL
    if sc.has("human_only") and cs.cards[monster].mtype != "human":
        return _NOT_HUMAN
    if rules.spell_casters == "casters" and not cs.cards[caster].has("casts"):
        return _NOT_A_CASTER
    return 0


def may_cast(cs: CardSet, rules: MonsterMakerRules, spell: int, caster: int, monster: int) -> bool:
    """Whether ``caster`` may cast ``spell`` at ``monster``."""
    return _spell_fault(cs, rules, spell, caster, monster) == 0


def spell_refusal(
    cs: CardSet, rules: MonsterMakerRules, spell: int, caster: int, monster: int
) -> str | None:
    """Why ``caster`` may not cast ``spell`` at ``monster``, in the reader's
    language (None: it may)."""
    fault = _spell_fault(cs, rules, spell, caster, monster)
    sc, mc = cs.cards[spell], cs.cards[monster]
    if fault == _NOT_A_SPELL:
        return _("{spell} is not a spell").format(spell=_.noun(sc.name))
    if fault == _NOT_HUMAN:
        return _("{spell} only works on human-type monsters ({monster} is {type})").format(
            spell=_.noun(sc.name), monster=_.noun(mc.name), type=_.word(mc.mtype)
        )
    if fault == _NOT_A_CASTER:
        return _("{caster} cannot cast spells (spell_casters=casters)").format(
            caster=_.noun(cs.cards[caster].name)
        )
    return None


def _weapon_fault(cs: CardSet, treasure: int, wielder: int, road_back: bool) -> int:
    """<Treasure Cards>: "cards that can become weapons. You can use these on the
    way back"; each names the classes it helps."""
    tt = cs.treasures[treasure]
    if not tt.weapon:
        return _NOT_A_WEAPON
    if not road_back:
        return _NOT_ON_THE_WAY_BACK
    if cs.cards[wielder].name not in tt.weapon_users:
        return _NOT_THIS_CLASS
    return 0


def may_wield(cs: CardSet, treasure: int, wielder: int, road_back: bool) -> bool:
    """Whether ``wielder`` may wield ``treasure``."""
    return _weapon_fault(cs, treasure, wielder, road_back) == 0


def weapon_refusal(cs: CardSet, treasure: int, wielder: int, road_back: bool) -> str | None:
    """Why ``wielder`` may not wield ``treasure``, in the reader's language (None: it may)."""
    fault = _weapon_fault(cs, treasure, wielder, road_back)
    tt, wc = cs.treasures[treasure], cs.cards[wielder]
    if fault == _NOT_A_WEAPON:
        return _("{treasure} is not a weapon").format(treasure=_.noun(tt.name))
    if fault == _NOT_ON_THE_WAY_BACK:
        return _("weapons work only on the road back ({treasure})").format(treasure=_.noun(tt.name))
    if fault == _NOT_THIS_CLASS:
        return _("{treasure} helps only {users}, not {wielder}").format(
            treasure=_.noun(tt.name),
            users=", ".join(sorted(_.noun(u).shown() for u in tt.weapon_users)),
            wielder=_.noun(wc.name),
        )
    return None
