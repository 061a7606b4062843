"""The operator's own agents: ``bestiary serve --agent NAME=module:Object``
offers NAME as a bot at every game; a remote client names NAME only, and the
server never imports a module a client names."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bestiary.cli import app as cli
from bestiary.engine import BadAgentSpec, get_game
from bestiary.engine.record import MatchRecord
from bestiary.server import create_app
from bestiary.server.bots import check_spec, level_spec, parse_agent_args, playable

from .conftest import create, hello, join, next_update

AGENT = "tests.server.operator_bots:FirstLegal"
EVIL = "tests.server.never_imported_by_the_server"


def _watch_imports(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every module name passed to ``importlib.import_module`` from now on (a
    raise inside would be caught by the server and hide the import)."""
    real = importlib.import_module
    seen: list[str] = []

    def watch(name: str, package: str | None = None) -> ModuleType:
        seen.append(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", watch)
    return seen


@pytest.fixture
def own(db_path: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, bot_delay=0, agents={"first": AGENT})) as c:
        yield c


def test_the_lobby_offers_the_agent_at_every_game(own: TestClient) -> None:
    games = own.get("/api/games").json()["games"]
    assert all("first" in g["agents"] for g in games if "agents" in g)


def test_an_enabled_agent_seats_and_plays_a_whole_game(own: TestClient) -> None:
    t = create(own, seats=["human", "first", "random"])
    assert t["seats"][1]["agent"] == "first"
    token = join(own, t["id"], 0)
    with own.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        msg = hello(ws, token)
        while not msg["over"]:
            if msg["your_turn"]:
                ws.send_json({"type": "act", "action": msg["legal"][-1]})
            msg = next_update(ws)
    assert msg["table"]["status"] == "finished"
    rec = MatchRecord.from_json(own.get(f"/api/tables/{t['id']}/record").json())
    assert rec.seats[1] == "first"
    # Every move of seat 1 is the agent's (its first legal action), not a fallback.
    game = get_game("toy")
    state = game.new(rec.players, seed=rec.seed, variant=rec.variant, options=rec.options)
    played = 0
    for seat, text in rec.moves:
        if seat == 1:
            assert text == str(state.legal(1)[0])
            played += 1
        state.apply_text(seat, text)
    assert played > 0


@pytest.mark.parametrize("spec", [AGENT, f"{EVIL}:Agent", "nosuch", "first:depth=3"])
def test_a_module_path_or_unknown_name_is_refused_listing_the_kinds(
    own: TestClient, spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    imported = _watch_imports(monkeypatch)
    seats = [{"kind": "human"}, {"kind": "bot", "agent": spec}]
    r = own.post("/api/tables", json={"game": "toy", "seats": seats})
    assert r.status_code == 400, r.text
    assert not [m for m in imported if m.startswith("tests.server")], imported
    detail = r.json()["detail"]
    assert "easy, normal, hard, random" in detail and "first" in detail
    assert own.get("/api/tables").json()["total"] == 0


def test_without_the_operator_no_module_is_ever_imported(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    imported = _watch_imports(monkeypatch)
    seats = [{"kind": "human"}, {"kind": "bot", "agent": f"{EVIL}:Agent"}]
    r = client.post("/api/tables", json={"game": "toy", "seats": seats})
    assert r.status_code == 400 and "first" not in r.json()["detail"]
    assert EVIL not in imported


def test_a_stored_agent_no_longer_enabled_plays_the_normal_level() -> None:
    toy = get_game("toy")
    assert playable(toy, "first", 2000, {"first": AGENT}) == AGENT
    assert playable(toy, "first", 2000, {}) == level_spec(toy, "normal")
    assert check_spec(toy, "first", 2000, {"first": AGENT}) == "first"


def test_a_restarted_server_without_the_agent_resumes_with_the_normal_level(
    db_path: str,
) -> None:
    with TestClient(create_app(db_path, bot_delay=0, agents={"first": AGENT})) as c:
        t = create(c, seats=["human", "first", "random"])
    with TestClient(create_app(db_path, bot_delay=0)) as c:
        token = join(c, t["id"], 0)
        with c.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            msg = hello(ws, token)
            while not msg["over"]:
                if msg["your_turn"]:
                    ws.send_json({"type": "act", "action": msg["legal"][-1]})
                msg = next_update(ws)
        assert msg["table"]["status"] == "finished"


@pytest.mark.parametrize(
    ("agents", "message"),
    [
        ({"normal": AGENT}, "already a level or a bot"),
        ({"random": AGENT}, "already a level or a bot"),
        ({"bad name": AGENT}, "must be a letter"),
        ({"x": "first"}, "must name module:Object"),
        ({"x": "tests.server.no_such_module_xyz:Bot"}, "cannot import module"),
        ({"x": "tests.server.operator_bots:Missing"}, "has no 'Missing'"),
        ({"x": "tests.server.operator_bots:NOT_AN_AGENT"}, "not a class or factory"),
        ({"x": "tests.server.operator_bots:NoAct"}, "not an agent"),
    ],
)
def test_bad_operator_agents_are_refused_at_start_up(
    tmp_path: Path, agents: dict[str, str], message: str
) -> None:
    with pytest.raises(BadAgentSpec, match=message):
        create_app(str(tmp_path / "db.sqlite3"), agents=agents)


def test_agent_arguments_parse() -> None:
    assert parse_agent_args(["a=m:X", " b = n.o:Y:depth=3 "]) == {"a": "m:X", "b": "n.o:Y:depth=3"}
    for bad in (["bad"], ["=m:X"], ["a="], ["a=m:X", "a=n:Y"]):
        with pytest.raises(BadAgentSpec):
            parse_agent_args(bad)


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["--agent", "bad"], {}, "must be written NAME=module:Object"),
        (["--agent", "x=tests.server.no_such_module_xyz:Bot"], {}, "cannot import module"),
        ([], {"BESTIARY_AGENTS": "x=m:X,normal=tests.server.operator_bots:FirstLegal"}, ""),
    ],
)
def test_serve_with_a_bad_agent_gives_a_one_line_error(
    tmp_path: Path, args: list[str], env: dict[str, str], message: str
) -> None:
    db = str(tmp_path / "db.sqlite3")
    result = CliRunner().invoke(cli, ["serve", "--db", db, *args], env=env)
    assert result.exit_code == 2, result.output
    text = result.output.strip()
    assert text.startswith("error:") and "\n" not in text and message in text
    assert "Traceback" not in text
