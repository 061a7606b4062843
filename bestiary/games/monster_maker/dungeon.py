"""A Monster Maker dungeon as the rulebook's §3 reads it: the turn (draw,
traps), the main actions (corridors, monsters, discards, passing) and the free
ones (dispels, detours, the Secret Door), treasure, the road home, and the end
of a dungeon and of the game (§5).
"""

from __future__ import annotations

from typing import Any

from .actions import Move
from .board import CAUSES, MonsterMakerBoard
from .phases import BACK, HOME, OUT, TRAP_LOSS
from .road import lands_back, lands_out_and_back
from .scoring import goddess_keeps, roll_gold

# A guard against a table that never gets anyone home while the treasure
# stays in the pile (the rulebook's game ends only when a pile runs out).
DUNGEON_GUARD = 12


class MonsterMakerDungeon(MonsterMakerBoard):
    """The turn and everything but battles (``combat.py``)."""

    # ------------------------------------------------------------ turn flow
    def _start_turn(self, seat: int) -> None:
        """§3 <Turn>: "When your turn comes, draw a card"; §3 <Endgame>: no draws."""
        self.turn = seat
        self.turns += 1
        self._reset_turn()
        self.phase = "turn"
        if not self.endgame and not self.deck:
            self._begin_endgame("the draw pile is exhausted")
        if self.endgame:
            # A monster placed since, or a corridor played, may have left the
            # party unable to return: it dies before it would choose.
            if self._die_if_stuck(seat):
                self._next_turn()
            return
        card = self.deck.pop()
        if self.cs.cards[card].kind == "trap":
            # "If you draw a trap card, you must show it to the other players."
            self.trap = card
            if self.log.enabled:
                self.log.emit("trap", seat=seat)
            if not self.hands[seat]:
                self._discard(card)
                self.trap = -1
                if self.log.enabled:
                    self.log.emit("trap_empty", seat=seat)
            else:
                self.phase = "trap"
                self.to_lose = TRAP_LOSS
            return
        self.hands[seat].append(card)
        if self.log.enabled:
            self.log.emit("drew", to=[seat], seat=seat, card=self.cs.cards[card].name)
            others = [s for s in range(self.players) if s != seat]
            self.log.emit("drew", to=others, seat=seat)

    def _begin_endgame(self, reason: str) -> None:
        if not self.endgame:
            self.endgame = True
            self.passes = 0
            if self.log.enabled:
                self.log.emit("endgame", reason=reason, cause=CAUSES.get(reason, ""))

    def _end_turn(self) -> None:
        seat = self.turn
        if self.charmed >= 0:  # not sent on: the charmed monster is discarded
            self._discard(self.charmed)
            self.charmed = -1
        if self.endgame:
            self._die_if_stuck(seat)
        self._next_turn()

    def _die_if_stuck(self, seat: int) -> bool:
        """§3 <Endgame>: "you must return from the dungeon with only the cards in
        hand. When a player runs out of cards during endgame, his game is over.
        Any party that is unable to return from the dungeon, dies inside of it."
        True when ``seat`` died now (RULES.md, Endgame)."""
        if self.status[seat] not in (OUT, BACK):
            return False
        if not self.hands[seat]:
            self._kill(seat, "out of cards in the endgame")
            return True
        if not self.can_return(seat):
            self._kill(seat, "cannot return from the dungeon")
            return True
        return False

    def can_return(self, seat: int) -> bool:
        """Whether the cards ``seat`` holds can still take its party home with no
        draw (the endgame's question): the monster before it, if any, can be
        removed — a fight the party's best rolls could win, a dispel of an
        undead, a detour — and some corridors in hand land the road exactly
        (reaching the treasure room first when still on the way out)."""
        cards = self.cs.cards
        hand = self.hands[seat]
        blocked = self.monster[seat] >= 0
        detour = blocked and any(cards[c].kind == "detour" for c in hand)
        if blocked and not detour and not self._could_remove(seat):
            return False
        corridors = [cards[c].value for c in hand if cards[c].kind == "corridor"]
        # A 2nd-edition detour also takes back the last corridor laid: another road.
        last = self.back[seat] if self.status[seat] == BACK else self.out[seat]
        undo = [0]
        if detour and self.rules.detour_edition == 2 and last:
            undo.append(cards[last[-1]].value)
        for u in undo:
            if self.status[seat] == BACK:
                if lands_back(corridors, self.target(seat) - self.dist_back[seat] + u):
                    return True
            else:
                out = self.dist_out[seat] - u
                if lands_out_and_back(corridors, self.room - out, out, self.extra[seat]):
                    return True
        return False

    def _could_remove(self, seat: int) -> bool:
        """The monster before ``seat`` can be removed with its cards (a detour
        aside): dispelled as an undead, or beaten by the best the party's
        characters, spells and weapons could roll together."""
        cards, hand = self.cs.cards, self.hands[seat]
        if self._is_undead(seat) and (
            any(cards[c].has("dispels_undead") for c in hand)
            or any(self.cs.treasures[t].dispels_undead for t in self.held[seat])
        ):
            return True
        if not any(cards[c].kind == "character" for c in hand):
            return False
        best = 0
        for c in hand:
            st = self.strength[c]
            if st is not None and cards[c].kind in ("character", "spell"):
                best += max(st.distribution())
        if self.status[seat] == BACK:
            best += sum(max(0, self.cs.treasures[t].weapon_bonus) for t in self.held[seat])
        return best - self.battle_penalty(seat) >= cards[self.monster[seat]].value

    def _active(self) -> list[int]:
        return [s for s in range(self.players) if self.status[s] in (OUT, BACK)]

    def _next_turn(self) -> None:
        active = self._active()
        if not active:
            self._end_dungeon()
            return
        if self.endgame and self.passes >= len(active):
            # A guard, never met in play: in the endgame `pass` is offered only
            # to a party with no other move, which cannot return and dies at
            # its turn (can_return). Were every party below to pass in a row
            # all the same, nothing could change any more.
            for s in active:
                self._kill(s, "cannot return from the dungeon")
            self._end_dungeon()
            return
        s = self.turn
        for _ in range(self.players):
            s = (s + 1) % self.players
            if self.status[s] in (OUT, BACK):
                self._start_turn(s)
                return

    # ------------------------------------------------------------ trap
    def _do_avoid(self, seat: int, m: Move) -> None:
        """§3 <Trap>: "By discarding the thief, you may also place the failed trap
        in the discard pile." """
        self._take(seat, m.a)
        self._discard(m.a)
        self._discard(self.trap)
        if self.log.enabled:
            self.log.emit("avoided", seat=seat, card=self.cs.cards[m.a].name)
        self.trap = -1
        self.phase = "turn"

    def _do_lose(self, seat: int, m: Move) -> None:
        """§3 <Trap>: "Choose and discard three of your cards ... along with the trap card." """
        self._take(seat, m.a)
        self._discard(m.a)
        self.to_lose -= 1
        if self.log.enabled:
            self.log.emit("lost", seat=seat, card=self.cs.cards[m.a].name)
        if self.to_lose == 0 or not self.hands[seat]:
            self._discard(self.trap)
            self.trap = -1
            self.phase = "turn"

    # ------------------------------------------------------------ main actions
    def _main_done(self, passed: bool = False) -> None:
        self.passes = self.passes + 1 if passed else 0
        self._end_turn()

    def _do_pass(self, seat: int, m: Move) -> None:
        if self.log.enabled:
            self.log.emit("pass", seat=seat)
        self._main_done(passed=True)

    def _do_discard(self, seat: int, m: Move) -> None:
        """§3 <Turn> 4): "choose one card and place it in the discard pile." """
        self._take(seat, m.a)
        self._discard(m.a)
        if self.log.enabled:
            self.log.emit("discard", seat=seat, card=self.cs.cards[m.a].name)
        if self.phase == "discard":  # the dispel before it was the turn's action
            self._main_done()
            return
        # A card spent: not a pass (the endgame's hands only shrink, so the
        # dungeon ends; RULES.md, Endgame).
        self._main_done()

    def _do_corridor(self, seat: int, m: Move) -> None:
        card = self.cs.cards[m.a]
        self._take(seat, m.a)
        if self.status[seat] == OUT:
            self.out[seat].append(m.a)
            self.dist_out[seat] += card.value
            if self.log.enabled:
                self.log.emit(
                    "corridor", seat=seat, perch=card.value, leg="out", distance=self.dist_out[seat]
                )
            if self.dist_out[seat] >= self.room:
                self._arrive(seat)
                if self.phase == "door":
                    return
        else:
            self.back[seat].append(m.a)
            self.door_open[seat] = False  # the road back has begun
            self.dist_back[seat] += card.value
            if self.log.enabled:
                self.log.emit(
                    "corridor",
                    seat=seat,
                    perch=card.value,
                    leg="back",
                    distance=self.dist_back[seat],
                    target=self.target(seat),
                )
            if self.dist_back[seat] == self.target(seat):
                self._home(seat)
        self._main_done()

    def _do_monster(self, seat: int, m: Move) -> None:
        """§3 <Turn> 2): place a monster in front of an opponent's corridor that has none."""
        self._take(seat, m.a)
        self.monster[m.b] = m.a
        if self.log.enabled:
            card = self.cs.cards[m.a]
            self.log.emit(
                "monster",
                seat=seat,
                target=m.b,
                monster=card.name,
                strength=card.value,
                type=card.mtype or "",
            )
        self._main_done()

    # ------------------------------------------------------------ free (or not) actions
    def _free_or_main(self, costs_action: bool) -> None:
        if not costs_action:
            self.passes = 0
        elif len(self.hands[self.turn]) > self.rules.hand_limit:
            # "You may not have 8 or more cards at the end of your turn": a
            # treasure dispel keeps every card, so the player discards first.
            self.passes = 0
            self.phase = "discard"
        else:
            self._main_done()

    def _do_dispel(self, seat: int, m: Move) -> None:
        """<Cleric> 1): "Automatically dispels an Undead monster (discard both cards)." """
        mon = self.monster[seat]
        self._take(seat, m.a)
        self._discard(m.a)
        self._discard(mon)
        self.monster[seat] = -1
        if self.log.enabled:
            self.log.emit(
                "dispel", seat=seat, monster=self.cs.cards[mon].name, card=self.cs.cards[m.a].name
            )
        self._free_or_main(self.rules.dispel_costs_action)

    def _do_tdispel(self, seat: int, m: Move) -> None:
        """Holy Coffin / Sacred Goblet: "Can dispel any Undead" and are not used up."""
        mon = self.monster[seat]
        self._discard(mon)
        self.monster[seat] = -1
        self.shown[seat].add(m.a)
        if self.log.enabled:
            self.log.emit(
                "dispel",
                seat=seat,
                monster=self.cs.cards[mon].name,
                treasure=self.cs.treasures[m.a].name,
            )
        self._free_or_main(self.rules.dispel_costs_action)

    def _do_detour(self, seat: int, m: Move) -> None:
        """<Detour>: discard the detour and the monster; 2nd edition: and your last corridor."""
        det = next(c for c in self.hands[seat] if self.cs.cards[c].kind == "detour")
        mon = self.monster[seat]
        self._take(seat, det)
        self._discard(det)
        self._discard(mon)
        self.monster[seat] = -1
        removed = None
        if self.rules.detour_edition == 2:
            # On the road back the most recent corridor is a return one; the
            # outward distance was fixed when the treasure room was announced.
            if self.status[seat] == BACK:
                if self.back[seat]:
                    c = self.back[seat].pop()
                    self.dist_back[seat] -= self.cs.cards[c].value
                    self._discard(c)
                    removed = self.cs.cards[c].value
            elif self.out[seat]:
                c = self.out[seat].pop()
                self.dist_out[seat] -= self.cs.cards[c].value
                self._discard(c)
                removed = self.cs.cards[c].value
        if self.log.enabled:
            self.log.emit("detour", seat=seat, monster=self.cs.cards[mon].name, removed=removed)
        self._free_or_main(self.rules.detour_costs_action)

    # ------------------------------------------------------------ treasure
    def _arrive(self, seat: int) -> None:
        """<Treasure Cards>: 100p or more: "Treasure Room", draw one treasure card."""
        self.status[seat] = BACK
        if self.log.enabled:
            self.log.emit("treasure_room", seat=seat, distance=self.dist_out[seat])
        self._gain_treasure(seat)
        # Asked whenever the door is open and the hand is not empty: whether it
        # holds a Thief or Dwarf is the player's secret (to_act is public).
        if self.door_open[seat] and self.hands[seat]:
            self.phase = "door"

    def _draw_treasure(self) -> int:
        while self.treasure_pile:
            t = self.treasure_pile.pop()
            tt = self.cs.treasures[t]
            if tt.once_per_game:
                # "redraw them if they are drawn a second time"
                if t in self.drawn_once:
                    self.removed.append(t)
                    if self.log.enabled:
                        self.log.emit("set_aside", treasure=tt.name)
                    continue
                self.drawn_once.add(t)
            return t
        return -1

    def _gain_treasure(self, seat: int) -> None:
        t = self._draw_treasure()
        if t < 0:
            if self.log.enabled:
                self.log.emit("no_treasure", seat=seat)
            return
        tt = self.cs.treasures[t]
        self.held[seat].append(t)
        if not tt.open:
            if self.log.enabled:
                self.log.emit("treasure", to=[seat], seat=seat, treasure=tt.name)
                others = [s for s in range(self.players) if s != seat]
                self.log.emit("treasure", to=others, seat=seat)
            return
        # OPEN: "show the card to everyone, and follow the directions".
        self.shown[seat].add(t)
        self.extra[seat] += tt.return_penalty
        info: dict[str, Any] = {}
        if tt.special == "goddess":
            r = self.rng.roll("1D")
            info["roll"] = r
            if not goddess_keeps(r):
                self.worthless.add(t)
        if self.log.enabled:
            self.log.emit("treasure", seat=seat, treasure=tt.name, open=True, **info)
        if tt.special == "secret_door":
            self.door_open[seat] = True

    def _do_door(self, seat: int, m: Move) -> None:
        """Secret Door: discard it and a Thief or Dwarf, "and receive two treasure cards"."""
        self._take(seat, m.a)
        self._discard(m.a)
        door = next(t for t in self.held[seat] if self.cs.treasures[t].special == "secret_door")
        self.held[seat].remove(door)
        self.shown[seat].discard(door)
        self.removed.append(door)
        self.door_open[seat] = False
        if self.log.enabled:
            self.log.emit("door", seat=seat, card=self.cs.cards[m.a].name)
        self._gain_treasure(seat)
        self._gain_treasure(seat)
        if self.phase == "door":  # on arrival: the corridor was the turn's action
            self.phase = "turn"
            self._main_done()

    def _do_leave_door(self, seat: int, m: Move) -> None:
        self.phase = "turn"
        self._main_done()

    def _home(self, seat: int) -> None:
        """<The Road Back> / <Prize Cards>: home; the first home draws a prize."""
        self.status[seat] = HOME
        self.shown[seat] = set(self.held[seat])
        prize = None
        if self.first_home < 0:
            self.first_home = seat
            if self.prize_pile:
                p = self.prize_pile.pop()
                self.prizes[seat].append(p)
                prize = self.cs.prizes[p].name
        if self.log.enabled:
            self.log.emit(
                "home",
                seat=seat,
                treasures=[self.cs.treasures[t].name for t in self.held[seat]],
                # a Statue of Goddess's roll was shown to everyone when it was drawn
                worthless=[
                    self.cs.treasures[t].name for t in self.held[seat] if t in self.worthless
                ],
                prize=prize,
            )
        self._begin_endgame("a player has returned from the dungeon")

    # ------------------------------------------------------------ dungeon end
    def _gold(self, t: int) -> int:
        """A banked treasure's gold. Dice are rolled the first time it is counted
        and the roll is kept ("This is done when the game is over"; with
        ``victory=dungeons`` that is the dungeon's end, and the final total
        reuses the same roll)."""
        tt = self.cs.treasures[t]
        if t in self.worthless:
            return 0
        if not tt.gold.rolled:
            return tt.gold.fixed
        if t not in self.gold_rolled:
            self.gold_rolled[t] = roll_gold(tt.gold, self.rng)
        return self.gold_rolled[t]

    def _end_dungeon(self) -> None:
        n = self.players
        home = [s for s in range(n) if self.status[s] == HOME]
        self.home_counts.append(len(home))
        dungeon_gold = [0] * n
        detail: dict[str, list[list[Any]]] = {}
        for s in home:
            self.banked[s].extend(self.held[s])
            if self.rules.victory == "dungeons":
                rows: list[tuple[str, int]] = [
                    (self.cs.treasures[t].name, self._gold(t)) for t in self.held[s]
                ]
                if s == self.first_home:
                    rows += [
                        (self.cs.prizes[p].name, self.cs.prizes[p].gold)
                        for p in self.prizes[s][-1:]
                    ]
                dungeon_gold[s] = sum(g for _, g in rows)
                detail[str(s)] = [[name, g] for name, g in rows]
            self.held[s] = []
        winners: list[int] = []
        if self.rules.victory == "dungeons" and home:
            top = max(dungeon_gold[s] for s in home)
            winners = [s for s in home if dungeon_gold[s] == top]
            for s in winners:
                self.dungeon_wins[s] += 1
        if self.log.enabled:
            self.log.emit(
                "dungeon_end",
                number=self.dungeon,
                home=home,
                winners=winners,
                gold=dungeon_gold,
                detail=detail,
            )
        reason = cause = ""
        if not self.treasure_pile:
            reason, cause = "the treasure cards are exhausted", "treasures"
        elif not self.prize_pile:
            reason, cause = "the prize cards are exhausted", "prizes"
        elif self.rules.max_dungeons and self.dungeon >= self.rules.max_dungeons:
            reason, cause = f"{self.dungeon} dungeons played", "max_dungeons"
        elif self.dungeon >= DUNGEON_GUARD:
            reason, cause = f"the {DUNGEON_GUARD}-dungeon guard", "guard"
        if reason:
            self._game_over(reason, cause)
        else:
            self._new_dungeon()

    def _game_over(self, reason: str, cause: str = "") -> None:
        """§5: "Compare everyone's gold" (dice-valued treasures rolled now)."""
        n = self.players
        gold = [0] * n
        detail: list[list[list[Any]]] = [[] for _ in range(n)]
        for s in range(n):
            for t in self.banked[s]:
                g = self._gold(t)
                gold[s] += g
                detail[s].append([self.cs.treasures[t].name, g])
            for p in self.prizes[s]:
                gold[s] += self.cs.prizes[p].gold
                detail[s].append([self.cs.prizes[p].name, self.cs.prizes[p].gold])
        if self.rules.victory == "dungeons":
            scores = [float(w) for w in self.dungeon_wins]
        else:
            scores = [float(g) for g in gold]
        self.final = {"reason": reason, "gold": gold, "detail": detail, "scores": scores}
        self.phase = "over"
        if self.log.enabled:
            self.log.emit(
                "game_over",
                reason=reason,
                cause=cause,
                dungeons=self.dungeon,
                gold=gold,
                scores=scores,
                victory=self.rules.victory,
                detail=detail,
            )
