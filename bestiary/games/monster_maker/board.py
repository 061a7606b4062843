"""The Monster Maker table: the piles, hands, corridors, monsters, treasures
and gold of every seat, the bookkeeping every phase uses, a dungeon's set-up
(§3 <Preparation>) and the outcome. ``dungeon.py``, ``combat.py`` and
``rules.py`` build the game on it (each a class over the one below).
"""

from __future__ import annotations

from typing import Any, ClassVar

from bestiary.engine import Event, EventLog, Result, Rng, State

from .actions import Move, action_space
from .battle import strengths
from .cards import CardSet, Strength, load_cardset
from .phases import BACK, DEAD, OUT
from .ruleset import MonsterMakerRules

# Why a player died or the endgame began, as a short code the log lines
# translate (describe.py); the English reason stays in the event and results.
CAUSES = {
    "the draw pile is exhausted": "draw_pile",
    "a player has returned from the dungeon": "someone_home",
    "out of cards in the endgame": "out_of_cards",
    "cannot return from the dungeon": "stuck",
}


class MonsterMakerBoard(State):
    """One game's data (several dungeons, §5) and the bookkeeping on it."""

    rules: MonsterMakerRules
    turn: int  # the seat whose turn it is (``dungeon.py`` starts each turn)

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
        # Cards each seat was seen to take into its hand (a Heal names the card)
        # and has not played since: public knowledge of a hidden hand, which
        # determinize keeps. Every way out of a hand shows the card (``_take``).
        self.seen_in: list[list[int]] = [[] for _ in range(n)]
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

    def _start_turn(self, seat: int) -> None:
        """The turn (``dungeon.py``): a dungeon's set-up ends by starting one."""
        raise NotImplementedError

    # ------------------------------------------------------------ helpers
    def _discard(self, card: int) -> None:
        self.discard.append(card)

    def _take(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        seen = self.seen_in[seat]
        if seen and card in seen:
            seen.remove(card)  # a copy of that type left in the open

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

    def battle_penalty(self, seat: int) -> int:
        """Royal Princess: "Battles on the way back are at -1 strength"."""
        if self.status[seat] != BACK:
            return 0
        return sum(self.cs.treasures[t].battle_penalty for t in self.held[seat])

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
