"""Monster Girl Taxonomy: the State — rounds, the turn, and the protocol.

The turn, as the rulebook says it: "Each turn a player draws one card from
the pile in the middle and discards 1 from his hand. Each player must always
have 8 cards [...] either by discarding the excess, or by drawing up to 8
from the middle." Readings of the unclear parts are in RULES.md (numbered
as in the issue) and quoted where they are implemented.

The state is built in layers, one module each, importing downward only:

- ``phases.py``: the phase names and their table (who acts, what ends it);
- ``board.py``: the cards in every zone, the counts, what seats know;
- ``natures.py``: drawing, discarding and the effect queue of natures;
- ``claims.py``: the claim window on a discard;
- this module: rounds, the turn, legal moves and ``apply``, copies and
  determinization; ``view.py`` cuts what each seat sees.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...engine.errors import BadInput, BadOptions, IllegalAction
from ...engine.events import EventLog
from ...engine.legality import legal_at, not_your_turn, require_legal
from ...engine.protocol import Game, Result
from ...engine.rng import Rng
from ...i18n import domain
from .actions import (
    ATTACK,
    DISCARD,
    DRAW,
    NO_ATTACK,
    PASS,
    RPS,
    STOP,
    TABLE,
    WIN,
    Move,
    moves_for,
)
from .board import RoundResult
from .cards import LOYAL, MISC
from .claims import Claims
from .phases import (
    ATTACK_CHOICE,
    CLAIM_WINDOW,
    DECLARE,
    DUEL,
    IMPATIENT_CHOICE,
    MAIN,
    OVER,
)
from .ruleset import TaxonomyRules
from .scoring import HAND_SIZE, Score
from .view import PARTIAL_FIELDS, partial_view, seat_view

_ = domain("taxonomy", __file__)

__all__ = ["RoundResult", "TaxonomyRules", "TaxonomyState"]


class TaxonomyState(Claims):
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
    - ``set_aside``: per seat, card dicts of the proud monsters it set aside in
      the game (each marks a ban, and is out of the stock until the game ends)
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
            "alone",
            "attack_moves",
            "loyal_rule",
            "window_all",
        }
    )
    # Derived: card dicts for views (rebuilt when a roll changes a card) and
    # the legal moves of the deciding seat(s) when they are the same for all
    # (discard, declare, duel, attack, impatient; reset at every change).
    CACHES: ClassVar[frozenset[str]] = frozenset({"_cc", "_legal", "_rr_json"})

    def __init__(self, game: Game, players: int, seed: int, rules: TaxonomyRules) -> None:
        self.game, self.players, self.rules = game, players, rules
        deck = rules.deck()
        if deck.size < HAND_SIZE * players + 1:
            raise BadOptions(
                _("the card file has {size} cards; {players} players need at least {need}").format(
                    size=deck.size, players=players, need=HAND_SIZE * players + 1
                )
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
        # alone[s]: (s,), the deciding seats of a one-seat decision (built once, not per turn).
        self.alone = tuple((s,) for s in range(n))
        # An aggressive monster's moves: send it at another seat, or not.
        self.attack_moves = tuple(
            (*(self.mv.attack[t] for t in range(n) if t != s), self.mv.no_attack) for s in range(n)
        )
        self.scores = [0] * n
        self.bans: list[set[int]] = [set() for _ in range(n)]
        # Proud monsters set aside, per seat: out of the stock for the rest of
        # the game, the marker of the ban (reading 13).
        self.aside: list[list[int]] = [[] for _ in range(n)]
        self.round = 0
        self.dealer = 0
        # Finished rounds: immutable, so copies share them; their JSON is a cache.
        self.round_results: tuple[RoundResult, ...] = ()
        self._rr_json: list[dict[str, Any]] | None = None
        self.round_turns: list[int] = []
        self.over = False
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
    def _fresh_natures(self) -> None:
        """Every card's printed natures and keys again, unrolled ("the result
        holds until the deck is reshuffled") — but a card set aside keeps the
        nature it was set aside with: it stays out of the deck (reading 13)."""
        deck = self.deck
        nat, roll, ckeys = list(deck.nature_mask), [0] * deck.size, list(deck.keys_of)
        for c in (c for a in self.aside for c in a):
            nat[c], roll[c], ckeys[c] = self.nat[c], self.roll[c], self.ckeys[c]
        self.nat, self.roll, self.ckeys = nat, roll, ckeys
        self._cc = [None] * deck.size

    def _start_round(self) -> None:
        """Shuffle every card but those set aside, deal 8 to each player; the
        dealer plays first. (Rules: "At the start of the game, all players draw
        8 cards"; a proud monster is set aside "so that you can see what type
        you can no longer collect" — for the rest of the game, reading 13.)"""
        deck, n = self.deck, self.players
        self._fresh_natures()
        aside = {c for a in self.aside for c in a}
        self.stock = [c for c in range(deck.size) if c not in aside]
        if len(self.stock) <= n * HAND_SIZE:
            # Only a designer's small card file gets here: the cards set aside
            # leave too few to deal and draw once, so the game ends (reading 13).
            self._finish()
            return
        self.rng.shuffle(self.stock)
        self.discards: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.tables: list[list[tuple[int, list[int]]]] = [[] for _ in range(n)]
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
        stock, misc = self.stock, deck.misc
        for s in range(n):
            # The top 8 cards, in the order they come off the stock (its end).
            hand = self.hands[s] = stock[: -HAND_SIZE - 1 : -1]
            del stock[-HAND_SIZE:]
            for c in hand:
                if misc[c]:  # none is rolled yet: the deck was just shuffled
                    self._roll(c, [s])
            if emit:
                self.log.emit("dealt", to=[s], seat=s, cards=list(map(self._card, hand)))
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
        number are kept, and so are the cards set aside (out of the game)."""
        deck, n = self.deck, self.players
        if len(hands) != n or any(len(h) != HAND_SIZE for h in hands):
            raise BadInput(_("arrange needs {n} hands of {size} cards").format(n=n, size=HAND_SIZE))
        used = [c for h in hands for c in h] + list(stock_top)
        if len(set(used)) != len(used) or not all(0 <= c < deck.size for c in used):
            raise BadInput(_("every card must be a card of the deck, used once"))
        aside = {c for a in self.aside for c in a}
        if aside & set(used):
            raise BadInput(_("a card set aside is out of the game; arrange the other cards"))
        self._fresh_natures()
        rest = [c for c in range(deck.size) if c not in set(used) and c not in aside]
        # The stock list's top is its end: natured cards deepest, plain ones next.
        rest.sort(key=lambda c: (deck.nature_mask[c] == 0, -c))
        self.stock = rest + list(reversed(stock_top))
        self.discards = []
        self.hands = [list(h) for h in hands]
        self._forget_all()
        self.peeks = [None] * n
        self.seen_hands = [{} for _ in range(n)]
        self.tables = [[] for _ in range(n)]
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
        self.over = True
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

    # ------------------------------------------------------------------ turn flow
    def _begin_turn(self, s: int) -> None:
        """Begin ``s``'s turn and play it up to the first decision."""
        self._run(s)

    def _run(self, begin: int = -1) -> None:
        """Play on up to the next decision: begin ``begin``'s turn if one is
        given, resolve the effects queued by draws and discards (natures.py),
        then by the hand-size rule (reading 4) ask for a discard, draw, or end
        the turn; when a turn ends with nobody asked about its discard, the
        next seat's begins here. One loop (not a call per step of the turn):
        the usual decision, a discard that nobody may claim followed by the
        next player's draw, is most of random self-play's time."""
        s = self.actor
        q = self.queue
        epoch = self.epoch
        while True:  # a turn per pass
            if begin >= 0:
                # "Each turn a player draws one card from the pile in the middle"
                s = begin
                skips = self.skips
                while skips[s] > 0:
                    # "The player who loses loses a turn."
                    skips[s] -= 1
                    if self.log.enabled:
                        self.log.emit("skipped", seat=s)
                    s = (s + 1) % self.players
                self.actor = s
                # A new epoch: an effect loop of an earlier turn (or round) stops.
                epoch = self.epoch = self.epoch + 1
                self.turns += 1
                self.drawn = []
                self.last_discard = -1
                if not self._draw(s):
                    return  # the stock ran out: the round ended
            hand = self.hands[s]
            while True:  # effects, then the hand-size rule
                if q:
                    effect, c = q.pop(0)
                    if self._effect(s, effect, c):
                        return  # it needs a decision
                    if self.over or self.epoch != epoch:
                        return  # the effect ended the turn (or the round)
                    continue
                # Reading 4: whenever effects finish, hand + table sets is 8.
                total = len(hand) + self.tabled[s]
                if total > HAND_SIZE:
                    # The discard decision; its moves are built now (apply checks them next).
                    self.phase, self._to_act = MAIN, self.alone[s]
                    if self.big[s] or self.tables[s]:
                        self._legal = self._main_legal(s)  # a win, or a drawn card to table
                    else:
                        self._legal = list(map(self.mv.discard_of, hand))
                    return
                if total == HAND_SIZE:
                    break
                if not self._draw(s):
                    return
            if self.fresh_draw and self.big[s] and self._score(s) is not None:
                # Reading 2: a win may be declared after drawing, and a draw that
                # refills the hand to 8 is a draw too.
                self._set_phase(DECLARE, (s,))
                return
            # The turn ends; the top discard may be claimed (reading 3). "If you have
            # 3 cards of the same type": nobody is asked when no seat holds three of
            # a key of the card (threes counts them per key, not per seat), the usual
            # case; with claim_window=all every other seat is (each card has a key).
            c = self.last_discard
            if c >= 0 and self.discards[-1] == c:
                threes = self.threes
                for k in self.ckeys[c]:
                    if threes[k] or self.window_all:
                        if self._open_window(s, c):
                            return
                        break
            begin = self.after[s][0]

    def _table(self, s: int, c: int) -> None:
        """ "When you draw another card of this type you can add it to the table":
        ``c`` joins ``s``'s table set of its key (the first laid, reading 21)."""
        keys = self.ckeys[c]
        k, cards = next(t for t in self.tables[s] if t[0] in keys)
        self.hands[s].remove(c)
        if c in self.watched:
            self._left_hand(s, c)
        cards.append(c)
        self._recount(s)
        self._legal = None
        if self.log.enabled:
            self.log.emit("tabled", seat=s, card=self._card(c), key=self.deck.key_names[k])

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

    # ------------------------------------------------------------------ protocol
    def to_act(self) -> tuple[int, ...]:
        return self._to_act

    def legal(self, seat: int) -> Sequence[Move]:
        legal = self._legal
        if legal is not None and seat in self._to_act:  # built already (see _legal)
            return legal
        if seat not in self._to_act:
            return []
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
                return [*map(mv.claim.__getitem__, self.claim_keys[seat]), mv.pass_]
            if self.claim_open_choice(seat):
                return list(map(mv.keep.__getitem__, self.lay_candidates(seat)))
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
        out = list(map(mv.discard_of, hand))  # a discard of every card in hand
        if self.tables[s] and self.drawn and len(hand) > self._excess(s):
            # "When you draw another card of this type you can add it to the table."
            # (Not the last card that could pay the excess: the hand must still discard.)
            tkeys = {k for k, _ in self.tables[s]}
            for c in self.drawn:
                if c in hand and self._usable(s, c) and not tkeys.isdisjoint(self.ckeys[c]):
                    out.append(mv.table[c])
        if self.big[s] and self._score(s) is not None:
            out.append(mv.win)
        return out

    def apply(self, seat: int, action: Any) -> None:
        if seat not in self._to_act:
            raise not_your_turn(seat, self._to_act, over=True)
        # The discard phase's moves were built when the driver asked for them.
        legal: Sequence[Move] | None = self._legal
        if legal is None:
            legal = self.legal(seat)
        if action not in legal:  # Moves compare by identity: a C-level scan
            require_legal(seat, action, legal)  # raises, saying what is legal
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
            self._table(seat, action.arg)
        elif kind == WIN:
            self._win(seat)
        elif kind == PASS and self.phase == DECLARE:
            self.fresh_draw = False  # not declared: the turn ends
            self._run()
        else:  # CLAIM, PASS, KEEP in a claim window
            self._claim_step(seat, action)

    @property
    def result(self) -> Result | None:
        return self._result

    def action_index(self, action: Any) -> int:
        if not isinstance(action, Move):
            raise IllegalAction(_("{action} is not a taxonomy action").format(action=action))
        return self.mv.index(action)

    def action_from_index(self, seat: int, index: int) -> Move:
        return legal_at(seat, index, self.mv.by_index(index), self.legal(seat))

    # ------------------------------------------------------------------ copies
    def clone(self) -> TaxonomyState:
        return self._copy(self.rng.copy())

    def _copy(self, rng: Rng) -> TaxonomyState:
        """A copy with ``rng`` as its RNG (determinize() gives a fresh one: copying
        the Mersenne Twister's state would be most of the copy's cost, thrown away)."""
        o = TaxonomyState.__new__(TaxonomyState)
        # Every field (board.py: all are slots), in the order declared there.
        # Shared or immutable (tables, numbers, strings, tuples) go as they are;
        # the rest is copied.
        o.game = self.game
        o.rules = self.rules
        o.players = self.players
        o.deck = self.deck
        o.mv = self.mv
        o.scoring = self.scoring
        o.rng = rng
        o.log = self.log.copy()
        o.seven_plus_one = self.seven_plus_one
        o.loyal_rule = self.loyal_rule
        o.window_all = self.window_all
        o.group_of = self.group_of
        o.after = self.after
        o.alone = self.alone
        o.attack_moves = self.attack_moves
        o.scores = list(self.scores)
        o.bans = [set(b) for b in self.bans]
        o.round = self.round
        o.dealer = self.dealer
        o.round_results = self.round_results
        o._rr_json = None  # rebuilt on demand: a copy shares no cache (see _cc below)
        o.round_turns = list(self.round_turns)
        o.turns = self.turns
        o.over = self.over
        o._result = self._result
        o.epoch = self.epoch
        o.phase = self.phase
        o.actor = self.actor
        o._to_act = self._to_act
        o._legal = None
        o.nat = list(self.nat)
        o.roll = list(self.roll)
        o.ckeys = list(self.ckeys)
        # A fresh card cache, not the original's dicts: a copy shares nothing that
        # changes with its original, caches included (engine/audit.py), so a
        # worker's copy is never read while the live game fills it.
        o._cc = [None] * len(self._cc)
        o.stock = list(self.stock)
        o.discards = list(self.discards)
        o.hands = [list(h) for h in self.hands]
        o.tables = [[(k, list(cs)) for k, cs in t] for t in self.tables]
        o.aside = [list(a) for a in self.aside]
        o.claims = list(self.claims)
        o.skips = list(self.skips)
        o.kc = [list(x) for x in self.kc]
        o.hk = [list(x) for x in self.hk]
        o.big = list(self.big)
        o.tabled = list(self.tabled)
        o.threes = list(self.threes)
        o.knows = self.knows
        o.kstock = [list(k) for k in self.kstock]
        o.khand = [{q: set(cs) for q, cs in d.items()} for d in self.khand]
        o.watched = set(self.watched)
        o.peeks = list(self.peeks)
        o.seen_hands = [dict(d) for d in self.seen_hands]
        o.queue = list(self.queue)
        o.drawn = list(self.drawn)
        o.last_discard = self.last_discard
        o.fresh_draw = self.fresh_draw
        o.attack_card = self.attack_card
        o.duel = self.duel
        o.duel_choice = dict(self.duel_choice)
        o.duel_ties = self.duel_ties
        o.claim_card = self.claim_card
        o.claim_from = self.claim_from
        o.claim_seats = self.claim_seats
        o.claim_keys = dict(self.claim_keys)
        o.claim_choice = dict(self.claim_choice)
        o.claim_keep = dict(self.claim_keep)
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
        monster, or peeked and then drawn by that seat), with their rolls, at
        random places in that hand (their places there are not public).
        Other seats' knowledge is dropped from the sample (it named real cards):
        what they peeked and saw, too. In a claim window, who is asked is worked
        out again from the sampled hands (reading 22). Another seat's private
        decisions stay private (reading 22): its wait is sampled as the seat
        sees it (``_sample_wait``), which cards it drew this turn are drawn from
        its sampled hand, and the answers of a closed claim window are dropped."""
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
        # The rest of it too: another seat's peek and the hands it saw are shown
        # to it alone ("peeked", "saw_hand"), so are the cards it watches and
        # whether it learned anything.
        o.peeks = [p if q == seat else None for q, p in enumerate(self.peeks)]
        o.seen_hands = [dict(d) if q == seat else {} for q, d in enumerate(self.seen_hands)]
        o.watched = set(known_top).union(*known_in.values())
        o.knows = me and (self.peeks[seat] is not None or bool(self.seen_hands[seat]))
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
        # In a canonical order first: the pool's order comes from where the
        # unseen cards really are, and the sample must depend only on what the
        # seat knows (the same random stream, the same sample from two worlds
        # it cannot tell apart).
        pool.sort()
        rng.shuffle(pool)
        for q in range(n):
            if q == seat:
                continue
            kept = known_in.get(q)
            if kept:
                # The known cards stay in q's hand, but not at their real places
                # (which cards went before them is not public): a random order.
                hand = sorted(c for c in self.hands[q] if c in kept)
                hand += [pool.pop() for _ in range(len(self.hands[q]) - len(hand))]
                rng.shuffle(hand)
                o.hands[q] = hand
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
        if o.phase in (IMPATIENT_CHOICE, DECLARE, CLAIM_WINDOW) and seat != self.actor:
            if o.phase == CLAIM_WINDOW and seat in self.claim_seats:
                o._reopen_window(seat, self, known_in, rng)
            else:
                o._sample_wait(seat, known_in, rng)
        elif o.phase == CLAIM_WINDOW:
            o._reopen_window(seat, self, known_in, rng)
        o.log.enabled = quiet
        if o.phase != CLAIM_WINDOW:
            # A closed window's seats and answers are stale, and hidden: who was
            # asked and what each answered (reading 22).
            o.claim_card = o.claim_from = -1
            o.claim_seats, o.claim_keys, o.claim_choice, o.claim_keep = (), {}, {}, {}
        a = self.actor
        if a != seat and 0 <= a < n and self.drawn:
            # Which cards another seat drew this turn is hidden ("drew" names no
            # card to the others) while they are in its hand: the sample names
            # cards of its sampled hand instead (those that left it were shown).
            hand, known = self.hands[a], known_in.get(a, set())
            hidden = [i for i, c in enumerate(self.drawn) if c in hand and c not in known]
            if hidden:
                fresh = [c for c in o.hands[a] if c not in known]
                o.drawn = list(self.drawn)
                for i, c in zip(hidden, fresh, strict=False):
                    o.drawn[i] = c
        if o.phase == DUEL:
            # That the other seat has chosen is public; what it chose is resampled.
            o.duel_choice = {
                q: (v if q == seat else rng.randrange(3)) for q, v in self.duel_choice.items()
            }
        o._legal = None
        return o

    def _sample_wait(self, seat: int, known_in: Mapping[int, set[int]], rng: Rng) -> None:
        """Another seat's decision as ``seat`` sees it (reading 22): a seat
        that is not the player whose turn it is nor asked about the discard
        sees that player discard (hand over 8) or the table's pause, whether
        the player is choosing to draw again after an impatient monster, to
        declare a refilled winning hand, or others may claim the discard. The
        real cause is hidden, so the sample must not keep it: a player over 8
        discards; a pause is a claim window on the player's last discard (with
        a claimant) when there may be one, else the player's impatient choice
        (its declare when the stock is empty: an impatient draw needs a card)."""
        s = self.actor
        if len(self.hands[s]) + self._table_count(s) > HAND_SIZE:
            self._set_phase(MAIN, self.alone[s])
            return
        c = self.last_discard
        # No window on a loyal card ("Such a card cannot be taken into your
        # set"), and with claim_window=all every other seat is asked: a seat
        # that is not knows it waits for the player.
        may_claim = c >= 0 and self.discards[-1:] == [c]
        if may_claim and self.loyal_rule and self.nat[c] & LOYAL:
            may_claim = False
        if self.window_all and 0 <= seat < self.players:
            may_claim = False
        if may_claim:
            self.claim_card, self.claim_from = c, s
            self.claim_seats, self.claim_keys, self.claim_choice, self.claim_keep = (), {}, {}, {}
            self._set_phase(CLAIM_WINDOW, ())
            self._reopen_window(seat, self, known_in, rng)
            if self._to_act:
                return
        self._set_phase(IMPATIENT_CHOICE if self.stock else DECLARE, self.alone[s])

    def view(self, seat: int | None) -> dict[str, Any]:
        return seat_view(self, seat)

    PARTIAL_FIELDS = PARTIAL_FIELDS

    def partial_view(self, seat: int, fields: frozenset[str]) -> dict[str, Any]:
        return partial_view(self, seat, fields)
