"""Teratozoic's rules: the Eras, Gene Pools and the four phases of a generation.

A generation (rulebook, "How To Play"):

1. Expression — from the previous winner clockwise, each player holds back
   recessive genes face down (``hold <card>``) and then declares
   (``express``); the Era card sets the minimum played.
2. Growth — everyone builds at once (``build best`` / ``build flat``),
   hidden until all have chosen; the most valuable play wins; ties: every
   player puts the next Gene Pool card into play and rescores, until there
   is a clear winner.
3. Breeding — the winner takes cards from any play (``take <card>``), then
   from the winner clockwise each player keeps cards from their own hand
   (``keep <card>``), exactly as many as the Era card says when possible.
4. Mutation — clean-up and new hands from the winner clockwise, Mutations
   Deck first; Era changes mid-draw; elimination; the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from bestiary.engine import (
    BadOptions,
    EventLog,
    Game,
    IllegalAction,
    NotYourTurn,
    Result,
    Rng,
    State,
)
from bestiary.i18n import domain

from .actions import (
    BUILD_BEST,
    BUILD_FLAT,
    BUILD_PLACED,
    EXPRESS,
    Attach,
    BuildChoice,
    Express,
    Hold,
    Keep,
    Start,
    Take,
    action_table,
)
from .cards import Card, Era, cards_from
from .edges import STEP
from .ruleset import ELIMINATION, HAND, TeratozoicRules, era_stack, removed_third
from .solver import PoolScore, best_build, flat_build, score_pool
from .tiles import Build, Placement, score_layout
from .view import hidden_hand, public_played, seat_view

_ = domain("teratozoic", __file__)

__all__ = [
    "BUILD_BEST",
    "BUILD_FLAT",
    "BUILD_PLACED",
    "ELIMINATION",
    "EXPRESS",
    "HAND",
    "Attach",
    "BuildChoice",
    "Express",
    "Hold",
    "Keep",
    "Start",
    "Take",
    "TeratozoicRules",
    "TeratozoicState",
    "era_stack",
    "removed_third",
]

MONSTER_GAP = 100  # hand-placed monsters sit this far apart on the x axis

Phase = Literal["expression", "growth", "breed-play", "breed-hand", "over"]


class TeratozoicState(State):
    """One match. Piles are lists whose END is the top card."""

    rules: TeratozoicRules
    # The card table is loaded once per match (a tuple of frozen cards) and the
    # Builds/PoolScores in ``builds``/``final`` are frozen values: nothing mutates them.
    SHARED = frozenset({"game", "rules", "deck"})
    # The card set's action table (immutable actions, shared by every match with
    # this card set) and the per-state-change caches of ``to_act``/``legal``.
    CACHES = frozenset({"acts", "_to_act", "_legal"})

    def __init__(self, game: Game, players: int, seed: int, rules: TeratozoicRules) -> None:
        self.game, self.players, self.rules = game, players, rules
        self.rng = Rng(seed)
        self.log = EventLog()
        self.deck: tuple[Card, ...] = cards_from(rules.cards)
        self.acts = action_table(self.deck)
        # Who acts and their legal actions, computed once per state change
        # (``apply`` clears them): the driver, ``legal`` and ``apply`` all ask.
        self._to_act: tuple[int, ...] | None = None
        self._legal: tuple[int, tuple[Any, ...]] | None = None
        third = removed_third(players, rules)
        in_game = [
            c
            for c in self.deck
            if (rules.advanced or c.set != "advanced")
            and not (rules.no_waste and c.colour == "grey")
            and c.third != third
        ]
        pools = sorted({(c.colour, c.pool) for c in in_game if c.pool})
        if players > len(pools):
            raise BadOptions(
                _(
                    "{players} players need {players} starting Gene Pools; these options leave {n}"
                ).format(players=players, n=len(pools))
            )
        self.eras: list[Era] = era_stack(players, rules)  # the stack, top first
        self.era_discard: list[Era] = []
        self.ratio_era: Era | None = None  # the previous Era, for a draw the final Era interrupted
        # 'During this Era, once a player's Gene Pool is exhausted they cannot
        # shuffle it': a game that starts in the Teratozoic Era never reshuffles.
        self.final_shuffled = self.eras[0].final
        # Set-up: 'Each player must select a starting deck of six cards'.
        chosen = self.rng.sample(pools, players)
        self.pool: list[list[int]] = []
        for colour, sym in chosen:
            mine = [c.id for c in in_game if c.colour == colour and c.pool == sym]
            self.rng.shuffle(mine)
            self.pool.append(mine)
        taken = {i for p in self.pool for i in p}
        self.mutations = [c.id for c in in_game if c.id not in taken]
        self.rng.shuffle(self.mutations)
        self.mut_discard: list[int] = []
        self.gdiscard: list[list[int]] = [[] for _ in range(players)]
        self.hand: list[list[int]] = [[] for _ in range(players)]
        self.held: list[list[int]] = [[] for _ in range(players)]
        self.tie_cards: list[list[int]] = [[] for _ in range(players)]
        self.eliminated = [False] * players
        self.competing: list[int] = []
        self.phase: Phase = "expression"
        self.generation = 0
        self.expr_pos = 0
        self.choice: list[str | None] = [None] * players
        self.builds: list[Build | None] = [None] * players
        self.placing: list[list[Placement]] = [[] for _ in range(players)]
        self.winner: int | None = None
        self.taken: list[int] = []  # cards the winner took from play
        self.kept: list[int] = []  # cards gained from hand this generation
        self.gains_left = 0
        self.breed_order: list[int] = []
        self.breed_pos = 0
        self._result: Result | None = None
        self.final: list[PoolScore | None] = [None] * players
        # The last tie-break, 'play the Teratozoic Era again': the seats replaying
        # it (None when not replaying), how many replays so far, and the totals of
        # the first final scoring (the game's scores; replays only break the tie).
        self.replaying: tuple[int, ...] | None = None
        self.replays = 0
        self.first_scores: tuple[float, ...] | None = None
        # 'Select a starting player by any mutually agreeable means'.
        self.previous_winner = self.rng.randrange(players)
        for s in range(players):
            colour, sym = chosen[s]
            if self.log.enabled:
                self.log.emit("gene_pool", seat=s, colour=colour, symbol=sym)
        if self.log.enabled:
            self.log.emit("era", era=self.era.name, numbers=self.era.describe())
        self._draw_round(self.previous_winner)
        self._start_generation()

    # ------------------------------------------------------------ basics
    @property
    def era(self) -> Era:
        return self.eras[0]

    def name(self, card: int) -> str:
        return self.deck[card].name

    def clockwise(self, first: int) -> list[int]:
        return [(first + k) % self.players for k in range(self.players)]

    def _in_play(self, seat: int) -> bool:
        """Still in the game: not eliminated, and replaying if the Teratozoic Era
        is being played again (only the tied players play it)."""
        if self.eliminated[seat]:
            return False
        return self.replaying is None or seat in self.replaying

    def owned(self, seat: int) -> list[int]:
        """'their entire Gene Pool (including their Gene Pool Discard Pile and hand)'."""
        hand_pool = [c for c in self.hand[seat] if c not in self.taken]
        return self.pool[seat] + self.gdiscard[seat] + hand_pool

    def owned_count(self, seat: int) -> int:
        """How many cards ``owned(seat)`` holds, without listing them."""
        hand, taken = self.hand[seat], self.taken
        in_hand = sum(1 for c in hand if c not in taken) if taken else len(hand)
        return len(self.pool[seat]) + len(self.gdiscard[seat]) + in_hand

    # ------------------------------------------------------------ drawing
    def _draw_pool(self, seat: int) -> int | None:
        """The top card of a Gene Pool; reshuffle its discard pile when empty,
        except after the final Era's last shuffle."""
        if not self.pool[seat]:
            if self.final_shuffled or not self.gdiscard[seat]:
                return None
            self.pool[seat] = self.gdiscard[seat]
            self.gdiscard[seat] = []
            self.rng.shuffle(self.pool[seat])
            if self.log.enabled:
                self.log.emit("reshuffled", seat=seat, size=len(self.pool[seat]))
        return self.pool[seat].pop()

    def _advance_era(self) -> bool:
        """'If the Mutations Deck runs out and a player needs to draw from it,
        immediately advance to the next Era ... shuffle the Mutations Deck
        Discard Pile to create a new Mutations Deck'."""
        if len(self.eras) > 1:
            previous = self.eras.pop(0)
            self.era_discard.append(previous)
            if self.log.enabled:
                self.log.emit("era", era=self.era.name, numbers=self.era.describe())
            if self.era.final:
                # 'When the final Era begins in the middle of a draw, for that draw
                # only, shuffle the Mutations Deck so that remaining players may
                # continue to draw ... according to the previous Era'.
                self.ratio_era = previous
                self._final_shuffle()
        elif self.ratio_era is None:
            return False  # 'The game cannot advance beyond the Teratozoic Era'
        if not self.mut_discard:
            return bool(self.mutations)
        self.mutations = self.mut_discard
        self.mut_discard = []
        self.rng.shuffle(self.mutations)
        return True

    def _final_shuffle(self) -> None:
        """'all players should immediately shuffle their Gene Pool Discard Pile and
        their remaining Gene Pool (not their hand, if any) together for the last time.'"""
        for s in range(self.players):
            if self.eliminated[s]:
                continue
            self.pool[s] += self.gdiscard[s]
            self.gdiscard[s] = []
            self.rng.shuffle(self.pool[s])
        self.final_shuffled = True
        if self.log.enabled:
            self.log.emit("final_shuffle")

    def _draw_round(self, first: int) -> None:
        """'Starting with the winner and proceeding clockwise, each player draws a
        new hand ... always drawing first from the Mutations Deck'."""
        self.ratio_era = None
        for s in self.clockwise(first):
            if not self._in_play(s):
                continue
            hand: list[int] = []
            got_m = 0
            deck = self.mutations
            want = (self.ratio_era or self.eras[0]).mutations
            if 0 < want <= len(deck):
                # The usual case, in one step: the top ``want`` cards, top first.
                hand = deck[: -want - 1 : -1]
                del deck[-want:]
                got_m = want
            while got_m < (self.ratio_era or self.era).mutations:
                if not self.mutations and not self._advance_era():
                    break
                if got_m >= (self.ratio_era or self.era).mutations or not self.mutations:
                    break
                hand.append(self.mutations.pop())
                got_m += 1
            from_pool = 0
            pool = self.pool[s]
            need = HAND - len(hand)
            if 0 < need <= len(pool):
                hand += pool[: -need - 1 : -1]
                del pool[-need:]
                from_pool = need
            while len(hand) < HAND:
                card = self._draw_pool(s)
                if card is None:
                    break
                hand.append(card)
                from_pool += 1
            self.hand[s] = hand
            if self.log.enabled:
                self.log.emit("drew", seat=s, mutations=got_m, gene_pool=from_pool)
            if self.log.enabled:
                self.log.emit("hand", to=[s], seat=s, cards=list(hand))
        self.ratio_era = None

    # ------------------------------------------------------------ generation
    def _start_generation(self) -> None:
        order = [s for s in self.clockwise(self.previous_winner) if self._in_play(s)]
        # 'once a player's Gene Pool is exhausted they cannot compete in any more
        # generations ... when one or fewer players are able to compete, the game is over.'
        self.competing = [s for s in order if self.hand[s]]
        if len(self.competing) <= 1:
            self._finish()
            return
        self.generation += 1
        self.phase = "expression"
        self.expr_pos = 0
        self.held = [[] for _ in range(self.players)]
        self.tie_cards = [[] for _ in range(self.players)]
        self.choice = [None] * self.players
        self.builds = [None] * self.players
        self.placing = [[] for _ in range(self.players)]
        self.winner = None
        self.taken = []
        if self.log.enabled:
            self.log.emit("generation", number=self.generation, era=self.era.name)

    def min_play(self, seat: int) -> int:
        return min(self.era.min_play, len(self.hand[seat]))

    def played(self, seat: int) -> list[int]:
        held = self.held[seat]
        if not held:  # the common case, without a scan
            return self.hand[seat] + self.tie_cards[seat]
        return [c for c in self.hand[seat] if c not in held] + self.tie_cards[seat]

    def to_act(self) -> tuple[int, ...]:
        owed = self._to_act
        if owed is None:
            owed = self._to_act = self._owed()
        return owed

    def _owed(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == "expression":
            return (self.competing[self.expr_pos],)
        if phase == "growth":
            choice = self.choice
            return tuple([s for s in self.competing if choice[s] is None])
        if phase == "breed-play":
            assert self.winner is not None
            return (self.winner,)
        if phase == "breed-hand":
            return (self.breed_order[self.breed_pos],)
        return ()

    def legal(self, seat: int) -> Sequence[Any]:
        cached = self._legal
        if cached is not None and cached[0] == seat:
            return cached[1]
        if seat not in self.to_act():
            return ()
        acts = self.acts
        phase = self.phase
        out: list[Any]
        if phase == "expression":
            out = [EXPRESS]
            hand, held = self.hand[seat], self.held[seat]
            if len(held) < len(hand) - self.min_play(seat):
                hold = acts.hold
                out += [hold[c] for c in hand if c not in held]
        elif phase == "growth":
            out = self._growth_actions(seat)
        elif phase == "breed-play":
            take = acts.take
            out = [take[c] for c in self._takeable()]
        else:
            keep = acts.keep
            out = [keep[c] for c in self._keepable(seat)]
        legal = tuple(out)
        self._legal = (seat, legal)
        return legal

    def _growth_actions(self, seat: int) -> list[Any]:
        """The solver's best build, no connections, or placing cards one at a time
        (start a monster, or attach a card where its end meets a placed end)."""
        start = self.acts.start
        placed = self.placing[seat]
        if not placed:
            out: list[Any] = [BUILD_BEST, BUILD_FLAT]
            for c in self.played(seat):
                out += start[c]
            return out
        out = [BUILD_BEST, BUILD_FLAT, BUILD_PLACED]
        cells = {(p.x, p.y) for p in placed}
        done = {p.card for p in placed}
        free = [c for c in self.played(seat) if c not in done]
        for c in free:
            out += start[c]
        # Every open side of every placed card, and the free cards whose ends
        # meet it there (the table lists each card's fitting orientations).
        slots_of = self.acts.slots_of
        for p in placed:
            for (dx, dy), by_card in slots_of(p.card, p.turned):
                if (p.x + dx, p.y + dy) in cells:
                    continue
                for c in free:
                    fit = by_card.get(c)
                    if fit:
                        out += fit
        return out

    def _place(self, seat: int, action: Start | Attach) -> None:
        placed = self.placing[seat]
        if isinstance(action, Start):
            monsters = len({round(p.x / MONSTER_GAP) for p in placed})
            x, y = monsters * MONSTER_GAP, 0
        else:
            anchor = next(p for p in placed if p.card == action.anchor)
            dx, dy = STEP[action.edge]
            x, y = anchor.x + dx, anchor.y + dy
        placed.append(Placement(action.card, x, y, action.turned))
        if self.log.enabled:
            self.log.emit("placed", to=[seat], seat=seat, card=action.card, x=x, y=y)

    def _takeable(self) -> list[int]:
        out: list[int] = []
        for s in self.competing:
            out += self.played(s)
        taken = self.taken
        return [c for c in out if c not in taken] if taken else out

    def _keepable(self, seat: int) -> list[int]:
        """'every player gains ... from their own hand (this includes both expressed
        and recessive genes, but no cards from other players)' — the cards they
        drew (tie draws included), not the ones the winner took."""
        cards = self.hand[seat] + self.tie_cards[seat]
        taken, kept = self.taken, self.kept
        if not taken and not kept:
            return cards
        return [c for c in cards if c not in taken and c not in kept]

    def apply(self, seat: int, action: Any) -> None:
        legal = self.legal(seat)
        if not legal:
            owed = self.to_act()
            if owed:
                raise NotYourTurn(
                    _(
                        "seat {seat} has no decision to make now; waiting for seat(s) {seats}"
                    ).format(seat=seat, seats=", ".join(map(str, owed)))
                )
            raise NotYourTurn(_("seat {seat} has no decision to make now").format(seat=seat))
        # The driver hands back one of the listed actions: find it by identity
        # before comparing values (a parsed action is equal, not identical).
        for a in legal:
            if a is action:
                break
        else:
            if action not in legal:
                raise IllegalAction(
                    _("{action} is not a legal action for seat {seat} now").format(
                        action=action, seat=seat
                    ),
                    legal,
                )
        self._to_act = self._legal = None
        if isinstance(action, Hold):
            self.held[seat].append(action.card)
            if self.log.enabled:
                self.log.emit("held", to=[seat], seat=seat, card=action.card)
        elif isinstance(action, Express):
            if self.log.enabled:
                self.log.emit("declared", seat=seat, held=len(self.held[seat]))
            self.expr_pos += 1
            if self.expr_pos == len(self.competing):
                self.phase = "growth"
        elif isinstance(action, (Start, Attach)):
            self._place(seat, action)
        elif isinstance(action, BuildChoice):
            self.choice[seat] = action.kind
            if self.log.enabled:
                self.log.emit("built", seat=seat)  # that the seat chose, not what
            if all(self.choice[s] is not None for s in self.competing):
                self._growth()
        elif isinstance(action, Take):
            self._take(action.card)
        elif isinstance(action, Keep):
            self._keep(seat, action.card)

    # ------------------------------------------------------------ growth
    def _build(self, seat: int) -> Build:
        cards = self.played(seat)
        if self.choice[seat] == "flat":
            return flat_build(self.deck, cards, self.rules.doubling_ignores_colour)
        if self.choice[seat] == "placed" and not self.tie_cards[seat]:
            # The cards placed by hand, the rest laid apart on their own; after a
            # tie draw the player may rearrange: the best build then (RULES.md).
            pl = list(self.placing[seat])
            done = {p.card for p in pl}
            rest = [c for c in cards if c not in done]
            pl += [Placement(c, -MONSTER_GAP * (k + 1), 0) for k, c in enumerate(rest)]
            return score_layout(self.deck, pl, self.rules.doubling_ignores_colour)
        return best_build(self.deck, cards, self.rules.doubling_ignores_colour)

    def _growth(self) -> None:
        """'The player with the most valuable monsters in play is the winner'."""
        for s in self.competing:
            self.builds[s] = b = self._build(s)
            if self.log.enabled:
                self.log.emit(
                    "grew", seat=s, cards=self.played(s), score=b.score, build=b.to_json()
                )
        while True:
            scores = {s: self._score(s) for s in self.competing}
            top = max(scores.values())
            tied = [s for s in self.competing if scores[s] == top]
            winner = tied[0]
            if len(tied) == 1:
                break
            # 'every player draws the next card from their Gene Pool, puts it into
            # play, and recalculates their score ... repeated until there is a clear winner.'
            drew = {}
            for s in self.competing:
                card = self._draw_pool(s)
                if card is not None:
                    self.tie_cards[s].append(card)
                    drew[str(s)] = card
                    self.builds[s] = b = self._build(s)
            if self.log.enabled:
                self.log.emit("tie", seats=tied, score=top, drew=drew)
            if not drew:
                # Nobody can draw any more: the first tied player clockwise from
                # the previous winner dominates (RULES.md, a reading).
                break
        self.winner = winner
        if self.log.enabled:
            self.log.emit("winner", seat=winner, score=self._score(winner))
        self.phase = "breed-play"
        self.kept = []
        self.gains_left = min(self.era.winner_play, len(self._takeable()))
        self._after_gain()

    def _score(self, seat: int) -> int:
        b = self.builds[seat]
        return b.score if b is not None else 0

    # ------------------------------------------------------------ breeding
    def _owner_of_played(self, card: int) -> int:
        for s in self.competing:
            if card in self.hand[s] or card in self.tie_cards[s]:
                return s
        raise AssertionError("played card without an owner")

    def _take(self, card: int) -> None:
        assert self.winner is not None
        self.taken.append(card)
        self.gdiscard[self.winner].append(card)
        if self.log.enabled:
            self.log.emit("took", seat=self.winner, card=card, owner=self._owner_of_played(card))
        self.gains_left -= 1
        self._after_gain()

    def _keep(self, seat: int, card: int) -> None:
        self.kept.append(card)
        self.gdiscard[seat].append(card)
        if self.log.enabled:
            self.log.emit("kept", seat=seat, card=card)
        self.gains_left -= 1
        self._after_gain()

    def _hand_gains(self, seat: int) -> int:
        era = self.era
        want = era.winner_hand if seat == self.winner else era.others_hand
        return min(want, len(self._keepable(seat)))

    def _after_gain(self) -> None:
        """Advance the breeding steps, taking forced gains (no choice) automatically."""
        while True:
            if self.phase == "breed-play":
                takeable = self._takeable()
                if self.gains_left > 0 and len(takeable) > self.gains_left:
                    return
                for c in takeable[: self.gains_left]:
                    assert self.winner is not None
                    self.taken.append(c)
                    self.gdiscard[self.winner].append(c)
                    if self.log.enabled:
                        owner = self._owner_of_played(c)
                        self.log.emit("took", seat=self.winner, card=c, owner=owner)
                self.phase = "breed-hand"
                self.breed_order = [
                    s for s in self.clockwise(self.winner or 0) if s in self.competing
                ]
                self.breed_pos = 0
                self.gains_left = self._hand_gains(self.breed_order[0])
                continue
            if self.phase == "breed-hand":
                seat = self.breed_order[self.breed_pos]
                keepable = self._keepable(seat)
                if self.gains_left > 0 and len(keepable) > self.gains_left:
                    return
                for c in keepable[: self.gains_left]:
                    self.kept.append(c)
                    self.gdiscard[seat].append(c)
                    if self.log.enabled:
                        self.log.emit("kept", seat=seat, card=c)
                self.breed_pos += 1
                if self.breed_pos < len(self.breed_order):
                    self.gains_left = self._hand_gains(self.breed_order[self.breed_pos])
                    continue
                self._mutation()
                return
            return

    # ------------------------------------------------------------ mutation
    def _mutation(self) -> None:
        """'All cards which were not added to player Gene Pools during Breeding are
        put in the Mutations Deck Discard Pile', then new hands."""
        gained = set(self.taken) | set(self.kept)
        for s in range(self.players):
            if not self._in_play(s):
                continue  # a player left out of a final replay keeps its hand
            for c in self.hand[s] + self.tie_cards[s]:
                if c not in gained:
                    self.mut_discard.append(c)
            self.hand[s] = []
            self.held[s] = []
            self.tie_cards[s] = []
        assert self.winner is not None
        self.previous_winner = self.winner
        losing = [
            s for s in range(self.players) if self._in_play(s) and self.owned_count(s) < ELIMINATION
        ]
        if losing and all(not self._in_play(s) or s in losing for s in range(self.players)):
            # Everyone left would lose at once: nobody can compete, so the game is
            # over and they are scored as they stand (RULES.md, a reading).
            self._finish()
            return
        for s in losing:
            # 'they lose the game—they should add their Gene Pool to the
            # Mutations Deck Discard Pile.'
            self.eliminated[s] = True
            self.mut_discard += self.pool[s] + self.gdiscard[s]
            self.pool[s], self.gdiscard[s] = [], []
            if self.log.enabled:
                self.log.emit("eliminated", seat=s)
        self.phase = "expression"
        self.winner = None
        self.taken, self.kept = [], []
        self._draw_round(self.previous_winner)
        self._start_generation()

    # ------------------------------------------------------------ the end
    def _finish(self) -> None:
        """'At the end of the Teratozoic Era, each player assembles their entire
        Gene Pool into up to three of the largest single-color monsters with no
        loose ends ... The player with the highest total is the winner.'"""
        contenders = [s for s in range(self.players) if self._in_play(s)]
        for s in contenders:
            self.final[s] = score_pool(self.deck, self.owned(s))
        cards = {s: self.final[s].cards for s in contenders}  # type: ignore[union-attr]
        if self.first_scores is None:
            self.first_scores = tuple(float(cards.get(s, 0)) for s in range(self.players))
        winners: list[int] = []
        if contenders:
            top = max(cards.values())
            winners = [s for s in contenders if cards[s] == top]
            if len(winners) > 1:
                # 'the player with the most creatures is the winner'.
                extra = {s: self.final[s].extra_monsters() for s in winners}  # type: ignore[union-attr]
                best = max(extra.values())
                winners = [s for s in winners if extra[s] == best]
                if len(winners) > 1 and self._can_replay(winners):
                    self._replay(winners, top, best)
                    return
        self.phase = "over"
        alive = [s for s in range(self.players) if not self.eliminated[s]]
        scores = list(self.first_scores)
        stats: dict[str, Any] = {
            "generations": self.generation,
            "final_era_reached": self.era.final,
            "eliminated": sum(self.eliminated),
            "gene_pool_size": sum(len(self.owned(s)) for s in alive) / max(len(alive), 1),
            "winning_cards": max(scores) if scores else 0,
            "solver_exact": all(self.final[s].exact for s in alive),  # type: ignore[union-attr]
        }
        if self.replays:
            stats["final_replays"] = self.replays
        self._result = Result(scores, winners, stats)
        over: dict[str, Any] = {
            "scores": scores,
            "winners": winners,
            "monsters": {
                str(s): {c: m.size for c, m in f.by_colour.items()}
                for s, f in enumerate(self.final)
                if f is not None
            },
        }
        if self.replays:
            over["replays"] = self.replays
            over["replay_cards"] = {str(s): cards[s] for s in contenders}
        if self.log.enabled:
            self.log.emit("game_over", **over)

    def _can_replay(self, tied: list[int]) -> bool:
        """Replay unless the cap is reached ('max_final_replays', then the tied
        players share the win) or fewer than two of them could stay in a game:
        a player with 'fewer than five cards in their entire Gene Pool' has lost
        by that rule, which only the game ending (everyone left falling below
        five at once, RULES.md) spared; they share the win as scored."""
        if self.replays >= self.rules.max_final_replays:
            return False
        return sum(1 for s in tied if self.owned_count(s) >= ELIMINATION) >= 2

    def _replay(self, tied: list[int], cards: int, creatures: int) -> None:
        """'(If you still have a tie, play the Teratozoic Era again!)': the tied
        players alone shuffle their whole Gene Pool (draw pile, discard pile and
        any hand) and play the Teratozoic Era among themselves under its rules:
        hands from the Gene Pool only, no reshuffle, an exhausted Gene Pool stops
        competing; then the final scoring decides among them again."""
        self.replays += 1
        self.replaying = tuple(tied)
        self.log.emit(
            "final_tie",
            seats=list(tied),
            cards=cards,
            creatures=creatures,
            replay=self.replays,
            max_replays=self.rules.max_final_replays,
        )
        # The game may have ended before the final Era (everyone left falling
        # below five cards at once): the replay is the Teratozoic Era all the same.
        while not self.era.final:
            self.era_discard.append(self.eras.pop(0))
            if self.log.enabled:
                self.log.emit("era", era=self.era.name, numbers=self.era.describe())
        sizes: dict[str, int] = {}
        for s in tied:
            whole = self.owned(s)
            self.rng.shuffle(whole)
            self.pool[s], self.gdiscard[s], self.hand[s] = whole, [], []
            sizes[str(s)] = len(whole)
        for s in range(self.players):
            self.held[s], self.tie_cards[s] = [], []
        self.final_shuffled = True
        self.ratio_era = None
        self.winner = None
        self.taken, self.kept = [], []
        if self.log.enabled:
            self.log.emit("final_replay", seats=list(tied), gene_pools=sizes, replay=self.replays)
        self._draw_round(self.previous_winner)
        self._start_generation()

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def result(self) -> Result | None:
        return self._result

    # ------------------------------------------------------------ information
    def _public_played(self) -> bool:
        return public_played(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        return seat_view(self, seat)

    # ------------------------------------------------------------ copies
    def _copy(self, keep_rng: bool) -> TeratozoicState:
        """An independent copy: every list copied, the immutable parts (cards,
        Eras, Builds, Placements, PoolScores, actions) shared. Without
        ``keep_rng`` the RNG is left for the caller to replace."""
        other = TeratozoicState.__new__(TeratozoicState)
        d = other.__dict__
        d.update(self.__dict__)
        if keep_rng:
            other.rng = self.rng.copy()
        other.log = self.log.copy()
        other.eras = self.eras[:]
        other.era_discard = self.era_discard[:]
        other.mutations = self.mutations[:]
        other.mut_discard = self.mut_discard[:]
        for name in ("pool", "gdiscard", "hand", "held", "tie_cards", "placing"):
            d[name] = [x[:] for x in d[name]]
        other.eliminated = self.eliminated[:]
        other.competing = self.competing[:]
        other.choice = self.choice[:]
        other.builds = self.builds[:]  # Builds are immutable
        other.taken = self.taken[:]
        other.kept = self.kept[:]
        other.breed_order = self.breed_order[:]
        other.final = self.final[:]
        return other

    def clone(self) -> TeratozoicState:
        return self._copy(keep_rng=True)

    def zones(self) -> dict[str, list[int]]:
        """Every card of the match, once, by zone. A card gained this generation
        sits in its new owner's Gene Pool discard pile (and still in the hand it
        was drawn to, until Mutation): it is counted in the discard pile only."""
        gained = set(self.taken) | set(self.kept)
        out = {"mutations": list(self.mutations), "mutations discard": list(self.mut_discard)}
        for s in range(self.players):
            out[f"gene pool {s}"] = list(self.pool[s])
            out[f"gene pool discard {s}"] = list(self.gdiscard[s])
            out[f"hand {s}"] = [c for c in self.hand[s] if c not in gained]
            out[f"tie draws {s}"] = [c for c in self.tie_cards[s] if c not in gained]
        return out

    def _hidden_hand(self, s: int) -> list[int]:
        return hidden_hand(self, s)

    def determinize(self, seat: int, rng: Rng) -> TeratozoicState:
        """Resample what ``seat`` cannot see: the Mutations Deck and its discard
        pile, other players' Gene Pools and hidden hand cards, and the order of
        its own Gene Pool. Sizes, public cards and its own hand stay; the
        future shuffles come from ``rng``, not from the real state's RNG."""
        other = self._copy(keep_rng=False)
        public = public_played(self)
        other.rng = rng.fork()
        # The unknown cards in a fixed order (piles, then each other seat's
        # Gene Pool and hidden hand positions), shuffled once, dealt back.
        others = [s for s in range(self.players) if s != seat]
        hidden = {s: hidden_hand(self, s) for s in others}
        unknown = other.mutations + other.mut_discard
        for s in others:
            hand = other.hand[s]
            unknown += other.pool[s]
            unknown += [hand[i] for i in hidden[s]]
        # Sorted before the shuffle: the sample must depend only on which cards are
        # unseen, never on the order they really lie in.
        unknown.sort()
        rng.shuffle(unknown)
        k = len(other.mutations)
        other.mutations = unknown[:k]
        other.mut_discard = unknown[k : k + len(other.mut_discard)]
        k += len(other.mut_discard)
        for s in others:
            size = len(other.pool[s])
            other.pool[s] = unknown[k : k + size]
            k += size
            hand = other.hand[s]
            mapping: dict[int, int] = {}
            for i in hidden[s]:
                mapping[hand[i]] = unknown[k]
                hand[i] = unknown[k]
                k += 1
            if mapping:
                other.held[s] = [mapping.get(c, c) for c in self.held[s]]
            if not public:
                if other.choice[s] is not None:
                    other.choice[s] = "best"
                # How far another player has got placing cards is not visible.
                other.placing[s] = []
        other.pool[seat].sort()
        rng.shuffle(other.pool[seat])
        other._to_act = other._legal = None
        return other

    # ------------------------------------------------------------ action space
    def action_index(self, action: Any) -> int:
        n = len(self.deck)
        if isinstance(action, Hold):
            return action.card
        if isinstance(action, Express):
            return n
        if isinstance(action, BuildChoice):
            return {"best": n + 1, "flat": n + 2, "placed": 3 * n + 3}[action.kind]
        if isinstance(action, Start):
            return 3 * n + 4 + 2 * action.card + int(action.turned)
        if isinstance(action, Attach):
            slot = (action.card * n + action.anchor) * 4 + action.edge
            return 5 * n + 4 + 2 * slot + int(action.turned)
        if isinstance(action, Take):
            return n + 3 + action.card
        if isinstance(action, Keep):
            return 2 * n + 3 + action.card
        raise IllegalAction(_("{action} is not a Teratozoic action").format(action=action))

    def action_from_index(self, seat: int, index: int) -> Any:
        for a in self.legal(seat):
            if self.action_index(a) == index:
                return a
        raise IllegalAction(
            _("action {index} is not legal for seat {seat} now").format(index=index, seat=seat),
            self.legal(seat),
        )
