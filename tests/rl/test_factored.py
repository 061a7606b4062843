"""Factored actions (bestiary/rl/factored.py): Teratozoic's 74,212 flat actions
chosen in two small steps, each with its own mask, and the environments that
offer them."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.spaces import Dict, Discrete
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from bestiary.engine import get_game
from bestiary.engine.errors import IllegalAction
from bestiary.engine.protocol import State
from bestiary.games.teratozoic.actions import Attach, Start
from bestiary.rl import raw_env as flat_raw_env
from bestiary.rl import single_agent_env as flat_single_env
from bestiary.rl.factored import (
    Decision,
    FactoredLayout,
    env,
    raw_env,
    single_agent_env,
    teratozoic_layout,
)

N_CARDS = 96  # the standard deck
FLAT = 5 * N_CARDS + 4 + 8 * N_CARDS**2  # RULES.md 'Actions': 74,212


@pytest.fixture(scope="module")
def layout() -> FactoredLayout:
    return teratozoic_layout(get_game("teratozoic").new(4, seed=0))


def test_the_two_steps_have_484_and_385_choices(layout: FactoredLayout) -> None:
    """Step 1, what: hold/take/keep a card (3n), express, build best/flat/placed,
    lay a card upright or turned (2n): 5n + 4 = 484. Step 2, where a laid card
    goes: a new monster or a side of a placed card: 4n + 1 = 385. The
    environments' action space is the larger, 153 times smaller than 74,212."""
    assert layout.num_actions == FLAT == 74_212
    assert layout.sizes == (5 * N_CARDS + 4, 4 * N_CARDS + 1) == (484, 385)
    assert layout.max_choices == 484
    assert FLAT // layout.max_choices == 153
    e = raw_env("teratozoic", players=4)
    assert e.action_space("player_0") == Discrete(484)
    flat_size = flat_raw_env("teratozoic", players=4).observer.size
    obs_space = e.observation_space("player_0")
    assert isinstance(obs_space, Dict)
    assert obs_space["observation"].shape == (flat_size + 2 + 484,)
    assert obs_space["action_mask"].shape == (484,)


def test_flat_and_factored_are_a_bijection_over_the_whole_action_space(
    layout: FactoredLayout,
) -> None:
    """'The action space is fixed: 5n + 4 + 8n² indices': every one has its own
    code, every code names one flat index, and no code begins another (so a
    sequence is complete exactly when it names an action)."""
    codes = layout.codes  # one row per flat index, -1 after the code's end
    assert codes.shape == (FLAT, 2)
    assert len(np.unique(codes, axis=0)) == FLAT
    one_long = set(codes[codes[:, 1] < 0, 0].tolist())
    two_long = set(codes[codes[:, 1] >= 0, 0].tolist())
    assert one_long and two_long and not one_long & two_long
    assert ((codes >= 0) & (codes < np.array(layout.sizes))).sum() == FLAT + len(
        codes[codes[:, 1] >= 0]
    )
    for i in range(0, FLAT, 7):  # the public round trip, on every 7th index
        assert layout.flat(layout.code(i)) == i


def test_the_layout_follows_the_games_own_actions(layout: FactoredLayout) -> None:
    """The numbering comes from the action table and ``state.action_index``:
    a start is 'lay c' then 'new monster'; an attach is 'lay c [turned]' then
    the side of the anchor; other moves are one choice."""
    state = get_game("teratozoic").new(4, seed=0)
    acts = state.acts  # type: ignore[attr-defined]
    express = state.action_index(acts.hold[5]) - 5 + N_CARDS
    assert layout.describe(layout.code(express)) == "express"
    assert layout.describe(layout.code(state.action_index(acts.keep[7]))) == "keep 7"
    attach = acts.attach(12, 0, 40, 1)
    assert isinstance(attach, Attach)
    assert layout.describe(layout.code(state.action_index(attach))) == "lay 12 turned / N of 40"
    start = acts.start[12][0]
    assert isinstance(start, Start)
    assert layout.describe(layout.code(state.action_index(start))) == "lay 12 / new monster"


def _complete_sequences(layout: FactoredLayout, legal: list[int]) -> set[int]:
    """Every flat action reached by following the masks, checking that no
    allowed choice leads to a dead end."""
    reached: set[int] = set()

    def walk(prefix: list[int]) -> None:
        probe = Decision(layout, legal)
        for c in prefix:
            assert probe.choose(c, "p") is None
        allowed = [int(c) for c in np.flatnonzero(probe.mask())]
        assert allowed, f"dead end after {prefix}"
        for choice in allowed:
            d = Decision(layout, legal)
            for c in prefix:
                d.choose(c, "p")
            flat = d.choose(choice, "p")
            if flat is None:
                walk([*prefix, choice])
            else:
                reached.add(flat)

    walk([])
    return reached


def _random_states(players: int, variant: str | None, seed: int, every: int) -> list[State]:
    game = get_game("teratozoic")
    state = game.new(players, seed=seed, variant=variant)
    state.quiet()
    rng = random.Random(seed)
    out = []
    step = 0
    while not state.over:
        if step % every == 0:
            out.append(state.clone())
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(list(state.legal(seat))))
        step += 1
    return out


def test_the_masks_allow_exactly_the_legal_actions(layout: FactoredLayout) -> None:
    """At states of seeded random games, for every seat that owes a decision,
    the complete sequences the masks allow are exactly ``state.legal(seat)``:
    every legal action is reachable and no illegal one is."""
    checked = 0
    kinds: set[str] = set()
    for players, variant, seed in ((4, None, 1), (2, "basic", 2), (3, None, 3)):
        for state in _random_states(players, variant, seed, every=3):
            for seat in state.to_act():
                legal = [state.action_index(a) for a in state.legal(seat)]
                assert _complete_sequences(layout, legal) == set(legal)
                kinds |= {str(a).split()[0] for a in state.legal(seat)}
                checked += 1
    assert checked > 300
    assert kinds == {"hold", "express", "build", "start", "attach", "take", "keep"}


def test_the_pettingzoo_api_test_passes() -> None:
    for players, variant in ((3, "advanced"), (2, "basic")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(env("teratozoic", players=players, variant=variant), num_cycles=60)


def test_the_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: env("teratozoic", players=3), num_cycles=40)


def test_gymnasiums_check_env_passes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(single_agent_env("teratozoic", players=2, opponents="random"))


def _random_factored_game(players: int, seed: int) -> tuple[Any, list[int]]:
    """A whole game through the factored AEC environment, random masked
    choices; the flat actions it completed."""
    e = raw_env("teratozoic", players=players)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    flats: list[int] = []
    while not e.terminations[e.agent_selection]:
        agent = e.agent_selection
        steps = e.inner.steps
        e.step(int(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"]))))
        if "flat_action" in e.infos[agent]:
            flats.append(e.infos[agent]["flat_action"])
            assert e.inner.steps == steps + 1
        else:  # only narrowed: the game did not move, the same agent goes on
            assert e.inner.steps == steps
            assert e.agent_selection == agent
            assert e.rewards[agent] == 0.0
    return e, flats


def test_a_factored_game_ends_as_the_flat_game_with_the_same_actions() -> None:
    """'The game is stepped only when a flat action is complete': the flat
    environment, dealt from the same seed and given the same flat actions,
    ends with the same result and the same rewards."""
    factored, flats = _random_factored_game(4, seed=5)
    flat = flat_raw_env("teratozoic", players=4)
    flat.reset(seed=5)
    for action in flats:
        flat.step(action)
    assert flat.state.over and factored.state.over
    assert flat.state.result == factored.state.result
    assert flat.rewards == factored.rewards
    assert any(len(factored.layout.code(f)) == 2 for f in flats), "no card was laid by hand"


def test_a_choice_that_only_narrows_shows_where_the_decision_stands() -> None:
    """The observation adds the step (one-hot) and the card chosen so far."""
    e = raw_env("teratozoic", players=2)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    flat_size = e.inner.observer.size
    while True:  # play on until a card can be laid by hand
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        lays = [c for c in np.flatnonzero(mask) if e.layout.labels[0][c].startswith("lay")]
        if lays:
            break
        e.step(int(rng.choice(np.flatnonzero(mask))))
    before = e.observe(agent)["observation"]
    assert before[flat_size : flat_size + 2].tolist() == [1.0, 0.0]
    assert before[flat_size + 2 :].sum() == 0.0
    e.step(int(lays[0]))
    assert e.agent_selection == agent
    after = e.observe(agent)
    assert after["observation"][flat_size : flat_size + 2].tolist() == [0.0, 1.0]
    assert np.flatnonzero(after["observation"][flat_size + 2 :]).tolist() == [lays[0]]
    where = [e.layout.labels[1][c] for c in np.flatnonzero(after["action_mask"])]
    assert where[0] == "new monster"
    np.testing.assert_array_equal(after["observation"][:flat_size], before[:flat_size])


def test_a_masked_out_choice_is_refused() -> None:
    """AEC: IllegalAction naming the allowed choices, nothing changes.
    Gymnasium: the episode ends with reward -1 and ``illegal_action``."""
    e = raw_env("teratozoic", players=2)
    e.reset(seed=0)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAction, match="allowed"):
        e.step(bad)
    assert e.agent_selection == agent
    assert (e.observe(agent)["action_mask"] == mask).all()

    g = single_agent_env("teratozoic", players=2, opponents="random")
    obs, _ = g.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = g.step(bad)
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True})


def test_a_single_agent_game_ends_as_the_flat_one() -> None:
    """The learner's choices through the factored Gymnasium environment make
    the same game as the flat environment given the flat actions."""
    g = single_agent_env("teratozoic", players=2, opponents="random")
    obs, _ = g.reset(seed=9)
    rng = np.random.default_rng(9)
    flats, done, reward, narrowed = [], False, 0.0, 0
    while not done:
        assert (g.action_masks() == obs["action_mask"]).all()
        obs, reward, done, _, info = g.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if "flat_action" in info:
            flats.append(info["flat_action"])
        else:
            assert reward == 0.0 and not done
            narrowed += 1
    assert narrowed > 0, "no card was laid by hand"
    flat = flat_single_env("teratozoic", players=2, opponents="random")
    flat.reset(seed=9)
    for action in flats:
        _, flat_reward, _, _, _ = flat.step(action)
    assert flat.state is not None and g.inner.state is not None
    assert flat.state.result == g.inner.state.result
    assert flat_reward == reward


def test_the_layout_is_generic_another_game_factored_by_a_split() -> None:
    """Any game can be factored given ``flat -> (part1, part2)``: M.E.A.T.'s
    965 actions as 31 x 32, played a few steps through PettingZoo's checks."""
    meat = flat_raw_env("meat", players=2)
    size = meat.num_actions
    split = FactoredLayout.from_split(size, lambda i: divmod(i, 32))
    assert split.sizes == ((size - 1) // 32 + 1, 32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env("meat", players=2, layout=split), num_cycles=15)


def test_bad_layouts_and_games_are_refused_with_a_clear_error() -> None:
    with pytest.raises(ValueError, match="share the code"):
        FactoredLayout.from_split(4, lambda i: (i % 2,))
    with pytest.raises(ValueError, match="begins the code"):
        FactoredLayout.from_split(3, lambda i: (0,) if i == 0 else (0, i))
    with pytest.raises(ValueError, match="offered for teratozoic"):
        env("meat", players=2)
    with pytest.raises(ValueError, match="factors 4 actions"):
        env("teratozoic", players=2, layout=FactoredLayout.from_split(4, lambda i: (i,)))
