"""The trust audit itself (bestiary/engine/audit.py), on the toy game: it
must notice what it exists to notice."""

from __future__ import annotations

import pytest

from bestiary.engine import Rng
from bestiary.engine.audit import AuditFailure, check_clone, fingerprint, shared_mutables
from bestiary.engine.protocol import State

from .toygame import GAME, ToyState


def _toy() -> State:
    return GAME.new(2, seed=1)


def test_the_fingerprint_covers_a_field_added_later() -> None:
    state = _toy()
    before = fingerprint(state)
    state.new_field = [1, 2, 3]  # type: ignore[attr-defined]
    assert fingerprint(state) != before
    state.new_field.append(4)  # type: ignore[attr-defined]
    assert fingerprint(state) != before


def test_the_fingerprint_depends_on_content_not_on_insertion_order() -> None:
    """DESIGN.md: the fingerprint is of "the whole state": two states holding the
    same values fingerprint alike however their dicts and sets were filled, and
    any changed value inside a plain container, a set or a frozen value shows."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Card:
        name: str
        cost: int

    a, b = _toy(), _toy()
    a.extra = {"x": {3, 1, 2}, "y": [Card("imp", 1)]}  # type: ignore[attr-defined]
    b.extra = {"y": [Card("imp", 1)], "x": {2, 3, 1}}  # type: ignore[attr-defined]
    assert fingerprint(a) == fingerprint(b)
    b.extra["x"].add(4)  # type: ignore[attr-defined]
    assert fingerprint(a) != fingerprint(b)
    b.extra["x"].discard(4)  # type: ignore[attr-defined]
    b.extra["y"][0] = Card("imp", 2)  # type: ignore[attr-defined]
    assert fingerprint(a) != fingerprint(b)


def test_a_clone_that_forgets_a_new_field_is_caught() -> None:
    state = _toy()
    state.new_field = [[0], [0]]  # type: ignore[attr-defined]
    lazy = state.clone()
    lazy.new_field = state.new_field  # type: ignore[attr-defined]  # forgotten: shared
    assert shared_mutables(state, lazy) == ["new_field", "new_field[0]", "new_field[1]"]
    nested = state.clone()
    nested.new_field = list(state.new_field)  # type: ignore[attr-defined]  # shallow: inner shared
    assert "new_field[0]" in shared_mutables(state, nested)
    # The toy game's own clone() copies its fields by hand: the new one is
    # exactly what it forgets, and what the audit reports.
    assert shared_mutables(state, state.clone()) == ["new_field", "new_field[0]", "new_field[1]"]
    fresh = _toy()
    assert shared_mutables(fresh, fresh.clone()) == []


def test_check_clone_reports_a_clone_that_drops_data() -> None:
    class Lossy(ToyState):
        def clone(self) -> State:
            other = super().clone()
            other.lost = True  # type: ignore[attr-defined]
            return other

    state = _toy()
    state.__class__ = Lossy
    with pytest.raises(AuditFailure, match="differs from its original"):
        check_clone(state, Rng(1))
