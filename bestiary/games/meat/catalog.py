"""``bestiary cards meat``: the card list as JSON and as Rich tables."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from rich.text import Text

from .cards import RARITY_PL, CardSet
from .effects import card_text, leader_text

if TYPE_CHECKING:
    from rich.console import RenderableType


def _in_each(text: Callable[[Any], str], item: Any) -> dict[str, str]:
    """``text(item)`` in every language."""
    from bestiary.i18n import LANGUAGES, use_language

    out = {}
    for lang in LANGUAGES:
        with use_language(lang):
            out[lang] = text(item)
    return out


def catalog(cs: CardSet) -> dict[str, Any]:
    creatures, destiny = [], []
    for d in cs.defs:
        row = {
            "name": d.name,
            "en": d.en,
            "rarity": d.rarity,
            "rarity_pl": RARITY_PL[d.rarity],
            "copies": d.copies,
            "cost": d.cost,
            "text": card_text(d),
            "texts": _in_each(card_text, d),
        }
        if d.is_creature:
            creatures.append(
                {**row, "faction": d.faction, "attack": d.attack, "defence": d.defence}
            )
        else:
            destiny.append(
                {
                    **row,
                    "type": d.type,
                    "instant": d.instant,
                    "fusion": d.fusion,
                    "attack": d.attack,
                    "defence": d.defence,
                }
            )
    # "texts": the card's and the leader's text in every language (a page shows
    # its reader's; "text" stays the current language's, for the terminal).
    leaders = [
        {
            "name": x.name,
            "en": x.en,
            "text": leader_text(x),
            "texts": _in_each(leader_text, x),
            # the bonus a faction_stat leader gives (the page's hand shows it)
            "passive": x.passive,
            "boost": [x.faction, x.attack, x.defence] if x.passive == "faction_stat" else None,
        }
        for x in cs.leaders
    ]
    return {
        "game": "meat",
        "file": cs.path,
        "creatures": creatures,
        "destiny": destiny,
        "leaders": leaders,
        "deck_sizes": {"creature": len(cs.creature_ids), "destiny": len(cs.destiny_ids)},
    }


def _literal(*values: str) -> list[Text]:
    """Names from a designer's file are text, never Rich markup."""
    return [Text(v) for v in values]


def render_catalog(cat: Mapping[str, Any]) -> RenderableType:
    from rich.console import Group
    from rich.table import Table

    t1 = Table(title=f"Creatures (istoty) — {cat['deck_sizes']['creature']} cards")
    for col in ("name", "English", "faction", "rarity", "×", "cost", "atk", "def", "text"):
        t1.add_column(col)
    for c in cat["creatures"]:
        t1.add_row(
            *_literal(c["name"], c["en"], c["faction"], c["rarity"]),
            str(c["copies"]),
            str(c["cost"]),
            str(c["attack"]),
            str(c["defence"]),
            Text(c["text"]),
        )
    t2 = Table(title=f"Destiny (przeznaczenie) — {cat['deck_sizes']['destiny']} cards")
    for col in ("name", "English", "type", "rarity", "×", "cost", "text"):
        t2.add_column(col)
    for c in cat["destiny"]:
        t2.add_row(
            *_literal(c["name"], c["en"], c["type"], c["rarity"]),
            str(c["copies"]),
            str(c["cost"]),
            Text(c["text"]),
        )
    t3 = Table(title="Leaders (liderzy)")
    for col in ("name", "English", "passive"):
        t3.add_column(col)
    for c in cat["leaders"]:
        t3.add_row(*_literal(c["name"], c["en"], c["text"]))
    return Group(t1, t2, t3)
