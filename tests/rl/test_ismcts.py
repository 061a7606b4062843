"""The guided ISMCTS bot: budgets, the heuristic guide, widening and
simultaneous decisions. (Playing strength is measured by
examples/measure_ismcts.py, too slow for a unit test.)"""

from __future__ import annotations

import math
import time

import pytest

from bestiary.agents import AgentContext, make_agent
from bestiary.agents.ismcts import ISMCTSAgent
from bestiary.engine import BadAgentSpec, Rng, get_game


def _position(game_id: str, players: int, seed: int, moves: int) -> object:
    game = get_game(game_id)
    state = game.new(players, seed=seed)
    rng = Rng(seed)
    for _ in range(moves):
        seat = state.to_act()[0]
        legal = state.legal(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    return state


def _decision_with_choices(game_id: str, players: int, seed: int) -> object:
    """A position whose seat to act has several legal moves."""
    state = _position(game_id, players, seed, 0)
    rng = Rng(seed)
    while len(state.legal(state.to_act()[0])) < 3:  # type: ignore[attr-defined]
        seat = state.to_act()[0]  # type: ignore[attr-defined]
        legal = state.legal(seat)  # type: ignore[attr-defined]
        state.apply(seat, legal[rng.randrange(len(legal))])  # type: ignore[attr-defined]
    return state


def test_a_time_budget_bounds_the_search() -> None:
    state = _decision_with_choices("monster-maker", 2, 3)
    bot = make_agent(get_game("monster-maker"), "ismcts:seconds=0.2", seed=1)
    assert isinstance(bot, ISMCTSAgent)
    seat = state.to_act()[0]  # type: ignore[attr-defined]
    t0 = time.perf_counter()
    action = bot.act(AgentContext(state, seat, Rng(0)))  # type: ignore[arg-type]
    elapsed = time.perf_counter() - t0
    assert action in state.legal(seat)  # type: ignore[attr-defined]
    assert bot.last_iterations >= 1
    # The budget is checked after each iteration: one playout may overrun it.
    assert elapsed < 0.2 + 10 * bot.last_seconds / bot.last_iterations + 0.5


def test_an_iteration_cap_still_works_with_a_time_budget() -> None:
    state = _decision_with_choices("taxonomy", 2, 1)
    bot = make_agent(get_game("taxonomy"), "ismcts:seconds=30,iterations=3,rollout_limit=20")
    seat = state.to_act()[0]  # type: ignore[attr-defined]
    bot.act(AgentContext(state, seat, Rng(0)))  # type: ignore[arg-type]
    assert bot.last_iterations == 3  # type: ignore[attr-defined]


def test_with_a_strong_prior_and_a_tiny_search_the_heuristic_move_is_played() -> None:
    """The guide is the game's heuristic on the seat's own context; a search too
    short to disagree keeps its move."""
    assert "heuristic" in get_game("taxonomy").agents()
    for seed in range(3):
        state = _decision_with_choices("taxonomy", 3, seed)
        seat = state.to_act()[0]  # type: ignore[attr-defined]
        bot = ISMCTSAgent(seed=seed, iterations=2, prior=1000, rollout_limit=30, rollout="auto")
        guides: list[str | None] = []
        original = bot._guide

        def spy(sample, ctx, original=original, guides=guides):  # type: ignore[no-untyped-def]
            guides.append(original(sample, ctx))
            return guides[-1]

        bot._guide = spy  # type: ignore[method-assign]
        action = bot.act(AgentContext(state, seat, Rng(0)))  # type: ignore[arg-type]
        assert guides and guides[0] is not None
        assert str(action) == guides[0]


def test_progressive_widening_limits_the_moves_tried_at_the_root() -> None:
    state = _decision_with_choices("teratozoic", 2, 2)
    seat = state.to_act()[0]  # type: ignore[attr-defined]
    legal = state.legal(seat)  # type: ignore[attr-defined]
    bot = ISMCTSAgent(seed=0, iterations=12, widen=1.0, rollout="random", rollout_limit=5)
    roots: list[int] = []
    original = bot._best

    def spy(root, legal, guide):  # type: ignore[no-untyped-def]
        roots.append(len(root.children))
        return original(root, legal, guide)

    bot._best = spy  # type: ignore[method-assign]
    bot.act(AgentContext(state, seat, Rng(0)))  # type: ignore[arg-type]
    assert len(legal) > math.ceil(math.sqrt(13))
    assert 1 <= roots[0] <= math.ceil(math.sqrt(13))


@pytest.mark.parametrize("mode", ["serial", "decoupled"])
def test_the_root_is_the_searching_seats_decision_in_a_simultaneous_step(mode: str) -> None:
    """Teratozoic's growth asks both seats at once; the second seat's search must
    return one of its own moves, not the first seat's."""
    game = get_game("teratozoic")
    state = game.new(2, seed=11)
    rng = Rng(1)
    while state.phase != "growth":  # type: ignore[attr-defined]
        seat = state.to_act()[0]
        legal = state.legal(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    assert len(state.to_act()) == 2
    second = state.to_act()[1]
    bot = make_agent(game, f"ismcts:iterations=6,rollout_limit=40,simultaneous={mode}", seed=2)
    action = bot.act(AgentContext(state, second, Rng(3)))
    assert action in state.legal(second)


@pytest.mark.parametrize(
    "spec",
    ["ismcts:rollout=clever", "ismcts:seconds=0", "ismcts:simultaneous=maybe", "ismcts:prior=-1"],
)
def test_bad_search_options_are_refused_with_the_spec_named(spec: str) -> None:
    with pytest.raises(BadAgentSpec, match="ismcts"):
        make_agent(get_game("taxonomy"), spec)


def test_playout_options_reach_only_the_bots_that_take_them() -> None:
    """``playout=samples=1;lookahead=0``: Teratozoic's heuristic takes ``samples``,
    M.E.A.T.'s takes ``lookahead``; each gets its own and ignores the other."""
    from bestiary.agents.rollout import BotRollout

    for game_id, attr, want in (("teratozoic", "samples", 1), ("meat", "lookahead", False)):
        game = get_game(game_id)
        bot = make_agent(game, "ismcts:iterations=1,rollout=auto,playout=samples=1;lookahead=0")
        assert isinstance(bot, ISMCTSAgent)
        policy = bot._policy(game.new(2, seed=0))
        assert isinstance(policy, BotRollout)
        assert all(getattr(b, attr) == want for b in policy.bots)
    with pytest.raises(BadAgentSpec, match="name=value"):
        make_agent(get_game("meat"), "ismcts:playout=fast")


def test_one_lucky_playout_does_not_overrule_the_guide() -> None:
    """Visits alone are not evidence: an alternative with more visits but a win
    rate within a standard error of the guide's leaves the guide's move."""
    from bestiary.agents.ismcts import _Node

    bot = ISMCTSAgent(seed=0, prior=0, confidence=1.0)
    root = _Node(0)
    lucky, guide = _Node(0, "b"), _Node(0, "a")
    # win/loss rewards: the sum of squares is the number of wins
    lucky.visits, lucky.reward, lucky.square = 6, 2.0, 2.0
    guide.visits, guide.reward, guide.square = 2, 0.0, 0.0
    root.children = {"a": guide, "b": lucky}
    legal = ["a", "b"]
    assert bot._best(root, legal, "a") == "a"  # type: ignore[arg-type]
    lucky.visits, lucky.reward, lucky.square = 60, 50.0, 50.0
    guide.visits, guide.reward, guide.square = 20, 2.0, 2.0
    assert bot._best(root, legal, "a") == "b"  # type: ignore[arg-type]


def test_an_iteration_count_alone_keeps_random_playouts_a_time_budget_guides_them() -> None:
    """A heuristic playout costs tens of random ones: ``ismcts:iterations=N``
    keeps the speed it always had; a time budget is spent on guided playouts."""
    game = get_game("taxonomy")
    assert make_agent(game, "ismcts:iterations=50").rollout == "random"  # type: ignore[attr-defined]
    assert make_agent(game, "ismcts:seconds=0.5").rollout == "auto"  # type: ignore[attr-defined]
    guided = make_agent(game, "ismcts:iterations=50,rollout=heuristic")
    assert guided.rollout == "heuristic"  # type: ignore[attr-defined]


# ---------------------------------------------------------------- depth and value estimates
@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:depth=-1",
        "ismcts:depth=deep",
        "ismcts:value=maybe",
        "ismcts:depth=2.5",
        "ismcts:ready=yes",
    ],
)
def test_bad_depth_and_value_options_are_refused_with_the_option_named(spec: str) -> None:
    option = spec.split(":")[1].split("=")[0]
    with pytest.raises(BadAgentSpec, match=option):
        make_agent(get_game("meat"), spec)


@pytest.mark.parametrize("game_id", ["meat", "monster-maker", "taxonomy", "teratozoic"])
def test_every_game_offers_a_value_estimate_of_win_chances(game_id: str) -> None:
    """The hook is found through the game (its heuristic's module or its package's
    ``value`` module); on positions along a game it gives one chance per seat in
    [0, 1], summing to one (to one per team in M.E.A.T.), and the winners' at the end."""
    from bestiary.agents.value import find_value

    game = get_game(game_id)
    players = 4 if game_id != "meat" else 2
    state = game.new(players, seed=4)
    state.quiet()
    found = find_value(state)
    assert found is not None and found.depth is not None and found.depth > 0
    rng = Rng(4)
    checked = 0
    while not state.over and checked < 400:
        chances = list(found.estimate(state))
        assert len(chances) == players
        assert all(0.0 <= p <= 1.0 for p in chances)
        total = sum(chances)
        assert math.isclose(total, 1.0 if game_id != "meat" else players / 2, abs_tol=1e-6)
        seat = state.to_act()[0]
        legal = state.legal(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
        checked += 1
    if state.over:
        result = state.result
        assert result is not None
        chances = list(found.estimate(state))
        assert {s for s in range(players) if chances[s] > 0} == set(result.winners)


def test_the_games_estimate_ends_playouts_when_present(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a value estimate every playout stops after ``depth`` decisions and is
    scored by it; ``value=none`` and ``depth=0`` play to the end without it."""
    import bestiary.agents.value as value_module
    from bestiary.agents.value import GameValue

    calls: list[int] = []

    def spy(state):  # type: ignore[no-untyped-def]
        calls.append(state.players)
        return [0.5] * state.players

    monkeypatch.setitem(value_module._cache, "meat", GameValue(spy, 3))
    state = _decision_with_choices("meat", 2, 5)
    seat = state.to_act()[0]  # type: ignore[attr-defined]
    bot = make_agent(get_game("meat"), "ismcts:iterations=12,rollout=random", seed=1)
    bot.act(AgentContext(state, seat, Rng(0)))  # type: ignore[arg-type]
    assert bot.last_estimated == len(calls) >= 10  # type: ignore[attr-defined]
    for off in ("value=none", "depth=0"):
        calls.clear()
        bot = make_agent(get_game("meat"), f"ismcts:iterations=4,rollout=random,{off}", seed=1)
        bot.act(AgentContext(state, seat, Rng(0)))  # type: ignore[arg-type]
        assert calls == [] and bot.last_estimated == 0  # type: ignore[attr-defined]


def test_the_estimate_steers_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """An estimate that rewards one root move (by its mark on the sample) makes
    the search choose it, whatever the playouts would say."""
    import bestiary.agents.value as value_module
    from bestiary.agents.value import GameValue

    state = _decision_with_choices("taxonomy", 2, 2)
    seat = state.to_act()[0]  # type: ignore[attr-defined]
    legal = [str(a) for a in state.legal(seat)]  # type: ignore[attr-defined]
    target = legal[-1]
    # The sample shows the move: the estimate favours the samples in which the
    # searching seat no longer holds the card it was to discard.
    card = target.split(" ", 1)[1] if " " in target else ""

    def favour(sample):  # type: ignore[no-untyped-def]
        names = {sample.deck.cards[c].name for c in sample.hands[seat]}
        good = card not in names
        return [1.0 if (s == seat) == good else 0.0 for s in range(sample.players)]

    assert target.startswith("discard ")
    monkeypatch.setitem(value_module._cache, "taxonomy", GameValue(favour, 1))
    bot = ISMCTSAgent(seed=3, iterations=60, rollout="random", prior=0, widen=0)
    action = bot.act(AgentContext(state, seat, Rng(1)))  # type: ignore[arg-type]
    assert str(action) == target


def test_equal_seeds_give_equal_searches() -> None:
    """``iterations=`` with the default options (estimates included) is reproducible."""
    for game_id in ("meat", "monster-maker", "taxonomy", "teratozoic"):
        state = _decision_with_choices(game_id, 2, 6)
        seat = state.to_act()[0]  # type: ignore[attr-defined]
        runs = []
        for _ in range(2):
            bot = make_agent(get_game(game_id), "ismcts:iterations=15,rollout=auto", seed=9)
            action = bot.act(AgentContext(state.clone(), seat, Rng(2)))  # type: ignore[attr-defined,arg-type]
            runs.append((str(action), bot.last_ranking))  # type: ignore[attr-defined]
        assert runs[0] == runs[1]


# ---------------------------------------------------------------- tree reuse
def _play_with_search(spec: str, seed: int, decisions: int) -> list[tuple[str, int, list[str]]]:
    """Taxonomy, 2 seats: seat 0 searches with ``spec``, seat 1 plays the heuristic.
    Returns, per searched decision: the move, the visits reused, the root's moves."""
    game = get_game("taxonomy")
    state = game.new(2, seed=seed)
    state.quiet()
    bot = make_agent(game, spec, seed=seed)
    assert isinstance(bot, ISMCTSAgent)
    other = make_agent(game, "heuristic", seed=seed + 1)
    out: list[tuple[str, int, list[str]]] = []
    n = 0
    while not state.over and len(out) < decisions:
        seat = state.to_act()[0]
        legal = {str(a) for a in state.legal(seat)}
        if seat == 0:
            action = bot.act(AgentContext(state, 0, Rng(n)))
            if len(legal) > 1:
                roots = [k for k, _, _ in bot.last_ranking]
                # never a move that is not legal in the position searched now
                assert set(roots) <= legal
                out.append((str(action), bot.last_reused, roots))
        else:
            action = other.act(AgentContext(state, seat, Rng(n)))
        state.apply(seat, action)
        n += 1
    return out


def test_a_reused_tree_holds_only_moves_legal_now_and_is_reproducible() -> None:
    spec = "ismcts:iterations=25,rollout=random"
    first = _play_with_search(spec, 3, 40)
    assert any(reused > 0 for _, reused, _ in first), "some decision reused the kept subtree"
    assert any(reused == 0 for _, reused, _ in first), "and some could not be matched"
    assert _play_with_search(spec, 3, 40) == first
    off = _play_with_search(spec.replace("random", "random,reuse=0"), 3, 40)
    assert all(reused == 0 for _, reused, _ in off)


def test_a_kept_tree_is_discarded_when_the_position_cannot_be_matched() -> None:
    """A search in one game, then a decision in another: nothing is reused."""
    game = get_game("taxonomy")
    bot = make_agent(game, "ismcts:iterations=20,rollout=random", seed=1)
    assert isinstance(bot, ISMCTSAgent)
    a = _decision_with_choices("taxonomy", 2, 1)
    seat = a.to_act()[0]  # type: ignore[attr-defined]
    bot.act(AgentContext(a, seat, Rng(0)))  # type: ignore[arg-type]
    assert bot._kept is not None
    b = _decision_with_choices("taxonomy", 2, 8)
    seat_b = b.to_act()[0]  # type: ignore[attr-defined]
    bot.act(AgentContext(b, seat_b, Rng(0)))  # type: ignore[arg-type]
    assert bot.last_reused == 0


def test_reuse_takes_a_yes_or_no() -> None:
    with pytest.raises(BadAgentSpec, match="reuse"):
        make_agent(get_game("taxonomy"), "ismcts:reuse=sometimes")
    assert make_agent(get_game("taxonomy"), "ismcts:reuse=no").reuse is False  # type: ignore[attr-defined]


def test_a_team_win_is_a_full_win_for_each_member_as_in_the_estimates() -> None:
    """A finished playout of a team game rewards every member of the winning
    team with 1, the scale of M.E.A.T.'s estimate (each member its team's
    chance); before, two winners got 1/2 each, so a finished playout was worth
    half of an estimated sure win. Games without teams still share a tie."""
    from bestiary.agents.value import terminal_rewards
    from bestiary.engine.protocol import Result

    won = Result(scores=[1, 0, 1, 0], winners=[0, 2])
    assert terminal_rewards(won, 4, [0, 1, 0, 1]) == [1.0, 0.0, 1.0, 0.0]
    assert terminal_rewards(won, 4) == [0.5, 0.0, 0.5, 0.0]
    assert terminal_rewards(None, 4, [0, 1, 0, 1]) == [0.5] * 4
    assert terminal_rewards(None, 4) == [0.25] * 4

    # The search backs up exactly that at the end of a 4-seat M.E.A.T. game.
    from bestiary.agents.rollout import RandomRollout, play_out

    game = get_game("meat")
    state = game.new(4, seed=9)
    state.quiet()
    rng = Rng(9)
    while not state.over:
        seat = state.to_act()[0]
        legal = state.legal(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    result = state.result
    assert result is not None and result.winners
    rewards, estimated = play_out(state, RandomRollout(rng), None, 0, 0)
    assert not estimated
    assert [s for s in range(4) if rewards[s] == 1.0] == sorted(result.winners)
    from bestiary.games.meat.value import value_estimate

    assert list(value_estimate(state)) == rewards  # type: ignore[arg-type]


def test_fitted_estimates_are_flatter_where_the_fit_said_so() -> None:
    """Monster Maker's softmax is flatter with two seats than with four (the
    scales fitted to heuristic self-play; the former single 200-gold scale was
    overconfident, worse than a coin with two seats), and M.E.A.T.'s estimate
    before the battle is even odds at equal vitality and favours the side with
    more vitality, about e:1 per VALUE_SCALE_DRAFT points -- and with teammates
    per twice as many (the 2v2 and 3v3 fits found the one-seat scale twice too
    sharp: a side's points sum two or three seats)."""
    from bestiary.games.meat import value as meat_bots
    from bestiary.games.monster_maker import value as mm_bots

    assert mm_bots.ODDS_SCALE[2] > mm_bots.ODDS_SCALE[3] > mm_bots.ODDS_SCALE_MANY
    state = get_game("meat").new(2, seed=1)
    state.quiet()
    assert meat_bots.value_estimate(state) == [0.5, 0.5]  # type: ignore[arg-type]
    state.vit[0] -= 9  # type: ignore[attr-defined]
    odds = meat_bots.value_estimate(state)  # type: ignore[arg-type]
    assert odds[0] < 0.5 < odds[1] and math.isclose(odds[1] + odds[0], 1.0)
    assert math.isclose(odds[1] / odds[0], math.exp(9 / meat_bots.VALUE_SCALE_DRAFT), rel_tol=1e-6)
    for players in (4, 6):
        teams = get_game("meat").new(players, seed=1)
        teams.quiet()
        teams.vit[0] -= 9  # type: ignore[attr-defined]
        odds = meat_bots.value_estimate(teams)  # type: ignore[arg-type]
        assert odds[1] == odds[3] and odds[0] == odds[2]
        assert math.isclose(odds[1] / odds[0], math.exp(9 / 19), rel_tol=1e-6)


def test_fit_value_scores_an_estimate_against_the_winners(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``k`` sharpens (k > 1) or flattens (k < 1) the chances; the loss of a sure,
    right estimate is 0 and of a coin log 2; a run prints one JSON row per stage."""
    import json

    from bestiary.agents.fit_value import main, winner_loss

    coin = [math.log(0.5), math.log(0.5)]
    assert math.isclose(winner_loss(coin, [0], 1.0), math.log(2))
    assert math.isclose(winner_loss(coin, [0], 3.0), math.log(2))  # a coin stays a coin
    sure = [math.log(0.9), math.log(0.1)]
    assert winner_loss(sure, [0], 3.0) < winner_loss(sure, [0], 1.0) < winner_loss(sure, [1], 1.0)
    main(["meat", "--players", "2", "--games", "3", "--every", "5"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows and {r["stage"] for r in rows} <= {0, 1}
    for r in rows:
        assert r["samples"] > 0 and 0.05 <= r["best_k"] <= 5.0
        assert r["heldout_loss_best"] >= 0 and r["heldout_loss_uniform"] == round(math.log(2), 4)


def test_a_playout_goes_on_past_its_depth_until_the_game_says_its_estimate_is_ready(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From a M.E.A.T. draft pick, a playout of ``depth`` decisions would end
    before the battle, where the estimate is the vitality alone and every pick
    looks the same; with the game's ``value_ready`` it goes on to the battle
    (or the end, or ``rollout_limit``) and only then asks the estimate."""
    import bestiary.agents.value as value_module
    from bestiary.agents.value import GameValue
    from bestiary.games.meat import value as meat_bots
    from bestiary.games.meat.phases import P_DRAFT, P_TACTICS

    asked: list[tuple[bool, int]] = []

    def spy(state):  # type: ignore[no-untyped-def]
        asked.append((meat_bots.value_ready(state), state.phase))
        return meat_bots.value_estimate(state)

    game = get_game("meat")
    state = game.new(2, seed=5)
    state.quiet()
    rng = Rng(5)
    while state.phase != P_DRAFT:  # type: ignore[attr-defined]
        seat = state.to_act()[0]
        state.apply(seat, state.legal(seat)[rng.randrange(len(state.legal(seat)))])
    seat = state.to_act()[0]
    assert len(state.legal(seat)) > 1
    monkeypatch.setitem(value_module._cache, "meat", GameValue(spy, 2, meat_bots.value_ready))
    bot = make_agent(game, "ismcts:iterations=8,rollout=random,ready=auto", seed=1)
    bot.act(AgentContext(state, seat, Rng(0)))  # type: ignore[arg-type]
    assert len(asked) == 8 and all(ok for ok, _ in asked)
    # Without the hook, or with ready=none (the default), the same playouts are
    # scored two decisions in, in the draft.
    for spec, hooked in (("ready=auto", False), ("ready=none", True), ("c=0.7", True)):
        asked.clear()
        ready = meat_bots.value_ready if hooked else None
        monkeypatch.setitem(value_module._cache, "meat", GameValue(spy, 2, ready))
        bot = make_agent(game, f"ismcts:iterations=8,rollout=random,{spec}", seed=1)
        bot.act(AgentContext(state, seat, Rng(0)))  # type: ignore[arg-type]
        assert asked and not any(ok for ok, _ in asked)
    # rollout_limit still caps a playout whose game is never ready.
    asked.clear()
    monkeypatch.setitem(value_module._cache, "meat", GameValue(spy, 2, lambda s: False))
    spec = "ismcts:iterations=4,rollout=random,rollout_limit=5,ready=auto"
    bot = make_agent(game, spec, seed=1)
    bot.act(AgentContext(state, seat, Rng(0)))  # type: ignore[arg-type]
    assert len(asked) == 4 and all(ph in (P_DRAFT, P_TACTICS) for _, ph in asked)
