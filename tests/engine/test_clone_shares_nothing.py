"""Issue 27, point 10: "the bot worker pool pickles a job in a thread while the
event loop goes on using the table — 'dictionary changed size during
iteration' 43 times at Teratozoic tables (likely the action table that a clone
shares with the live game)".

DESIGN.md, "The game protocol": "A copy of a state is independent of the
original". Checked here for every installed game, caches and game-level
action tables included: a clone shares no mutable object with its original
but the tables a game declares SHARED, and using a clone (listing moves,
building views, playing it to the end) changes nothing reachable from the
original — not its caches, not the card set's action table.
"""

from __future__ import annotations

import hashlib
import pickle
from importlib.metadata import entry_points

import pytest

from bestiary.engine import Rng, get_game
from bestiary.engine.audit import _key, canonical, fingerprint, play_out, shared_mutables
from bestiary.engine.protocol import State

GAMES = sorted(ep.name for ep in entry_points(group="bestiary.games"))


def _everything(state: State) -> str:
    """A digest of every attribute of ``state`` but its game object: caches and
    SHARED tables included (the audit's fingerprint leaves those out)."""
    return hashlib.sha256(_key(canonical(state, skip=frozenset({"game"}))).encode()).hexdigest()


def _use(state: State) -> None:
    """What the server and the bots do with a state: who acts, their moves, views."""
    for seat in range(state.players):
        state.legal(seat)
        state.view(seat)
    state.view(None)


def _states(game_id: str, count: int) -> list[State]:
    game = get_game(game_id)
    out: list[State] = []
    seed = 0
    while len(out) < count:
        rng = Rng(seed)
        state = game.new(game.default_players, seed=seed)
        while not state.over and len(out) < count:
            if rng.random() < 0.08:
                out.append(state.clone())
            seat = state.to_act()[0]
            legal = state.legal(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
        seed += 1
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_a_clone_shares_no_mutable_object_caches_included(game_id: str) -> None:
    """'a clone shares no mutable object with its original, including
    game-level action tables': only what the game declares SHARED (and the
    audit's shared fingerprint proves unchanging) may be reachable from both."""
    for n, state in enumerate(_states(game_id, 12)):
        _use(state)  # the original's caches are filled, as a live table's are
        copy = state.clone()
        _use(copy)
        shared = shared_mutables(state, copy)
        assert not shared, f"state {n}: a clone shares {shared[:5]} with its original"


@pytest.mark.parametrize("game_id", GAMES)
def test_using_a_clone_changes_nothing_the_original_holds(game_id: str) -> None:
    """What a worker's copy does (list moves, build views, play to the end)
    leaves every object reachable from the live state as it was, its caches
    and the card set's action table included: so a thread reading one never
    sees the other change."""
    for n, state in enumerate(_states(game_id, 6)):
        _use(state)
        before = _everything(state)
        copy = state.clone()
        _use(copy)
        play_out(copy, Rng(n))
        assert _everything(state) == before, f"state {n}: using a clone changed the original"


def test_a_teratozoic_job_carries_no_action_table() -> None:
    """A bot job pickles the state: Teratozoic's card-set tables stay behind
    (the worker has its own), and the state arrives whole."""
    for state in _states("teratozoic", 3):
        data = pickle.dumps(state)
        back = pickle.loads(data)
        assert fingerprint(back) == fingerprint(state)
        assert back.acts is state.acts  # this process's table, not a copy
        assert back.legal(back.to_act()[0]) == state.legal(state.to_act()[0])
        assert len(data) < 200_000, len(data)  # the action table alone is 700 kB
