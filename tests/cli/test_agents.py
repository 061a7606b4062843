"""A researcher's own agent: ``module:object`` specs (opt-in) and the ``bestiary.agents`` group."""

from __future__ import annotations

import json
from importlib.metadata import EntryPoint

import pytest
from typer.testing import CliRunner

from bestiary.agents import base, make_agent
from bestiary.cli import app
from bestiary.engine import BadAgentSpec, register

from ..engine.toygame import GAME
from .bots import FirstLegal

register(GAME)
runner = CliRunner()


def test_an_import_path_is_refused_unless_allowed() -> None:
    """A server must never import a module a remote player names."""
    with pytest.raises(BadAgentSpec, match="not allowed here"):
        make_agent(GAME, "tests.cli.bots:FirstLegal")


def test_a_class_or_factory_builds_with_seed_and_options() -> None:
    agent = make_agent(GAME, "tests.cli.bots:FirstLegal:depth=3", seed=5, allow_import=True)
    assert isinstance(agent, FirstLegal) and agent.options == {"depth": "3"}
    assert isinstance(
        make_agent(GAME, "tests.cli.bots:make_first_legal", allow_import=True), FirstLegal
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_such_module_xyz:Bot", "cannot import module 'no_such_module_xyz'"),
        ("tests.cli.bots:Missing", "has no 'Missing'"),
        ("tests.cli.bots:NOT_AN_AGENT", "is not a class or factory"),
        ("tests.cli.bots:NoAct", "has no act(ctx) method"),
        ("tests.cli.bots:make_first_legal:depth=3", "agent 'tests.cli.bots:make_first_legal"),
        ("tests.cli.bots:", "module:object"),
    ],
)
def test_broken_import_specs_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(BadAgentSpec, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_agent(GAME, spec, allow_import=True)


def test_an_installed_entry_point_agent_is_found_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    ep = EntryPoint("firstlegal", "tests.cli.bots:FirstLegal", "bestiary.agents")
    monkeypatch.setattr(base, "_agent_entry_points", lambda: {"firstlegal": ep})
    assert isinstance(make_agent(GAME, "firstlegal"), FirstLegal)
    assert "firstlegal" in base.available_agents(GAME)


def test_a_broken_entry_point_agent_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    ep = EntryPoint("gone", "no_such_module_xyz:Bot", "bestiary.agents")
    monkeypatch.setattr(base, "_agent_entry_points", lambda: {"gone": ep})
    with pytest.raises(BadAgentSpec, match=r"agent .gone. .*cannot be loaded.*pip install -e"):
        make_agent(GAME, "gone")
    assert type(make_agent(GAME, "random")).__name__ == "RandomAgent"  # the others still work


def test_simulate_and_play_seat_a_researchers_agent() -> None:
    res = runner.invoke(
        app, ["simulate", "toy", "-n", "5", "--seats", "random,tests.cli.bots:FirstLegal", "--json"]
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["agents"]["tests.cli.bots:FirstLegal"]["seat_games"] == 5
    res = runner.invoke(
        app, ["play", "toy", "--seats", "tests.cli.bots:make_first_legal,random", "--json"]
    )
    assert res.exit_code == 0, res.output


def test_the_cli_names_a_module_that_does_not_import() -> None:
    res = runner.invoke(app, ["simulate", "toy", "--seats", "random,nomod_xyz:Bot"])
    assert res.exit_code == 2
    assert "cannot import module 'nomod_xyz'" in res.stderr


def test_an_agents_options_may_hold_commas_inside_a_seat_list() -> None:
    res = runner.invoke(
        app, ["simulate", "toy", "-n", "2", "--seats", "ismcts:iterations=2,c=0.5,random", "--json"]
    )
    assert res.exit_code == 0, res.output
    assert set(json.loads(res.stdout)["agents"]) == {"ismcts:iterations=2,c=0.5", "random"}


def test_installed_agents_are_looked_up_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scanning the installed metadata takes milliseconds; a simulation builds agents
    for every seat of every game, so the scan must not be repeated."""
    calls = []

    def counting(group: str) -> list[EntryPoint]:
        calls.append(group)
        return []

    monkeypatch.setattr(base, "entry_points", counting)
    base._agent_entry_points.cache_clear()
    try:
        for seed in range(20):
            make_agent(GAME, "random", seed)
    finally:
        base._agent_entry_points.cache_clear()
    assert calls == ["bestiary.agents"]
