"""Solvable variants (issue 32): a tiny rules variant per game, its deal drawn at
an explicit chance node from fixed deals, written whole as an ``.efg`` game,
solved by OpenSpiel's CFR+, and our bots measured on it as tabular policies.

The heavy solving is benchmarks/solve_variants.py (docs/RL.md, "Solved
variants"). Here the smallest case: a Monster Maker table of eight cards and
hands of two (written by the test, about a thousand nodes), three linked deals.

Skipped when ``open_spiel`` is not installed (``pip install bestiary[openspiel]``).
"""

from __future__ import annotations

import io
import itertools
import json
from fractions import Fraction
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import bestiary.openspiel  # noqa: E402,F401 - registers the games
from bestiary.engine.registry import all_games, get_game  # noqa: E402
from bestiary.openspiel.deals import DealsGame, linked_deals  # noqa: E402
from bestiary.openspiel.efg import Tree, write_efg  # noqa: E402
from bestiary.openspiel.solve import (  # noqa: E402
    BotHook,
    bot_policy,
    exploitability,
    solve_cfr_plus,
    uniform_policy,
)
from bestiary.openspiel.variants import SolvableVariant, load_variant  # noqa: E402
from bestiary.rl.evaluate import opponent_pool  # noqa: E402

DECK = """name,kind,count,value,type,abilities
Corridor 10,corridor,3,10,,
Goblin,monster,1,9,human,
Fighter,character,1,3D+3,,
Sleep,spell,1,1D,,human_only
Detour,detour,1,,,
Trap,trap,1,,,
"""
DEALS = 3


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The smallest case, walked once: the game, its tree and .efg game, the bots."""
    folder = tmp_path_factory.mktemp("tiny")
    deck = folder / "deck.csv"
    deck.write_text(DECK)
    shipped = load_variant(get_game("monster-maker"))
    assert shipped is not None
    variant = SolvableVariant(
        game=shipped.game,
        path=folder / "solvable.toml",
        players=2,
        deals=DEALS,
        first_seed=0,
        max_nodes=100_000,
        variant="standard",
        options={**shipped.options, "cards": str(deck), "hand_limit": 2},
    )
    game = variant.deals_game()
    pool = {k: v for k, v in opponent_pool(variant.game, 2).items() if k != "random"}
    hook = BotHook(variant.game, pool)
    out = io.StringIO()
    tree = write_efg(game, out, hook=hook)
    return {
        "variant": variant,
        "game": game,
        "tree": tree,
        "efg": pyspiel.load_efg_game(out.getvalue()),
        "bots": hook.bots,
    }


def _count(state: Any, deals: set[int] | None = None) -> tuple[int, int]:
    """Nodes and terminals below ``state``, by OpenSpiel's own API."""
    if state.is_terminal():
        return 1, 1
    nodes, terminals = 1, 0
    actions = (
        [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    )
    for action in actions:
        child = state.child(action)
        if deals is not None and state.is_chance_node():
            deals.add(action)
        n, t = _count(child)
        nodes += n
        terminals += t
    return nodes, terminals


def test_the_tree_is_complete_and_every_deal_is_reachable(tiny: dict[str, Any]) -> None:
    """Issue 32: "the tree is complete (every deal reachable, chance probabilities
    sum to 1)": the root is the only chance node, its K outcomes are the K deals
    with probability 1/K each, summing to 1 exactly; the walk written as .efg
    has every node of the bridge game and the loaded .efg game has every node
    of the walk."""
    tree: Tree = tiny["tree"]
    game: DealsGame = tiny["game"]
    root = game.new_initial_state()
    assert root.is_chance_node()
    assert root.chance_outcomes() == [(i, 1 / DEALS) for i in range(DEALS)]
    assert tree.chance_nodes == 1 and tree.chance_sums == [Fraction(1)]
    reached: set[int] = set()
    assert _count(root, reached) == (tree.nodes, tree.terminals)
    assert reached == set(range(DEALS))
    efg_root = tiny["efg"].new_initial_state()
    assert _count(efg_root) == (tree.nodes, tree.terminals)
    for deal in range(DEALS):
        assert not root.child(deal).is_terminal()
    assert tree.decisions == tree.nodes - tree.terminals - tree.chance_nodes
    assert tiny["efg"].get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_openspiels_random_simulation_checks_pass_on_the_dealt_game(tiny: dict[str, Any]) -> None:
    """The game with its deal at a chance node is still an OpenSpiel game:
    random_sim_test checks chance outcomes (their odds sum to 1), legal actions,
    strings, clones and returns within the announced bounds (serialize=False as
    for every Python game: docs/RL.md, "OpenSpiel")."""
    pyspiel.random_sim_test(tiny["game"], num_sims=3, serialize=False, verbose=False)
    assert tiny["game"].get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def test_linked_deals_open_alike_for_the_seat_they_were_redrawn_for() -> None:
    """docs/RL.md, "Solved variants": deal i + 1 is deal i redrawn by
    ``determinize`` for one seat, so that seat's opening view is the same in
    both and it cannot tell them apart; the other seat's hand is new. Checked
    on every shipped variant's own deals."""
    variants = [v for v in (load_variant(g) for g in all_games()) if v is not None]
    assert {v.game.id for v in variants} >= {"taxonomy", "monster-maker", "meat"}
    for variant in variants:
        bridge = variant.bridge()
        deals = linked_deals(bridge, variant.first_seed, variant.deals)
        assert len(deals) == variant.deals and deals[0].redrawn_for is None
        for before, after in itertools.pairwise(deals):
            seat = after.redrawn_for
            assert seat is not None
            assert json.dumps(after.state.view(seat), sort_keys=True, default=str) == json.dumps(
                before.state.view(seat), sort_keys=True, default=str
            ), variant.game.id


def test_cfr_plus_drives_exploitability_below_the_uniform_policys(tiny: dict[str, Any]) -> None:
    """Issue 32: "CFR+ drives exploitability down (after N iterations below the
    uniform policy's)": OpenSpiel's CFR+ on the .efg game."""
    efg = tiny["efg"]
    uniform = exploitability(efg, uniform_policy(tiny["tree"]))
    solution = solve_cfr_plus(efg, target=0.0, max_iterations=40, check_every=10)
    first, last = solution.curve[0][1], solution.curve[-1][1]
    assert 0.0 < uniform <= 1.0
    assert last < uniform
    assert last <= first
    assert solution.iterations == 40


def test_the_bots_tabular_policies_are_legal_everywhere(tiny: dict[str, Any]) -> None:
    """Issue 32: "the bots' tabular policies are legal everywhere": each bot of
    the benchmark pool gives, at every information set, a distribution over
    exactly that set's legal actions (the action it picks with probability 1),
    and OpenSpiel measures its exploitability."""
    tree: Tree = tiny["tree"]
    efg = tiny["efg"]
    names = {bot.name for bot in tiny["bots"]}
    assert names == {"heuristic", "hard"}
    ids_of = {key: {tree.action_ids[a] for a in legal} for key, legal in tree.legal.items()}
    for bot in tiny["bots"]:
        assert not bot.stopped and bot.choices
        policy = bot_policy(tree, bot)
        assert len(policy) == sum(tree.infoset_count(p) for p in range(2))
        for (player, number), ids in ids_of.items():
            entry = policy[Tree.infostate_string(player, number)]
            assert {a for a, _ in entry} == ids
            assert sorted(p for _, p in entry)[-1] == 1.0 and sum(p for _, p in entry) == 1.0
        assert 0.0 <= exploitability(efg, policy) <= 1.0
    for player in range(2):
        state_ids = tree.infosets[player].values()
        assert sorted(state_ids) == list(range(1, len(state_ids) + 1))


def test_the_efg_writer_keeps_a_known_game() -> None:
    """The .efg written from OpenSpiel's own Kuhn poker is Kuhn poker: the
    uniform policy's exploitability is the known 0.4583 (11/24) on both, and
    CFR+ solves the copy."""
    kuhn = pyspiel.load_game("kuhn_poker")
    out = io.StringIO()
    tree = write_efg(kuhn, out)
    copy = pyspiel.load_efg_game(out.getvalue())
    assert (tree.infoset_count(0), tree.infoset_count(1)) == (6, 6)
    assert exploitability(copy, uniform_policy(tree)) == pytest.approx(11 / 24)
    solved = solve_cfr_plus(copy, target=1e-3, max_iterations=1_000, check_every=50)
    assert solved.exploitability <= 1e-3
    assert solved.value == pytest.approx(-1 / 18, abs=1e-2)


def test_a_game_of_three_seats_is_refused() -> None:
    """The walk writes two-player games only (OpenSpiel's exploitability is for
    two-player zero-sum games); three seats are refused, saying so."""
    from bestiary.openspiel.efg import TreeError

    game = pyspiel.load_game("kuhn_poker", {"players": 3})
    with pytest.raises(TreeError, match="two-player"):
        write_efg(game, io.StringIO())
