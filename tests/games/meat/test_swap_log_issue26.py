"""Issue 26: "a card that swaps two creatures logs one move" (M.E.A.T.).

Displacement (Przemieszczenie: "move an enemy creature to the front") onto
an occupied front swaps the two creatures (board.move); the log must tell
both moves, in English and in Polish, so the record matches the table."""

from __future__ import annotations

from bestiary.games.meat.describe import describe
from bestiary.i18n import use_language

from .helpers import at_tactics, events, to_activation


def test_a_swap_logs_both_creatures_moves() -> None:
    st = at_tactics(2, 0, {0: ["Przemieszczenie"], 1: ["Rekrut", "Kwasowy Ślimak"]})
    st.vit = [20, 25]  # seat 0 starts the Activation
    to_activation(
        st,
        {1: {"left": "Rekrut", "front": "Kwasowy Ślimak"}},
        {0: ("Przemieszczenie",)},
    )
    st.tel[0] = 9
    start = st.event_count()
    st.apply_text(0, "resolve Przemieszczenie @ s1 left")
    # The board after the swap: the Recruit in front, the Snail on the left flank.
    assert st.name(st.field[4]) == "Rekrut" and st.name(st.field[3]) == "Kwasowy Ślimak"
    moved = [e for e in st.events_since(start, None) if e.kind == "moved"]
    assert [(e.data["card"], e.data["src"], e.data["dest"]) for e in moved] == [
        ("Rekrut", 0, 1),
        ("Kwasowy Ślimak", 1, 0),
    ]
    assert all(e.data["source"] == "Przemieszczenie" for e in moved)
    names = ["Ala", "Bob"]
    english = [describe(e, names) for e in moved]
    assert english == [
        "Bob's Rekrut moves from the left flank to the front (Przemieszczenie)",
        "Bob's Kwasowy Ślimak moves from the front to the left flank (Przemieszczenie)",
    ]
    with use_language("pl"):
        polish = [describe(e, names) for e in moved]
    # Both moves in Polish too (the wording is the catalog's: meat.po).
    assert "Rekrut" in polish[0] and "Kwasowy Ślimak" in polish[1], polish
    assert all(pl != en for pl, en in zip(polish, english, strict=True)), polish


def test_a_move_to_an_empty_lane_is_one_move() -> None:
    """No swap, no second line: a creature moved onto an empty lane is one move."""
    st = at_tactics(2, 0, {0: ["Przemieszczenie"], 1: ["Rekrut"]})
    st.vit = [20, 25]
    to_activation(st, {1: {"left": "Rekrut"}}, {0: ("Przemieszczenie",)})
    st.tel[0] = 9
    before = len(events(st, "moved"))
    st.apply_text(0, "resolve Przemieszczenie @ s1 left")
    assert len(events(st, "moved")) == before + 1
