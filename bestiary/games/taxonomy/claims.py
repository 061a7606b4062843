"""Claiming a discard: "If you have 3 cards of the same type, and another
player discards another card of that type, you can take that card, show
that you have created a set of four, and place that set on the table."

Who is asked, what each may claim under, the secret answers and their
resolution (readings 3, 11, 22), and the same worked out again in a sampled
world (``determinize``).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...engine.rng import Rng
from .actions import CLAIM, KEEP, Move
from .cards import HONEST, LOYAL, MISC
from .natures import Natures
from .phases import CLAIM_WINDOW, MAIN
from .scoring import HAND_SIZE


class Claims(Natures):
    """The claim window on the top discard."""

    def _window(self, s: int, c: int) -> tuple[tuple[int, ...], dict[int, tuple[int, ...]]]:
        """The seats asked about ``c`` and the keys each may claim it under:
        the seats that may claim (``claim_window=eligible``), or every other
        seat (``all``: those that may not claim can only pass)."""
        keys = self._claimants(s, c)
        if self.window_all:
            seats = self.after[s]
            return seats, {q: keys.get(q, ()) for q in seats}
        return tuple(keys), keys

    def _open_window(self, s: int, c: int) -> bool:
        """Ask the seats (``_window``) about ``s``'s discard ``c``, the top of the
        pile; False: nobody is asked, the next turn may begin."""
        seats, keys = self._window(s, c)
        if not seats:
            return False
        self.claim_card, self.claim_from = c, s
        self.claim_seats, self.claim_keys = seats, keys
        self.claim_choice, self.claim_keep = {}, {}
        self._set_phase(CLAIM_WINDOW, seats)
        if self.log.enabled:
            for q in seats:
                self.log.emit(
                    "claim_open",
                    to=[q],
                    card=self.deck.names[c],
                    keys=list(map(self.deck.key_names.__getitem__, keys[q])),
                )
        return True

    def _claimants(self, s: int, c: int) -> dict[int, tuple[int, ...]]:
        """Seats that may claim ``c`` (in turn order after the discarder) -> their keys."""
        keys: dict[int, tuple[int, ...]] = {}
        if self.loyal_rule and self.nat[c] & LOYAL:
            return keys  # "Such a card cannot be taken into your set."
        ks = self.ckeys[c]
        hks = self.hk
        for q in self.after[s]:
            hk = hks[q]
            for k in ks:
                if hk[k] >= 3:
                    break
            else:
                continue  # "If you have 3 cards of the same type": q has not
            bans = self.bans[q]
            if (bans and self.group_of[c] in bans) or self.tabled[q] + 4 > HAND_SIZE:
                continue
            keys[q] = tuple(k for k in ks if hk[k] >= 3)
        return keys

    # The claimer chooses the set: "show that you have created a set of four" —
    # with more than three cards of the key in hand, which three go down (and
    # which stay in hand) is the claimer's choice (reading 11), made in secret
    # within the window: `claim <key>`, then `keep <card>` until three remain.
    def lay_candidates(self, q: int) -> list[int]:
        """Cards of ``q``'s hand that could go down with the claimed card."""
        choice = self.claim_choice.get(q)
        if choice is None or choice.kind != CLAIM:
            return []
        k, kept = choice.arg, self.claim_keep.get(q, ())
        ck = self.ckeys
        return [x for x in self.hands[q] if k in ck[x] and self._usable(q, x) and x not in kept]

    def claim_open_choice(self, q: int) -> bool:
        """Has ``q`` claimed and must still choose which cards to keep?"""
        return len(self.lay_candidates(q)) > 3

    def _claim_step(self, seat: int, action: Move) -> None:
        """A claim-window answer (claim, keep or pass); the window closes when all are in."""
        if action.kind == KEEP:
            self.claim_keep[seat] = (*self.claim_keep.get(seat, ()), action.arg)
        else:
            self.claim_choice[seat] = action
        self._legal = None
        if self.claim_open_choice(seat):
            return
        if self.log.enabled:
            # The claim and the cards kept in hand apart, each a move's text form.
            kept = [f"keep {self.deck.names[c]}" for c in self.claim_keep.get(seat, ())]
            choice = str(self.claim_choice[seat])
            self.log.emit("decided", to=[seat], seat=seat, choice=choice, kept=kept)
        waiting = tuple(q for q in self.claim_seats if not self._answered(q))
        if waiting:
            self._to_act = waiting
        else:
            self._resolve_claims()

    def _answered(self, q: int) -> bool:
        return q in self.claim_choice and not self.claim_open_choice(q)

    def _resolve_claims(self) -> None:
        claimers = [
            q
            for q in self.claim_seats
            if q in self.claim_choice and self.claim_choice[q].kind == CLAIM
        ]
        c, s = self.claim_card, self.claim_from
        if self.log.enabled and not claimers:
            # Only the seats that were asked learn that the window closed unclaimed;
            # a claim is told by its own "claimed" line (issue 29: an "X is
            # claimed" line before it said nothing more).
            self.log.emit(
                "claims_closed", to=self.claim_seats, card=self.deck.names[c], claimed=False
            )
        if not claimers:
            self._begin_turn((s + 1) % self.players)
            return
        if self.rules.claim_priority == "random" and len(claimers) > 1:
            q = claimers[self.rng.randrange(len(claimers))]
        else:
            q = claimers[0]  # "the first in turn order after the discarder"
        k = self.claim_choice[q].arg
        # Take the card, lay the 4-set: the three cards the claimer did not keep.
        mine = self.lay_candidates(q)
        if len(mine) != 3:  # a sample whose hand cannot back the claim: it is a pass
            self.claim_choice[q] = self.mv.pass_
            self._resolve_claims()
            return
        self.discards.pop()
        for x in mine:
            self.hands[q].remove(x)
            if x in self.watched:
                self._left_hand(q, x)
        cards = [*mine, c]
        self.tables[q].append((k, cards))
        self.claims[q] += 1
        self._recount(q)
        if self.log.enabled:
            self.log.emit(
                "claimed",
                seat=q,
                card=self._card(c),
                key=self.deck.key_names[k],
                set=[self._card(x) for x in cards],
                discarder=s,
            )
        if self.nat[c] & HONEST:
            # "If you have taken an honest monster from another player, it tells you
            # what it saw in him: you can see what cards he is holding."
            self.seen_hands[q][s] = tuple(self.hands[s])
            self._learn()
            self.khand[q][s] = set(self.hands[s])
            self.watched.update(self.hands[s])
            if self.log.enabled:
                seen = [self._card(x) for x in self.hands[s]]
                self.log.emit("saw_hand", to=[q], seat=q, target=s, cards=seen)
        self.actor = q
        self.epoch += 1
        self.drawn = []
        self.fresh_draw = False
        self.last_discard = -1
        self._set_phase(MAIN, (q,))  # "You then have to discard 1 card"

    def _reopen_window(
        self, seat: int, real: Claims, known_in: Mapping[int, set[int]], rng: Rng
    ) -> None:
        """Work out again who is asked about the discard in a sampled world;
        keep only ``seat``'s own answer (the others answer again). ``seat``'s
        own eligibility rests on its hand and public facts, so it is asked in
        the sample exactly when it is asked in the real game."""
        c, s = self.claim_card, self.claim_from
        seats, keys = self._window(s, c)
        if seat not in real._to_act and all(q == seat for q in seats):
            # A seat not deciding knows only that the table waits — someone else
            # may claim (the passage of time, reading 22; for an asked seat that
            # has answered, the window still open): the sample must have a
            # claimant other than the seat, or nobody would answer in it.
            self._plant_claimant(seat, known_in, rng)
            seats, keys = self._window(s, c)
        self.claim_seats, self.claim_keys = seats, keys
        self.claim_choice = {q: m for q, m in real.claim_choice.items() if q == seat}
        self.claim_keep = {q: m for q, m in real.claim_keep.items() if q == seat}
        self._to_act = tuple(q for q in seats if not self._answered(q))

    def _plant_claimant(self, seat: int, known_in: Mapping[int, set[int]], rng: Rng) -> None:
        """Make some seat other than ``seat`` and the discarder able to claim the
        discard: swap three unknown cards of its key into that seat's hand
        (from the stock or other hands, never a card ``seat`` knows the place of)."""
        c, s = self.claim_card, self.claim_from
        g = self.deck.group_of[c]
        ck = self.ckeys
        seats = [
            q
            for q in range(self.players)
            if q not in (s, seat)
            and g not in self.bans[q]
            and self._table_count(q) + 4 <= HAND_SIZE
        ]
        rng.shuffle(seats)
        for q in seats:
            for k in ck[c]:
                if self._give_three(q, k, seat, known_in):
                    return

    def _give_three(self, q: int, k: int, seat: int, known_in: Mapping[int, set[int]]) -> bool:
        ck = self.ckeys
        fixed = known_in.get(q, set())
        have = [x for x in self.hands[q] if k in ck[x] and self._usable(q, x)]
        need = 3 - len(have)
        free = [i for i, x in enumerate(self.hands[q]) if x not in fixed and k not in ck[x]]
        donors: list[tuple[list[int], int]] = []  # (the list holding it, index)
        known_top = len(self.kstock[seat]) if 0 <= seat < self.players else 0
        for i in range(len(self.stock) - known_top):
            if k in ck[self.stock[i]] and self._usable(q, self.stock[i]):
                donors.append((self.stock, i))
        for p in range(self.players):
            if p in (q, seat):
                continue
            for i, x in enumerate(self.hands[p]):
                if k in ck[x] and self._usable(q, x) and x not in known_in.get(p, ()):
                    donors.append((self.hands[p], i))
        if need > len(donors) or need > len(free):
            return False
        for (where, i), slot in zip(donors[:need], free[:need], strict=False):
            where[i], self.hands[q][slot] = self.hands[q][slot], where[i]
            if self.nat[self.hands[q][slot]] & MISC:
                self._roll(self.hands[q][slot], [q])
        for p in range(self.players):
            if p != seat:
                self._recount(p)
        return True
