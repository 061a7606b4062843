"""The taxonomy package's modules import downward only (DESIGN.md: "Arrows
point down only"), and the counts the hot path keeps card by card always
equal a count from scratch."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from bestiary.engine import Rng
from bestiary.games.taxonomy import GAME
from bestiary.games.taxonomy.board import Board
from bestiary.games.taxonomy.rules import TaxonomyState
from bestiary.games.taxonomy.scoring import best_score

PACKAGE = Path(__file__).parents[3] / "bestiary" / "games" / "taxonomy"


def _imports() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (type-checking imports too)."""
    graph: dict[str, set[str]] = {}
    for f in PACKAGE.glob("*.py"):
        deps = set()
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                deps.add(node.module.split(".")[0])
        graph[f.stem] = deps
    return graph


def test_the_modules_import_in_no_circle() -> None:
    graph = _imports()
    assert "view" not in graph["claims"] | graph["natures"] | graph["board"]
    assert "rules" not in graph["view"], "view.py reads the state through claims.Claims"

    def walk(mod: str, path: list[str]) -> None:
        for dep in graph.get(mod, set()) - {"__init__"}:
            assert dep not in path, " -> ".join([*path, dep])
            walk(dep, [*path, dep])

    for mod in graph:
        if mod != "__init__":
            walk(mod, [mod])


@pytest.mark.parametrize("module", ["phases", "ruleset", "board", "natures", "claims", "view"])
def test_each_layer_imports_on_its_own(module: str) -> None:
    """A fresh interpreter imports the layer first: no hidden reliance on rules.py."""
    code = f"import bestiary.games.taxonomy.{module}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def _from_scratch(st: Board, s: int) -> tuple[list[int], list[int], int, int]:
    n = st.deck.num_keys
    kc, hk = [0] * n, [0] * n
    bans = st.bans[s]
    for c in st.hands[s]:
        if st.group_of[c] not in bans:
            for k in st.ckeys[c]:
                kc[k] += 1
                hk[k] += 1
    for _, cs in st.tables[s]:
        for c in cs:
            if st.group_of[c] not in bans:
                for k in st.ckeys[c]:
                    kc[k] += 1
    tabled = sum(len(cs) for _, cs in st.tables[s])
    return kc, hk, sum(1 for x in kc if x >= 4), tabled


def _check_counts(st: TaxonomyState) -> None:
    threes = [0] * st.deck.num_keys
    for s in range(st.players):
        kc, hk, big, tabled = _from_scratch(st, s)
        assert (st.kc[s], st.hk[s], st.big[s], st.tabled[s]) == (kc, hk, big, tabled)
        for k, x in enumerate(hk):
            threes[k] += x >= 3
    assert st.threes == threes


@pytest.mark.parametrize("variant", ["v0.2", "v0.1"])
def test_incremental_counts_equal_a_recount_and_the_win_test_misses_no_win(variant: str) -> None:
    """Reading 4 and the winning patterns rest on the key counts: after every
    move of random games they equal a count from scratch, and the cheap test
    before the scoring search (``_score``) never hides a winning hand."""
    rng = Rng(11)
    for seed in range(3):
        for players in (2, 4, 6):
            st = GAME.new(players, seed=seed, variant=variant)
            assert isinstance(st, TaxonomyState)
            st.quiet()
            steps = 0
            while not st.over and steps < 1500:
                _check_counts(st)
                for s in range(players):
                    bans = st.bans[s]
                    if any(st.group_of[c] in bans for _, cs in st.tables[s] for c in cs):
                        continue
                    unusable = {c for c in st.hands[s] if st.group_of[c] in bans}
                    full = best_score(
                        st.deck,
                        st.hands[s],
                        st.tables[s],
                        st.claims[s],
                        st.seven_plus_one,
                        st.ckeys,
                        unusable,
                        scoring=st.scoring,
                    )
                    assert (st._score(s) is None) == (full is None)
                seat = st.to_act()[0]
                legal = st.legal(seat)
                st.apply(seat, legal[rng.randrange(len(legal))])
                steps += 1
