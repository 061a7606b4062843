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

from .cards import LANES, load_cards

# For the CLI's `help` and `legend` (bestiary/cli/prompt.py reads these names).
ACTION_HELP = {
    "leader": "choose your leader: its ability lasts the whole game (`card NAME` for more)",
    "draft": "take a card from the draft row into your hand, paying its cost in Telestarion",
    "place": "put a creature face down on a lane: left flank, front or right flank",
    "set": "put a destiny card face down; you pay its cost when it is revealed",
    "done": "finish placing your cards for this round",
    "discard": "you hold more than the hand limit: throw a card away",
    "pass": "do nothing more in this window (the window closes when everyone passes)",
    "cast": "play an INSTANT destiny card from your hand now",
    "resolve": "use one of your face-up destiny cards now",
    "ability": "use a creature's ♦ ability (pay its cost in Telestarion)",
    "pay": "pay for a revealed destiny card (unpaid cards go to the graveyard)",
}
LEGEND = [
    "attack/defence, e.g. 3/4: a creature's attack and defence now",
    "-N after a face-down card: damage it has taken",
    "♦N: the creature has an ability costing N Telestarion; ✓: used this round",
    "+Name under a creature: equipment fused with it",
    "REF, TOX, CLE, CHA: the keywords REFLEX, TOXIN, CLEAVE, CHALLENGE",
    "▮: a face-down destiny card",
    "Telestarion: the currency you draft and pay with; vitality: a team's life (0 loses)",
]


def _catalog_by_name() -> dict[str, Mapping[str, Any]]:
    """Card and leader texts of the shipped card set, by name. The view carries
    names only; a designer's own cards that are not in it show by name alone."""
    global _TEXTS
    if _TEXTS is None:
        from .catalog import catalog

        try:
            cat = catalog(load_cards(None))
        except Exception:  # texts are a courtesy: the table still renders without them
            cat = {}
        _TEXTS = {r["name"]: r for k in ("creatures", "destiny", "leaders") for r in cat.get(k, [])}
    return _TEXTS


_TEXTS: dict[str, Mapping[str, Any]] | None = None


def card_summary(name: str) -> str:
    """``cost 2 · 4/4 · CLEAVE`` for a creature, ``cost 1 · INSTANT. …`` for a destiny card."""
    rec = _catalog_by_name().get(name)
    if rec is None:
        return ""
    bits = []
    if "cost" in rec:
        bits.append(f"cost {rec['cost']}")
    if "faction" in rec:
        bits.append(f"{rec['attack']}/{rec['defence']}")
    if rec.get("text"):
        bits.append(str(rec["text"]))
    return " · ".join(bits)


def _cards_table(title: str, names: Sequence[str]) -> Table:
    t = Table(title=title, title_justify="left", expand=False)
    t.add_column("card")
    t.add_column("cost", justify="right")
    t.add_column("atk/def")
    t.add_column("what it does")
    # In card-list order, the order the terminal lists the moves in (the action
    # space follows the card list), so row N of a table and choice N agree.
    order = {n: i for i, n in enumerate(_catalog_by_name())}
    for name in sorted(names, key=lambda n: order.get(n, len(order))):
        rec = _catalog_by_name().get(name, {})
        stats = f"{rec['attack']}/{rec['defence']}" if "faction" in rec else ""
        t.add_row(Text(name), str(rec.get("cost", "")), stats, Text(str(rec.get("text", ""))))
    return t


def _slot_name(view: Mapping[str, Any], seat: int, lane: int) -> str:
    """What stands on a slot, from ``view``'s seat: ``Rzeźnik on seat 1's front``."""
    me = view.get("seat")
    whose = "your" if seat == me else f"seat {seat}'s"
    where = f"{whose} {LANES[lane]}"
    try:
        c = view["field"][seat]["creatures"][lane]
    except (KeyError, IndexError, TypeError):
        return where
    if c is None:
        return f"the empty {where}"
    if "card" not in c:
        return f"the face-down creature on {where}"
    return f"{c['card']} ({c['attack']}/{c['defence']}) on {where}"


def action_label(view: Mapping[str, Any], text: str) -> str:
    """An action as a newcomer reads it: the creature a target names, a card's
    cost and text. The action's own text (what the prompt accepts) comes first."""
    head, at, target = text.partition(" @ s")
    words = head.split(" ")
    verb, rest = words[0], " ".join(words[1:])
    extra = ""
    if at:
        seat_txt, _, lane_txt = target.partition(" ")
        if seat_txt.isdigit() and lane_txt in LANES:
            extra = f" → {_slot_name(view, int(seat_txt), LANES.index(lane_txt))}"
    if verb == "ability" and rest in LANES:
        me = view.get("seat")
        if isinstance(me, int):
            return f"{text}  ({_slot_name(view, me, LANES.index(rest))}{extra})"
    if verb == "leader":  # no table lists the leaders: say what each one does
        summary = card_summary(rest)
        return f"{text}  ({summary})" if summary else text
    return f"{text}{extra}"


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


def _teams_line(view: Mapping[str, Any]) -> str:
    """``your team (seats 0, 2): 25 · their team (seats 1, 3): 22`` — who is who in 2v2/3v3."""
    n, mine = view["players"], view.get("team")
    parts = []
    for team in (0, 1):
        seats = ", ".join(str(s) for s in range(team, n, 2))
        name = "your team" if team == mine else ("their team" if mine is not None else "")
        label = f"{name} (team {team}, seat{'s' if n > 2 else ''} {seats})".strip()
        parts.append(f"{label}: {view['vitality'][team]}")
    return " · ".join(parts)


def render(view: Mapping[str, Any], log: Sequence[str]) -> RenderableType:
    seat = view["seat"]
    n = view["players"]
    head = Text()
    head.append(f"Round {view['round']} · {view['phase']}", style="bold")
    head.append(" · vitality " + _teams_line(view))
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
            who = f"seat {s} (team {s & 1})" + (" ← you" if s == seat else "")
            who += f"\n{view['leaders'][s] or 'no leader yet'}"
            who += f"\nTelestarion {view['telestarion'][s]} · hand {view['hand_sizes'][s]}"
            dest = ", ".join(d.get("card", "▮") + f" ({d['status']})" for d in f["destiny"])
            board.add_row(Text(who), *cells, Text(dest or "—"))
        board.add_section()
    parts.append(board)
    for s, lead in enumerate(view["leaders"]):
        if lead:
            ability = _catalog_by_name().get(lead, {}).get("text", "")
            line = Text(f"seat {s}" + (" (you)" if s == seat else "") + f": leader {lead}")
            line.append(f" — {ability}" if ability else "", style="dim")
            parts.append(line)
    if view["draft_row"]:
        parts.append(_cards_table("Draft row", view["draft_row"]))
    for s, cards in view["hands"].items():
        mark = "Your hand" if str(seat) == s else f"Teammate seat {s}'s hand"
        pend = view["tactics"].get(s)
        extra = ""
        if pend:
            lanes = ", ".join(
                f"{c} on the {x}" for x, c in zip(LANES, pend["creatures"], strict=True) if c
            )
            extra = (
                f"\nThis round, face down so far: {lanes or 'no creature yet'}; "
                f"destiny cards set: {', '.join(pend['destiny']) or 'none yet'}"
            )
        parts.append(_cards_table(mark, cards) if cards else Text(f"{mark}: empty"))
        if extra:
            parts.append(Text(extra.strip()))
    if view["stack"]:
        st = Table(title="Stack (last in resolves first)")
        st.add_column("#")
        st.add_column("seat")
        st.add_column("spell")
        st.add_column("target")
        for i, e in enumerate(reversed(view["stack"])):
            t = e["target"]
            tgt = e["target_card"] or (_slot_name(view, t // 3, t % 3) if t >= 0 else "—")
            st.add_row(str(i + 1), str(e["seat"]), Text(e["card"]), Text(tgt))
        parts.append(st)
    if log:
        parts.append(Panel(Text("\n".join(log[-14:])), title="Log"))
    return Group(*parts)
