"""Issue 30, the batched environment's speed: observers may give the
observation by its non-zero entries (``encode_state_sparse`` /
``encode_sparse``), and Taxonomy's reads a view built for the encoder
(``view.encoder_view``). Neither may change a single observation value, and
the encoder view may hold nothing the seat could not know."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from bestiary.agents.base import AgentContext, make_agent
from bestiary.agents.features import SparseRow, sparse_of
from bestiary.engine import Rng, get_game
from bestiary.engine.protocol import State
from bestiary.games.taxonomy.observe import Observer as TaxonomyObserver
from bestiary.games.taxonomy.rules import TaxonomyState
from bestiary.games.taxonomy.view import encoder_view
from bestiary.rl import raw_env, vector
from bestiary.rl.encoding import (
    action_mask,
    observation,
    observer_for,
    seat_slots,
    sparse_encoder,
)

TAXONOMY = get_game("taxonomy")


def _mixed_game(game_id: str, variant: str | None, players: int, moves: int) -> list[Any]:
    """Every other state of one game, and every state of a claim window or a
    duel (the rarer ones): heuristic bots, with 30 % random moves (bots alone
    rarely claim or duel; random play alone never ends a round)."""
    game = get_game(game_id)
    state = game.new(players, seed=players, variant=variant)
    state.quiet()
    rng = random.Random(players)
    bots = [make_agent(game, "heuristic", seed=players + s) for s in range(players)]
    rngs = [Rng(players + s) for s in range(players)]
    seen = []
    for step in range(moves):
        if state.over:
            break
        if step % 2 == 0 or getattr(state, "phase", None) in ("claim", "duel"):
            seen.append(state.clone())
        seat = state.to_act()[0]
        if rng.random() < 0.3:
            move = rng.choice(list(state.legal(seat)))
        else:
            move = bots[seat].act(AgentContext(state, seat, rngs[seat]))
        state.apply(seat, move)
    return seen


@pytest.fixture(scope="module")
def taxonomy_states() -> list[tuple[str, TaxonomyState]]:
    """Both rulesets, every table size: (variant, state)."""
    return [
        (variant, state)
        for variant in ("v0.1", "v0.2")
        for players in TAXONOMY.allowed_players()
        for state in _mixed_game("taxonomy", variant, players, 240)
    ]


def _slots(players: int, max_players: str | None) -> int | None:
    """What ``observer_for`` makes of ``max_players`` (``"max"``: the largest table)."""
    return seat_slots(TAXONOMY, players, max_players)


def _seats(k: int, st: State) -> range:
    """The seats to compare in the ``k``-th sampled state: all of them where
    the seats see the table differently beyond their hands (a claim window, a
    duel, an attack, an impatient draw), else one, in turn."""
    if getattr(st, "phase", None) == "discard":
        return range(k % st.players, k % st.players + 1)
    return range(st.players)


def _what_was_seen(states: list[tuple[str, TaxonomyState]]) -> Counter[str]:
    """Which parts of the encoder view the sample reaches (so the tests below
    are known to compare them)."""
    seen: Counter[str] = Counter()
    for _, st in states:
        for seat in range(st.players):
            ev = encoder_view(st, seat)
            seen[ev["phase"]] += 1
            claim, duel = ev["claim"], ev["duel"]
            checks = {
                "to_keep": bool(claim and claim["to_keep"]),
                "claimed key": bool(claim and claim["key"] is not None),
                "duel ties": bool(duel and duel["ties"]),
                "duel choice": bool(duel and duel["your_choice"]),
                "peek": ev["peek"] is not None,
                "seen hands": bool(ev["seen_hands"]),
                "can win": bool(ev["can_win"]),
                "drawn": bool(ev["drawn"]),
                "scores": any(ev["scores"]),
                "tables": any(ev["tables"]),
                "bans": any(ev["bans"]),
                "skips": any(ev["skips"]),
            }
            seen.update(k for k, hit in checks.items() if hit)
    return seen


def test_the_sample_reaches_every_part_of_the_encoding(
    taxonomy_states: list[tuple[str, TaxonomyState]],
) -> None:
    """The comparisons below mean something only where the states reach each
    field: claims (with a key claimed and cards to keep), duels (ties, a
    choice), attacks, impatient draws, peeks, seen hands, a winnable hand,
    scores after a round, tabled sets, bans and skipped turns."""
    seen = _what_was_seen(taxonomy_states)
    for part in (
        "discard",
        "claim",
        "duel",
        "attack",
        "impatient",
        "to_keep",
        "claimed key",
        "duel ties",
        "duel choice",
        "peek",
        "seen hands",
        "can win",
        "drawn",
        "scores",
        "tables",
        "bans",
        "skips",
    ):
        assert seen[part] > 0, part


@pytest.mark.parametrize("max_players", [None, "max"])
def test_taxonomys_sparse_encoding_equals_the_dense_one(
    taxonomy_states: list[tuple[str, TaxonomyState]], max_players: str | None
) -> None:
    """Requirement: the sparse path must not change "a single observation
    value": ``encode_state_sparse(state, seat)`` written out equals
    ``encode(state.view(seat))`` for every seat of every sampled state, both
    rulesets, every table size, with and without ``max_players``; and the
    environments' ``observation`` (which takes the sparse path) equals the
    dense list cast to float32."""
    observers: dict[tuple[str, int], TaxonomyObserver] = {}
    # Padding moves blocks, not values: every other state is enough for it.
    sample = taxonomy_states if max_players is None else taxonomy_states[::2]
    for k, (variant, st) in enumerate(sample):
        key = (variant, st.players)
        if key not in observers:
            rules = TAXONOMY.ruleset(variant, {})
            observers[key] = TaxonomyObserver(st.players, rules, _slots(st.players, max_players))
        ob = observers[key]
        assert sparse_encoder(ob) is not None
        for seat in _seats(k, st):
            dense = ob.encode(st.view(seat))
            row = ob.encode_state_sparse(st, seat)
            assert row.dense(ob.size) == dense
            assert len(set(row.idx)) == len(row.idx) and not set(row.idx) & set(row.ones)
            assert all(0.0 < x < 1.0 or x == 1.0 for x in row.values)
            np.testing.assert_array_equal(
                observation(ob, st, seat), np.asarray(dense, dtype=np.float32)
            )


def test_a_state_the_fast_path_does_not_know_goes_the_dense_way() -> None:
    """An observer asked about a table of another size (or anything else but
    a seat of its own table size) still answers exactly as ``encode``."""
    ob = TaxonomyObserver(4, TAXONOMY.ruleset())
    st = TAXONOMY.new(3, seed=1)
    assert ob.encode_state_sparse(st, 1) == sparse_of(ob.encode(st.view(1)))


class _ViewSparse:
    """An observer that offers only the view form of the sparse encoding."""

    def __init__(self, dense: Any) -> None:
        self.dense, self.size = dense, dense.size

    def encode(self, view: Any) -> list[float]:
        return list(self.dense.encode(view))

    def encode_sparse(self, view: Any) -> SparseRow:
        return sparse_of(self.dense.encode(view))


def test_an_observer_may_offer_the_sparse_form_from_the_view_alone() -> None:
    """The environments' small interface: an observer with
    ``encode_sparse(view)`` (and no ``encode_state_sparse``) is read through
    it, giving the dense values; one with neither goes the dense way."""
    game = get_game("meat")
    plain = observer_for(game, 2, game.ruleset())
    assert sparse_encoder(plain) is None
    wrapped = _ViewSparse(plain)
    read = sparse_encoder(wrapped)
    assert read is not None
    st = game.new(2, seed=3)
    for seat in (0, 1):
        assert read(st, seat).dense(wrapped.size) == plain.encode(st.view(seat))
        np.testing.assert_array_equal(observation(wrapped, st, seat), observation(plain, st, seat))


def _names(deck: Any, cards: Any) -> list[str]:
    return [deck.names[c] for c in cards]


def _as_seat_view(st: Any, ev: dict[str, Any]) -> dict[str, Any]:
    """The encoder view with deck indices turned back into the names the
    seat's view shows (what the seat view holds, in its form)."""
    deck = st.deck
    claim, duel = ev["claim"], ev["duel"]
    return {
        **{k: ev[k] for k in ("seat", "phase", "turn", "dealer", "round", "rounds", "turns")},
        "to_act": list(ev["to_act"]),
        "stock": ev["stock"],
        "hand": _names(deck, ev["hand"]),
        "hand_keys": {deck.key_names[k]: n for k, n in ev["hand_keys"].items()},
        "drawn": _names(deck, ev["drawn"]),
        "hand_counts": list(ev["hand_counts"]),
        "tables": [[_names(deck, cs) for cs in sets] for sets in ev["tables"]],
        "discards": _names(deck, ev["discards"]),
        "discard_top": None if ev["discard_top"] is None else deck.names[ev["discard_top"]],
        "set_aside": [_names(deck, a) for a in ev["set_aside"]],
        "bans": [sorted(deck.group_names[g] for g in b) for b in ev["bans"]],
        **{k: list(ev[k]) for k in ("claims", "skips", "scores")},
        "can_win": ev["can_win"],
        "claim": None
        if claim is None
        else {
            "card": deck.names[claim["card"]],
            "discarder": claim["discarder"],
            "keys": [deck.key_names[k] for k in claim["keys"]],
            "decided": claim["decided"],
            "key": None if claim["key"] is None else deck.key_names[claim["key"]],
            "kept": _names(deck, claim["kept"]),
            "to_keep": claim["to_keep"],
        },
        "duel": duel,
        "attack": ev["attack"],
        "peek": None if ev["peek"] is None else _names(deck, ev["peek"]),
        "seen_hands": {str(q): _names(deck, cs) for q, cs in ev["seen_hands"].items()},
    }


def _seat_view_part(view: dict[str, Any]) -> dict[str, Any]:
    """The same entries of ``seat_view``, card dicts read as their names."""

    def names(cards: Any) -> list[str]:
        return [c["name"] for c in cards]

    claim, duel, peek = view["claim"], view["duel"], view["peek"]
    return {
        **{k: view[k] for k in ("seat", "phase", "turn", "dealer", "round", "rounds", "turns")},
        "to_act": view["to_act"],
        "stock": view["stock"],
        "hand": names(view["hand"]),
        "hand_keys": view["hand_keys"],
        "drawn": view["drawn"],
        "hand_counts": view["hand_counts"],
        "tables": [[names(s["cards"]) for s in sets] for sets in view["tables"]],
        "discards": names(view["discards"]),
        "discard_top": None if view["discard_top"] is None else view["discard_top"]["name"],
        "set_aside": [names(a) for a in view["set_aside"]],
        "bans": view["bans"],
        **{k: view[k] for k in ("claims", "skips", "scores")},
        "can_win": view["can_win"],
        "claim": None if claim is None else {**claim, "card": claim["card"]["name"]},
        "duel": None
        if duel is None
        else {k: duel[k] for k in ("attacker", "target", "ties", "your_choice")},
        "attack": view["attack"] is not None,
        "peek": None if peek is None else names(peek["cards"]),
        "seen_hands": {q: names(cs) for q, cs in view["seen_hands"].items()},
    }


def test_the_encoder_view_holds_only_entries_of_the_seats_own_view(
    taxonomy_states: list[tuple[str, TaxonomyState]],
) -> None:
    """The hidden-information guarantee, first half: every entry of
    ``encoder_view(state, seat)`` is the entry of the same name of
    ``state.view(seat)`` (cards as deck indices instead of names), and it has
    no other entries; so the encoder reads nothing the seat's view does not
    show."""
    for k, (_, st) in enumerate(taxonomy_states):
        for seat in _seats(k, st):
            ev = encoder_view(st, seat)
            mine = _as_seat_view(st, ev)
            assert set(mine) == set(ev)
            assert mine == _seat_view_part(st.view(seat))


def _plain(x: Any) -> Any:
    """Lists for tuples and sets (a determinized copy may hold either)."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, set | frozenset):
        return sorted(x)
    if isinstance(x, list | tuple):
        return [_plain(v) for v in x]
    return x


def test_states_a_seat_cannot_tell_apart_give_it_the_same_observation(
    taxonomy_states: list[tuple[str, TaxonomyState]],
) -> None:
    """The hidden-information guarantee, second half (differential): a
    determinized copy for ``seat`` (the other hands, the stock, hidden rolls
    and choices redrawn) is a state the seat cannot tell from the real one,
    so it must give the seat the same encoder view and the same observation,
    by the sparse and the dense path alike; the copies do differ in what is
    hidden (else this would prove nothing)."""
    ob = {
        (v, n): TaxonomyObserver(n, TAXONOMY.ruleset(v, {}))
        for v in ("v0.1", "v0.2")
        for n in TAXONOMY.allowed_players()
    }
    differ = compared = 0
    for k, (variant, st) in enumerate(taxonomy_states[::2]):
        for seat in _seats(k, st):
            compared += 1
            twin = st.determinize(seat, Rng(k * 10 + seat))
            hidden = [h for s, h in enumerate(st.hands) if s != seat]
            differ += hidden != [h for s, h in enumerate(twin.hands) if s != seat]
            assert _plain(encoder_view(twin, seat)) == _plain(encoder_view(st, seat))
            o = ob[variant, st.players]
            expected: SparseRow = o.encode_state_sparse(st, seat)
            assert o.encode_state_sparse(twin, seat).dense(o.size) == expected.dense(o.size)
            assert o.encode(twin.view(seat)) == expected.dense(o.size)
    assert differ > 0.9 * compared


@pytest.mark.parametrize("game_id", ["taxonomy", "meat", "monster-maker"])
def test_copy_false_writes_in_place_what_copy_true_returns(game_id: str) -> None:
    """The batched env writes rows in bulk: with ``copy=True`` (new arrays
    at each step) a returned observation never changes afterwards; with
    ``copy=False`` (the same arrays, cleared and written in place) every
    step gives the same values. Taxonomy takes the sparse path, the others
    the dense one (their masks are written in bulk all the same)."""
    n = 5  # written in bulk (a batch of 3 or fewer is written row by row)
    a = vector(game_id, num_envs=n, players=2, seed=4, copy=True)
    b = vector(game_id, num_envs=n, players=2, seed=4, copy=False)
    obs_a, _ = a.reset()
    obs_b, _ = b.reset()
    arrays = obs_b["observation"], obs_b["action_mask"]
    rng = np.random.default_rng(0)
    kept = []
    for _ in range(60):
        for key in ("observation", "action_mask", "seat"):
            np.testing.assert_array_equal(obs_a[key], obs_b[key])
        kept.append((obs_a, {k: v.copy() for k, v in obs_a.items()}))
        rows, cols = np.nonzero(obs_a["action_mask"])
        actions = np.array([rng.choice(cols[rows == i]) for i in range(n)])
        obs_a, *_ = a.step(actions)
        obs_b, *_ = b.step(actions)
        assert obs_b["observation"] is arrays[0] and obs_b["action_mask"] is arrays[1]
    for returned, snapshot in kept:
        for key, value in snapshot.items():
            np.testing.assert_array_equal(returned[key], value)


@pytest.mark.parametrize(
    ("game_id", "options", "steps"),
    [("taxonomy", {"rounds": 1}, 260), ("meat", {"vitality_1v1": 5}, 120)],
    ids=["taxonomy", "meat"],
)
def test_a_batch_written_in_bulk_equals_the_dense_encoding_of_each_table(
    game_id: str, options: dict[str, Any], steps: int
) -> None:
    """With 5 tables (written in bulk, not row by row) every row of every
    step, the final observations of finished games included, equals the
    dense ``encode`` of the AEC env's table on the same seed, and every mask
    its legal moves: issue 30's "exactly the same observations, masks and
    rewards as N separate AEC envs", checked against the dense encoder
    (Taxonomy's rows written from sparse entries, M.E.A.T.'s dense)."""
    n, seed = 5, 11
    v = vector(game_id, num_envs=n, players=2, seed=seed, **options)
    aecs = [raw_env(game_id, players=2, options=options) for _ in range(n)]
    for i, e in enumerate(aecs):
        e.reset(seed=seed + i)

    def dense(e: Any, seat: int) -> np.ndarray:
        return np.asarray(e.observer.encode(e.state.view(seat)), dtype=np.float32)

    obs, _ = v.reset()
    rng = np.random.default_rng(seed)
    finished = 0
    for _ in range(steps):
        for i, e in enumerate(aecs):
            seat = e.possible_agents.index(e.agent_selection)
            np.testing.assert_array_equal(obs["observation"][i], dense(e, seat))
            mask = action_mask(e.state, seat, e.num_actions).astype(bool)
            np.testing.assert_array_equal(obs["action_mask"][i], mask)
        rows, cols = np.nonzero(obs["action_mask"])
        actions = np.array([rng.choice(cols[rows == i]) for i in range(n)])
        obs, rewards, terms, _, info = v.step(actions)
        for i, e in enumerate(aecs):
            mover = e.possible_agents.index(e.agent_selection)
            e.step(int(actions[i]))
            assert rewards[i].tolist() == [e.rewards[a] for a in e.possible_agents]
            if terms[i]:
                finished += 1
                final = info["final_obs"][i]["observation"]
                np.testing.assert_array_equal(final, dense(e, mover))
                e.reset()
    assert finished >= 1
