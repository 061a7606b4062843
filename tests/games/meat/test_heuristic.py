"""The heuristic bot's mistakes found in play, each fixed and pinned here."""

from __future__ import annotations

from bestiary.agents.base import AgentContext
from bestiary.engine import Rng
from bestiary.games.meat.bots import HeuristicAgent
from bestiary.games.meat.rules import MeatState

from .helpers import at_tactics, to_activation


def _choice(st: MeatState, seat: int) -> str:
    return str(HeuristicAgent(seed=0).act(AgentContext(st, seat, Rng(0))))


def test_seat_1_fuses_helpful_equipment_onto_its_own_creature() -> None:
    """Jad Mutanta gives TOXIN. With nothing to gain in the coming battle, every
    target scored the same and list order (seat 0's creatures first) made seat 1
    poison the opponent's creature; a tie now goes to one's own side."""
    st = at_tactics(2, 0, {0: ["Akolita"], 1: ["Rekrut", "Jad Mutanta"]})
    st.vit = [25, 20]  # team 1 has less vitality: it acts first
    to_activation(st, {0: {"left": "Akolita"}, 1: {"front": "Rekrut"}}, {1: ("Jad Mutanta",)})
    assert 1 in st.to_act()
    assert _choice(st, 1) == "resolve Jad Mutanta @ s1 front"


def test_the_bot_uses_a_paid_card_before_passing() -> None:
    """Passing opens the battle window, which fires Okrzyk Bojowy (+1 attack to
    all allies); the look-ahead counted that buff only when passing, so it
    passed with a paid Zardzewiały Miecz (+1 attack), throwing the card away.
    The evaluation now fires battle triggers in both branches."""
    names = ["Rekrut", "Strzelec", "Tarczownik", "Okrzyk Bojowy", "Zardzewiały Miecz"]
    st = at_tactics(2, 0, {0: [], 1: names})
    st.vit = [20, 25]  # team 0 acts first and passes
    to_activation(
        st,
        {1: {"left": "Rekrut", "front": "Strzelec", "right": "Tarczownik"}},
        {1: ("Okrzyk Bojowy", "Zardzewiały Miecz")},
    )
    st.apply_text(0, "pass")
    assert st.to_act() == (1,)
    assert _choice(st, 1).startswith("resolve Zardzewiały Miecz @ s1")
