"""One log line per taxonomy event, in the current language (``bestiary.i18n``).

Every line is a whole sentence of the catalog (``locale/pl/LC_MESSAGES/taxonomy.po``)
with named placeholders; seats are named the way the table names them
(``seat_label``), cards by name with their natures, lists in words ("Ann and
Bob"), never as Python data. A line says only what its event carries: the
event's visibility already decides who may read it.

Card names, types and families are the designer's data and stay as the card
file spells them (the rulebook's taxonomy is in English only); the game's own
words — natures, rock-paper-scissors, patterns, reasons — are translated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...engine.events import Event, name_seats, seat_label
from ...i18n import N_, domain
from ...i18n.labels import label_with, patterns

_ = domain("taxonomy", __file__)
Names = Sequence[str] | None

# The natures as the rulebook names them (v0.2): "Agresywna/przemocowa",
# "Wesoła", "Niemiła/złośliwa", "Szczera", "Niecierpliwa", "Dumna/silna",
# "Oddana/lojalna", "Różna".
NATURES: dict[str, str] = {
    "aggressive": N_("aggressive"),
    "cheerful": N_("cheerful"),
    "mean": N_("mean"),
    "honest": N_("honest"),
    "impatient": N_("impatient"),
    "proud": N_("proud"),
    "loyal": N_("loyal"),
    "miscellaneous": N_("miscellaneous"),
    "none": N_("no effect"),
}
RPS: dict[str, str] = {"rock": N_("rock"), "paper": N_("paper"), "scissors": N_("scissors")}
PATTERNS: dict[str, str] = {
    "4+4": N_("two sets of 4"),
    "5+3": N_("a set of 5 and a set of 3"),
    "8": N_("a set of 8"),
}
REASONS: dict[str, str] = {
    "the stock ran out": N_("the stock ran out"),
    "a winning hand": N_("a winning hand"),
}


def nature_label(nature: str) -> str:
    return _(NATURES[nature]) if nature in NATURES else nature


def card_label(card: Any) -> str:
    """``Kappa (mean)``: the card's name, then its natures (each once)."""
    if not isinstance(card, Mapping):
        return str(card)
    natures = list(dict.fromkeys(str(n) for n in card.get("natures") or []))
    if not natures:
        return str(card.get("name", "?"))
    return _("{card} ({natures})").format(
        card=card.get("name", "?"), natures=", ".join(nature_label(n) for n in natures)
    )


def cards_label(cards: Any) -> str:
    return ", ".join(card_label(c) for c in cards or []) or _("no cards")


def join(items: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _("{list} and {last}").format(list=", ".join(items[:-1]), last=items[-1])


def points_text(points: Any) -> str:
    n = int(points) if float(points).is_integer() else points
    return _.ngettext("{n} point", "{n} points", int(n)).format(n=n)


def pattern_label(pattern: Any) -> str:
    return _(PATTERNS[pattern]) if pattern in PATTERNS else str(pattern)


def reason_label(reason: Any) -> str:
    return _(REASONS[reason]) if reason in REASONS else str(reason)


def rps_label(choice: Any) -> str:
    return _(RPS[choice]) if choice in RPS else str(choice)


def scores_line(scores: Sequence[float], names: Names) -> str:
    """``Ann 4, Bob 4, Cy 0``."""
    return ", ".join(
        _("{name} {points}").format(name=seat_label(s, names), points=f"{float(p):g}")
        for s, p in enumerate(scores)
    )


def winners_line(winners: Sequence[int], names: Names) -> str:
    who = [seat_label(s, names) for s in winners]
    if len(who) == 1:
        line = _("{name} wins").format(name=who[0])
    else:
        line = _("{names} share the win").format(names=join(who))
    return line[:1].upper() + line[1:]  # it follows a full stop


# The scoring breakdown's rows (scoring.py writes them in English words); each
# pattern below is one row template, so the Polish screen says the same.
_CLAIMS = re.compile(r"^(no claims|1 claim|(\d+) claims)$")


def _claims(text: str) -> str | None:
    m = _CLAIMS.match(text)
    if m is None:
        return None
    n = 0 if text == "no claims" else 1 if text == "1 claim" else int(m.group(2))
    if n == 0:
        return _("no claims")
    return _.ngettext("{n} claim", "{n} claims", n).format(n=n)


# The sets the rules themselves make; every other key is a type or a Beastman's
# family from the card file, a proper name shown as the file writes it.
_RULE_KEYS = {
    "Orphans": N_("Orphans"),
    "Beastman orphans": N_("Beastman orphans"),
    "Cheerful": N_("Cheerful"),
}


def key_label(key: object) -> str:
    """A collecting key as a player reads it: "Orphans" is "Sieroty" in Polish;
    "Beastman/Cat" or "Sprite" stays as the card file names it."""
    phrase = _RULE_KEYS.get(str(key))
    return _(phrase) if phrase else str(key)


def rule_text(rule: str) -> str:
    """A breakdown row of the scoring (``scoring.py``) in the current language."""
    m = re.match(r"^(two sets of 4|a set of 5 and a set of 3), (.+)$", rule)
    if m and (claims := _claims(m.group(2))) is not None:
        what = "4+4" if m.group(1) == "two sets of 4" else "5+3"
        return _("{pattern}, {claims}").format(pattern=pattern_label(what), claims=claims)
    if rule == "a set of 8, concealed (no claims)":
        return _("a set of 8, concealed (no claims)")
    m = re.match(r"^a set of 8, exposed \((.+)\)$", rule)
    if m and (claims := _claims(m.group(1))) is not None:
        return _("a set of 8, exposed ({claims})").format(claims=claims)
    m = re.match(r"^set of (\d) (.+) \(a key of (\d+) cards\)(, scored as a set of 4)?$", rule)
    if m:
        size, key, n = int(m.group(1)), key_label(m.group(2)), int(m.group(3))
        if m.group(4):
            return _.ngettext(
                "set of 5 {key} (a key of {n} card), scored as a set of 4",
                "set of 5 {key} (a key of {n} cards), scored as a set of 4",
                n,
            ).format(key=key, n=n)
        return _.ngettext(
            "set of {size} {key} (a key of {n} card)", "set of {size} {key} (a key of {n} cards)", n
        ).format(size=size, key=key, n=n)
    m = re.match(r"^set of 3 (.+) \(the 3 of a 5\+3\)$", rule)
    if m:
        return _("set of 3 {key} (the 3 of a 5+3)").format(key=key_label(m.group(1)))
    m = re.match(r"^(7 orphans and one other monster|a set of 8 orphans) \((.+)\)$", rule)
    if m:
        if m.group(1).startswith("7"):
            return _("7 orphans and one other monster ({key})").format(
                key=key_label(m.group(2))
            )
        return _("a set of 8 orphans ({key})").format(key=key_label(m.group(2)))
    m = re.match(r"^set of 4 (.+)$", rule)
    if m:
        return _("set of 4 {key}").format(key=key_label(m.group(1)))
    return rule


# -- the lines --------------------------------------------------------------------
def _discarded(d: Mapping[str, Any], names: Names) -> str:
    who, card = seat_label(d["seat"], names), card_label(d["card"])
    why, aside = d.get("why"), bool(d.get("aside"))
    if why == "mean":
        if aside:
            return _(
                "A mean monster takes revenge: {name} loses {card} at random and sets it aside"
            ).format(name=who, card=card)
        return _("A mean monster takes revenge: {name} discards {card} at random").format(
            name=who, card=card
        )
    if why == "cheerful":
        if aside:
            return _("{name} sets {card} aside: cheerful monsters leave together").format(
                name=who, card=card
            )
        return _("{name} discards {card}: cheerful monsters leave together").format(
            name=who, card=card
        )
    if why == "proud":
        if aside:
            return _("{name} sets {card} aside: it follows the proud monster").format(
                name=who, card=card
            )
        return _("{name} discards {card}: it follows the proud monster").format(name=who, card=card)
    if aside:
        return _("{name} sets {card} aside").format(name=who, card=card)
    return _("{name} discards {card}").format(name=who, card=card)


def _rps(d: Mapping[str, Any], names: Names) -> str:
    a, t = seat_label(d["attacker"], names), seat_label(d["target"], names)
    ca, ct = (rps_label(c) for c in d["choices"])
    if d.get("loser") is None:
        return _("Rock-paper-scissors: {attacker} and {target} both play {choice}, a tie").format(
            attacker=a, target=t, choice=ca
        )
    return _(
        "Rock-paper-scissors: {attacker} plays {attacker_choice}, {target} plays "
        "{target_choice}; {loser} loses their next turn"
    ).format(
        attacker=a,
        target=t,
        attacker_choice=ca,
        target_choice=ct,
        loser=seat_label(d["loser"], names),
    )


def _round_end(d: Mapping[str, Any], names: Names) -> str:
    if d.get("winner") is None:
        return _("Round {round} ends with no winner: {reason}").format(
            round=d["round"], reason=reason_label(d.get("reason", ""))
        )
    # The "won" line just before says who won, with what and for how much.
    return _("End of round {round}").format(round=d["round"])


def _claim_open(d: Mapping[str, Any], names: Names) -> str:
    if d.get("keys"):
        return _("You may claim {card} as {keys}").format(
            card=d["card"], keys=join([key_label(k) for k in d["keys"]])
        )
    return _("{card} was discarded: you cannot claim it (pass)").format(card=d["card"])


_LINES: dict[str, Callable[[Mapping[str, Any], Names], str]] = {
    "round": lambda d, n: _("— Round {round}: {dealer} deals —").format(
        round=d["round"], dealer=seat_label(d["dealer"], n)
    ),
    "dealt": lambda d, n: _("{name} is dealt {cards}").format(
        name=seat_label(d["seat"], n), cards=cards_label(d["cards"])
    ),
    "drew": lambda d, n: (
        _("{name} draws {card}").format(name=seat_label(d["seat"], n), card=card_label(d["card"]))
        if "card" in d
        else _("{name} draws a card").format(name=seat_label(d["seat"], n))
    ),
    "rolled": lambda d, n: _("{card} rolls {roll} on 2d20-4: {nature}").format(
        card=d["card"], roll=d["roll"], nature=nature_label(str(d["nature"]))
    ),
    "discarded": _discarded,
    "banned": lambda d, n: _("{name} may no longer collect {group}").format(
        name=seat_label(d["seat"], n), group=d["group"]
    ),
    "peeked": lambda d, n: _("An honest monster shows {name} the top of the stock: {cards}").format(
        name=seat_label(d["seat"], n), cards=cards_label(d["cards"])
    ),
    "attack": lambda d, n: _("{name} sends {card} at {target}").format(
        name=seat_label(d["seat"], n), card=d["card"], target=seat_label(d["target"], n)
    ),
    "rps": _rps,
    # "The player who loses loses a turn." (the only way a turn is lost)
    "skipped": lambda d, n: _(
        "{name} sits this turn out, having lost at rock-paper-scissors"
    ).format(name=seat_label(d["seat"], n)),
    "claim_open": _claim_open,
    # A claimer's choice, then the cards it keeps in hand ("kept": "keep Dhampir", ...;
    # claims.py); a duel's answer has no "kept".
    "decided": lambda d, n: _("{name} chooses: {choice}").format(
        name=seat_label(d["seat"], n),
        choice=", ".join(action_label(m, n) for m in [d["choice"], *d.get("kept", ())]),
    ),
    "claims_closed": lambda d, n: (
        _("{card} is claimed").format(card=d["card"])
        if d.get("claimed")
        else _("Nobody claims {card}").format(card=d["card"])
    ),
    "claimed": lambda d, n: _(
        "{name} claims {card}, discarded by {discarder}, and lays a set of {key}: {cards}"
    ).format(
        name=seat_label(d["seat"], n),
        card=card_label(d["card"]),
        discarder=seat_label(d["discarder"], n),
        key=key_label(d["key"]),
        cards=cards_label(d["set"]),
    ),
    "saw_hand": lambda d, n: _(
        "An honest monster tells {name} what {target} holds: {cards}"
    ).format(
        name=seat_label(d["seat"], n),
        target=seat_label(d["target"], n),
        cards=cards_label(d["cards"]),
    ),
    "tabled": lambda d, n: _("{name} adds {card} to their set of {key}").format(
        name=seat_label(d["seat"], n), card=card_label(d["card"]), key=key_label(d["key"])
    ),
    "won": lambda d, n: _("{name} wins the round with {pattern}: {points}").format(
        name=seat_label(d["seat"], n),
        pattern=pattern_label(d.get("pattern")),
        points=points_text(d["points"]),
    ),
    "round_end": _round_end,
    "game_over": lambda d, n: _("Game over: {scores}. {winners}.").format(
        scores=scores_line(d["scores"], n), winners=winners_line(d["winners"], n)
    ),
}

KINDS = frozenset(_LINES)


def describe(event: Event, names: Names = None) -> str:
    """The event's log line; an unknown kind reads as words, never as data."""
    line = _LINES.get(event.kind)
    if line is not None:
        try:
            text = line(event.data, names)
            return text[:1].upper() + text[1:]  # a sentence starts with a capital
        except (KeyError, TypeError, ValueError, IndexError):
            pass
    return event.kind.replace("_", " ")


# -- what a button or a terminal choice says for each action (``bestiary.i18n.labels``) --
ACTION_LABELS = patterns(
    [
        (r"discard (?P<card>.+)", N_("discard {card}")),
        (r"table (?P<card>.+)", N_("table {card}")),
        (r"win", N_("declare the win")),
        (r"claim (?P<key>.+)", N_("claim as {key}")),
        (r"pass", N_("pass")),
        (r"keep (?P<card>.+)", N_("keep {card} in hand")),
        (r"draw", N_("draw another card")),
        (r"stop", N_("stop drawing")),
        (r"attack (?P<seat>\d+)", N_("attack {seat}")),
        (r"no attack", N_("no attack")),
        (r"rps rock", N_("rock")),
        (r"rps paper", N_("paper")),
        (r"rps scissors", N_("scissors")),
    ]
)


def action_label(action: object, names: Names = None) -> str:
    """The action as a person reads it, in the current language (the text form
    ``str(action)`` stays what is submitted)."""
    seats = name_seats(names)
    return label_with(
        str(action), ACTION_LABELS, _, lambda k, v: key_label(v) if k == "key" else seats(k, v)
    )
