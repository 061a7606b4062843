"""The learning environments: PettingZoo's and Gymnasium's own checkers, and
the promise that an observation holds only what its seat may know."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from bestiary.engine import Rng, get_game
from bestiary.engine.errors import IllegalAction
from bestiary.rl import env, raw_env, single_agent_env
from bestiary.rl.encoding import observer_for

# Every game and variant, at a table size the game allows.
TABLES = [
    ("taxonomy", 4, "v0.2"),
    ("taxonomy", 3, "v0.1"),
    ("monster-maker", 3, None),
    ("monster-maker", 2, "first-edition"),
    ("monster-maker", 4, "house"),
    ("meat", 2, None),
    ("meat", 4, None),
    ("teratozoic", 3, "advanced"),
    ("teratozoic", 2, "basic"),
]
GAMES = ("taxonomy", "monster-maker", "meat", "teratozoic")
VARIANTS = [(g, v) for g in GAMES for v in get_game(g).variants]


def _ids(t: tuple[Any, ...]) -> str:
    return "-".join(str(x) for x in t if x is not None)


@pytest.mark.parametrize("table", TABLES, ids=_ids)
def test_pettingzoo_api_test_passes(table: tuple[str, int, str | None]) -> None:
    game_id, players, variant = table
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(game_id, players=players, variant=variant), num_cycles=60)


@pytest.mark.parametrize("table", TABLES, ids=_ids)
def test_pettingzoo_seed_test_passes(table: tuple[str, int, str | None]) -> None:
    game_id, players, variant = table
    seed_test(lambda: env(game_id, players=players, variant=variant), num_cycles=40)


@pytest.mark.parametrize(("game_id", "variant"), VARIANTS, ids=lambda x: str(x))
def test_every_variant_has_an_environment_whose_spaces_hold_its_observations(
    game_id: str, variant: str
) -> None:
    e = raw_env(game_id, variant=variant)
    e.reset(seed=3)
    for _ in range(30):
        agent = e.agent_selection
        obs = e.observe(agent)
        assert e.observation_space(agent).contains(obs)
        mask = obs["action_mask"]
        assert mask.sum() >= 1, "the seat to act has no legal action in its mask"
        action = int(np.flatnonzero(mask)[0])
        e.step(action)
        if e.terminations[e.agent_selection]:
            break


def _play(e: Any, seed: int, steps: int) -> None:
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if e.terminations[e.agent_selection]:
            return
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("game_id", ["taxonomy", "monster-maker", "meat", "teratozoic"])
def test_an_observation_is_the_same_in_every_state_the_seat_cannot_tell_apart(
    game_id: str,
) -> None:
    """A state and its determinization for a seat differ only in what the seat
    cannot see (other hands, the stock order, hidden choices); the seat's
    observation must not change, or it would be reading hidden information."""
    game = get_game(game_id)
    e = raw_env(game_id)
    observer = observer_for(game, e.players, e.rules)
    rng = Rng(7)
    checked = 0
    for seed in range(3):
        _play(e, seed, 40 + 25 * seed)
        state = e.state
        for seat in range(state.players):
            real = observer.encode(state.view(seat))
            for _ in range(3):
                other = state.determinize(seat, rng)
                assert observer.encode(other.view(seat)) == real
                checked += 1
    assert checked == 3 * 3 * e.players


def test_the_hidden_hand_of_another_seat_changes_nothing_in_my_observation() -> None:
    """The converse check, on the raw state: swapping two opponents' hands (which
    the observer cannot see) leaves its observation unchanged, while changing
    its own hand changes it."""
    game = get_game("taxonomy")
    state = game.new(3, seed=4)
    observer = observer_for(game, 3, game.ruleset())
    mine = observer.encode(state.view(0))
    swapped = state.clone()
    swapped.hands[1], swapped.hands[2] = swapped.hands[2], swapped.hands[1]  # type: ignore[attr-defined]
    assert observer.encode(swapped.view(0)) == mine
    assert observer.encode(swapped.view(1)) != observer.encode(state.view(1))


def test_a_simultaneous_choice_stays_hidden_from_the_next_seat_asked() -> None:
    """Teratozoic's growth (everyone builds at once, hidden until all have chosen)
    is asked seat by seat; the second seat's observation is the same whichever
    build the first seat chose."""
    outcomes = []
    for pick in ("build best", "build flat"):
        e = raw_env("teratozoic", players=2)
        e.reset(seed=11)
        while e.state.phase != "growth":  # type: ignore[attr-defined]
            mask = e.observe(e.agent_selection)["action_mask"]
            e.step(int(np.flatnonzero(mask)[0]))
        assert len(e.state.to_act()) == 2, "both seats owe the growth choice"
        first = e.agent_selection
        seat = e.possible_agents.index(first)
        move = next(a for a in e.state.legal(seat) if str(a) == pick)
        e.step(e.state.action_index(move))
        second = e.agent_selection
        assert second != first
        outcomes.append((e.observe(first)["observation"], e.observe(second)["observation"]))
    assert not np.array_equal(outcomes[0][0], outcomes[1][0]), "the chooser sees its own choice"
    np.testing.assert_array_equal(outcomes[0][1], outcomes[1][1])


def test_a_masked_out_action_is_refused() -> None:
    e = raw_env("taxonomy", players=2)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(IllegalAction):
        e.step(int(np.flatnonzero(mask == 0)[0]))


def test_a_finished_game_pays_the_winners() -> None:
    e = raw_env("meat", players=2)
    _play(e, 5, 100_000)
    assert all(e.terminations.values())
    winners = e.state.result.winners  # type: ignore[union-attr]
    paid = {a: e._cumulative_rewards[a] for a in e.agents}
    for s, agent in enumerate(e.possible_agents):
        assert paid[agent] == (1.0 / len(winners) if s in winners else 0.0)


def test_a_team_win_pays_each_member_in_full() -> None:
    """docs/RL.md: "In M.E.A.T. a team's win is a win for each member" — the
    search's rewards too (agents.value.terminal_rewards), not half each."""
    e = raw_env("meat", players=4)
    _play(e, 5, 100_000)
    assert all(e.terminations.values())
    winners = e.state.result.winners  # type: ignore[union-attr]
    assert len(winners) == 2 and winners[0] % 2 == winners[1] % 2
    paid = [e._cumulative_rewards[a] for a in e.possible_agents]
    assert paid == [1.0 if s in winners else 0.0 for s in range(4)]


def test_rendering_shows_the_table_as_text_without_hidden_hands() -> None:
    e = raw_env("taxonomy", players=2, render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert isinstance(text, str) and text.strip()
    hidden = {c["name"] for c in e.state.view(0)["hand"]}  # type: ignore[index]
    shown = {c["name"] for c in e.state.view(None)["discards"]}
    assert not any(name in text for name in hidden - shown)


@pytest.mark.parametrize(
    ("game_id", "opponents"),
    [("taxonomy", "heuristic"), ("meat", "random"), ("teratozoic", "random")],
)
def test_gymnasium_check_env_passes(game_id: str, opponents: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(single_agent_env(game_id, players=2, opponents=opponents), skip_render_check=True)


def test_the_single_agent_env_plays_bots_until_the_learner_wins_or_loses() -> None:
    e = single_agent_env("taxonomy", players=3, seat=1, opponents="heuristic")
    obs, _ = e.reset(seed=9)
    rng = np.random.default_rng(0)
    total, done, steps = 0.0, False, 0
    while not done:
        assert obs["action_mask"].sum() >= 1
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, _, _ = e.step(action)
        total += reward
        steps += 1
    assert e.state is not None and e.state.over
    assert total == (1.0 / len(e.state.result.winners) if 1 in e.state.result.winners else 0.0)  # type: ignore[union-attr]
    assert steps > 10


def test_the_single_agent_env_ends_an_episode_on_an_illegal_action() -> None:
    e = single_agent_env("taxonomy", players=2, opponents="random")
    obs, _ = e.reset(seed=1)
    _, reward, done, _, info = e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert (reward, done, info) == (-1.0, True, {"illegal_action": True})


def test_a_bad_opponent_spec_fails_at_construction() -> None:
    from bestiary.engine import BadAgentSpec

    with pytest.raises(BadAgentSpec):
        single_agent_env("taxonomy", players=2, opponents="genius")
