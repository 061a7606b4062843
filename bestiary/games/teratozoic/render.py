"""Terminal pictures (Rich) of a Teratozoic view, its events and its cards.

Everything drawn comes from the seat's view: the Era card, every player's
piles (Gene Pool discard piles are face up, so they are shown card by card),
the plays once Growth resolves, and for the seat itself its hand, its held
cards, its whole Gene Pool, a preview of what holding a card back costs, and
the score of what it has placed so far. Colours are marked with the
rulebook's own symbols ('Key to Color Symbols': orange #, red //, purple ∅,
blue O, green Θ, yellow =), never with initial letters (O would be orange and
blue at once). Card names are data: built as ``Text``, never parsed as markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from bestiary.engine.events import Event, seat_label
from bestiary.i18n import N_
from bestiary.i18n.lazy import LazyHelp, LazyLines, fill

from .cards import SYMBOL, Card, cards_from
from .describe import _ as _t
from .describe import card_name, cards_text, colour_label, describe, era_rules, points_text, shown
from .solver import best_build
from .tiles import Placement, edge, score_layout

if TYPE_CHECKING:
    from rich.console import RenderableType

    from bestiary.engine.protocol import Game

_ = _t
STYLE = {
    "orange": "dark_orange",
    "red": "red",
    "purple": "magenta",
    "blue": "blue",
    "green": "green",
    "yellow": "yellow",
    "grey": "grey50",
    "three-colour": "bold white",
}
# For the terminal's `help`, `legend`, `card` and `explain` (bestiary/cli/prompt.py
# reads these names); the guide (guide/<lang>.md) says the same at more length.
ACTION_HELP: Mapping[str, str] = LazyHelp(
    _,
    {
        "hold": N_(
            "put this card face down as a recessive gene: it is not played, the winner "
            "cannot take it, and you may still keep it for your Gene Pool"
        ),
        "express": N_("done holding back: play every other card of your hand"),
        "build best": N_("let the table build your monsters the best way your cards allow"),
        "build flat": N_("lay your cards out without connecting any of them"),
        "build placed": N_("finish building by hand (cards not placed lie apart)"),
        "start": N_("begin a new monster with this card (turned: upside down)"),
        "attach": N_(
            "join this card to a placed card on that side, where their ends meet "
            "(turned: upside down)"
        ),
        "take": N_("as the winner, take this played card (anyone's) into your Gene Pool"),
        "keep": N_("keep this card from your own hand: it goes to your Gene Pool"),
    },
)
LEGEND: tuple[str, ...] = LazyLines(
    _,
    (
        N_(
            "colours, by the rulebook's symbols: # orange, // red, ∅ purple, O blue, "
            "Θ green, = yellow, ☢ grey, ✿ three-colour"
        ),
        N_("[N E S W]: the card's ends (north, east, south, west); an end left unjoined is loose"),
        N_("×2 after a card, x after its value in a picture: a doubling card"),
        N_("in a picture of a monster: | on a top or bottom edge and = on a side mark an end"),
        N_("☉ and ☒: the two kinds of starting Gene Pool in each colour"),
        N_("held back: cards a player keeps face down this generation"),
        N_("(you): your seat"),
    ),
)
GLOSSARY: Mapping[str, str] = LazyHelp(
    _,
    {
        "doubler|doubling": N_(
            "doubling card (×2) — doubles the face values of the cards of its own colour in "
            "its monster, itself included, and that monster's bonus; two of them quadruple"
        ),
        "three-colour|trójkolorowy": N_(
            "three-colour card (✿) — it is not single-colour: a monster with it gets no "
            "colour bonus, and it never counts towards your final monsters"
        ),
        "grey|szary": N_(
            "grey card (☢, nuclear waste) — worth 0; its ends join like any card's, but a "
            "monster with it is not single-colour"
        ),
        "ends|końce": N_(
            "ends — the connectors on a card's edges; two cards join where their ends meet. "
            "An end that meets nothing is loose"
        ),
        "loose|luźne": N_(
            "loose end — an end that meets no other end: a monster with one gets no bonus"
        ),
        "advanced|zaawansowana": N_(
            "advanced cards — doubling, grey and three-colour cards; the basic variant "
            "plays without them"
        ),
    },
)
# Cards not placed by hand lie apart (as rules.py lays them out): this far apart.
_APART = 100


def _phase(phase: str) -> str:
    # The phase names are the rulebook's ('Expression', 'Growth', 'Breeding').
    return {
        "expression": _("Expression"),
        "growth": _("Growth"),
        "breed-play": _("Breeding (from play)"),
        "breed-hand": _("Breeding (from hand)"),
        "over": _("game over"),
    }.get(phase, phase)


def card_text(card: Card) -> Text:
    """``∅ purple 6 fanged head [N S] ×2`` in the card's colour, its name in the
    reader's language (``∅ fioletowa głowa z kłami 6``)."""
    mark = " ×2" if card.doubler else ""
    return Text(
        f"{SYMBOL[card.colour]} {shown(card.name)} [{card.ends}]{mark}",
        style=STYLE.get(card.colour, ""),
    )


def _cards(deck: Sequence[Card], ids: Sequence[int]) -> Text:
    out = Text()
    for k, i in enumerate(ids):
        if k:
            out.append(", ")
        out.append_text(card_text(deck[i]))
    return out or Text("—")


def grid(deck: Sequence[Card], placements: Sequence[Placement]) -> Text:
    """Text art of one monster: each card a 7x3 box with its ends on its edges
    (``|`` top and bottom, ``=`` at the sides) and its colour symbol and value
    inside, in the card's colour::

        +--|--+
        | ∅6  =
        +-----+
    """
    if not placements:
        return Text()
    x0 = min(p.x for p in placements)
    y1 = max(p.y for p in placements)
    width = (max(p.x for p in placements) - x0 + 1) * 7
    height = (y1 - min(p.y for p in placements) + 1) * 3
    chars = [[" "] * width for _ in range(height)]
    styles: list[list[str]] = [[""] * width for _ in range(height)]
    for p in placements:
        card = deck[p.card]
        mask = card.orients[-1] if p.turned else card.orients[0]
        n, e, s, w = (edge(mask, d) for d in range(4))
        top, bottom = list("+-----+"), list("+-----+")
        for bit, col in ((1, 1), (2, 3), (4, 5)):
            if n & bit:
                top[col] = "|"
            if s & bit:
                bottom[col] = "|"
        label = f"{SYMBOL[card.colour]}{card.value}{'x' if card.doubler else ''}"
        mid = list(" " + label.center(5)[:5] + " ")
        mid[0] = "=" if w else "|"
        mid[6] = "=" if e else "|"
        cx, cy = (p.x - x0) * 7, (y1 - p.y) * 3
        for row, cells in enumerate((top, mid, bottom)):
            for i, ch in enumerate(cells):
                chars[cy + row][cx + i] = ch
                styles[cy + row][cx + i] = STYLE.get(card.colour, "")
    out = Text()
    for r in range(height):
        line = Text()
        for ch, st in zip(chars[r], styles[r], strict=True):
            line.append(ch, style=st)
        line.rstrip()
        out.append("  ")
        out.append_text(line)
        out.append("\n")
    return out


def _monsters(deck: Sequence[Card], build: Mapping[str, Any]) -> Text:
    out = Text()
    for k, m in enumerate(build["monsters"]):
        if k:
            out.append("\n")  # a gap between monsters (issue 29)
        pl = [Placement(c, x, y, bool(t)) for c, x, y, t in m["placements"]]
        n = len(m["cards"])
        if m["closed"]:
            line = _.ngettext(
                "{n} card, no loose ends, worth {points}",
                "{n} cards, no loose ends, worth {points}",
                n,
            )
        else:
            line = _.ngettext(
                "{n} card, loose ends, worth {points}", "{n} cards, loose ends, worth {points}", n
            )
        out.append("  " + line.format(n=n, points=points_text(m["value"])) + "\n", style="bold")
        out.append_text(grid(deck, pl))
    if build["all_closed"]:
        out.append("  " + _("no loose ends anywhere: +1") + "\n", style="bold")
    return out


def _final_text(final: Mapping[str, Any]) -> str:
    """The final scoring of one Gene Pool; says so when the solver's budget ran
    out before the monsters were proven the largest (``exact`` false)."""
    monsters = ", ".join(
        _("{colour} {n}").format(colour=colour_label(str(c)), n=n)
        for c, n in (final.get("monsters") or {}).items()
    )
    text = _("final: {cards} in monsters ({monsters})").format(
        cards=cards_text(final["cards"]), monsters=monsters or _("no closed monster")
    )
    if final.get("exact") is False:
        text += " — " + _("NOT PROVEN the largest (search budget ran out)")
    return text


def _players(view: Mapping[str, Any]) -> Table:
    table = Table(show_lines=False, expand=False)
    for col in (
        _("player"),
        # The rulebook's words: the Gene Pool is the face-down pile a player
        # draws from, its discard pile the face-up one (issue 29).
        _("Gene Pool"),
        _("Gene Pool Discard Pile"),
        _("hand"),
        _("held back"),
        _("play score"),
        _("state"),
    ):
        table.add_column(col)
    for p in view["players"]:
        state = _("eliminated") if p["eliminated"] else (_("competing") if p["competing"] else "")
        if view.get("winner") == p["seat"]:
            state = _("dominates this generation")
        if p["final"]:
            state = _final_text(p["final"])
        who = seat_label(p["seat"])
        if p["seat"] == view.get("seat"):
            who = _("{name} (you)").format(name=who)
        table.add_row(
            escape(who),
            str(p["gene_pool"]),
            str(len(p["discard"])),
            str(p["hand_size"]),
            str(p["held_count"]),
            "" if p["score"] is None else str(p["score"]),
            escape(state),
        )
    return table


def _discard_piles(deck: Sequence[Card], view: Mapping[str, Any]) -> Text | None:
    """Every other player's Gene Pool discard pile (face up), card by card."""
    out = Text()
    for p in view["players"]:
        if p["seat"] == view.get("seat") or not p["discard"]:
            continue
        out.append_text(
            fill(
                _("{name}'s discard pile (face up): {cards}"),
                name=Text(seat_label(p["seat"]), style="bold"),
                cards=_cards(deck, sorted(p["discard"])),
            )
        )
        out.append("\n")
    out.rstrip()
    return out or None


def _hold_preview(deck: Sequence[Card], view: Mapping[str, Any], seat: int) -> Text | None:
    """'hold some back as “recessive genes”': what each card held back would cost
    this generation's play (the solver's best build), so the choice is informed."""
    hand, held = view["hand"], view["held_cards"]
    play = [c for c in hand if c not in held]
    if len(play) <= view["era"]["min_play"] or len(play) > 10:
        return None
    best = best_build(deck, play).score
    out = Text(
        _("Playing these {n} cards: best build {points}.").format(
            n=len(play), points=points_text(best)
        )
        + "\n"
    )
    for c in play:
        rest = [x for x in play if x != c]
        score = best_build(deck, rest).score
        out.append(
            "  "
            + _("hold {card} back: best build {points} ({change:+d})").format(
                card=card_name(deck[c].name), points=points_text(score), change=score - best
            )
            + "\n"
        )
    out.rstrip()
    return out


def _placing(deck: Sequence[Card], view: Mapping[str, Any]) -> Text:
    """What is placed by hand so far and its score now, the other cards laid apart
    (as 'build placed' would score them), beside the solver's best build."""
    placed = [Placement(c, x, y, bool(t)) for c, x, y, t in view["placing"]]
    done = {p.card for p in placed}
    play = [c for c in view["hand"] if c not in view["held_cards"]]
    rest = [c for c in play if c not in done]
    apart = [Placement(c, -_APART * (k + 1), 0) for k, c in enumerate(rest)]
    now = score_layout(deck, placed + apart).score
    out = Text(
        _("Placed so far (the rest laid apart): {points}; the best build: {best}.").format(
            points=points_text(now), best=points_text(best_build(deck, play).score)
        )
        + "\n",
        style="bold",
    )
    for n, k in enumerate(sorted({round(p.x / _APART) for p in placed})):
        if n:
            out.append("\n")  # a gap: separate monsters must not look joined (issue 29)
        out.append_text(grid(deck, [p for p in placed if round(p.x / _APART) == k]))
    return out


def _mine(deck: Sequence[Card], view: Mapping[str, Any], seat: int) -> Text:
    mine = fill(_("Your hand: {cards}"), cards=_cards(deck, view["hand"]))
    if view["held_cards"]:
        mine.append("\n")
        mine.append_text(
            fill(_("Held back (face down): {cards}"), cards=_cards(deck, view["held_cards"]))
        )
    me = next(p for p in view["players"] if p["seat"] == seat)
    pool, discard = view["my_gene_pool"], sorted(me["discard"])
    mine.append(
        "\n"
        + _("Your entire Gene Pool, outside your hand: {cards}").format(
            cards=cards_text(len(pool) + len(discard))
        )
    )
    mine.append("\n  ")
    mine.append_text(
        fill(
            _("Gene Pool, to draw ({n}, order unknown): {cards}"),
            n=str(len(pool)),
            cards=_cards(deck, pool),
        )
    )
    mine.append("\n  ")
    mine.append_text(
        fill(
            _("Gene Pool Discard Pile ({n}, face up): {cards}"),
            n=str(len(discard)),
            cards=_cards(deck, discard),
        )
    )
    if view["phase"] == "expression" and seat in view.get("to_act", []):
        preview = _hold_preview(deck, view, seat)
        if preview is not None:
            mine.append("\n")
            mine.append_text(preview)
    if view["phase"] == "growth" and view.get("placing"):
        mine.append("\n")
        mine.append_text(_placing(deck, view))
    if view["phase"] == "growth" and seat in view.get("to_act", []):
        mine.append(
            "\n"
            + _(
                "'build best' lays out the solver's best monsters; 'build flat' lays the cards "
                "out unconnected; or place them yourself: 'start <card>' begins a monster, "
                "'attach <card> <N|E|S|W> of <placed card>' joins ends ('turned': upside "
                "down), then 'build placed' (cards left over lie apart)."
            )
        )
    return mine


def render_view(game: Game, view: Mapping[str, Any], events: Sequence[Event]) -> RenderableType:
    deck = cards_from(view.get("cards_file") or "")
    era = view["era"]
    head = Text(
        _("{era}: {rules}").format(era=card_name(era["name"]), rules=era_rules(era)) + "\n",
        style="bold",
    )
    head.append(
        _(
            "Generation {generation} · {phase} · Mutations Deck {deck} · Mutations Deck "
            "Discard Pile {discard} · Eras to come: {eras}"
        ).format(
            generation=view["generation"],
            phase=_phase(view["phase"]),
            deck=view["mutations_deck"],
            discard=view["mutations_discard"],
            eras=", ".join(shown(e) for e in view["eras_left"]) or _("none"),
        )
    )
    parts: list[RenderableType] = [head, _players(view)]
    piles = _discard_piles(deck, view)
    if piles is not None:
        parts.append(piles)
    for p in view["players"]:
        if p["build"]:
            who = seat_label(p["seat"])
            body = fill(_("{name} played: {cards}"), name=who, cards=_cards(deck, p["played"]))
            body.append("\n")
            body.append_text(_monsters(deck, p["build"]))
            title = _("{name}: {points}").format(name=who, points=points_text(p["score"]))
            parts.append(Panel(body, title=escape(title)))
    seat = view.get("seat")
    if seat is not None and "hand" in view:
        parts.append(Panel(_mine(deck, view, seat), title=escape(seat_label(seat))))
    if events:
        # Every event given is shown (the caller decides how far back to go), its
        # cards named from this game's card file.
        parts.append(Text("\n".join(describe(e, None, deck) for e in events), style="dim"))
    return Group(*parts)


def render_catalog(catalog: Mapping[str, Any]) -> RenderableType:
    table = Table(title=_("Teratozoic monster cards (RECONSTRUCTION — see RULES.md)"))
    for col in (
        _("name"),
        _("set"),
        _("pool"),
        _("colour"),
        _("value"),
        _("ends"),
        _("effect"),
    ):
        table.add_column(col)
    for c in catalog["cards"]:
        table.add_row(
            Text(shown(c["name"])),  # a designer's text: data, never markup
            escape(c["set"]),
            {"sun": "☉", "cross": "☒"}.get(c["pool"], ""),
            Text(
                f"{SYMBOL[c['colour']]} {colour_label(c['colour'])}",
                style=STYLE.get(c["colour"], ""),
            ),
            str(c["value"]),
            Text(c["ends"]),
            _("doubles its colour in its monster") if c["doubler"] else "",
        )
    eras = Table(title=_("Era cards (RECONSTRUCTION)"))
    for col in (
        _("Era"),
        _("players"),
        _("draw M+G"),
        _("play ≥"),
        _("winner: play+hand"),
        _("others: hand"),
    ):
        eras.add_column(escape(col))
    for e in catalog["eras"]:
        eras.add_row(
            Text(shown(e["name"])),
            f"{e['min_players']}+" if e["min_players"] else _("all"),
            f"{e['draw'][0]} + {e['draw'][1]}",
            str(e["min_play"]),
            f"{e['winner'][0]} + {e['winner'][1]}",
            str(e["others"]),
        )
    return Group(table, eras)
