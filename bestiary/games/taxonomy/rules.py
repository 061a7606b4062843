"""Monster Girl Taxonomy: the State (turn flow, claims, natures, rounds).

The turn, as the rulebook says it: "Each turn a player draws one card from
the pile in the middle and discards 1 from his hand. Each player must always
have 8 cards [...] either by discarding the excess, or by drawing up to 8
from the middle." Readings of the unclear parts are in RULES.md (numbered
as in the issue) and quoted where they are implemented.

Effects (the natures of discarded and drawn cards) go through one FIFO
queue; an effect that needs a decision (an aggressive target, a duel, an
impatient extra draw) stops the queue until it is made. When the queue is
empty the hand-size rule applies: more than 8 -> the owner discards (and
may declare a win or table a drawn card); fewer -> a draw; exactly 8 -> the
turn ends and the claim window for the top discard opens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...engine.errors import BadInput, BadOptions, IllegalAction, NotYourTurn
from ...engine.events import EventLog
from ...engine.protocol import Game, Result, State
from ...engine.rng import Rng
from ...engine.ruleset import Ruleset, option
from .actions import (
    ATTACK,
    CLAIM,
    DISCARD,
    DRAW,
    NO_ATTACK,
    PASS,
    RPS,
    RPS_NAMES,
    STOP,
    TABLE,
    WIN,
    Move,
    moves_for,
)
from .cards import (
    AGGRESSIVE,
    CHEERFUL,
    HONEST,
    IMPATIENT,
    LOYAL,
    MEAN,
    MISC,
    NATURE_BIT,
    PROUD,
    Deck,
    load_deck,
    natures_of_mask,
)
from .scoring import HAND_SIZE, Score, best_score

# Phases: who owes what.
MAIN, ATTACK_CHOICE, DUEL, IMPATIENT_CHOICE, CLAIM_WINDOW, DECLARE, OVER = (
    "discard",
    "attack",
    "duel",
    "impatient",
    "claim",
    "declare",
    "over",
)
# Effect queue items: (effect, card).
E_AGG, E_CHEER, E_MEAN, E_PROUD, E_HONEST, E_IMPATIENT = range(6)
_DISCARD_EFFECTS = ((AGGRESSIVE, E_AGG), (CHEERFUL, E_CHEER), (MEAN, E_MEAN), (PROUD, E_PROUD))


@dataclass(frozen=True)
class TaxonomyRules(Ruleset):
    rounds: int = option(4, "rounds in a game (rules v0.2: 3-4; v0.1: one)", choices=(1, 3, 4))
    claim_priority: str = option(
        "turn-order",
        "several claimants: the first in turn order after the discarder, or a random one",
        choices=("turn-order", "random"),
    )
    rps_ties: str = option(
        "repeat",
        "a rock-paper-scissors tie: play again, or nobody loses a turn",
        choices=("repeat", "no-loser"),
    )
    loyal: bool = option(True, "loyal monsters cannot be claimed (v0.2)")
    beastman_orphans: bool = option(
        True, "Beastman monsters alone in their family form their own orphan set (v0.2)"
    )
    orphan_eight: str = option(
        "seven-plus-one",
        "the 12-point set: 7 orphans and one other monster (v0.2) or 8 orphans (v0.1)",
        choices=("seven-plus-one", "eight"),
    )
    peek: int = option(3, "cards an honest monster lets you look at on a draw", choices=(1, 2, 3))
    cards: str = option("", "card file (CSV) to use instead of the shipped monsters.csv", path=True)

    def validate(self) -> None:
        # A malformed card file is reported when the option is given, naming the line.
        load_deck(self.cards, self.beastman_orphans)

    def deck(self) -> Deck:
        return load_deck(self.cards, self.beastman_orphans)


class TaxonomyState(State):
    """One game of Monster Girl Taxonomy.

    ``view(seat)`` returns a JSON-safe dict with exactly these keys:

    - ``game`` "taxonomy", ``variant`` (rules summary), ``seat`` (int or None),
      ``players``
    - ``phase``: "discard" | "attack" | "duel" | "impatient" | "claim" |
      "declare" (a refill draw completed a winning hand: ``win`` or ``pass``) |
      "over"
    - ``to_act``: seats owing a decision *that this seat may know of*
      (during a claim window only the seat itself, if it may claim)
    - ``prompt``: one line saying what this seat must decide now ("" if nothing)
    - ``turn``: the seat whose turn it is; ``dealer``; ``round`` (1-based),
      ``rounds``; ``turns`` (turns begun this round)
    - ``hand``: this seat's cards (None for a spectator), each a card dict
      ``{"name", "type", "family", "keys", "natures", "roll"}`` where ``keys``
      are the card's collecting keys now, ``natures`` its current natures
      (a miscellaneous card shows its rolled nature once rolled) and
      ``roll`` the 2d20-4 result (None if not rolled)
    - ``hand_keys``: {key: count} of this seat's hand ({} for a spectator)
    - ``drawn``: names of the cards this seat drew this turn (may be tabled)
    - ``hand_counts``: cards in hand per seat
    - ``tables``: per seat, list of sets ``{"key", "cards": [card dicts]}``
    - ``discard_top``: card dict or None; ``discards``: card dicts, bottom first
    - ``stock``: cards left in the stock
    - ``set_aside``: per seat, card dicts of proud monsters set aside this round
    - ``bans``: per seat, the types (Beastman families) it may no longer collect
    - ``claims``: per seat, cards claimed this round
    - ``skips``: per seat, turns still to be skipped (lost duels)
    - ``scores``: total per seat
    - ``can_win``: this seat may declare a win now
    - ``claim``: None or ``{"card", "discarder", "keys": [keys this seat may
      claim under], "decided": bool}`` (only for a seat that may claim)
    - ``duel``: None or ``{"attacker", "target", "card", "ties",
      "your_choice": "rock"|...|None, "decided": [seats that chose]}``
    - ``attack``: None or ``{"card", "targets": [seats]}`` for the attacker
    - ``peek``: None or this seat's last honest peek ``{"cards": [card
      dicts, top first], "stock_then": int}``
    - ``seen_hands``: {str(seat): [card dicts]} hands this seat saw through a
      claimed honest monster (as they were then)
    - ``last_round``: None or the last finished round's result ``{"round",
      "winner", "pattern", "points", "sets", "breakdown", "reason"}``
    - ``round_results``: every finished round's result (same shape)
    - ``key_sizes``: {key: number of cards in the deck with that key}
    - ``orphan_keys``: the orphan keys
    - ``result``: None, or at the end ``{"scores", "winners"}``
    """

    game: Game
    rules: TaxonomyRules

    def __init__(self, game: Game, players: int, seed: int, rules: TaxonomyRules) -> None:
        self.game, self.players, self.rules = game, players, rules
        deck = rules.deck()
        if deck.size < HAND_SIZE * players + 1:
            raise BadOptions(
                f"the card file has {deck.size} cards; {players} players need at least "
                f"{HAND_SIZE * players + 1}"
            )
        self.deck = deck
        self.mv = moves_for(deck)
        self.rng = Rng(seed)
        self.log = EventLog()
        n = players
        self.seven_plus_one = rules.orphan_eight == "seven-plus-one"
        self.scores = [0] * n
        self.bans: list[set[int]] = [set() for _ in range(n)]
        self.round = 0
        self.dealer = 0
        self.round_results: list[dict[str, Any]] = []
        self.round_turns: list[int] = []
        self._over = False
        self._result: Result | None = None
        # Bumped whenever the acting seat changes, so an effect loop that
        # started a new turn (or round) stops instead of resolving twice.
        self.epoch = 0
        self.phase = MAIN
        self.actor = 0
        self._to_act: tuple[int, ...] = ()
        self._legal: list[Move] | None = None
        self._start_round()

    # ------------------------------------------------------------------ rounds
    def _start_round(self) -> None:
        """Shuffle every card, deal 8 to each player; the dealer plays first.
        (Rules: "At the start of the game, all players draw 8 cards.")"""
        deck, n = self.deck, self.players
        self.nat = list(deck.nature_mask)
        self.roll = [0] * deck.size
        self.ckeys = list(deck.keys_of)
        self._cc: list[dict[str, Any] | None] = [None] * deck.size
        self.stock = list(range(deck.size))
        self.rng.shuffle(self.stock)
        self.discards: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.tables: list[list[tuple[int, list[int]]]] = [[] for _ in range(n)]
        self.aside: list[list[int]] = [[] for _ in range(n)]
        self.claims = [0] * n
        self.skips = [0] * n
        self.peeks: list[dict[str, Any] | None] = [None] * n
        self._forget_all()
        self.seen_hands: list[dict[str, list[dict[str, Any]]]] = [{} for _ in range(n)]
        self.queue: list[tuple[int, int]] = []
        self.drawn: list[int] = []
        self.last_discard = -1
        self.fresh_draw = False
        self.claim_card = -1
        self.claim_from = -1
        self.claim_seats: tuple[int, ...] = ()
        self.claim_keys: dict[int, list[int]] = {}
        self.claim_choice: dict[int, Move] = {}
        self.duel: tuple[int, int, int] | None = None  # attacker, target, card
        self.duel_choice: dict[int, int] = {}
        self.duel_ties = 0
        self.attack_card = -1
        self.turns = 0
        emit = self.log.enabled
        if emit:
            self.log.emit("round", round=self.round + 1, dealer=self.dealer)
        for s in range(n):
            hand = self.hands[s]
            for _ in range(HAND_SIZE):
                c = self.stock.pop()
                if self.nat[c] & MISC and not self.roll[c]:
                    self._roll(c, [s])
                hand.append(c)
            if emit:
                self.log.emit("dealt", to=[s], seat=s, cards=[self._card(c) for c in hand])
        self.kc = [[0] * deck.num_keys for _ in range(n)]
        self.hk = [[0] * deck.num_keys for _ in range(n)]
        self.big = [0] * n
        for s in range(n):
            self._recount(s)
        self._begin_turn(self.dealer)

    def arrange(self, hands: Sequence[Sequence[int]], stock_top: Sequence[int], first: int) -> None:
        """Set up a position (tests, puzzles): the current round restarts with
        these hands (8 cards each), ``stock_top`` on top of the stock (first
        card drawn first, the other cards below, plain ones nearest the top),
        and ``first``'s turn begins with a draw. Scores, bans and the round
        number are kept."""
        deck, n = self.deck, self.players
        if len(hands) != n or any(len(h) != HAND_SIZE for h in hands):
            raise BadInput(f"arrange needs {n} hands of {HAND_SIZE} cards")
        used = [c for h in hands for c in h] + list(stock_top)
        if len(set(used)) != len(used) or not all(0 <= c < deck.size for c in used):
            raise BadInput("every card must be a card of the deck, used once")
        self.nat = list(deck.nature_mask)
        self.roll = [0] * deck.size
        self.ckeys = list(deck.keys_of)
        self._cc = [None] * deck.size
        rest = [c for c in range(deck.size) if c not in set(used)]
        # The stock list's top is its end: natured cards deepest, plain ones next.
        rest.sort(key=lambda c: (deck.nature_mask[c] == 0, -c))
        self.stock = rest + list(reversed(stock_top))
        self.discards = []
        self.hands = [list(h) for h in hands]
        self._forget_all()
        self.tables = [[] for _ in range(n)]
        self.aside = [[] for _ in range(n)]
        self.claims = [0] * n
        self.skips = [0] * n
        self.queue = []
        self.turns = 0
        for h in self.hands:
            for c in h:
                if self.nat[c] & MISC:
                    self._roll(c, None)
        for s in range(n):
            self._recount(s)
        self._begin_turn(first)

    def _end_round(self, winner: int | None, score: Score | None, reason: str) -> None:
        res: dict[str, Any] = {
            "round": self.round + 1,
            "winner": winner,
            "pattern": score.pattern if score else None,
            "points": score.points if score else 0,
            "sets": score.to_json(self.deck)["sets"] if score else [],
            "breakdown": score.breakdown() if score else [],
            "reason": reason,
        }
        self.round_results.append(res)
        self.round_turns.append(self.turns)
        self.epoch += 1
        if self.log.enabled:
            self.log.emit("round_end", **res)
        self.round += 1
        self.queue = []
        if self.round >= self.rules.rounds:
            self._finish()
            return
        self.dealer = (self.dealer + 1) % self.players  # "the deal rotates"
        self._start_round()

    def _finish(self) -> None:
        self._over = True
        self.phase = OVER
        self.actor = -1
        self._to_act = ()
        self._legal = []
        top = max(self.scores)
        winners = [s for s in range(self.players) if self.scores[s] == top]
        patterns = [r["pattern"] for r in self.round_results if r["pattern"]]
        stats: dict[str, Any] = {
            "rounds": len(self.round_results),
            "round_length": sum(self.round_turns) / max(len(self.round_turns), 1),
            "no_winner_rounds": sum(1 for r in self.round_results if r["winner"] is None),
            "pattern": patterns,
            "round_outcome": [r["pattern"] or "no winner" for r in self.round_results],
        }
        if patterns:
            stats["winning_points"] = sum(
                r["points"] for r in self.round_results if r["pattern"]
            ) / len(patterns)
        self._result = Result([float(x) for x in self.scores], winners, stats)
        if self.log.enabled:
            self.log.emit("game_over", scores=list(self.scores), winners=winners)

    # ------------------------------------------------------------------ counts
    def _usable(self, s: int, c: int) -> bool:
        bans = self.bans[s]
        return not bans or self.deck.group_of[c] not in bans

    def _recount(self, s: int) -> None:
        kc = self.kc[s] = [0] * self.deck.num_keys
        hk = self.hk[s] = [0] * self.deck.num_keys
        ck = self.ckeys
        for c in self.hands[s]:
            if self._usable(s, c):
                for k in ck[c]:
                    kc[k] += 1
                    hk[k] += 1
        for _, cards in self.tables[s]:
            for c in cards:
                if self._usable(s, c):
                    for k in ck[c]:
                        kc[k] += 1
        self.big[s] = sum(1 for x in kc if x >= 4)

    def _add(self, s: int, c: int) -> None:
        self.hands[s].append(c)
        bans = self.bans[s]
        if bans and self.deck.group_of[c] in bans:
            return
        kc, hk = self.kc[s], self.hk[s]
        for k in self.ckeys[c]:
            hk[k] += 1
            kc[k] += 1
            if kc[k] == 4:
                self.big[s] += 1

    def _remove(self, s: int, c: int) -> None:
        self.hands[s].remove(c)
        if c in self.watched:
            self._left_hand(s, c)
        bans = self.bans[s]
        if bans and self.deck.group_of[c] in bans:
            return
        kc, hk = self.kc[s], self.hk[s]
        for k in self.ckeys[c]:
            hk[k] -= 1
            kc[k] -= 1
            if kc[k] == 3:
                self.big[s] -= 1

    def _table_count(self, s: int) -> int:
        return sum(len(cs) for _, cs in self.tables[s])

    # ------------------------------------------------------------------ knowledge
    # What each seat knows of hidden cards through honest monsters (reading 23),
    # kept so that determinize() resamples only the rest. A card move pays one
    # set lookup (``watched``: the cards someone knows the place of; it may hold
    # stale cards, which only cost a no-op update). Until the round's first peek
    # or seen hand (``knows`` False) clones share the empty structures, and
    # _learn() replaces them before the first write.
    def _forget_all(self) -> None:
        self.knows = False
        n = self.players
        # kstock[s]: cards s peeked that are still on top of the stock, top first.
        self.kstock: list[list[int]] = [[] for _ in range(n)]
        # khand[s][q]: cards s knows are in q's hand (seen, or peeked then drawn by q).
        self.khand: list[dict[int, set[int]]] = [{} for _ in range(n)]
        self.watched: set[int] = set()

    def _learn(self) -> None:
        if not self.knows:
            n = self.players
            self.kstock = [[] for _ in range(n)]
            self.khand = [{} for _ in range(n)]
            self.watched = set()
            self.knows = True

    def _drawn_from_stock(self, q: int, c: int) -> None:
        """``q`` drew the top card ``c``: the peeked cards below move up, and a
        seat that had peeked at ``c`` now knows it is in ``q``'s hand."""
        known = False
        for s, ks in enumerate(self.kstock):
            if not ks:
                continue
            if ks[0] != c:
                ks.clear()  # not the top any more (a sampled state): forget it
                continue
            del ks[0]
            if s != q:
                self.khand[s].setdefault(q, set()).add(c)
                known = True
        if not known:
            self.watched.discard(c)

    def _left_hand(self, q: int, c: int) -> None:
        """``c`` left ``q``'s hand in public (discarded, set aside, laid, tabled)."""
        for d in self.khand:
            known = d.get(q)
            if known:
                known.discard(c)
        self.watched.discard(c)

    # ------------------------------------------------------------------ natures
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
        if not self.stock:
            # Reading 6: "The stock running out ends the round with no winner."
            self._end_round(None, None, "the stock ran out")
            return False
        c = self.stock.pop()
        if c in self.watched:
            self._drawn_from_stock(s, c)
        if self.nat[c] & MISC:
            self._roll(c, [s])
        self._add(s, c)
        self.drawn.append(c)
        self.fresh_draw = True
        m = self.nat[c]
        if self.log.enabled:
            self.log.emit("drew", to=[s], seat=s, card=self._card(c))
            self.log.emit("drew", to=[o for o in range(self.players) if o != s], seat=s)
        if m & HONEST:
            self.queue.append((E_HONEST, c))
        if m & IMPATIENT:
            self.queue.append((E_IMPATIENT, c))
        return True

    def _discard(self, s: int, c: int, why: str) -> None:
        """Discard ``c`` from the hand of ``s``; its natures join the effect queue."""
        self._remove(s, c)
        m = self.nat[c]
        if m & PROUD:
            # "Set the proud monster aside so that you can see what type you can no longer collect."
            self.aside[s].append(c)
        else:
            self.discards.append(c)
            self.last_discard = c
        if self.log.enabled:
            self.log.emit("discarded", seat=s, card=self._card(c), why=why, aside=bool(m & PROUD))
        if m & (AGGRESSIVE | CHEERFUL | MEAN | PROUD):
            for bit, effect in _DISCARD_EFFECTS:
                if m & bit:
                    self.queue.append((effect, c))

    def _run(self) -> None:
        """Resolve queued effects until a decision is needed or the turn ends."""
        s = self.actor
        q = self.queue
        epoch = self.epoch
        while True:
            if self._over or self.epoch != epoch:
                return
            if q:
                effect, c = q.pop(0)
                if effect == E_AGG:
                    # "when discarded, such a monster can be sent to another player"
                    self.attack_card = c
                    self._set_phase(ATTACK_CHOICE, (s,))
                    return
                if effect == E_CHEER:
                    # "After discarding 1 merry monster, you must discard them all."
                    for o in [x for x in self.hands[s] if self.nat[x] & CHEERFUL]:
                        if o in self.hands[s]:
                            self._discard(s, o, "cheerful")
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
                    return
                continue
            # Reading 4: whenever effects finish, hand + table sets is 8.
            total = len(self.hands[s]) + self._table_count(s)
            if total > HAND_SIZE:
                self._set_phase(MAIN, (s,))
                return
            if total < HAND_SIZE:
                if not self._draw(s):
                    return
                continue
            if self.fresh_draw and self.big[s] and self._score(s) is not None:
                # Reading 2: a win may be declared after drawing, and a draw that
                # refills the hand to 8 is a draw too.
                self._set_phase(DECLARE, (s,))
                return
            self._end_turn(s)
            return

    def _proud(self, s: int, c: int) -> None:
        """ "You must discard all cards with the same type as the proud monster.
        Additionally, you can no longer collect cards with this type for the
        rest of the game." (A Beastman's "type" is its family: reading 1.)"""
        g = self.deck.group_of[c]
        for o in [x for x in self.hands[s] if self.deck.group_of[x] == g]:
            if o in self.hands[s]:
                self._discard(s, o, "proud")
        if g not in self.bans[s]:
            self.bans[s].add(g)
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
        self.peeks[s] = {"cards": [self._card(c) for c in top], "stock_then": len(self.stock)}
        if self.log.enabled:
            self.log.emit("peeked", to=[s], seat=s, cards=[self._card(c) for c in top])

    # ------------------------------------------------------------------ turn flow
    def _set_phase(self, phase: str, seats: tuple[int, ...]) -> None:
        self.phase = phase
        self._to_act = seats
        self._legal = None

    def _begin_turn(self, s: int) -> None:
        n = self.players
        while self.skips[s] > 0:
            # "The player who loses loses a turn."
            self.skips[s] -= 1
            if self.log.enabled:
                self.log.emit("skipped", seat=s)
            s = (s + 1) % n
        self.actor = s
        self.epoch += 1
        self.turns += 1
        self.drawn = []
        self.last_discard = -1
        if self._draw(s):
            self._run()

    def _end_turn(self, s: int) -> None:
        """The top discard may be claimed (reading 3), else the next player's turn."""
        c = self.last_discard
        if c >= 0 and self.discards and self.discards[-1] == c:
            seats, keys = self._claimants(s, c)
            if seats:
                self.claim_card, self.claim_from = c, s
                self.claim_seats, self.claim_keys = seats, keys
                self.claim_choice = {}
                self._set_phase(CLAIM_WINDOW, seats)
                if self.log.enabled:
                    for q in seats:
                        self.log.emit(
                            "claim_open",
                            to=[q],
                            card=self.deck.names[c],
                            keys=[self.deck.key_names[k] for k in keys[q]],
                        )
                return
        self._begin_turn((s + 1) % self.players)

    def _claimants(self, s: int, c: int) -> tuple[tuple[int, ...], dict[int, list[int]]]:
        """Seats that may claim ``c``, in turn order after the discarder."""
        if self.rules.loyal and self.nat[c] & LOYAL:
            return (), {}  # "Such a card cannot be taken into your set."
        g = self.deck.group_of[c]
        ks = self.ckeys[c]
        seats: list[int] = []
        keys: dict[int, list[int]] = {}
        n = self.players
        for i in range(1, n):
            q = (s + i) % n
            hk = self.hk[q]
            ok = [k for k in ks if hk[k] >= 3]
            if not ok or (self.bans[q] and g in self.bans[q]):
                continue
            if self._table_count(q) + 4 > HAND_SIZE:
                continue
            seats.append(q)
            keys[q] = ok
        return tuple(seats), keys

    def _resolve_claims(self) -> None:
        claimers = [q for q in self.claim_seats if self.claim_choice[q].kind == CLAIM]
        c, s = self.claim_card, self.claim_from
        if self.log.enabled:
            # Only the seats that were asked learn that the window closed unclaimed.
            self.log.emit(
                "claims_closed",
                to=None if claimers else self.claim_seats,
                card=self.deck.names[c],
                claimed=bool(claimers),
            )
        if not claimers:
            self._begin_turn((s + 1) % self.players)
            return
        if self.rules.claim_priority == "random" and len(claimers) > 1:
            q = claimers[self.rng.randrange(len(claimers))]
        else:
            q = claimers[0]  # "the first in turn order after the discarder"
        k = self.claim_choice[q].arg
        # Take the card, lay the 4-set: three of the key from hand, single-key cards first.
        self.discards.pop()
        ck = self.ckeys
        mine = [x for x in self.hands[q] if k in ck[x] and self._usable(q, x)]
        mine.sort(key=lambda x: len(ck[x]))
        if len(mine) < 3:  # only in a determinized sample: the claim cannot stand
            self.claim_choice[q] = self.mv.pass_
            self._resolve_claims()
            return
        three = mine[:3]
        for x in three:
            self.hands[q].remove(x)
            if x in self.watched:
                self._left_hand(q, x)
        cards = [*three, c]
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
            seen = [self._card(x) for x in self.hands[s]]
            self.seen_hands[q][str(s)] = seen
            self._learn()
            self.khand[q][s] = set(self.hands[s])
            self.watched.update(self.hands[s])
            if self.log.enabled:
                self.log.emit("saw_hand", to=[q], seat=q, target=s, cards=seen)
        self.actor = q
        self.epoch += 1
        self.drawn = []
        self.fresh_draw = False
        self.last_discard = -1
        self._set_phase(MAIN, (q,))  # "You then have to discard 1 card"

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

    def _win(self, s: int) -> None:
        score = self._score(s)
        assert score is not None
        self.scores[s] += score.points
        if self.log.enabled:
            self.log.emit(
                "won",
                seat=s,
                hand=[self._card(c) for c in self.hands[s]],
                **score.to_json(self.deck),
            )
        self._end_round(s, score, "a winning hand")

    def _score(self, s: int) -> Score | None:
        """The best winning split of the hand and table sets of ``s`` (or None)."""
        if self.big[s] == 0:
            return None  # every pattern needs 4 cards of one key
        unusable: set[int] = set()
        if self.bans[s]:
            g = self.deck.group_of
            unusable = {c for c in self.hands[s] if g[c] in self.bans[s]}
            for _, cs in self.tables[s]:
                if any(g[c] in self.bans[s] for c in cs):
                    return None  # "may not [...] win with that type"
        return best_score(
            self.deck,
            self.hands[s],
            self.tables[s],
            self.claims[s],
            self.seven_plus_one,
            self.ckeys,
            unusable,
        )

    # ------------------------------------------------------------------ protocol
    def to_act(self) -> tuple[int, ...]:
        return self._to_act

    def legal(self, seat: int) -> Sequence[Move]:
        if seat not in self._to_act:
            return []
        phase = self.phase
        if phase == MAIN:
            if self._legal is None:
                self._legal = self._main_legal(seat)
            return self._legal
        mv = self.mv
        if phase == CLAIM_WINDOW:
            if seat in self.claim_choice:
                return []
            return [*(mv.claim[k] for k in self.claim_keys[seat]), mv.pass_]
        if phase == DUEL:
            if seat in self.duel_choice:
                return []
            return mv.rps
        if phase == ATTACK_CHOICE:
            return [*(mv.attack[t] for t in range(self.players) if t != seat), mv.no_attack]
        if phase == IMPATIENT_CHOICE:
            return [mv.draw, mv.stop]
        if phase == DECLARE:
            return [mv.win, mv.pass_]
        return []

    def _main_legal(self, s: int) -> list[Move]:
        mv = self.mv
        hand = self.hands[s]
        out = [mv.discard[c] for c in hand]
        excess = len(hand) + self._table_count(s) - HAND_SIZE
        if self.tables[s] and self.drawn and len(hand) > excess:
            # "When you draw another card of this type you can add it to the table."
            # (Not the last card that could pay the excess: the hand must still discard.)
            tkeys = {k for k, _ in self.tables[s]}
            for c in self.drawn:
                if c in hand and self._usable(s, c) and any(k in tkeys for k in self.ckeys[c]):
                    out.append(mv.table[c])
        if self.big[s] and self._score(s) is not None:
            out.append(mv.win)
        return out

    def apply(self, seat: int, action: Any) -> None:
        if seat not in self._to_act:
            raise NotYourTurn(
                f"seat {seat} has no decision to make now"
                + (
                    f"; waiting for seat(s) {', '.join(map(str, self._to_act))}"
                    if self._to_act
                    else "; the game is over"
                )
            )
        legal = self.legal(seat)
        if action not in legal:
            raise IllegalAction(f"{action} is not a legal action for seat {seat} now", legal)
        kind = action.kind
        if kind == DISCARD:
            self._legal = None
            self.fresh_draw = False
            self._discard(seat, action.arg, "chosen")
            self._run()
        elif kind == TABLE:
            c = action.arg
            tkeys = [i for i, (k, _) in enumerate(self.tables[seat]) if k in self.ckeys[c]]
            k, cards = self.tables[seat][tkeys[0]]
            self.hands[seat].remove(c)
            if c in self.watched:
                self._left_hand(seat, c)
            cards.append(c)
            self._recount(seat)
            self._legal = None
            if self.log.enabled:
                self.log.emit("tabled", seat=seat, card=self._card(c), key=self.deck.key_names[k])
        elif kind == WIN:
            self._win(seat)
        elif kind == PASS and self.phase == DECLARE:
            self.fresh_draw = False
            self._end_turn(seat)
        elif kind in (CLAIM, PASS):
            self.claim_choice[seat] = action
            if self.log.enabled:
                self.log.emit("decided", to=[seat], seat=seat, choice=str(action))
            if len(self.claim_choice) == len(self.claim_seats):
                self._resolve_claims()
            else:
                self._to_act = tuple(q for q in self.claim_seats if q not in self.claim_choice)
        elif kind == RPS:
            self.duel_choice[seat] = action.arg
            if self.log.enabled:
                self.log.emit("decided", to=[seat], seat=seat, choice=str(action))
            assert self.duel is not None
            a, t, _ = self.duel
            if a in self.duel_choice and t in self.duel_choice:
                self._resolve_duel()
            else:
                self._to_act = tuple(x for x in (a, t) if x not in self.duel_choice)
        elif kind == ATTACK:
            t = action.arg
            if self.log.enabled:
                self.log.emit("attack", seat=seat, target=t, card=self.deck.names[self.attack_card])
            self.duel = (seat, t, self.attack_card)
            self.duel_choice = {}
            self.duel_ties = 0
            self._set_phase(DUEL, (seat, t))
        elif kind == NO_ATTACK:
            self.phase = MAIN
            self._run()
        elif kind == DRAW:
            self.phase = MAIN
            if self._draw(seat):
                self._run()
        elif kind == STOP:
            self.phase = MAIN
            self._run()

    @property
    def over(self) -> bool:
        return self._over

    @property
    def result(self) -> Result | None:
        return self._result

    def action_index(self, action: Any) -> int:
        if not isinstance(action, Move):
            raise IllegalAction(f"{action} is not a taxonomy action")
        return self.mv.index(action)

    def action_from_index(self, seat: int, index: int) -> Move:
        m = self.mv.by_index(index)
        legal = self.legal(seat)
        if m is None or m not in legal:
            raise IllegalAction(f"action {index} is not legal for seat {seat} now", legal)
        return m

    # ------------------------------------------------------------------ copies
    def clone(self) -> TaxonomyState:
        o = TaxonomyState.__new__(TaxonomyState)
        o.__dict__.update(self.__dict__)
        o.rng = self.rng.copy()
        o.log = self.log.copy()
        o.scores = list(self.scores)
        o.bans = [set(b) for b in self.bans]
        o.round_results = list(self.round_results)
        o.round_turns = list(self.round_turns)
        o.nat = list(self.nat)
        o.roll = list(self.roll)
        o.ckeys = list(self.ckeys)
        o._cc = list(self._cc)
        o.stock = list(self.stock)
        o.discards = list(self.discards)
        o.hands = [list(h) for h in self.hands]
        o.tables = [[(k, list(cs)) for k, cs in t] for t in self.tables]
        o.aside = [list(a) for a in self.aside]
        o.claims = list(self.claims)
        o.skips = list(self.skips)
        o.peeks = list(self.peeks)
        if self.knows:
            o.kstock = [list(k) for k in self.kstock]
            o.khand = [{q: set(cs) for q, cs in d.items()} for d in self.khand]
            o.watched = set(self.watched)
        o.seen_hands = [dict(d) for d in self.seen_hands]
        o.queue = list(self.queue)
        o.drawn = list(self.drawn)
        o.claim_keys = dict(self.claim_keys)
        o.claim_choice = dict(self.claim_choice)
        o.duel_choice = dict(self.duel_choice)
        o.kc = [list(x) for x in self.kc]
        o.hk = [list(x) for x in self.hk]
        o.big = list(self.big)
        o._legal = None
        return o

    def determinize(self, seat: int, rng: Rng) -> TaxonomyState:
        """Resample what ``seat`` cannot see: the other hands, the stock order,
        the rolls of hidden miscellaneous cards, the other seats' hidden choices
        and the future of the RNG. What the seat remembers stays where it is
        (reading 23): the peeked cards still on top of the stock, in order, and
        the cards it knows are in another hand (seen through a claimed honest
        monster, or peeked and then drawn by that seat), with their rolls.
        Other seats' knowledge is dropped from the sample (it named real cards)."""
        o = self.clone()
        o.rng = rng.fork()
        n = self.players
        me = 0 <= seat < n
        known_top: list[int] = []
        known_in: dict[int, set[int]] = {}
        if self.knows:
            if me:
                known_top = self.kstock[seat]
                known_in = self.khand[seat]
            o.kstock = [ks if q == seat else [] for q, ks in enumerate(o.kstock)]
            o.khand = [d if q == seat else {} for q, d in enumerate(o.khand)]
        stock = self.stock
        top = len(stock) - len(known_top)  # stock[top:] holds the known cards (reversed)
        pool = [
            c for q in range(n) if q != seat for c in self.hands[q] if c not in known_in.get(q, ())
        ]
        pool += stock[:top]
        misc = self.deck.misc
        for c in pool:
            if misc[c]:
                o.nat[c] = self.deck.nature_mask[c]
                o.roll[c] = 0
                o.ckeys[c] = self.deck.keys_of[c]
                o._cc[c] = None
        rng.shuffle(pool)
        for q in range(n):
            if q == seat:
                continue
            kept = known_in.get(q)
            if kept:
                o.hands[q] = [c if c in kept else pool.pop() for c in self.hands[q]]
            else:
                o.hands[q] = [pool.pop() for _ in self.hands[q]]
        o.stock = pool + stock[top:]
        quiet, o.log.enabled = o.log.enabled, False
        for q in range(n):
            if q == seat:
                continue
            for c in o.hands[q]:
                if o.nat[c] & MISC:
                    o._roll(c, [q])
            o._recount(q)
        o.log.enabled = quiet
        # Hidden simultaneous choices of other seats are forgotten (they choose
        # again). Who may claim stays as it was: to_act() showed it.
        if o.phase == CLAIM_WINDOW:
            o.claim_choice = {q: m for q, m in self.claim_choice.items() if q == seat}
            o._to_act = tuple(q for q in o.claim_seats if q not in o.claim_choice)
        elif o.phase == DUEL:
            # That the other seat has chosen is public; what it chose is resampled.
            o.duel_choice = {
                q: (v if q == seat else rng.randrange(3)) for q, v in self.duel_choice.items()
            }
        o._legal = None
        return o

    def _card(self, c: int) -> dict[str, Any]:
        """The card as views and events show it. Cached until its nature changes
        (a roll), so a view of a long discard pile stays cheap; views share these
        dicts, so readers must not mutate them."""
        d = self._cc[c]
        if d is None:
            card = self.deck.cards[c]
            d = self._cc[c] = {
                "name": card.name,
                "type": card.type,
                "family": card.family,
                "keys": [self.deck.key_names[k] for k in self.ckeys[c]],
                "natures": natures_of_mask(self.nat[c]),
                "roll": self.roll[c] or None,
            }
        return d

    def _prompt(self, seat: int | None) -> str:
        if seat is None or seat not in self._to_act:
            return ""
        p = self.phase
        if p == MAIN:
            extra = len(self.hands[seat]) + self._table_count(seat) - HAND_SIZE
            return f"discard {extra} card{'s' if extra > 1 else ''} (or table a drawn card, or win)"
        if p == CLAIM_WINDOW:
            return f"claim {self.deck.names[self.claim_card]} or pass"
        if p == DUEL:
            return "rock, paper or scissors?"
        if p == ATTACK_CHOICE:
            return f"send {self.deck.names[self.attack_card]} at a player, or not"
        if p == IMPATIENT_CHOICE:
            return "an impatient monster: draw another card, or stop"
        if p == DECLARE:
            return "your hand wins: declare it (win), or play on (pass)"
        return ""

    def view(self, seat: int | None) -> dict[str, Any]:
        n = self.players
        me = seat if seat is not None and 0 <= seat < n else None
        names = self.deck.key_names
        card = self._card
        claim = None
        if self.phase == CLAIM_WINDOW and me is not None and me in self.claim_seats:
            claim = {
                "card": card(self.claim_card),
                "discarder": self.claim_from,
                "keys": [names[k] for k in self.claim_keys.get(me, [])],
                "decided": me in self.claim_choice,
            }
        duel = None
        if self.phase == DUEL and self.duel is not None:
            a, t, c = self.duel
            mine = self.duel_choice.get(me) if me is not None else None
            duel = {
                "attacker": a,
                "target": t,
                "card": card(c),
                "ties": self.duel_ties,
                "your_choice": RPS_NAMES[mine] if mine is not None else None,
                "decided": [x for x in (a, t) if x in self.duel_choice and x == me],
            }
        attack = None
        if self.phase == ATTACK_CHOICE and me == self.actor:
            attack = {
                "card": card(self.attack_card),
                "targets": [t for t in range(n) if t != me],
            }
        to_act: list[int] = list(self._to_act)
        if self.phase == CLAIM_WINDOW:
            to_act = [me] if me is not None and me in self._to_act else []
        hand_keys: dict[str, int] = {}
        if me is not None:
            for c in self.hands[me]:
                for k in self.ckeys[c]:
                    hand_keys[names[k]] = hand_keys.get(names[k], 0) + 1
        result = None
        if self._result is not None:
            result = {"scores": self._result.scores, "winners": self._result.winners}
        return {
            "game": "taxonomy",
            "variant": {
                "rounds": self.rules.rounds,
                "loyal": self.rules.loyal,
                "beastman_orphans": self.rules.beastman_orphans,
                "orphan_eight": self.rules.orphan_eight,
            },
            "seat": seat,
            "players": n,
            "phase": self.phase,
            "to_act": to_act,
            "prompt": self._prompt(me),
            "turn": self.actor,
            "dealer": self.dealer,
            "round": min(self.round + 1, self.rules.rounds),
            "rounds": self.rules.rounds,
            "turns": self.turns,
            "hand": [card(c) for c in self.hands[me]] if me is not None else None,
            "hand_keys": hand_keys,
            "drawn": [self.deck.names[c] for c in self.drawn if me == self.actor]
            if me is not None
            else [],
            "hand_counts": [len(h) for h in self.hands],
            "tables": [
                [{"key": names[k], "cards": [card(c) for c in cs]} for k, cs in t]
                for t in self.tables
            ],
            "discard_top": card(self.discards[-1]) if self.discards else None,
            "discards": [card(c) for c in self.discards],
            "stock": len(self.stock),
            "set_aside": [[card(c) for c in a] for a in self.aside],
            "bans": [sorted(self.deck.group_names[g] for g in b) for b in self.bans],
            "claims": list(self.claims),
            "skips": list(self.skips),
            "scores": list(self.scores),
            "can_win": bool(
                me is not None
                and self.phase in (MAIN, DECLARE)
                and me in self._to_act
                and self.mv.win in self.legal(me)
            ),
            "claim": claim,
            "duel": duel,
            "attack": attack,
            "peek": self.peeks[me] if me is not None else None,
            "seen_hands": dict(self.seen_hands[me]) if me is not None else {},
            "last_round": self.round_results[-1] if self.round_results else None,
            "round_results": list(self.round_results),
            "key_sizes": {names[k]: self.deck.key_size[k] for k in range(self.deck.num_keys)},
            "orphan_keys": sorted(names[k] for k in self.deck.orphan_keys),
            "result": result,
        }
