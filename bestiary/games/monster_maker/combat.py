"""Monster Maker battles as the table plays them (§3 <Battle>): characters,
spells and weapons join one at a time, then the roll; afterwards Heal, a
charmed monster sent on, and (a house rule) a corridor. The arithmetic is in
``battle.py``.
"""

from __future__ import annotations

from typing import Any

from .actions import Move
from .battle import Member, charm_alone, member_strength
from .battle import wins as beats
from .dungeon import MonsterMakerDungeon


class MonsterMakerCombat(MonsterMakerDungeon):
    """Battles, over the turn of ``dungeon.py``."""

    # ------------------------------------------------------------ battle
    def _do_fight(self, seat: int, m: Move) -> None:
        """<Turn> 3): "you may play any number of character cards and fight the monster." """
        self._take(seat, m.a)
        self.party.append(m.a)
        self.spell_of.append(-1)
        self.weapon_of.append(-1)
        if self.phase != "battle":
            self.phase = "battle"
            if self.log.enabled:
                mon = self.cs.cards[self.monster[seat]]
                self.log.emit(
                    "fight", seat=seat, monster=mon.name, strength=mon.value, type=mon.mtype or ""
                )
        if self.log.enabled:
            self.log.emit("joins", seat=seat, card=self.cs.cards[m.a].name)

    def _do_cast(self, seat: int, m: Move) -> None:
        """<Spells>: "cannot be used by themselves. When used with a character card ..." """
        i = next(i for i, c in enumerate(self.party) if c == m.b and self.spell_of[i] < 0)
        self._take(seat, m.a)
        self.spell_of[i] = m.a
        if self.log.enabled:
            self.log.emit(
                "cast", seat=seat, spell=self.cs.cards[m.a].name, by=self.cs.cards[m.b].name
            )

    def _do_wield(self, seat: int, m: Move) -> None:
        """<Treasure Cards>: weapons "on the way back ... no need to discard it"."""
        i = next(i for i, c in enumerate(self.party) if c == m.b and self.weapon_of[i] < 0)
        self.weapon_of[i] = m.a
        self.shown[seat].add(m.a)
        if self.log.enabled:
            self.log.emit(
                "wield", seat=seat, treasure=self.cs.treasures[m.a].name, by=self.cs.cards[m.b].name
            )

    def _roll(self, card: int) -> int:
        st = self.strength[card]
        assert st is not None
        return self.rng.roll(st.dice) if st.dice is not None else st.fixed

    def _do_roll(self, seat: int, m: Move) -> None:
        """<Battle>: the characters' summed strength must be "equal to or greater
        than" the monster's red number."""
        cards = self.cs.cards
        mon = self.monster[seat]
        strength = cards[mon].value
        rows: list[dict[str, Any]] = []  # the battle event's table (only when logging)
        logging = self.log.enabled
        total = 0
        charm_by = -1
        for i, c in enumerate(self.party):
            member = Member(c, self.spell_of[i], self.weapon_of[i])
            sp, wp = member.spell, member.weapon
            if sp >= 0 and cards[sp].has("charm"):
                charm_by = c
            if charm_alone(self.cs, self.rules, member):
                sr = self._roll(sp)  # Charm alone: only its dice count
                v = member_strength(self.cs, self.rules, member, 0, sr)
                if logging:
                    rows.append(
                        {
                            "card": cards[c].name,
                            "spell": cards[sp].name,
                            "spell_dice": str(self.strength[sp]),
                            "spell_roll": sr,
                            "strength": v,
                        }
                    )
                total += v
                continue
            cr = self._roll(c)
            sr = self._roll(sp) if sp >= 0 else 0
            v = member_strength(self.cs, self.rules, member, cr, sr)
            total += v
            if not logging:
                continue
            row: dict[str, Any] = {
                "card": cards[c].name,
                "dice": str(self.strength[c]),
                "roll": cr,
            }
            if sp >= 0:
                row["spell"] = cards[sp].name
                row["spell_dice"] = str(self.strength[sp])
                row["spell_roll"] = sr
            if wp >= 0:
                row["weapon"] = self.cs.treasures[wp].name
            row["strength"] = v
            rows.append(row)
        penalty = self.battle_penalty(seat)
        total -= penalty
        won = beats(total, strength)
        for i, c in enumerate(self.party):
            self._discard(c)
            self.fallen.append(c)
            if self.spell_of[i] >= 0:
                self._discard(self.spell_of[i])
        if self.log.enabled:
            self.log.emit(
                "battle",
                seat=seat,
                monster=cards[mon].name,
                monster_strength=strength,
                party=rows,
                penalty=penalty,
                total=total,
                won=won,
            )
        self.party, self.spell_of, self.weapon_of = [], [], []
        self.won = won
        if won:
            self.monster[seat] = -1
            # <Special Way of Using Charm>: a Magic-User or Elf who charms a
            # human-type monster may place it before another player.
            if charm_by >= 0 and cards[charm_by].has("charms") and cards[mon].mtype == "human":
                self.charmed = mon
            else:
                self._discard(mon)
        self.passes = 0
        self.phase = "after"
        if not self._after_owed(seat):
            self._end_turn()  # nothing anyone could decide: "end turn" is the only move

    def _after_owed(self, seat: int) -> bool:
        """Whether the player is asked after a battle, decided from what everyone
        sees: whether they *hold* a Cleric (Heal) or a corridor (house rule) is
        their secret, so a hand that could hold one always gets the question."""
        if self.charmed >= 0 and any(self._can_target(seat, t) for t in range(self.players)):
            return True
        if not self.hands[seat]:
            return False
        could_heal = bool(self.fallen) and bool(self.cs.healers)
        could_walk = self.rules.fight_then_corridor and self.won and self.monster[seat] < 0
        return could_heal or could_walk

    def _do_heal(self, seat: int, m: Move) -> None:
        """<Cleric> 2): "Can be exchanged for a character card that was just used ... 'Heal'." """
        cleric = next(c for c in self.hands[seat] if self.cs.cards[c].has("heals"))
        self._take(seat, cleric)
        self._discard(cleric)
        # The healed card is the most recently discarded copy.
        for i in range(len(self.discard) - 1, -1, -1):
            if self.discard[i] == m.a:
                del self.discard[i]
                break
        self.fallen.remove(m.a)
        self.hands[seat].append(m.a)
        self.seen_in[seat].append(m.a)  # "announce it by saying 'Heal'": in plain sight
        if self.log.enabled:
            self.log.emit("heal", seat=seat, card=self.cs.cards[m.a].name)

    def _do_send(self, seat: int, m: Move) -> None:
        self.monster[m.a] = self.charmed
        if self.log.enabled:
            self.log.emit("sent", seat=seat, target=m.a, monster=self.cs.cards[self.charmed].name)
        self.charmed = -1

    def _do_end(self, seat: int, m: Move) -> None:
        self._end_turn()
