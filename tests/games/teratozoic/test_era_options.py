"""The ``eras`` option: a game started in the final Era, and an Era listed twice."""

from __future__ import annotations

import pytest

from bestiary.engine import BadOptions

from .helpers import GAME, new


def test_a_game_started_in_the_teratozoic_era_never_reshuffles() -> None:
    """'During this Era, once a player's Gene Pool is exhausted they cannot shuffle
    it and thus cannot compete in any more generations': also when the game
    starts in the Teratozoic Era (`eras=Teratozoic Era`)."""
    st = new(3, seed=5, eras=("Teratozoic Era",))
    assert st.era.final and st.final_shuffled
    # Exhaust seat 0's Gene Pool and put cards in its discard pile: a draw must
    # not shuffle them back.
    st.gdiscard[0] += st.pool[0]
    st.pool[0] = []
    assert st._draw_pool(0) is None
    assert st.pool[0] == [] and len(st.gdiscard[0]) > 0


def test_whole_games_started_in_the_final_era_never_reshuffle() -> None:
    """No 'reshuffled' event in a whole game that starts in the Teratozoic Era."""
    from .helpers import play_out

    for seed in range(3):
        st = new(3, seed=seed, eras=("Teratozoic Era",))
        play_out(st)
        assert not [e for e in st.log.since(0, None) if e.kind == "reshuffled"]
        assert st.over


def test_an_era_listed_twice_is_refused() -> None:
    """There is one card of each Era ('7 Era cards'): a stack naming one twice is
    refused with a one-line error that says which."""
    with pytest.raises(BadOptions, match="'Temnozoic Era' is listed more than once") as exc:
        GAME.ruleset(None, {"eras": "Temnozoic Era,Temnozoic Era,Teratozoic Era"})
    assert "\n" not in str(exc.value)
    with pytest.raises(BadOptions, match="more than once"):
        GAME.ruleset(None, {"eras": "Teratozoic Era,Teratozoic Era"})
