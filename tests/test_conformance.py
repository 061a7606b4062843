"""Protocol conformance for every registered game.

Random playthroughs check what every game promises (DESIGN.md, "The game
protocol"): someone owes a move until the end and has a legal one; actions
round-trip through text and index; an illegal action changes nothing;
views and events are JSON-safe; clones are independent; same seed + same
moves = same game; records replay to the same result.
"""

from __future__ import annotations

import json
import pickle
from importlib.metadata import entry_points

import pytest

from bestiary.engine import IllegalAction, Rng, get_game, replay
from bestiary.engine.protocol import Game, State
from bestiary.sim.runner import play_game

# The installed games (entry points), not the test games other modules register.
GAMES = sorted(ep.name for ep in entry_points(group="bestiary.games"))
SEEDS = range(3)


def _game(game_id: str) -> Game:
    return get_game(game_id)


def _counts(game: Game) -> list[int]:
    allowed = game.allowed_players()
    return sorted({allowed[0], game.default_players, allowed[-1]})


class _Garbage:
    def __str__(self) -> str:
        return "not an action at all"

    def __hash__(self) -> int:
        return 1


def _snapshot(state: State) -> bytes:
    """Every seat's view and the spectator's, pickled at once (a view that
    shares a list with the state cannot change the snapshot afterwards; two
    equal views built in another order only differ, never pass wrongly)."""
    seats: list[int | None] = [*range(state.players), None]
    return pickle.dumps([state.view(s) for s in seats])


@pytest.mark.parametrize("game_id", GAMES)
def test_random_playthroughs_keep_every_promise(game_id: str) -> None:
    game = _game(game_id)
    for players in _counts(game):
        for seed in SEEDS:
            state = game.new(players, seed=seed)
            rng = Rng(seed)
            steps = checked = 0
            while not state.over:
                owed = state.to_act()
                assert owed, "nobody owes a move but the game is not over"
                seat = owed[rng.randrange(len(owed))]
                legal = list(state.legal(seat))
                assert legal, f"seat {seat} owes a move but has no legal action"
                # Every 7th state early on, then every 29th: long random games
                # (Monster Maker's run to a few thousand moves) add few new kinds.
                if steps % (7 if steps < 700 else 29) == 0:
                    before = _snapshot(state)
                    with pytest.raises(IllegalAction):
                        state.apply(seat, _Garbage())
                    assert _snapshot(state) == before, "an illegal action changed the state"
                    for a in legal:
                        assert state.parse(seat, str(a)) == a
                        assert state.action_from_index(seat, state.action_index(a)) == a
                        idx = state.action_index(a)
                        assert 0 <= idx < game.num_actions(players, state.rules)
                    json.dumps(state.view(seat))
                    json.dumps(state.view(None))
                    # The events since the last check (each event is checked once).
                    json.dumps([e.to_json() for e in state.events_since(checked, seat)])
                    checked = state.event_count()
                    clone = state.clone()
                    clone.apply(seat, legal[0])
                    assert _snapshot(state) == before, "a clone shares data with its original"
                    det = state.determinize(seat, Rng(seed + steps))
                    assert json.dumps(det.view(seat), sort_keys=True, default=str) == json.dumps(
                        state.view(seat), sort_keys=True, default=str
                    ), "determinize changed what the seat can see"
                state.apply(seat, legal[rng.randrange(len(legal))])
                steps += 1
                assert steps < 200_000, "the game does not end"
            assert state.to_act() == ()
            res = state.result
            assert res is not None and len(res.scores) == players
            assert all(0 <= w < players for w in res.winners)


@pytest.mark.parametrize("game_id", GAMES)
def test_same_seed_same_game_and_records_replay(game_id: str) -> None:
    game = _game(game_id)
    specs = ["random"] * game.default_players
    a = play_game(game, specs, seed=11, record=True)
    b = play_game(game, specs, seed=11, record=True)
    assert a.record is not None and b.record is not None
    assert a.record.moves == b.record.moves
    again = replay(a.record)
    assert again.result is not None
    assert again.result.to_json() == a.result.to_json()


@pytest.mark.parametrize("game_id", GAMES)
def test_info_and_every_variant_starts(game_id: str) -> None:
    game = _game(game_id)
    info = game.info()
    json.dumps(info)
    for variant in game.variants:
        state = game.new(game.default_players, seed=1, variant=variant)
        assert state.to_act()


@pytest.mark.parametrize("game_id", GAMES)
def test_the_generic_ismcts_bot_searches_every_game(game_id: str) -> None:
    """DESIGN.md: "`random` and `ismcts` work for every game" — a search over
    determinized clones plays legal moves and leaves the real state as it was."""
    from bestiary.agents import AgentContext, make_agent

    game = _game(game_id)
    state = game.new(game.default_players, seed=5)
    bot = make_agent(game, "ismcts:iterations=8,rollout_limit=60", seed=1)
    for n in range(6):
        if state.over:
            break
        seat = state.to_act()[0]
        before = _snapshot(state)
        action = bot.act(AgentContext(state, seat, Rng(n)))
        assert _snapshot(state) == before, "searching changed the real state"
        assert action in list(state.legal(seat))
        state.apply(seat, action)
