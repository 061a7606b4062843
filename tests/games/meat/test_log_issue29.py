"""Issue 29, log and views of M.E.A.T.: "fuses" only for FUSION equipment, the
hand shows the numbers the leader's bonus gives, and the battlefield's columns
name the viewer's own lanes whichever seat it sits in."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from bestiary.engine.events import Event
from bestiary.games.meat import GAME
from bestiary.games.meat.describe import place
from bestiary.games.meat.render import action_label
from bestiary.i18n import use_language

from .helpers import at_tactics, events, to_activation

NAMES = ["Ala", "Bob"]


def _line(kind: str, **data: Any) -> str:
    return GAME.describe_event(Event(0, kind, data), NAMES)


def _text(renderable: object) -> str:
    console = Console(record=True, width=220, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_only_fusion_equipment_fuses() -> None:
    """Issue 29: "the log says 'fuses' for every equipment, also for those
    without FUZJA: say 'equips'/'zakłada' for equipment without fusion and keep
    'fuses' for FUZJA" — and the engine says which it was."""
    st = at_tactics(hands={0: ["Bober", "Zardzewiały Miecz", "Ostry Cień Mgły"]})
    st.vit = [25, 20]  # seat 1 acts first and passes
    to_activation(st, {0: {"front": "Bober"}}, {0: ("Zardzewiały Miecz", "Ostry Cień Mgły")})
    st.apply_text(1, "pass")
    st.apply_text(0, "resolve Zardzewiały Miecz @ s0 front")
    st.apply_text(0, "resolve Ostry Cień Mgły @ s0 front")
    attached = {e["card"]: e for e in events(st, "attached")}
    assert attached["Zardzewiały Miecz"]["fusion"] is False
    assert attached["Ostry Cień Mgły"]["fusion"] is True
    plain = {"seat": 0, "card": "Zardzewiały Miecz", "target": 1, "target_card": "Bober"}
    fused = {**plain, "card": "Ostry Cień Mgły", "fusion": True}
    with use_language("en"):
        line = _line("attached", **plain, fusion=False)
        assert line.startswith("Ala equips Bober (Ala's front) with "), line
        assert "fuses" not in line
        assert "fuses" in _line("attached", **fused)
    with use_language("pl"):
        line = _line("attached", **plain, fusion=False)
        assert line.startswith("Ala zakłada Zardzewiały Miecz ISTOCIE: Bober"), line
        assert "scala" in _line("attached", **fused)


def test_the_hand_shows_the_leaders_bonus() -> None:
    """Issue 29: "The hand shows printed numbers while the leader's +1 defence
    shows only on the field: show the effective numbers in the hand where the
    leader's passive applies." Druid Borowy: Natura creatures get +0/+1."""
    st = at_tactics(hands={0: ["Bober", "Rekrut"]})
    view = st.view(0)
    bober = next(c for c in GAME.catalog(st.rules)["creatures"] if c["name"] == "Bober")  # type: ignore[index]
    assert bober["faction"] == "Natura"
    printed = f"{bober['attack']}/{bober['defence']}"
    boosted = f"{bober['attack']}/{bober['defence'] + 1}"
    with use_language("en"):
        assert printed in _text(GAME.render(view, []))
        view["leaders"] = ["Druid Borowy", None]
        out = _text(GAME.render(view, []))
        assert f"{boosted} (leader +0/+1)" in out
    with use_language("pl"):
        assert f"{boosted} (lider +0/+1)" in _text(GAME.render(view, []))
        # The moves that name the card say the same.
        assert f"{boosted} (lider +0/+1)" in action_label(view, "place Bober front")
    leaders = {x["name"]: x for x in GAME.catalog(st.rules)["leaders"]}  # type: ignore[index]
    assert leaders["Druid Borowy"]["boost"] == ["Natura", 0, 1]  # what the page adds


def _board_rows(view: dict[str, Any]) -> list[str]:
    out = _text(GAME.render(view, []))
    return [line for line in out.splitlines() if "Dziki Wilk" in line or "Rekrut" in line]


def test_the_columns_name_the_viewers_own_lanes() -> None:
    """Issue 29: the lanes are named one way everywhere (the log's "Bob's right
    flank", the page's "their right flank": each lane by its owner's side) and
    the terminal's columns "left flank ↔ their right flank" hold the viewer's
    own left flank, for seat 1 as for seat 0 (seat 1 saw its own row mirrored)."""
    st = at_tactics(hands={0: ["Rekrut"], 1: ["Dziki Wilk"]})
    to_activation(st, {0: {"left": "Rekrut"}, 1: {"left": "Dziki Wilk"}})
    for seat, mine, theirs in ((0, "Rekrut", "Dziki Wilk"), (1, "Dziki Wilk", "Rekrut")):
        view = st.view(seat)
        with use_language("en"):
            rows = _board_rows(view)
        top, bottom = rows[0], rows[-1]
        assert theirs in top and mine in bottom, rows
        # My left flank in the first lane column; their left flank, which
        # faces my right flank, in the last.
        assert bottom.index(mine) < len(bottom) // 3, bottom
        assert top.index(theirs) > len(top) // 2, top
    # The log names a lane by its owner's side and says whose, as the page does.
    with use_language("en"):
        assert place(3, NAMES) == "Bob's left flank"
    with use_language("pl"):
        assert place(3, NAMES) == "Bob – lewa flanka"
