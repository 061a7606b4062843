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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

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
    KEEP,
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
from .scoring import HAND_SIZE, Score, ScoringTable, best_score
from .scoring_file import load_scoring
from .view import (
    ATTACK_CHOICE,
    CLAIM_WINDOW,
    DECLARE,
    DUEL,
    IMPATIENT_CHOICE,
    MAIN,
    OVER,
    seat_view,
)

# Effect queue items: (effect, card).
E_AGG, E_CHEER, E_MEAN, E_PROUD, E_HONEST, E_IMPATIENT = range(6)
_DISCARD_EFFECTS = ((AGGRESSIVE, E_AGG), (CHEERFUL, E_CHEER), (MEAN, E_MEAN), (PROUD, E_PROUD))
_DISCARD_NATURES = AGGRESSIVE | CHEERFUL | MEAN | PROUD


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
    scoring: str = option(
        "", "scoring table (TOML) to use instead of the shipped data/scoring.toml", path=True
    )
    claim_window: str = option(
        "eligible",
        "who answers a discard: the seats that may claim it (as at the table), or every "
        "other seat, claim or pass (no timing signal: RL, tournaments)",
        choices=("eligible", "all"),
    )

    def validate(self) -> None:
        # A malformed card file or scoring table is reported when the option is given.
        load_deck(self.cards, self.beastman_orphans)
        load_scoring(self.scoring)

    def deck(self) -> Deck:
        return load_deck(self.cards, self.beastman_orphans)

    def scoring_table(self) -> ScoringTable:
        return load_scoring(self.scoring)


class TaxonomyState(State):
    """One game of Monster Girl Taxonomy.

    ``view(seat)`` returns a JSON-safe dict with exactly these keys:

    - ``game`` "taxonomy", ``variant`` (rules summary), ``seat`` (int or None),
      ``players``
    - ``phase``: "discard" | "attack" | "duel" | "impatient" | "claim" |
      "declare" (a refill draw completed a winning hand: ``win`` or ``pass``) |
      "over". "claim" only for a seat asked about the discard; a seat not
      asked sees "discard" with an empty ``to_act`` (view.py, reading 22)
    - ``to_act``: seats owing a decision *that this seat may know of*
      (during a claim window only the seat itself, if it is asked)
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
      claim under; empty if it may only pass], "decided": bool, "key": the key
      it claims under or None, "kept": [cards it keeps out of the set],
      "to_keep": cards it must still choose to keep}`` (only for an asked seat)
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
    - ``scoring``: the scoring table in force (``data/scoring.toml`` as JSON)
    - ``result``: None, or at the end ``{"scores", "winners"}``
    """

    game: Game
    rules: TaxonomyRules

    # Immutable once built: the card tables, the action objects, the scoring table.
    SHARED: ClassVar[frozenset[str]] = frozenset(
        {
            "game",
            "rules",
            "deck",
            "mv",
            "scoring",
            "seven_plus_one",
            "group_of",
            "after",
            "attack_moves",
            "loyal_rule",
            "window_all",
        }
    )
    # Derived: card dicts for views (rebuilt when a roll changes a card) and
    # the legal moves of the discard phase.
    CACHES: ClassVar[frozenset[str]] = frozenset({"_cc", "_legal", "_rr_json"})

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
        self.scoring = rules.scoring_table()  # loaded once per match
        self.rng = Rng(seed)
        self.log = EventLog()
        n = players
        self.seven_plus_one = rules.orphan_eight == "seven-plus-one"
        # Read on every turn: the rules' options and the deck's groups, looked up once.
        self.loyal_rule = rules.loyal
        self.window_all = rules.claim_window == "all"
        self.group_of = deck.group_of
        # after[s]: the other seats in turn order after s (who answers s's discard first).
        self.after = tuple(tuple((s + i) % n for i in range(1, n)) for s in range(n))
        # An aggressive monster's moves: send it at another seat, or not.
        self.attack_moves = tuple(
            (*(self.mv.attack[t] for t in range(n) if t != s), self.mv.no_attack) for s in range(n)
        )
        self.scores = [0] * n
        self.bans: list[set[int]] = [set() for _ in range(n)]
        self.round = 0
        self.dealer = 0
        # Finished rounds: immutable, so copies share them; their JSON is a cache.
        self.round_results: tuple[RoundResult, ...] = ()
        self._rr_json: list[dict[str, Any]] | None = None
        self.round_turns: list[int] = []
        self._over = False
        self._result: Result | None = None
        # Bumped whenever the acting seat changes, so an effect loop that
        # started a new turn (or round) stops instead of resolving twice.
        self.epoch = 0
        self.phase = MAIN
        self.actor = 0
        self._to_act: tuple[int, ...] = ()
        self._legal: Sequence[Move] | None = None
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
        # Honest peeks: (cards top first, stock size then); hands seen through a
        # claimed honest monster: {seat: cards then}. Card ids: natures stay put
        # until the next round's reshuffle, so the view rebuilds what was seen.
        self.peeks: list[tuple[tuple[int, ...], int] | None] = [None] * n
        self._forget_all()
        self.seen_hands: list[dict[int, tuple[int, ...]]] = [{} for _ in range(n)]
        self.queue: list[tuple[int, int]] = []
        self.drawn: list[int] = []
        self.last_discard = -1
        self.fresh_draw = False
        self.claim_card = -1
        self.claim_from = -1
        self.claim_seats: tuple[int, ...] = ()
        self.claim_keys: dict[int, tuple[int, ...]] = {}
        self.claim_choice: dict[int, Move] = {}
        self.claim_keep: dict[int, tuple[int, ...]] = {}
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
        self.threes = [0] * deck.num_keys
        self.big = [0] * n
        self.tabled = [0] * n
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
        self.peeks = [None] * n
        self.seen_hands = [{} for _ in range(n)]
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
        self.tabled = [0] * n
        for s in range(n):
            self._recount(s)
        self._begin_turn(first)

    def _end_round(self, winner: int | None, score: Score | None, reason: str) -> None:
        res = RoundResult(self.round + 1, winner, score, reason)
        self.round_results = (*self.round_results, res)
        self._rr_json = None
        self.round_turns.append(self.turns)
        self.epoch += 1
        if self.log.enabled:
            self.log.emit("round_end", **res.to_json(self.deck))
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
        patterns = [r.pattern for r in self.round_results if r.pattern]
        stats: dict[str, Any] = {
            "rounds": len(self.round_results),
            "round_length": sum(self.round_turns) / max(len(self.round_turns), 1),
            "no_winner_rounds": sum(1 for r in self.round_results if r.winner is None),
            "pattern": patterns,
            "round_outcome": [r.pattern or "no winner" for r in self.round_results],
        }
        if patterns:
            stats["winning_points"] = sum(r.points for r in self.round_results if r.pattern) / len(
                patterns
            )
        self._result = Result([float(x) for x in self.scores], winners, stats)
        if self.log.enabled:
            self.log.emit("game_over", scores=list(self.scores), winners=winners)

    # ------------------------------------------------------------------ counts
    # kc[s][k]: the cards of key k that s holds (hand and table sets; a banned
    # type counts for nothing); hk[s][k]: those in hand; big[s]: the keys held
    # 4 or more times; tabled[s]: the cards in s's table sets; threes[k]: the
    # seats holding 3 or more of key k in hand (who might claim it). _draw and
    # _discard keep them card by card (the hot path); _recount counts again
    # after any other change (a claim, a tabled card, a ban).
    def _usable(self, s: int, c: int) -> bool:
        bans = self.bans[s]
        return not bans or self.deck.group_of[c] not in bans

    def _recount(self, s: int) -> None:
        """Count again every key of ``s`` (hand and table) after a change that
        is not one card in or out: a claim, a tabled card, a ban."""
        self.tabled[s] = sum(len(cs) for _, cs in self.tables[s])
        threes = self.threes
        for k, x in enumerate(self.hk[s]):
            if x >= 3:
                threes[k] -= 1
        kc = self.kc[s] = [0] * self.deck.num_keys
        hk = self.hk[s] = [0] * self.deck.num_keys
        ck = self.ckeys
        bans, group_of = self.bans[s], self.group_of
        for c in self.hands[s]:
            if not bans or group_of[c] not in bans:
                for k in ck[c]:
                    kc[k] += 1
                    hk[k] += 1
        for _, cards in self.tables[s]:
            for c in cards:
                if not bans or group_of[c] not in bans:
                    for k in ck[c]:
                        kc[k] += 1
        self.big[s] = sum(1 for x in kc if x >= 4)
        for k, x in enumerate(hk):
            if x >= 3:
                threes[k] += 1

    def _excess(self, s: int) -> int:
        """Cards ``s`` holds beyond 8, hand and table sets together (reading 4)."""
        return len(self.hands[s]) + self.tabled[s] - HAND_SIZE

    def _table_count(self, s: int) -> int:
        return self.tabled[s]  # kept by _recount, which every change of a table calls

    # ------------------------------------------------------------------ knowledge
    # What each seat knows of hidden cards through honest monsters (reading 23),
    # kept so that determinize() resamples only the rest. A card move pays one
    # set lookup (``watched``: the cards someone knows the place of; it may hold
    # stale cards, which only cost a no-op update). ``knows``: someone learned
    # something this round.
    def _forget_all(self) -> None:
        self.knows = False
        n = self.players
        # kstock[s]: cards s peeked that are still on top of the stock, top first.
        self.kstock: list[list[int]] = [[] for _ in range(n)]
        # khand[s][q]: cards s knows are in q's hand (seen, or peeked then drawn by q).
        self.khand: list[dict[int, set[int]]] = [{} for _ in range(n)]
        self.watched: set[int] = set()

    def _learn(self) -> None:
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
                hk[k] += 1
                if hk[k] == 3:
                    self.threes[k] += 1
                kc[k] += 1
                if kc[k] == 4:
                    self.big[s] += 1
        self.drawn.append(c)
        self.fresh_draw = True
        if self.log.enabled:
            self.log.emit("drew", to=[s], seat=s, card=self._card(c))
            self.log.emit("drew", to=[o for o in range(self.players) if o != s], seat=s)
        if m & (HONEST | IMPATIENT):
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
                hk[k] -= 1
                if hk[k] == 2:
                    self.threes[k] -= 1
                kc[k] -= 1
                if kc[k] == 3:
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
            for bit, effect in _DISCARD_EFFECTS:
                if m & bit:
                    self.queue.append((effect, c))

    def _run(self) -> None:
        """Resolve queued effects until a decision is needed or the turn ends."""
        s = self.actor
        q = self.queue
        epoch = self.epoch
        hand = self.hands[s]
        while True:
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
                if self._over or self.epoch != epoch:
                    return  # the effect ended the turn (or the round)
                continue
            # Reading 4: whenever effects finish, hand + table sets is 8.
            total = len(hand) + self.tabled[s]
            if total > HAND_SIZE:
                self.phase, self._to_act, self._legal = MAIN, (s,), None
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
        self.peeks[s] = (tuple(top), len(self.stock))
        if self.log.enabled:
            self.log.emit("peeked", to=[s], seat=s, cards=[self._card(c) for c in top])

    # ------------------------------------------------------------------ turn flow
    def _set_phase(self, phase: str, seats: tuple[int, ...]) -> None:
        self.phase = phase
        self._to_act = seats
        self._legal = None

    def _begin_turn(self, s: int) -> None:
        skips = self.skips
        while skips[s] > 0:
            # "The player who loses loses a turn."
            skips[s] -= 1
            if self.log.enabled:
                self.log.emit("skipped", seat=s)
            s = (s + 1) % self.players
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
        if c >= 0 and self.discards[-1] == c and (self.window_all or self._anyone_holds_three(c)):
            seats, keys = self._window(s, c)
            if seats:
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
                            keys=[self.deck.key_names[k] for k in keys[q]],
                        )
                return
        self._begin_turn(self.after[s][0])

    def _anyone_holds_three(self, c: int) -> bool:
        """Does some seat hold three cards of a key of ``c`` (the first test of
        a claim, answered from the counts without asking each seat)?"""
        threes = self.threes
        for k in self.ckeys[c]:  # noqa: SIM110 (a loop: any() and a generator cost more here)
            if threes[k]:
                return True
        return False

    def _window(self, s: int, c: int) -> tuple[tuple[int, ...], dict[int, tuple[int, ...]]]:
        """The seats asked about ``c`` and the keys each may claim it under:
        the seats that may claim (``claim_window=eligible``), or every other
        seat (``all``: those that may not claim can only pass)."""
        keys = self._claimants(s, c)
        if self.window_all:
            seats = self.after[s]
            return seats, {q: keys.get(q, ()) for q in seats}
        return tuple(keys), keys

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
            kept = self.claim_keep.get(seat, ())
            text = str(self.claim_choice[seat]) + "".join(
                f", keep {self.deck.names[c]}" for c in kept
            )
            self.log.emit("decided", to=[seat], seat=seat, choice=text)
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
        # ... and a second key of 3 or more (4+4, 5+3), or 7 of one (8; 7 orphans and
        # one other). The counts hold at least what best_score counts, so this only
        # skips the search where it would find nothing.
        counts = sorted(self.kc[s])
        if counts[-1] < 7 and counts[-2] < 3:
            return None
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
            scoring=self.scoring,
        )

    # ------------------------------------------------------------------ protocol
    def to_act(self) -> tuple[int, ...]:
        return self._to_act

    def legal(self, seat: int) -> Sequence[Move]:
        if seat not in self._to_act:
            return []
        if self._legal is not None:  # built for the one deciding seat (discard, declare)
            return self._legal
        phase = self.phase
        if phase == MAIN:
            self._legal = self._main_legal(seat)
            return self._legal
        mv = self.mv
        # Moves that are the same for every seat asked (a duel, an attack, an
        # impatient draw) are kept in _legal too, until the phase changes.
        if phase == DUEL:
            if seat in self.duel_choice:
                return []
            self._legal = mv.rps
            return mv.rps
        if phase == CLAIM_WINDOW:
            if seat not in self.claim_choice:
                return [*(mv.claim[k] for k in self.claim_keys[seat]), mv.pass_]
            if self.claim_open_choice(seat):
                return [mv.keep[x] for x in self.lay_candidates(seat)]
            return []
        if phase == ATTACK_CHOICE:
            self._legal = self.attack_moves[seat]
            return self._legal
        if phase == IMPATIENT_CHOICE:
            self._legal = mv.impatient
            return mv.impatient
        if phase == DECLARE:
            # Always a win in a real game; in a sample for another seat the
            # resampled hand may not win (view.py: others cannot tell).
            if self._legal is None:
                self._legal = [mv.win, mv.pass_] if self._score(seat) else [mv.pass_]
            return self._legal
        return []

    def _main_legal(self, s: int) -> list[Move]:
        mv = self.mv
        hand = self.hands[s]
        discard = mv.discard
        out = [discard[c] for c in hand]
        if self.tables[s] and self.drawn and len(hand) > self._excess(s):
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
        # The discard phase's moves were built when the driver asked for them.
        legal: Sequence[Move] | None = self._legal
        if legal is None:
            legal = self.legal(seat)
        if action not in legal:
            raise IllegalAction(f"{action} is not a legal action for seat {seat} now", legal)
        kind = action.kind
        # The kinds in order of frequency (random play: discards, then duels, attacks).
        if kind == DISCARD:
            self._legal = None
            self.fresh_draw = False
            self._discard(seat, action.arg, "chosen")
            self._run()
        elif kind == RPS:
            choice = self.duel_choice
            choice[seat] = action.arg
            if self.log.enabled:
                self.log.emit("decided", to=[seat], seat=seat, choice=str(action))
            assert self.duel is not None
            a, t, _ = self.duel
            if a in choice and t in choice:
                self._resolve_duel()
            else:
                self._to_act = (t,) if a in choice else (a,)
        elif kind == ATTACK:
            t = action.arg
            if self.log.enabled:
                self.log.emit("attack", seat=seat, target=t, card=self.deck.names[self.attack_card])
            self.duel = (seat, t, self.attack_card)
            self.duel_choice = {}
            self.duel_ties = 0
            self._set_phase(DUEL, (seat, t))
        elif kind in (NO_ATTACK, STOP):
            self.phase = MAIN
            self._run()
        elif kind == DRAW:
            self.phase = MAIN
            if self._draw(seat):
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
        else:  # CLAIM, PASS, KEEP in a claim window
            self._claim_step(seat, action)

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
        return self._copy(self.rng.copy())

    def _copy(self, rng: Rng) -> TaxonomyState:
        """A copy with ``rng`` as its RNG (determinize() gives a fresh one: copying
        the Mersenne Twister's state would be most of the copy's cost, thrown away)."""
        o = TaxonomyState.__new__(TaxonomyState)
        o.__dict__.update(self.__dict__)
        o.rng = rng
        o.log = self.log.copy()
        o.scores = list(self.scores)
        o.bans = [set(b) for b in self.bans]
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
        o.kstock = [list(k) for k in self.kstock]
        o.khand = [{q: set(cs) for q, cs in d.items()} for d in self.khand]
        o.watched = set(self.watched)
        o.seen_hands = [dict(d) for d in self.seen_hands]
        o.queue = list(self.queue)
        o.drawn = list(self.drawn)
        o.claim_keys = dict(self.claim_keys)
        o.claim_choice = dict(self.claim_choice)
        o.claim_keep = dict(self.claim_keep)
        o.duel_choice = dict(self.duel_choice)
        o.kc = [list(x) for x in self.kc]
        o.hk = [list(x) for x in self.hk]
        o.big = list(self.big)
        o.tabled = list(self.tabled)
        o.threes = list(self.threes)
        o._legal = None
        return o

    def zones(self) -> Mapping[str, Sequence[int]]:
        """Every card by zone (tests/test_trust.py checks that a determinization
        holds each card exactly once)."""
        n = self.players
        out: dict[str, Sequence[int]] = {"stock": list(self.stock), "discards": list(self.discards)}
        for q in range(n):
            out[f"hand {q}"] = list(self.hands[q])
            out[f"table {q}"] = [c for _, cs in self.tables[q] for c in cs]
            out[f"aside {q}"] = list(self.aside[q])
        return out

    def determinize(self, seat: int, rng: Rng) -> TaxonomyState:
        """Resample what ``seat`` cannot see: the other hands, the stock order,
        the rolls of hidden miscellaneous cards, the other seats' hidden choices
        and the future of the RNG. What the seat remembers stays where it is
        (reading 23): the peeked cards still on top of the stock, in order, and
        the cards it knows are in another hand (seen through a claimed honest
        monster, or peeked and then drawn by that seat), with their rolls.
        Other seats' knowledge is dropped from the sample (it named real cards).
        In a claim window, who is asked is worked out again from the sampled
        hands (reading 22)."""
        o = self._copy(rng.fork())
        n = self.players
        me = 0 <= seat < n
        known_top: list[int] = []
        known_in: dict[int, set[int]] = {}
        if me:
            known_top = self.kstock[seat]
            known_in = self.khand[seat]
        o.kstock = [list(ks) if q == seat else [] for q, ks in enumerate(self.kstock)]
        o.khand = [
            {p: set(cs) for p, cs in d.items()} if q == seat else {}
            for q, d in enumerate(self.khand)
        ]
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
        if o.phase == CLAIM_WINDOW:
            o._reopen_window(seat, self, known_in, rng)
        o.log.enabled = quiet
        if o.phase == DUEL:
            # That the other seat has chosen is public; what it chose is resampled.
            o.duel_choice = {
                q: (v if q == seat else rng.randrange(3)) for q, v in self.duel_choice.items()
            }
        o._legal = None
        return o

    def _reopen_window(
        self, seat: int, real: TaxonomyState, known_in: Mapping[int, set[int]], rng: Rng
    ) -> None:
        """Work out again who is asked about the discard in a sampled world;
        keep only ``seat``'s own answer (the others answer again). ``seat``'s
        own eligibility rests on its hand and public facts, so it is asked in
        the sample exactly when it is asked in the real game."""
        c, s = self.claim_card, self.claim_from
        seats, keys = self._window(s, c)
        if not seats and seat not in real.claim_seats:
            # A seat not asked knows only that the table waits — someone may claim
            # (the passage of time, reading 22): the sample must have a claimant.
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

    def view(self, seat: int | None) -> dict[str, Any]:
        return seat_view(self, seat)

    def results_json(self) -> list[dict[str, Any]]:
        """Every finished round as JSON (cached; views share it: readers must not mutate)."""
        if self._rr_json is None:
            self._rr_json = [r.to_json(self.deck) for r in self.round_results]
        return self._rr_json


@dataclass(frozen=True)
class RoundResult:
    """A finished round: its winner and winning hand's score (None: no winner)."""

    round: int
    winner: int | None
    score: Score | None
    reason: str

    @property
    def pattern(self) -> str | None:
        return self.score.pattern if self.score else None

    @property
    def points(self) -> int:
        return self.score.points if self.score else 0

    def to_json(self, deck: Deck) -> dict[str, Any]:
        score = self.score
        return {
            "round": self.round,
            "winner": self.winner,
            "pattern": self.pattern,
            "points": self.points,
            "sets": score.to_json(deck)["sets"] if score else [],
            "breakdown": score.breakdown() if score else [],
            "reason": self.reason,
        }
