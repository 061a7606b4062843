"""Invariants over random play (hypothesis), hidden information, golden records."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bestiary.engine import Rng
from bestiary.games.taxonomy import GAME
from bestiary.games.taxonomy.rules import TaxonomyState

PRIVATE = {"dealt", "drew", "peeked", "saw_hand", "decided", "claim_open"}


def _new(players: int, seed: int, variant: str) -> TaxonomyState:
    s = GAME.new(players, seed=seed, variant=variant)
    assert isinstance(s, TaxonomyState)
    return s


def _all_cards(s: TaxonomyState) -> list[int]:
    tables = [c for t in s.tables for _, cs in t for c in cs]
    return (
        s.stock
        + [c for h in s.hands for c in h]
        + tables
        + s.discards
        + [c for a in s.aside for c in a]
    )


def _total(s: TaxonomyState, seat: int) -> int:
    return len(s.hands[seat]) + sum(len(cs) for _, cs in s.tables[seat])


def _names_in(obj: Any, out: set[str]) -> set[str]:
    if isinstance(obj, dict):
        if isinstance(obj.get("name"), str):
            out.add(obj["name"])
        for k, v in obj.items():
            if k not in ("peek", "seen_hands"):
                _names_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _names_in(v, out)
    return out


def _check(s: TaxonomyState) -> None:
    # Cards are conserved: stock + hands + tables + discards + set-aside = deck.
    assert sorted(_all_cards(s)) == list(range(s.deck.size))
    if s.over:
        return
    for seat in s.to_act():
        assert s.legal(seat), f"seat {seat} owes a decision in {s.phase} but has no legal action"
    # Hand sizes: "Each player must always have 8 cards" once effects finish.
    for seat in range(s.players):
        if seat != s.actor:
            assert _total(s, seat) == 8, (seat, s.phase)
    if s.phase == "discard":
        assert _total(s, s.actor) > 8
    if s.phase == "claim":
        assert _total(s, s.actor) == 8


def _leaks(s: TaxonomyState, seat: int) -> None:
    """A seat's view never shows another seat's hand (peeks and hands seen
    through an honest monster are snapshots, checked apart)."""
    shown = _names_in(s.view(seat), set())
    for other in range(s.players):
        if other != seat:
            hidden = {s.deck.names[c] for c in s.hands[other]}
            assert not hidden & shown, (seat, other, hidden & shown)
    for e in s.events_since(0, seat):
        if e.kind in PRIVATE and (e.kind != "drew" or "card" in e.data):
            assert e.data.get("seat", seat) == seat, e


OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "claim_priority": st.sampled_from(["turn-order", "random"]),
        "rps_ties": st.sampled_from(["repeat", "no-loser"]),
        "peek": st.sampled_from([1, 2, 3]),
        "rounds": st.sampled_from([1, 3, 4]),
    },
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 6),
    variant=st.sampled_from(["v0.2", "v0.1"]),
    options=OPTIONS,
)
def test_random_play_keeps_cards_hand_sizes_and_secrets(
    seed: int, players: int, variant: str, options: dict[str, Any]
) -> None:
    s = GAME.new(players, seed=seed, variant=variant, options=options or None)
    assert isinstance(s, TaxonomyState)
    rng = Rng(seed)
    steps = 0
    while not s.over and steps < 500:
        _check(s)
        if steps % 25 == 0:
            for seat in range(players):
                _leaks(s, seat)
        owed = s.to_act()
        seat = owed[rng.randrange(len(owed))]
        legal = s.legal(seat)
        s.apply(seat, legal[rng.randrange(len(legal))])
        steps += 1
    _check(s)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6))
def test_same_seed_same_game(seed: int, players: int) -> None:
    games = []
    for _ in range(2):
        s = _new(players, seed, "v0.2")
        rng = Rng(seed)
        moves = []
        while not s.over and len(moves) < 300:
            seat = s.to_act()[0]
            legal = s.legal(seat)
            a = legal[rng.randrange(len(legal))]
            moves.append(str(a))
            s.apply(seat, a)
        games.append((moves, json.dumps(s.view(None), sort_keys=True)))
    assert games[0] == games[1]


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5))
def test_determinize_keeps_the_seats_view_and_resamples_the_rest(seed: int, players: int) -> None:
    s = _new(players, seed, "v0.2")
    rng = Rng(seed)
    for _ in range(40):
        seat = s.to_act()[0]
        s.apply(seat, s.legal(seat)[rng.randrange(len(s.legal(seat)))])
    seat = s.to_act()[0]
    d = s.determinize(seat, Rng(seed + 1))
    assert d.view(seat) == s.view(seat)
    _check(d)
    others = [c for o in range(players) if o != seat for c in s.hands[o]]
    d_others = [c for o in range(players) if o != seat for c in d.hands[o]]
    assert sorted(others + s.stock) == sorted(d_others + d.stock)
    # The determinized state plays on to the end.
    while not d.over:
        q = d.to_act()[0]
        d.apply(q, d.legal(q)[rng.randrange(len(d.legal(q)))])


def test_the_view_docstring_names_every_key() -> None:
    """The lead's bot, renderer and web page read `view()`: its docstring is the contract."""
    import re

    doc = TaxonomyState.__doc__ or ""
    documented = set(re.findall(r"``(\w+)``", doc))
    for seat in (0, None):
        assert set(_new(4, 1, "v0.2").view(seat)) <= documented
