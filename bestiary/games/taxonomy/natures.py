"""The natures of monsters: what a card does when it is discarded or drawn,
and the effect queue that resolves them in turn.

"Monsters have different personalities, so they react differently to being
discarded or drawn from the deck." Effects go through one FIFO queue; an
effect that needs a decision (an aggressive target, a duel, an impatient
extra draw) stops the queue until it is made. When the queue is empty the
hand-size rule applies (reading 4): more than 8 -> the owner discards (and
may declare a win or table a drawn card); fewer -> a draw; exactly 8 -> the
turn ends (the turn loop, ``TaxonomyState._run`` in ``rules.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import RPS_NAMES
from .board import Board
from .cards import (
    AGGRESSIVE,
    CHEERFUL,
    HONEST,
    IMPATIENT,
    MEAN,
    MISC,
    NATURE_BIT,
    NATURES,
    PROUD,
)
from .phases import ATTACK_CHOICE, DUEL, IMPATIENT_CHOICE, MAIN

# Effect queue items: (effect, card).
E_AGG, E_CHEER, E_MEAN, E_PROUD, E_HONEST, E_IMPATIENT = range(6)
_DISCARD_EFFECTS = ((AGGRESSIVE, E_AGG), (CHEERFUL, E_CHEER), (MEAN, E_MEAN), (PROUD, E_PROUD))
_DISCARD_NATURES = AGGRESSIVE | CHEERFUL | MEAN | PROUD
_DRAW_NATURES = HONEST | IMPATIENT
# The discard effects of every mask of natures, in that order (reading 5),
# worked out once for the discard's hot path.
_DISCARD_EFFECTS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(effect for bit, effect in _DISCARD_EFFECTS if m & bit) for m in range(1 << len(NATURES))
)


class Natures(Board):
    """Drawing and discarding, and the natures they set off."""

    def _roll(self, c: int, to: Sequence[int] | None) -> None:
        """ "Roll 2 20 wall dice and subtract 4 [...] The result after the
        subtraction indicates what nature this monster has." Rolls outside the
        list are rolled again; the result holds until the deck is reshuffled."""
        table = self.deck.natures
        while True:
            r = self.rng.roll(table.dice)
            nature = table.nature_of_roll(r)
            if nature is not None:
                break
        bit = NATURE_BIT.get(nature, 0)
        self.nat[c] = (self.nat[c] & ~MISC) | bit
        self.roll[c] = r
        self._cc[c] = None
        if bit == CHEERFUL and self.deck.cheerful_key not in self.ckeys[c]:
            self.ckeys[c] = (*self.ckeys[c], self.deck.cheerful_key)
        if self.log.enabled:
            self.log.emit("rolled", to=to, card=self.deck.names[c], roll=r, nature=nature)

    def _draw(self, s: int) -> bool:
        """Draw the top of the stock (False: the stock ran out and the round ended)."""
        stock = self.stock
        if not stock:
            # Reading 6: "The stock running out ends the round with no winner."
            self._end_round(None, None, "the stock ran out")
            return False
        c = stock.pop()
        if c in self.watched:
            self._drawn_from_stock(s, c)
        m = self.nat[c]
        if m & MISC:
            self._roll(c, [s])
            m = self.nat[c]
        self.hands[s].append(c)
        bans = self.bans[s]
        if not bans or self.group_of[c] not in bans:  # a banned type is not collected
            kc, hk = self.kc[s], self.hk[s]
            for k in self.ckeys[c]:
                x = hk[k] = hk[k] + 1
                if x == 3:
                    self.threes[k] += 1
                x = kc[k] = kc[k] + 1
                if x == 4:
                    self.big[s] += 1
        self.drawn.append(c)
        self.fresh_draw = True
        if self.log.enabled:
            self.log.emit("drew", to=[s], seat=s, card=self._card(c))
            self.log.emit("drew", to=self.after[s], seat=s)  # the other seats
        if m & _DRAW_NATURES:
            if m & HONEST:
                self.queue.append((E_HONEST, c))
            if m & IMPATIENT:
                self.queue.append((E_IMPATIENT, c))
        return True

    def _discard(self, s: int, c: int, why: str) -> None:
        """Discard ``c`` from the hand of ``s``; its natures join the effect queue."""
        self.hands[s].remove(c)
        if c in self.watched:
            self._left_hand(s, c)
        bans = self.bans[s]
        if not bans or self.group_of[c] not in bans:
            kc, hk = self.kc[s], self.hk[s]
            for k in self.ckeys[c]:
                x = hk[k] = hk[k] - 1
                if x == 2:
                    self.threes[k] -= 1
                x = kc[k] = kc[k] - 1
                if x == 3:
                    self.big[s] -= 1
        m = self.nat[c]
        if m & PROUD:
            # "Set the proud monster aside so that you can see what type you can no longer collect."
            self.aside[s].append(c)
        else:
            self.discards.append(c)
            self.last_discard = c
        if self.log.enabled:
            self.log.emit("discarded", seat=s, card=self._card(c), why=why, aside=bool(m & PROUD))
        if m & _DISCARD_NATURES:
            queue = self.queue
            for effect in _DISCARD_EFFECTS_OF[m]:
                queue.append((effect, c))

    def _effect(self, s: int, effect: int, c: int) -> bool:
        """Resolve one queued effect of ``s``'s card ``c`` (the turn loop in
        ``rules.py`` takes them off the queue in order). True: it needs a
        decision, whose phase is now set."""
        if effect == E_AGG:
            # "when discarded, such a monster can be sent to another player"
            self.attack_card = c
            self._set_phase(ATTACK_CHOICE, (s,))
            return True
        if effect == E_CHEER:
            self._cheerful(s)
        elif effect == E_MEAN:
            # "causes him to have to discard an additional random card"
            hand = self.hands[s]
            if hand:
                self._discard(s, hand[self.rng.randrange(len(hand))], "mean")
        elif effect == E_PROUD:
            self._proud(s, c)
        elif effect == E_HONEST:
            self._peek(s)
        elif effect == E_IMPATIENT and self.stock:
            # "when you draw an impatient monster, you can immediately draw another card"
            self._set_phase(IMPATIENT_CHOICE, (s,))
            return True
        return False

    def _cheerful(self, s: int) -> None:
        """ "After discarding 1 merry monster, you must discard them all." """
        nat = self.nat
        for o in [x for x in self.hands[s] if nat[x] & CHEERFUL]:
            if o in self.hands[s]:
                self._discard(s, o, "cheerful")

    def _proud(self, s: int, c: int) -> None:
        """ "You must discard all cards with the same type as the proud monster.
        Additionally, you can no longer collect cards with this type for the
        rest of the game." (A Beastman's "type" is its family: reading 1.)"""
        group_of = self.group_of
        g = group_of[c]
        for o in [x for x in self.hands[s] if group_of[x] == g]:
            if o in self.hands[s]:
                self._discard(s, o, "proud")
        if g not in self.bans[s]:
            self.bans[s].add(g)
            # No card of the type is left in hand: only table sets can hold one
            # whose count the ban takes away.
            if any(group_of[x] == g for _, cs in self.tables[s] for x in cs):
                self._recount(s)
            if self.log.enabled:
                self.log.emit("banned", seat=s, group=self.deck.group_names[g])

    def _peek(self, s: int) -> None:
        """ "Look at 3 cards from the stack and then put them down" (in order)."""
        top = self.stock[-self.rules.peek :][::-1]
        for c in top:
            if self.nat[c] & MISC:
                self._roll(c, [s])
        self._learn()
        self.kstock[s] = top
        self.watched.update(top)
        self.peeks[s] = (tuple(top), len(self.stock))
        if self.log.enabled:
            self.log.emit("peeked", to=[s], seat=s, cards=list(map(self._card, top)))

    def _resolve_duel(self) -> None:
        assert self.duel is not None
        a, t, _ = self.duel
        ca, ct = self.duel_choice[a], self.duel_choice[t]
        if ca == ct:
            self.duel_ties += 1
            if self.log.enabled:
                self.log.emit("rps", attacker=a, target=t, choices=[RPS_NAMES[ca]] * 2, loser=None)
            if self.rules.rps_ties == "repeat":
                self.duel_choice = {}
                self._set_phase(DUEL, (a, t))
                return
            loser = None
        else:
            loser = t if (ca - ct) % 3 == 1 else a
            if self.log.enabled:
                self.log.emit(
                    "rps",
                    attacker=a,
                    target=t,
                    choices=[RPS_NAMES[ca], RPS_NAMES[ct]],
                    loser=loser,
                )
            self.skips[loser] += 1
        self.duel = None
        self.duel_choice = {}
        self.phase = MAIN  # placeholder until _run sets the next phase
        self._run()
