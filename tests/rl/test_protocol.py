"""Issue 32, "A research benchmark, not only environments": a trained policy
as an agent, the benchmark protocol (``bestiary rl evaluate``) and datasets of
decisions (``bestiary rl dataset``)."""

from __future__ import annotations

import builtins
import json
import statistics
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bestiary.agents import AgentContext
from bestiary.agents.base import make_agent
from bestiary.cli import app as cli
from bestiary.engine import BadAgentSpec, get_game
from bestiary.engine.errors import BestiaryError, IllegalAction
from bestiary.engine.protocol import Result
from bestiary.engine.record import MatchRecord
from bestiary.engine.rng import Rng
from bestiary.rl import dataset, raw_env
from bestiary.rl.encoding import action_mask, observation, observer_for
from bestiary.rl.evaluate import (
    SEED,
    agent_seats,
    agent_share,
    deal_seed,
    evaluate,
    opponent_pool,
)
from bestiary.rl.policy import PolicyAgent
from bestiary.server import create_app
from bestiary.server.config import Limits
from bestiary.sim.runner import play_game, simulate
from tests.server.conftest import create, hello, join, next_update

FIRST = "tests.rl.protocol_policies:first_legal"
SPEC = f"bestiary.rl.policy:PolicyAgent:policy={FIRST}"
GAMES = ("taxonomy", "monster-maker", "meat", "teratozoic")


def _smallest_legal(state: Any, seat: int) -> str:
    return str(min(state.legal(seat), key=state.action_index))


# ------------------------------------------------------------ 1. a policy as an agent


def test_a_policy_plays_a_whole_simulate_run_and_every_move_is_its_own() -> None:
    """Issue 32: "a tiny policy (first legal index) plays a full simulate run"."""
    game = get_game("meat")
    summary = simulate(game, [SPEC, "random"], 2, seed=3, rotate=True, allow_import=True)
    assert summary.games == 2 and not summary.failures
    # Replayed: every move of the policy's seat is the legal action of smallest index.
    outcome = play_game(game, [SPEC, "random"], 3, record=True, allow_import=True)
    assert outcome.record is not None
    state = game.new(2, seed=3)
    mine = 0
    for seat, text in outcome.record.moves:
        if seat == 0:
            assert text == _smallest_legal(state, 0)
            mine += 1
        state.apply_text(seat, text)
    assert mine > 10 and state.over


@pytest.mark.parametrize("game_id", GAMES)
def test_the_policy_sees_the_environments_observation_and_mask(game_id: str) -> None:
    """Issue 32: the agent acts "using the same observation encoding and action
    indices as the environments" — bit for bit what the AEC environment gives."""
    env = raw_env(game_id, players=2)
    env.reset(seed=11)
    seen: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]] = []

    def record(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        seen.append((obs, mask))
        return int(np.flatnonzero(mask)[-1])

    agent = PolicyAgent(policy=record)
    rng = Rng(5)
    for _ in range(12):
        if env.state.over:
            break
        seat = env.state.to_act()[0]
        expected = env.observe(f"player_{seat}")
        move = agent.act(AgentContext(env.state, seat, rng))
        obs, mask = seen[-1]
        assert obs.dtype == np.float32 and mask.dtype == np.int8
        assert np.array_equal(obs, expected["observation"])
        assert np.array_equal(mask, expected["action_mask"])
        assert env.state.action_index(move) == int(np.flatnonzero(mask)[-1])
        env.step(env.state.action_index(move))


def test_a_policy_trained_with_max_players_reads_that_length_as_an_agent() -> None:
    """Issue 32, ergonomics: "a fixed observation size across seat counts" —
    a policy learnt with ``max_players`` plays as an agent given the same
    option (from a spec: text), seeing what the environment showed it."""
    env = raw_env("taxonomy", players=3, max_players="max")
    env.reset(seed=4)
    seen: list[npt.NDArray[np.float32]] = []

    def record(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        seen.append(obs)
        return int(np.flatnonzero(mask)[0])

    agent = PolicyAgent(policy=record, max_players="6")  # as a spec gives it: text
    seat = env.state.to_act()[0]
    agent.act(AgentContext(env.state, seat, Rng(1)))
    assert np.array_equal(seen[-1], env.observe(f"player_{seat}")["observation"])
    assert PolicyAgent(policy=record).act(AgentContext(env.state, seat, Rng(1))) is not None
    assert len(seen[-1]) < len(seen[0])  # without the option: the 3-seat length


def test_a_masked_out_index_is_refused_not_corrected() -> None:
    game = get_game("meat")
    state = game.new(2, seed=1)
    agent = make_agent(
        game,
        "bestiary.rl.policy:PolicyAgent:policy=tests.rl.protocol_policies:masked_out",
        allow_import=True,
    )
    with pytest.raises(
        IllegalAction, match=r"index \d+, which is not legal for seat \d; legal indices: \d"
    ):
        agent.act(AgentContext(state, state.to_act()[0], Rng(0)))


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("bestiary.rl.policy:PolicyAgent", "needs policy=module:function"),
        ("bestiary.rl.policy:PolicyAgent:policy=nosuchmodule:act", "cannot import module"),
        ("bestiary.rl.policy:PolicyAgent:policy=tests.rl.protocol_policies:nope", "has no"),
        ("bestiary.rl.policy:PolicyAgent:policy=tests.rl.protocol_policies:NOT_CALLABLE", "not a"),
        ("bestiary.rl.policy:PolicyAgent:policy=justaname", "module:function"),
    ],
)
def test_a_bad_policy_is_a_clear_agent_error(spec: str, says: str) -> None:
    with pytest.raises(BadAgentSpec, match=says):
        make_agent(get_game("meat"), spec, allow_import=True)


def test_the_policy_plays_a_served_seat_as_the_operators_agent(tmp_path: Path) -> None:
    """Issue 32: "the same policy loaded as an operator agent plays a served
    table's seat" (``bestiary serve --agent pol=tests.rl.protocol_policies:Agent``)."""
    limits = Limits(client_messages_per_second=1e6, client_message_burst=10**6, table_burst=10**6)
    app = create_app(
        str(tmp_path / "t.sqlite3"), bot_delay=0, rate_per_second=1e6, burst=10**6,
        limits=limits, agents={"pol": "tests.rl.protocol_policies:Agent"},
    )  # fmt: skip
    with TestClient(app) as c:
        t = create(c, game="meat", seats=["human", "pol"])
        assert t["seats"][1]["agent"] == "pol"
        token = join(c, t["id"], 0)
        with c.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            msg = hello(ws, token)
            while not msg["over"]:
                if msg["your_turn"]:
                    ws.send_json({"type": "act", "action": msg["legal"][-1]})
                msg = next_update(ws)
        rec = MatchRecord.from_json(c.get(f"/api/tables/{t['id']}/record").json())
    game = get_game("meat")
    state = game.new(rec.players, seed=rec.seed, variant=rec.variant, options=rec.options)
    played = 0
    for seat, text in rec.moves:
        if seat == 1:  # the policy's: its smallest legal index, never a fallback
            assert text == _smallest_legal(state, 1)
            played += 1
        state.apply_text(seat, text)
    assert played > 10 and state.over


# ------------------------------------------------------------ 2. the protocol


def test_seats_rotate_and_a_team_game_seats_the_agents_whole_team() -> None:
    """Issue 32: "seats rotated; for M.E.A.T. teams: the agent's team against a
    team of the pool agent"."""
    taxonomy, meat = get_game("taxonomy"), get_game("meat")
    assert [agent_seats(taxonomy, 3, i) for i in range(4)] == [[0], [1], [2], [0]]
    assert [agent_seats(meat, 4, i) for i in range(3)] == [[0, 2], [1, 3], [0, 2]]
    assert agent_seats(meat, 6, 1) == [1, 3, 5]
    # A team's win counts once (not once per member); a tie between teams is shared.
    assert agent_share(meat, Result([1, 0, 1, 0], [0, 2]), [0, 2]) == 1.0
    assert agent_share(meat, Result([1, 0, 1, 0], [0, 2]), [1, 3]) == 0.0
    assert agent_share(taxonomy, Result([1, 1, 0], [0, 1]), [1]) == 0.5


def test_the_pool_is_random_heuristic_and_the_tuned_heuristic() -> None:
    """Issue 32: the pool is "random, heuristic, hard — hard may be the tuned
    heuristic where the search adds nothing" (docs/RL.md, "Tuned guides")."""
    assert opponent_pool(get_game("taxonomy"), 2) == {
        "random": "random",
        "heuristic": "heuristic",
        "hard": "heuristic:greed=0,plan=reach,defend=60,cycle=6",
    }
    assert opponent_pool(get_game("teratozoic"), 4)["hard"] == (
        "heuristic:doubler=9,marginal=1,share_late=2"
    )
    assert opponent_pool(get_game("meat"), 2)["hard"].startswith("ismcts:iterations=256,")


def test_the_protocol_plays_the_published_seeds_with_seats_rotated() -> None:
    """Game i is dealt with seed 10,000 + i // R and the agent sits in seat i mod R
    (R: the seat count), so every deal is played from every seat; the statistic
    is its win share with a Wilson 95% interval, and the pool mean."""
    game = get_game("meat")
    assert [deal_seed(game, 2, i) for i in range(5)] == [SEED, SEED, SEED + 1, SEED + 1, SEED + 2]
    assert [deal_seed(game, 4, i) for i in range(3)] == [SEED, SEED, SEED + 1]  # two teams
    assert [deal_seed(get_game("taxonomy"), 3, i) for i in range(4)] == [SEED] * 3 + [SEED + 1]
    result = evaluate(game, "heuristic", 2, games=4, pool={"random": "random"})
    (pairing,) = result.pairings
    wins = 0.0
    for i in range(4):
        specs = ["heuristic", "random"] if i % 2 == 0 else ["random", "heuristic"]
        outcome = play_game(game, specs, SEED + i // 2)
        wins += 1.0 if specs.index("heuristic") in outcome.result.winners else 0.0
    assert pairing.wins == wins and pairing.games == 4
    assert pairing.low <= pairing.share <= pairing.high
    assert result.mean_share == pairing.share
    again = evaluate(game, "heuristic", 2, games=4, pool={"random": "random"})
    assert again.pairings[0].wins == wins


def test_an_agent_against_itself_gets_exactly_the_fair_share() -> None:
    """Every deal is played from both seats, so the luck of the deal (and any
    tie between a seat and its seed: in Taxonomy self-play from seed 10,000 the seat matching
    the seed's parity won 0.64 of 120 games) cancels: self-play scores 1/2."""
    result = evaluate(get_game("taxonomy"), "heuristic", 2, games=4, pool={"h": "heuristic"})
    assert result.pairings[0].share == 0.5 == result.fair_share


def test_evaluate_prints_every_pool_member_and_the_mean_as_json() -> None:
    run = CliRunner().invoke(
        cli,
        ["rl", "evaluate", SPEC, "--game", "monster-maker", "--players", "2", "-n", "2", "--json"],
    )
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    assert list(data["pool"]) == ["random", "heuristic", "hard"]
    assert data["seed"] == 10_000 and data["games"] == 2 and data["fair_share"] == 0.5
    shares = [p["share"] for p in data["pool"].values()]
    assert data["mean_share"] == pytest.approx(statistics.fmean(shares))


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["rl", "evaluate", "random", "-g", "meat", "-p", "3"], "played by 2, 4, 6 players"),
        (["rl", "evaluate", "random", "-g", "meat", "--pool", "hardest"], "not in the pool"),
        (["rl", "evaluate", "nosuchbot", "-g", "meat", "-n", "1"], "unknown agent"),
        (["rl", "evaluate", "random", "-g", "meat", "-n", "0"], "at least 1"),
        (["rl", "dataset", "meat", "--agents", "random", "--out", "x.parquet", "-p", "5"], "not 5"),
    ],
)
def test_bad_arguments_are_one_line_errors(args: list[str], says: str) -> None:
    run = CliRunner().invoke(cli, args)
    assert run.exit_code == 2, run.output
    assert says in " ".join(run.output.split()) and "Traceback" not in run.output


# ------------------------------------------------------------ 3. datasets


def test_a_dataset_holds_every_decision_with_the_games_final_rewards(tmp_path: Path) -> None:
    """Issue 32: per decision the seat's observation and view, the legal indices,
    the action index and text, seat, game and seed, and the final rewards."""
    path = tmp_path / "d.parquet"
    run = CliRunner().invoke(
        cli,
        ["rl", "dataset", "meat", "--agents", "heuristic,random", "-n", "2", "--seed", "7",
         "--out", str(path)],
    )  # fmt: skip
    assert run.exit_code == 0, run.output
    d = dataset.load(path)
    game = get_game("meat")
    rules = game.ruleset(None, None)
    assert d.meta["num_actions"] == game.num_actions(2, rules)
    assert d.observation.shape == (len(d), observer_for(game, 2, rules).size)
    for g, seed in enumerate((7, 8)):  # the games `simulate --seed 7` plays
        outcome = play_game(game, ["heuristic", "random"], seed, record=True)
        assert outcome.record is not None
        rows = np.flatnonzero(d.game == g)
        assert len(rows) == outcome.decisions and set(d.seed[rows]) == {seed}
        assert [(int(d.seat[r]), d.action_text[r]) for r in rows] == outcome.record.moves
        won = [1.0 if s in outcome.result.winners else 0.0 for s in range(2)]
        assert d.rewards[rows].tolist() == [won] * len(rows)
        assert d.reward[rows].tolist() == [won[s] for s in d.seat[rows]]
    # The action is always one of the row's legal indices, and the masks agree.
    masks = d.masks(range(len(d)))
    assert all(d.action[r] in d.legal_of(r) for r in range(len(d)))
    assert masks[np.arange(len(d)), d.action].all()
    assert masks.sum(axis=1).tolist() == np.diff(d.legal_offsets).tolist()
    first = json.loads(d.view[0])
    assert isinstance(first, dict)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_row_is_the_same_in_worlds_the_seat_cannot_tell_apart(game_id: str) -> None:
    """Issue 32: "never another seat's hidden cards (a differential test: two
    worlds the seat cannot tell apart give identical rows)"."""
    game = get_game(game_id)
    state = game.new(2, seed=4)
    observer = observer_for(game, 2, state.rules)
    rng = Rng(9)
    checked = differ = 0
    for _ in range(40):
        if state.over:
            break
        seat = state.to_act()[0]
        other = state.determinize(seat, Rng(rng.randint(0, 10**9)))
        row = dataset.decision_row(state, seat, observer)
        assert dataset.decision_row(other, seat, observer) == row
        assert np.array_equal(np.asarray(row[0], np.float32), observation(observer, state, seat))
        assert row[2] == np.flatnonzero(action_mask(state, seat, num_actions(game))).tolist()
        checked += 1
        differ += other.view(1 - seat) != state.view(1 - seat)
        legal = state.legal(seat)
        state.apply(seat, legal[rng.randint(0, len(legal) - 1)])
    # The worlds really differed in what the seat cannot see.
    assert checked > 10 and differ > 0


def num_actions(game: Any) -> int:
    return int(game.num_actions(2, game.ruleset(None, None)))


def test_the_dataset_command_says_pyarrow_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32: "pyarrow is in the lab extra: the dataset command needs it;
    say so in its error if missing"."""
    real = builtins.__import__

    def no_pyarrow(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] == "pyarrow":
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    with pytest.raises(BestiaryError, match=r"pip install 'bestiary\[lab\]'"):
        dataset.need_pyarrow()
    path = tmp_path / "d.parquet"
    run = CliRunner().invoke(
        cli, ["rl", "dataset", "meat", "--agents", "random", "-n", "1", "--out", str(path)]
    )
    assert run.exit_code == 2 and "bestiary[lab]" in run.output and not path.exists()
