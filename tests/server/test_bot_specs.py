"""Bots a remote client may seat: the lobby's levels and bounded options only,
checked again when a stored table loads."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bestiary.engine import get_game
from bestiary.server import create_app
from bestiary.server.bots import check_spec, playable
from bestiary.server.store import SeatRow, Store, TableRow, database_url

from .conftest import create


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=100000000",
        "ismcts:iterations=0",
        "ismcts:rollout_limit=99999",
        "ismcts:depth=3",
        "random:iterations=5",
        "bestiary.agents.random_agent:RandomAgent",
        "x" * 81,
    ],
)
def test_unbounded_or_unknown_bot_specs_are_refused(client: TestClient, spec: str) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "agent": spec}]
    r = client.post("/api/tables", json={"game": "toy", "seats": seats})
    assert r.status_code in (400, 422), r.text
    if r.status_code == 400:
        assert "easy, normal, hard" in r.json()["detail"]
    assert client.get("/api/tables").json()["total"] == 0  # nothing stored


def test_levels_and_bounded_search_are_accepted(client: TestClient) -> None:
    t = create(client, seats=["human", "hard", "ismcts:iterations=50,c=1.2"])
    assert [s["agent"] for s in t["seats"]][1:] == ["hard", "ismcts:iterations=50,c=1.2"]
    toy = get_game("toy")
    assert playable(toy, "easy", 2000) == "random"
    assert playable(toy, "hard", 2000).startswith("ismcts:iterations=")
    assert check_spec(toy, "normal", 2000) == "normal"


def test_an_old_unbounded_spec_is_not_played_after_a_restart(tmp_path: Path) -> None:
    """A table stored before the limit (``iterations=100000000``) resumes with
    the normal level instead of filling a worker for hours."""
    db = str(tmp_path / "old.sqlite3")
    with TestClient(create_app(db, bot_delay=0)):
        pass  # the schema
    store = Store(database_url(db))
    store.create_table(
        TableRow(
            id="old-table",
            game="toy",
            variant="standard",
            options={},
            players=2,
            seed=4,
            status="playing",
            created_at=datetime.now(UTC),
            seats=[SeatRow(i, "bot", "ismcts:iterations=100000000", "greedy") for i in range(2)],
        )
    )
    store.dispose()
    with TestClient(create_app(db, bot_delay=0)) as client:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if client.get("/api/tables/old-table").json()["status"] == "finished":
                break
            time.sleep(0.2)
        assert client.get("/api/tables/old-table").json()["status"] == "finished"


def test_the_meat_search_leaves_placement_to_the_sampled_battle() -> None:
    """docs/RL.md, "M.E.A.T.": the tactics are set face down at the same time,
    and a search that places seat after seat lets the later seats answer, so
    at every table size the hard level and the hint leave the secret
    placement (``place``, ``set``, ``done``) to their guide, the heuristic
    placing by sampling the battle (``place=sample``)."""
    from bestiary.agents import AgentContext, make_agent
    from bestiary.agents.hint import strongest_spec
    from bestiary.engine import Rng

    meat = get_game("meat")
    tail = ",playout=lookahead=0,leave=place;set;done,guide=place=sample"
    for players in (2, 4, 6):
        assert playable(meat, "hard", 2000, players=players).endswith(tail)
        assert strongest_spec(meat.new(players, seed=3), 0.5).endswith(tail)
    # At 4 seats the hard level places as its guide does: without a search.
    state = meat.new(4, seed=3)
    # (a second a move, but none is spent on these decisions)
    searcher = make_agent(meat, playable(meat, "hard", 2000, players=4), seed=1)
    plain = make_agent(meat, "heuristic", seed=1)
    placed = 0
    while not state.over and placed < 6:
        seat = state.to_act()[0]
        kinds = {str(a).split(" ", 1)[0] for a in state.legal(seat)}
        if kinds <= {"place", "set", "done"}:
            assert searcher.act(AgentContext(state, seat, Rng(7))) in state.legal(seat)
            assert searcher.last_iterations == 0  # type: ignore[attr-defined]
            placed += 1
        state.apply(seat, plain.act(AgentContext(state, seat, Rng(placed))))
    assert placed == 6


def test_the_hard_level_plays_the_options_the_games_search_is_strongest_with() -> None:
    """docs/RL.md, "Strength": M.E.A.T.'s search beat the heuristic with its
    playouts' look-ahead off and its placement left to the sampled battle; the
    hard level (and the hint) play that search, other games the options their
    value module names, and the spec builds an agent that moves."""
    from bestiary.agents import AgentContext, make_agent
    from bestiary.agents.hint import strongest_spec
    from bestiary.engine import Rng

    meat = get_game("meat")
    hard = playable(meat, "hard", 2000)
    assert hard == (
        "ismcts:seconds=1,rollout_limit=200,"
        "playout=lookahead=0,leave=place;set;done,guide=place=sample"
    )
    state = meat.create(2, 3, meat.variants["standard"])
    assert strongest_spec(state, 0.5).endswith(",guide=place=sample")
    fast = hard.replace("seconds=1", "iterations=8")
    seat = state.to_act()[0]
    move = make_agent(meat, fast, seed=1).act(AgentContext(state, seat, Rng(1)))
    assert move in state.legal(seat)
    # Taxonomy, Monster Maker and Teratozoic guide the search and play its
    # playouts with their heuristic's tuned options (each game's RULES.md),
    # overrule the guide only by three standard errors, and name options for
    # speed (playouts that make the same moves faster); Taxonomy leaves
    # rock-paper-scissors unsearched to the heuristic's even mix.
    hard = "ismcts:seconds=1,rollout_limit=200"
    tuned = "greed=0;plan=reach;defend=60;cycle=6"
    assert playable(get_game("taxonomy"), "hard", 2000) == (
        f"{hard},playout=lite=1;{tuned},guide={tuned},confidence=3,leave=rps"
    )
    tuned = "road=plan;block_margin=0;worth=hand;heal=stronger;doomed=block;draws=left;hold=0.75"
    assert playable(get_game("monster-maker"), "hard", 2000) == (
        f"{hard},playout=odds_cache=1;lite=1;{tuned},guide={tuned},confidence=3"
    )
    tuned = "doubler=9;marginal=1;share_late=2"
    assert playable(get_game("teratozoic"), "hard", 2000) == (
        f"{hard},playout=samples=1;{tuned},guide={tuned},confidence=3"
    )
    for game_id in ("taxonomy", "monster-maker", "teratozoic"):
        game = get_game(game_id)
        state = game.new(2, seed=3)
        seat = state.to_act()[0]
        fast = playable(game, "hard", 2000).replace("seconds=1", "iterations=8")
        move = make_agent(game, fast, seed=1).act(AgentContext(state, seat, Rng(1)))
        assert move in state.legal(seat)
