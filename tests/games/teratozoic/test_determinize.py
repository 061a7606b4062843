"""Determinization holds every card exactly once, in every phase.

The bug this guards against: a recessive gene kept during Breeding sits face
up in its owner's Gene Pool discard pile (and still in the hand it was drawn
to until Mutation); it used to be swapped out as an unknown hand card, so its
id also landed in the Mutations Deck and ISMCTS crashed with "card ... is
laid out twice" when it later built a play holding that card twice.
"""

from __future__ import annotations

from collections import Counter

from bestiary.engine import Rng
from bestiary.games.teratozoic.rules import Express, Hold, Keep, TeratozoicState

from .helpers import GAME, new


def _cards(st: TeratozoicState) -> Counter[int]:
    out: Counter[int] = Counter()
    for cards in st.zones().values():
        out.update(cards)
    return out


def _sizes(st: TeratozoicState) -> dict[str, int]:
    return {k: len(v) for k, v in st.zones().items()}


def _rollout(st: TeratozoicState, rng: Rng, limit: int = 20_000) -> None:
    steps = 0
    while not st.over:
        owed = st.to_act()
        seat = owed[rng.randrange(len(owed))]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
        steps += 1
        assert steps < limit


def _state_with_a_kept_recessive_gene() -> TeratozoicState:
    """Seat 1 holds a card back, loses, and keeps that card (it goes face up)."""
    for seed in range(200):
        st = new(2, seed=seed)
        rng = Rng(seed)
        while not st.over:
            seat = st.to_act()[0]
            legal = st.legal(seat)
            if st.phase == "expression":
                holds = [a for a in legal if isinstance(a, Hold)]
                action = (
                    holds[0]
                    if holds and not st.held[seat]
                    else next(a for a in legal if isinstance(a, Express))
                )
            elif st.phase == "breed-hand":
                keeps = [a for a in legal if isinstance(a, Keep) and a.card in st.held[seat]]
                action = keeps[0] if keeps else legal[0]
            else:
                action = legal[rng.randrange(len(legal))]
            st.apply(seat, action)
            kept_held = [c for s in range(2) for c in st.held[s] if c in st.kept]
            if st.phase == "breed-hand" and kept_held:
                return st
    raise AssertionError("no seed reached a kept recessive gene")


def test_zones_hold_every_card_once() -> None:
    """zones() lists each card of the game exactly once (a gained card only in
    the Gene Pool discard pile it went to)."""
    st = _state_with_a_kept_recessive_gene()
    counts = _cards(st)
    assert max(counts.values()) == 1
    assert sum(counts.values()) == 96


def test_a_kept_recessive_gene_is_not_resampled() -> None:
    """'Recessive genes ... are placed face down'; once kept, 'All gained cards go
    directly to a player's own Gene Pool Discard Pile' face up. Determinizing
    must leave that card where it is and not put its id in a second zone."""
    st = _state_with_a_kept_recessive_gene()
    real = _cards(st)
    for k in range(300):
        for seat in range(st.players):
            det = st.determinize(seat, Rng(k))
            assert _cards(det) == real, f"determinization {k} for seat {seat}"
            assert _sizes(det) == _sizes(st)
            for s in range(st.players):
                assert det.gdiscard[s] == st.gdiscard[s]


def test_rollouts_from_determinizations_in_every_phase_finish() -> None:
    """Long random rollouts from many determinizations (every phase, every seat)
    end without error and conserve the cards."""
    phases: Counter[str] = Counter()
    for players, seed in ((2, 3), (3, 4), (4, 5)):
        st = GAME.new(players, seed=seed)
        assert isinstance(st, TeratozoicState)
        rng = Rng(seed)
        step = 0
        while not st.over:
            if step % 7 == 0:
                phases[st.phase] += 1
                seat = step % players
                det = st.determinize(seat, rng.fork())
                assert isinstance(det, TeratozoicState)
                assert _cards(det) == _cards(st)
                if step % 21 == 0:
                    _rollout(det, rng.fork())
                    assert det.result is not None
            owed = st.to_act()
            seat = owed[rng.randrange(len(owed))]
            legal = st.legal(seat)
            st.apply(seat, legal[rng.randrange(len(legal))])
            step += 1
    assert {"expression", "growth", "breed-play", "breed-hand"} <= set(phases)
