"""One log line per Teratozoic event, in the current language (``bestiary.i18n``).

Every line is a whole sentence of the catalog (``locale/pl/LC_MESSAGES/teratozoic.po``)
with named placeholders; seats are named the way the table names them
(``seat_label``), cards by name (events carry card ids), lists in words, never
as Python data. A line says only what its event carries: the event's
visibility already decides who may read it.

Card and Era names are the (reconstructed, English) data files'; a line shows
each in the reader's language as a name the sentence declines (``card_name``:
``{card:acc}``; ``locale/pl/nouns.toml``: ``pomarańczowy łokieć 1``, ``Era
Apokaliptyczna``). Colours, piles and the game's phrases are translated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bestiary.engine.events import Event, seat_label
from bestiary.i18n import N_, domain
from bestiary.i18n.labels import label_with, patterns
from bestiary.i18n.nouns import Noun

from .cards import Card, Era, cards_from, default_eras

_ = domain("teratozoic", __file__)
Names = Sequence[str] | None

# The rulebook's 'Key to Color Symbols' (plus grey nuclear waste and three-colour cards).
COLOURS: dict[str, str] = {
    "orange": N_("orange"),
    "red": N_("red"),
    "purple": N_("purple"),
    "blue": N_("blue"),
    "green": N_("green"),
    "yellow": N_("yellow"),
    "grey": N_("grey"),
    "three-colour": N_("three-colour"),
}
POOL_SYMBOL = {"sun": "☉", "cross": "☒"}
# Hand-placed monsters sit this far apart on the x axis (generation.MONSTER_GAP).
_GAP = 100


def card_name(name: object) -> Noun:
    """A card's or Era's name as a sentence declines it: ``{card}`` is the
    reader's name (``pomarańczowy łokieć 1``), ``{card:acc}`` its accusative."""
    return _.noun(name)


def shown(name: object) -> str:
    """A card's or Era's name as the reader says it."""
    return card_name(name).shown()


def colour_label(colour: str) -> str:
    return _(COLOURS[colour]) if colour in COLOURS else colour


def join(items: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _("{list} and {last}").format(list=", ".join(items[:-1]), last=items[-1])


def points_text(n: Any) -> str:
    return _.ngettext("{n} point", "{n} points", int(n)).format(n=int(n))


def cards_text(n: Any) -> str:
    return _.ngettext("{n} card", "{n} cards", int(n)).format(n=int(n))


def number(x: Any) -> str:
    """``22.0`` → ``22``: scores are counts of cards."""
    return f"{float(x):g}" if isinstance(x, (int, float)) else str(x)


def era_rules(era: Era | Mapping[str, Any]) -> str:
    """What an Era card says, in one sentence (an ``Era`` or a view's ``era``)."""

    def field(name: str) -> Any:
        return era[name] if isinstance(era, Mapping) else getattr(era, name)

    return _(
        "draw {mutations} from the Mutations Deck and {gene_pool} from the Gene Pool, play at "
        "least {min_play}; the winner gains {winner_play} from play and {winner_hand} from "
        "hand, the others {others_hand} from hand"
    ).format(**{k: field(k) for k in ERA_FIELDS})


ERA_FIELDS = ("mutations", "gene_pool", "min_play", "winner_play", "winner_hand", "others_hand")


def _era_named(name: str) -> Era | None:
    return next((e for e in default_eras() if e.name == name), None)


def _per_seat(values: Mapping[str, Any], names: Names) -> str:
    """``Ann 12, Bob 10`` from ``{"0": 12, "1": 10}``."""
    return ", ".join(
        _("{name} {n}").format(name=seat_label(int(s), names), n=number(v))
        for s, v in values.items()
    )


class _Lines:
    def __init__(self, deck: Sequence[Card], names: Names) -> None:
        self.deck, self.names = deck, names

    def who(self, seat: Any) -> str:
        return seat_label(int(seat), self.names)

    def card(self, card: Any) -> Noun:
        known = isinstance(card, int) and 0 <= card < len(self.deck)
        return card_name(self.deck[card].name if known else "?")

    def cards(self, ids: Sequence[Any]) -> str:
        return ", ".join(self.card(c).shown() for c in ids) or _("no cards")

    # -- one method per event kind ----------------------------------------------
    def era(self, d: Mapping[str, Any]) -> str:
        era = _era_named(str(d["era"]))
        if era is None:
            return _("The {era} begins").format(era=card_name(d["era"]))
        return _("The {era} begins: {rules}").format(era=card_name(era.name), rules=era_rules(era))

    def gene_pool(self, d: Mapping[str, Any]) -> str:
        return _("{name} starts with a Gene Pool ({colour} {symbol})").format(
            name=self.who(d["seat"]),
            colour=colour_label(str(d["colour"])),
            symbol=POOL_SYMBOL.get(str(d["symbol"]), d["symbol"]),
        )

    def drew(self, d: Mapping[str, Any]) -> str:
        return _(
            "{name} draws {mutations} from the Mutations Deck and {gene_pool} from their Gene Pool"
        ).format(name=self.who(d["seat"]), mutations=d["mutations"], gene_pool=d["gene_pool"])

    def hand(self, d: Mapping[str, Any]) -> str:
        return _("{name} now holds {cards}").format(
            name=self.who(d["seat"]), cards=self.cards(d["cards"])
        )

    def held(self, d: Mapping[str, Any]) -> str:
        return _("{name} holds {card} back, face down").format(
            name=self.who(d["seat"]), card=self.card(d["card"])
        )

    def declared(self, d: Mapping[str, Any]) -> str:
        n = int(d["held"])
        if n:
            return _.ngettext(
                "{name}: “I'm not playing all my cards” ({n} card face down)",
                "{name}: “I'm not playing all my cards” ({n} cards face down)",
                n,
            ).format(name=self.who(d["seat"]), n=n)
        return _("{name}: “I am expressing all my genes”").format(name=self.who(d["seat"]))

    def placed(self, d: Mapping[str, Any]) -> str:
        x, y = int(d["x"]), int(d["y"])
        monster = round(x / _GAP) + 1
        if x % _GAP == 0 and y == 0:
            return _("{name} starts monster {monster} with {card}").format(
                name=self.who(d["seat"]), monster=monster, card=self.card(d["card"])
            )
        return _("{name} attaches {card} to monster {monster}").format(
            name=self.who(d["seat"]), monster=monster, card=self.card(d["card"])
        )

    def built(self, d: Mapping[str, Any]) -> str:
        return _("{name} has built their monsters").format(name=self.who(d["seat"]))

    def grew(self, d: Mapping[str, Any]) -> str:
        return _("{name} plays {cards} and scores {points}").format(
            name=self.who(d["seat"]), cards=self.cards(d["cards"]), points=points_text(d["score"])
        )

    def tie(self, d: Mapping[str, Any]) -> str:
        tied = join([self.who(s) for s in d["seats"]])
        drew = d.get("drew") or {}
        if not drew:
            return _(
                "{names} tie at {points} and nobody can draw: the first of them clockwise "
                "from the previous winner dominates"
            ).format(names=tied, points=points_text(d["score"]))
        into = "; ".join(
            _("{name}: {card}").format(name=self.who(s), card=self.card(c)) for s, c in drew.items()
        )
        return _(
            "{names} tie at {points}; each draws from their Gene Pool into play: {cards}"
        ).format(names=tied, points=points_text(d["score"]), cards=into)

    def winner(self, d: Mapping[str, Any]) -> str:
        return _("{name} dominates the generation with {points}").format(
            name=self.who(d["seat"]), points=points_text(d["score"])
        )

    def took(self, d: Mapping[str, Any]) -> str:
        if d.get("owner") == d["seat"]:
            return _("{name} takes their own {card} from play").format(
                name=self.who(d["seat"]), card=self.card(d["card"])
            )
        return _("{name} takes {card} from play (played by {owner})").format(
            name=self.who(d["seat"]), card=self.card(d["card"]), owner=self.who(d["owner"])
        )

    def kept(self, d: Mapping[str, Any]) -> str:
        return _("{name} keeps {card} from hand").format(
            name=self.who(d["seat"]), card=self.card(d["card"])
        )

    def eliminated(self, d: Mapping[str, Any]) -> str:
        return _("{name} has fewer than five cards in their entire Gene Pool and is out").format(
            name=self.who(d["seat"])
        )

    def reshuffled(self, d: Mapping[str, Any]) -> str:
        return _(
            "{name} shuffles their Gene Pool Discard Pile into a new Gene Pool ({cards})"
        ).format(name=self.who(d["seat"]), cards=cards_text(d["size"]))

    def final_shuffle(self, d: Mapping[str, Any]) -> str:
        return _("Every Gene Pool is shuffled with its Gene Pool Discard Pile for the last time")

    def generation(self, d: Mapping[str, Any]) -> str:
        return _("— Generation {number} ({era}) —").format(
            number=d["number"], era=card_name(d["era"])
        )

    def final_tie(self, d: Mapping[str, Any]) -> str:
        creatures = int(d["creatures"])
        return _(
            "{names} tie with {cards} in monsters and {creatures}: they play the Teratozoic Era "
            "again (replay {replay} of at most {max_replays})"
        ).format(
            names=join([self.who(s) for s in d["seats"]]),
            cards=cards_text(d["cards"]),
            creatures=_.ngettext("{n} more creature", "{n} more creatures", creatures).format(
                n=creatures
            ),
            replay=d["replay"],
            max_replays=d["max_replays"],
        )

    def final_replay(self, d: Mapping[str, Any]) -> str:
        return _("The tied players shuffle their whole Gene Pools (cards: {sizes})").format(
            sizes=_per_seat(d["gene_pools"], self.names)
        )

    def game_over(self, d: Mapping[str, Any]) -> str:
        scores = ", ".join(
            _("{name} {n}").format(name=self.who(s), n=number(v)) for s, v in enumerate(d["scores"])
        )
        winners = [self.who(s) for s in d["winners"]]
        if len(winners) == 1:
            won = _("{name} wins").format(name=winners[0])
        else:
            won = _("{names} share the win").format(names=join(winners))
        if d.get("replays"):
            n = int(d["replays"])
            return _.ngettext(
                "Game over. Cards in monsters: {scores}. After {n} replay of the Teratozoic Era "
                "({replayed}), {winners}.",
                "Game over. Cards in monsters: {scores}. After {n} replays of the Teratozoic Era "
                "({replayed}), {winners}.",
                n,
            ).format(
                scores=scores,
                n=n,
                replayed=_per_seat(d.get("replay_cards") or {}, self.names),
                winners=won,
            )
        return _("Game over. Cards in monsters: {scores}. {winners}.").format(
            scores=scores,
            winners=won[:1].upper() + won[1:],  # it follows a full stop
        )


KINDS = frozenset(k for k, v in vars(_Lines).items() if callable(v) and not k.startswith("_")) - {
    "who",
    "card",
    "cards",
}


def describe(event: Event, names: Names = None, deck: Sequence[Card] | None = None) -> str:
    """The event's log line; an unknown kind reads as words, never as data."""
    lines = _Lines(deck or cards_from(""), names)
    line: Callable[[Mapping[str, Any]], str] | None = (
        getattr(lines, event.kind, None) if event.kind in KINDS else None
    )
    if line is not None:
        try:
            text = line(event.data)
            return text[:1].upper() + text[1:]  # a sentence starts with a capital
        except (KeyError, TypeError, ValueError, IndexError):
            pass
    return event.kind.replace("_", " ")


# -- what a button or a terminal choice says for each action (``bestiary.i18n.labels``) --
# Every group (``card``, ``anchor``) is a card the phrase declines.
ACTION_LABELS = patterns(
    [
        (r"hold (?P<card>.+)", N_("hold {card} back")),
        (r"express", N_("express every other card")),
        (r"build best", N_("build the best monsters")),
        (r"build flat", N_("lay the cards out unconnected")),
        (r"build placed", N_("finish building by hand")),
        (r"take (?P<card>.+)", N_("take {card}")),
        (r"keep (?P<card>.+)", N_("keep {card}")),
        (r"start (?P<card>.+) turned", N_("start a monster with {card}, upside down")),
        (r"start (?P<card>.+)", N_("start a monster with {card}")),
        (
            r"attach (?P<card>.+) N of (?P<anchor>.+) turned",
            N_("put {card}, upside down, above {anchor}"),
        ),
        (
            r"attach (?P<card>.+) E of (?P<anchor>.+) turned",
            N_("put {card}, upside down, right of {anchor}"),
        ),
        (
            r"attach (?P<card>.+) S of (?P<anchor>.+) turned",
            N_("put {card}, upside down, below {anchor}"),
        ),
        (
            r"attach (?P<card>.+) W of (?P<anchor>.+) turned",
            N_("put {card}, upside down, left of {anchor}"),
        ),
        (r"attach (?P<card>.+) N of (?P<anchor>.+)", N_("put {card} above {anchor}")),
        (r"attach (?P<card>.+) E of (?P<anchor>.+)", N_("put {card} right of {anchor}")),
        (r"attach (?P<card>.+) S of (?P<anchor>.+)", N_("put {card} below {anchor}")),
        (r"attach (?P<card>.+) W of (?P<anchor>.+)", N_("put {card} left of {anchor}")),
    ]
)


def action_label(action: object, names: Names = None) -> str:
    """The action as a person reads it, in the current language (the text form
    ``str(action)`` stays what is submitted)."""
    return label_with(str(action), ACTION_LABELS, _, lambda _group, value: card_name(value))
