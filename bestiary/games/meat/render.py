"""Rich rendering of a seat's view for ``bestiary play meat``: both sides'
three lanes face to face, vitality, Telestarion, the hand, the draft row,
the stack during INSTANT windows and the latest log lines.

Card and leader names may come from a designer's file: they are always put
in ``Text`` objects (literal text), never in strings Rich reads as markup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .cards import LANES


def _cell(c: Mapping[str, Any] | None) -> Text:
    if c is None:
        return Text("—", style="dim")
    if "card" not in c:
        dmg = f" -{c['damage']}" if c["damage"] else ""
        return Text(f"[face down]{dmg}", style="magenta")
    kws = " ".join(k[:3] for k in c["keywords"])
    t = Text(c["card"], style="bold" if c["face_up"] else "italic")
    t.append(f"\n{c['attack']}/{c['defence']}", style="cyan")
    if kws:
        t.append(f" {kws}", style="yellow")
    if c.get("ability_cost") is not None:
        t.append(f" ♦{c['ability_cost']}" + ("✓" if c["ability_used"] else ""), style="green")
    if c.get("equipment"):
        t.append("\n+" + ", ".join(c["equipment"]), style="dim")
    if not c["face_up"]:
        t.append(" (face down)", style="dim")
    return t


def render(view: Mapping[str, Any], log: Sequence[str]) -> RenderableType:
    seat = view["seat"]
    n = view["players"]
    head = Text()
    head.append(f"Round {view['round']} · {view['phase']}", style="bold")
    head.append(f" · vitality team 0: {view['vitality'][0]}  team 1: {view['vitality'][1]}")
    if view["to_act"]:
        head.append(f" · waiting for seat(s) {', '.join(map(str, view['to_act']))}", style="dim")
    parts: list[RenderableType] = [head]
    board = Table(title="Battlefield (each pair faces across; your left flank faces their right)")
    board.add_column("seat")
    for lane in ("your left flank ↔ their right", "front", "your right flank ↔ their left"):
        board.add_column(lane)
    board.add_column("destiny")
    pairs = [(s, s ^ 1) for s in range(0, n, 2)]
    for a, b in pairs:
        for s in (b, a):  # the opponent on top, mirrored so that facing lanes line up
            f = view["field"][s]
            cells = [_cell(c) for c in f["creatures"]]
            if s == b:
                cells = cells[::-1]
            lead = view["leaders"][s] or "?"
            who = f"s{s} (team {s & 1})" + (" ← you" if s == seat else "")
            who += f"\n{lead}\nTelestarion {view['telestarion'][s]} · hand {view['hand_sizes'][s]}"
            dest = ", ".join(d.get("card", "▮") + f" ({d['status']})" for d in f["destiny"])
            board.add_row(Text(who), *cells, Text(dest or "—"))
        board.add_section()
    parts.append(board)
    if view["draft_row"]:
        parts.append(Panel(Text(", ".join(view["draft_row"])), title="Draft row"))
    for s, cards in view["hands"].items():
        mark = "your hand" if str(seat) == s else f"teammate s{s}'s hand"
        pend = view["tactics"].get(s)
        extra = ""
        if pend:
            lanes = ", ".join(
                f"{x}: {c}" for x, c in zip(("L", "F", "R"), pend["creatures"], strict=True) if c
            )
            extra = f"\nplacing: {lanes or '-'}; destiny: {', '.join(pend['destiny']) or '-'}"
        parts.append(Panel(Text(", ".join(cards) + extra), title=mark))
    if view["stack"]:
        st = Table(title="Stack (last in resolves first)")
        st.add_column("#")
        st.add_column("seat")
        st.add_column("spell")
        st.add_column("target")
        for i, e in enumerate(reversed(view["stack"])):
            t = e["target"]
            tgt = e["target_card"] or (f"seat {t // 3}'s {LANES[t % 3]}" if t >= 0 else "—")
            st.add_row(str(i + 1), str(e["seat"]), Text(e["card"]), Text(tgt))
        parts.append(st)
    if log:
        parts.append(Panel(Text("\n".join(log[-14:])), title="Log"))
    return Group(*parts)
