"""``bestiary cards monster-maker``: every card of the three piles, JSON-safe."""

from __future__ import annotations

from typing import Any

from .battle import strengths
from .cards import load_cardset
from .ruleset import MonsterMakerRules


def catalog(rules: MonsterMakerRules) -> dict[str, Any]:
    cs = load_cardset(rules.cards, rules.treasures, rules.prizes)
    table = strengths(cs, rules)  # the rules in force (Sleep errata), as the state rolls
    deck = []
    for c in cs.cards:
        value: Any = c.value if c.kind in ("corridor", "monster") else None
        st = table[c.index]
        if st is not None:
            value = str(st)
        deck.append(
            {
                "name": c.name,
                "kind": c.kind,
                "count": c.count,
                "value": value,
                "type": c.mtype or None,
                "abilities": sorted(c.abilities),
            }
        )
    treasures = [
        {
            "name": t.name,
            "open": t.open,
            "gold": str(t.gold),
            "return_penalty": t.return_penalty,
            "battle_penalty": t.battle_penalty,
            "dispels_undead": t.dispels_undead,
            "weapon_bonus": t.weapon_bonus,
            "weapon_users": sorted(t.weapon_users),
            "special": t.special or None,
            "once_per_game": t.once_per_game,
        }
        for t in cs.treasures
    ]
    prizes = [{"name": p.name, "count": p.count, "gold": p.gold} for p in cs.prizes]
    counts: dict[str, int] = {}
    for c in cs.cards:
        counts[c.kind] = counts.get(c.kind, 0) + c.count
    return {
        "deck": deck,
        "treasures": treasures,
        "prizes": prizes,
        "totals": {
            "deck": sum(counts.values()),
            **counts,
            "treasures": len(treasures),
            "prizes": sum(p.count for p in cs.prizes),
        },
        "reconstructed": _reconstructed(rules),
    }


def _reconstructed(rules: MonsterMakerRules) -> str | None:
    """What in the files in force is a reconstruction (RULES.md); a designer's own
    file is not."""
    parts = []
    if not rules.cards:
        parts.append("deck counts and values")
    if not rules.prizes:
        parts.append("prize cards")
    if not rules.treasures:
        parts.append("Magic Armor's gold")
    return ", ".join(parts) + " (RULES.md)" if parts else None
