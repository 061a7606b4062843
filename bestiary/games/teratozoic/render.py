"""Terminal pictures (Rich) of a Teratozoic view, its events and its cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from bestiary.engine import Event

from .cards import SYMBOL, Card, cards_from
from .tiles import Placement, draw_grid

if TYPE_CHECKING:
    from rich.console import RenderableType

    from .game import TeratozoicGame

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


def card_text(card: Card) -> Text:
    mark = " ×2" if card.doubler else ""
    return Text(
        f"{SYMBOL[card.colour]} {card.name} [{card.ends}]{mark}", style=STYLE.get(card.colour, "")
    )


def _cards(deck: Sequence[Card], ids: Sequence[int]) -> Text:
    out = Text()
    for k, i in enumerate(ids):
        if k:
            out.append(", ")
        out.append_text(card_text(deck[i]))
    return out or Text("—")


def _monsters(deck: Sequence[Card], build: Mapping[str, Any]) -> Text:
    out = Text()
    for m in build["monsters"]:
        pl = [Placement(c, x, y, bool(t)) for c, x, y, t in m["placements"]]
        tag = "closed" if m["closed"] else "loose ends"
        colour = deck[m["cards"][0]].colour
        out.append(f"  {len(m['cards'])} card(s), {tag}, worth {m['value']}\n", style="bold")
        for line in draw_grid(deck, pl):
            out.append("  " + line + "\n", style=STYLE.get(colour, ""))
    if build["all_closed"]:
        out.append("  no loose ends anywhere: +1\n", style="bold")
    return out


def _final_text(final: Mapping[str, Any]) -> str:
    """The final scoring of one Gene Pool; says so when the solver's budget ran
    out before the monsters were proven the largest (``exact`` false)."""
    monsters = ", ".join(f"{c} {n}" for c, n in final["monsters"].items())
    text = f"final: {final['cards']} cards ({monsters or 'no closed monster'})"
    if final.get("exact") is False:
        text += " — NOT PROVEN the largest (search budget ran out)"
    return text


def render_view(
    game: TeratozoicGame, view: Mapping[str, Any], events: Sequence[Event]
) -> RenderableType:
    deck = cards_from(view.get("cards_file") or "")
    era = view["era"]
    head = Text(
        f"{era['name']} — draw {era['mutations']} + {era['gene_pool']}, play at least "
        f"{era['min_play']}; winner gains {era['winner_play']} from play + "
        f"{era['winner_hand']} from hand, others {era['others_hand']} from hand\n",
        style="bold",
    )
    head.append(
        f"Generation {view['generation']} · phase {view['phase']} · Mutations Deck "
        f"{view['mutations_deck']} (discard {view['mutations_discard']}) · Eras to come: "
        f"{', '.join(view['eras_left']) or 'none'}"
    )
    table = Table(show_lines=False, expand=False)
    for col in ("seat", "gene pool", "discard", "hand", "held", "play score", "state"):
        table.add_column(col)
    for p in view["players"]:
        state = "eliminated" if p["eliminated"] else ("competing" if p["competing"] else "")
        if view.get("winner") == p["seat"]:
            state = "WINNER"
        if p["final"]:
            state = _final_text(p["final"])
        table.add_row(
            str(p["seat"]),
            str(p["gene_pool"]),
            str(len(p["discard"])),
            str(p["hand_size"]),
            str(p["held_count"]),
            "" if p["score"] is None else str(p["score"]),
            escape(state),
        )
    parts: list[RenderableType] = [head, table]
    for p in view["players"]:
        if p["build"]:
            body = Text(f"Seat {p['seat']} played: ")
            body.append_text(_cards(deck, p["played"]))
            body.append("\n")
            body.append_text(_monsters(deck, p["build"]))
            parts.append(Panel(body, title=f"seat {p['seat']}: {p['score']} points"))
    seat = view.get("seat")
    if seat is not None and "hand" in view:
        mine = Text("Your hand: ")
        mine.append_text(_cards(deck, view["hand"]))
        if view["held_cards"]:
            mine.append("\nHeld back (face down): ")
            mine.append_text(_cards(deck, view["held_cards"]))
        mine.append(f"\nYour Gene Pool ({len(view['my_gene_pool'])}): ")
        mine.append_text(_cards(deck, view["my_gene_pool"]))
        if view.get("placing"):
            mine.append("\nPlaced so far:\n")
            placed = [Placement(c, x, y, bool(t)) for c, x, y, t in view["placing"]]
            for k in sorted({round(p.x / 100) for p in placed}):
                group = [p for p in placed if round(p.x / 100) == k]
                mine.append("\n".join(draw_grid(deck, group)) + "\n")
        if view["phase"] == "growth":
            mine.append(
                "\n'build best' lays out the solver's best monsters; 'build flat' lays the cards "
                "out unconnected; or place them yourself: 'start <card>' begins a monster, "
                "'attach <card> <N|E|S|W> of <placed card>' joins ends ('turned': upside "
                "down), then 'build placed' (cards left over lie apart)."
            )
        parts.append(Panel(mine, title=f"seat {seat}"))
    if events:
        parts.append(Text("\n".join(describe(e, deck) for e in events[-10:]), style="dim"))
    return Group(*parts)


def describe(event: Event, deck: Sequence[Card] | None = None) -> str:
    deck = deck or cards_from("")
    d = event.data

    def names(ids: Sequence[int]) -> str:
        return ", ".join(deck[i].name for i in ids)

    k = event.kind
    if k == "era":
        return f"The {d['era']} begins ({d['numbers']})"
    if k == "gene_pool":
        return f"seat {d['seat']} starts with the {d['colour']} {d['symbol']} Gene Pool"
    if k == "drew":
        return (
            f"seat {d['seat']} draws {d['mutations']} mutation(s) "
            f"+ {d['gene_pool']} from the Gene Pool"
        )
    if k == "hand":
        return f"seat {d['seat']}'s hand: {names(d['cards'])}"
    if k == "held":
        return f"seat {d['seat']} holds back {deck[d['card']].name}"
    if k == "declared":
        if d["held"]:
            return f"seat {d['seat']}: 'I'm not playing all my cards' ({d['held']} face down)"
        return f"seat {d['seat']}: 'I am expressing all my genes'"
    if k == "placed":
        return f"seat {d['seat']} places {deck[d['card']].name} at ({d['x']}, {d['y']})"
    if k == "built":
        return f"seat {d['seat']} has built"
    if k == "grew":
        return f"seat {d['seat']} plays {names(d['cards'])}: {d['score']} points"
    if k == "tie":
        drew = ", ".join(f"seat {s} {deck[c].name}" for s, c in d["drew"].items())
        return f"tie at {d['score']} between seats {d['seats']}; into play: {drew or 'nothing'}"
    if k == "winner":
        return f"seat {d['seat']} dominates the generation with {d['score']} points"
    if k == "took":
        return f"seat {d['seat']} gains {deck[d['card']].name} from seat {d['owner']}'s play"
    if k == "kept":
        return f"seat {d['seat']} keeps {deck[d['card']].name}"
    if k == "eliminated":
        return f"seat {d['seat']} has fewer than five cards in its Gene Pool and is out"
    if k == "reshuffled":
        return f"seat {d['seat']} shuffles its Gene Pool Discard Pile ({d['size']} cards)"
    if k == "final_shuffle":
        return "Every Gene Pool is shuffled with its discard pile for the last time"
    if k == "generation":
        return f"— generation {d['number']} ({d['era']}) —"
    if k == "final_tie":
        return (
            f"seats {d['seats']} tie with {d['cards']} cards in monsters and "
            f"{d['creatures']} more creature(s): they play the Teratozoic Era again "
            f"(replay {d['replay']} of at most {d['max_replays']})"
        )
    if k == "final_replay":
        sizes = ", ".join(f"seat {s} {n}" for s, n in d["gene_pools"].items())
        return f"The tied players shuffle their whole Gene Pools ({sizes} cards)"
    if k == "game_over":
        line = f"Game over: cards in monsters {d['scores']}, winner(s) {d['winners']}"
        if d.get("replays"):
            line += f" after {d['replays']} replay(s) of the Teratozoic Era {d['replay_cards']}"
        return line
    parts = " ".join(f"{a}={b}" for a, b in d.items())
    return f"{k} {parts}".strip()


def render_catalog(catalog: Mapping[str, Any]) -> RenderableType:
    table = Table(title="Teratozoic monster cards (RECONSTRUCTION — see RULES.md)")
    for col in ("name", "set", "pool", "colour", "value", "ends", "effect"):
        table.add_column(col)
    for c in catalog["cards"]:
        table.add_row(
            Text(c["name"]),  # a designer's text: data, never markup
            escape(c["set"]),
            {"sun": "☉", "cross": "☒"}.get(c["pool"], ""),
            Text(f"{SYMBOL[c['colour']]} {c['colour']}", style=STYLE.get(c["colour"], "")),
            str(c["value"]),
            Text(c["ends"]),
            "doubles its colour in its monster" if c["doubler"] else "",
        )
    eras = Table(title="Era cards (RECONSTRUCTION)")
    for col in ("Era", "players", "draw M+G", "play ≥", "winner: play+hand", "others: hand"):
        eras.add_column(col)
    for e in catalog["eras"]:
        eras.add_row(
            Text(e["name"]),
            f"{e['min_players']}+" if e["min_players"] else "all",
            f"{e['draw'][0]} + {e['draw'][1]}",
            str(e["min_play"]),
            f"{e['winner'][0]} + {e['winner'][1]}",
            str(e["others"]),
        )
    return Group(table, eras)
