"""The heuristic bot's mistakes found in play, each fixed and pinned here."""

from __future__ import annotations

import pytest

from bestiary.agents.base import AgentContext, make_agent
from bestiary.engine import BadAgentSpec, Rng
from bestiary.games.meat import GAME
from bestiary.games.meat.bots import HeuristicAgent
from bestiary.games.meat.placement import arrangements
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


def _line_up(st: MeatState, seat: int, agent: HeuristicAgent) -> dict[str, str]:
    """The lanes ``agent`` fills for ``seat``, move by move."""
    lanes = {}
    while st.tac_stage[seat] == 0:
        m = agent.act(AgentContext(st, seat, Rng(0)))
        st.apply(seat, m)
        name, lane = str(m).removeprefix("place ").rsplit(" ", 1)
        lanes[lane] = name
    return lanes


def test_sampled_placement_puts_the_sergeant_between_the_creatures_it_buffs() -> None:
    """Sierżant: "ODKRYCIE: adjacent allies get +1 attack". Against three Dziki
    Wilk (3/2; drafted this round, so the seat knows them), two Akolita (1/2)
    beside the Sierżant strike for 2 and kill their wolves: every creature
    dies and the round is a draw. On a flank it buffs one Akolita; a wolf
    lives and the round is lost ("Podsumowanie": more creatures alive wins).
    The plain guess scores each lane alone, sees every line-up alike and
    takes the first (Sierżant left); ``place=sample`` runs the battle."""
    hands = {0: ["Sierżant", "Akolita", "Akolita"], 1: ["Dziki Wilk"] * 3}
    line_ups = {}
    for place in ("guess", "sample"):
        st = at_tactics(2, 0, hands)
        st.drafted[1] = list(st.hand[1])
        line_ups[place] = _line_up(st, 0, HeuristicAgent(seed=0, place=place))
    assert line_ups["sample"] == {"left": "Akolita", "front": "Sierżant", "right": "Akolita"}
    assert line_ups["guess"]["left"] == "Sierżant"


def test_an_arrangement_fills_every_lane_the_creatures_can() -> None:
    """Rule: "step 1 ends when the three lanes are full or no creature is left in
    hand": two creatures take two of three lanes in every arrangement, three
    of four creatures fill all three (only the strongest four are tried)."""
    two = arrangements([7, 8], [0, 1, 2])
    assert len(two) == 6 and all(sorted(a) == [-1, 7, 8] for a in two)
    four = arrangements([1, 2, 3, 4, 5], [0, 1, 2])
    assert len(four) == 24 and all(-1 not in a and 5 not in a for a in four)
    assert arrangements([3], [2]) == [(3,)]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("heuristic:place=sideways", "place must be one of guess, sample"),
        ("heuristic:place=sample,place_samples=0", "place_samples must be between 1 and 1000"),
    ],
)
def test_a_wrong_placement_option_says_what_is_allowed(spec: str, message: str) -> None:
    with pytest.raises(BadAgentSpec, match=message):
        make_agent(GAME, spec)
