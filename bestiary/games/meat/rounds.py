"""A M.E.A.T. round, phase by phase as the manual reads: Rozpoczęcie
(leaders, once), Otwarcie (Opening: Telestarion, draft, destiny draw, hand
limit), Ustalanie taktyki (Tactics: simultaneous face-down placement, then an
INSTANT window), Aktywacja (reveal, pay, alternate activations), Bitwa
(battle) and Podsumowanie (summary). RULES.md lists every reading.
"""

from __future__ import annotations

from . import effects as fx
from .actions import PLACE, SET, Move
from .board import MeatBoard
from .cards import CLEAVE, FACTIONS, LANES, REFLEX, TOXIN, CardDef
from .phases import (
    D_ARMED,
    D_ATTACHED,
    D_DOWN,
    D_NONE,
    D_READY,
    D_UNPAID,
    P_ACTIVATION,
    P_DISCARD,
    P_DRAFT,
    P_PAY,
    P_RESPOND,
    P_TACTICS,
    P_WINDOW,
)


class MeatRound(MeatBoard):
    """The phases of a round; ``rules.MeatState`` asks them through ``apply``."""

    def draft_cost(self, seat: int, iid: int) -> int:
        cost = self.defs[self.kind[iid]].cost
        ld = self.leader[seat]
        if ld >= 0 and self.picks[seat] == 0:
            lead = self.cs.leaders[ld]
            if lead.passive == "draft_discount":
                cost = max(0, cost - lead.amount)
        return cost

    # -- Rozpoczęcie: leaders
    def _pick_leader(self, seat: int, li: int) -> None:
        self.leader[seat] = li
        lead = self.cs.leaders[li]
        if lead.passive == "faction_stat":
            f = FACTIONS.index(lead.faction)
            self.lb_atk[seat][f] += lead.attack
            self.lb_def[seat][f] += lead.defence
        if self.log.enabled:
            self.log.emit("leader", seat=seat, leader=lead.name)
        self.pos += 1
        if self.pos >= len(self.order):
            self._start_round()

    # -- Otwarcie: Telestarion, draft, destiny draw, hand limit
    def _start_round(self) -> None:
        self.round += 1
        n = self.players
        r = self.rules
        for s in range(n):
            bonus = 0
            ld = self.leader[s]
            if ld >= 0 and self.cs.leaders[ld].passive == "telestarion":
                bonus = self.cs.leaders[ld].amount
            self.tel[s] = (self.tel[s] if r.telestarion_carry_over else 0) + r.telestarion + bonus
        self.picks = [0] * n
        self.drafted = [[] for _ in range(n)]
        if self.log.enabled:
            self.log.emit("round", round=self.round, telestarion=list(self.tel))
        size = n // 2 * 6 + 3  # 9 / 15 / 21 cards for 2 / 4 / 6 players
        row = []
        for _ in range(size):
            c = self._draw_one(True)
            if c < 0:
                break
            row.append(c)
        self.row = row
        if self.log.enabled:
            self.log.emit("draft_row", cards=[self.name(c) for c in row])
        self.order = self.roll_order(list(range(n)), "draft")
        self.pos = 0
        self.phase = P_DRAFT
        self._next_drafter(first=True)

    def _can_draft(self, seat: int) -> bool:
        if not self.row:
            return False
        # The cheapest card decides (the leader's discount is the same for every card).
        cheapest = min(self.row, key=self.cost_of.__getitem__)
        return self.draft_cost(seat, cheapest) <= self.tel[seat]

    def _next_drafter(self, first: bool = False) -> None:
        """Advance to the next seat that can pay for a card; end the draft when
        ``draft_left`` cards remain or nobody can pay."""
        n = len(self.order)
        for step in range(0 if first else 1, n + 1):
            if len(self.row) <= self.rules.draft_left:
                break
            p = (self.pos + step) % n
            if self._can_draft(self.order[p]):
                self.pos = p
                return
        self._end_draft()

    def _draft(self, seat: int, k: int) -> None:
        iid = next(c for c in self.row if self.kind[c] == k)
        cost = self.draft_cost(seat, iid)
        self.row.remove(iid)
        self.tel[seat] -= cost
        self.picks[seat] += 1
        self.hand[seat].append(iid)
        self.drafted[seat].append(iid)
        f = self.fac[k]
        self.faction_count[seat][f] += 1
        if self.log.enabled:
            self.log.emit("drafted", seat=seat, card=self.name(iid), paid=cost)
        self._next_drafter()

    def _end_draft(self) -> None:
        if self.row and self.log.enabled:
            self.log.emit("to_graveyard", cards=[self.name(c) for c in self.row])
        self.cgrave.extend(self.row)
        self.row = []
        for s in reversed(self.order):
            extra = 0
            ld = self.leader[s]
            if ld >= 0 and self.cs.leaders[ld].passive == "destiny_draw":
                extra = self.cs.leaders[ld].amount
            self.draw(s, False, self.rules.destiny_draw + extra)
        self.phase = P_DISCARD
        self._maybe_end_discard()

    def over_limit(self, seat: int) -> int:
        """Cards ``seat`` must still choose to discard at the hand limit."""
        return len(self.hand[seat]) - len(self.dis_pick[seat]) - self.rules.hand_limit

    def _discard(self, seat: int, k: int) -> None:
        """One card chosen for the hand limit: "Wszystkie nadmiarowe karty
        natychmiast muszą zostać odrzucone" — every player over the limit at
        once, so the choice stays hidden (in hand, in ``dis_pick``) until every
        player has chosen; the others see only that this one is done."""
        picked = self.dis_pick[seat]
        iid = next(c for c in self.hand[seat] if self.kind[c] == k and c not in picked)
        picked.append(iid)
        if self.over_limit(seat) <= 0 and self.log.enabled:
            self.log.emit("ready", seat=seat)
        self._maybe_end_discard()

    def _maybe_end_discard(self) -> None:
        if self.to_act():
            return
        # All chosen: the cards go to their graveyards together, in seat order.
        for s in range(self.players):
            for iid in self.dis_pick[s]:
                self.hand[s].remove(iid)
                (self.cgrave if iid < self.ncre else self.dgrave).append(iid)
                if self.log.enabled:
                    self.log.emit("discarded", seat=s, card=self.name(iid))
            self.dis_pick[s] = []
        self._start_tactics()

    # -- Ustalanie taktyki
    def _start_tactics(self) -> None:
        self.phase = P_TACTICS
        n = self.players
        self.tac_stage = [0] * n
        self.tac_c = [[-1, -1, -1] for _ in range(n)]
        self.tac_d = [[] for _ in range(n)]
        for s in range(n):
            self._check_stage(s)
        if self.log.enabled:
            self.log.emit("tactics", round=self.round)

    def _check_stage(self, seat: int) -> None:
        """Step 1 ends when the three lanes are full or no creature is left in hand."""
        if self.tac_stage[seat] == 0:
            placed = self.tac_c[seat]
            left = any(i < self.ncre and i not in placed for i in self.hand[seat])
            if all(p >= 0 for p in placed) or not left:
                self.tac_stage[seat] = 1

    def _tactic(self, seat: int, m: Move) -> None:
        team = self.team(seat & 1)
        if m.kind == PLACE:
            iid = next(
                c for c in self.hand[seat] if self.kind[c] == m.a and c not in self.tac_c[seat]
            )
            self.tac_c[seat][m.b] = iid
            if self.log.enabled:
                self.log.emit("placing", to=team, seat=seat, card=self.name(iid), lane=LANES[m.b])
            self._check_stage(seat)
        elif m.kind == SET:
            iid = next(
                c for c in self.hand[seat] if self.kind[c] == m.a and c not in self.tac_d[seat]
            )
            self.tac_d[seat].append(iid)
            if self.log.enabled:
                self.log.emit("setting", to=team, seat=seat, card=self.name(iid))
        else:
            self.tac_stage[seat] = 2
            if self.log.enabled:
                self.log.emit("ready", seat=seat)
            if all(st == 2 for st in self.tac_stage):
                self._end_tactics()

    def _end_tactics(self) -> None:
        for s in range(self.players):
            for lane, iid in enumerate(self.tac_c[s]):
                if iid >= 0:
                    self.hand[s].remove(iid)
                    self.field[s * 3 + lane] = iid
                    self.up[s * 3 + lane] = False
            for iid in self.tac_d[s]:
                self.hand[s].remove(iid)
                self.dfield[s].append(iid)
                self.dstat[iid] = D_DOWN
            if self.log.enabled:
                self.log.emit(
                    "face_down",
                    seat=s,
                    lanes=[LANES[x] for x in range(3) if self.tac_c[s][x] >= 0],
                    destiny=len(self.tac_d[s]),
                )
        self.tac_c = [[-1, -1, -1] for _ in range(self.players)]
        self.tac_d = [[] for _ in range(self.players)]
        if self.rules.instant_windows:
            self._open_window("tactics")
        else:
            self._start_activation()

    # -- INSTANT windows and the response stack
    def _open_window(self, kind: str) -> None:
        first = self.first_team if kind == "battle" else (0 if self.vit[0] <= self.vit[1] else 1)
        n = self.players
        self.win_order = [(first + i) % n for i in range(n)]
        self.win_pos = 0
        self.win_passes = 0
        self.win_kind = kind
        self.phase = P_WINDOW
        if self.log.enabled:
            self.log.emit("window", what=kind)

    def _pass(self, seat: int, forced: bool = False) -> None:
        """``forced``: pass was the only legal move (no play left to make)."""
        ph = self.phase
        if ph == P_ACTIVATION:
            self.passed[seat] = True
            if self.log.enabled:
                if forced:
                    self.log.emit("passed", seat=seat, forced=True)
                else:
                    self.log.emit("passed", seat=seat)
            self._after_activation(seat)
        elif ph == P_WINDOW:
            self.win_passes += 1
            self.win_pos = (self.win_pos + 1) % self.players
            if self.win_passes >= self.players:
                self._close_window()
        elif ph == P_RESPOND:
            self.resp_pos += 1
            if self.resp_pos >= len(self.resp_order):
                self._resolve_stack()

    def _close_window(self) -> None:
        if self.win_kind == "tactics":
            self._start_activation()
        else:
            self._battle()

    def _cast(self, seat: int, k: int, t: int) -> None:
        d = self.defs[k]
        iid = next(c for c in self.hand[seat] if self.kind[c] == k)
        self.hand[seat].remove(iid)
        self.tel[seat] -= d.cost
        slot = t - 1
        if any(e.do == "counter" for e in d.effects):
            target_card = self.stack[-1][1]
        else:
            target_card = self.field[slot] if slot >= 0 else -1
        self.stack.append((seat, iid, slot, target_card))
        if self.log.enabled:
            self.log.emit(
                "cast",
                seat=seat,
                card=d.name,
                target=slot,
                target_card=self.shown_name(slot),
                paid=d.cost,
            )
        if self.phase != P_RESPOND:
            self.resume = self.phase
            self.phase = P_RESPOND
            if self.resume == P_ACTIVATION:
                self.acted[seat] = True
        n = self.players
        self.resp_order = [(seat + i) % n for i in range(1, n)]
        self.resp_pos = 0

    def _resolve_stack(self) -> None:
        """Last in, first out; a spell that lost its target fizzles ("jej efekt
        zostaje anulowany, a karta trafia na odpowiedni CMENTARZ")."""
        while self.stack and not self.over:
            seat, iid, slot, tcard = self.stack.pop()
            d = self.defs[self.kind[iid]]
            self.dgrave.append(iid)
            if any(e.do == "counter" for e in d.effects):
                hit = next((i for i, e in enumerate(self.stack) if e[1] == tcard), -1)
                if hit < 0:
                    if self.log.enabled:
                        self.log.emit("fizzled", seat=seat, card=d.name)
                else:
                    gone = self.stack.pop(hit)
                    self.dgrave.append(gone[1])
                    if self.log.enabled:
                        self.log.emit("countered", seat=seat, card=d.name, spell=self.name(gone[1]))
                continue
            if d.target and (slot < 0 or self.field[slot] != tcard):
                if self.log.enabled:
                    self.log.emit("fizzled", seat=seat, card=d.name)
                continue
            self._resolve(seat, d, slot)
            self.settle()
        self.stack.clear()
        if self.over:
            return
        self.phase = self.resume
        if self.phase == P_WINDOW:
            self.win_passes = 0
            self.win_pos = (self.win_pos + 1) % self.players
        elif self.phase == P_ACTIVATION:
            self._next_turn()

    # -- Aktywacja
    def _start_activation(self) -> None:
        self.phase = P_ACTIVATION
        n = self.players
        if self.vit[0] != self.vit[1]:
            self.first_team = 0 if self.vit[0] < self.vit[1] else 1
        else:
            self.first_team = self.roll_order([0, 1], "first side")[0]
        self.act_team = self.first_team
        for s in range(n * 3):
            if self.field[s] >= 0:
                self.up[s] = True
        for s in range(n):
            for c in self.dfield[s]:
                self.dstat[c] = D_UNPAID
        if self.log.enabled:
            reveal = [
                {"slot": s, "card": self.name(self.field[s])}
                for s in range(n * 3)
                if self.field[s] >= 0
            ]
            destiny = {str(s): [self.name(c) for c in self.dfield[s]] for s in range(n)}
            self.log.emit("revealed", creatures=reveal, destiny=destiny)
        seats = [*self.team(self.first_team), *self.team(self.first_team ^ 1)]
        self._reveal_abilities(seats)
        if self.over:
            return
        # Pay for destiny cards; a player who cannot pay for all of them chooses
        # which to pay, and the rest go to the graveyard unresolved. "Gracze
        # odkrywają wszystkie zagrane przez siebie karty, a następnie opłacają
        # koszty": all players pay at once, so the choices stay hidden
        # (``pay_pick``) until every player has chosen (``_pay_choice``).
        self.pay_owed = [False] * n
        self.pay_order = seats
        for s in seats:
            down = self.dfield[s]
            if sum(self.defs[self.kind[c]].cost for c in down) <= self.tel[s]:
                for iid in list(down):
                    self._pay(s, iid)
            else:
                self.pay_owed[s] = True
                self._check_paid(s)
        if any(self.pay_owed):
            self.phase = P_PAY
        else:
            self._begin_turns()

    def _reveal_abilities(self, seats: list[int]) -> None:
        """ODKRYCIE fires when the card is turned up (side that starts first,
        seat order, lanes left to right). A creature brought to 0 defence "karta
        natychmiast zostaje przeniesiona na stos CMENTARZA": it dies before the
        next ability, so its own REVEAL never fires, and destiny cards are not
        paid yet, so a Zemsta paid later does not fire for it."""
        order = [self.field[s * 3 + x] for s in seats for x in range(3)]
        for iid in order:
            if iid < 0 or iid not in self.field:
                continue  # dead or returned by an earlier REVEAL
            d = self.defs[self.kind[iid]]
            if not d.reveal:
                continue
            slot = self.field.index(iid)
            if self.log.enabled:
                self.log.emit("reveal_ability", slot=slot, card=d.name)
            toxin = bool(self.keywords(slot) & TOXIN)
            fx.run(self, d.reveal, slot // 3, src=slot, toxin=toxin, source=d.name)
            self.settle()
            if self.over:
                return

    def _pay(self, seat: int, iid: int) -> None:
        d = self.defs[self.kind[iid]]
        self.tel[seat] -= d.cost
        self.dstat[iid] = D_READY if d.on == "play" else D_ARMED
        if self.log.enabled:
            self.log.emit("paid", seat=seat, card=d.name, cost=d.cost)

    def _unpaid(self, seat: int) -> list[int]:
        """The destiny cards ``seat`` has neither paid nor chosen to pay."""
        picked = self.pay_pick[seat]
        return [c for c in self.dfield[seat] if self.dstat[c] == D_UNPAID and c not in picked]

    def pay_left(self, seat: int) -> int:
        """``seat``'s Telestarion less the cards it has chosen to pay."""
        return self.tel[seat] - sum(self.defs[self.kind[c]].cost for c in self.pay_pick[seat])

    def affordable(self, seat: int) -> list[int]:
        """The unpaid cards ``seat`` may still choose to pay."""
        left = self.pay_left(seat)
        return [c for c in self._unpaid(seat) if self.defs[self.kind[c]].cost <= left]

    def _check_paid(self, seat: int) -> None:
        """A player's choice ends when nothing left can be paid (the rest will
        be discarded unpaid); with no choice to make, that happens at once."""
        if self.affordable(seat):
            return
        self.pay_owed[seat] = False
        if not self.pay_pick[seat]:
            self._settle_payment(seat)  # nothing was chosen: nothing is hidden
        elif self.log.enabled:
            self.log.emit("ready", seat=seat)

    def _settle_payment(self, seat: int) -> None:
        """Pay the chosen cards and discard the rest, unresolved."""
        for iid in self.pay_pick[seat]:
            self._pay(seat, iid)
        self.pay_pick[seat] = []
        for iid in self._unpaid(seat):
            self.dfield[seat].remove(iid)
            self.dstat[iid] = D_NONE
            self.dgrave.append(iid)
            if self.log.enabled:
                self.log.emit("unpaid", seat=seat, card=self.name(iid))

    def _pay_choice(self, seat: int, k: int) -> None:
        iid = next(c for c in self._unpaid(seat) if self.kind[c] == k)
        self.pay_pick[seat].append(iid)
        self._check_paid(seat)
        if not any(self.pay_owed):
            # Every choice is in: shown and paid together, in the order of the
            # payments that needed no choice (the side that starts first).
            for s in self.pay_order:
                if self.pay_pick[s]:
                    self._settle_payment(s)
            self._begin_turns()

    def _begin_turns(self) -> None:
        self.phase = P_ACTIVATION
        self.settle()
        if self.over:
            return
        n = self.players
        self.passed = [False] * n
        self.acted = [False] * n
        if self.log.enabled:
            self.log.emit(
                "activation", first_team=self.first_team, seats=self.team(self.first_team)
            )

    def _ability(self, seat: int, lane: int, t: int) -> None:
        slot = seat * 3 + lane
        iid = self.field[slot]
        d = self.defs[self.kind[iid]]
        a = self.ability_of(iid)
        assert a is not None
        self.tel[seat] -= a.cost
        self.used[iid] = True
        if self.log.enabled:
            self.log.emit(
                "ability",
                seat=seat,
                card=d.name,
                lane=LANES[lane],
                target=t - 1,
                target_card=self.shown_name(t - 1),
                paid=a.cost,
            )
        toxin = bool(self.keywords(slot) & TOXIN)
        fx.run(self, a.effects, seat, src=slot, target=t - 1, toxin=toxin, source=d.name)
        self.settle()

    def _resolve_destiny(self, seat: int, k: int, t: int) -> None:
        iid = next(c for c in self.dfield[seat] if self.kind[c] == k and self.dstat[c] == D_READY)
        d = self.defs[k]
        slot = t - 1
        self.dfield[seat].remove(iid)
        if d.type == "equipment":
            target = self.field[slot]
            self.dstat[iid] = D_ATTACHED
            self.attached_to[iid] = target
            self.atk_mod[target] += d.attack
            self.def_mod[target] += d.defence
            self.kw_extra[target] |= d.keywords
            if self.log.enabled:
                self.log.emit(
                    "attached",
                    seat=seat,
                    card=d.name,
                    target=slot,
                    target_card=self.shown_name(slot),
                    fusion=d.fusion,  # the log says "fuses" only for FUSION (issue 29)
                )
        else:
            self.dstat[iid] = D_NONE
            self.dgrave.append(iid)
            self._resolve(seat, d, slot)
        self.settle()

    def _resolve(self, seat: int, d: CardDef, slot: int) -> None:
        """A spell from the stack or a destiny card takes effect on ``slot``."""
        if self.log.enabled:
            self.log.emit(
                "resolved", seat=seat, card=d.name, target=slot, target_card=self.shown_name(slot)
            )
        fx.run(self, d.effects, seat, target=slot, source=d.name)

    def _after_activation(self, seat: int) -> None:
        if self.over:
            return
        self.acted[seat] = True
        self._next_turn()

    def _next_turn(self) -> None:
        """Sides alternate, one action per player; passing ends your activations."""
        if all(self.passed):
            if self.rules.instant_windows:
                self._start_battle_window()
            else:
                self._battle()
            return
        team = self.act_team
        other = team ^ 1
        for t in (other, team):
            members = [s for s in range(t, self.players, 2) if not self.passed[s]]
            if members:
                if all(self.acted[s] for s in members):
                    for s in members:
                        self.acted[s] = False
                self.act_team = t
                return

    # -- Bitwa
    def _start_battle_window(self) -> None:
        self._battle_triggers()
        if self.over:
            return
        self._open_window("battle")

    def _battle_triggers(self) -> None:
        if self.triggered_round == self.round:
            return
        self.triggered_round = self.round
        for s in [*self.team(self.first_team), *self.team(self.first_team ^ 1)]:
            self._fire_armed(s, "battle")
        self.settle()

    def _battle(self) -> None:
        self._battle_triggers()
        if self.over:
            return
        if self.log.enabled:
            self.log.emit("battle", round=self.round)
        self.fight()
        if not self.over:
            self._summary()

    #: The two passes of a battle: REFLEKS strikes first ("zadaje obrażenia
    #: jako pierwsza"), two REFLEX creatures strike together, then the rest.
    STRIKES = (True, False)

    def fight(self) -> None:
        """The battle's damage, without its triggers and summary (the look-ahead
        and the what-if tool use it too)."""
        for reflex in self.STRIKES:
            if self.over:
                return
            self._strike(reflex)

    def _strike(self, reflex: bool) -> None:
        hits: list[tuple[int, int, bool, str]] = []
        idle: list[int] = []  # creatures with nobody opposite (for the log)
        f = self.field
        for slot in range(self.players * 3):
            iid = f[slot]
            if iid < 0:
                continue
            kw = self.keywords(slot)
            if bool(kw & REFLEX) != reflex:
                continue
            o = fx.opposite(slot)
            if f[o] < 0:
                idle.append(slot)
                continue  # nobody opposite: no attack
            a = self.attack(slot)
            if a <= 0:
                continue
            aims = [o]
            if kw & CLEAVE:
                aims += [b for b in fx.beside(o) if f[b] >= 0]
            for t in aims:
                hits.append((t, a, bool(kw & TOXIN), self.name(iid)))
        if self.log.enabled:
            # The whole battle in the log: who strikes first, who has nobody to fight.
            if reflex and hits:
                self.log.emit("reflex", cards=sorted({src for _, _, _, src in hits}))
            for slot in idle:
                self.log.emit("unopposed", slot=slot, card=self.shown_name(slot))
        for t, a, tox, src in hits:
            self.hurt(t, a, tox, src)
        self.settle()

    # -- Podsumowanie
    def round_winner(self) -> tuple[int, list[int], list[int]]:
        """Podsumowanie 1: more creatures alive wins; tie: more total defence;
        tie again: a draw (-1). Returns (winning team, alive, total defence)."""
        alive = [0, 0]
        total = [0, 0]
        for slot in range(self.players * 3):
            if self.field[slot] >= 0:
                t = (slot // 3) & 1
                alive[t] += 1
                total[t] += self.defence(slot)
        if alive[0] != alive[1]:
            win = 0 if alive[0] > alive[1] else 1
        elif total[0] != total[1]:
            win = 0 if total[0] > total[1] else 1
        else:
            win = -1
        return win, alive, total

    def _summary(self) -> None:
        win, alive, total = self.round_winner()
        dice: list[int] = []
        bonus = 0
        if win >= 0:
            self.rounds_won[win] += 1
            dice = [self.rng.randint(1, 6) for _ in range(alive[win])]
            for s in self.team(win):
                ld = self.leader[s]
                has = any(self.field[s * 3 + x] >= 0 for x in range(3))
                if ld >= 0 and has and self.cs.leaders[ld].passive == "summary_bonus":
                    bonus += self.cs.leaders[ld].amount
        if self.log.enabled:
            self.log.emit(
                "summary",
                alive=alive,
                defence=total,
                winner=win,
                dice=dice,
                bonus=bonus,
                teams=[self.team(0), self.team(1)],
            )
        if win >= 0 and (dice or bonus):
            self.change_vitality(win ^ 1, -(sum(dice) + bonus), "summary")
        self._cleanup()
        if self.over:
            return
        if self.round >= self.rules.max_rounds:
            v0, v1 = self.vit
            self._finish(-1 if v0 == v1 else (0 if v0 > v1 else 1))
        else:
            self._start_round()

    def _cleanup(self) -> None:
        """The battlefield goes to the graveyards without triggering anything."""
        for slot in range(self.players * 3):
            if self.field[slot] >= 0:
                self.leave_field(slot)
        for s in range(self.players):
            for iid in self.dfield[s]:
                self.dstat[iid] = D_NONE
                self.dgrave.append(iid)
            self.dfield[s] = []
