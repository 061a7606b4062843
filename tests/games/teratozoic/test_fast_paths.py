"""The fast paths of the speed work give the answers of the plain definitions.

- The parity bound ('every end meets exactly one end on the same axis and
  spot'; 'n cards need n - 1 connections', RULES.md 'The solver') computed by
  parity classes equals the bound computed by trying every choice of cards
  to drop, as first written.
- The modules of the package import downward, never in a circle.
- ``legal`` is listed once per state change: after a move it lists the new
  position, and an equal action that is not the listed object is accepted.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

from bestiary.engine import IllegalAction, Rng
from bestiary.games.teratozoic import closed
from bestiary.games.teratozoic.actions import Hold
from bestiary.games.teratozoic.closed import parity_bound, parity_vector
from bestiary.games.teratozoic.solver import shape_of

from .helpers import DECK, new

PACKAGE = Path(closed.__file__).parent


def _parity_bound_reference(shapes: tuple[tuple[int, ...], ...], counts: tuple[int, ...]) -> int:
    """The bound as first written: every choice of kinds to drop one card of."""
    kinds = [
        (parity_vector(s[0]), s[0].bit_count() - 2, k)
        for s, k in zip(shapes, counts, strict=True)
        if k > 0
    ]
    hubs = [k for k in kinds if k[1] >= 0]
    leaves = [k for k in kinds if k[1] == -1]
    best = int(any(s[0] == 0 for s, k in zip(shapes, counts, strict=True) if k))
    for drop in range(1 << len(hubs)):
        par, kept, budget = 0, 0, 2
        for i, (vec, delta, cnt) in enumerate(hubs):
            c = cnt - (drop >> i & 1)
            par ^= vec if c & 1 else 0
            kept += c
            budget += c * delta
        for pick in range(1 << len(leaves)):
            p = par
            ks = []
            for j, (vec, _, cnt) in enumerate(leaves):
                c = cnt - (pick >> j & 1)
                p ^= vec if c & 1 else 0
                ks.append(c)
            if p:
                continue
            cost = sum(ks)
            for j in range(len(leaves)):
                while cost > budget and ks[j] >= 2:
                    ks[j] -= 2
                    cost -= 2
            if cost <= budget:
                best = max(best, kept + sum(ks))
    return best


def test_parity_bound_equals_the_plain_definition() -> None:
    shapes = tuple(sorted({shape_of(c) for c in DECK}))
    rng = Rng(4)
    for _ in range(400):
        picked = tuple(sorted(rng.sample(shapes, rng.randint(1, min(9, len(shapes))))))
        counts = tuple(rng.randint(0, 4) for _ in picked)
        parity_bound.cache_clear()
        assert parity_bound(picked, counts) == _parity_bound_reference(picked, counts)


def _module_imports(path: Path) -> set[str]:
    """Sibling modules imported at module level (TYPE_CHECKING blocks included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If):
            stack += node.body + node.orelse
        elif isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            out.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 1:
            out.update(a.name for a in node.names)
    return out


def test_modules_import_downward_never_in_a_circle() -> None:
    graph = {p.stem: _module_imports(p) for p in PACKAGE.glob("*.py")}
    for start in graph:
        seen: set[str] = set()
        todo = [start]
        while todo:
            here = todo.pop()
            for nxt in graph.get(here, ()):
                assert nxt != start, f"{start} imports itself through {here}"
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)


@pytest.mark.parametrize("pair", list(itertools.combinations(["cards", "tiles", "edges"], 2)))
def test_cards_and_tiles_have_no_cycle(pair: tuple[str, str]) -> None:
    a, b = pair
    a_uses_b = b in _module_imports(PACKAGE / f"{a}.py")
    assert not (a_uses_b and a in _module_imports(PACKAGE / f"{b}.py"))


def test_legal_follows_each_move_and_accepts_an_equal_action() -> None:
    """'Continuing clockwise, each player declares whether they are expressing
    all their genes or holding some back': once a card is held it cannot be
    held again, and the list of actions says so at once."""
    st = new(4, seed=3)
    seat = st.to_act()[0]
    before = st.legal(seat)
    assert st.legal(seat) is before  # listed once per state change
    hold = next(a for a in before if isinstance(a, Hold))
    equal = Hold(hold.card, hold.name)
    assert equal is not hold
    st.apply(seat, equal)
    after = st.legal(seat)
    assert hold not in after
    assert len(st.held[seat]) == 1
    with pytest.raises(IllegalAction):
        st.apply(seat, hold)
    assert st.held[seat] == [hold.card]  # refused: nothing changed
