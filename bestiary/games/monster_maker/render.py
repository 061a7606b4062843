"""Terminal pictures for Monster Maker: the table as one seat sees it and the
card catalog (``bestiary cards monster-maker``), in the current language. The
log lines are in ``describe.py``.

Card, treasure and prize names come from a designer's files: they are data,
never Rich markup, so every name reaches Rich escaped (or inside a ``Text``).
They are shown in the reader's language (``describe.card``: ``Korytarz 10``).
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
from bestiary.engine.events import seat_label
from bestiary.i18n import N_, domain
from bestiary.i18n.lazy import LazyHelp, LazyLines

from .describe import (
    card,
    cardset,
    describe,
    end_reason,
    gold,
    monster,
    prize_gold,
    shown,
    treasure_gold,
    type_text,
    with_gold,
    worth,
)
from .phases import TRAP_LOSS

_ = domain("monster_maker", __file__)

__all__ = [
    "ACTION_HELP",
    "GLOSSARY",
    "LEGEND",
    "action_label",
    "battle_odds",
    "describe",
    "render_catalog",
    "render_view",
    "start_tip",
    "treasure_gold",
]


# For the CLI's `help` and `legend` (bestiary/cli/prompt.py reads these names).
ACTION_HELP: Mapping[str, str] = LazyHelp(
    _,
    {
        "play": N_("lay a corridor card: you walk that many perches (p) towards the treasure room"),
        "discard": N_("throw a card away (you must end your turn with no more than 7 cards)"),
        "fight": N_("add a character from your hand to the battle against your monster"),
        "cast": N_("a character casts a spell in the battle (its dice add to the strength)"),
        "wield": N_("a character uses a treasure as a weapon in the battle"),
        "roll": N_("roll the party's dice: win if the total is at least the monster's strength"),
        "place": N_("put a monster card before another player: they must fight or avoid it"),
        "send": N_("send the monster you charmed before another player"),
        "dispel": N_("a Cleric (or a holy treasure) banishes an undead monster without a fight"),
        "detour": N_("play a Detour card: walk around your monster, losing a corridor"),
        "lose": N_("the trap takes a card from your hand: choose which"),
        "avoid": N_("a Thief avoids the trap (you discard the Thief instead)"),
        "heal": N_("a Cleric takes back a character that fell in this battle"),
        "open": N_("open the Secret Door with a Thief or Dwarf for two treasures"),
        "leave": N_("leave the Secret Door closed"),
        "end": N_("end your turn"),
        "pass": N_("do nothing now"),
    },
)
LEGEND: tuple[str, ...] = LazyLines(
    _,
    (
        N_("> before a player: whose turn it is; (you): your seat"),
        N_("p (perch): a dungeon distance; 40/100p in: 40 perches walked of 100"),
        N_("corridors a | b: the corridors laid going out | coming back"),
        N_("Monster (strength 7, undead): the strength to beat and its type"),
        N_("2D, 1D+2: dice — 2D is two six-sided dice added up"),
        N_("gold so far: the gold you brought home (dice-valued treasures as they rolled)"),
    ),
)


GLOSSARY: Mapping[str, str] = LazyHelp(
    _,
    {
        "spell": N_(
            "spell — never used alone: a character in the battle casts it and its dice "
            "are added to the fight"
        ),
        "human_only": N_(
            "human only — works only against human-type monsters (Ogre, Bandit, Orc, Lizard "
            "Man, Goblin, Berserker, Kobold)"
        ),
        "charm": N_(
            "Charm — a Magic-User or Elf who beats a human-type monster with it may send "
            "that monster in front of another player's corridor"
        ),
        "casts": N_("casts — a natural spell caster"),
        "charms": N_("charms — may send a monster it charmed on to another player"),
        "avoids_traps": N_("avoids traps — discard it to escape a trap you drew"),
        "opens_doors": N_("opens doors — discard it to open a Secret Door: two treasures"),
        "dispels_undead": N_(
            "dispels undead — discard it to remove an undead monster (Ghoul, Zombie, "
            "Skeleton) in front of you, no dice"
        ),
        "heals": N_("heals — after a battle, discard it to take back a character used this turn"),
        "undead": N_("undead — Ghoul, Zombie, Skeleton: a Cleric or a holy treasure dispels them"),
        "open": N_("OPEN treasure — shown to everyone at once, and its effect applies at once"),
        "detour": N_(
            "Detour — go around the monster in front of you: both cards are discarded, and "
            "so is your last corridor"
        ),
        "trap": N_(
            "Trap — shown when drawn: discard three cards, unless a Thief lets you avoid it"
        ),
    },
)


def start_tip(rules: Any) -> str | None:
    """Said once when a terminal game starts (bestiary/cli/play.py): the goal, and
    for a full game a pointer to a shorter one."""
    goal = _(
        "Lay corridor cards to walk to the treasure room, take a treasure, walk the same "
        "distance back home. Put monsters before the others; fight yours with the "
        "characters in your hand. Most gold at the end wins."
    )
    if getattr(rules, "max_dungeons", 0) == 0:
        return (
            goal
            + " "
            + _(
                "A full game runs dungeon after dungeon until the treasure or prize cards run "
                "out (an hour or more); for a first game start it with `-o max_dungeons=1`."
            )
        )
    return goal


def battle_odds(view: Mapping[str, Any], extra: str | None = None) -> str:
    """``Dwarf 2D+5 vs Kobold 7: 97% to win`` for the battle in ``view`` (plus a
    character ``extra`` about to join), from the game's own battle rules."""
    from .scoring import score_payload

    cs, rules = cardset()
    turn = view.get("turn")
    players = view.get("players") or []
    if cs is None or not isinstance(turn, int) or turn >= len(players):
        return ""
    fighter = players[turn]
    foe = fighter.get("monster")
    party = [
        {"character": m["card"], "spell": m.get("spell"), "weapon": m.get("weapon")}
        for m in view.get("battle") or []
    ]
    if extra:
        party.append({"character": extra, "spell": None, "weapon": None})
    if not foe or not party:
        return ""
    carried = view.get("my_treasures") if view.get("seat") == turn else []
    try:
        got = score_payload(
            cs,
            rules,
            {
                "treasures": list(carried or []),
                "battle": {
                    "monster": foe,
                    "party": party,
                    "road_back": fighter.get("status") == "returning",
                },
            },
        )["battle"]
    except Exception:  # an odd party (a designer's card) leaves the odds unsaid
        return ""
    dice = " + ".join(
        f"{shown(m['character'])} {m['dice']}"
        + (f" + {shown(m['spell'])} {m['spell_dice']}" if m["spell"] else "")
        for m in got["party"]
    )
    # Royal Princess: "Battles on the way back are at -1 strength" (RULES.md).
    if got["penalty"]:
        dice = _("{dice} −{n} (princess)").format(dice=dice, n=got["penalty"])
    return _("{dice} vs {monster} {strength}: {chance}% to win").format(
        dice=dice,
        monster=card(got["monster"]),
        strength=got["monster_strength"],
        chance=round(got["win"] * 100),
    )


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
        label, said = monster(name), shown(name)
        return f"{text}  ({label.removeprefix(said).strip(' ()')})" if label != said else text
    return text


def _fixed_gold(name: str) -> int | None:
    """A treasure's printed gold when it is a plain number (None: dice or unknown)."""
    cs, _rules = cardset()
    if cs is None:
        return None
    for t in cs.treasures:
        if t.name.casefold() == name.casefold():
            return None if t.gold.rolled else int(t.gold.fixed)
    return None


def _my_worthless(view: Mapping[str, Any]) -> list[str]:
    """The seat's own treasures known to be worthless (its players' row)."""
    me = view.get("seat")
    return next(
        (list(p.get("worthless") or []) for p in view.get("players") or [] if p["seat"] == me), []
    )


def banked_gold(p: Mapping[str, Any]) -> str:
    """What a player has brought home, in gold: ``550 gold`` plus the dice-valued
    treasures still to roll (``+ Mystic Map 3Dx20 gold (rolled at the end)``);
    a rolled one counts what it rolled, a worthless Statue of Goddess 0."""
    rolled = {name: g for name, g in p.get("rolled", [])}
    worthless = set(p.get("worthless", []))
    total, pending = 0, []
    for t in p["banked"]:
        if t in worthless:
            continue
        if t in rolled:
            total += int(rolled[t])
            continue
        fixed = _fixed_gold(t)
        if fixed is None:
            g = treasure_gold(t)
            pending.append(_("{name} {gold}").format(name=card(t), gold=g) if g else shown(t))
        else:
            total += fixed
    for prize in p["prizes"]:
        total += prize_gold(prize) or 0
    if not p["banked"] and not p["prizes"]:
        return "—"
    if pending:
        return _("{gold} + {pending}").format(gold=gold(total), pending=", ".join(pending))
    return gold(total)


def _final_lines(view: Mapping[str, Any]) -> list[RenderableType]:
    """The result as the rules in force count it, with what each card was worth
    (dice-valued treasures as they rolled)."""
    f = view["final"]
    who = view.get("names")
    names = list(who) if isinstance(who, list | tuple) else None
    golds = ", ".join(
        _("{player} {gold}").format(player=seat_label(s, names), gold=gold(g))
        for s, g in enumerate(f["gold"])
    )
    reason = end_reason({"reason": f.get("reason", ""), **_cause(f)})
    if view.get("victory", "gold") == "dungeons":
        wins = ", ".join(
            _("{player} {n}").format(player=seat_label(s, names), n=int(w))
            for s, w in enumerate(f["scores"])
        )
        head = _("Game over ({reason}). Dungeon wins: {wins} (gold: {golds})").format(
            reason=reason, wins=wins, golds=golds
        )
    else:
        head = _("Game over ({reason}). Gold: {golds}").format(reason=reason, golds=golds)
    lines: list[RenderableType] = [Text(head, style="bold green")]
    for s, rows in enumerate(f.get("detail", [])):
        if rows:
            lines.append(
                Text(
                    "  "
                    + _("{player}: {worth}").format(player=seat_label(s, names), worth=worth(rows))
                )
            )
    return lines


def _cause(f: Mapping[str, Any]) -> dict[str, Any]:
    """The game-over cause from the result's English reason (views carry the reason)."""
    reason = str(f.get("reason", ""))
    if reason == "the treasure cards are exhausted":
        return {"cause": "treasures"}
    if reason == "the prize cards are exhausted":
        return {"cause": "prizes"}
    if reason.endswith(" dungeons played") and reason.split(" ")[0].isdigit():
        return {"cause": "max_dungeons", "dungeons": int(reason.split(" ")[0])}
    if reason.endswith("-dungeon guard"):
        return {"cause": "guard"}
    return {}


def _where(p: Mapping[str, Any], room: int) -> str:
    st = p["status"]
    if st == "outward":
        return _("{walked}/{room}p in").format(walked=p["distance_out"], room=room)
    if st == "returning":
        if not p["corridors_back"]:
            return _("treasure room ({walked}p); back 0/{target}p").format(
                walked=p["distance_out"], target=p["return_target"]
            )
        return _("back {walked}/{target}p").format(
            walked=p["distance_back"], target=p["return_target"]
        )
    if st == "home":
        return _("home")
    if st == "dead":
        return _("dead")
    return str(st)


def _trap_banner(view: Mapping[str, Any]) -> str:
    """Only what the seat can do: avoiding needs a card that avoids traps (a
    Thief), and only before any card is lost."""
    n = int(view["to_lose"])
    turn = view.get("turn")
    if turn != view.get("seat"):
        name = seat_label(turn, _names(view)) if isinstance(turn, int) else "?"
        return _.ngettext(
            "TRAP! {player} must lose {n} more card (or avoid the trap with a Thief)",
            "TRAP! {player} must lose {n} more cards (or avoid the trap with a Thief)",
            n,
        ).format(player=name, n=n)
    cards = view.get("hand_cards")
    if cards is None:  # not this seat's trap, or the view has no card details
        return _.ngettext("TRAP! {n} more card to lose", "TRAP! {n} more cards to lose", n).format(
            n=n
        )
    avoiders = sorted(
        {shown(c["name"]) for c in cards if "avoids_traps" in (c.get("abilities") or [])}
    )
    # A Thief avoids the trap only before any card is lost (rules.py, TRAP_LOSS).
    if avoiders and n >= TRAP_LOSS:
        return _.ngettext(
            "TRAP! The trap takes {n} card from your hand: choose which to lose, "
            "or avoid it by discarding your {avoiders}",
            "TRAP! The trap takes {n} cards from your hand: choose which to lose, "
            "or avoid it by discarding your {avoiders}",
            n,
        ).format(n=n, avoiders=_(" or ").join(avoiders))
    return _.ngettext(
        "TRAP! The trap takes {n} more card from your hand: choose which to lose.",
        "TRAP! The trap takes {n} more cards from your hand: choose which to lose.",
        n,
    ).format(n=n)


def _hand_label(c: Mapping[str, Any]) -> str:
    """``Corridor 10 (10p)``, ``Kobold (7, human type)``, ``Sleep (2D)``: a card in
    hand with what it does under the rules in force (the view's ``hand_cards``)."""
    name = card(c.get("name", ""))
    if c.get("kind") == "corridor":
        return _("{card} ({perch}p)").format(card=name, perch=c.get("value"))
    if c.get("kind") == "monster":
        kind = type_text(c.get("type"))
        if kind:
            return _("{card} ({n}, {type})").format(card=name, n=c.get("value"), type=kind)
        return _("{card} ({n})").format(card=name, n=c.get("value"))
    if c.get("strength"):
        return _("{card} ({n})").format(card=name, n=c["strength"])
    return name.shown()


def _names(view: Mapping[str, Any]) -> list[str] | None:
    who = view.get("names")
    return list(who) if isinstance(who, list | tuple) else None


def render_view(view: Mapping[str, Any], events: Sequence[Event]) -> RenderableType:
    room = view["treasure_room"]
    me = view.get("seat")
    names = _names(view)
    title = Text(
        _("Monster Maker — dungeon {n}, treasure room at {room}p").format(
            n=view["dungeon"], room=room
        )
    )
    if view["endgame"]:
        title.append("  " + _("ENDGAME: no more draws"), style="bold red")
    t = Table(title=title, expand=False)
    for col in (
        _("player"),
        _("where"),
        _("corridors"),
        _("monster"),
        _("hand"),
        _("treasure"),
        _("gold so far"),
    ):
        t.add_column(col)
    for p in view["players"]:
        s = p["seat"]
        mark = ">" if s == view["turn"] and not view["final"] else " "
        you = " " + _("(you)") if s == me else ""
        corridors = " ".join(map(str, p["corridors_out"]))
        if p["corridors_back"]:
            corridors += " | " + " ".join(map(str, p["corridors_back"]))
        treasure = with_gold(p["open_treasures"], p.get("worthless") or [])
        if p["hidden_treasures"]:
            hidden = _.ngettext("{n} hidden", "{n} hidden", p["hidden_treasures"]).format(
                n=p["hidden_treasures"]
            )
            treasure = f"{treasure}, {hidden}" if treasure else hidden
        foe = p["monster"]
        cell = (
            Text(monster(foe, p.get("monster_strength"), p.get("monster_type")), style="red")
            if foe
            else Text("")
        )
        t.add_row(
            Text(f"{mark}{seat_label(s, names)}{you}"),
            _where(p, room),
            corridors,
            cell,
            str(p["hand_size"]),
            Text(treasure),
            Text(banked_gold(p)),
        )
    lines: list[RenderableType] = [t]
    piles = _(
        "draw pile {draw}, treasure pile {treasures}, prize pile {prizes}, discard pile {discard}"
    ).format(
        draw=view["draw_pile"],
        treasures=view["treasure_pile"],
        prizes=view["prize_pile"],
        discard=len(view["discard_pile"]),
    )
    if "traps_in_draw_pile_at" in view:
        at = ", ".join(map(str, view["traps_in_draw_pile_at"])) or "—"
        piles = _("{piles}; traps at {places} from the top").format(piles=piles, places=at)
    lines.append(Text(piles))
    prompt = view.get("prompt")
    if isinstance(prompt, str) and prompt:
        lines.append(Text(_(prompt), style="bold cyan"))
    if view["hand"] is not None:
        cards = view.get("hand_cards")
        hand = (
            [_hand_label(c) for c in cards]
            if isinstance(cards, list) and cards
            else view.get("hand_labels") or [shown(c) for c in view["hand"]]
        )
        lines.append(
            Text(
                _("Your hand: {cards}").format(cards=", ".join(hand) or _("(empty)")),
                style="bold",
            )
        )
        if view["my_treasures"]:
            lines.append(
                Text(
                    _(
                        "Your treasures (hidden from the others until used or home): {treasures}"
                    ).format(treasures=with_gold(view["my_treasures"], _my_worthless(view)))
                )
            )
    if view["battle"]:
        members = []
        for m in view["battle"]:
            if m["spell"] and m["weapon"]:
                text = _("{card} with {spell} and the {weapon}")
            elif m["spell"]:
                text = _("{card} with {spell}")
            elif m["weapon"]:
                text = _("{card} with the {weapon}")
            else:
                text = "{card}"
            members.append(
                text.format(card=card(m["card"]), spell=card(m["spell"]), weapon=card(m["weapon"]))
            )
        lines.append(Text(_("In battle: {party}").format(party="; ".join(members)), style="yellow"))
        odds = battle_odds(view)
        if odds:
            lines.append(Text(_("Odds: {odds}").format(odds=odds), style="yellow"))
    if view["trap"]:
        lines.append(Text(_trap_banner(view), style="red"))
    if view["phase"] == "discard" and not view.get("prompt"):
        lines.append(Text(_("Over the hand limit after the dispel: discard a card"), style="red"))
    if view["charmed"]:
        lines.append(
            Text(
                _("The charmed {monster} may be sent before another player").format(
                    monster=card(view["charmed"])
                )
            )
        )
    if events:
        lines.append(
            Panel(Text("\n".join(describe(e, names) for e in events)), title=_("log"), expand=False)
        )
    if view["final"]:
        lines.extend(_final_lines(view))
    return Group(*lines)


def render_catalog(catalog: Mapping[str, Any]) -> RenderableType:
    # Only the shipped files are reconstructions (a designer's own file is not).
    rebuilt = catalog.get("reconstructed") or ""
    n = catalog["totals"]["deck"]
    if "deck" in rebuilt:
        title = _("Monster Maker cards ({n}, reconstructed)").format(n=n)
    else:
        title = _("Monster Maker cards ({n})").format(n=n)
    deck = Table(title=title)
    for col in (_("card"), _("kind"), _("count"), _("value"), _("type"), _("abilities")):
        deck.add_column(col)
    for c in catalog["deck"]:
        deck.add_row(
            escape(shown(c["name"])),
            c["kind"],
            str(c["count"]),
            "" if c["value"] is None else str(c["value"]),
            c["type"] or "",
            escape(" ".join(c["abilities"])),
        )
    tr = Table(
        title=_("Treasure cards (appendix C)") if "Magic Armor" in rebuilt else _("Treasure cards")
    )
    for col in (_("treasure"), _("open"), _("gold"), _("effect")):
        tr.add_column(col)
    for treasure in catalog["treasures"]:
        eff = []
        if treasure["return_penalty"]:
            eff.append(_("road back +{n}p").format(n=treasure["return_penalty"]))
        if treasure["battle_penalty"]:
            eff.append(_("battles back -{n}").format(n=treasure["battle_penalty"]))
        if treasure["dispels_undead"]:
            eff.append(_("dispels undead"))
        if treasure["weapon_bonus"]:
            eff.append(
                _("+{n} to {users}").format(
                    n=treasure["weapon_bonus"],
                    users="/".join(shown(u) for u in treasure["weapon_users"]),
                )
            )
        if treasure["special"] == "secret_door":
            eff.append(_("Thief or Dwarf: two treasures"))
        if treasure["special"] == "goddess":
            eff.append(_("roll 1D: 1-3 keeps the gold"))
        tr.add_row(
            escape(shown(treasure["name"])),
            "OPEN" if treasure["open"] else "",
            treasure["gold"],
            escape("; ".join(eff)),
        )
    pr = Table(title=_("Prize cards (reconstructed)") if "prize" in rebuilt else _("Prize cards"))
    for col in (_("prize"), _("count"), _("gold")):
        pr.add_column(col)
    for p in catalog["prizes"]:
        pr.add_row(escape(shown(p["name"])), str(p["count"]), str(p["gold"]))
    return Group(deck, tr, pr)
