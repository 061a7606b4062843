"""``bestiary cards monster-maker``: every card of the three piles, JSON-safe."""

from __future__ import annotations

from typing import Any

from .cards import load_cardset
from .ruleset import MonsterMakerRules


def catalog(rules: MonsterMakerRules) -> dict[str, Any]:
    cs = load_cardset(rules.cards, rules.treasures, rules.prizes)
    deck = []
    for c in cs.cards:
        value: Any = c.value if c.kind in ("corridor", "monster") else None
        if c.strength is not None:
            value = str(c.strength)
            if rules.sleep_errata and c.name.casefold() == "sleep":
                value = "2D"
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
        "reconstructed": "deck counts and values, prize cards, Magic Armor's gold (RULES.md)",
    }
