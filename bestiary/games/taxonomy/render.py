"""Terminal rendering of a taxonomy view (``bestiary play taxonomy``).

Everything drawn comes from the seat's view, so the terminal shows exactly
what that seat may know: its hand grouped by collecting key with natures,
every player's table sets, hand count, proud bans and set-aside cards, the
discard pile's top, the stock, the log and the last round's scoring.

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

from ...engine.events import Event
from ...engine.protocol import Game

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


def card_text(card: Mapping[str, Any]) -> Text:
    """A card: its name, then its natures in their colours."""
    t = Text(str(card["name"]), style="bold")
    for n in card.get("natures") or []:
        t.append(" ")
        t.append(n, style=NATURE_STYLE.get(n, ""))
    if card.get("roll") is not None:
        t.append(f" (rolled {card['roll']})", style="dim")
    return t


def _cards_line(cards: Sequence[Mapping[str, Any]]) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(", ")
        out.append_text(card_text(c))
    return out


def _hand_by_key(view: Mapping[str, Any]) -> Table:
    """The hand grouped by each card's first collecting key (its others shown beside it)."""
    sizes: Mapping[str, int] = view.get("key_sizes") or {}
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for card in view.get("hand") or []:
        keys = card.get("keys") or ["?"]
        groups.setdefault(keys[0], []).append(card)
    table = Table(title="Your hand", show_lines=False, expand=False)
    table.add_column("key")
    table.add_column("have", justify="right")
    table.add_column("cards")
    counts: Mapping[str, int] = view.get("hand_keys") or {}
    for key in sorted(groups, key=lambda k: (-len(groups[k]), k)):
        cards = groups[key]
        label = Text(key)
        if key in sizes:
            label.append(f" /{sizes[key]}", style="dim")
        line = _cards_line(cards)
        also = sorted({k for c in cards for k in c.get("keys", [])[1:]})
        if also:
            line.append(
                "  also: " + ", ".join(f"{k} ({counts.get(k, 0)})" for k in also), style="dim"
            )
        table.add_row(label, str(len(cards)), line)
    return table


def _players(view: Mapping[str, Any]) -> Table:
    me = view.get("seat")
    table = Table(title="Players")
    for col in ("seat", "score", "hand", "table sets", "banned", "set aside"):
        table.add_column(col)
    scores = view.get("scores") or []
    for s in range(int(view.get("players", 0))):
        sets = Text()
        for tset in (view.get("tables") or [[]])[s] if s < len(view.get("tables") or []) else []:
            sets.append(f"{tset['key']}: ", style="bold")
            sets.append_text(_cards_line(tset["cards"]))
            sets.append("\n")
        name = f"{s} (you)" if s == me else str(s)
        if s == view.get("turn"):
            name += " ◀"
        table.add_row(
            name,
            f"{scores[s]:g}" if s < len(scores) else "",
            str((view.get("hand_counts") or [0] * (s + 1))[s]),
            sets,
            escape(", ".join((view.get("bans") or [[]] * (s + 1))[s])),
            _cards_line((view.get("set_aside") or [[]] * (s + 1))[s]),
        )
    return table


def _round_result(last: Mapping[str, Any]) -> RenderableType:
    if last.get("winner") is None:
        return Text(f"Round {last.get('round')}: no winner ({last.get('reason', '')})", style="dim")
    table = Table(
        title=escape(
            f"Round {last.get('round')}: seat {last['winner']} won with "
            f"{last.get('pattern')} for {last.get('points')} points"
        )
    )
    table.add_column("rule")
    table.add_column("points", justify="right")
    for row in last.get("breakdown") or []:
        table.add_row(escape(str(row["rule"])), str(row["points"]))
    for s in last.get("sets") or []:
        line = f"  set {s['key']}: " + ", ".join(map(str, s["cards"]))
        table.add_row(escape(line), str(s["points"]))
    return table


def render_view(game: Game, view: Mapping[str, Any], events: Sequence[Event]) -> RenderableType:
    parts: list[RenderableType] = []
    head = Text(
        f"Round {view.get('round')}/{view.get('rounds')} · turn {view.get('turns')} · "
        f"stock {view.get('stock')} · dealer {view.get('dealer')}",
        style="bold",
    )
    parts.append(head)
    parts.append(_players(view))
    top = view.get("discard_top")
    discard = Text("Discard pile: ")
    discard.append_text(card_text(top) if top else Text("empty", style="dim"))
    discard.append(f"  ({len(view.get('discards') or [])} cards)", style="dim")
    parts.append(discard)
    if view.get("hand") is not None:
        parts.append(_hand_by_key(view))
    if view.get("peek"):
        line = Text("Honest monster shows you the top of the stock: ", style="cyan")
        line.append_text(_cards_line(view["peek"].get("cards") or []))
        parts.append(line)
    for s, cards in (view.get("seen_hands") or {}).items():
        line = Text(f"Honest monster told you seat {s}'s hand: ", style="cyan")
        line.append_text(_cards_line(cards))
        parts.append(line)
    if view.get("claim"):
        c = view["claim"]
        line = Text(f"Seat {c['discarder']} discarded ")
        line.append_text(card_text(c["card"]))
        if c.get("key"):
            line.append(f": you claim it as {c['key']}; choose {c.get('to_keep', 0)} to keep")
        elif c.get("keys"):
            line.append(f": you may claim it for {', '.join(c['keys'])}")
        else:
            line.append(": you cannot claim it (pass)")
        parts.append(line)
    if view.get("duel"):
        d = view["duel"]
        parts.append(
            Text(
                f"Duel! Seat {d['attacker']} sends {d['card']['name']} at seat "
                f"{d['target']}: rock, paper or scissors?",
                style="bold red",
            )
        )
    if view.get("last_round"):
        parts.append(_round_result(view["last_round"]))
    if events:
        log = Text()
        for e in list(events)[-10:]:
            log.append(game.describe_event(e) + "\n")
        parts.append(Panel(log, title="What happened", expand=False))
    if view.get("prompt"):
        parts.append(Text(str(view["prompt"]), style="bold green"))
    return Group(*parts)
