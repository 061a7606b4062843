"""Trust audits every game must pass, whatever its rules.

Three promises of the protocol (DESIGN.md, "The game protocol") are checked
here from the outside, by walking the objects rather than by asking the game:

- **Copies are exact and independent.** :func:`fingerprint` is a digest of
  every attribute of a state, walked to the leaves, so a field added later is
  covered without anyone listing it. A clone has the original's fingerprint;
  no mutable object is reachable from both (:func:`shared_mutables`), caches
  included, except the attributes a game declares in ``State.SHARED`` (card
  sets, action tables), which :func:`shared_fingerprint` proves nothing ever
  changes; playing a clone, a determinization or an ISMCTS search to the end
  leaves the original's fingerprint as it was. Why caches too: a server hands
  a copy of a live state to a worker thread or process, and anything the copy
  shares with the live game and that changes (a cache filled on first use)
  could change while the copy is read ("dictionary changed size during
  iteration").
- **A determinization is a possible world.** It holds the same multiset of
  cards in zones of the same sizes (``State.zones()``), and random play from
  it reaches the end without error.
- **A seat's view leaks nothing.** A state and its determinization for a
  seat are two worlds that seat cannot tell apart, so its view, its legal
  actions, whether it is asked to act and its visible events must be equal
  in both — and stay equal after the same moves are played in both worlds,
  for as long as the events the seat sees are the same (once they differ,
  the worlds have become distinguishable in the open, e.g. by a die).

tests/test_trust.py runs these on a few thousand random states per game;
benchmarks/leak_audit.py runs them on as many as you ask for. They live in
the engine, not the tests, so that both use one definition, and none of them
is used by the code they check.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import pickle
import random
import types
from collections import Counter
from collections.abc import Iterator
from typing import Any

from .protocol import Game, State
from .rng import Rng

__all__ = [
    "AuditFailure",
    "canonical",
    "check_clone",
    "check_determinize",
    "check_indistinguishable",
    "differences",
    "fingerprint",
    "random_states",
    "shared_fingerprint",
    "shared_mutables",
]


class AuditFailure(AssertionError):
    """A trust promise broken; the message says which and where."""


# ---------------------------------------------------------------- walking

_ATOMS = (type(None), bool, int, float, str, bytes)
_REFS = (
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.ModuleType,
)


_SLOTS: dict[type, tuple[tuple[str, str], ...]] = {}


def _slots(cls: type) -> tuple[tuple[str, str], ...]:
    """(name, stored name) of every ``__slots__`` entry of ``cls`` and its bases."""
    got = _SLOTS.get(cls)
    if got is None:
        got = _SLOTS[cls] = _find_slots(cls)
    return got


def _find_slots(cls: type) -> tuple[tuple[str, str], ...]:
    seen: set[str] = set()
    found: list[tuple[str, str]] = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name in seen or name in ("__dict__", "__weakref__"):
                continue
            seen.add(name)
            # Name-mangled private slots are stored under their mangled name.
            real = f"_{klass.__name__.lstrip('_')}{name}" if name.startswith("__") else name
            found.append((name, real))
    return tuple(found)


def _attrs(obj: Any) -> Iterator[tuple[str, Any]]:
    """Every instance attribute: ``__dict__`` entries and filled ``__slots__``."""
    d = getattr(obj, "__dict__", None)
    if isinstance(d, dict):
        yield from d.items()
    for name, real in _slots(type(obj)):
        if hasattr(obj, real):
            yield name, getattr(obj, real)


def _frozen(obj: Any) -> bool:
    """Frozen dataclasses are values by contract (events, cards): never mutated."""
    params = getattr(type(obj), "__dataclass_params__", None)
    return params is not None and params.frozen and dataclasses.is_dataclass(obj)


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# Values whose canonical picture is the value itself: containers made only of
# them (an RNG's 625 words, a hand of card ids, a dict keyed by names) skip the
# per-item walk. The picture is the same as the walk's; only the order of a
# dict's str keys and a set's items is their own sort instead of their JSON's,
# which is still one order fixed by the content.
_PLAIN = frozenset({type(None), bool, int, str})


def _plain(items: Any) -> bool:
    return all(type(x) in _PLAIN for x in items)


def canonical(obj: Any, skip: frozenset[str] = frozenset(), _path: tuple[int, ...] = ()) -> Any:
    """A JSON-able picture of ``obj`` and everything reachable from it, in a
    canonical order (dicts and sets sorted). ``skip`` names top-level
    attributes to leave out."""
    if isinstance(obj, _ATOMS):
        if isinstance(obj, float):
            return ["f", repr(obj)]
        if isinstance(obj, bytes):
            return ["b", obj.hex()]
        return obj
    if isinstance(obj, enum.Enum):
        return ["enum", type(obj).__qualname__, obj.name]
    if isinstance(obj, _REFS):
        name = getattr(obj, "__qualname__", repr(obj))
        return ["ref", getattr(obj, "__module__", "") or "", name]
    if id(obj) in _path:
        return ["cycle"]
    if _frozen(obj) and _path:
        # A value by contract (an event, a card) is often the same object in
        # the original, its copy and every later fingerprint: picture it once.
        return ["frozen", _frozen_digest(obj)]
    path = (*_path, id(obj))
    if isinstance(obj, random.Random):
        return ["random", canonical(obj.getstate(), _path=path)]
    if isinstance(obj, list):
        if _plain(obj):
            return ["list", list(obj)]
        return ["list", [canonical(x, _path=path) for x in obj]]
    if isinstance(obj, tuple):
        if _plain(obj):
            return ["tuple", list(obj)]
        return ["tuple", [canonical(x, _path=path) for x in obj]]
    if isinstance(obj, (set, frozenset)):
        if all(type(x) is str for x in obj) or all(type(x) is int for x in obj):
            return ["set", sorted(obj)]
        return ["set", sorted((canonical(x, _path=path) for x in obj), key=_key)]
    if isinstance(obj, dict):
        if all(type(k) is str for k in obj):
            return ["dict", [[k, canonical(obj[k], _path=path)] for k in sorted(obj)]]
        items = [[canonical(k, _path=path), canonical(v, _path=path)] for k, v in obj.items()]
        return ["dict", sorted(items, key=lambda kv: _key(kv[0]))]
    if isinstance(obj, (bytearray, memoryview)):
        return ["bytes", bytes(obj).hex()]
    attrs = {k: canonical(v, _path=path) for k, v in _attrs(obj) if k not in skip}
    if not attrs and not hasattr(obj, "__dict__") and not hasattr(type(obj), "__slots__"):
        # An opaque object (array, C type): its repr is all we can compare.
        return ["repr", type(obj).__qualname__, repr(obj)]
    return ["obj", f"{type(obj).__module__}.{type(obj).__qualname__}", attrs]


def _skipped(state: State) -> frozenset[str]:
    # The game object is the registry's, not the match's: it may cache card
    # sets for every match, so it is not part of any one state. Shared parts
    # (card tables) are the same object in every copy: they are fingerprinted
    # on their own, once per check, by shared_fingerprint().
    return frozenset(type(state).CACHES) | frozenset(type(state).SHARED) | {"game"}


def fingerprint(state: State) -> str:
    """SHA-256 of the canonical picture of every attribute of ``state`` but
    its caches (``State.CACHES``), its shared tables (``State.SHARED``) and
    its game object."""
    data = canonical(state, skip=_skipped(state))
    return hashlib.sha256(_key(data).encode()).hexdigest()


_VALUES: dict[int, tuple[Any, str]] = {}  # id -> (frozen value, digest of its picture)
_NODES: dict[int, tuple[Any, str]] = {}  # the same for frozen values met inside a state
_NODES_MAX = 200_000


def _frozen_digest(value: Any) -> str:
    """The digest of a frozen value's picture, once per object while it is held
    here (held, so its id is not reused by another object)."""
    got = _NODES.get(id(value))
    if got is None or got[0] is not value:
        if len(_NODES) >= _NODES_MAX:
            _NODES.clear()
        got = _NODES[id(value)] = (
            value,
            hashlib.sha256(_key(canonical(value)).encode()).hexdigest(),
        )
    return got[1]


def _value_digest(value: Any) -> str:
    """The digest of a frozen value's picture, computed once per value: it is
    a value by contract (as :func:`shared_mutables` takes it), and a card
    set's table of every action (Teratozoic: some 20,000) would otherwise be
    walked at every check. The value is held, so its id is not reused."""
    got = _VALUES.get(id(value))
    if got is None or got[0] is not value:
        if len(_VALUES) > 64:
            _VALUES.clear()
        got = _VALUES[id(value)] = (
            value,
            hashlib.sha256(_key(canonical(value)).encode()).hexdigest(),
        )
    return got[1]


def shared_fingerprint(state: State) -> str:
    """SHA-256 of the attributes a state shares with its copies (``State.SHARED``
    but the game): nothing may change them, not even playing a copy. A frozen
    one (a frozen dataclass, its mappings read-only) is pictured once."""
    names = set(type(state).SHARED) - {"game"}
    data = [
        [k, _value_digest(v) if _frozen(v) else _unchanged_digest(v)]
        for k, v in sorted(_attrs(state))
        if k in names
    ]
    return hashlib.sha256(_key(data).encode()).hexdigest()


def _unchanged_digest(value: Any) -> str:
    """A digest that stays the same while ``value`` is not changed. Only ever
    compared with the same object's digest before a play-out, so the pickle's
    bytes serve (C speed; a table of every space is walked at each check);
    what cannot be pickled is pictured canonically."""
    try:
        return hashlib.sha256(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)).hexdigest()
    except (pickle.PicklingError, TypeError, AttributeError):
        return hashlib.sha256(_key(canonical(value)).encode()).hexdigest()


def differences(a: State, b: State, limit: int = 5) -> list[str]:
    """The first few attribute paths whose canonical pictures differ (for messages)."""
    out: list[str] = []

    def walk(x: Any, y: Any, where: str) -> None:
        if len(out) >= limit or x == y:
            return
        if (
            isinstance(x, list)
            and isinstance(y, list)
            and len(x) == len(y)
            and x
            and x[0] == y[0]
            and x[0] in ("obj", "list", "tuple", "dict")
        ):
            if x[0] == "obj":
                keys = sorted(set(x[2]) | set(y[2]))
                for k in keys:
                    walk(x[2].get(k), y[2].get(k), f"{where}.{k}")
                return
            if len(x[1]) == len(y[1]):
                for i, (p, q) in enumerate(zip(x[1], y[1], strict=True)):
                    walk(p, q, f"{where}[{i}]")
                return
        out.append(where or "<state>")

    skip = _skipped(a)
    walk(canonical(a, skip=skip), canonical(b, skip=skip), "")
    return out


def _mutable(obj: Any) -> bool:
    if isinstance(obj, (list, dict, set, bytearray, random.Random)):
        return True
    if isinstance(obj, (*_ATOMS, tuple, frozenset, enum.Enum, *_REFS)):
        return False
    if _frozen(obj):
        return False
    return hasattr(obj, "__dict__") or any("__slots__" in c.__dict__ for c in type(obj).__mro__)


def _children(obj: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(obj, (list, tuple)):
        yield from ((f"[{i}]", x) for i, x in enumerate(obj))
    elif isinstance(obj, (set, frozenset)):
        yield from (("{}", x) for x in obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield f"[{k!r}]", v
            yield f"<key {k!r}>", k
    elif isinstance(obj, (*_ATOMS, enum.Enum, *_REFS, random.Random)) or _frozen(obj):
        return
    else:
        yield from ((f".{k}", v) for k, v in _attrs(obj))


def _reachable_mutables(state: State, skip: frozenset[str]) -> dict[int, str]:
    found: dict[int, str] = {}
    seen: set[int] = set()
    stack: list[tuple[str, Any]] = [(k, v) for k, v in _attrs(state) if k not in skip]
    while stack:
        where, obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if _mutable(obj):
            found[id(obj)] = where
        stack.extend((where + step, child) for step, child in _children(obj))
    return found


def shared_mutables(original: State, copy: State) -> list[str]:
    """Paths (in ``copy``) of mutable objects also reachable from ``original``,
    leaving out only the attributes the game declares shared (never changed:
    see :func:`shared_fingerprint`). Caches count: a cache shared with a copy
    changes under whoever reads the other (a thread pickling it)."""
    skip = frozenset(type(original).SHARED)
    mine = _reachable_mutables(original, skip)
    theirs = _reachable_mutables(copy, skip)
    return sorted(theirs[i] for i in theirs.keys() & mine.keys())


# ---------------------------------------------------------------- playing


def play_out(state: State, rng: Rng, limit: int = 100_000) -> int:
    """Random legal moves until the end (or ``limit``); the number of moves."""
    steps = 0
    while not state.over and steps < limit:
        owed = state.to_act()
        if not owed:
            raise AuditFailure("nobody owes a move but the game is not over")
        seat = owed[rng.randrange(len(owed))]
        legal = state.legal(seat)
        if not legal:
            raise AuditFailure(f"seat {seat} owes a move but has no legal action")
        state.apply(seat, legal[rng.randrange(len(legal))])
        steps += 1
    return steps


def random_states(
    game: Game,
    players: int,
    seed: int,
    *,
    every: float = 0.1,
    variant: str | None = None,
    options: dict[str, Any] | None = None,
) -> Iterator[State]:
    """States met along one random playthrough, each kept with probability
    ``every``. The live state is yielded: callers must not change it."""
    rng = Rng(seed)
    state = game.new(players, seed=seed, variant=variant, options=options)
    while not state.over:
        if rng.random() < every:
            yield state
        owed = state.to_act()
        seat = owed[rng.randrange(len(owed))]
        legal = state.legal(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])


# ---------------------------------------------------------------- checks


def _where(state: State) -> str:
    return f"{state.game.id} ({state.players} players), to act {state.to_act()}"


def check_clone(state: State, rng: Rng, play: bool = True) -> None:
    """A clone equals its original, shares nothing mutable with it, and
    playing it to the end leaves the original untouched."""
    before = fingerprint(state)
    tables = shared_fingerprint(state) if play else ""
    copy = state.clone()
    if fingerprint(copy) != before:
        raise AuditFailure(
            f"{_where(state)}: a clone differs from its original at "
            f"{', '.join(differences(state, copy))}"
        )
    shared = shared_mutables(state, copy)
    if shared:
        raise AuditFailure(
            f"{_where(state)}: a clone shares mutable data with its original: "
            f"{', '.join(shared[:8])} (copy or reset these in clone(), caches too, or "
            "declare them in SHARED if nothing ever changes them)"
        )
    if play:
        copy.quiet()
        play_out(copy, rng)
        if fingerprint(state) != before:
            raise AuditFailure(
                f"{_where(state)}: playing a clone changed the original (a clone shares data "
                "it changes)"
            )
        if shared_fingerprint(state) != tables:
            raise AuditFailure(
                f"{_where(state)}: playing a clone changed attributes declared SHARED "
                f"({', '.join(sorted(type(state).SHARED))}): they must be copied instead"
            )


def _zone_sizes(state: State) -> dict[str, int]:
    return {name: len(cards) for name, cards in state.zones().items()}


def _cards(state: State) -> Counter[Any]:
    out: Counter[Any] = Counter()
    for cards in state.zones().values():
        out.update(cards)
    return out


def check_determinize(state: State, seat: int, rng: Rng, play: bool = True) -> State:
    """A determinization for ``seat`` changes nothing in the real state, shares
    nothing mutable with it, holds the same cards in zones of the same sizes,
    and plays to the end without error. Returns it (unplayed) for more checks."""
    before = fingerprint(state)
    det = state.determinize(seat, rng)
    if fingerprint(state) != before:
        raise AuditFailure(f"{_where(state)}: determinize({seat}) changed the real state")
    shared = shared_mutables(state, det)
    if shared:
        raise AuditFailure(
            f"{_where(state)}: determinize({seat}) shares mutable data with the real state: "
            f"{', '.join(shared[:8])}"
        )
    if _zone_sizes(det) != _zone_sizes(state):
        raise AuditFailure(
            f"{_where(state)}: determinize({seat}) changed zone sizes: "
            f"{_zone_sizes(state)} -> {_zone_sizes(det)}"
        )
    real, sampled = _cards(state), _cards(det)
    if real != sampled:
        extra = sampled - real
        missing = real - sampled
        raise AuditFailure(
            f"{_where(state)}: determinize({seat}) does not conserve the cards: "
            f"extra {dict(extra)}, missing {dict(missing)}"
        )
    if play:
        rollout = det.clone()
        rollout.quiet()
        try:
            play_out(rollout, rng)
        except AuditFailure:
            raise
        except Exception as exc:
            raise AuditFailure(
                f"{_where(state)}: random play from determinize({seat}) failed: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        if fingerprint(state) != before:
            raise AuditFailure(f"{_where(state)}: playing a determinization changed the real state")
    return det


def check_sampling_blind(state: State, seat: int, rng: Rng) -> None:
    """A determinization depends only on what ``seat`` knows: from two worlds the
    seat cannot tell apart (the real state and a determinization of it), the same
    random stream must sample the very same state. Otherwise a search's choice —
    a bot's move, a player's hint — could depend on the hidden cards through the
    order in which the sampler happened to find them."""
    twin = state.determinize(seat, rng.fork())
    seed = rng.randrange(1 << 62)
    a = state.determinize(seat, Rng(seed))
    b = twin.determinize(seat, Rng(seed))
    if fingerprint(a) != fingerprint(b):
        raise AuditFailure(
            f"{_where(state)}: determinize({seat}) samples differently from two worlds the "
            f"seat cannot tell apart (it reads the hidden cards' order): "
            f"{'; '.join(differences(a, b, limit=3))}"
        )


def _seen(state: State, seat: int) -> dict[str, Any]:
    """Everything ``seat`` perceives of ``state`` now."""
    return {
        "view": state.view(seat),
        "legal": [str(a) for a in state.legal(seat)],
        "asked": seat in state.to_act(),
    }


def _events(state: State, since: int, seat: int) -> list[Any]:
    # Event numbers are the log's, which counts hidden events too; what a seat
    # is told is the content (the server numbers what it sends on its own).
    out = []
    for e in state.events_since(since, seat):
        data = e.to_json()
        data.pop("i", None)
        out.append(data)
    return out


def _same(a: Any, b: Any) -> bool:
    return _key(a) == _key(b)


def _first_difference(a: Any, b: Any, where: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b or not _same(a[k], b[k]):
                return _first_difference(a.get(k), b.get(k), f"{where}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if not _same(x, y):
                return _first_difference(x, y, f"{where}[{i}]")
    shown = [json.dumps(x, default=str)[:160] for x in (a, b)]
    return f"{where or '<top>'}: {shown[0]} vs {shown[1]}"


def check_indistinguishable(state: State, seat: int, rng: Rng, steps: int = 12) -> int:
    """The differential leak test. ``state`` and ``determinize(seat)`` are two
    worlds ``seat`` cannot tell apart: what it perceives must be equal in both,
    now and after each move that both worlds allow, while the events it sees
    stay equal. Returns the number of moves compared."""
    a = state.clone()
    b = state.determinize(seat, rng.fork())
    seen_a, seen_b = _seen(a, seat), _seen(b, seat)
    if not _same(seen_a, seen_b):
        raise AuditFailure(
            f"{_where(state)}: seat {seat} can tell the real world from a determinization: "
            f"{_first_difference(seen_a, seen_b)}"
        )
    history: list[str] = []
    for _ in range(steps):
        if a.over or b.over:
            break
        movers = sorted(set(a.to_act()) & set(b.to_act()))
        if not movers:
            break
        mover = movers[rng.randrange(len(movers))]
        texts_b = {str(x) for x in b.legal(mover)}
        common = [str(x) for x in a.legal(mover) if str(x) in texts_b]
        if not common:
            break
        text = common[rng.randrange(len(common))]
        na, nb = a.event_count(), b.event_count()
        a.apply(mover, a.parse(mover, text))
        b.apply(mover, b.parse(mover, text))
        history.append(f"seat {mover}: {text}")
        if not _same(_events(a, na, seat), _events(b, nb, seat)):
            break  # the worlds parted in the open: the seat may now tell them apart
        seen_a, seen_b = _seen(a, seat), _seen(b, seat)
        if not _same(seen_a, seen_b):
            raise AuditFailure(
                f"{_where(state)}: after {'; '.join(history)} seat {seat} can tell the real "
                f"world from a determinization: {_first_difference(seen_a, seen_b)}"
            )
    return len(history)
