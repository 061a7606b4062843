"""The heuristic bot, rendering and the command line."""

from __future__ import annotations

import json

from rich.console import Console
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.sim.runner import play_game

from .helpers import GAME, new

runner = CliRunner()


def test_heuristic_beats_random() -> None:
    """The heuristic bot (solver builds, holds back when losing, keeps the best
    genes) wins far more than its share against random bots."""
    wins = 0.0
    games = 12
    for g in range(games):
        specs = ["random", "random", "random"]
        h = g % 3
        specs[h] = "heuristic"
        out = play_game(GAME, specs, seed=100 + g)
        if h in out.result.winners:
            wins += 1 / len(out.result.winners)
    assert wins / games >= 0.6  # a fair share would be 1/3


def test_render_shows_era_hand_monsters_and_scores() -> None:
    st = new(3, seed=2)
    while st.phase != "breed-play" and st.phase != "breed-hand":
        seat = st.to_act()[0]
        st.apply(seat, st.legal(seat)[0])
    console = Console(width=140, record=True)
    seat = st.to_act()[0]
    console.print(GAME.render(st.view(seat), st.events_since(0, seat)))
    text = console.export_text()
    assert "Apocalyptic Era" in text and "Your hand" in text
    assert "+--" in text  # the text-art grid of a monster
    assert "points" in text
    for e in st.events_since(0, None):
        assert GAME.describe_event(e)


def test_cards_command_lists_the_reconstruction() -> None:
    res = runner.invoke(app, ["cards", "teratozoic", "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["reconstruction"] is True and len(data["cards"]) == 96 and len(data["eras"]) == 7
    res = runner.invoke(app, ["cards", "teratozoic", "--variant", "basic"])
    assert res.exit_code == 0 and "RECONSTRUCTION" in res.stdout


def test_score_command_solves_the_worked_example() -> None:
    payload = {
        "cards": [
            "green 6 tentacle-brain",
            "green 1 tentacle-with-science",
            "green 3 segment",
            "purple 3 left arm",
            "purple 5 pincer",
        ]
    }
    res = runner.invoke(app, ["score", "teratozoic"], input=json.dumps(payload))
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["score"] == 32
    res = runner.invoke(app, ["score", "teratozoic"], input=json.dumps({"cards": ["no such card"]}))
    assert res.exit_code == 2 and "unknown card" in res.output


def test_bench_extra_times_the_solver() -> None:
    extra = GAME.bench_extra(GAME.ruleset())
    assert extra["solver_hand5_ms_median"] < 50
    assert extra["solver_pool30_ms_median"] < 2000


def test_heuristic_holds_back_when_it_expects_to_lose_and_expresses_when_strong() -> None:
    """'If you only have a couple of good cards, hold them back and then keep the
    best for your Gene Pool.'"""
    from bestiary.agents.base import AgentContext
    from bestiary.engine import Rng
    from bestiary.games.teratozoic.bots import HeuristicAgent
    from bestiary.games.teratozoic.rules import EXPRESS, Hold

    from .helpers import rig_hand

    weak = (
        "orange 1 head",
        "purple 1 elbow",
        "green 1 hook",
        "grey 0 nuclear waste",
        "green 6 torso",
    )
    strong = (
        "green 6 tentacle-brain",
        "green 1 tentacle-with-science",
        "green 3 segment",
        "purple 3 left arm",
        "purple 5 pincer",
    )
    st = new(3, seed=30)
    seat = st.to_act()[0]
    rig_hand(st, seat, weak)
    action = HeuristicAgent(seed=1).act(AgentContext(st, seat, Rng(2)))
    assert isinstance(action, Hold) and action.name == "green 6 torso"
    st = new(3, seed=30)
    rig_hand(st, seat, strong)
    assert HeuristicAgent(seed=1).act(AgentContext(st, seat, Rng(2))) == EXPRESS
