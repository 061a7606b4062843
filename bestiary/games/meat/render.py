"""Rich rendering of a seat's view for ``bestiary play meat``: both sides'
three lanes face to face, vitality, Telestarion, the leaders and what they do,
the hand and the draft row with each card's cost, stats and text, the stack
during INSTANT windows and the latest log lines — in the current language.

Card and leader names may come from a designer's file: they are always put
in ``Text`` objects (literal text), never in strings Rich reads as markup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from bestiary.engine.events import seat_label
from bestiary.i18n import N_, domain, language
from bestiary.i18n.lazy import LazyHelp, LazyLines

from .cards import LANES, load_cards
from .describe import and_list, keyword_text, lane_text, possessive, side
from .effects import card_text, leader_text

_ = domain("meat", __file__)


# For the CLI's `help` and `legend` (bestiary/cli/prompt.py reads these names).
ACTION_HELP: Mapping[str, str] = LazyHelp(
    _,
    {
        "leader": N_("choose your leader: its ability lasts the whole game (`card NAME` for more)"),
        "draft": N_(
            "take a card from the draft row into your hand, paying its cost in Telestarion"
        ),
        "place": N_("put a creature face down on a lane: left flank, front or right flank"),
        "set": N_("put a destiny card face down; you pay its cost when it is revealed"),
        "done": N_("finish placing your cards for this round"),
        "discard": N_("you hold more than the hand limit: throw a card away"),
        "pass": N_("do nothing more in this window (the window closes when everyone passes)"),
        "cast": N_("play an INSTANT destiny card from your hand now"),
        "resolve": N_("use one of your face-up destiny cards now"),
        "ability": N_("use a creature's ♦ ability (pay its cost in Telestarion)"),
        "pay": N_("pay for a revealed destiny card (unpaid cards go to the graveyard)"),
    },
)
LEGEND: tuple[str, ...] = LazyLines(
    _,
    (
        N_("attack/defence, e.g. 3/4: a creature's attack and defence now"),
        N_("-N after a face-down card: damage it has taken"),
        N_("♦N: the creature has an ability costing N Telestarion; ✓: used this round"),
        N_("+Name under a creature: equipment fused with it"),
        N_(
            "REFLEX, TOXIN, CLEAVE, CHALLENGE under a creature: its keywords "
            "(`explain` and the word says what it does)"
        ),
        N_("▮: a face-down destiny card"),
        N_("Telestarion: the currency you draft and pay with; vitality: a team's life (0 loses)"),
    ),
)

GLOSSARY: Mapping[str, str] = LazyHelp(
    _,
    {
        "REFLEX|REFLEKS": N_(
            "REFLEX — strikes first in the battle: a creature it kills deals no damage "
            "(two REFLEX creatures strike each other at once)"
        ),
        "TOXIN|TOKSYNA": N_("TOXIN — any damage this creature deals kills"),
        "CLEAVE|CIĘCIE": N_(
            "CLEAVE — in the battle it also hits the enemy creatures beside the one opposite"
        ),
        "CHALLENGE|WYZWANIE": N_(
            "CHALLENGE — takes the damage aimed at the friendly creatures beside it"
        ),
        "REVEAL|ODKRYCIE": N_("REVEAL — acts when the card is turned face up"),
        "FUSION|FUZJA": N_(
            "FUSION — equipment you attach to any creature (yours, a teammate's or an "
            "enemy's): it gets the card's stats and text"
        ),
        "INSTANT|NATYCHMIASTOWA": N_(
            "INSTANT — cast from your hand at once, in the Tactics, Activation or Battle; "
            "others may answer, and the last card played resolves first"
        ),
        "♦": N_(
            "♦ — the creature's ability: use it once a round by paying its cost in Telestarion"
        ),
        "Telestarion|TELESTARION": N_(
            "Telestarion — the currency: 7 ounces each round, to draft creatures and pay "
            "for destiny cards"
        ),
    },
)


def _catalog_by_name() -> dict[str, Mapping[str, Any]]:
    """Card and leader texts of the shipped card set, by name, in the current
    language. The view carries names only; a designer's own cards that are not
    in it show by name alone."""
    lang = language()
    if lang not in _TEXTS:
        try:
            cs = load_cards(None)
        except Exception:  # texts are a courtesy: the table still renders without them
            _TEXTS[lang] = {}
            return _TEXTS[lang]
        texts: dict[str, Mapping[str, Any]] = {}
        for d in cs.defs:
            rec: dict[str, Any] = {"name": d.name, "cost": d.cost, "text": card_text(d)}
            if d.is_creature:
                rec.update(faction=d.faction, attack=d.attack, defence=d.defence)
            texts[d.name] = rec
        for x in cs.leaders:
            texts[x.name] = {"name": x.name, "text": leader_text(x)}
            if x.passive == "faction_stat":  # what the hand shows with this leader
                texts[x.name] = {**texts[x.name], "boost": (x.faction, x.attack, x.defence)}
        _TEXTS[lang] = texts
    return _TEXTS[lang]


_TEXTS: dict[str, dict[str, Mapping[str, Any]]] = {}


def card_summary(name: str, cost: bool = True, leader: str | None = None) -> str:
    """``cost 2 · 4/4 · CLEAVE`` for a creature, ``cost 1 · INSTANT. …`` for a
    destiny card; ``cost=False`` leaves the price out (placing a drafted
    creature costs nothing); ``leader``: its owner's, whose bonus it shows."""
    rec = _catalog_by_name().get(name)
    if rec is None:
        return ""
    bits = []
    if cost and "cost" in rec:
        bits.append(_("cost {n}").format(n=rec["cost"]))
    if "faction" in rec:
        bits.append(_stats(rec, leader))
    if rec.get("text"):
        bits.append(str(rec["text"]))
    return " · ".join(bits)


def _stats(rec: Mapping[str, Any], leader: str | None) -> str:
    """A creature's attack/defence as it will fight: with its owner's leader's
    bonus for its faction, ``3/5 (leader +0/+1)`` (issue 29: the hand showed the
    printed numbers while the field showed the leader's +1)."""
    if "faction" not in rec:
        return ""
    boost = _catalog_by_name().get(leader or "", {}).get("boost")
    if not boost or boost[0] != rec["faction"]:
        return f"{rec['attack']}/{rec['defence']}"
    return _("{attack}/{defence} (leader {bonus})").format(
        attack=rec["attack"] + boost[1],
        defence=rec["defence"] + boost[2],
        bonus=f"{boost[1]:+d}/{boost[2]:+d}",
    )


def _not_yet_set(hand: Sequence[str], set_down: Sequence[str]) -> list[str]:
    """The hand without the cards set face down this round (one copy each)."""
    left = list(hand)
    for name in set_down:
        if name in left:
            left.remove(name)
    return left


def _cards_table(title: str, names: Sequence[str], leader: str | None = None) -> Table:
    t = Table(title=Text(title), title_justify="left", expand=False)
    t.add_column(_("card"))
    t.add_column(_("cost"), justify="right")
    t.add_column(_("atk/def"))
    t.add_column(_("what it does"))
    # In card-list order, the order the terminal lists the moves in (the action
    # space follows the card list), so row N of a table and choice N agree.
    order = {n: i for i, n in enumerate(_catalog_by_name())}
    for name in sorted(names, key=lambda n: order.get(n, len(order))):
        rec = _catalog_by_name().get(name, {})
        stats = _stats(rec, leader)
        t.add_row(Text(name), str(rec.get("cost", "")), stats, Text(str(rec.get("text", ""))))
    return t


def _leaders_table(view: Mapping[str, Any]) -> Table:
    """The leaders to choose from, what each does and who has taken it."""
    t = Table(title=Text(_("Leaders (a leader's ability lasts the whole game)")), expand=False)
    t.add_column(_("leader"))
    t.add_column(_("what it does"))
    t.add_column(_("taken by"))
    taken = {lead: s for s, lead in enumerate(view["leaders"]) if lead}
    for name, rec in _catalog_by_name().items():
        if "cost" in rec:
            continue  # a card, not a leader
        who = taken.get(name)
        t.add_row(
            Text(name),
            Text(str(rec.get("text", ""))),
            Text(_who(view, who) if who is not None else "—"),
        )
    return t


def _names(view: Mapping[str, Any]) -> list[str] | None:
    names = view.get("names")
    return list(names) if isinstance(names, list | tuple) else None


def _who(view: Mapping[str, Any], seat: int) -> str:
    return seat_label(seat, _names(view))


def _slot_name(view: Mapping[str, Any], seat: int, lane: int) -> str:
    """What stands on a slot, from ``view``'s seat: ``Rzeźnik (3/4) on Bob's front``."""
    me = view.get("seat")
    if seat == me:
        where = _("your {lane}").format(lane=lane_text(lane))
    else:
        where = possessive(_who(view, seat), lane_text(lane))
    try:
        c = view["field"][seat]["creatures"][lane]
    except (KeyError, IndexError, TypeError):
        return where
    if c is None:
        return _("the empty {place}").format(place=where)
    if "card" not in c:
        return _("the face-down creature on {place}").format(place=where)
    return _("{card} ({attack}/{defence}) on {place}").format(
        card=c["card"], attack=c["attack"], defence=c["defence"], place=where
    )


def action_label(view: Mapping[str, Any], text: str) -> str:
    """An action as a newcomer reads it: the creature a target names, a card's
    cost and text. The action's own text (what the prompt accepts) comes first."""
    head, at, target = text.partition(" @ s")
    words = head.split(" ")
    verb, rest = words[0], " ".join(words[1:])
    extra = ""
    if at:
        seat_txt, _sep, lane_txt = target.partition(" ")
        if seat_txt.isdigit() and lane_txt in LANES:
            extra = f" → {_slot_name(view, int(seat_txt), LANES.index(lane_txt))}"
    if verb == "ability" and rest in LANES:
        me = view.get("seat")
        if isinstance(me, int):
            return f"{text}  ({_slot_name(view, me, LANES.index(rest))}{extra})"
    me = view.get("seat")
    leaders = view.get("leaders") or []
    lead = leaders[me] if isinstance(me, int) and 0 <= me < len(leaders) else None
    if verb in ("leader", "draft", "set", "cast", "resolve", "pay"):
        name = rest.split(" @ ")[0]
        summary = card_summary(name, leader=lead)
        if summary:
            return f"{text}{extra}  ({summary})"
    if verb == "place":
        name, _sep, lane = rest.rpartition(" ")
        summary = card_summary(name, cost=False, leader=lead) if lane in LANES else ""
        if summary:
            return f"{text}  ({summary})"
    return f"{text}{extra}"


def _cell(c: Mapping[str, Any] | None) -> Text:
    if c is None:
        return Text("—", style="dim")
    if "card" not in c:
        t = Text(_("[face down]"), style="magenta")
        if c["damage"]:
            t.append(f" -{c['damage']}", style="magenta")
        return t
    # Whole words (REFLEX, not REF): a newcomer can `explain` them by name.
    kws = " ".join(keyword_text(k) for k in c["keywords"])
    t = Text(c["card"], style="bold" if c["face_up"] else "italic")
    t.append(f"\n{c['attack']}/{c['defence']}", style="cyan")
    if kws:
        t.append(f" {kws}", style="yellow")
    if c.get("ability_cost") is not None:
        t.append(f" ♦{c['ability_cost']}" + ("✓" if c["ability_used"] else ""), style="green")
    if c.get("equipment"):
        t.append("\n+" + ", ".join(c["equipment"]), style="dim")
    if not c["face_up"]:
        t.append(" " + _("(face down)"), style="dim")
    return t


def _teams_line(view: Mapping[str, Any]) -> str:
    """``your side (Ala): 25 · the other side (Bob): 22`` in 1v1, ``your team (Bob
    and Dan): 40 · the other team (Ala and Cyd): 40`` in 2v2/3v3 — yours first."""
    n, mine = view["players"], view.get("team")
    names = _names(view)
    order = (mine, mine ^ 1) if isinstance(mine, int) else (0, 1)
    parts = []
    for team in order:
        members = and_list([_who(view, s) for s in range(team, n, 2)])
        if mine is None:
            text = _("{players}: {vitality}")
        elif n > 2:
            text = (
                _("your team ({players}): {vitality}")
                if team == mine
                else _("the other team ({players}): {vitality}")
            )
        else:
            text = (
                _("your side ({players}): {vitality}")
                if team == mine
                else _("the other side ({players}): {vitality}")
            )
        if mine is None and n > 2:
            members = side(list(range(team, n, 2)), names, team)
        parts.append(text.format(players=members, vitality=view["vitality"][team]))
    return " · ".join(parts)


_PHASES = {
    "leaders": N_("choosing leaders"),
    "draft": N_("Opening: draft"),
    "hand limit": N_("Opening: hand limit"),
    "tactics": N_("Tactics"),
    "instants": N_("INSTANT window"),
    "activation": N_("Activation"),
    "responses": N_("answering an INSTANT"),
    "over": N_("game over"),
    "paying": N_("Activation: paying for destiny cards"),
}
_STATUS = {
    "face down": N_("face down"),
    "paid": N_("paid"),
    "armed": N_("armed"),
    "unpaid": N_("unpaid"),
}


def _board(view: Mapping[str, Any]) -> Table:
    seat = view["seat"]
    n = view["players"]
    board = Table(
        title=_("Battlefield (each pair faces across; your left flank faces their right)")
    )
    board.add_column(_("player"))
    board.add_column(_("left flank ↔ their right flank"))
    board.add_column(_("front"))
    board.add_column(_("right flank ↔ their left flank"))
    board.add_column(_("destiny"))
    # My side's row below, unmirrored, so that the columns name my lanes; the
    # seat across on top, mirrored so that facing lanes line up (issue 29: a
    # seat of the second team saw its own row mirrored under these headers).
    mine = seat & 1 if isinstance(seat, int) else 0
    for a, b in [(s | mine, (s | mine) ^ 1) for s in range(0, n, 2)]:
        for s in (b, a):
            f = view["field"][s]
            cells = [_cell(c) for c in f["creatures"]]
            if s == b:
                cells = cells[::-1]
            who = Text(_who(view, s) + (" " + _("(you)") if s == seat else ""), style="bold")
            lead = view["leaders"][s]
            who.append("\n")
            who.append(lead or _("no leader yet"))
            who.append(
                "\n"
                + _("Telestarion {tel} · hand {hand}").format(
                    tel=view["telestarion"][s], hand=view["hand_sizes"][s]
                )
            )
            dest = Text()
            for i, d in enumerate(f["destiny"]):
                if i:
                    dest.append(", ")
                dest.append(d.get("card", "▮"))
                dest.append(f" ({_(_STATUS.get(d['status'], d['status']))})")
            board.add_row(who, *cells, dest if f["destiny"] else Text("—"))
        board.add_section()
    return board


def render(view: Mapping[str, Any], log: Sequence[str]) -> RenderableType:
    seat = view["seat"]
    head = Text()
    phase = _(_PHASES.get(view["phase"], view["phase"]))
    head.append(_("Round {n} · {phase}").format(n=view["round"], phase=phase), style="bold")
    head.append(" · " + _("vitality") + " " + _teams_line(view))
    if view["to_act"]:
        waiting = ", ".join(_who(view, s) for s in view["to_act"])
        head.append(" · " + _("waiting for {players}").format(players=waiting), style="dim")
    parts: list[RenderableType] = [head, _board(view)]
    for s, lead in enumerate(view["leaders"]):
        if lead:
            ability = _catalog_by_name().get(lead, {}).get("text", "")
            if s == seat:
                line = Text(_("{player} (you): leader ").format(player=_who(view, s)))
            else:
                line = Text(_("{player}: leader ").format(player=_who(view, s)))
            line.append(lead, style="bold")
            if ability:
                line.append(f" — {ability}", style="dim")
            parts.append(line)
    if view["phase"] == "leaders":
        parts.append(_leaders_table(view))
    if view["draft_row"]:
        parts.append(_cards_table(_("Draft row"), view["draft_row"]))
    for s, cards in view["hands"].items():
        if str(seat) == s:
            mark = _("Your hand")
        else:
            mark = _("Hand of your teammate {player}").format(player=_who(view, int(s)))
        pending = view["tactics"].get(s)
        if pending:
            # Set face down, a card stays in the hand until every player is done
            # (RULES.md); listed here too, it read as a card still to be set.
            cards = _not_yet_set(cards, [*filter(None, pending["creatures"]), *pending["destiny"]])
            mark = (
                _("Your hand, not yet set")
                if str(seat) == s
                else _("Hand of your teammate {player}, not yet set").format(
                    player=_who(view, int(s))
                )
            )
        parts.append(
            _cards_table(mark, cards, view["leaders"][int(s)])
            if cards
            else Text(_("{hand}: empty").format(hand=mark))
        )
        picked = view.get("chosen", {}).get(s)
        if picked:
            # Chosen all at once: the cards stay in the hand until every player
            # has chosen (RULES.md), so say which ones are already set apart.
            what = (
                _("Chosen to throw away (once every player has chosen): {cards}")
                if view["phase"] == "hand limit"
                else _("Destiny cards chosen to pay for (once every player has chosen): {cards}")
            )
            parts.append(Text(what.format(cards=", ".join(picked)), style="yellow"))
        pend = view["tactics"].get(s)
        if pend:
            lanes = ", ".join(
                _("{card} on the {lane}").format(card=c, lane=lane_text(x))
                for x, c in zip(LANES, pend["creatures"], strict=True)
                if c
            )
            parts.append(
                Text(
                    _(
                        "This round, face down so far: {creatures}; destiny cards set: {destiny}"
                    ).format(
                        creatures=lanes or _("no creature yet"),
                        destiny=", ".join(pend["destiny"]) or _("none yet"),
                    )
                )
            )
    if view["stack"]:
        st = Table(title=_("Stack (last in resolves first)"))
        st.add_column("#")
        st.add_column(_("player"))
        st.add_column(_("spell"))
        st.add_column(_("target"))
        for i, e in enumerate(reversed(view["stack"])):
            t = e["target"]
            tgt = e["target_card"] or (_slot_name(view, t // 3, t % 3) if t >= 0 else "—")
            st.add_row(str(i + 1), Text(_who(view, e["seat"])), Text(e["card"]), Text(tgt))
        parts.append(st)
    if log:
        parts.append(Panel(Text("\n".join(log)), title=_("Log")))
    return Group(*parts)
