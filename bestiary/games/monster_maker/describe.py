"""One log line per event (``describe_event``), in the current language.

Every line is a whole sentence with named placeholders from this package's
catalog (``locale/pl/LC_MESSAGES/monster_maker.po``); seats are named as the
table names them (``seat_label``). A line says only what its event carries —
the event's visibility decides who may read it — so nothing hidden is added.
Card, treasure and prize names are the card files' (English) names; a line
shows each as ``card(name)``, a name the sentence declines (``{card:acc}``) in
the reader's language: ``locale/pl/nouns.toml`` gives the Polish names and their
cases (``Korytarz 10``, ``Olbrzymiego Szczura``). A designer's own card missing
there keeps its name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bestiary.engine import Event
from bestiary.engine.events import name_seats, seat_label
from bestiary.i18n import N_, domain
from bestiary.i18n.labels import label_with, patterns
from bestiary.i18n.nouns import Noun

from .scoring import goddess_keeps

_ = domain("monster_maker", __file__)

Names = Sequence[str] | None


def card(name: object) -> Noun:
    """A card's, treasure's or prize's name as a sentence declines it: ``{card}``
    is the reader's name (``Korytarz 10``), ``{card:acc}`` its accusative."""
    return _.noun(name)


def shown(name: object) -> str:
    """A card's name as the reader says it (``Corridor 10`` / ``Korytarz 10``)."""
    return card(name).shown()


def cards_list(names: Sequence[object]) -> str:
    """``Korytarz 10, Złodziej``: names as the reader says them."""
    return ", ".join(shown(n) for n in names)


class Named(str):
    """A phrase built around a name, ``Ogr (siła 20, typ human)``, that a
    sentence declines as it declines the name: ``{monster:acc}`` puts the name
    in the accusative and keeps the rest; a gender spec asks the name."""

    __slots__ = ("_name", "_template", "_values")
    _name: Noun
    _template: str
    _values: dict[str, object]

    def __new__(cls, template: str, name: Noun, **values: object) -> Named:
        made = super().__new__(cls, template.format(name=format(name, ""), **values))
        made._name, made._template, made._values = name, template, values
        return made

    def __format__(self, spec: str) -> str:
        if spec.startswith("g:"):
            return format(self._name, spec)
        return self._template.format(name=format(self._name, spec), **self._values)


_CARDS: Any = None


def cardset() -> Any:
    """The shipped cards (types, dice, treasure gold) and the default rules. Events
    and views carry names; a designer's own cards missing here show by name alone."""
    global _CARDS
    if _CARDS is None:
        from .cards import load_cardset
        from .ruleset import MonsterMakerRules

        try:
            r = MonsterMakerRules()
            _CARDS = (load_cardset(r.cards, r.treasures, r.prizes), r)
        except Exception:  # texts are a courtesy: lines read without them
            _CARDS = (None, None)
    return _CARDS


def gold(amount: object) -> str:
    """``150 gold`` / ``150 sztuk złota``."""
    n = amount if isinstance(amount, int) else 0
    return _.ngettext("{n} gold", "{n} gold", abs(n)).format(n=amount)


def treasure_gold(name: str) -> str:
    """What a treasure is worth as its card says: ``400 gold``, ``3Dx20 gold``,
    ``400 gold if a die shows 1-3`` (Statue of Goddess)."""
    cs, _rules = cardset()
    if cs is None:
        return ""
    for t in cs.treasures:
        if t.name.casefold() == name.casefold():
            worth = str(t.gold)
            if t.special == "goddess":  # "On a 1,2,or 3, has a value of 400gold"
                return _("{gold} if a die shows 1-3").format(gold=gold(t.gold.fixed))
            if not t.gold.rolled:
                return gold(t.gold.fixed)
            return _("{dice} gold, rolled at the end").format(dice=worth)
    return ""


def prize_gold(name: str) -> int | None:
    """A prize card's gold (the shipped prize cards), None when unknown."""
    cs, _rules = cardset()
    if cs is None:
        return None
    for p in cs.prizes:
        if p.name.casefold() == name.casefold():
            return int(p.gold)
    return None


def with_gold(names: Sequence[str], worthless: Sequence[str] = ()) -> str:
    """``Ring (150 gold), Mystic Map (3Dx20 gold, rolled at the end)``; a
    Statue of Goddess whose die showed 4-6 is ``(worthless)``, not "400 gold if
    a die shows 1-3" (``worthless``: the names known to be worth nothing)."""
    out = []
    for n in names:
        if n in worthless:
            out.append(_("{name} (worthless)").format(name=card(n)))
            continue
        g = treasure_gold(n)
        out.append(_("{name} ({gold})").format(name=card(n), gold=g) if g else shown(n))
    return ", ".join(out)


def monster(name: object, strength: object = None, mtype: object = "") -> str:
    """``Ogre (strength 12, human)``: what a newcomer needs to judge a monster; a
    sentence declines it as it declines the monster's name (``Named``)."""
    if strength is None:
        cs, _rules = cardset()
        known = cs.by_name.get(str(name).casefold()) if cs is not None else None
        if known is not None:
            strength, mtype = known.value, known.mtype
    kind = type_text(mtype)
    # The catalog's phrase with the name left to the sentence: "{monster}" -> "{name}".
    if strength is not None and kind:
        phrase = _("{monster} (strength {n}, {type})").replace("{monster}", "{name}")
        return Named(phrase, card(name), n=strength, type=kind)
    if strength is not None:
        phrase = _("{monster} (strength {n})").replace("{monster}", "{name}")
        return Named(phrase, card(name), n=strength)
    return card(name)


def type_text(mtype: object) -> str:
    if mtype == "human":
        return _("human type")
    if mtype == "undead":
        return _("undead")
    if mtype == "general":
        return _("general type")
    return str(mtype or "")


def _seat(seat: object, names: Names) -> str:
    return seat_label(seat, names) if isinstance(seat, int) else str(seat)


def _seats(seats: object, names: Names) -> str:
    if isinstance(seats, list | tuple):
        return ", ".join(_seat(int(s), names) for s in seats)
    return str(seats)


def worth(rows: Sequence[Sequence[Any]]) -> str:
    """``Ring 150 gold, Mystic Map 120 gold``: what each card brought, as counted."""
    parts = [_("{name}: {gold}").format(name=card(name), gold=gold(g)) for name, g in rows]
    return ", ".join(parts) or _("nothing")


_ENDGAME = {
    "draw_pile": N_("Endgame: the draw pile is exhausted; no more draws, play on from your hand"),
    "someone_home": N_(
        "Endgame: a player has returned from the dungeon; no more draws, "
        "the others must get home with the cards in their hands"
    ),
}


def describe(event: Event, names: Names = None) -> str:
    """The event's line (what the seats that receive it may know)."""
    line = _line(event, names)
    return line[:1].upper() + line[1:]


def _line(event: Event, names: Names) -> str:  # one branch per event kind
    d = event.data
    k = event.kind
    who = _seat(d["seat"], names) if "seat" in d else ""
    if k == "dungeon":
        return _("— Dungeon {n}: the treasure room is at {room}p —").format(
            n=d["number"], room=d["treasure_room"]
        )
    if k == "dealt":
        return _("{player} is dealt {cards}").format(player=who, cards=cards_list(d["cards"]))
    if k == "traps_exchanged":
        n = int(d["count"])
        return _.ngettext(
            "{player} exchanges {n} trap from the opening hand",
            "{player} exchanges {n} traps from the opening hand",
            n,
        ).format(player=who, n=n)
    if k == "first_player":
        rounds = [
            ", ".join(
                _("{player} {roll}").format(player=_seat(int(s), names), roll=v)
                for s, v in r.items()
            )
            for r in d.get("rolls", [])
            if isinstance(r, Mapping)
        ]
        return _("{player} plays first (dice: {rolls})").format(
            player=who, rolls="; ".join(rounds) or _("nobody else")
        )
    if k == "drew":
        if "card" in d:
            return _("{player} draws {card}").format(player=who, card=card(d["card"]))
        return _("{player} draws a card").format(player=who)
    if k == "trap":
        return _("{player} draws a TRAP and shows it to everyone!").format(player=who)
    if k == "trap_empty":
        return _("{player} has no cards for the trap to take").format(player=who)
    if k == "avoided":
        return _("{player} discards a {card} and avoids the trap").format(
            player=who, card=card(d["card"])
        )
    if k == "lost":
        return _("{player} loses {card} to the trap").format(player=who, card=card(d["card"]))
    if k == "corridor":
        if d["leg"] == "out":
            return _("{player} plays a {perch}p corridor ({distance}p in)").format(
                player=who, perch=d["perch"], distance=d["distance"]
            )
        return _(
            "{player} plays a {perch}p corridor on the way back ({distance}/{target}p)"
        ).format(player=who, perch=d["perch"], distance=d["distance"], target=d["target"])
    if k == "treasure_room":
        return _('{player}: "Treasure Room!" at {distance}p').format(
            player=who, distance=d["distance"]
        )
    if k == "treasure":
        if "treasure" not in d:
            return _("{player} draws a treasure card (hidden)").format(player=who)
        name = card(d["treasure"])
        if "roll" in d:  # Statue of Goddess: "On a 1,2,or 3, has a value of 400gold"
            if goddess_keeps(int(d["roll"])):
                return _(
                    "{player} draws the OPEN treasure {treasure} and rolls {roll}: "
                    "it keeps its gold"
                ).format(player=who, treasure=name, roll=d["roll"])
            return _(
                "{player} draws the OPEN treasure {treasure} and rolls {roll}: it is worthless"
            ).format(player=who, treasure=name, roll=d["roll"])
        g = treasure_gold(str(name))
        if d.get("open"):
            if g:
                return _("{player} draws the OPEN treasure {treasure} ({gold})").format(
                    player=who, treasure=name, gold=g
                )
            return _("{player} draws the OPEN treasure {treasure}").format(
                player=who, treasure=name
            )
        if g:
            return _("{player} draws the treasure {treasure} ({gold})").format(
                player=who, treasure=name, gold=g
            )
        return _("{player} draws the treasure {treasure}").format(player=who, treasure=name)
    if k == "no_treasure":
        return _("{player} finds the treasure pile empty").format(player=who)
    if k == "set_aside":
        return _("{treasure} was drawn a second time and is set aside").format(
            treasure=card(d["treasure"])
        )
    if k == "door":
        return _("{player} opens the Secret Door with a {card}").format(
            player=who, card=card(d["card"])
        )
    if k == "monster":
        return _("{player} places {monster} before {target}").format(
            player=who,
            monster=monster(d["monster"], d.get("strength"), d.get("type")),
            target=_seat(d["target"], names),
        )
    if k == "fight":
        return _("{player} fights {monster}").format(
            player=who, monster=monster(d["monster"], d.get("strength"), d.get("type"))
        )
    if k == "joins":
        return _("  {card} joins the battle").format(card=card(d["card"]))
    if k == "cast":
        return _("  {character} casts {spell}").format(
            character=card(d["by"]), spell=card(d["spell"])
        )
    if k == "wield":
        return _("  {character} wields the {treasure}").format(
            character=card(d["by"]), treasure=card(d["treasure"])
        )
    if k == "battle":
        return _battle(d, who)
    if k == "dispel":
        by = d.get("card") or d.get("treasure")
        return _("{player} dispels the undead {monster} with {card}").format(
            player=who, monster=card(d["monster"]), card=card(by)
        )
    if k == "detour":
        if d.get("removed"):
            return _("{player} takes a detour around {monster}, losing a {perch}p corridor").format(
                player=who, monster=card(d["monster"]), perch=d["removed"]
            )
        return _("{player} takes a detour around {monster}").format(
            player=who, monster=card(d["monster"])
        )
    if k == "heal":
        return _('{player}: "Heal!" — takes back the {card}').format(
            player=who, card=card(d["card"])
        )
    if k == "sent":
        return _("{player} sends the charmed {monster} before {target}").format(
            player=who, monster=card(d["monster"]), target=_seat(d["target"], names)
        )
    if k == "discard":
        return _("{player} discards {card}").format(player=who, card=card(d["card"]))
    if k == "pass":
        return _("{player} passes").format(player=who)
    if k == "home":
        treasures = with_gold(d.get("treasures") or [], d.get("worthless") or []) or _("nothing")
        if d.get("prize"):
            worth_ = prize_gold(str(d["prize"]))
            if worth_ is not None:
                return _(
                    "{player} returns from the dungeon with {treasures}; "
                    "first home: a prize card worth {gold}"
                ).format(player=who, treasures=treasures, gold=gold(worth_))
            return _(
                "{player} returns from the dungeon with {treasures}; first home: prize {prize}"
            ).format(player=who, treasures=treasures, prize=card(d["prize"]))
        return _("{player} returns from the dungeon with {treasures}").format(
            player=who, treasures=treasures
        )
    if k == "endgame":
        cause = d.get("cause")
        if cause in _ENDGAME:
            return _(_ENDGAME[str(cause)])
        return _("Endgame: no more draws ({reason})").format(reason=d.get("reason", ""))
    if k == "died":
        n = int(d.get("returned") or 0)
        if d.get("cause") == "out_of_cards":
            text = _.ngettext(
                "{player} runs out of cards and dies in the dungeon; {n} treasure goes back",
                "{player} runs out of cards and dies in the dungeon; {n} treasures go back",
                n,
            )
        elif d.get("cause") == "stuck":
            text = _.ngettext(
                "{player} cannot return and dies in the dungeon; {n} treasure goes back",
                "{player} cannot return and dies in the dungeon; {n} treasures go back",
                n,
            )
        else:
            text = _.ngettext(
                "{player} dies in the dungeon; {n} treasure goes back",
                "{player} dies in the dungeon; {n} treasures go back",
                n,
            )
        return text.format(player=who, n=n)
    if k == "dungeon_end":
        return _dungeon_end(d, names)
    if k == "game_over":
        return _game_over(d, names)
    parts = ", ".join(f"{a} {b}" for a, b in d.items() if not isinstance(b, list | dict))
    return f"{k.replace('_', ' ')}: {parts}" if parts else k.replace("_", " ")


def _battle(d: Mapping[str, Any], who: str) -> str:
    """``Ala WINS against Ogre (12): Fighter 3D+3 rolled 11 = 14; … → 15``."""
    parts = []
    for r in d["party"]:
        if "roll" in r and "spell" in r:
            text = _(
                "{card} {dice} rolled {roll} + {spell} {spell_dice} rolled {spell_roll}"
                " = {strength}"
            )
        elif "roll" in r:
            text = _("{card} {dice} rolled {roll} = {strength}")
        elif "spell_roll" in r:  # Charm alone: only its dice count, not the caster's
            text = _(
                "{card} with {spell} alone: {spell_dice} rolled {spell_roll} = {strength}"
                " ({card}'s own strength does not count)"
            )
        elif "spell" in r:  # a record's battle from before the roll was logged
            text = _("{card} with {spell} alone = {strength}")
        else:
            text = _("{card} = {strength}")
        part = text.format(
            card=card(r["card"]),
            dice=r.get("dice", ""),
            roll=r.get("roll", ""),
            spell=card(r.get("spell", "")),
            spell_dice=r.get("spell_dice", ""),
            spell_roll=r.get("spell_roll", r["strength"]),
            strength=r["strength"],
        )
        if "weapon" in r:
            part = _("{member} (with the {weapon})").format(member=part, weapon=card(r["weapon"]))
        parts.append(part)
    party = "; ".join(parts)
    if d.get("penalty"):
        party = _("{party}; −{n} for the Royal Princess").format(party=party, n=d["penalty"])
    if d["won"]:
        text = _("{player} WINS against {monster} ({strength}): {party} → total {total}")
    else:
        text = _("{player} loses against {monster} ({strength}): {party} → total {total}")
    return text.format(
        player=who,
        monster=card(d["monster"]),
        strength=d["monster_strength"],
        party=party,
        total=d["total"],
    )


def _dungeon_end(d: Mapping[str, Any], names: Names) -> str:
    home = _seats(d.get("home") or [], names) or _("nobody")
    detail = d.get("detail") or {}
    if not detail:
        return _("Dungeon {n} is over; home: {home}").format(n=d["number"], home=home)
    # victory=dungeons: what each brought home, dice as rolled.
    each = "; ".join(
        _("{player} {gold} ({worth})").format(
            player=_seat(int(s), names), gold=gold(d["gold"][int(s)]), worth=worth(rows)
        )
        for s, rows in detail.items()
    )
    return _("Dungeon {n} is over; home: {home}; brought home: {each}; won by {winners}").format(
        n=d["number"], home=home, each=each, winners=_seats(d.get("winners") or [], names)
    )


def end_reason(d: Mapping[str, Any]) -> str:
    """Why the game ended, in a whole clause."""
    cause = d.get("cause")
    if cause == "treasures":
        return _("the treasure cards are exhausted")
    if cause == "prizes":
        return _("the prize cards are exhausted")
    if cause == "max_dungeons":
        n = int(d.get("dungeons") or 0)
        return _.ngettext("{n} dungeon played", "{n} dungeons played", n).format(n=n)
    if cause == "guard":
        return _("the dungeon guard stopped a game that could not end")
    return str(d.get("reason", ""))


def _game_over(d: Mapping[str, Any], names: Names) -> str:
    golds = ", ".join(
        _("{player} {gold}").format(player=_seat(s, names), gold=gold(g))
        for s, g in enumerate(d["gold"])
    )
    if d.get("victory") == "dungeons":
        wins = ", ".join(
            _("{player} {n}").format(player=_seat(s, names), n=int(w))
            for s, w in enumerate(d["scores"])
        )
        return _("Game over ({reason}): dungeon wins {wins}; gold {golds}").format(
            reason=end_reason(d), wins=wins, golds=golds
        )
    return _("Game over ({reason}): {golds}").format(reason=end_reason(d), golds=golds)


# -- what a button or a terminal choice says for each action (``bestiary.i18n.labels``) --
ACTION_LABELS = patterns(
    [
        (r"pass", N_("pass")),
        (r"roll", N_("roll the dice")),
        (r"end turn", N_("end the turn")),
        (r"detour", N_("take a detour")),
        (r"leave door", N_("leave the door shut")),
        (r"discard (?P<card>.+)", N_("discard {card}")),
        (r"play (?P<card>.+)", N_("play {card}")),
        (r"fight with (?P<card>.+)", N_("fight with {card}")),
        (r"lose (?P<card>.+)", N_("lose {card} to the trap")),
        (r"heal (?P<card>.+)", N_("heal {card}")),
        (r"dispel with (?P<card>.+)", N_("dispel the undead with {card}")),
        (r"open door with (?P<card>.+)", N_("open the door with {card}")),
        (r"avoid trap with (?P<card>.+)", N_("avoid the trap with {card}")),
        (r"place (?P<card>.+) before seat (?P<seat>\d+)", N_("place {card} before {seat}")),
        (r"send monster to seat (?P<seat>\d+)", N_("send the monster to {seat}")),
        (r"cast (?P<card>.+) by (?P<by>.+)", N_("{by} casts {card}")),
        (r"wield (?P<card>.+) by (?P<by>.+)", N_("{by} wields {card}")),
    ]
)


def action_label(action: object, names: Names = None) -> str:
    """The action as a person reads it, in the current language (the text form
    ``str(action)`` stays what is submitted)."""
    seats = name_seats(names)

    def fill(group: str, value: str) -> object:
        # A card (or the character who casts or wields) is a name the phrase declines.
        return card(value) if group in ("card", "by") else seats(group, value)

    return label_with(str(action), ACTION_LABELS, _, fill)
