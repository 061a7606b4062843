"""Monster Girl Taxonomy (rules v0.2, default options) as pure JAX functions.

    init(key, players=4) -> TaxState
    step(state, action, key) -> TaxState      (the acting seat: current_seat)
    legal_action_mask(state, seat) -> bool[num_actions]
    current_seat(state) -> int32               (-1 when the game is over)
    observe(state, seat) -> float32[size]      (observe.py)

All run under ``jax.jit`` and ``jax.vmap``. Action indices are the Python
engine's (``actions.Moves.index``). The turn loop is the engine's
``TaxonomyState._run`` written as a ``lax.while_loop`` over modes: begin a
turn (skips, then the draw), resolve one queued effect or apply the hand-size
rule, end a turn (declare, a claim window, or the next turn), end a round
(the next deal, or the end); it stops at a decision. Simultaneous decisions
(the claim window, rock-paper-scissors) are taken one seat at a time, in the
order of the engine's ``to_act``: the first waiting seat in turn order after
the discarder (claims), the attacker before the target (a duel). Nobody sees
another's secret answer before all are in, so the order changes nothing;
``current_seat`` names the seat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
from jax import Array, lax

from ..games.taxonomy.actions import (
    ATTACK,
    CLAIM,
    DISCARD,
    DRAW,
    KEEP,
    NO_ATTACK,
    PASS,
    RPS,
    STOP,
    TABLE,
    WIN,
)
from . import claims as cl
from .chance import Chance, step_chance, stock_order
from .natures import discard, draw, effect, leave_hand, reveal
from .scoring import best_points, has_key, in_hand, in_table, keys_of, usable
from .state import (
    ASIDE,
    ATTACK_CHOICE,
    CLAIM_WINDOW,
    DECLARE,
    DUEL,
    E_AGG,
    HAND,
    IMPATIENT_CHOICE,
    MAIN,
    NO_ANSWER,
    OVER,
    PASSED,
    QUEUE,
    STOCK,
    TaxState,
    canon,
    i32,
    put,
)
from .state import TABLE as Z_TABLE
from .tables import tables

# Modes of the turn loop.
STOPPED, BEGIN, RUN, END_TURN, END_ROUND = range(5)


class Flow(NamedTuple):
    st: TaxState
    mode: Array
    seat: Array  # the seat whose turn begins (mode BEGIN)


def _seats(st: TaxState) -> Array:
    return jnp.arange(st.scores.shape[0], dtype=jnp.int32)


def _only(st: TaxState, s: Array) -> Array:
    return _seats(st) == s


def _blank(players: int) -> TaxState:
    t = tables()
    d, k, g, p = t.d, t.k, t.g, players
    z = jnp.zeros(d, jnp.int32)
    return TaxState(
        zone=jnp.full(d, STOCK, jnp.int32),
        owner=z,
        hpos=z,
        tslot=jnp.full(d, -1, jnp.int32),
        stock=z,
        stock_n=i32(0),
        pile=z,
        pile_n=i32(0),
        nat=jnp.asarray(t.nature),
        roll=z,
        pre_roll=z,
        tkey=jnp.full((p, 2), -1, jnp.int32),
        bans=jnp.zeros((p, g), bool),
        scores=jnp.zeros(p, jnp.int32),
        claims=jnp.zeros(p, jnp.int32),
        skips=jnp.zeros(p, jnp.int32),
        round=i32(0),
        dealer=i32(0),
        turns=i32(0),
        phase=i32(MAIN),
        actor=i32(0),
        to_act=jnp.zeros(p, bool),
        q_eff=jnp.zeros(QUEUE, jnp.int32),
        q_card=jnp.zeros(QUEUE, jnp.int32),
        q_head=i32(0),
        q_tail=i32(0),
        drawn=jnp.zeros(d, bool),
        last_discard=i32(-1),
        fresh_draw=jnp.asarray(False),
        attack_card=i32(-1),
        duel_a=i32(-1),
        duel_t=i32(-1),
        duel_choice=jnp.full(p, -1, jnp.int32),
        duel_ties=i32(0),
        claim_card=i32(-1),
        claim_from=i32(-1),
        claim_asked=jnp.zeros(p, bool),
        claim_keys=jnp.zeros((p, k), bool),
        claim_choice=jnp.full(p, NO_ANSWER, jnp.int32),
        claim_kept=jnp.zeros((p, d), bool),
        peek=jnp.zeros((p, d), bool),
        seen_from=jnp.full((p, d), -1, jnp.int32),
        over=jnp.asarray(False),
        overflow=jnp.asarray(False),
        mean_j=i32(0),
    )


# ------------------------------------------------------------------ rounds
def _finish(st: TaxState) -> TaxState:
    return st._replace(
        over=jnp.asarray(True),
        phase=i32(OVER),
        actor=i32(-1),
        to_act=jnp.zeros_like(st.to_act),
    )


def _pick(cond: Array, a: Flow, b: Flow) -> Flow:
    return jax.tree.map(lambda x, y: jnp.where(cond, x, y), a, b)


def _canon(f: Flow) -> Flow:
    """Every field back to its storage type (``state.DTYPES``: small integers
    for the per-card arrays, so that the selects of a batched loop move less)."""
    return Flow(canon(f.st), jnp.asarray(f.mode, jnp.int32), jnp.asarray(f.seat, jnp.int32))


def _canonical(branch: Callable[..., Flow]) -> Callable[..., Flow]:
    def run(*args: Any) -> Flow:
        return _canon(branch(*args))

    return run


def _deal(st: TaxState, ch: Chance) -> Flow:
    """Shuffle every card but those set aside, deal 8 to each seat (the top 8
    for the first seat, as the engine's ``stock[:-9:-1]``); the dealer begins."""
    t = tables()
    p = st.scores.shape[0]
    d = t.d
    aside = st.zone == ASIDE
    order, n = stock_order(ch.perm, aside)
    rank = jnp.zeros(d, jnp.int32).at[order].set(jnp.arange(d, dtype=jnp.int32))
    depth = n - 1 - rank
    dealt = ~aside & (depth < t.hand * p)
    st2 = _blank(p)._replace(
        zone=jnp.where(aside, ASIDE, jnp.where(dealt, HAND, STOCK)),
        owner=jnp.where(aside, st.owner, jnp.where(dealt, depth // t.hand, 0)),
        hpos=jnp.where(dealt, depth % t.hand, 0),
        stock=order,
        stock_n=n - t.hand * p,
        nat=jnp.where(aside, st.nat, jnp.asarray(t.nature)),
        roll=jnp.where(aside, st.roll, 0),
        pre_roll=ch.rolls,
        bans=st.bans,
        scores=st.scores,
        round=st.round,
        dealer=st.dealer,
        phase=st.phase,
        actor=st.actor,
        overflow=st.overflow,
        mean_j=st.mean_j,
    )
    st2 = reveal(st2, dealt)  # "rolled when the card is first drawn (or dealt)"
    # Only a small card file runs short (reading 13): the game ends.
    enough = n > t.hand * p
    ended = Flow(_finish(st), i32(STOPPED), st.dealer)
    return _pick(enough, Flow(st2, i32(BEGIN), st.dealer), ended)


def _end_round(f: Flow, ch: Chance) -> Flow:
    """The round is over (won, or the stock ran out): the next deal, or the end."""
    st = f.st
    t = tables()
    p = st.scores.shape[0]
    st = st._replace(round=st.round + 1, q_head=st.q_tail)
    last = st.round >= t.rounds
    nxt = _deal(st._replace(dealer=(st.dealer + 1) % p), ch)
    return _pick(last, Flow(_finish(st), i32(STOPPED), f.seat), nxt)


# ------------------------------------------------------------------ the turn loop
def _draw(st: TaxState) -> Flow:
    """The actor draws; an empty stock ends the round with no winner (reading 6)."""
    empty = st.stock_n == 0
    return _pick(
        empty, Flow(st, i32(END_ROUND), st.actor), Flow(draw(st, st.actor), i32(RUN), st.actor)
    )


def _begin(f: Flow, ch: Chance) -> Flow:
    """Begin a turn: skip the seats that lost a duel, then draw."""
    st = f.st
    p = st.scores.shape[0]

    def skipping(c: tuple[Array, Array]) -> Array:
        return c[1][c[0]] > 0

    def skip(c: tuple[Array, Array]) -> tuple[Array, Array]:
        s, skips = c
        return (s + 1) % p, skips.at[s].add(-1)

    s, skips = lax.while_loop(skipping, skip, (f.seat, st.skips))
    st = st._replace(
        skips=skips,
        actor=s,
        turns=st.turns + 1,
        drawn=jnp.zeros_like(st.drawn),
        last_discard=i32(-1),
    )
    return _draw(st)


def _run(f: Flow, ch: Chance) -> Flow:
    """One step of the engine's effect loop, or the hand-size rule (reading 4)."""
    st = f.st
    s = st.actor
    t = tables()
    queued = st.q_head < st.q_tail
    # An effect off the queue.
    i = st.q_head % QUEUE
    eff, c = st.q_eff[i], st.q_card[i]
    st_e, wait = effect(st._replace(q_head=st.q_head + 1), s, eff, c, ch.mean)
    decision = jnp.where(eff == E_AGG, ATTACK_CHOICE, IMPATIENT_CHOICE)
    st_w = st_e._replace(
        phase=jnp.where(wait, decision, st_e.phase).astype(jnp.int32),
        to_act=jnp.where(wait, _only(st, s), st_e.to_act),
        attack_card=jnp.where(wait & (eff == E_AGG), c, st_e.attack_card),
    )
    # The hand-size rule: over 8 -> discard; 8 -> the turn ends; under -> draw.
    total = jnp.sum(in_hand(st, s)) + jnp.sum(in_table(st, s))
    st_m = st._replace(phase=i32(MAIN), to_act=_only(st, s))
    by_size = _pick(
        total > t.hand,
        Flow(st_m, i32(STOPPED), s),
        _pick(total == t.hand, Flow(st, i32(END_TURN), s), _draw(st)),
    )
    return _pick(queued, Flow(st_w, jnp.where(wait, STOPPED, RUN), s), by_size)


def _end_turn(f: Flow, ch: Chance) -> Flow:
    """A refill that wins may be declared (reading 2); else the top discard may
    be claimed (reading 3); else the next seat's turn begins."""
    st = f.st
    s = st.actor
    p = st.scores.shape[0]
    wins, _ = best_points(st, s)
    declare = st.fresh_draw & wins
    st_d = st._replace(phase=i32(DECLARE), to_act=_only(st, s))
    c = st.last_discard
    on_top = (c >= 0) & (st.pile_n > 0) & (st.pile[jnp.maximum(st.pile_n - 1, 0)] == c)
    st_c, asked = cl.open_window(st, s, jnp.maximum(c, 0))
    claim = on_top & asked
    nxt = _begin(Flow(st, i32(BEGIN), (s + 1) % p), ch)
    return _pick(
        declare,
        Flow(st_d, i32(STOPPED), s),
        _pick(claim, Flow(st_c, i32(STOPPED), s), nxt),
    )


_BRANCHES = tuple(map(_canonical, (_begin, _run, _end_turn, _end_round)))


def _advance(f: Flow, ch: Chance) -> TaxState:
    def going(f: Flow) -> Array:
        return f.mode != STOPPED

    def once(f: Flow) -> Flow:
        return lax.switch(f.mode - 1, _BRANCHES, f, ch)

    return lax.while_loop(going, once, f).st


# ------------------------------------------------------------------ actions
def _kind_arg(a: Array) -> tuple[Array, Array]:
    t = tables()
    bases = jnp.asarray([t.base[kind] for kind in range(len(t.base))], jnp.int32)
    kind = jnp.searchsorted(bases, a, side="right").astype(jnp.int32) - 1
    return kind, a - bases[kind]


def _table(st: TaxState, s: Array, c: Array) -> TaxState:
    """ "When you draw another card of this type you can add it to the table":
    to the first set laid whose key the card has (reading 21)."""
    ks = keys_of(st.nat, c)
    first = ks[jnp.maximum(st.tkey[s, 0], 0)] & (st.tkey[s, 0] >= 0)
    st = leave_hand(st, c)
    return st._replace(
        zone=put(st.zone, c, Z_TABLE), tslot=put(st.tslot, c, jnp.where(first, 0, 1))
    )


def _claim_answered(st: TaxState) -> Flow:
    waiting = cl.waiting(st)
    st_w = st._replace(to_act=waiting)
    st_r, claimed = cl.resolve(st)
    p = st.scores.shape[0]
    nobody = Flow(st, i32(BEGIN), (st.claim_from + 1) % p)
    return _pick(
        jnp.any(waiting),
        Flow(st_w, i32(STOPPED), st.actor),
        _pick(claimed, Flow(st_r, i32(STOPPED), st_r.actor), nobody),
    )


def _rps(st: TaxState, q: Array, x: Array) -> Flow:
    choice = st.duel_choice.at[q].set(x)
    a, t = st.duel_a, st.duel_t
    ca, ct = choice[a], choice[t]
    both = (ca >= 0) & (ct >= 0)
    seats = _seats(st)
    half = Flow(
        st._replace(duel_choice=choice, to_act=jnp.where(ca >= 0, seats == t, seats == a)),
        i32(STOPPED),
        st.actor,
    )
    again = Flow(
        st._replace(
            duel_ties=st.duel_ties + 1,
            duel_choice=jnp.full_like(choice, -1),
            to_act=(seats == a) | (seats == t),
        ),
        i32(STOPPED),
        st.actor,
    )
    # "The player who loses loses a turn."
    loser = jnp.where((ca - ct) % 3 == 1, t, a)
    decided = Flow(
        st._replace(
            skips=st.skips.at[loser].add(1),
            duel_choice=jnp.full_like(choice, -1),
            phase=i32(MAIN),
        ),
        i32(RUN),
        st.actor,
    )
    return _pick(~both, half, _pick(ca == ct, again, decided))


def _apply(st: TaxState, a: Array, q: Array) -> Flow:
    kind, arg = _kind_arg(a)
    s = st.actor
    p = st.scores.shape[0]
    seats = _seats(st)

    def on_discard() -> Flow:
        return Flow(discard(st._replace(fresh_draw=jnp.asarray(False)), s, arg), i32(RUN), s)

    def on_table() -> Flow:
        return Flow(_table(st, s, arg), i32(STOPPED), s)

    def on_win() -> Flow:
        _, pts = best_points(st, s)
        return Flow(st._replace(scores=st.scores.at[s].add(pts)), i32(END_ROUND), s)

    # Claim-window answers only record the answer; the window is looked at after.
    def on_claim() -> Flow:
        return Flow(st._replace(claim_choice=st.claim_choice.at[q].set(arg)), i32(STOPPED), s)

    def on_pass() -> Flow:
        declined = Flow(st._replace(fresh_draw=jnp.asarray(False)), i32(RUN), s)
        passed = Flow(st._replace(claim_choice=st.claim_choice.at[q].set(PASSED)), i32(STOPPED), s)
        return _pick(st.phase == DECLARE, declined, passed)

    def on_draw() -> Flow:
        return _draw(st._replace(phase=i32(MAIN)))

    def on_stop() -> Flow:
        return Flow(st._replace(phase=i32(MAIN)), i32(RUN), s)

    def on_attack() -> Flow:
        return Flow(
            st._replace(
                duel_a=s,
                duel_t=arg,
                duel_choice=jnp.full(p, -1, jnp.int32),
                duel_ties=i32(0),
                phase=i32(DUEL),
                to_act=(seats == s) | (seats == arg),
            ),
            i32(STOPPED),
            s,
        )

    def on_rps() -> Flow:
        return _rps(st, q, arg)

    def on_keep() -> Flow:
        return Flow(st._replace(claim_kept=st.claim_kept.at[q, arg].set(True)), i32(STOPPED), s)

    by_kind = {
        DISCARD: on_discard,
        TABLE: on_table,
        WIN: on_win,
        CLAIM: on_claim,
        PASS: on_pass,
        DRAW: on_draw,
        STOP: on_stop,
        ATTACK: on_attack,
        NO_ATTACK: on_stop,
        RPS: on_rps,
        KEEP: on_keep,
    }
    f = lax.switch(kind, [_canonical(by_kind[i]) for i in range(len(by_kind))])
    return _canon(_pick(st.phase == CLAIM_WINDOW, _claim_answered(f.st), f))


# ------------------------------------------------------------------ the API
def current_seat(st: TaxState) -> Array:
    """The seat that acts next (-1: the game is over): the engine's ``to_act()[0]``."""
    p = st.scores.shape[0]
    seats = _seats(st)
    origin = jnp.where(
        st.phase == DUEL, st.duel_a, jnp.where(st.phase == CLAIM_WINDOW, st.claim_from + 1, 0)
    )
    order = (seats - origin) % p
    first = jnp.argmin(jnp.where(st.to_act, order, p)).astype(jnp.int32)
    return jnp.where(jnp.any(st.to_act) & ~st.over, first, -1)


NEW_GAME = -1  # the action index that deals a new game to a blank state (``init``)


def blank(players: int = 4) -> TaxState:
    """A table with no game yet: ``step(blank(p), NEW_GAME, key)`` is ``init(key, p)``."""
    t = tables()
    if not 2 <= players <= t.max_seats:
        raise ValueError(f"players must be 2 to {t.max_seats}, not {players}")
    return canon(_blank(players))


def init(key: Array, players: int = 4) -> TaxState:
    """A new game: the first deal (from ``key``); the dealer, seat 0, draws."""
    return step(blank(players), jnp.int32(NEW_GAME), key)


def step(st: TaxState, action: Array, key: Array) -> TaxState:
    """Apply ``action`` (an index of the engine's action space, legal for
    ``current_seat(st)``) and play on to the next decision. A finished game is
    returned unchanged."""
    ch = step_chance(key)
    st0 = st._replace(mean_j=i32(0))
    q = current_seat(st0)
    a = jnp.asarray(action, jnp.int32)
    f = _apply(st0, jnp.maximum(a, 0), jnp.maximum(q, 0))
    # A new game: the round "before" the first ends, and the deal rotates to seat 0.
    fresh = st0._replace(round=i32(-1), dealer=i32(st.scores.shape[0] - 1))
    f = _canon(_pick(a == NEW_GAME, Flow(fresh, i32(END_ROUND), i32(0)), f))
    nxt = _advance(f, ch)
    return _canon(
        Flow(jax.tree.map(lambda a, b: jnp.where(st.over, a, b), st, nxt), i32(0), i32(0))
    ).st


def legal_action_mask(st: TaxState, seat: Array) -> Array:
    """bool[num_actions]: the engine's ``legal(seat)``, at its action indices."""
    t = tables()
    d, _k, p = t.d, t.k, st.scores.shape[0]
    seat = jnp.asarray(seat, jnp.int32)
    acting = st.to_act[seat] & ~st.over
    ph = st.phase
    hand = in_hand(st, seat)
    table = in_table(st, seat)
    hand_n = jnp.sum(hand)
    excess = hand_n + jnp.sum(table) - t.hand
    fits_table = jnp.zeros(d, bool)
    for j in range(2):
        key = st.tkey[seat, j]
        fits_table = fits_table | (has_key(st.nat, jnp.maximum(key, 0)) & (key >= 0))
    main = acting & (ph == MAIN)
    tableable = (
        main
        & st.drawn
        & hand
        & usable(st, seat)
        & fits_table
        & jnp.any(table)
        & jnp.any(st.drawn)
        & (hand_n > excess)
    )
    wins, _ = best_points(st, seat)
    win = acting & ((ph == MAIN) | (ph == DECLARE)) & wins
    claim = acting & (ph == CLAIM_WINDOW)
    fresh = claim & (st.claim_choice[seat] == NO_ANSWER)
    keep = claim & ~fresh & cl.open_choice(st)[seat] & cl.candidates(st)[seat]
    attack = acting & (ph == ATTACK_CHOICE)
    targets = jnp.arange(t.max_seats)
    duel = acting & (ph == DUEL) & (st.duel_choice[seat] < 0)
    impatient = acting & (ph == IMPATIENT_CHOICE)
    parts = [
        main & hand,
        tableable,
        win[None],
        fresh & st.claim_keys[seat],
        (fresh | (acting & (ph == DECLARE)))[None],
        impatient[None],
        impatient[None],
        attack & (targets != seat) & (targets < p),
        attack[None],
        jnp.broadcast_to(duel, (3,)),
        keep,
    ]
    mask = jnp.concatenate(parts)
    assert mask.shape[0] == t.num_actions and d > 0
    return mask
