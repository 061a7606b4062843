"""Monster Maker: the State, reading like the rulebook (§ numbers are its sections).

One *game* is several *dungeons* (§5). In a dungeon each player walks
corridors to the treasure room (§3 <Treasure Cards>), draws a treasure and
walks the road back, which must total exactly the outward distance plus the
OPEN penalties (§3 <The Road Back>). Opponents block with monsters; battles
are dice (§3 <Battle>). The first home draws a prize; then nobody draws any
more (§3 <Endgame>) and whoever cannot get home dies.

Cards are small ints (rows of the data files). Phases:

- ``trap``: the player who drew a trap avoids it with a Thief or loses three cards.
- ``turn``: the main choice (corridor, monster, fight, discard, pass) and the
  free ones (dispel, detour, secret door) when the options make them free.
- ``battle``: add characters, spells and weapons one at a time, then ``roll``.
- ``after``: after a battle: Heal, send a charmed monster on, (house rule)
  a corridor, or ``end turn``.
- ``door``: just arrived with a Secret Door and a Thief or Dwarf in hand.
- ``discard``: the action was used by a dispel (``dispel_costs_action``) and the
  hand is still over the limit: "You may not have 8 or more cards at the end
  of your turn", so the player discards down to it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, ClassVar

from bestiary.engine import Event, EventLog, IllegalAction, NotYourTurn, Result, Rng, State
from bestiary.i18n import N_, domain

from .actions import MAX_SEATS, Move, action_space
from .battle import Member, charm_alone, member_strength, spell_refusal, strengths, weapon_refusal
from .battle import wins as beats
from .cards import CardSet, Strength, load_cardset
from .ruleset import MonsterMakerRules
from .scoring import goddess_keeps, roll_gold

_ = domain("monster_maker", __file__)

OUT, BACK, HOME, DEAD = 0, 1, 2, 3
STATUS = ("outward", "returning", "home", "dead")
# A guard against a table that never gets anyone home while the treasure
# stays in the pile (the rulebook's game ends only when a pile runs out).
DUNGEON_GUARD = 12
TRAP_LOSS = 3
# Why a player died or the endgame began, as a short code the log lines
# translate (describe.py); the English reason stays in the event and results.
CAUSES = {
    "the draw pile is exhausted": "draw_pile",
    "a player has returned from the dungeon": "someone_home",
    "out of cards in the endgame": "out_of_cards",
    "cannot return from the dungeon": "stuck",
}
# What the seat to act is asked, by phase (the view's ``prompt``; English is the
# message id: render.py shows it in the current language).
PROMPTS = {
    "turn": N_("Your turn: one action — a corridor, a monster, a fight, a discard or pass"),
    "trap": N_("A trap: lose cards from your hand, or avoid it with a Thief"),
    "discard": N_("Over the hand limit after the dispel: discard a card"),
    "battle": N_("In battle: add characters, spells or weapons, then roll"),
    "after": N_("After the battle: heal, send a charmed monster, or end your turn"),
    "door": N_("The Secret Door: open it with a Thief or Dwarf, or leave it"),
}


_ATOMS = (int, str, bool, float, type(None))


def _copy_field(value: Any) -> Any:
    """An independent copy of one state attribute, by its type (see ``clone``)."""
    t = type(value)
    if t is list:
        if value and type(value[0]) in (list, set, dict):
            return [_copy_field(x) for x in value]
        return value[:]
    if t is set:
        return set(value)
    if t in _ATOMS:
        return value
    if t is dict:
        if all(type(v) in _ATOMS for v in value.values()):
            return dict(value)  # keys are atoms too: a shallow copy is a full one
        return copy.deepcopy(value)
    if isinstance(value, (Rng, EventLog)):
        return value.copy()
    return copy.deepcopy(value)


class MonsterMakerState(State):
    rules: MonsterMakerRules

    #: Built once per match and never changed: the game, the rules, the card
    #: set, its action space and the strengths in force (a tuple).
    SHARED: ClassVar[frozenset[str]] = frozenset({"game", "rules", "cs", "space", "strength"})
    #: The legal-moves list kept for the apply() that follows legal(), and the
    #: log as each seat may know it, redacted once per event (determinize).
    CACHES: ClassVar[frozenset[str]] = frozenset({"_cached", "_redacted"})

    def __init__(self, game: Any, players: int, seed: int, rules: MonsterMakerRules) -> None:
        self.game, self.players, self.rules = game, players, rules
        self.rng = Rng(seed)
        self.log = EventLog()
        self.cs: CardSet = load_cardset(rules.cards, rules.treasures, rules.prizes)
        self.space = action_space(self.cs)
        cs = self.cs
        # Errata (D) applied once: rolls and labels both read this table.
        self.strength: tuple[Strength | None, ...] = strengths(cs, rules)
        if rules.treasure_distance:
            self.room = rules.treasure_distance
        else:  # §4: 80p with five players, 70p with six, else 100p (§3 <Treasure Cards>)
            self.room = {5: 80, 6: 70}.get(players, 100)
        n = players
        self.treasure_pile = cs.treasure_pile()
        self.rng.shuffle(self.treasure_pile)
        self.prize_pile = cs.prize_pile()
        self.rng.shuffle(self.prize_pile)
        self.removed: list[int] = []  # treasures out of the game (once-a-game cards)
        self.drawn_once: set[int] = set()  # once-a-game treasures already drawn (redraw mode)
        self.worthless: set[int] = set()  # Statues of Goddess that rolled 4-6
        self.gold_rolled: dict[int, int] = {}  # banked dice treasures: rolled once, kept
        self.banked: list[list[int]] = [[] for _ in range(n)]
        self.prizes: list[list[int]] = [[] for _ in range(n)]
        self.dungeon_wins = [0] * n
        self.dungeon = 0
        self.turns = 0
        self.home_counts: list[int] = []
        self.final: dict[str, Any] | None = None
        self.phase = "turn"
        self._version = 0
        self._cached: tuple[int, int, list[Move]] | None = None
        self._redacted: dict[int, list[Event]] = {}
        self._new_dungeon()

    # ------------------------------------------------------------ dungeon set-up
    def _new_dungeon(self) -> None:
        """§3 <Preparation>: shuffle, deal 7, exchange traps, roll for the first player."""
        n, cs = self.players, self.cs
        self.dungeon += 1
        self.deck = cs.deck()
        self.rng.shuffle(self.deck)
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.out: list[list[int]] = [[] for _ in range(n)]
        self.back: list[list[int]] = [[] for _ in range(n)]
        self.dist_out = [0] * n
        self.dist_back = [0] * n
        self.extra = [0] * n  # perch the OPEN treasures add to the road back
        self.status = [OUT] * n
        self.monster = [-1] * n
        self.held: list[list[int]] = [[] for _ in range(n)]
        self.shown: list[set[int]] = [set() for _ in range(n)]
        self.door_open = [False] * n  # a secret door waiting for a Thief or Dwarf
        self.endgame = False
        self.first_home = -1
        self.passes = 0
        self._reset_turn()
        trap = set(cs.of_kind["trap"])
        log = self.log
        if log.enabled:
            log.emit("dungeon", number=self.dungeon, treasure_room=self.room)
        for s in range(n):
            hand = self.hands[s]
            for _ in range(self.rules.hand_limit):
                if self.deck:
                    hand.append(self.deck.pop())
            # "If any of the original cards are trap cards, exchange them with the
            # remaining cards, and shuffle the trap cards back into the draw pile."
            traps = [c for c in hand if c in trap]
            if traps:
                kept = [c for c in hand if c not in trap]
                while len(kept) < len(hand):
                    found = next(
                        (i for i in range(len(self.deck) - 1, -1, -1) if self.deck[i] not in trap),
                        -1,
                    )
                    if found < 0:
                        break
                    kept.append(self.deck.pop(found))
                self.hands[s] = kept
                self.deck.extend(traps)
                self.rng.shuffle(self.deck)
                if log.enabled:
                    log.emit("traps_exchanged", seat=s, count=len(traps))
            if log.enabled:
                log.emit("dealt", to=[s], seat=s, cards=[cs.cards[c].name for c in self.hands[s]])
        # "Determine the first player to play by rolling the dice": highest 1D, ties reroll.
        tied = list(range(n))
        rolls: list[dict[str, int]] = []
        while len(tied) > 1:
            r = {s: self.rng.roll("1D") for s in tied}
            rolls.append({str(s): v for s, v in r.items()})
            top = max(r.values())
            tied = [s for s in tied if r[s] == top]
        self.first = tied[0]
        if log.enabled:
            log.emit("first_player", seat=self.first, rolls=rolls)
        self._start_turn(self.first)

    def _reset_turn(self) -> None:
        self.party: list[int] = []  # character cards in the battle
        self.spell_of: list[int] = []  # per party member: spell card or -1
        self.weapon_of: list[int] = []  # per party member: treasure or -1
        self.fallen: list[int] = []  # characters discarded in battle this turn (for Heal)
        self.won = False
        self.charmed = -1  # a charmed monster waiting to be sent on
        self.trap = -1
        self.to_lose = 0

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
            if not self.hands[seat]:
                # "When a player runs out of cards during endgame, his game is over."
                self._kill(seat, "out of cards in the endgame")
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
        if self.endgame and self.status[seat] in (OUT, BACK) and not self.hands[seat]:
            self._kill(seat, "out of cards in the endgame")
        self._next_turn()

    def _active(self) -> list[int]:
        return [s for s in range(self.players) if self.status[s] in (OUT, BACK)]

    def _next_turn(self) -> None:
        active = self._active()
        if not active:
            self._end_dungeon()
            return
        if self.endgame and self.passes >= len(active):
            # Everyone still below passed in a row with no card left to help:
            # nobody can return any more, so they all die (§3 <Endgame>).
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

    # ------------------------------------------------------------ helpers
    def _discard(self, card: int) -> None:
        self.discard.append(card)

    def _take(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)

    def _kill(self, seat: int, reason: str) -> None:
        """§3 <Endgame>: "Any party unable to return ... dies"; its treasures go back."""
        self.status[seat] = DEAD
        returned = self.held[seat]
        back: list[int] = []
        for t in returned:
            tt = self.cs.treasures[t]
            if tt.once_per_game and self.rules.once_per_game == "remove":
                self.removed.append(t)
            else:
                back.append(t)
        if back:
            self.treasure_pile.extend(back)
            self.rng.shuffle(self.treasure_pile)
        self.held[seat] = []
        self.shown[seat] = set()
        self.door_open[seat] = False
        if self.log.enabled:
            self.log.emit(
                "died",
                seat=seat,
                reason=reason,
                cause=CAUSES.get(reason, ""),
                returned=len(returned),
            )

    def target(self, seat: int) -> int:
        """The exact length of the road back: the outward distance plus OPEN penalties."""
        return self.dist_out[seat] + self.extra[seat]

    def in_treasure_room(self, seat: int) -> bool:
        return self.status[seat] == BACK and not self.back[seat]

    def _can_target(self, seat: int, target: int) -> bool:
        """A monster goes "in front of an opponent's corridor" that has none yet."""
        return (
            target != seat
            and self.status[target] in (OUT, BACK)
            and self.monster[target] < 0
            and bool(self.out[target] or self.back[target])
        )

    def _corridor_fits(self, seat: int, card: int) -> bool:
        st = self.status[seat]
        if st == OUT:
            return True
        if st == BACK:
            # Overshooting the road back can never bring you home; the rulebook's
            # players "decline to play any corridor cards until the one you need".
            return self.dist_back[seat] + self.cs.cards[card].value <= self.target(seat)
        return False

    def _is_undead(self, seat: int) -> bool:
        m = self.monster[seat]
        return m >= 0 and self.cs.cards[m].mtype == "undead"

    # ------------------------------------------------------------ protocol
    def to_act(self) -> tuple[int, ...]:
        if self.final is not None:
            return ()
        return (self.turn,)

    def legal(self, seat: int) -> Sequence[Move]:
        if self.final is not None or seat != self.turn:
            return []
        moves = self._legal(seat)
        # apply() right after legal() (the usual driver loop) reuses the list.
        self._cached = (self._version, seat, moves)
        return moves

    def _legal(self, seat: int) -> list[Move]:
        get = self.space.get
        cards = self.cs.cards
        hand = self.hands[seat]
        kinds = sorted(set(hand))
        out: list[Move] = []
        ph = self.phase
        if ph == "trap":
            if self.to_lose == TRAP_LOSS:
                out.extend(get("avoid", c) for c in kinds if cards[c].has("avoids_traps"))
            out.extend(get("lose", c) for c in kinds)
            return out
        if ph == "door":
            out.extend(get("door", c) for c in kinds if cards[c].has("opens_doors"))
            out.append(get("leave_door"))
            return out
        if ph == "discard":
            discard = self.space.by_card["discard"]
            return [discard[c] for c in kinds]
        if ph == "battle":
            return self._battle_moves(seat, kinds)
        if ph == "after":
            return self._after_moves(seat, kinds)
        # ph == "turn"
        by_card = self.space.by_card
        mon = self.monster[seat]
        if mon >= 0:
            fight = by_card["fight"]
            out = [fight[c] for c in kinds if cards[c].kind == "character"]
            if self._is_undead(seat):
                out.extend(get("dispel", c) for c in kinds if cards[c].has("dispels_undead"))
                out.extend(
                    get("tdispel", t)
                    for t in self.held[seat]
                    if self.cs.treasures[t].dispels_undead
                )
            if any(cards[c].kind == "detour" for c in kinds):
                out.append(get("detour"))
        else:
            corridor = by_card["corridor"]
            out = [
                corridor[c]
                for c in kinds
                if cards[c].kind == "corridor" and self._corridor_fits(seat, c)
            ]
        if self.door_open[seat] and self.in_treasure_room(seat):
            out.extend(get("door", c) for c in kinds if cards[c].has("opens_doors"))
        monsters = [c for c in kinds if cards[c].kind == "monster"]
        if monsters:
            targets = [t for t in range(self.players) if self._can_target(seat, t)]
            for c in monsters:
                at = self.space.monster_at[c]
                out.extend(at[t] for t in targets)
        if len(hand) > self.rules.hand_limit:
            discard = by_card["discard"]
            out.extend(discard[c] for c in kinds)
        else:
            out.append(get("pass"))
        return out

    def _battle_moves(self, seat: int, kinds: list[int]) -> list[Move]:
        get = self.space.get
        cards = self.cs.cards
        out: list[Move] = [get("roll")]
        charm_cast = any(s >= 0 and cards[s].has("charm") for s in self.spell_of)
        alone = self.rules.charm_alone
        if alone and charm_cast:
            return out  # "the 4D from Charm alone must overcome the monster"
        out.extend(get("fight", c) for c in kinds if cards[c].kind == "character")
        free = sorted({self.party[i] for i in range(len(self.party)) if self.spell_of[i] < 0})
        mon = self.monster[seat]
        for s in kinds:
            sc = cards[s]
            if sc.kind != "spell":
                continue
            if (
                sc.has("charm")
                and alone
                and (len(self.party) > 1 or any(x >= 0 for x in self.spell_of + self.weapon_of))
            ):
                continue
            out.extend(
                get("cast", s, c)
                for c in free
                if spell_refusal(self.cs, self.rules, s, c, mon) is None
            )
        if self.status[seat] == BACK:
            unarmed = sorted(
                {self.party[i] for i in range(len(self.party)) if self.weapon_of[i] < 0}
            )
            for t in self.held[seat]:
                if t not in self.weapon_of:
                    out.extend(
                        get("wield", t, c)
                        for c in unarmed
                        if weapon_refusal(self.cs, t, c, road_back=True) is None
                    )
        return out

    def _after_moves(self, seat: int, kinds: list[int]) -> list[Move]:
        get = self.space.get
        cards = self.cs.cards
        out: list[Move] = [get("end")]
        if self.fallen and any(cards[c].has("heals") for c in kinds):
            out.extend(get("heal", c) for c in sorted(set(self.fallen)))
        if self.charmed >= 0:
            out.extend(get("send", t) for t in range(self.players) if self._can_target(seat, t))
        if self.rules.fight_then_corridor and self.won and self.monster[seat] < 0:
            out.extend(
                get("corridor", c)
                for c in kinds
                if cards[c].kind == "corridor" and self._corridor_fits(seat, c)
            )
        return out

    def apply(self, seat: int, action: Any) -> None:
        if self.final is not None or seat != self.turn:
            raise NotYourTurn(_("seat {seat} has no decision to make now").format(seat=seat))
        cached = self._cached
        if cached is not None and cached[0] == self._version and cached[1] == seat:
            legal = cached[2]
        else:
            legal = self._legal(seat)
        # Moves are built once per card set, so the usual caller passes one of
        # these very objects: an identity scan first (``in`` would call the
        # dataclass ``__eq__`` on every move before it).
        for m in legal:
            if m is action:
                break
        else:
            if not isinstance(action, Move) or action not in legal:
                raise IllegalAction(
                    _("{action} is not a legal action for seat {seat} now").format(
                        action=action, seat=seat
                    ),
                    legal,
                )
        self._version += 1
        self._cached = None
        move = self.space.moves[action.index]
        getattr(self, "_do_" + move.kind)(seat, move)

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
        # Discarding down to the limit is not progress towards home.
        self._main_done(passed=self.endgame)

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

    def battle_penalty(self, seat: int) -> int:
        """Royal Princess: "Battles on the way back are at -1 strength"."""
        if self.status[seat] != BACK:
            return 0
        return sum(self.cs.treasures[t].battle_penalty for t in self.held[seat])

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
                v = self._roll(sp)  # Charm alone: only its dice count
                v = member_strength(self.cs, self.rules, member, 0, v)
                if logging:
                    rows.append({"card": cards[c].name, "spell": cards[sp].name, "strength": v})
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
        if self.log.enabled:
            self.log.emit("heal", seat=seat, card=self.cs.cards[m.a].name)

    def _do_send(self, seat: int, m: Move) -> None:
        self.monster[m.a] = self.charmed
        if self.log.enabled:
            self.log.emit("sent", seat=seat, target=m.a, monster=self.cs.cards[self.charmed].name)
        self.charmed = -1

    def _do_end(self, seat: int, m: Move) -> None:
        self._end_turn()

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

    # ------------------------------------------------------------ outcome
    @property
    def over(self) -> bool:
        return self.final is not None

    @property
    def result(self) -> Result | None:
        if self.final is None:
            return None
        scores = self.final["scores"]
        top = max(scores)
        homes = self.home_counts
        return Result(
            list(scores),
            [s for s in range(self.players) if scores[s] == top],
            {
                "dungeons": self.dungeon,
                "turns": self.turns,
                "home_per_dungeon": sum(homes) / max(len(homes), 1),
                "dungeons_with_someone_home": sum(1 for h in homes if h) / max(len(homes), 1),
                "gold": list(self.final["gold"]),
                "end": self.final["reason"],
            },
        )

    # ------------------------------------------------------------ information
    def view(self, seat: int | None) -> dict[str, Any]:
        """The table as ``seat`` may know it (None: a spectator). Others' hands and
        un-OPEN treasures appear only as counts. ``hand_labels`` / ``hand_cards``
        give the seat's cards with strengths under the rules in force (Sleep
        errata); ``players[s].rolled`` what each banked dice treasure rolled;
        ``victory`` how the result is counted; ``final`` the result with every
        seat's gold breakdown."""
        cs = self.cs
        cn = [c.name for c in cs.cards]
        tn = [t.name for t in cs.treasures]
        players = []
        for s in range(self.players):
            shown = [tn[t] for t in self.held[s] if t in self.shown[s]]
            players.append(
                {
                    "seat": s,
                    "status": STATUS[self.status[s]],
                    "corridors_out": [cs.cards[c].value for c in self.out[s]],
                    "distance_out": self.dist_out[s],
                    "corridors_back": [cs.cards[c].value for c in self.back[s]],
                    "distance_back": self.dist_back[s],
                    "return_target": self.target(s) if self.status[s] != OUT else None,
                    "monster": cn[self.monster[s]] if self.monster[s] >= 0 else None,
                    "monster_strength": cs.cards[self.monster[s]].value
                    if self.monster[s] >= 0
                    else None,
                    "monster_type": (cs.cards[self.monster[s]].mtype or None)
                    if self.monster[s] >= 0
                    else None,
                    "hand_size": len(self.hands[s]),
                    "open_treasures": shown,
                    "hidden_treasures": len(self.held[s]) - len(shown),
                    "secret_door_waiting": self.door_open[s],
                    "battle_penalty": self.battle_penalty(s),
                    "banked": [tn[t] for t in self.banked[s]],
                    # What each dice-valued banked treasure rolled (once, kept).
                    "rolled": [
                        [tn[t], self.gold_rolled[t]]
                        for t in self.banked[s]
                        if t in self.gold_rolled
                    ],
                    "worthless": [
                        tn[t] for t in self.banked[s] + self.held[s] if t in self.worthless
                    ],
                    "prizes": [cs.prizes[p].name for p in self.prizes[s]],
                    "dungeon_wins": self.dungeon_wins[s],
                }
            )
        v: dict[str, Any] = {
            "dungeon": self.dungeon,
            "treasure_room": self.room,
            "turn": self.turn,
            "phase": self.phase,
            "endgame": self.endgame,
            "draw_pile": len(self.deck),
            "discard_pile": [cn[c] for c in self.discard],
            "treasure_pile": len(self.treasure_pile),
            "prize_pile": len(self.prize_pile),
            "players": players,
            "trap": cn[self.trap] if self.trap >= 0 else None,
            "to_lose": self.to_lose if self.phase == "trap" else 0,
            "battle": [
                {
                    "card": cn[c],
                    "spell": cn[self.spell_of[i]] if self.spell_of[i] >= 0 else None,
                    "weapon": tn[self.weapon_of[i]] if self.weapon_of[i] >= 0 else None,
                }
                for i, c in enumerate(self.party)
            ],
            "fallen": [cn[c] for c in self.fallen],
            "charmed": cn[self.charmed] if self.charmed >= 0 else None,
            "seat": seat,
            # Who owes a decision now, and what the seat is asked (as in the
            # other games' views; "" when it is not this seat's decision).
            "to_act": list(self.to_act()),
            "prompt": PROMPTS.get(self.phase, "") if seat in self.to_act() else "",
            "hand": sorted(cn[c] for c in self.hands[seat]) if seat is not None else None,
            # Labels and strengths under the rules in force (the Sleep errata).
            "hand_labels": sorted(cs.cards[c].label(self.strength[c]) for c in self.hands[seat])
            if seat is not None
            else None,
            "hand_cards": self._hand_cards(seat) if seat is not None else None,
            "victory": self.rules.victory,
            "my_treasures": [tn[t] for t in self.held[seat]] if seat is not None else None,
            "final": self.final,
        }
        if self.rules.traps_face_up:
            trap = set(cs.of_kind["trap"])
            d = self.deck
            v["traps_in_draw_pile_at"] = [
                len(d) - 1 - i for i in range(len(d) - 1, -1, -1) if d[i] in trap
            ]
        return v

    def _hand_cards(self, seat: int) -> list[dict[str, Any]]:
        """The seat's hand as data for the web page, strengths as the rules roll them."""
        out = []
        for c in sorted(self.hands[seat], key=lambda c: self.cs.cards[c].name):
            card = self.cs.cards[c]
            st = self.strength[c]
            out.append(
                {
                    "name": card.name,
                    "kind": card.kind,
                    "value": card.value if card.kind in ("corridor", "monster") else None,
                    "strength": str(st) if st is not None else None,
                    "type": card.mtype or None,
                    "abilities": sorted(card.abilities),
                }
            )
        return out

    # ------------------------------------------------------------ copies
    def clone(self) -> MonsterMakerState:
        """An independent copy: every attribute outside SHARED is copied by its
        type, so a field added later cannot be shared by mistake."""
        return self._copy(keep_rng=True)

    def _copy(self, keep_rng: bool) -> MonsterMakerState:
        """``clone()``; ``keep_rng=False`` leaves the RNG to the caller (a
        determinization draws a fresh one: copying the Mersenne Twister's
        state is half a clone's cost)."""
        o = MonsterMakerState.__new__(MonsterMakerState)
        shared, caches = self.SHARED, self.CACHES
        new = o.__dict__
        # _copy_field's commonest cases inlined (clone() is the search's hot path).
        for k, v in self.__dict__.items():
            t = type(v)
            if t is list and (not v or type(v[0]) in _ATOMS):
                new[k] = v[:]
            elif t in _ATOMS or k in shared:
                new[k] = v
            elif k == "rng" and not keep_rng:
                new[k] = None  # set by the caller
            elif k not in caches:
                new[k] = _copy_field(v)
        o._cached = None
        o._redacted = {}
        return o

    def zones(self) -> dict[str, list[tuple[str, int]]]:
        """Every card by zone: deck cards ``("card", type)``, treasures
        ``("treasure", i)``, prizes ``("prize", type)``."""
        n = self.players

        def cards(xs: Sequence[int]) -> list[tuple[str, int]]:
            return [("card", c) for c in xs]

        z: dict[str, list[tuple[str, int]]] = {
            "draw pile": cards(self.deck),
            "discard pile": cards(self.discard),
            "battle": cards(self.party + [x for x in self.spell_of if x >= 0]),
            "charmed": cards([self.charmed] if self.charmed >= 0 else []),
            "trap": cards([self.trap] if self.trap >= 0 else []),
            "treasure pile": [("treasure", t) for t in self.treasure_pile],
            "treasures out of the game": [("treasure", t) for t in self.removed],
            "prize pile": [("prize", p) for p in self.prize_pile],
        }
        for s in range(n):
            z[f"hand {s}"] = cards(self.hands[s])
            z[f"corridors out {s}"] = cards(self.out[s])
            z[f"corridors back {s}"] = cards(self.back[s])
            z[f"monster {s}"] = cards([self.monster[s]] if self.monster[s] >= 0 else [])
            z[f"treasures {s}"] = [("treasure", t) for t in self.held[s]]
            z[f"banked {s}"] = [("treasure", t) for t in self.banked[s]]
            z[f"prizes {s}"] = [("prize", p) for p in self.prizes[s]]
        return z

    def determinize(self, seat: int, rng: Rng) -> MonsterMakerState:
        """Resample other hands + the draw pile, hidden treasures + the treasure pile,
        the prize pile and the dice."""
        o = self._copy(keep_rng=False)
        o.rng = rng.fork()
        o.log = self._log_for(seat)
        cards = self.cs.cards
        others = [s for s in range(self.players) if s != seat]
        # Hands never hold traps (drawn traps are shown at once), so traps stay in the pile.
        pool = [c for s in others for c in o.hands[s]]
        face_up = self.rules.traps_face_up
        deck_free = [c for c in o.deck if cards[c].kind != "trap"]
        traps = [c for c in o.deck if cards[c].kind == "trap"]
        # Every pool is sorted before its shuffle: the sample must depend only on
        # which cards are unseen, never on the order they really lie in.
        pool = sorted(pool + deck_free)
        rng.shuffle(pool)
        for s in others:
            k = len(o.hands[s])
            o.hands[s], pool = pool[:k], pool[k:]
        if face_up:  # trap positions are public: keep them
            it = iter(pool)
            o.deck = [c if cards[c].kind == "trap" else next(it) for c in o.deck]
        else:
            pool = sorted(pool + traps)
            rng.shuffle(pool)
            o.deck = pool
        # Hidden treasures are never OPEN cards.
        tr = self.cs.treasures
        hidden_slots = [
            (s, i) for s in others for i, t in enumerate(o.held[s]) if t not in o.shown[s]
        ]
        tpool = [o.held[s][i] for s, i in hidden_slots] + o.treasure_pile
        closed = sorted(t for t in tpool if not tr[t].open)
        opened = [t for t in tpool if tr[t].open]
        rng.shuffle(closed)
        for s, i in hidden_slots:
            o.held[s][i] = closed.pop()
        o.treasure_pile = sorted(closed + opened)
        rng.shuffle(o.treasure_pile)
        o.prize_pile = sorted(o.prize_pile)
        rng.shuffle(o.prize_pile)
        o.drawn_once = self._drawn_once_for(seat, o, hidden_slots)
        return o

    def _log_for(self, seat: int) -> EventLog:
        """The log as ``seat`` knows it: events it may not see keep their place
        (indices stay valid) but lose their data (the real hidden cards)."""
        done = self._redacted.setdefault(seat, [])
        # The log only grows: redact the new events, keep the rest (search
        # determinizes the same state many times).
        done.extend(
            e if e.visible(seat) else Event(e.index, e.kind, {}, e.visible_to)
            for e in self.log.events[len(done) :]
        )
        log = EventLog(self.log.enabled)
        log.events = list(done)
        return log

    def _drawn_once_for(
        self, seat: int, o: MonsterMakerState, hidden_slots: list[tuple[int, int]]
    ) -> set[int]:
        """Once-a-game treasures drawn already, as far as ``seat`` knows, plus any
        the resampling put into hidden slots (the redraw rule reads this set)."""
        tr = self.cs.treasures
        hidden = {self.held[s][i] for s, i in hidden_slots}
        known = {
            t
            for t in self.drawn_once
            if t not in hidden and (tr[t].open or t not in self.treasure_pile)
        }
        return known | {o.held[s][i] for s, i in hidden_slots if tr[o.held[s][i]].once_per_game}

    # ------------------------------------------------------------ action space
    def action_index(self, action: Any) -> int:
        if not isinstance(action, Move):
            raise IllegalAction(_("{action} is not a Monster Maker action").format(action=action))
        return action.index

    def action_from_index(self, seat: int, index: int) -> Move:
        legal = self.legal(seat)
        for a in legal:
            if a.index == index:
                return a
        raise IllegalAction(
            _("action {index} is not legal for seat {seat} now").format(index=index, seat=seat),
            legal,
        )


__all__ = ["BACK", "DEAD", "HOME", "MAX_SEATS", "OUT", "MonsterMakerState"]
