"""The last tie-break of the final scoring (rulebook 'Winning the Game'):

'If two or more players have the same highest total, those players should count
the number of single-color creatures with no loose ends they're able to assemble
from their remaining cards; the player with the most creatures is the winner.
(If you still have a tie, play the Teratozoic Era again!)'

Reading (RULES.md 'Winning'): only the still-tied players shuffle their whole
Gene Pool and play the Teratozoic Era again among themselves under its rules;
the final scoring and its first tie-break then decide among them; after
``max_final_replays`` replays the still-tied players share the win.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bestiary.engine import BadOptions, Rng
from bestiary.games.teratozoic.cards import FINAL_ERA
from bestiary.games.teratozoic.describe import describe
from bestiary.games.teratozoic.rules import Take, TeratozoicState
from bestiary.games.teratozoic.solver import score_pool

from .helpers import DECK, GAME, ids, new


def _starting(colour: str, symbol: str) -> list[int]:
    return [c.id for c in DECK if c.colour == colour and c.pool == symbol]


def _end_state(st: TeratozoicState, pools: list[list[int]]) -> TeratozoicState:
    """The end of the Teratozoic Era with these Gene Pools (hands empty); every
    other card lies in the Mutations Deck discard pile."""
    st.eras = [e for e in st.eras if e.name == FINAL_ERA]
    st.final_shuffled = True
    mine = {c for p in pools for c in p}
    rest = [c for p in st.pool + st.gdiscard + st.hand for c in p] + st.mutations
    st.mut_discard += [c for c in rest if c not in mine]
    st.mut_discard = [c for c in st.mut_discard if c not in mine]
    st.mutations = []
    st.pool = [list(p) for p in pools]
    st.gdiscard = [[] for _ in pools]
    st.hand = [[] for _ in pools]
    return st


def _tied_three() -> TeratozoicState:
    """Seats 0 and 2 each close six cards (a whole ☉ Gene Pool, nothing left
    over: 0 more creatures); seat 1 closes only four."""
    st = new(3, seed=3)
    pools = [_starting("green", "sun"), _starting("purple", "cross"), _starting("orange", "sun")]
    _end_state(st, pools)
    assert [score_pool(DECK, p).cards for p in pools] == [6, 4, 6]
    return st


def _play_out(st: TeratozoicState, pick: Callable[[int, list[Any]], Any] | None = None) -> None:
    n = 0
    while not st.over:
        seat = st.to_act()[0]
        legal = list(st.legal(seat))
        st.apply(seat, pick(seat, legal) if pick else legal[0])
        n += 1
        assert n < 500


def _kinds(st: TeratozoicState, seat: int | None = None) -> list[str]:
    return [e.kind for e in st.events_since(0, seat)]


def test_only_the_tied_players_play_the_teratozoic_era_again() -> None:
    """'(If you still have a tie, play the Teratozoic Era again!)' — the players
    of the tie ('those players'), not the player who already lost."""
    st = _tied_three()
    seat1_pool = list(st.pool[1])
    mark = st.event_count()
    st._finish()
    assert not st.over and st.replaying == (0, 2)
    assert st.competing == [s for s in st.competing if s in (0, 2)] and set(st.competing) == {0, 2}
    assert st.hand[1] == [] and st.pool[1] == seat1_pool
    drew = [e.data["seat"] for e in st.events_since(mark, None) if e.kind == "drew"]
    assert sorted(drew) == [0, 2]
    # Seat 1 never has a decision to make during the replay.
    while not st.over:
        assert 1 not in st.to_act()
        seat = st.to_act()[0]
        st.apply(seat, st.legal(seat)[0])
    assert st.pool[1] == seat1_pool
    assert st.result is not None and 1 not in st.result.winners


def test_the_replay_follows_the_teratozoic_eras_rules() -> None:
    """'the Teratozoic Era draws only from the Gene Pool'; the whole Gene Pool is
    shuffled once; 'once a player's Gene Pool is exhausted they cannot shuffle it
    and thus cannot compete in any more generations (but they should play their
    last hand, even if it is fewer than 5 cards)'."""
    st = _tied_three()
    owned = {s: sorted(st.owned(s)) for s in (0, 2)}
    mutations = len(st.mutations) + len(st.mut_discard)
    mark = st.event_count()
    st._finish()
    assert st.era.name == FINAL_ERA and st.final_shuffled
    for s in (0, 2):
        # The whole Gene Pool, shuffled: a hand of five from it, the rest below.
        assert sorted(st.pool[s] + st.hand[s]) == owned[s] and st.gdiscard[s] == []
        assert len(st.hand[s]) == 5
    draws = [e.data for e in st.events_since(mark, None) if e.kind == "drew"]
    assert len(draws) == 2 and all(d["mutations"] == 0 and d["gene_pool"] == 5 for d in draws)
    assert len(st.mutations) + len(st.mut_discard) == mutations  # no mutation drawn
    _play_out(st)
    # Tie draws took the sixth cards into play; the gains went to the discard
    # piles and were never shuffled back: the exhausted Gene Pools drew nothing
    # and the replay ended there.
    assert "reshuffled" not in [e.kind for e in st.events_since(mark, None)]
    assert all(st.pool[s] == [] and len(st.gdiscard[s]) >= 5 for s in (0, 2))
    last = [e.data for e in st.events_since(mark, None) if e.kind == "drew"][-2:]
    assert all(d["gene_pool"] == 0 for d in last)
    assert st.generation == 2  # the set-up's generation + one replayed


def test_the_final_scoring_then_decides_among_the_tied_players() -> None:
    """'The player with the highest total is the winner' — applied again to the
    tied players after the replay; the scores stay those of the first scoring."""
    st = _tied_three()
    st._finish()
    _play_out(st)
    res = st.result
    assert res is not None and res.scores == [6.0, 4.0, 6.0]
    assert res.stats["final_replays"] == st.replays >= 1
    (winner,) = res.winners
    assert winner in (0, 2)
    loser = 2 - winner
    finals = {s: score_pool(DECK, st.owned(s)) for s in (0, 2)}
    assert st.final[0] == finals[0] and st.final[2] == finals[2]
    w, lo = finals[winner], finals[loser]
    assert (w.cards, w.extra_monsters()) > (lo.cards, lo.extra_monsters())
    over = [e.data for e in st.events_since(0, None) if e.kind == "game_over"]
    assert len(over) == 1 and over[0]["winners"] == [winner] and over[0]["replays"] == st.replays


def _never_closing() -> list[list[int]]:
    """Two Gene Pools that can never make a closed single-colour monster (one
    three-ended card per colour, grey, three-colour, the off-centre blue card), so
    every replay ends tied at 0 cards and 0 creatures."""
    return [
        ids(
            "orange 4 crest",
            "purple 4 crest",
            "green 4 crest",
            "three-colour 5 chimera",
            "grey 0 nuclear waste",
            "blue 6 frost-spine",
        ),
        ids(
            "orange 3 haunch",
            "purple 3 haunch",
            "green 3 haunch",
            "three-colour 5 hydra",
            "grey 0 nuclear sludge",
            "red 6 fire-gland",
        ),
    ]


def _take_own(st: TeratozoicState) -> Callable[[int, list[Any]], Any]:
    """The winner takes one of its own cards, so no card changes hands."""

    def pick(seat: int, legal: list[Any]) -> Any:
        own = [a for a in legal if isinstance(a, Take) and a.card in st.played(seat)]
        return own[0] if own else legal[0]

    return pick


def test_after_max_final_replays_the_still_tied_players_share_the_win() -> None:
    """RULES.md: the replays are capped by the option ``max_final_replays``; after
    that the still-tied players share the win."""
    st = GAME.new(2, seed=5, options={"max_final_replays": 2})
    assert isinstance(st, TeratozoicState)
    _end_state(st, _never_closing())
    st._finish()
    _play_out(st, _take_own(st))
    assert st.result is not None
    assert st.result.winners == [0, 1] and st.result.stats["final_replays"] == 2
    ties = [e.data for e in st.events_since(0, None) if e.kind == "final_tie"]
    assert [t["replay"] for t in ties] == [1, 2] and all(t["max_replays"] == 2 for t in ties)


def test_max_final_replays_zero_shares_at_once_and_bad_values_are_refused() -> None:
    """``max_final_replays = 0``: no replay, the tied players share the win."""
    st = GAME.new(2, seed=5, options={"max_final_replays": 0})
    assert isinstance(st, TeratozoicState)
    _end_state(st, _never_closing())
    st._finish()
    assert st.over and st.result is not None and st.result.winners == [0, 1]
    assert "final_tie" not in _kinds(st) and "final_replays" not in st.result.stats
    with pytest.raises(BadOptions, match="max_final_replays"):
        GAME.new(2, seed=5, options={"max_final_replays": -1})


def test_no_replay_when_the_tied_players_have_fewer_than_five_cards() -> None:
    """'if a player ever has fewer than five cards in their entire Gene Pool ...
    they lose the game': players the game's end spared from that (everyone left
    falling below five at once) cannot play an Era again; they share the win."""
    st = new(2, seed=5)
    pools = [p[:4] for p in _never_closing()]
    _end_state(st, pools)
    st._finish()
    assert st.over and st.result is not None and st.result.winners == [0, 1]
    assert st.replays == 0


def test_events_and_view_say_what_happens_and_hide_what_they_must() -> None:
    """Everyone sees the tie, who replays and the Gene Pool sizes; a hand replayed
    is seen by its owner only; ``determinize`` keeps every seat's view."""
    st = _tied_three()
    mark = st.event_count()
    st._finish()
    for seat in (None, 0, 1, 2):
        kinds = [e.kind for e in st.events_since(mark, seat)]
        assert "final_tie" in kinds and "final_replay" in kinds
    tie = next(e for e in st.events_since(0, 1) if e.kind == "final_tie")
    assert tie.data == {
        "seats": [0, 2],
        "cards": 6,
        "creatures": 0,
        "replay": 1,
        "max_replays": 3,
    }
    assert "play the Teratozoic Era again" in describe(tie, deck=DECK)
    hands = [e for e in st.events_since(mark, 1) if e.kind == "hand"]
    assert hands == []  # seat 1 sees neither replaying hand
    assert {e.data["seat"] for e in st.events_since(mark, 0) if e.kind == "hand"} == {0}
    v1 = st.view(1)
    assert v1["replaying"] == [0, 2] and v1["final_replays"] == 1
    assert v1["players"][1]["competing"] is False
    assert v1["players"][0]["hand_size"] == 5 and v1["players"][0]["gene_pool"] == 1
    assert not (set(st.hand[0]) & set(v1["hand"] + v1["my_gene_pool"]))
    while not st.over:
        for seat in range(3):
            assert st.determinize(seat, Rng(seat)).view(seat) == st.view(seat)
        seat = st.to_act()[0]
        st.apply(seat, st.legal(seat)[0])
    over = next(e for e in st.events_since(0, 1) if e.kind == "game_over")
    assert "replay" in describe(over, deck=DECK)
