"""Trust, proven for every registered game (bestiary/engine/audit.py).

DESIGN.md, "The game protocol": "A copy of a state is independent of the
original", a determinization is "a clone in which everything seat cannot
know is resampled", and "a seat's view and events never contain what that
seat may not know". These tests check the promises from the outside, on
random states met in random games of every player count and variant:

- a clone's whole-state fingerprint equals the original's, no mutable object
  is reachable from both, and playing the clone to the end leaves the
  original's fingerprint unchanged (a field added later is covered without
  anyone listing it);
- a determinization leaves the real state unchanged, shares nothing with it,
  holds the same cards in zones of the same sizes, and plays to the end;
- a determinization depends only on what the seat knows: from the real state
  and from a determinization of it (two worlds the seat cannot tell apart) the
  same random stream samples the very same state — so a bot's move or a
  player's hint cannot depend on the hidden cards' real order;
- an ISMCTS search leaves the real state's fingerprint unchanged;
- a partial view (what a bot reads in playouts) is exactly those entries of
  the seat's view, whatever shortcut the game takes to build them;
- the differential leak test: a seat sees the same view, legal actions,
  turn and events in the real world and in a determinization for it, also
  after the same moves in both, over 2,000 random states per game
  (benchmarks/leak_audit.py runs as many as you ask for).
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import entry_points

import pytest

from bestiary.engine import Rng, get_game
from bestiary.engine.audit import (
    check_clone,
    check_determinize,
    check_indistinguishable,
    check_sampling_blind,
    fingerprint,
    random_states,
    shared_fingerprint,
)
from bestiary.engine.protocol import Game, State

# The installed games (entry points), not the test games other modules register.
GAMES = sorted(ep.name for ep in entry_points(group="bestiary.games"))


def _tables(game: Game) -> list[tuple[int, str]]:
    """Every variant at the smallest, the usual and the largest table."""
    allowed = game.allowed_players()
    counts = sorted({allowed[0], game.default_players, allowed[-1]})
    return [(n, v) for v in game.variants for n in counts]


def sample_states(game: Game, count: int, every: float, salt: int) -> Iterator[tuple[State, Rng]]:
    """``count`` live states from random games over every table; each with an RNG."""
    tables = _tables(game)
    got = 0
    seed = salt
    while got < count:
        players, variant = tables[seed % len(tables)]
        for state in random_states(game, players, seed, every=every, variant=variant):
            yield state, Rng(seed * 100_003 + got)
            got += 1
            if got >= count:
                return
        seed += 1


@pytest.mark.parametrize("game_id", GAMES)
def test_a_clone_is_exact_and_independent(game_id: str) -> None:
    game = get_game(game_id)
    for n, (state, rng) in enumerate(sample_states(game, 80, every=0.04, salt=1)):
        check_clone(state, rng, play=n % 6 == 0)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_determinization_is_a_possible_world(game_id: str) -> None:
    game = get_game(game_id)
    for n, (state, rng) in enumerate(sample_states(game, 80, every=0.04, salt=2)):
        check_determinize(state, n % state.players, rng, play=n % 5 == 0)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_determinization_depends_only_on_what_the_seat_knows(game_id: str) -> None:
    game = get_game(game_id)
    for n, (state, rng) in enumerate(sample_states(game, 60, every=0.04, salt=5)):
        check_sampling_blind(state, n % state.players, rng)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_seat_cannot_tell_a_determinization_from_the_real_world(game_id: str) -> None:
    game = get_game(game_id)
    states = moves = 0
    for state, rng in sample_states(game, 2000, every=0.08, salt=3):
        seat = rng.randrange(state.players)
        moves += check_indistinguishable(state, seat, rng)
        states += 1
    assert states == 2000
    # The worlds must also be followed forward, not only compared at the start.
    assert moves > states


@pytest.mark.parametrize("game_id", GAMES)
def test_a_search_leaves_the_real_state_as_it_was(game_id: str) -> None:
    from bestiary.agents import AgentContext, make_agent

    game = get_game(game_id)
    bot = make_agent(game, "ismcts:iterations=12,rollout_limit=80,rollout=heuristic", seed=3)
    for n, (state, rng) in enumerate(sample_states(game, 12, every=0.05, salt=4)):
        before, tables = fingerprint(state), shared_fingerprint(state)
        seat = state.to_act()[0]
        bot.act(AgentContext(state, seat, rng))
        assert fingerprint(state) == before, f"state {n}: searching changed the real state"
        assert shared_fingerprint(state) == tables, f"state {n}: searching changed shared tables"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_partial_view_is_exactly_those_entries_of_the_view(game_id: str) -> None:
    """A bot that asks for a few fields (``AgentContext.view(fields)``) gets the
    entries of ``view(seat)``, no more and nothing else, on random states of
    every table: a game's shortcut for them may not show what the view hides."""
    game = get_game(game_id)
    for n, (state, rng) in enumerate(sample_states(game, 120, every=0.05, salt=6)):
        seat = n % state.players
        whole = state.view(seat)
        fast = sorted(type(state).PARTIAL_FIELDS)
        keys = sorted(whole)
        asks = [
            frozenset(fast),
            frozenset(x for x in fast if rng.random() < 0.5),
            frozenset(x for x in keys if rng.random() < 0.3),
            frozenset(keys),
        ]
        for fields in asks:
            part = state.partial_view(seat, fields)
            assert part == {k: whole[k] for k in fields if k in whole}, (n, sorted(fields))
