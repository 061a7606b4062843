"""Terminal rendering: names from a designer's card file are shown as text,
never read as Rich markup (a card named ``[/red]`` once crashed the board)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from bestiary.games.meat import GAME
from bestiary.games.meat.cards import DEFAULT_PATH

from .helpers import at_tactics, place


def _markup_file(tmp_path: Path) -> str:
    text = DEFAULT_PATH.read_text(encoding="utf-8")
    text = text.replace('name = "Bober"', 'name = "[/red]"')
    text = text.replace('name = "Zemsta"', 'name = "[bold]Zemsta"')
    text = text.replace('name = "Wyrocznia"', 'name = "[/] Wyrocznia"')
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _text(renderable: object) -> str:
    console = Console(record=True, width=200, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_card_and_leader_names_are_not_markup(tmp_path: Path) -> None:
    cards = _markup_file(tmp_path)
    st = at_tactics(2, 0, {0: ["[/red]", "[bold]Zemsta"], 1: ["Rekrut"]}, cards=cards)
    st.leader = [st.cs.leader("[/] Wyrocznia").index, -1]
    place(st, 0, {"front": "[/red]"}, ("[bold]Zemsta",))
    view = st.view(0)
    view["stack"] = [{"seat": 0, "card": "[bold]Zemsta", "target": 1, "target_card": None}]
    out = _text(GAME.render(view, st.events_since(0, 0)))
    assert "[/red]" in out and "[bold]Zemsta" in out and "[/] Wyrocznia" in out


def test_the_catalog_shows_markup_names_literally(tmp_path: Path) -> None:
    rules = GAME.ruleset(None, {"cards": _markup_file(tmp_path)})
    cat = GAME.catalog(rules)
    assert cat is not None
    out = _text(GAME.render_catalog(cat))
    assert "[/red]" in out and "[/] Wyrocznia" in out


def test_targets_read_as_seats_and_lanes() -> None:
    """A player reads "seat 1's front", never a raw slot number, and a card
    without a target (Wizja draws a card) does not point at "nothing"."""
    from bestiary.engine import Event

    st = at_tactics(2, 0, {0: ["Rekrut"], 1: ["Rekrut"]})
    view = st.view(0)
    view["stack"] = [{"seat": 1, "card": "Krwawy Grom", "target": 4, "target_card": None}]
    out = _text(GAME.render(view, []))
    assert "seat 1's front" in out and "slot 4" not in out
    line = GAME.describe_event(Event(0, "resolved", {"seat": 1, "card": "Wizja", "target": -1}))
    assert line == "Wizja resolves"


def test_cards_set_face_down_leave_the_hand_table_while_tactics_go_on() -> None:
    """Rulebook (Taktyka): each player lays creatures face down on the three
    positions and sets destiny cards; they are revealed together. The engine
    keeps them in the hand until every player is done (RULES.md), and the
    terminal listed them in "Your hand" beside "face down so far", so a
    newcomer read them as cards still to set."""
    hand = ["Rekrut", "Rekrut", "Bober", "Dziki Wilk", "Klątwa", "Kajdany"]
    st = at_tactics(2, 0, {0: hand, 1: ["Rekrut"]})
    for move in ("place Rekrut front", "place Bober left", "place Rekrut right", "set Klątwa"):
        st.apply_text(0, move)
    assert 0 in st.to_act()  # still setting: the cards are not revealed yet
    out = _text(GAME.render(st.view(0), []))
    left = out[out.index("Your hand, not yet set") : out.index("This round, face down so far")]
    assert "Dziki Wilk" in left and "Kajdany" in left
    assert not any(name in left for name in ("Rekrut", "Bober", "Klątwa")), left
    assert "Rekrut on the front" in out and "destiny cards set: Klątwa" in out
