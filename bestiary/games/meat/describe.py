"""One log line per event (``describe_event``), in the current language.

Every line is a whole sentence with named placeholders, looked up in this
package's catalog (``locale/pl/LC_MESSAGES/meat.po``); seats are named as the
table names them (``seat_label``), teams by their members, and a creature by
its card and place. A line says only what its event carries: the event's
visibility decides who may read it, so nothing hidden is added here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bestiary.engine import Event
from bestiary.engine.events import seat_label
from bestiary.i18n import N_, domain
from bestiary.i18n.labels import label_with, patterns

from .cards import LANES

_ = domain("meat", __file__)

Names = Sequence[str] | None

# The manual's positions: "LEWA FLANKA, FRONT, PRAWA FLANKA".
LANE_TEXT = {"left": N_("left flank"), "front": N_("front"), "right": N_("right flank")}
# The manual's keywords (REFLEKS, TOKSYNA, CIĘCIE, WYZWANIE).
KEYWORD_TEXT = {
    "REFLEX": N_("REFLEX"),
    "TOXIN": N_("TOXIN"),
    "CLEAVE": N_("CLEAVE"),
    "CHALLENGE": N_("CHALLENGE"),
}


def lane_text(lane: object) -> str:
    """A lane by its index or English key, in the current language."""
    if isinstance(lane, int) and 0 <= lane < len(LANES):
        lane = LANES[lane]
    return _(LANE_TEXT.get(str(lane), str(lane)))


def keyword_text(keyword: object) -> str:
    return _(KEYWORD_TEXT.get(str(keyword), str(keyword)))


def _seat(seat: object, names: Names) -> str:
    return seat_label(seat, names) if isinstance(seat, int) else str(seat)


def and_list(items: Sequence[str]) -> str:
    """``Ala``, ``Ala and Ola``, ``Ala, Ola and Ela``."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def side(seats: object, names: Names, team: object = None) -> str:
    """A side of the table: its only player in 1v1, "the team of Ala and Ola" in
    2v2/3v3 (events carry their team's seats); "team N" when they do not."""
    if not (isinstance(seats, list | tuple) and seats) and isinstance(team, int) and names:
        seats = list(range(team, len(names), 2))  # seats alternate between the teams
    if isinstance(seats, list | tuple) and seats:
        labels = [_seat(s, names) for s in seats]
        if len(labels) == 1:
            return labels[0]
        return _("the team of {players}").format(players=and_list(labels))
    return _("team {n}").format(n=team)


def place(slot: object, names: Names) -> str:
    """``Bob's front`` for a slot (seat * 3 + lane)."""
    if not isinstance(slot, int) or slot < 0:
        return _("nowhere")
    seat, lane = divmod(slot, 3)
    return possessive(_seat(seat, names), lane_text(lane))


def possessive(player: str, thing: str) -> str:
    """``Bob's front``; ``the front of seat 0 (you)`` where a name ends in a
    bracket ("seat 0 (you)'s front" reads badly)."""
    if player.endswith(")"):
        return _("the {lane} of {player}").format(player=player, lane=thing)
    return _("{player}'s {lane}").format(player=player, lane=thing)


def creature(card: object, slot: object, names: Names) -> str:
    """``Rzeźnik (Bob's front)``; a face-down creature is named by its place only."""
    if card:
        return _("{card} ({place})").format(card=_.noun(card), place=place(slot, names))
    return _("the face-down creature on {place}").format(place=place(slot, names))


def _order(order: object, names: Names) -> str:
    """``[1, 0]`` -> ``Bob, then Ala``: an order in words, never a list."""
    if isinstance(order, list | tuple):
        return _(", then ").join(_seat(s, names) for s in order)
    return str(order)


def _rolls(rolls: Mapping[str, Any], names: Names) -> str:
    parts = []
    for s, r in rolls.items():
        dice = "/".join(map(str, r)) if isinstance(r, list | tuple) else str(r)
        parts.append(_("{player} {dice}").format(player=_seat(int(s), names), dice=dice))
    return ", ".join(parts)


def _cards(cards: object) -> str:
    if isinstance(cards, list | tuple):
        return ", ".join(str(c) for c in cards) or _("none")
    return str(cards)


def _by(text: str, source: object) -> str:
    """Adds the card that caused an effect: ``… (Krwawy Grom)``."""
    if source and source != "summary":
        return _("{what} ({source})").format(what=text, source=source)
    return text


_ROLLS_FOR = {
    "leaders": N_("Dice for the choice of leaders: {rolls}; they choose in this order: {order}"),
    "draft": N_("Dice for the draft: {rolls}; they draft in this order: {order}"),
    "first side": N_("Dice for who starts the Activation: {rolls}; {first} starts"),
    "death order": N_("Dice for the order of death abilities: {rolls}; first {order}"),
}


def describe(e: Event, names: Names = None) -> str:
    """The event's line; a sentence starts with a capital (``The team of …``)."""
    line = _line(e, names)
    return line[:1].upper() + line[1:]


def _line(e: Event, names: Names) -> str:
    d = e.data
    k = e.kind
    who = _seat(d["seat"], names) if "seat" in d else ""
    src = d.get("source")
    if k == "rolled":
        rolls = _rolls(d.get("rolls", {}), names)
        why = d.get("why")
        if why == "first side":  # the two sides roll, not the players
            order = d.get("order") or [0]
            sides = ", ".join(
                _("{player} {dice}").format(
                    player=side(None, names, int(t)), dice="/".join(map(str, r))
                )
                for t, r in d.get("rolls", {}).items()
            )
            first_side = _ROLLS_FOR["first side"]
            return _(first_side).format(rolls=sides, first=side(None, names, order[0]))
        text = _ROLLS_FOR.get(str(why), N_("Dice: {rolls}; order: {order}"))
        return _(text).format(rolls=rolls, order=_order(d.get("order"), names))
    if k == "leader":
        return _("{player} takes the leader {leader}").format(
            player=who, leader=_.noun(d["leader"])
        )
    if k == "round":
        tel = d.get("telestarion")
        if isinstance(tel, list | tuple):
            each = ", ".join(
                _("{player} {amount}").format(player=_seat(s, names), amount=v)
                for s, v in enumerate(tel)
            )
        else:
            each = str(tel)
        return _("— Round {n}: Opening. Telestarion for the round: {each} —").format(
            n=d["round"], each=each
        )
    if k == "draft_row":
        return _("Draft row: {cards}").format(cards=_cards(d["cards"]))
    if k == "drafted":
        return _.ngettext(
            "{player} drafts {card} for {paid} Telestarion",
            "{player} drafts {card} for {paid} Telestarion",
            int(d["paid"]),
        ).format(player=who, card=_.noun(d["card"]), paid=d["paid"])
    if k == "to_graveyard":
        return _("Left in the draft, to the creature graveyard: {cards}").format(
            cards=_cards(d["cards"])
        )
    if k == "drew":
        n = int(d["count"])
        if d.get("deck") == "creature":
            text = _.ngettext(
                "{player} draws {n} creature card", "{player} draws {n} creature cards", n
            )
        else:
            text = _.ngettext(
                "{player} draws {n} destiny card", "{player} draws {n} destiny cards", n
            )
        return text.format(player=who, n=n)
    if k == "drew_cards":
        return _("  ({player} drew {cards})").format(player=who, cards=_cards(d["cards"]))
    if k == "deck_rebuilt":
        n = int(d["size"])
        if d.get("deck") == "creature":
            text = _.ngettext(
                "The creature deck is rebuilt from its graveyard ({n} card)",
                "The creature deck is rebuilt from its graveyard ({n} cards)",
                n,
            )
        else:
            text = _.ngettext(
                "The destiny deck is rebuilt from its graveyard ({n} card)",
                "The destiny deck is rebuilt from its graveyard ({n} cards)",
                n,
            )
        return text.format(n=n)
    if k == "discarded":
        return _("{player} discards {card} (hand limit)").format(player=who, card=_.noun(d["card"]))
    if k == "tactics":
        return _("Tactics: everyone places creatures and destiny cards face down")
    if k == "placing":
        return _("  ({player} places {card} on the {lane})").format(
            player=who, card=_.noun(d["card"]), lane=lane_text(d["lane"])
        )
    if k == "setting":
        return _("  ({player} sets {card} face down)").format(player=who, card=_.noun(d["card"]))
    if k == "ready":
        return _("{player} is ready").format(player=who)
    if k == "face_down":
        lanes = [lane_text(x) for x in d.get("lanes", [])]
        n = int(d.get("destiny", 0))
        if not lanes:
            text = _.ngettext(
                "{player}: no creature, {n} destiny card face down",
                "{player}: no creature, {n} destiny cards face down",
                n,
            )
            return text.format(player=who, n=n)
        text = _.ngettext(
            "{player}: creatures face down on {lanes}, {n} destiny card",
            "{player}: creatures face down on {lanes}, {n} destiny cards",
            n,
        )
        return text.format(player=who, lanes=and_list(lanes), n=n)
    if k == "window":
        if d.get("what") == "battle":
            return _("INSTANT window before the battle: each player may cast an INSTANT or pass")
        return _("INSTANT window after the Tactics: each player may cast an INSTANT or pass")
    if k == "revealed":
        shown = [
            creature(c.get("card"), c.get("slot"), names)
            for c in d.get("creatures", [])
            if isinstance(c, Mapping)
        ]
        destiny = [
            _("{player}: {cards}").format(player=_seat(int(s), names), cards=_cards(cards))
            for s, cards in (d.get("destiny") or {}).items()
            if cards
        ]
        return _("All cards are turned face up. Creatures: {creatures}. Destiny: {destiny}").format(
            creatures=", ".join(shown) or _("none"), destiny="; ".join(destiny) or _("none")
        )
    if k == "reveal_ability":
        return _("REVEAL: {creature}").format(creature=creature(d["card"], d["slot"], names))
    if k == "paid":
        return _.ngettext(
            "{player} pays {cost} Telestarion for {card}",
            "{player} pays {cost} Telestarion for {card}",
            int(d["cost"]),
        ).format(player=who, cost=d["cost"], card=_.noun(d["card"]))
    if k == "unpaid":
        return _("{player} cannot pay for {card}: it goes to the destiny graveyard").format(
            player=who, card=_.noun(d["card"])
        )
    if k == "activation":
        return _("Activation: {side} acts first (less vitality, or the dice)").format(
            side=side(d.get("seats"), names, d.get("first_team"))
        )
    if k == "ability":
        target = d.get("target", -1)
        if isinstance(target, int) and target >= 0:
            return _("{player} uses the ♦ ability of {card} ({lane}) on {target}").format(
                player=who,
                card=_.noun(d["card"]),
                lane=lane_text(d["lane"]),
                target=creature(d.get("target_card"), target, names),
            )
        return _("{player} uses the ♦ ability of {card} ({lane})").format(
            player=who, card=_.noun(d["card"]), lane=lane_text(d["lane"])
        )
    if k == "cast":
        target = d.get("target", -1)
        if isinstance(target, int) and target >= 0:
            return _("{player} casts the INSTANT {card} on {target}").format(
                player=who,
                card=_.noun(d["card"]),
                target=creature(d.get("target_card"), target, names),
            )
        return _("{player} casts the INSTANT {card}").format(player=who, card=_.noun(d["card"]))
    if k == "resolved":
        target = d.get("target", -1)
        if isinstance(target, int) and target >= 0:
            return _("{card} resolves on {target}").format(
                card=_.noun(d["card"]), target=creature(d.get("target_card"), target, names)
            )
        return _("{card} resolves").format(card=_.noun(d["card"]))
    if k == "fizzled":
        return _("{card} lost its target and fizzles").format(card=_.noun(d["card"]))
    if k == "countered":
        return _("{card} cancels {spell}").format(card=_.noun(d["card"]), spell=_.noun(d["spell"]))
    if k == "attached":
        # FUSION equipment fuses with a creature; the rest is simply put on
        # (a record from before the flag said "fuses" for both).
        text = (
            _("{player} fuses {card} with {target}")
            if d.get("fusion", True)
            else _("{player} equips {target} with {card}")
        )
        return text.format(
            player=who,
            card=_.noun(d["card"]),
            target=creature(d.get("target_card"), d["target"], names),
        )
    if k == "fired":
        # "seat 0 (you)'s Okrzyk Bojowy" reads badly, as in possessive()
        text = (
            _("{card} of {player} fires by itself")
            if who.endswith(")")
            else _("{player}'s {card} fires by itself")
        )
        return text.format(player=who, card=_.noun(d["card"]))
    if k == "passed":
        if d.get("forced"):  # pass was the only move: nothing left to play or pay for
            return _("{player} has no play left and passes: no more activations this round").format(
                player=who
            )
        return _("{player} passes: no more activations this round").format(player=who)
    if k == "challenged":
        return _("CHALLENGE: {challenger} takes the damage aimed at {aimed} ({source})").format(
            challenger=creature(d.get("card"), d["slot"], names),
            aimed=creature(d.get("aimed_card"), d["aimed"], names),
            source=src or "",
        )
    if k == "damaged":
        victim = creature(d.get("card"), d["slot"], names)
        n = d["amount"]
        if d.get("toxin"):
            if src:
                return _("{source} deals {n} to {victim} (TOXIN: it is fatal)").format(
                    source=src, n=n, victim=victim
                )
            return _("{victim} takes {n} (TOXIN: it is fatal)").format(victim=victim, n=n)
        if src:
            return _("{source} deals {n} to {victim}").format(source=src, n=n, victim=victim)
        return _("{victim} takes {n}").format(victim=victim, n=n)
    if k == "buffed":
        who_ = creature(d.get("card"), d["slot"], names)
        atk, dfc = int(d["attack"]), int(d["defence"])
        if atk and dfc:
            text = _("{creature} gets {attack:+d} attack and {defence:+d} defence")
        elif atk:
            text = _("{creature} gets {attack:+d} attack")
        else:
            text = _("{creature} gets {defence:+d} defence")
        return _by(text.format(creature=who_, attack=atk, defence=dfc), src)
    if k == "granted":
        return _by(
            _("{creature} gains {keyword}").format(
                creature=creature(d.get("card"), d["slot"], names),
                keyword=keyword_text(d["keyword"]),
            ),
            src,
        )
    if k == "healed":
        return _by(
            _("{creature} heals {n}").format(
                creature=creature(d.get("card"), d["slot"], names), n=d["amount"]
            ),
            src,
        )
    if k == "destroyed":
        return _by(
            _("{creature} is destroyed").format(creature=creature(d.get("card"), d["slot"], names)),
            src,
        )
    if k == "moved":
        card = d.get("card")
        if card:
            text = _("{player}'s {card} moves from the {src} to the {dest}").format(
                player=who, card=_.noun(card), src=lane_text(d["src"]), dest=lane_text(d["dest"])
            )
        else:
            text = _("{player}'s face-down creature moves from the {src} to the {dest}").format(
                player=who, src=lane_text(d["src"]), dest=lane_text(d["dest"])
            )
        return _by(text, src)
    if k == "returned":
        if "card" not in d:
            return _("The face-down creature on {place} returns to its owner's hand").format(
                place=place(d["slot"], names)
            )
        return _("{creature} returns to its owner's hand").format(
            creature=creature(d["card"], d["slot"], names)
        )
    if k == "returned_card":
        return _("  (it was {card})").format(card=_.noun(d["card"]))
    if k == "died":
        return _("{creature} dies and goes to the creature graveyard").format(
            creature=creature(d["card"], d["slot"], names)
        )
    if k == "gain":
        return _by(
            _.ngettext(
                "{player} gains {n} Telestarion", "{player} gains {n} Telestarion", int(d["amount"])
            ).format(player=who, n=d["amount"]),
            src,
        )
    if k == "vitality":
        delta = int(d["delta"])
        whose = side(d.get("seats"), names, d.get("team"))
        before = d.get("before", int(d["vitality"]) - delta)
        if delta < 0 and int(d["vitality"]) <= 0:
            # "0 or less loses the game": a count below 0 is the blow's size, so say
            # what it means rather than leave a player wondering at "1 → -9".
            text = _("{side} loses {n} vitality: {before} → {after}, none left").format(
                side=whose, n=-delta, before=before, after=d["vitality"]
            )
        elif delta < 0:
            text = _("{side} loses {n} vitality: {before} → {after}").format(
                side=whose, n=-delta, before=before, after=d["vitality"]
            )
        else:
            text = _("{side} regains {n} vitality: {before} → {after}").format(
                side=whose, n=delta, before=before, after=d["vitality"]
            )
        return _by(text, src)
    if k == "battle":
        return _("Battle! Creatures strike the creatures facing them")
    if k == "reflex":
        cards = list(d.get("cards") or [])
        return _.ngettext(
            "REFLEX: {cards} strikes first", "REFLEX: {cards} strike first", len(cards)
        ).format(cards=and_list([str(c) for c in cards]))
    if k == "unopposed":
        return _("{creature} has no creature opposite and does not attack").format(
            creature=creature(d.get("card"), d["slot"], names)
        )
    if k == "summary":
        return _summary(d, names)
    if k == "game_over":
        w = d["winner"]
        teams = d.get("teams") or [None, None]
        if w < 0:
            return _("The game ends in a draw")
        return _("{side} wins the game").format(side=side(teams[w], names, w))
    parts = ", ".join(f"{a} {b}" for a, b in d.items() if not isinstance(b, list | dict))
    return f"{k.replace('_', ' ')}: {parts}" if parts else k.replace("_", " ")


def _summary(d: Mapping[str, Any], names: Names) -> str:
    teams = d.get("teams") or [None, None]
    alive = list(d.get("alive") or [0, 0])
    defence = list(d.get("defence") or [0, 0])
    w = d["winner"]
    if w < 0:
        return _(
            "Summary: the round is drawn ({a} creatures against {b}, defence {da} against {db})"
        ).format(a=alive[0], b=alive[1], da=defence[0], db=defence[1])
    dice = [int(x) for x in d.get("dice") or []]
    bonus = int(d.get("bonus") or 0)
    won = _.ngettext(
        "Summary: {side} wins the round with {n} creature left against {m}",
        "Summary: {side} wins the round with {n} creatures left against {m}",
        alive[w],
    ).format(side=side(teams[w], names, w), n=alive[w], m=alive[w ^ 1])
    if alive[0] == alive[1]:
        won = _("{won} (more defence: {d} against {e})").format(
            won=won, d=defence[w], e=defence[w ^ 1]
        )
    total = sum(dice) + bonus
    rolled = " + ".join(map(str, dice)) or "0"
    if bonus:
        return _("{won}; damage: dice {dice} + leader bonus {bonus} = {total}").format(
            won=won, dice=rolled, bonus=bonus, total=total
        )
    return _("{won}; damage: dice {dice} = {total}").format(won=won, dice=rolled, total=total)


# -- what a button or a terminal choice says for each action (``bestiary.i18n.labels``) --
_LANE_RX = "(?P<lane>left|front|right)"
_TARGET_RX = r" @ s(?P<seat>\d+) (?P<at>left|front|right)"
ACTION_LABELS = patterns(
    [
        (r"leader (?P<card>.+)", N_("take {card} as your leader")),
        (r"draft (?P<card>.+)", N_("draft {card}")),
        (rf"place (?P<card>.+) {_LANE_RX}", N_("place {card} on the {lane}")),
        (r"done", N_("done placing")),
        (r"set (?P<card>.+)", N_("set {card} face down")),
        (r"discard (?P<card>.+)", N_("discard {card}")),
        (r"pass", N_("pass")),
        (rf"cast (?P<card>.+?){_TARGET_RX}", N_("cast {card} on {target}")),
        (r"cast (?P<card>.+)", N_("cast {card}")),
        (rf"resolve (?P<card>.+?){_TARGET_RX}", N_("resolve {card} on {target}")),
        (r"resolve (?P<card>.+)", N_("resolve {card}")),
        (r"pay (?P<card>.+)", N_("pay for {card}")),
        (
            rf"ability {_LANE_RX}{_TARGET_RX}",
            N_("use the ♦ ability of your creature on the {lane} at {target}"),
        ),
        (rf"ability {_LANE_RX}", N_("use the ♦ ability of your creature on the {lane}")),
    ]
)
_LANE_INDEX = {name: i for i, name in enumerate(LANES)}


def action_label(action: object, names: Names = None) -> str:
    """The action as a person reads it, in the current language (the text form
    ``str(action)`` stays what is submitted); a card is a name the Polish
    phrase declines (``połóż Rekruta``), a target is a place."""
    text = str(action)
    m = re.search(_TARGET_RX + "$", text)
    target = place(int(m["seat"]) * 3 + _LANE_INDEX[m["at"]], names) if m else ""

    def fill(key: str, value: str) -> object:
        if key == "card":
            return _.noun(value)
        if key == "lane":
            return lane_text(value)
        return value

    return label_with(text, ACTION_LABELS, _, fill, target=target)
