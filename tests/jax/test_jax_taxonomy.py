"""The JAX port of Monster Girl Taxonomy against the Python engine (the reference).

Issue 30, point 2: "a differential test that plays random games move by move
in BOTH implementations from the same deal and compares, at every step, the
legal action masks, who acts, the rewards/scores and results (and the
observation vector of the acting seat)" — here every seat's observation — and
"a hidden-information differential test of observe: two states differing only
in cards the seat cannot see give the same observation".
"""

from __future__ import annotations

import random

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from bestiary.jax.differential import Tally, _compiled, play_both  # noqa: E402
from bestiary.jax.state import HAND, STOCK, TaxState  # noqa: E402

# Every kind of move of rules v0.2 (discard, table, win, claim/pass/keep in a
# claim window and pass of a declare, the impatient draw/stop, an aggressive
# monster's attack/no attack, rock-paper-scissors): these seeds' games play all.
SEEDS = (3, 9)
KINDS = {"discard", "table", "win", "claim", "pass", "keep", "draw", "stop", "attack", "no", "rps"}


def test_random_games_match_the_engine_step_by_step() -> None:
    tally = Tally()
    for seed in SEEDS:
        final = play_both(seed, 4, tally)  # raises at the first step that differs
        assert final.over and final.round == 4  # "you play several rounds (3-4)": 4 played
    assert set(tally.kinds) >= KINDS, f"moves not exercised: {KINDS - set(tally.kinds)}"
    assert tally.kinds["win"] >= 6  # rounds won and scored, not only run out


def _swap_hidden(st: TaxState, seat: int, other: int, pick: random.Random) -> TaxState | None:
    """``st`` with a card of ``other``'s hand exchanged for a stock card, both
    unknown to ``seat`` (not in its peek, not in a hand it saw): None if none."""
    zone, owner = np.asarray(st.zone), np.asarray(st.owner)
    peek = np.asarray(st.peek)[seat]
    seen = np.asarray(st.seen_from)[seat] == other
    stock = np.asarray(st.stock)[: int(st.stock_n)].tolist()
    hand = [c for c in np.flatnonzero((zone == HAND) & (owner == other)) if not seen[c]]
    hidden_stock = [c for c in stock if not peek[c]]
    if not hand or not hidden_stock:
        return None
    x, y = int(pick.choice(hand)), int(pick.choice(hidden_stock))
    i = stock.index(y)
    return st._replace(
        zone=st.zone.at[x].set(STOCK).at[y].set(HAND),
        owner=st.owner.at[y].set(other),
        hpos=st.hpos.at[y].set(st.hpos[x]),
        stock=st.stock.at[i].set(x),
        drawn=st.drawn.at[x].set(st.drawn[y]).at[y].set(st.drawn[x]),
    )


def test_observe_hides_the_cards_a_seat_cannot_see() -> None:
    """The other hands and the stock are hidden (view.py): swapping a card of
    another hand with an unseen stock card leaves the seat's observation as it
    was, and changes the other seat's (it holds another card)."""
    init_j, step_j, probe = _compiled(4)
    pick = random.Random(5)
    checked = 0
    for seed in (11, 12):
        key = jax.random.PRNGKey(seed)
        st, _, _ = init_j(key)
        for t in range(400):
            if bool(st.over):
                break
            masks, obs, seat_now = probe(st)[:3]
            if t % 20 == 0:
                for seat in range(4):
                    other = (seat + 1 + pick.randrange(3)) % 4
                    twin = _swap_hidden(st, seat, other, pick)
                    if twin is None:
                        continue
                    twin_obs = probe(twin)[1]
                    assert np.array_equal(obs[seat], twin_obs[seat])
                    assert not np.array_equal(obs[other], twin_obs[other])
                    checked += 1
            legal = np.flatnonzero(np.asarray(masks[int(seat_now)]))
            st, _, _ = step_j(st, jnp.int32(int(pick.choice(legal))), key, jnp.int32(t + 1))
    assert checked >= 40


def test_the_engine_is_driven_by_the_same_mean_pick() -> None:
    """The differential test answers the engine's ``randrange`` (a mean monster's
    "additional random card") with the JAX pick's arithmetic, on host values."""
    from bestiary.jax.chance import MEAN_PICKS, mean_index
    from bestiary.jax.differential import _mean_index_np

    words = jax.random.bits(jax.random.PRNGKey(3), (MEAN_PICKS,), jnp.uint32)
    host = np.asarray(words)
    for j in range(MEAN_PICKS):
        for n in (1, 2, 7, 8, 9, 13):
            assert int(mean_index(words, jnp.int32(j), jnp.int32(n))) == _mean_index_np(host, j, n)


def test_the_comparison_finds_one_entry_of_any_seats_observation() -> None:
    """The proof compares every seat's observation, not only the acting seat's:
    one entry changed in the JAX vector of a seat that is not acting is found
    (by the engine's sparse encoding), and so is one of the acting seat's."""
    from bestiary.games.taxonomy.observe import Observer
    from bestiary.games.taxonomy.ruleset import V02
    from bestiary.jax.differential import _compare, python_twin

    init_j, _, _ = _compiled(4)
    _, chance, probed = init_j(jax.random.PRNGKey(3))
    py = python_twin(chance, 4)
    observer = Observer(4, V02)
    _compare(py, probed, observer, "as dealt")  # the same deal: nothing differs
    acting = py.to_act()[0]
    for seat in ((acting + 2) % 4, acting):
        masks, obs, *rest = jax.device_get(probed)
        obs = np.array(obs)
        obs[seat, 7] += 0.5
        with pytest.raises(AssertionError, match=f"seat {seat} observation"):
            _compare(py, (masks, obs, *rest), observer, "changed")
