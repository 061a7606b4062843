"""Terminal rendering of a taxonomy view (``bestiary play taxonomy``), in the
current language (``bestiary.i18n``, the catalog beside ``describe.py``).

Everything drawn comes from the seat's view, so the terminal shows exactly
what that seat may know: its hand grouped by collecting key with natures
(banned cards marked), every player's table sets, hand count, claims, turns
to lose, proud bans and set-aside cards, the discard pile's top, the stock,
what honest monsters showed, the events given and the last round's scoring,
and a prompt that offers ``table`` and ``win`` only when they are legal.

Card names, types and families come from a designer's card file: they are
data, never Rich markup. Plain strings given to a Table are markup, so they
go through ``escape``; everything else is built as ``Text`` (never parsed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from bestiary.i18n import N_
from bestiary.i18n.lazy import LazyHelp, LazyLines, fill

from ...engine.events import Event, seat_label
from ...engine.protocol import Game
from .describe import (
    _,
    key_label,
    nature_label,
    pattern_label,
    points_text,
    reason_label,
    rule_text,
)

NATURE_STYLE = {
    "aggressive": "bold red",
    "cheerful": "bold yellow",
    "mean": "magenta",
    "honest": "bold cyan",
    "impatient": "bright_green",
    "proud": "bold bright_white on dark_red",
    "loyal": "bold blue",
    "miscellaneous": "italic",
}
HAND_SIZE = 8

# For the terminal's `help`, `legend`, `card` and `explain` (bestiary/cli/prompt.py
# reads these names); the guide (guide/<lang>.md) says the same at more length.
ACTION_HELP: Mapping[str, str] = LazyHelp(
    _,
    {
        "discard": N_(
            "throw a card from your hand onto the discard pile (its nature acts now) "
            "to get back to 8 cards"
        ),
        "table": N_("add a card you drew this turn to your laid set of its key"),
        "win": N_("declare your winning hand: the round ends and it is scored"),
        "claim": N_(
            "take the card just discarded: with three of its key in hand you lay a set "
            "of four on the table"
        ),
        "keep": N_("you hold more than three of the key: choose a card to keep in hand"),
        "pass": N_("let the discarded card go (or, with a winning hand, play on)"),
        "rps": N_("rock, paper or scissors: whoever loses the duel misses a turn"),
        "attack": N_(
            "send your aggressive monster at this player: a rock-paper-scissors duel follows"
        ),
        "no attack": N_("keep the peace: your aggressive monster attacks nobody"),
        "draw": N_("your impatient monster lets you draw one more card now"),
        "stop": N_("draw no more card this turn"),
    },
)
LEGEND: tuple[str, ...] = LazyLines(
    _,
    (
        N_("◀ after a player: whose turn it is; (you): your seat"),
        N_("Angel /6: a collecting key and how many cards in the deck have it"),
        N_("have: how many cards of that key you hold; also: a card's other keys"),
        N_(
            "a word after a card (aggressive, cheerful, mean, honest, impatient, proud, loyal, "
            "miscellaneous) is its nature: `explain` says what each does"
        ),
        N_("(rolled N): a miscellaneous monster's 2d20-4 roll, which gave its nature"),
        N_("struck-through name, (banned): a group a proud monster banned for you"),
        N_("turns to lose: turns a lost duel makes that player miss"),
    ),
)
GLOSSARY: Mapping[str, str] = LazyHelp(
    _,
    {
        "aggressive|agresywna": N_(
            "aggressive — when you discard it you may send it at another player; you play "
            "rock-paper-scissors and the loser misses a turn"
        ),
        "cheerful|wesoła": N_(
            "cheerful — when you discard it, you must discard every other cheerful monster "
            "in your hand too; cheerful monsters also form a set of their own, whatever "
            "their types"
        ),
        "mean|złośliwa": N_(
            "mean — when you discard it, you must also discard a random card from your hand"
        ),
        "honest|szczera": N_(
            "honest — when you draw it, you see the top 3 cards of the stock; if you claim "
            "it, you see the hand of the player who discarded it"
        ),
        "impatient|niecierpliwa": N_(
            "impatient — when you draw it, you may draw another card at once"
        ),
        "proud|dumna": N_(
            "proud — when you discard it, every card of its type leaves your hand, and you "
            "may not collect that type for the rest of the game"
        ),
        "loyal|lojalna": N_("loyal — once discarded it stays loyal: nobody may claim it"),
        "miscellaneous|różna": N_(
            "miscellaneous — its nature is rolled (2d20-4) when it is first drawn and lasts "
            "until the next round"
        ),
        "Beastman": N_(
            "Beastman — too many to collect as one type: a Beastman is collected by its "
            "family (Beastman/Wolf, Beastman/Cat…)"
        ),
        "Orphans|Beastman orphans": N_(
            "orphans — monsters alone in their type (or Beastmen alone in their family) "
            "form a set of their own; the two kinds of orphan never mix"
        ),
    },
)


def group_of(card: Mapping[str, Any]) -> str:
    """What a proud monster bans: the card's type, a Beastman's family (reading 13)."""
    if str(card.get("type", "")).casefold() == "beastman":
        return f"Beastman/{card.get('family', '')}"
    return str(card.get("type", ""))


def card_text(card: Mapping[str, Any], banned: bool = False) -> Text:
    """A card: its name, then its natures in their colours (and a ban mark)."""
    t = Text(str(card["name"]), style="bold strike" if banned else "bold")
    for n in dict.fromkeys(card.get("natures") or []):
        t.append(" ")
        t.append(nature_label(n), style=NATURE_STYLE.get(n, ""))
    if card.get("roll") is not None:
        t.append(" " + _("(rolled {roll})").format(roll=card["roll"]), style="dim")
    if banned:
        t.append(" " + _("(banned)"), style="red")
    return t


def _cards_line(cards: Sequence[Mapping[str, Any]], bans: Sequence[str] = ()) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(", ")
        out.append_text(card_text(c, group_of(c) in bans))
    return out


def _mine(view: Mapping[str, Any], key: str) -> Any:
    seat, values = view.get("seat"), view.get(key) or []
    return values[seat] if isinstance(seat, int) and 0 <= seat < len(values) else []


def _hand_by_key(view: Mapping[str, Any]) -> Table:
    """The hand grouped by each card's first collecting key (its others shown beside it)."""
    sizes: Mapping[str, int] = view.get("key_sizes") or {}
    bans = _mine(view, "bans")
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for card in view.get("hand") or []:
        keys = card.get("keys") or ["?"]
        groups.setdefault(keys[0], []).append(card)
    table = Table(title=escape(_("Your hand")), show_lines=False, expand=False)
    table.add_column(escape(_("key")))
    table.add_column(escape(_("have")), justify="right")
    table.add_column(escape(_("cards")))
    counts: Mapping[str, int] = view.get("hand_keys") or {}
    for key in sorted(groups, key=lambda k: (-len(groups[k]), k)):
        cards = groups[key]
        label = Text(key_label(key))
        if key in sizes:
            label.append(f" /{sizes[key]}", style="dim")
        line = _cards_line(cards, bans)
        also = sorted({k for c in cards for k in c.get("keys", [])[1:]})
        if also:
            line.append(
                "  "
                + _("also: {keys}").format(
                    keys=", ".join(f"{key_label(k)} ({counts.get(k, 0)})" for k in also)
                ),
                style="dim",
            )
        table.add_row(label, str(len(cards)), line)
    return table


def _players(view: Mapping[str, Any]) -> Table:
    me = view.get("seat")
    table = Table(title=escape(_("Players")))
    for col in (
        _("player"),
        _("score"),
        _("hand"),
        _("table sets"),
        _("claims"),
        _("turns to lose"),
        _("banned"),
        _("set aside"),
    ):
        table.add_column(escape(col))
    n = int(view.get("players", 0))

    def per_seat(key: str, default: Any) -> list[Any]:
        values = list(view.get(key) or [])
        return values + [default] * (n - len(values))

    scores, hands = per_seat("scores", 0), per_seat("hand_counts", 0)
    tables, claims, skips = per_seat("tables", []), per_seat("claims", 0), per_seat("skips", 0)
    bans, aside = per_seat("bans", []), per_seat("set_aside", [])
    for s in range(n):
        sets = Text()
        for k, tset in enumerate(tables[s]):
            if k:
                sets.append("\n")
            sets.append(f"{key_label(tset['key'])}: ", style="bold")
            sets.append_text(_cards_line(tset["cards"]))
        name = seat_label(s)
        if s == me:
            name = _("{name} (you)").format(name=name)
        if s == view.get("turn") and view.get("phase") != "over":
            name += " ◀"
        table.add_row(
            Text(name),
            f"{float(scores[s]):g}",
            str(hands[s]),
            sets,
            str(claims[s]),
            str(skips[s]),
            Text(", ".join(bans[s])),
            _cards_line(aside[s]),
        )
    return table


def _round_result(last: Mapping[str, Any]) -> RenderableType:
    if last.get("winner") is None:
        return Text(
            _("Round {round}: no winner ({reason})").format(
                round=last.get("round"), reason=reason_label(last.get("reason", ""))
            ),
            style="dim",
        )
    table = Table(
        title=escape(
            _("Round {round}: {name} won with {pattern} for {points}").format(
                round=last.get("round"),
                name=seat_label(int(last["winner"])),
                pattern=pattern_label(last.get("pattern")),
                points=points_text(last.get("points", 0)),
            )
        )
    )
    table.add_column(escape(_("rule")))
    table.add_column(escape(_("points")), justify="right")
    for row in last.get("breakdown") or []:
        table.add_row(Text(rule_text(str(row["rule"]))), str(row["points"]))
    for s in last.get("sets") or []:
        line = "  " + _("set {key}: {cards}").format(
            key=key_label(s["key"]), cards=", ".join(map(str, s["cards"]))
        )
        table.add_row(Text(line), str(s["points"]))
    return table


def fresh_result(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The last round's result while it is news: at the game's end, or during
    the next round's first go-round (each seat has a turn with it on screen).
    After that it is old news (issue 29: it stayed through the whole next
    round); the log keeps its "Round N ends" line."""
    last = view.get("last_round")
    if not last:
        return None
    if view.get("result") or int(view.get("turns") or 0) <= int(view.get("players") or 0):
        return last
    return None


def can_table(view: Mapping[str, Any]) -> bool:
    """May the seat table a drawn card now? The rule of ``table``: a card drawn this
    turn, of a laid set's key, not banned, and not the last card that could pay
    the excess (reading 21)."""
    hand = view.get("hand") or []
    tables = _mine(view, "tables")
    drawn = set(view.get("drawn") or [])
    if not tables or not drawn:
        return False
    excess = len(hand) + sum(len(t["cards"]) for t in tables) - HAND_SIZE
    if len(hand) <= excess:
        return False
    keys = {t["key"] for t in tables}
    bans = set(_mine(view, "bans"))
    return any(
        c["name"] in drawn and group_of(c) not in bans and keys & set(c.get("keys") or [])
        for c in hand
    )


def prompt(view: Mapping[str, Any]) -> str:
    """What the seat must decide now, naming ``table`` and ``win`` only when legal.
    It speaks of moves in words: the menu below it lists them by their labels in
    the player's language (a Polish player read "(rps rock, rps paper, rps
    scissors)" and "(claim <klucz>)" here)."""
    me = view.get("seat")
    if me is None or me not in (view.get("to_act") or []):
        return ""
    phase = view.get("phase")
    if phase == "discard":
        hand = view.get("hand") or []
        laid = sum(len(t["cards"]) for t in _mine(view, "tables"))
        n = max(len(hand) + laid - HAND_SIZE, 1)
        lines = [_.ngettext("Discard {n} card.", "Discard {n} cards.", n).format(n=n)]
        if can_table(view):
            lines.append(_("You may also add a card you drew to its laid set."))
        if view.get("can_win"):
            lines.append(_("Your hand wins: you may declare the win."))
        return " ".join(lines)
    if phase == "claim" and view.get("claim"):
        c = view["claim"]
        if c.get("to_keep"):
            n = int(c["to_keep"])
            return _.ngettext(
                "Choose {n} card to keep in hand; the other three are laid with {card}.",
                "Choose {n} cards to keep in hand; the other three are laid with {card}.",
                n,
            ).format(n=n, card=c["card"]["name"])
        if c.get("keys"):
            return _("Claim {card} or pass.").format(card=c["card"]["name"])
        return _("You cannot claim {card}: pass.").format(card=c["card"]["name"])
    if phase == "duel":
        return _("Rock, paper or scissors?")
    if phase == "attack" and view.get("attack"):
        a = view["attack"]
        targets = ", ".join(seat_label(t) for t in a["targets"])
        return _("Send {card} at a player ({targets}) or let it be.").format(
            card=a["card"]["name"], targets=targets
        )
    if phase == "impatient":
        return _("An impatient monster: draw another card or stop.")
    if phase == "declare":
        return _("Your hand wins: declare the win or play on.")
    return str(view.get("prompt") or "")


def peek_left(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The peeked cards still on top of the stock: each draw since the peek took
    the first of them (reading 23), so the box goes once they are all drawn."""
    peek = view.get("peek") or {}
    cards = list(peek.get("cards") or [])
    then, now = peek.get("stock_then"), view.get("stock")
    if not isinstance(then, int) or not isinstance(now, int):
        return cards
    return cards[max(then - now, 0) :]


def render_view(game: Game, view: Mapping[str, Any], events: Sequence[Event]) -> RenderableType:
    parts: list[RenderableType] = []
    head = Text(
        _("Round {round}/{rounds} · turn {turn} · stock {stock} · dealer {dealer}").format(
            round=view.get("round"),
            rounds=view.get("rounds"),
            turn=view.get("turns"),
            stock=view.get("stock"),
            dealer=seat_label(int(view.get("dealer") or 0)),
        ),
        style="bold",
    )
    parts.append(head)
    parts.append(_players(view))
    top = view.get("discard_top")
    n = len(view.get("discards") or [])
    if top:
        discard = fill(
            _.ngettext("Discard pile: {card} ({n} card)", "Discard pile: {card} ({n} cards)", n),
            card=card_text(top),
            n=str(n),
        )
    else:
        discard = Text(_("Discard pile: empty"))
    parts.append(discard)
    if view.get("hand") is not None:
        parts.append(_hand_by_key(view))
    still = peek_left(view)
    if still:
        line = fill(
            _("An honest monster showed you the top of the stock: {cards}"),
            cards=_cards_line(still),
        )
        line.stylize("cyan", 0, len(line))
        parts.append(line)
    for s, cards in sorted((view.get("seen_hands") or {}).items(), key=lambda kv: int(kv[0])):
        line = fill(
            _("An honest monster told you what {name} held: {cards}"),
            name=seat_label(int(s)),
            cards=_cards_line(cards),
        )
        parts.append(line)
    if view.get("claim"):
        c = view["claim"]
        who, card = seat_label(int(c["discarder"])), card_text(c["card"])
        if c.get("key"):
            line = fill(
                _("{name} discarded {card}: you claim it as {key}"),
                name=who,
                card=card,
                key=key_label(c["key"]),
            )
        elif c.get("keys"):
            line = fill(
                _("{name} discarded {card}: you may claim it as {keys}"),
                name=who,
                card=card,
                keys=", ".join(key_label(k) for k in c["keys"]),
            )
        else:
            line = fill(_("{name} discarded {card}: you cannot claim it"), name=who, card=card)
        parts.append(line)
    if view.get("duel"):
        d = view["duel"]
        parts.append(
            Text(
                _("Duel! {attacker} sends {card} at {target}: rock, paper or scissors?").format(
                    # after "Duel!" a new sentence: "Duel! Seat 0 sends…"
                    attacker=seat_label(int(d["attacker"])).capitalize(),
                    card=d["card"]["name"],
                    target=seat_label(int(d["target"])),
                ),
                style="bold red",
            )
        )
    last = fresh_result(view)
    if last:
        parts.append(_round_result(last))
    if events:
        # Every event given is shown: the caller decides how far back to go.
        log = Text("\n".join(game.describe_event(e) for e in events))
        parts.append(Panel(log, title=escape(_("What happened")), expand=False))
    ask = prompt(view)
    if ask:
        parts.append(Text(ask, style="bold green"))
    return Group(*parts)
