"""The heuristic's ``leader=`` option: a name that is no leader is an error.

Issue 28, point 3 ("silent traps"): ``heuristic:leader=<typo>`` silently fell
back to the default preference, so a designer's balance study of one leader
measured another without a word.
"""

from __future__ import annotations

import pytest

from bestiary.agents.base import AgentContext, make_agent
from bestiary.engine import Rng
from bestiary.games.meat import GAME
from bestiary.sim.runner import GameFailed, simulate


def test_a_leader_that_is_not_in_the_card_set_is_an_error_that_lists_the_leaders() -> None:
    with pytest.raises(GameFailed) as caught:
        simulate(GAME, ["heuristic:leader=Kat z Wiezy", "heuristic"], games=1)
    message = str(caught.value)
    assert "BadAgentSpec" in message
    assert "'kat z wiezy' is not a leader of this card set" in message
    assert "Kat z Wieży" in message  # the allowed names are listed


def test_a_named_leader_is_chosen_whenever_it_is_dealt() -> None:
    """Whenever the named leader is among the seat's choices, it is taken."""
    agent = make_agent(GAME, "heuristic:leader=kat z wieży")
    offered = 0
    for seed in range(40):
        st = GAME.new(2, seed=seed)
        seat = st.to_act()[0]
        names = [str(m) for m in st.legal(seat)]
        if not any("Kat z Wieży" in n for n in names):
            continue
        offered += 1
        assert "Kat z Wieży" in str(agent.act(AgentContext(st, seat, Rng(seed))))
    assert offered >= 3  # the check above really ran


def test_best_and_random_are_still_accepted() -> None:
    for spec in ("heuristic:leader=best", "heuristic:leader=random"):
        make_agent(GAME, spec)  # no error
