"""The heuristic bot's battle odds from shared party totals (issue 31: "make
the bots cheaper without making them weaker — same decisions").

The bot adds up a party's total once per party and reuses it against every
monster and penalty, and for the parties that start with the same members;
its odds must be the very number ``battle.win_chance`` gives (<Battle>: "the
characters' strength must be equal to or greater than that number"), or a
close call could go the other way.
"""

from __future__ import annotations

from bestiary.engine import Rng
from bestiary.games.monster_maker import battle, bots
from bestiary.games.monster_maker.battle import Member
from bestiary.games.monster_maker.cards import load_cardset
from bestiary.games.monster_maker.ruleset import MonsterMakerRules


def test_shared_totals_give_win_chance_exactly() -> None:
    """Random parties of 0-4 characters, some with spells and weapons, against
    monsters of strength 4-29 with penalties 0-2, with spells added to or
    replacing the character's roll: the same float, bit for bit."""
    rng = Rng(4)
    bots._SHARED_ODDS.clear()  # every party's odds from the totals, none remembered
    for rules in (MonsterMakerRules(), MonsterMakerRules(spell_strength="replaces")):
        cs = load_cardset(rules.cards, rules.treasures, rules.prizes)
        table = battle.strengths(cs, rules)
        chars, spells = cs.of_kind["character"], cs.of_kind["spell"]
        weapons = [t.index for t in cs.treasures if t.weapon_bonus]
        for _ in range(600):
            party = tuple(
                Member(
                    rng.choice(chars),
                    rng.choice(spells) if rng.random() < 0.4 else -1,
                    rng.choice(weapons) if rng.random() < 0.3 else -1,
                )
                for _ in range(rng.randrange(5))
            )
            need, penalty = 4 + rng.randrange(26), rng.randrange(3)
            exact = battle.win_chance(cs, rules, table, list(party), need, penalty)
            assert bots._shared_odds(cs, rules, table, (party, need, penalty)) == exact
