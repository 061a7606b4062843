"""One seat's observation, the same vector as the Python engine's RL encoding
(``games/taxonomy/observe.py`` over ``view.py``'s seat view), built from the
JAX state. The field offsets are the engine's ``Observer.layout``; what each
seat may know follows ``view.public_phase`` (reading 22): a seat not asked
about a discard sees the table between two turns, another seat's impatient or
declare decision looks like a discard decision (hand over 8) or a pause.
"""

from __future__ import annotations

from functools import cache

import jax.numpy as jnp
from jax import Array

from ..games.taxonomy.observe import Observer
from ..games.taxonomy.ruleset import V02
from . import claims as cl
from .scoring import best_points, key_counts
from .state import (
    ASIDE,
    ATTACK_CHOICE,
    CLAIM_WINDOW,
    DECLARE,
    DUEL,
    HAND,
    IMPATIENT_CHOICE,
    MAIN,
    PILE,
    TABLE,
    TaxState,
)
from .tables import tables


@cache
def layout(players: int) -> tuple[dict[str, int], int]:
    lay = Observer(players, V02).layout
    return dict(lay.at), lay.size


def observation_size(players: int) -> int:
    return layout(players)[1]


def observe(st: TaxState, seat: Array) -> Array:
    """float32[observation_size(P)]: what ``seat`` may know, encoded as the engine does."""
    t = tables()
    p = st.scores.shape[0]
    d, k, g = t.d, t.k, t.g
    at, size = layout(p)
    me = jnp.asarray(seat, jnp.int32)
    seats = jnp.arange(p, dtype=jnp.int32)
    by_rel = (me + seats) % p  # block -> the seat
    out = jnp.zeros(size, jnp.float32)

    def put(field: str, offset: Array | int, value: Array | float = 1.0) -> None:
        nonlocal out
        out = out.at[at[field] + offset].set(jnp.clip(jnp.asarray(value, jnp.float32), 0, 1))

    def put_where(field: str, offset: Array | int, when: Array, value: Array | float = 1.0) -> None:
        i = at[field] + offset
        v = jnp.clip(jnp.asarray(value, jnp.float32), 0, 1)
        nonlocal out
        out = out.at[i].set(jnp.where(when, v, out[i]))

    def dense(field: str, values: Array) -> None:
        nonlocal out
        flat = jnp.clip(values.astype(jnp.float32).reshape(-1), 0, 1)
        out = out.at[at[field] : at[field] + flat.shape[0]].set(flat)

    owned = st.owner[None, :] == seats[:, None]  # [P, d]
    hands = owned & (st.zone == HAND)[None, :]
    tables_ = owned & (st.zone == TABLE)[None, :]
    hand_n = jnp.sum(hands, axis=1)
    tabled = jnp.sum(tables_, axis=1)
    ph = st.phase
    actor = st.actor
    # view.public_phase
    asked = (ph == CLAIM_WINDOW) & st.claim_asked[me]
    hidden = ((ph == IMPATIENT_CHOICE) | (ph == DECLARE)) & (me != actor)
    actor_over = (hand_n + tabled)[jnp.maximum(actor, 0)] > t.hand
    pub = jnp.where(
        ph == CLAIM_WINDOW, jnp.where(asked, CLAIM_WINDOW, MAIN), jnp.where(hidden, MAIN, ph)
    )
    pub_to_act = jnp.where(
        ph == CLAIM_WINDOW,
        asked & st.to_act & (seats == me),
        jnp.where(hidden, (seats == actor) & actor_over, st.to_act),
    )
    put("phase", pub)
    put_where("turn", (actor - me) % p, actor >= 0)
    put("dealer", (st.dealer - me) % p)
    dense("to_act", pub_to_act[by_rel])
    put("progress", 0, jnp.minimum(st.round + 1, t.rounds) / t.rounds)
    put("progress", 1, st.turns / 80)
    put("progress", 2, st.stock_n / d)
    mine = hands[me]
    dense("hand", mine)
    dense("hand_keys", key_counts(mine, st.nat) / 8)
    dense("drawn", st.drawn & (me == actor))
    dense("hand_counts", hand_n[by_rel] / 9)
    dense("tables", tables_[by_rel])
    dense("discards", st.zone == PILE)
    top = st.pile[jnp.maximum(st.pile_n - 1, 0)]
    put_where("discard_top", top, st.pile_n > 0)
    dense("set_aside", st.zone == ASIDE)
    dense("bans", st.bans[by_rel])
    dense("claims", st.claims[by_rel] / 8)
    dense("skips", st.skips[by_rel] / 3)
    dense("scores", st.scores[by_rel] / 30)
    wins, _ = best_points(st, me)
    put("can_win", 0, st.to_act[me] & ((ph == MAIN) | (ph == DECLARE)) & wins & ~st.over)
    # The claim window, for a seat asked about the discard.
    choice = st.claim_choice[me]
    cands = cl.candidates(st)[me]
    n_cands = jnp.sum(cands)
    to_keep = jnp.where(n_cands > 3, n_cands - 3, 0)
    block = jnp.concatenate(
        [
            jnp.asarray([1.0, ~st.to_act[me]], jnp.float32),
            (jnp.arange(d) == st.claim_card).astype(jnp.float32),
            (seats == (st.claim_from - me) % p).astype(jnp.float32),
            st.claim_keys[me].astype(jnp.float32),
            ((jnp.arange(k) == choice) & (choice >= 0)).astype(jnp.float32),
            st.claim_kept[me].astype(jnp.float32),
            (jnp.minimum(to_keep, 8) / 8)[None].astype(jnp.float32),
        ]
    )
    claim_at = at["claim"]
    out = out.at[claim_at : claim_at + block.shape[0]].set(jnp.where(pub == CLAIM_WINDOW, block, 0))
    # The duel, seen by every seat.
    mine_rps = st.duel_choice[me]
    duel = jnp.concatenate(
        [
            jnp.asarray([1.0, jnp.minimum(st.duel_ties / 5, 1)], jnp.float32),
            ((jnp.arange(3) == mine_rps) & (mine_rps >= 0)).astype(jnp.float32),
            (seats == (st.duel_a - me) % p).astype(jnp.float32),
            (seats == (st.duel_t - me) % p).astype(jnp.float32),
        ]
    )
    duel_at = at["duel"]
    out = out.at[duel_at : duel_at + duel.shape[0]].set(jnp.where(pub == DUEL, duel, 0))
    put("attack", 0, (pub == ATTACK_CHOICE) & (me == actor))
    dense("peek", st.peek[me])
    dense("seen_hands", st.seen_from[me][None, :] == by_rel[:, None])
    assert g == st.bans.shape[1]
    return out
