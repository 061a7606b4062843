"""Issue 32, "Ergonomics": one observation length for every table size
(``max_players``) and the score-difference reward (``reward="score"``), in
every environment constructor; both off by default."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from gymnasium.vector import VectorEnv
from pettingzoo.test import api_test, parallel_api_test

from bestiary.agents.base import AgentContext, make_agent
from bestiary.engine import Rng, get_game
from bestiary.engine.protocol import Game, State
from bestiary.rl import env, parallel_env, raw_env, single_agent_env, vector
from bestiary.rl.aec import ScoreMargins, win_rewards
from bestiary.rl.encoding import observer_for

GAMES = ("taxonomy", "monster-maker", "meat", "teratozoic")

# Tables whose games end in at most a few hundred moves, yet whose running
# scores move before the end (three Taxonomy rounds, two Monster Maker dungeons),
# with the score scale each game documents (M.E.A.T.: the starting vitality).
SHORT: list[tuple[str, int, dict[str, Any], float]] = [
    ("taxonomy", 3, {"rounds": 3}, 10.0),
    ("monster-maker", 3, {"max_dungeons": 2}, 1000.0),
    ("meat", 4, {}, 40.0),
    ("teratozoic", 3, {}, 20.0),
]

# How each field that holds seats is laid out, as segments of the field: a
# ("seat", w) segment is one block of w values per seat (relative seat r at
# r * w), a ("fixed", w) segment does not depend on the seats. Fields not
# listed have one seat segment ("seat-major": the whole field is per-seat
# blocks) if their width grows with the seats, else none.
SEGMENTS: dict[tuple[str, str], Any] = {
    # open, decided, the card (d); the discarder; my keys, the key claimed (2k),
    # cards kept (d), cards to drop.
    ("taxonomy", "claim"): lambda o: [
        ("fixed", 2 + o.d),
        ("seat", 1),
        ("fixed", 2 * o.k + o.d + 1),
    ],
    # open, ties, my choice (3); the attacker; the target.
    ("taxonomy", "duel"): lambda o: [("fixed", 5), ("seat", 1), ("seat", 1)],
    # the previous winner; this generation's winner.
    ("teratozoic", "winners"): lambda o: [("seat", 1), ("seat", 1)],
}


def _seat_fields(game_id: str) -> set[str]:
    """The fields whose width grows with the table's seats (2 and 3 or 4 seats compared)."""
    game = get_game(game_id)
    sizes = [
        dict(observer_for(game, n, game.ruleset()).layout.fields)  # type: ignore[attr-defined]
        for n in (2, 4 if game_id == "meat" else 3)
    ]
    return {name for name, w in sizes[0].items() if sizes[1][name] != w}


SEAT_FIELDS = {g: _seat_fields(g) for g in GAMES}


def _padded_field(
    game_id: str, plain: Any, name: str, values: list[float], players: int, slots: int
) -> list[float]:
    """What the padded encoding must hold in field ``name``: the real values,
    with the absent seats' blocks (zeros) after each seat segment's real ones."""
    special = SEGMENTS.get((game_id, name))
    if special is not None:
        segments = special(plain)
    else:
        segments = [("seat", len(values) // players)] if name in SEAT_FIELDS[game_id] else []
        segments = segments or [("fixed", len(values))]
    out: list[float] = []
    at = 0
    for kind, width in segments:
        real = width * players if kind == "seat" else width
        out += values[at : at + real]
        if kind == "seat":
            out += [0.0] * (width * (slots - players))
        at += real
    assert at == len(values), f"{name}: the segments do not cover the field"
    return out


def _largest(game_id: str) -> int:
    return max(get_game(game_id).allowed_players())


def _random_states(game: Game, players: int, seed: int, steps: int, every: int) -> list[State]:
    """Every ``every``-th state of a random game (the first one included)."""
    state = game.new(players, seed=seed)
    state.quiet()
    rng = np.random.default_rng(seed)
    seen = []
    for step in range(steps):
        if state.over:
            break
        if step % every == 0:
            seen.append(state.clone())
        seat = state.to_act()[0]
        legal = list(state.legal(seat))
        state.apply(seat, legal[int(rng.integers(len(legal)))])
    return seen


# ---------------------------------------------------------------- max_players


@pytest.mark.parametrize("game_id", GAMES)
def test_every_table_size_gives_one_observation_length(game_id: str) -> None:
    """Issue 32: "the observation has the same length at every seat count"."""
    game = get_game(game_id)
    lengths = set()
    for players in game.allowed_players():
        e = raw_env(game_id, players=players, max_players="max")
        e.reset(seed=players)
        for _ in range(5):
            obs = e.observe(e.agent_selection)
            assert e.observation_space(e.agent_selection).contains(obs)
            lengths.add(obs["observation"].shape[0])
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        lengths.add(e.observation_space(e.possible_agents[0])["observation"].shape[0])  # type: ignore[index]
    assert len(lengths) == 1, f"{game_id}: lengths {sorted(lengths)} differ by table size"
    assert lengths == {observer_for(game, 2, game.ruleset(), _largest(game_id)).size}


# The sizes docs/RL.md lists (2 / 4 / 6 seats): unchanged without the option.
DOCUMENTED_SIZES = {
    "taxonomy": (2638, 3554, 4470),
    "monster-maker": (496, 648, 800),
    "meat": (1099, 1681, 2263),
    "teratozoic": (1020, 1428, 1836),
}


@pytest.mark.parametrize("game_id", GAMES)
def test_without_the_options_observations_and_sizes_are_the_old_ones(game_id: str) -> None:
    """Issue 32: "The default stays as today (no change in sizes or values by
    default)". The sizes are docs/RL.md's; every environment's default
    observation is the game's encoder built as before (``Observer(players,
    rules)``, no padding), and asking for ``max_players=None`` is the same."""
    game = get_game(game_id)
    for players, size in zip((2, 4, 6), DOCUMENTED_SIZES[game_id], strict=True):
        assert observer_for(game, players, game.ruleset()).size == size
    e, e_none = raw_env(game_id, players=2), raw_env(game_id, players=2, max_players=None)
    plain = observer_for(game, 2, e.rules)
    for x in (e, e_none):
        x.reset(seed=4)
    for _ in range(30):
        agent = e.agent_selection
        seat = e.possible_agents.index(agent)
        want = np.asarray(plain.encode(e.state.view(seat)), dtype=np.float32)
        np.testing.assert_array_equal(e.observe(agent)["observation"], want)
        np.testing.assert_array_equal(e_none.observe(agent)["observation"], want)
        action = int(np.flatnonzero(e.observe(agent)["action_mask"])[0])
        e.step(action)
        e_none.step(action)
        if e.terminations[e.agent_selection]:
            break


@pytest.mark.parametrize("game_id", GAMES)
def test_presence_bits_end_the_vector_one_per_seat_at_the_table(game_id: str) -> None:
    """Issue 32: "the seats that are absent marked as absent (a presence bit
    per seat block)": the last ``max_players`` values are 1 for the table's
    seats (counted from the observer) and 0 for the seats it lacks; at the
    largest table the rest is the plain encoding."""
    game = get_game(game_id)
    slots = _largest(game_id)
    for players in game.allowed_players():
        observer = observer_for(game, players, game.ruleset(), "max")
        state = game.new(players, seed=1)
        for seat in range(players):
            padded = observer.encode(state.view(seat))
            assert padded[-slots:] == [1.0] * players + [0.0] * (slots - players)
            if players == slots:  # nothing to pad: the plain encoding, then the bits
                assert padded[:-slots] == observer_for(game, players, game.ruleset()).encode(
                    state.view(seat)
                )


def _fields(observer: Any, vec: list[float]) -> dict[str, list[float]]:
    layout = observer.layout
    return {name: vec[layout.at[name] : layout.at[name] + w] for name, w in layout.fields}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_padded_small_table_holds_its_real_blocks_in_place(game_id: str) -> None:
    """Issue 32: "per-seat blocks padded to P seats ... relative seat order (the
    acting seat first) preserved". For a 2-seat (and a 3- or 4-seat) table
    padded to the game's largest, every field equals the unpadded encoding's
    with the absent seats' blocks inserted, all zero, after the real ones:
    block r is still the seat r places after the observer."""
    game = get_game(game_id)
    slots = _largest(game_id)
    checked = 0
    for players in (2, 4 if game_id == "meat" else 3):
        plain = observer_for(game, players, game.ruleset())
        padded = observer_for(game, players, game.ruleset(), slots)
        for state in _random_states(game, players, seed=players, steps=120, every=20):
            for seat in range(players):
                real = _fields(plain, plain.encode(state.view(seat)))
                pad = _fields(padded, padded.encode(state.view(seat)))
                assert set(pad) == set(real) | {"present"}
                for name, values in real.items():
                    want = _padded_field(game_id, plain, name, values, players, slots)
                    assert pad[name] == want, f"{name} at {players} seats, seat {seat}"
                    if name in SEAT_FIELDS[game_id]:
                        checked += sum(1 for x in values if x)
    assert checked > 0, "no per-seat block held anything: the comparison saw nothing"


@pytest.mark.parametrize(
    ("max_players", "allowed"),
    [
        (1, "from 3"),
        (2, "from 3"),
        (7, "to 6"),
        (2.5, "whole number"),
        ("six", "'max'"),
        (True, "whole number"),
    ],
)
def test_a_bad_max_players_is_refused_naming_what_is_allowed(
    max_players: Any, allowed: str
) -> None:
    game = get_game("taxonomy")
    with pytest.raises(ValueError, match="max_players must be") as err:
        observer_for(game, 3, game.ruleset(), max_players)
    assert allowed in str(err.value)
    for make in (
        lambda: raw_env("taxonomy", players=3, max_players=max_players),
        lambda: parallel_env("taxonomy", players=3, max_players=max_players),
        lambda: single_agent_env("taxonomy", players=3, max_players=max_players),
        lambda: vector("taxonomy", players=3, max_players=max_players),
    ):
        with pytest.raises(ValueError, match="max_players must be"):
            make()


def test_a_bad_reward_is_refused_naming_the_choices() -> None:
    for make in (
        lambda: raw_env("meat", reward="points"),
        lambda: parallel_env("meat", reward="points"),
        lambda: single_agent_env("meat", reward="points"),
        lambda: vector("meat", reward="points"),
    ):
        with pytest.raises(ValueError, match=r"reward must be 'win' .* or 'score'"):
            make()


# ---------------------------------------------------------------- reward="score"


def _margins(game_id: str, scores: list[float], scale: float) -> list[float]:
    """docs: own side's score minus the mean of the other sides', / scale (a
    side: M.E.A.T.'s team, else the seat)."""
    n = len(scores)
    sides = [s % 2 for s in range(n)] if game_id == "meat" else list(range(n))
    side = {t: float(np.mean([x for s, x in enumerate(scores) if sides[s] == t])) for t in sides}
    return [
        (side[sides[s]] - float(np.mean([x for t, x in side.items() if t != sides[s]]))) / scale
        for s in range(n)
    ]


def _bot_game(
    game_id: str, players: int, options: dict[str, Any], seed: int
) -> tuple[Any, list[list[float]]]:
    """A heuristic game in the AEC env with ``reward="score"``: the env and
    every step's rewards (seat order)."""
    e = raw_env(game_id, players=players, options=options, reward="score")
    e.reset(seed=seed)
    game = e.game
    bots = [make_agent(game, "heuristic", seed=seed + s) for s in range(players)]
    rngs = [Rng(seed + s) for s in range(players)]
    paid = []
    while not e.terminations[e.agent_selection]:
        seat = e.possible_agents.index(e.agent_selection)
        move = bots[seat].act(AgentContext(e.state, seat, rngs[seat]))
        e.step(e.state.action_index(move))
        paid.append([e.rewards[a] for a in e.possible_agents])
    return e, paid


@pytest.mark.parametrize(("game_id", "players", "options", "scale"), SHORT, ids=lambda x: str(x))
def test_score_rewards_sum_to_the_final_margin_plus_the_win(
    game_id: str, players: int, options: dict[str, Any], scale: float
) -> None:
    """The documented reward: each step pays the change of each seat's margin
    (own side's public score minus the mean of the others', over the game's
    scale), the end adds the win reward. So over a game a seat earns its final
    margin plus its win reward; every step's margins sum to 0 over the seats;
    and the games with a running score pay before the end."""
    e, paid = _bot_game(game_id, players, options, seed=3)
    result = e.state.result
    assert result is not None
    win = win_rewards(e.state)
    want = [m + w for m, w in zip(_margins(game_id, result.scores, scale), win, strict=True)]
    assert np.sum(paid, axis=0) == pytest.approx(want, abs=1e-9)
    for step in paid[:-1]:
        assert sum(step) == pytest.approx(0.0, abs=1e-9), "a step's shaping is zero-sum"
    assert sum(paid[-1]) == pytest.approx(sum(win), abs=1e-9)
    early = any(any(abs(x) > 1e-12 for x in step) for step in paid[:-1])
    assert early == (game_id != "teratozoic"), "running scores pay as they change"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_score_margins_read_only_what_every_seat_may_know(game_id: str) -> None:
    """Issue 32: "It must use only what the seat may know ... never hidden
    info": the margins of a state and of any state a seat cannot tell apart
    from it (its determinization) are the same."""
    game = get_game(game_id)
    players = 4 if game_id == "meat" else 3
    margins = ScoreMargins(game, players, game.ruleset())
    rng = Rng(5)
    for state in _random_states(game, players, seed=8, steps=300, every=30):
        for seat in range(players):
            assert margins(state.determinize(seat, rng)) == margins(state)


def test_the_single_agent_env_pays_the_learner_its_margin_and_win() -> None:
    """The Gymnasium env with ``reward="score"``: the learner's rewards over an
    episode sum to its final margin plus its win reward (the bots' moves
    between its decisions count)."""
    e = single_agent_env(
        "taxonomy", players=3, seat=1, opponents="heuristic", options={"rounds": 3}, reward="score"
    )
    obs, _ = e.reset(seed=2)
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        obs, reward, done, _, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += reward
    assert e.state is not None and e.state.result is not None
    want = _margins("taxonomy", e.state.result.scores, 10.0)[1] + win_rewards(e.state)[1]
    assert total == pytest.approx(want, abs=1e-9)


def test_the_vector_env_pays_as_the_aec_env_with_both_options() -> None:
    """The batched env with ``max_players`` and ``reward="score"`` gives the
    AEC env's observations and rewards step by step, across a game's end."""
    opts = {"vitality_1v1": 5}
    v = vector(
        "meat", num_envs=1, players=2, seed=7, max_players="max", reward="score", vitality_1v1=5
    )
    e = raw_env("meat", players=2, options=opts, max_players="max", reward="score")
    e.reset(seed=7)
    obs, _ = v.reset()
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(160):
        agent = e.agent_selection
        np.testing.assert_array_equal(obs["observation"][0], e.observe(agent)["observation"])
        action = int(rng.choice(np.flatnonzero(obs["action_mask"][0])))
        obs, rewards, terms, _, _ = v.step(np.array([action]))
        e.step(action)
        assert rewards[0].tolist() == [e.rewards[a] for a in e.possible_agents]
        if terms[0]:
            finished += 1
            e.reset()
    assert finished >= 1


# ---------------------------------------------------------------- the checkers


def test_pettingzoo_checkers_pass_with_both_options() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env("meat", players=2, max_players="max", reward="score"), num_cycles=60)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(
            parallel_env("meat", players=4, seed=1, max_players=6, reward="score"), num_cycles=60
        )


def test_gymnasium_check_env_passes_with_both_options() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(
            single_agent_env(
                "taxonomy", players=2, opponents="random", max_players="max", reward="score"
            ),
            skip_render_check=True,
        )


def test_the_vector_env_keeps_gymnasiums_vector_contract_with_both_options() -> None:
    """The points tests/rl/test_vector.py checks (Gymnasium 1.x ships no
    vector-env checker), with both options on."""
    n = 3
    v = vector("monster-maker", num_envs=n, players=2, seed=5, max_players="max", reward="score")
    assert isinstance(v, VectorEnv)
    size = observer_for(v.game, 6, v.rules).size + 6  # laid out for 6 seats, plus presence
    assert v.single_observation_space["observation"].shape == (size,)  # type: ignore[index]
    assert v.observation_space["observation"].shape == (n, size)  # type: ignore[index]
    obs, info = v.reset()
    assert isinstance(info, dict) and v.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    for _ in range(20):
        actions = np.array([int(rng.choice(np.flatnonzero(row))) for row in obs["action_mask"]])
        obs, rewards, terms, truncs, info = v.step(actions)
        assert v.observation_space.contains(obs)
        assert rewards.shape == (n, 2) and terms.shape == truncs.shape == (n,)
    v.close()
