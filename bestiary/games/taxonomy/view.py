"""What one seat of a taxonomy game may see (``TaxonomyState.view``).

Hidden: the other hands, the stock, the rolls of miscellaneous cards a seat
has not seen, the other seats' secret choices (claims, rock-paper-scissors)
and — the subtle one — *who may claim a discard*. "Each time a player
discards a card he must say aloud the monster type and nature so that other
players know if they want/can take that card": each player decides for
themselves whether they can take it, and a player who cannot learns nothing
from the others but the passage of time (RULES.md, reading 22). So during a
claim window a seat that is not asked sees the table exactly as it stands
between two turns: phase ``discard``, the discarder's ``turn``, no one in
``to_act``, no prompt — whether one seat, three or none may claim.

The same holds for two private decisions of the player whose turn it is:
whether to draw again after an impatient monster (a player who stops need
not show the card) and whether to declare a hand that a refill draw made
winning. Others see the player deciding as they see any discard decision
(phase ``discard``, ``to_act`` that player) when the hand is over 8, and
the table's pause otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .actions import CLAIM, RPS_NAMES
from .claims import Claims
from .phases import ATTACK_CHOICE, CLAIM_WINDOW, DECLARE, DUEL, IMPATIENT_CHOICE, MAIN, OVER
from .scoring import ScoringTable

# The state as this module reads it: every layer below rules.py (view.py is
# imported by rules.py, never the other way round).
TaxonomyState = Claims

__all__ = [
    "ATTACK_CHOICE",
    "CLAIM_WINDOW",
    "DECLARE",
    "DUEL",
    "IMPATIENT_CHOICE",
    "MAIN",
    "OVER",
    "encoder_view",
    "seat_view",
]


_SCORING_JSON: dict[int, tuple[ScoringTable, dict[str, Any]]] = {}


def scoring_json(table: ScoringTable) -> dict[str, Any]:
    """The scoring table in force, for bots and pages (built once per table,
    found by identity: hashing the table per view would cost more)."""
    hit = _SCORING_JSON.get(id(table))
    if hit is None or hit[0] is not table:
        hit = _SCORING_JSON[id(table)] = (table, _scoring_json(table))
    return hit[1]


def _scoring_json(table: ScoringTable) -> dict[str, Any]:
    return {
        "method": {
            "4+4": list(table.method_four_four),
            "5+3": list(table.method_five_three),
            "8": list(table.method_eight),
        },
        "four": {
            "sizes": [{"up_to": b.up_to, "points": b.points} for b in table.four_sizes],
            "orphans": table.four_orphans,
        },
        "five_three": {"three": table.three_of_five_three},
        "eight": {
            "sizes": [{"up_to": b.up_to, "points": b.points} for b in table.eight_sizes],
            "orphans": table.eight_orphans,
        },
    }


def asked(st: TaxonomyState, me: int | None) -> bool:
    """Is ``me`` one of the seats asked about the discard in an open claim window?"""
    return st.phase == CLAIM_WINDOW and me is not None and me in st.claim_seats


def public_phase(st: TaxonomyState, me: int | None) -> tuple[str, list[int]]:
    """The phase and the deciding seats as ``me`` may know them (module docstring)."""
    phase = st.phase
    if phase == CLAIM_WINDOW:
        if asked(st, me):
            return phase, [me] if me in st._to_act else []
        return MAIN, []  # between two turns, as far as this seat can tell
    if phase in (IMPATIENT_CHOICE, DECLARE) and me != st.actor:
        over = len(st.hands[st.actor]) + st._table_count(st.actor) > 8
        return MAIN, [st.actor] if over else []
    return phase, list(st._to_act)


def prompt(st: TaxonomyState, seat: int | None) -> str:
    if seat is None or seat not in st._to_act:
        return ""
    p = st.phase
    if p == MAIN:
        extra = len(st.hands[seat]) + st._table_count(seat) - 8
        return f"discard {extra} card{'s' if extra > 1 else ''} (or table a drawn card, or win)"
    if p == CLAIM_WINDOW:
        if st.claim_open_choice(seat):
            need = len(st.lay_candidates(seat)) - 3
            return (
                f"choose {need} card{'s' if need > 1 else ''} to keep in hand "
                f"(the other three are laid with {st.deck.names[st.claim_card]})"
            )
        return f"claim {st.deck.names[st.claim_card]} or pass"
    if p == DUEL:
        return "rock, paper or scissors?"
    if p == ATTACK_CHOICE:
        return f"send {st.deck.names[st.attack_card]} at a player, or not"
    if p == IMPATIENT_CHOICE:
        return "an impatient monster: draw another card, or stop"
    if p == DECLARE:
        return "your hand wins: declare it (win), or play on (pass)"
    return ""


def claim_view(st: TaxonomyState, me: int) -> dict[str, Any]:
    names = st.deck.key_names
    choice = st.claim_choice.get(me)
    return {
        "card": st._card(st.claim_card),
        "discarder": st.claim_from,
        "keys": [names[k] for k in st.claim_keys.get(me, ())],
        "decided": me not in st._to_act,
        "key": names[choice.arg] if choice is not None and choice.kind == CLAIM else None,
        "kept": [st.deck.names[c] for c in st.claim_keep.get(me, ())],
        "to_keep": len(st.lay_candidates(me)) - 3 if st.claim_open_choice(me) else 0,
    }


def _claim(st: TaxonomyState, seat: int) -> dict[str, Any] | None:
    return claim_view(st, seat) if public_phase(st, seat)[0] == CLAIM_WINDOW else None


# The entries every seat's view builds the same way, for ``seat`` (a seat of
# the table): ``seat_view`` and ``partial_view`` both build them here.
ALIKE = -1  # the seat given for an entry that every seat (and a spectator) sees alike
_PARTS: dict[str, Callable[[TaxonomyState, int], Any]] = {
    "seat": lambda st, seat: seat,
    "hand": lambda st, seat: [st._card(c) for c in st.hands[seat]],
    "tables": lambda st, seat: [
        [{"key": st.deck.key_names[k], "cards": [st._card(c) for c in cs]} for k, cs in t]
        for t in st.tables
    ],
    "discards": lambda st, seat: [st._card(c) for c in st.discards],
    "set_aside": lambda st, seat: [[st._card(c) for c in a] for a in st.aside],
    "bans": lambda st, seat: [sorted(st.deck.group_names[g] for g in b) for b in st.bans],
    "scores": lambda st, seat: list(st.scores),
    "claim": _claim,
    "key_sizes": lambda st, seat: dict(st.deck.key_sizes_by_name),
    "orphan_keys": lambda st, seat: list(st.deck.orphan_key_names),
    "scoring": lambda st, seat: scoring_json(st.scoring),
}

#: The entries of a seat's view that ``partial_view`` builds without the rest
#: (what the heuristic bot reads: its ``lite`` playouts ask for these).
PARTIAL_FIELDS = frozenset(_PARTS)


def partial_view(st: TaxonomyState, seat: int, fields: frozenset[str]) -> dict[str, Any]:
    """The entries ``fields`` of ``seat_view(st, seat)``: those of
    ``PARTIAL_FIELDS`` alone (a full view costs a quarter of a search playout's
    time), any other through the whole view."""
    if not fields <= PARTIAL_FIELDS or not 0 <= seat < st.players:
        whole = seat_view(st, seat)
        return {k: whole[k] for k in fields if k in whole}
    return {f: _PARTS[f](st, seat) for f in fields}


def seat_view(st: TaxonomyState, seat: int | None) -> dict[str, Any]:
    n = st.players
    me = seat if seat is not None and 0 <= seat < n else None
    deck = st.deck
    names = deck.key_names
    card = st._card
    phase, to_act = public_phase(st, me)
    duel = None
    if phase == DUEL and st.duel is not None:
        a, t, c = st.duel
        mine = st.duel_choice.get(me) if me is not None else None
        duel = {
            "attacker": a,
            "target": t,
            "card": card(c),
            "ties": st.duel_ties,
            "your_choice": RPS_NAMES[mine] if mine is not None else None,
            "decided": [x for x in (a, t) if x in st.duel_choice and x == me],
        }
    attack = None
    if phase == ATTACK_CHOICE and me == st.actor:
        attack = {"card": card(st.attack_card), "targets": [t for t in range(n) if t != me]}
    hand_keys = (
        {names[k]: n for k, n in _hand_key_counts(st, me).items()} if me is not None else {}
    )
    result = None
    if st._result is not None:
        result = {"scores": st._result.scores, "winners": st._result.winners}
    peek = st.peeks[me] if me is not None else None
    results = st.results_json()
    return {
        "game": "taxonomy",
        "variant": {
            "rounds": st.rules.rounds,
            "loyal": st.rules.loyal,
            "beastman_orphans": st.rules.beastman_orphans,
            "orphan_eight": st.rules.orphan_eight,
            "claim_window": st.rules.claim_window,
        },
        "seat": seat,
        "players": n,
        "phase": phase,
        "to_act": to_act,
        "prompt": prompt(st, me),
        "turn": st.actor,
        "dealer": st.dealer,
        "round": min(st.round + 1, st.rules.rounds),
        "rounds": st.rules.rounds,
        "turns": st.turns,
        "hand": _PARTS["hand"](st, me) if me is not None else None,
        "hand_keys": hand_keys,
        "drawn": [deck.names[c] for c in st.drawn] if me is not None and me == st.actor else [],
        "hand_counts": [len(h) for h in st.hands],
        "tables": _PARTS["tables"](st, ALIKE),
        "discard_top": card(st.discards[-1]) if st.discards else None,
        "discards": _PARTS["discards"](st, ALIKE),
        "stock": len(st.stock),
        "set_aside": _PARTS["set_aside"](st, ALIKE),
        "bans": _PARTS["bans"](st, ALIKE),
        "claims": list(st.claims),
        "skips": list(st.skips),
        "scores": _PARTS["scores"](st, ALIKE),
        "can_win": me is not None and _can_win(st, me, phase),
        "claim": _claim(st, me) if me is not None else None,
        "duel": duel,
        "attack": attack,
        "peek": {"cards": [card(c) for c in peek[0]], "stock_then": peek[1]} if peek else None,
        "seen_hands": {str(q): [card(c) for c in cards] for q, cards in st.seen_hands[me].items()}
        if me is not None
        else {},
        "last_round": results[-1] if results else None,
        "round_results": list(results),
        "key_sizes": _PARTS["key_sizes"](st, ALIKE),
        "orphan_keys": _PARTS["orphan_keys"](st, ALIKE),
        "scoring": _PARTS["scoring"](st, ALIKE),
        "result": result,
    }


def _hand_key_counts(st: TaxonomyState, seat: int) -> dict[int, int]:
    """How many cards of each collecting key (by index) ``seat`` holds."""
    counts: dict[int, int] = {}
    ckeys = st.ckeys
    for c in st.hands[seat]:
        for k in ckeys[c]:
            counts[k] = counts.get(k, 0) + 1
    return counts


def _can_win(st: TaxonomyState, seat: int, phase: str) -> bool:
    """Whether ``win`` is among ``seat``'s moves now (what the page offers)."""
    return phase in (MAIN, DECLARE) and seat in st._to_act and st.mv.win in st.legal(seat)


def encoder_view(st: TaxonomyState, seat: int) -> dict[str, Any]:
    """What the observation encoder (``observe.Observer.encode_state_sparse``)
    reads of ``seat_view(st, seat)``, built alone: each entry below is
    ``seat_view``'s entry of the same name, worked out by the same rules of
    what ``seat`` may know (``public_phase``, the seat's own hand, choices,
    peek and seen hands only), with cards, keys and groups as deck indices
    instead of names or card dicts, and nothing the encoder skips (the prompt,
    rules, round results, scoring table; of ``attack`` only whether there is
    one, of ``peek`` its cards, of ``duel`` its seats, ties and own choice).
    ``seat`` must be a seat of the table.

    The lists are the state's own, not copies (this runs at every step of the
    batched environment): read the view at once, before the next move, and
    never change it. tests/rl/test_sparse_encoding.py checks that every entry
    equals ``seat_view``'s and that states the seat cannot tell apart give
    equal encoder views."""
    phase, to_act = public_phase(st, seat)
    actor = st.actor
    hand = st.hands[seat]
    claim = None
    if phase == CLAIM_WINDOW:
        choice = st.claim_choice.get(seat)
        claim = {
            "card": st.claim_card,
            "discarder": st.claim_from,
            "keys": st.claim_keys.get(seat, ()),
            "decided": seat not in st._to_act,
            "key": choice.arg if choice is not None and choice.kind == CLAIM else None,
            "kept": st.claim_keep.get(seat, ()),
            "to_keep": len(st.lay_candidates(seat)) - 3 if st.claim_open_choice(seat) else 0,
        }
    duel = None
    if phase == DUEL and st.duel is not None:
        mine = st.duel_choice.get(seat)
        duel = {
            "attacker": st.duel[0],
            "target": st.duel[1],
            "ties": st.duel_ties,
            "your_choice": RPS_NAMES[mine] if mine is not None else None,
        }
    peek = st.peeks[seat]
    discards = st.discards
    return {
        "seat": seat,
        "phase": phase,
        "to_act": to_act,
        "turn": actor,
        "dealer": st.dealer,
        "round": min(st.round + 1, st.rules.rounds),
        "rounds": st.rules.rounds,
        "turns": st.turns,
        "stock": len(st.stock),
        "hand": hand,
        "hand_keys": _hand_key_counts(st, seat),
        "drawn": st.drawn if seat == actor else (),
        "hand_counts": [len(h) for h in st.hands],
        "tables": [[cs for _, cs in t] for t in st.tables],
        "discards": discards,
        "discard_top": discards[-1] if discards else None,
        "set_aside": st.aside,
        "bans": st.bans,
        "claims": st.claims,
        "skips": st.skips,
        "scores": st.scores,
        "can_win": _can_win(st, seat, phase),
        "claim": claim,
        "duel": duel,
        "attack": phase == ATTACK_CHOICE and seat == actor,
        "peek": peek[0] if peek else None,
        "seen_hands": st.seen_hands[seat],
    }
