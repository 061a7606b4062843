"""M.E.A.T.: The Cult — the match state and the protocol: whose decision it is,
the legal moves, ``apply``, the outcome, copies and determinization.

The state is built in layers, one module each, importing downward only:

- ``phases.py``: the phase and destiny-status codes;
- ``ruleset.py``: the options;
- ``board.py``: the cards in every zone and the bookkeeping on them;
- ``rounds.py``: the round, phase by phase;
- this module: the protocol; ``view.py`` cuts what each seat sees.


Seats alternate between the two teams (team = seat % 2) and seat ``s`` faces
seat ``s ^ 1`` across the table ("każdy ich członek miał naprzeciwko siebie
jednego przeciwnika"). Vitality belongs to a team. A round is Otwarcie
(Opening: Telestarion, draft, destiny draw, hand limit), Ustalanie taktyki
(Tactics: simultaneous face-down placement, then an INSTANT window),
Aktywacja (reveal, pay, alternate activations), Bitwa (battle) and
Podsumowanie (summary). RULES.md lists every reading.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from bestiary.engine import EventLog, IllegalAction, Result, Rng
from bestiary.engine.legality import legal_at, not_your_turn, require_legal
from bestiary.i18n import domain

from . import effects as fx
from .actions import (
    ABILITY,
    CAST,
    DISCARD,
    DONE,
    DRAFT,
    LEADER,
    PASS,
    PAY,
    PLACE,
    RESOLVE,
    SET,
    Move,
)
from .cards import FACTIONS
from .phases import (  # re-exported: bots.py, observe.py and whatif.py read them here
    D_ARMED,
    D_ATTACHED,
    D_DOWN,
    D_NONE,
    D_READY,
    D_UNPAID,
    P_ACTIVATION,
    P_DISCARD,
    P_DRAFT,
    P_LEADER,
    P_OVER,
    P_PAY,
    P_RESPOND,
    P_TACTICS,
    P_WINDOW,
    PHASE_NAMES,
)
from .rounds import MeatRound
from .view import build_view

_ = domain("meat", __file__)

__all__ = [
    "D_ARMED",
    "D_ATTACHED",
    "D_DOWN",
    "D_NONE",
    "D_READY",
    "D_UNPAID",
    "PHASE_NAMES",
    "P_ACTIVATION",
    "P_DISCARD",
    "P_DRAFT",
    "P_LEADER",
    "P_OVER",
    "P_PAY",
    "P_RESPOND",
    "P_TACTICS",
    "P_WINDOW",
    "MeatState",
]


def _copy_field(value: Any) -> Any:
    """An independent copy of one state attribute: lists (of ints, tuples or
    lists) are copied one level deeper than they nest, the RNG and the event
    log are copied, immutable values are shared."""
    if type(value) is list:
        if value and type(value[0]) is list:
            return [list(x) for x in value]
        return list(value)
    if isinstance(value, (Rng, EventLog)):
        return value.copy()
    if value is None or isinstance(value, (int, str, float, tuple)):
        return value
    return copy.deepcopy(value)


def _deal_unseen(
    cards: list[int],
    blocks: Sequence[tuple[int, int, int]],
    drafted: Sequence[Sequence[int]],
    rng: Rng,
) -> list[int]:
    """A new deal of the unseen ``cards`` over their spots (the same order). A
    block ``(seat, first, count)`` is an opponent's own spots: the creatures it
    drafted this round that lie there (public knowledge: the draft is open and
    every way out of a hand or a face-down lane is shown) go back to spots of
    that block at random; every other card goes anywhere. Cards are sorted
    before shuffling: the sample depends only on which cards are unseen, never
    on where they really lie."""
    new: list[int] = []
    kept: set[int] = set()
    for s, first, count in blocks:
        picks = drafted[s]
        known = sorted(c for c in cards[first : first + count] if c in picks) if picks else []
        if not known:
            continue
        if not new:
            new = [-1] * len(cards)
        where = list(range(first, first + count))
        rng.shuffle(where)
        rng.shuffle(known)
        for j, c in zip(where, known, strict=False):
            new[j] = c
        kept.update(known)
    if not kept:  # nothing known (the usual case once the creatures are up)
        rest = sorted(cards)
        rng.shuffle(rest)
        return rest
    rest = sorted(c for c in cards if c not in kept)
    rng.shuffle(rest)
    left = iter(rest)
    return [c if c >= 0 else next(left) for c in new]


class MeatState(MeatRound):
    """One match: the protocol over the round (``rounds.py``) and the table
    (``board.py``)."""

    # ------------------------------------------------------------ protocol
    def to_act(self) -> tuple[int, ...]:
        ph = self.phase
        if ph in (P_LEADER, P_DRAFT):
            return (self.order[self.pos],)
        if ph == P_DISCARD:
            return tuple(s for s in range(self.players) if self.over_limit(s) > 0)
        if ph == P_TACTICS:
            return tuple(s for s in range(self.players) if self.tac_stage[s] < 2)
        if ph == P_WINDOW:
            return (self.win_order[self.win_pos],)
        if ph == P_RESPOND:
            return (self.resp_order[self.resp_pos],)
        if ph == P_ACTIVATION:
            return self._eligible(self.act_team)
        if ph == P_PAY:
            return tuple(s for s in range(self.players) if self.pay_owed[s])
        return ()

    def _eligible(self, team: int) -> tuple[int, ...]:
        members = [s for s in range(team, self.players, 2) if not self.passed[s]]
        fresh = tuple(s for s in members if not self.acted[s])
        return fresh or tuple(members)

    def legal(self, seat: int) -> Sequence[Move]:
        # The last answer is kept until the next apply (the usual caller asks
        # legal() and then apply(), which needs the same list).
        memo = self._memo
        if memo is not None and memo[0] == self._ver and memo[1] == seat:
            return memo[2]
        out = self._legal(seat)
        self._memo = (self._ver, seat, out)
        return out

    def _legal(self, seat: int) -> list[Move]:
        if seat not in self.to_act():
            return []
        sp = self.space
        ph = self.phase
        if ph == P_LEADER:
            taken = set(self.leader)
            return [sp.get(LEADER, i) for i in range(len(self.cs.leaders)) if i not in taken]
        if ph == P_DRAFT:
            out, seen = [], set()
            for iid in self.row:
                k = self.kind[iid]
                if k not in seen and self.draft_cost(seat, iid) <= self.tel[seat]:
                    seen.add(k)
                    out.append(sp.get(DRAFT, k))
            return out
        if ph == P_DISCARD:
            picked = self.dis_pick[seat]
            kinds = {self.kind[i] for i in self.hand[seat] if i not in picked}
            return [sp.get(DISCARD, k) for k in sorted(kinds)]
        if ph == P_TACTICS:
            return self._tactics_legal(seat)
        if ph == P_ACTIVATION:
            return self._activation_legal(seat)
        if ph == P_PAY:
            kinds = {self.kind[c] for c in self.affordable(seat)}
            return [sp.get(PAY, k) for k in sorted(kinds)]
        return [*self._instant_options(seat), sp.get(PASS)]

    def _tactics_legal(self, seat: int) -> list[Move]:
        sp = self.space
        if self.tac_stage[seat] == 0:
            placed = self.tac_c[seat]
            free = [lane for lane in range(3) if placed[lane] < 0]
            kinds = sorted(
                {self.kind[i] for i in self.hand[seat] if i < self.ncre and i not in placed}
            )
            place = sp.place
            return [place[k][lane] for k in kinds for lane in free]
        pend = self.tac_d[seat]
        kinds = sorted({self.kind[i] for i in self.hand[seat] if i >= self.ncre and i not in pend})
        return [*(sp.get(SET, k) for k in kinds), sp.get(DONE)]

    def _targets(self, seat: int, kind: str) -> list[int]:
        if not kind:
            return [0]
        return [s + 1 for s in fx.chosen_targets(self, seat, kind)]

    def _instant_options(self, seat: int) -> list[Move]:
        out: list[Move] = []
        sp = self.space
        seen = set()
        for iid in self.hand[seat]:
            k = self.kind[iid]
            d = self.defs[k]
            if not d.instant or k in seen or d.cost > self.tel[seat]:
                continue
            seen.add(k)
            if any(e.do == "counter" for e in d.effects):
                if self.stack:
                    out.append(sp.get(CAST, k, 0))
                continue
            out += [sp.get(CAST, k, t) for t in self._targets(seat, d.target)]
        return out

    def _activation_legal(self, seat: int) -> list[Move]:
        sp = self.space
        out: list[Move] = []
        for lane in range(3):
            slot = seat * 3 + lane
            iid = self.field[slot]
            if iid < 0 or self.used[iid]:
                continue
            a = self.ability_of(iid)
            if a is None or a.cost > self.tel[seat]:
                continue
            out += [sp.get(ABILITY, lane, t) for t in self._targets(seat, a.target)]
        seen = set()
        for iid in self.dfield[seat]:
            k = self.kind[iid]
            if self.dstat[iid] != D_READY or k in seen:
                continue
            seen.add(k)
            out += [sp.get(RESOLVE, k, t) for t in self._targets(seat, self.defs[k].target)]
        out += self._instant_options(seat)
        out.append(sp.get(PASS))
        return out

    # ------------------------------------------------------------------ apply
    def apply(self, seat: int, action: Any) -> None:
        legal = self.legal(seat)  # empty for a seat that owes no decision
        if not legal:
            owed = self.to_act()
            if seat not in owed:
                raise not_your_turn(seat, owed, self.over)
        require_legal(seat, action, legal)
        self._ver += 1
        self._memo = None
        kind = action.kind
        if kind == LEADER:
            self._pick_leader(seat, action.a)
        elif kind == DRAFT:
            self._draft(seat, action.a)
        elif kind == DISCARD:
            self._discard(seat, action.a)
        elif kind in (PLACE, SET, DONE):
            self._tactic(seat, action)
        elif kind == PASS:
            # Nothing else was legal: the pass is made for the player ("aż do
            # wyczerpania możliwych zagrań"), and the log says so.
            self._pass(seat, forced=len(legal) == 1)
        elif kind == CAST:
            self._cast(seat, action.a, action.b)
        elif kind == RESOLVE:
            self._resolve_destiny(seat, action.a, action.b)
            self._after_activation(seat)
        elif kind == ABILITY:
            self._ability(seat, action.a, action.b)
            self._after_activation(seat)
        elif kind == PAY:
            self._pay_choice(seat, action.a)

    @property
    def result(self) -> Result | None:
        if not self.over:
            return None
        wt = self.winner_team
        winners = [s for s in range(self.players) if wt >= 0 and (s & 1) == wt]
        scores = [float(max(self.vit[s & 1], 0)) for s in range(self.players)]
        fac = [
            FACTIONS[max(range(4), key=lambda f: self.faction_count[s][f])]
            for s in range(self.players)
        ]
        lead = [self.cs.leaders[x].name if x >= 0 else "" for x in self.leader]
        return Result(
            scores,
            winners,
            {
                "rounds": self.round,
                "winning_team": "draw" if wt < 0 else f"team {wt}",
                "winner_leaders": [lead[s] for s in winners],
                "winner_factions": [fac[s] for s in winners],
                "player_leaders": lead,
                "player_factions": fac,
            },
        )

    # ------------------------------------------------------------ information
    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def clone(self) -> MeatState:
        """An independent copy. Every attribute outside SHARED/CACHES is copied
        by its type, so a field added later cannot be shared by mistake (search
        copies once changed the real match through shared leader bonuses).
        The type tests are inlined: clone() is the look-ahead's hot path."""
        return self._copy(keep_rng=True)

    def _copy(self, keep_rng: bool) -> MeatState:
        """``clone()``; ``keep_rng=False`` leaves the RNG to the caller (a
        determinization draws a fresh one: copying the Mersenne Twister's
        state is half a clone's cost)."""
        other = MeatState.__new__(MeatState)
        shared = self.SHARED
        new = other.__dict__
        for k, v in self.__dict__.items():
            t = type(v)
            if t is list:
                new[k] = [x[:] for x in v] if v and type(v[0]) is list else v[:]
            elif t is int or t is str or t is bool or t is tuple or v is None or k in shared:
                new[k] = v
            elif k == "rng" and not keep_rng:
                new[k] = None  # set by the caller
            else:
                new[k] = _copy_field(v)
        other._memo = None
        return other

    def zones(self) -> dict[str, list[int]]:
        """Every card instance by zone; each card is in exactly one zone."""
        n = self.players
        out: dict[str, list[int]] = {
            "creature deck": list(self.cdeck),
            "destiny deck": list(self.ddeck),
            "creature graveyard": list(self.cgrave),
            "destiny graveyard": list(self.dgrave),
            "draft row": list(self.row),
            "stack": [e[1] for e in self.stack],
            "attached": [d for d in self.cs.destiny_ids if self.attached_to[d] >= 0],
        }
        for s in range(n):
            out[f"hand {s}"] = list(self.hand[s])
            out[f"field {s}"] = [c for c in self.field[s * 3 : s * 3 + 3] if c >= 0]
            out[f"destiny field {s}"] = list(self.dfield[s])
        return out

    def determinize(self, seat: int, rng: Rng) -> MeatState:
        """Resample every card ``seat``'s team cannot see: both decks' order,
        the opponents' hands and their face-down cards; an opponent's choices
        made "all at once" (tactics, the hand limit, paying) still being made
        are forgotten (it makes them again), and those of an opponent that is
        done are drawn at random. The draft is
        public, so a creature an opponent drafted this round and has not shown
        since stays with that opponent: in its hand or face down, where is
        resampled."""
        other = self._copy(keep_rng=False)  # other.rng is drawn below
        foe = [s for s in range(self.players) if (s & 1) != (seat & 1)]
        ncre = self.ncre
        for creature in (True, False):
            spots: list[tuple[list[int], int]] = []
            deck = other.cdeck if creature else other.ddeck
            spots += [(deck, i) for i in range(len(deck))]
            blocks: list[tuple[int, int, int]] = []  # (foe, first spot, spots)
            for s in foe:
                first = len(spots)
                h = other.hand[s]
                spots += [(h, i) for i in range(len(h)) if (h[i] < ncre) == creature]
                if creature:
                    spots += [
                        (other.field, s * 3 + x)
                        for x in range(3)
                        if other.field[s * 3 + x] >= 0 and not other.up[s * 3 + x]
                    ]
                else:
                    d = other.dfield[s]
                    spots += [(d, i) for i in range(len(d)) if other.dstat[d[i]] == D_DOWN]
                blocks.append((s, first, len(spots) - first))
            cards = [lst[i] for lst, i in spots]
            new = _deal_unseen(cards, blocks if creature else [], self.drafted, rng)
            remap = dict(zip(cards, new, strict=True))
            for (lst, i), c in zip(spots, new, strict=True):
                lst[i] = c
            # Per-card counters (damage, buffs on a face-down creature) stay with the spot.
            # (Usually all zero: cards in decks and hands carry none.)
            for arr in (other.atk_mod, other.def_mod, other.dmg, other.kw_extra):
                vals = [arr[c] for c in cards]
                if any(vals):
                    for c, v in zip(new, vals, strict=True):
                        arr[c] = v
            for flags in (other.used, other.doomed):
                bits = [flags[c] for c in cards]
                if any(bits):
                    for c, b in zip(new, bits, strict=True):
                        flags[c] = b
            other.stack = [(a, b, t, remap.get(tc, tc)) for a, b, t, tc in other.stack]
            if not creature:
                for c in cards:
                    other.dstat[c] = D_NONE
                for s in foe:
                    for c in other.dfield[s]:
                        if c in remap:
                            other.dstat[c] = D_DOWN
        if other.phase == P_TACTICS:
            # An opponent's tactics are set face down: which lanes it filled and
            # how many destiny cards it set are hidden until the cards are down
            # ("face_down"); only whether it is done shows (it no longer acts).
            # The sample forgets them: an opponent still setting sets them again
            # there, one that is done gets tactics drawn at random.
            for s in foe:
                done = other.tac_stage[s] == 2
                other.tac_c[s] = [-1, -1, -1]
                other.tac_d[s] = []
                other.tac_stage[s] = 0
                other._check_stage(s)
                if done:
                    other._random_tactics(s, rng)
        if other.phase == P_DISCARD:
            # The hand limit is chosen at once by all ("Wszystkie nadmiarowe karty
            # natychmiast muszą zostać odrzucone"): which cards an opponent chose
            # is hidden, only whether it is done shows. Forgotten, as the tactics.
            for s in foe:
                done = self.over_limit(s) <= 0
                other.dis_pick[s] = []
                if done:
                    hand = sorted(other.hand[s])
                    rng.shuffle(hand)
                    other.dis_pick[s] = hand[: other.over_limit(s)]
        elif other.phase == P_PAY:
            # Paying likewise ("a następnie opłacają koszty"): an opponent still
            # choosing chooses again; one that is done gets a choice drawn at
            # random (one that had nothing to choose paid in the open already).
            for s in foe:
                if not self.pay_owed[s] and not self.pay_pick[s]:
                    continue
                other.pay_pick[s] = []
                if not self.pay_owed[s]:
                    other._random_payment(s, rng)
        other.rng = rng.fork()
        return other

    def _random_payment(self, seat: int, rng: Rng) -> None:
        """A choice of destiny cards to pay that ``seat`` might have made: cards
        in a random order, each paid while it is affordable, so that nothing
        left is (the choice ends only then)."""
        cards = sorted(self._unpaid(seat))
        rng.shuffle(cards)
        for c in cards:
            if self.defs[self.kind[c]].cost <= self.pay_left(seat):
                self.pay_pick[seat].append(c)

    def _random_tactics(self, seat: int, rng: Rng) -> None:
        """Tactics ``seat`` might have set, drawn at random from its hand: the
        most creatures it can place ("gracz korzysta z maksymalnej dostępnej
        liczby kart") in random lanes, and any number of its destiny cards."""
        hand = self.hand[seat]
        creatures = sorted(c for c in hand if c < self.ncre)
        destiny = sorted(c for c in hand if c >= self.ncre)
        rng.shuffle(creatures)
        rng.shuffle(destiny)
        lanes = [0, 1, 2]
        rng.shuffle(lanes)
        placed = [-1, -1, -1]
        for c, lane in zip(creatures, lanes, strict=False):
            placed[lane] = c
        self.tac_c[seat] = placed
        self.tac_d[seat] = destiny[: rng.randint(0, len(destiny))]
        self.tac_stage[seat] = 2

    # ------------------------------------------------------------ action space
    def action_index(self, action: Any) -> int:
        if not isinstance(action, Move):
            raise IllegalAction(_("{action} is not a M.E.A.T. action").format(action=action))
        return self.space.index(action)

    def action_from_index(self, seat: int, index: int) -> Move:
        return legal_at(seat, index, self.space.from_index(index), self.legal(seat))
