"""Playing the same game in the Python engine and in the JAX port, move by
move, and comparing them at every decision (tests/jax, benchmarks/jax_taxonomy.py).

Chance is made identical by driving the Python engine's random draws from the
JAX side's keys: a scripted stand-in replaces the engine's ``Rng`` on the
state (``ScriptedRng``) and a subclass hooks the one draw whose meaning depends
on the card (``_roll``: a miscellaneous card's roll). The engine itself is not
changed: the stand-in answers ``shuffle`` with the JAX deal, ``roll`` with
the JAX round's roll of that card and ``randrange`` (a mean monster's pick)
with the JAX pick, all recomputed from the same key.

At every step both must agree on: who acts (``to_act``, and the JAX
``current_seat`` = the engine's ``to_act()[0]``), every seat's legal action
mask, every seat's observation vector (the engine's RL encoding), the scores
and whether the game is over; at the end, the result.

Every seat's observation is the engine's sparse encoding (the one the
environments use, equal to ``encode`` by tests/rl/test_sparse_encoding.py);
the acting seat's is also the dense ``encode(view)``, so both paths meet the
JAX vector at every step. The JAX side runs one fused call per step (the step
and every seat's masks and observations), and its chance is fetched only
when the engine draws: the engine's step overlaps JAX's on another core.
"""

from __future__ import annotations

import random
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from ..games.taxonomy.actions import CLAIM, DISCARD, TABLE, WIN, Move
from ..games.taxonomy.game import TaxonomyGame
from ..games.taxonomy.observe import Observer
from ..games.taxonomy.rules import TaxonomyState
from ..games.taxonomy.ruleset import V02
from ..games.taxonomy.view import encoder_view
from ..rl.encoding import action_mask
from .chance import MEAN_PICKS, Chance, step_chance, stock_order
from .observe import layout, observe
from .state import TaxState
from .tables import tables
from .taxonomy import NEW_GAME, blank, current_seat, legal_action_mask, step


class ScriptedRng:
    """Stands in for the engine's ``Rng`` on one state: every draw the rules
    make is answered from the JAX game's key for the current step."""

    def __init__(self) -> None:
        self.chance: Chance | None = None
        self._pending: Chance | None = None
        self.mean_j = 0
        self.rolls: npt.NDArray[np.int32] | None = None
        self.card = -1  # the card being rolled (set by ScriptedTaxonomy._roll)

    def begin_step(self, chance: Chance) -> None:
        """The chance of the JAX step about to be played (``chance.step_chance``),
        still on the device: most steps draw nothing, so it is fetched on use."""
        self._pending = chance
        self.chance = None
        self.mean_j = 0

    def _drawn(self) -> Chance:
        if self.chance is None:
            assert self._pending is not None
            self.chance = jax.device_get(self._pending)
        return self.chance

    def shuffle(self, seq: MutableSequence[Any]) -> None:
        chance = self._drawn()
        perm, rolls = chance.perm, chance.rolls
        d = tables().d
        aside = np.ones(d, dtype=bool)
        aside[list(seq)] = False
        order, n = _stock_order(perm, jnp.asarray(aside))
        cards = [int(c) for c in np.asarray(order)[: int(n)]]
        if sorted(cards) != sorted(seq):
            raise AssertionError("the JAX stock holds other cards than the engine's")
        seq[:] = cards
        self.rolls = np.asarray(rolls)

    def roll(self, dice: Any) -> int:
        assert self.rolls is not None and self.card >= 0
        return int(self.rolls[self.card])

    def randrange(self, n: int) -> int:
        i = _mean_index_np(self._drawn().mean, self.mean_j, n)
        self.mean_j += 1
        return i

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the default rules drew {name!r}: not scripted")


class ScriptedTaxonomy(TaxonomyState):
    """The engine's state, telling its scripted RNG which card it rolls."""

    def _roll(self, c: int, to: Sequence[int] | None) -> None:
        rng = self.rng
        assert isinstance(rng, ScriptedRng)
        rng.card = c
        super()._roll(c, to)


_stock_order = jax.jit(stock_order)


def _mean_index_np(mean: Any, j: int, n: int) -> int:
    """``chance.mean_index`` on host values (the same arithmetic, checked in tests)."""
    w = int(mean[j % MEAN_PICKS]) >> 8
    return (w * max(n, 1)) >> 24


# Every seat's mask and observation, who acts, over, to_act, scores, overflow.
Probe = tuple[Any, ...]


@cache
def _compiled(players: int) -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    """(init, step, probe) jitted for a table size. ``init(key)`` and
    ``step(state, action, key, t)`` give (state, chance, probe of the state):
    one call per step; ``probe(state)`` alone serves the hidden-information test."""
    seats = jnp.arange(players)

    def probe(st: TaxState) -> Probe:
        masks = jax.vmap(lambda s: legal_action_mask(st, s))(seats)
        obs = jax.vmap(lambda s: observe(st, s))(seats)
        return masks, obs, current_seat(st), st.over, st.to_act, st.scores, st.overflow

    def step_t(
        st: TaxState, a: jax.Array, key: jax.Array, t: jax.Array
    ) -> tuple[TaxState, Chance, Probe]:
        # The step's key is fold_in(game key, t): the chance comes back for the engine.
        k = jax.random.fold_in(key, t)
        after = step(st, a, k)
        return after, step_chance(k), probe(after)

    step_j = jax.jit(step_t)
    start = blank(players)
    return (
        # init(key) is step(blank, NEW_GAME, key): compiled once with step
        lambda key: step_j(start, np.int32(NEW_GAME), key, np.int32(0)),
        step_j,
        jax.jit(probe),
    )


def python_twin(chance: Chance, players: int) -> TaxonomyState:
    """The engine's state dealt with the chance of the JAX game's first deal."""
    st = TaxonomyGame().create(players, 0, V02)
    st.quiet()
    st.__class__ = ScriptedTaxonomy
    rng = ScriptedRng()
    rng.begin_step(chance)
    st.rng = rng  # type: ignore[assignment]
    st._start_round()  # the deal again, with the scripted shuffle and rolls
    return st


@dataclass
class Tally:
    """What the compared games went through (coverage of the rules)."""

    games: int = 0
    steps: int = 0
    kinds: dict[str, int] = field(default_factory=dict)

    def saw(self, what: str) -> None:
        self.kinds[what] = self.kinds.get(what, 0) + 1


def _field_of(players: int, i: int) -> str:
    at, _ = layout(players)
    name = max((f for f in at if at[f] <= i), key=lambda f: at[f])
    return f"{name}+{i - at[name]}"


def _engine_rows(py: TaxonomyState, observer: Observer) -> list[npt.NDArray[np.float32]]:
    """Every seat's observation in the engine: the sparse encoding the
    environments use (read through the encoder's view, as
    ``encode_state_sparse`` does for a plain ``TaxonomyState``; the scripted
    subclass views the same), made dense for the comparison."""
    where = observer._positions(py.deck)
    assert where is not None, "the default deck has a position for every name"
    rows = np.zeros((py.players, observer.size), dtype=np.float32)
    for s in range(py.players):
        ones, idx, values = observer._sparse(encoder_view(py, s), where)
        rows[s, ones] = 1.0
        rows[s, idx] = values
    return list(rows)


def _compare(py: TaxonomyState, probed: Probe, observer: Observer, where: str) -> None:
    players = py.players
    masks, obs, cur, over, to_act, scores, overflow = jax.device_get(probed)
    num = tables().num_actions
    if bool(over) != py.over:
        raise AssertionError(f"{where}: over {bool(over)} (JAX) vs {py.over} (engine)")
    want = py.to_act()
    got = [s for s in range(players) if to_act[s]] if not py.over else []
    if sorted(want) != got:
        raise AssertionError(f"{where}: to_act {got} (JAX) vs {list(want)} (engine)")
    if int(cur) != (want[0] if want else -1):
        raise AssertionError(f"{where}: current seat {int(cur)} vs engine to_act {list(want)}")
    if list(scores) != list(py.scores):
        raise AssertionError(f"{where}: scores {scores} vs {py.scores}")
    if bool(overflow):
        raise AssertionError(f"{where}: the JAX effect queue overflowed")
    rows = _engine_rows(py, observer)
    if want:  # the acting seat's by the dense encoder too
        rows.append(np.asarray(observer.encode(py.view(want[0])), dtype=np.float32))
    for s in range(players):
        m = action_mask(py, s, num).astype(bool)
        if not np.array_equal(m, masks[s]):
            extra = np.flatnonzero(masks[s] & ~m).tolist()
            missing = np.flatnonzero(m & ~masks[s]).tolist()
            raise AssertionError(
                f"{where}: seat {s} mask: JAX adds {extra}, lacks {missing} (phase {py.phase})"
            )
    for i, o in enumerate(rows):
        s = i if i < players else want[0]
        bad = np.flatnonzero(np.abs(o - obs[s]) > 1e-6)
        if bad.size:
            how = "sparse" if i < players else "dense"
            fields = [(_field_of(players, int(j)), float(o[j]), float(obs[s][j])) for j in bad[:8]]
            raise AssertionError(
                f"{where}: seat {s} observation ({how} encoder) differs (engine, JAX): {fields}"
            )


def _choose(py: TaxonomyState, seat: int, pick: random.Random) -> Move:
    """A random legal move, leaning (9 times in 10) to what a collector does:
    win when it may, claim, table a drawn card, and discard a card of the key
    it holds fewest of (hand and table)."""
    legal: Sequence[Move] = py.legal(seat)
    if pick.random() < 0.1:
        return legal[pick.randrange(len(legal))]
    for kind in (WIN, CLAIM, TABLE):
        some = [m for m in legal if m.kind == kind]
        if some:
            return some[pick.randrange(len(some))]
    discards = [m for m in legal if m.kind == DISCARD]
    if not discards:
        return legal[pick.randrange(len(legal))]
    held = py.kc[seat]
    keys = py.ckeys

    def worth(m: Move) -> tuple[int, float]:
        return (max(held[k] for k in keys[m.arg]), pick.random())

    return min(discards, key=worth)


def play_both(seed: int, players: int = 4, tally: Tally | None = None) -> TaxonomyState:
    """One random game in both, compared at every step; returns the engine's final state.

    The moves are random with a collector's lean (``_choose``), so that
    claims, tabled cards and won rounds come up, not only stock run-outs."""
    init_j, step_j, _ = _compiled(players)
    observer = Observer(players, V02)
    key = jax.random.PRNGKey(seed)
    js, chance, probed = init_j(key)
    py = python_twin(chance, players)
    pick = random.Random(seed)
    t = 0
    while True:
        _compare(py, probed, observer, f"seed {seed} step {t}")
        if py.over:
            break
        seat = py.to_act()[0]
        move = _choose(py, seat, pick)
        if tally is not None:
            tally.saw(str(move).split(" ")[0])
        a = py.action_index(move)
        # Dispatched, not awaited: the engine plays its move meanwhile.
        js, chance, probed = step_j(js, np.int32(a), key, np.int32(t + 1))
        rng = py.rng
        assert isinstance(rng, ScriptedRng)
        rng.begin_step(chance)
        py.apply(seat, move)
        t += 1
    res = py.result
    assert res is not None
    final = np.asarray(js.scores)
    winners = [s for s in range(players) if final[s] == final.max()]
    if winners != list(res.winners):
        raise AssertionError(f"seed {seed}: winners {winners} (JAX) vs {res.winners}")
    if tally is not None:
        tally.games += 1
        tally.steps += t
    return py
