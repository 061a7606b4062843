"""Terminal pictures for Monster Maker: the table as one seat sees it, event lines,
and the card catalog (``bestiary cards monster-maker``).

Card, treasure and prize names come from a designer's files: they are data,
never Rich markup, so every name reaches Rich escaped (or inside a ``Text``).
``describe`` returns plain text (the web page shows it as text too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from bestiary.engine import Event

from .rules import TRAP_LOSS
from .scoring import goddess_keeps

# For the CLI's `help` and `legend` (bestiary/cli/prompt.py reads these names).
ACTION_HELP = {
    "play": "lay a corridor card: you walk that many perches (p) towards the treasure room",
    "discard": "throw a card away (you must end your turn with no more than 7 cards)",
    "fight": "add a character from your hand to the battle against your monster",
    "cast": "a magic-user casts a spell in the battle (its dice add to the strength)",
    "wield": "a character uses a treasure as a weapon in the battle",
    "roll": "roll the party's dice: win if the total is at least the monster's strength",
    "place": "put a monster card before another player: they must fight or avoid it",
    "send": "send the monster you charmed before another player",
    "dispel": "a cleric (or a holy treasure) banishes an undead monster without a fight",
    "detour": "play a Detour card: walk around your monster, losing a corridor",
    "lose": "the trap takes a card from your hand: choose which",
    "avoid": "a Thief avoids the trap (you discard the Thief instead)",
    "heal": "a Cleric takes back a character that fell in this battle",
    "open": "open the Secret Door with a Thief or Dwarf for a second treasure",
    "leave": "leave the Secret Door closed",
    "end": "end your turn",
    "pass": "do nothing now",
}
LEGEND = [
    "> before a seat: whose turn it is; (you): your seat",
    "p (perch): a dungeon distance; 40/100p in: 40 perches walked of 100",
    "corridors a | b: the corridors laid going out | coming back",
    "Monster (7, undead): its strength to beat and its type",
    "2D, 1D+2: dice — 2D is two six-sided dice added up",
    "gold so far: treasures you brought home (dice-valued ones show what they rolled)",
]


def start_tip(rules: Any) -> str | None:
    """Said once when a terminal game starts (bestiary/cli/play.py): the goal, and
    for a full game a pointer to a shorter one."""
    goal = (
        "Lay corridor cards to walk to the treasure room, take a treasure, walk the same "
        "distance back home. Put monsters before the others; fight yours with the "
        "characters in your hand. Most gold at the end wins."
    )
    if getattr(rules, "max_dungeons", 0) == 0:
        return goal + (
            " A full game runs dungeon after dungeon until the treasure or prize cards run "
            "out (an hour or more); for a first game start it with `-o max_dungeons=1`."
        )
    return goal


_CARDS: Any = None


def _cardset() -> Any:
    """The shipped cards (types, dice, treasure gold). The view carries names only;
    a designer's own cards missing from this set show by name alone."""
    global _CARDS
    if _CARDS is None:
        from .cards import load_cardset
        from .ruleset import MonsterMakerRules

        try:
            r = MonsterMakerRules()
            _CARDS = (load_cardset(r.cards, r.treasures, r.prizes), r)
        except Exception:  # texts are a courtesy: the table renders without them
            _CARDS = (None, None)
    return _CARDS


def _monster_type(name: str) -> str:
    cs, _ = _cardset()
    card = cs.by_name.get(name.casefold()) if cs is not None else None
    return str(card.mtype) if card is not None and card.mtype else ""


def treasure_gold(name: str) -> str:
    """``400 gold``, ``2D×100 gold`` (as the card says): what a treasure is worth."""
    cs, _ = _cardset()
    if cs is None:
        return ""
    for t in cs.treasures:
        if t.name.casefold() == name.casefold():
            gold = str(t.gold)
            if t.special == "goddess":  # RULES.md: "On a 1,2,or 3, has a value of 400gold"
                return f"{gold} gold if a die shows 1-3"
            return f"{gold} gold" if gold else ""
    return ""


def _with_gold(names: Sequence[str]) -> str:
    out = []
    for n in names:
        g = treasure_gold(n)
        out.append(f"{n} ({g})" if g else n)
    return ", ".join(out)


def battle_odds(view: Mapping[str, Any], extra: str | None = None) -> str:
    """``Dwarf 1D+3 vs Kobold 7: 58% to win`` for the battle in ``view`` (plus a
    character ``extra`` about to join), from the game's own battle rules."""
    from .scoring import score_payload

    cs, rules = _cardset()
    turn = view.get("turn")
    players = view.get("players") or []
    if cs is None or not isinstance(turn, int) or turn >= len(players):
        return ""
    fighter = players[turn]
    monster = fighter.get("monster")
    party = [
        {"character": m["card"], "spell": m.get("spell"), "weapon": m.get("weapon")}
        for m in view.get("battle") or []
    ]
    if extra:
        party.append({"character": extra, "spell": None, "weapon": None})
    if not monster or not party:
        return ""
    carried = view.get("my_treasures") if view.get("seat") == turn else []
    try:
        got = score_payload(
            cs,
            rules,
            {
                "treasures": list(carried or []),
                "battle": {
                    "monster": monster,
                    "party": party,
                    "road_back": fighter.get("status") == "returning",
                },
            },
        )["battle"]
    except Exception:  # an odd party (a designer's card) leaves the odds unsaid
        return ""
    dice = " + ".join(
        f"{m['character']} {m['dice']}"
        + (f" + {m['spell']} {m['spell_dice']}" if m["spell"] else "")
        for m in got["party"]
    )
    # Royal Princess: "Battles on the way back are at -1 strength" (RULES.md).
    pen = f" -{got['penalty']} (princess)" if got["penalty"] else ""
    return f"{dice}{pen} vs {got['monster']} {got['monster_strength']}: {got['win']:.0%} to win"


def action_label(view: Mapping[str, Any], text: str) -> str:
    """An action with what a newcomer needs to choose it: the battle's odds with
    this character, a monster's strength and type. Its own text comes first."""
    if text.startswith("fight with "):
        odds = battle_odds(view, text.removeprefix("fight with "))
        return f"{text}  ({odds})" if odds else text
    if text == "roll":
        odds = battle_odds(view)
        return f"{text}  ({odds})" if odds else text
    if text.startswith("place ") and " before seat " in text:
        name = text.removeprefix("place ").rpartition(" before seat ")[0]
        cs, _ = _cardset()
        card = cs.by_name.get(name.casefold()) if cs is not None else None
        if card is not None and card.value is not None:
            kind = f", {card.mtype}" if card.mtype else ""
            return f"{text}  (strength {card.value}{kind})"
    return text


def _seat(s: Any) -> str:
    return f"seat {s}"


def describe(event: Event) -> str:
    """One log line per event (what the seat that receives it may know)."""
    d = event.data
    k = event.kind
    who = _seat(d["seat"]) if "seat" in d else ""
    if k == "dungeon":
        return f"— Dungeon {d['number']} (treasure room at {d['treasure_room']}p) —"
    if k == "dealt":
        return f"{who} is dealt {', '.join(d['cards'])}"
    if k == "traps_exchanged":
        return f"{who} exchanges {d['count']} trap(s) from the opening hand"
    if k == "first_player":
        rolls = "; ".join(", ".join(f"{_seat(s)} {v}" for s, v in r.items()) for r in d["rolls"])
        return f"{who} plays first (rolls: {rolls})"
    if k == "drew":
        return f"{who} draws {d['card']}" if "card" in d else f"{who} draws a card"
    if k == "trap":
        return f"{who} draws a TRAP!"
    if k == "trap_empty":
        return f"{who} has no cards for the trap to take"
    if k == "avoided":
        return f"{who} discards a {d['card']} and avoids the trap"
    if k == "lost":
        return f"{who} loses {d['card']} to the trap"
    if k == "corridor":
        if d["leg"] == "out":
            return f"{who} plays a {d['perch']}p corridor ({d['distance']}p in)"
        return f"{who} plays a {d['perch']}p corridor back ({d['distance']}/{d['target']}p)"
    if k == "treasure_room":
        return f'{who}: "Treasure Room!" at {d["distance"]}p'
    if k == "treasure":
        if "treasure" not in d:
            return f"{who} draws a treasure card (hidden)"
        extra = ""
        if "roll" in d:  # Statue of Goddess: "On a 1,2,or 3, has a value of 400gold"
            worth = "keeps its gold" if goddess_keeps(d["roll"]) else "worthless"
            extra = f" (rolled {d['roll']}: {worth})"
        opened = " — OPEN" if d.get("open") else ""
        return f"{who} draws treasure {d['treasure']}{opened}{extra}"
    if k == "no_treasure":
        return f"{who} finds the treasure pile empty"
    if k == "set_aside":
        return f"{d['treasure']} was drawn a second time and is set aside"
    if k == "door":
        return f"{who} opens the Secret Door with a {d['card']}"
    if k == "monster":
        return f"{who} places {d['monster']} before {_seat(d['target'])}"
    if k == "fight":
        return f"{who} fights the {d['monster']}"
    if k == "joins":
        return f"  {d['card']} joins the battle"
    if k == "cast":
        return f"  {d['by']} casts {d['spell']}"
    if k == "wield":
        return f"  {d['by']} wields the {d['treasure']}"
    if k == "battle":
        parts = []
        for r in d["party"]:
            bits = [r["card"]]
            if "roll" in r:
                bits.append(f"{r['dice']}→{r['roll']}")
            if "spell" in r:
                dice = f" {r['spell_dice']}" if "spell_dice" in r else ""
                bits.append(f"{r['spell']}{dice}→{r.get('spell_roll', r['strength'])}")
            if "weapon" in r:
                bits.append(f"+{r['weapon']}")
            parts.append(" ".join(bits) + f" = {r['strength']}")
        pen = f" -{d['penalty']} (princess)" if d["penalty"] else ""
        verdict = "WINS" if d["won"] else "loses"
        return (
            f"{who} {verdict} against {d['monster']} ({d['monster_strength']}): "
            f"{'; '.join(parts)}{pen} → {d['total']}"
        )
    if k == "dispel":
        by = d.get("card") or d.get("treasure")
        return f"{who} dispels the {d['monster']} with {by}"
    if k == "detour":
        rem = f", losing a {d['removed']}p corridor" if d["removed"] else ""
        return f"{who} takes a detour around the {d['monster']}{rem}"
    if k == "heal":
        return f'{who}: "Heal!" — takes back the {d["card"]}'
    if k == "sent":
        return f"{who} sends the charmed {d['monster']} before {_seat(d['target'])}"
    if k == "discard":
        return f"{who} discards {d['card']}"
    if k == "pass":
        return f"{who} passes"
    if k == "home":
        prize = f", first home: prize {d['prize']}" if d["prize"] else ""
        return (
            f"{who} returns from the dungeon with {', '.join(d['treasures']) or 'nothing'}{prize}"
        )
    if k == "endgame":
        return f"Endgame: no more draws ({d['reason']})"
    if k == "died":
        return f"{who} dies in the dungeon ({d['reason']})"
    if k == "dungeon_end":
        home = ", ".join(map(_seat, d["home"])) or "nobody"
        line = f"Dungeon {d['number']} is over; home: {home}"
        detail = d.get("detail") or {}
        if detail:  # victory=dungeons: what each brought home, dice as rolled
            worth = "; ".join(
                f"{_seat(s)} {d['gold'][int(s)]} ({_worth(rows)})" for s, rows in detail.items()
            )
            won = ", ".join(map(_seat, d["winners"]))
            line += f"; gold {worth}; won by {won}"
        return line
    if k == "game_over":
        gold = ", ".join(f"{_seat(s)} {g}" for s, g in enumerate(d["gold"]))
        line = f"Game over ({d['reason']}): gold {gold}"
        if d.get("victory") == "dungeons":
            wins = ", ".join(f"{_seat(s)} {int(w)}" for s, w in enumerate(d["scores"]))
            line += f"; dungeon wins {wins}"
        return line
    parts_ = " ".join(f"{a}={b}" for a, b in d.items())
    return f"{k} {parts_}".strip()


def _worth(rows: Sequence[Sequence[Any]]) -> str:
    return ", ".join(f"{name} ({gold})" for name, gold in rows) or "nothing"


def _banked(p: Mapping[str, Any]) -> str:
    """Banked treasures with what the dice-valued ones rolled, then the prizes."""
    rolled = {name: gold for name, gold in p.get("rolled", [])}
    names = [f"{t} ({rolled[t]})" if t in rolled else t for t in p["banked"]]
    return ", ".join(names + p["prizes"])


def _final_lines(f: Mapping[str, Any], victory: str) -> list[RenderableType]:
    """The result as the rules in force count it, with each seat's gold breakdown."""
    gold = ", ".join(f"seat {s}: {g}" for s, g in enumerate(f["gold"]))
    head = f"Game over ({f['reason']}). Gold: {gold}"
    if victory == "dungeons":
        wins = ", ".join(f"seat {s}: {int(w)}" for s, w in enumerate(f["scores"]))
        head = f"Game over ({f['reason']}). Dungeon wins: {wins} (gold {gold})"
    lines: list[RenderableType] = [Text(head, style="bold green")]
    for s, rows in enumerate(f.get("detail", [])):
        if rows:
            lines.append(Text(f"  seat {s}: {_worth(rows)}"))
    return lines


def _where(p: Mapping[str, Any], room: int) -> str:
    st = p["status"]
    if st == "outward":
        return f"{p['distance_out']}/{room}p in"
    if st == "returning":
        if not p["corridors_back"]:
            return f"treasure room ({p['distance_out']}p); back 0/{p['return_target']}p"
        return f"back {p['distance_back']}/{p['return_target']}p"
    return st


def _trap_banner(view: Mapping[str, Any]) -> str:
    """Only what the seat can do: avoiding needs a card that avoids traps (a Thief)."""
    n = view["to_lose"]
    if view.get("turn") != view.get("seat"):
        return (
            f"TRAP! Seat {view.get('turn')} must lose {n} more card(s) (or avoid it with a Thief)"
        )
    head = f"TRAP! The trap takes {n} more card(s) from your hand: choose which to lose"
    cards = view.get("hand_cards")
    if cards is None:  # not this seat's trap, or the view has no card details
        return f"TRAP! {n} more card(s) to lose"
    avoiders = sorted({c["name"] for c in cards if "avoids_traps" in (c.get("abilities") or [])})
    # A Thief avoids the trap only before any card is lost (rules.py, TRAP_LOSS).
    if avoiders and n >= TRAP_LOSS:
        return head + f", or avoid it by discarding your {' or '.join(avoiders)}"
    return head + "."


def render_view(view: Mapping[str, Any], events: Sequence[Event]) -> RenderableType:
    room = view["treasure_room"]
    me = view.get("seat")
    t = Table(
        title=f"Monster Maker — dungeon {view['dungeon']}, treasure room at {room}p"
        + ("  [bold red]ENDGAME[/]" if view["endgame"] else ""),
        expand=False,
    )
    for col in ("seat", "where", "corridors", "monster", "hand", "treasure", "gold so far"):
        t.add_column(col)
    for p in view["players"]:
        s = p["seat"]
        mark = ">" if s == view["turn"] and not view["final"] else " "
        you = " (you)" if s == me else ""
        corridors = " ".join(map(str, p["corridors_out"]))
        if p["corridors_back"]:
            corridors += " | " + " ".join(map(str, p["corridors_back"]))
        treasure = _with_gold(p["open_treasures"])
        if p["hidden_treasures"]:
            treasure += (", " if treasure else "") + f"{p['hidden_treasures']} hidden"
        kind = _monster_type(p["monster"]) if p["monster"] else ""
        monster = (
            Text(
                f"{p['monster']} ({p['monster_strength']}" + (f", {kind})" if kind else ")"),
                style="red",
            )
            if p["monster"]
            else ""
        )
        t.add_row(
            f"{mark}{s}{you}",
            _where(p, room),
            corridors,
            monster,
            str(p["hand_size"]),
            Text(treasure),
            Text(_banked(p)),
        )
    lines: list[RenderableType] = [t]
    piles = (
        f"draw pile {view['draw_pile']}, treasure pile {view['treasure_pile']}, "
        f"prize pile {view['prize_pile']}, discard {len(view['discard_pile'])}"
    )
    if "traps_in_draw_pile_at" in view:
        piles += f"; traps at {view['traps_in_draw_pile_at']} from the top"
    lines.append(Text(piles))
    if view["hand"] is not None:
        hand = view.get("hand_labels") or view["hand"]
        lines.append(Text(f"Your hand: {', '.join(hand) or '(empty)'}", style="bold"))
        if view["my_treasures"]:
            lines.append(Text(f"Your treasures: {_with_gold(view['my_treasures'])}"))
    if view["battle"]:
        party = "; ".join(
            m["card"]
            + (f" + {m['spell']}" if m["spell"] else "")
            + (f" + {m['weapon']}" if m["weapon"] else "")
            for m in view["battle"]
        )
        lines.append(Text(f"In battle: {party}", style="yellow"))
        odds = battle_odds(view)
        if odds:
            lines.append(Text(f"Odds: {odds}", style="yellow"))
    if view["trap"]:
        lines.append(Text(_trap_banner(view), style="red"))
    if view["phase"] == "discard":
        lines.append(Text("Over the hand limit after the dispel: discard a card", style="red"))
    if view["charmed"]:
        lines.append(Text(f"Charmed {view['charmed']} may be sent before another player"))
    if events:
        lines.append(Panel(Text("\n".join(describe(e) for e in events)), title="log", expand=False))
    if view["final"]:
        lines.extend(_final_lines(view["final"], view.get("victory", "gold")))
    return Group(*lines)


def render_catalog(catalog: Mapping[str, Any]) -> RenderableType:
    # Only the shipped files are reconstructions (a designer's own file is not).
    rebuilt = catalog.get("reconstructed") or ""
    mark = ", reconstructed" if "deck" in rebuilt else ""
    deck = Table(title=f"Monster Maker cards ({catalog['totals']['deck']}{mark})")
    for col in ("card", "kind", "count", "value", "type", "abilities"):
        deck.add_column(col)
    for c in catalog["deck"]:
        deck.add_row(
            escape(c["name"]),
            c["kind"],
            str(c["count"]),
            "" if c["value"] is None else str(c["value"]),
            c["type"] or "",
            escape(" ".join(c["abilities"])),
        )
    tr = Table(title="Treasure cards" + (" (appendix C)" if "Magic Armor" in rebuilt else ""))
    for col in ("treasure", "open", "gold", "effect"):
        tr.add_column(col)
    for t in catalog["treasures"]:
        eff = []
        if t["return_penalty"]:
            eff.append(f"road back +{t['return_penalty']}p")
        if t["battle_penalty"]:
            eff.append(f"battles back -{t['battle_penalty']}")
        if t["dispels_undead"]:
            eff.append("dispels undead")
        if t["weapon_bonus"]:
            eff.append(f"+{t['weapon_bonus']} to {'/'.join(t['weapon_users'])}")
        if t["special"] == "secret_door":
            eff.append("Thief or Dwarf: two treasures")
        if t["special"] == "goddess":
            eff.append("roll 1D: 1-3 keeps the gold")
        tr.add_row(
            escape(t["name"]), "OPEN" if t["open"] else "", t["gold"], escape("; ".join(eff))
        )
    pr = Table(title="Prize cards" + (" (reconstructed)" if "prize" in rebuilt else ""))
    for col in ("prize", "count", "gold"):
        pr.add_column(col)
    for p in catalog["prizes"]:
        pr.add_row(escape(p["name"]), str(p["count"]), str(p["gold"]))
    return Group(deck, tr, pr)
