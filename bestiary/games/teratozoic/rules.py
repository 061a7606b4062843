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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from bestiary.engine import (
    BadOptions,
    EventLog,
    IllegalAction,
    NotYourTurn,
    Result,
    Rng,
    Ruleset,
    State,
    option,
)

from .cards import FINAL_ERA, Card, Era, cards_from, default_eras
from .solver import PoolScore, best_build, flat_build, score_pool
from .tiles import OPPOSITE, STEP, Build, Placement, edge, score_layout

if TYPE_CHECKING:
    from .game import TeratozoicGame

HAND = 5
ELIMINATION = 5  # 'fewer than five cards in their entire Gene Pool'


@dataclass(frozen=True)
class TeratozoicRules(Ruleset):
    advanced: bool = option(True, "include the 24 Advanced cards (doubling, nuclear waste…)")
    two_player: Literal["shorter", "third", "extra-era"] = option(
        "shorter",
        "2 players: remove the Apocalyptic Era (shorter), a third of the cards, or neither",
    )
    short_game: bool = option(
        False, "shorter first game: drop the 3+, 4+ and 5+ player Eras, start in the Temnozoic Era"
    )
    eras: tuple[str, ...] = option((), "house rule: the Era stack by name, top first (final last)")
    remove_third: Literal["none", "orange", "purple", "green"] = option(
        "none",
        "remove a third of the cards: this secondary colour + one primary, grey, three-colour",
    )
    no_waste: bool = option(False, "take out the nuclear waste (the grey cards)")
    doubling_ignores_colour: bool = option(
        False, "temporary rule: doubling cards double every card of their monster"
    )
    cards: str = option("", "card file (CSV, the format of data/cards.csv)", path=True)
    max_final_replays: int = option(
        3,
        "'If you still have a tie, play the Teratozoic Era again!': at most this many "
        "replays, then the still-tied players share the win (0: share at once)",
        min=0,
        max=10,
    )

    def validate(self) -> None:
        if not isinstance(self.max_final_replays, int) or self.max_final_replays < 0:
            raise BadOptions(
                f"max_final_replays must be a whole number >= 0, not {self.max_final_replays!r}"
            )
        names = {e.name for e in default_eras()}
        for name in self.eras:
            if name not in names:
                raise BadOptions(f"unknown Era {name!r}; Eras: {', '.join(sorted(names))}")
        if self.eras and self.eras[-1] != FINAL_ERA:
            raise BadOptions(f"the Era stack must end with the {FINAL_ERA}")
        twice = sorted({n for n in self.eras if self.eras.count(n) > 1})
        if twice:
            raise BadOptions(
                f"eras: each Era card can be used once, but {', '.join(map(repr, twice))} "
                "is listed more than once"
            )


def era_stack(players: int, rules: TeratozoicRules) -> list[Era]:
    """The Era cards in play, top first (rulebook 'Era Cards' and the quick reference)."""
    eras = default_eras()
    if rules.eras:
        by_name = {e.name: e for e in eras}
        return [by_name[n] for n in rules.eras]
    if rules.short_game:
        return [e for e in eras if e.min_players == 0]
    stack = [e for e in eras if players >= e.min_players or e.min_players == 0]
    if players == 2:
        # 'For 2 players you can then remove either the Apocalyptic Era card or a
        # third of the monster cards'; experienced players may keep extra Eras.
        if rules.two_player == "shorter":
            stack = [e for e in eras if e.min_players == 0]
        else:
            stack = [e for e in eras if e.min_players <= 3]
    return stack


def removed_third(players: int, rules: TeratozoicRules) -> str | None:
    if rules.remove_third != "none":
        return rules.remove_third
    if players == 2 and rules.two_player == "third" and not rules.eras:
        return "orange"
    return None


# ------------------------------------------------------------------ actions
@dataclass(frozen=True)
class Hold:
    card: int
    name: str

    def __str__(self) -> str:
        return f"hold {self.name}"


@dataclass(frozen=True)
class Express:
    def __str__(self) -> str:
        return "express"


@dataclass(frozen=True)
class BuildChoice:
    kind: Literal["best", "flat", "placed"]

    def __str__(self) -> str:
        return f"build {self.kind}"


@dataclass(frozen=True)
class Take:
    card: int
    name: str

    def __str__(self) -> str:
        return f"take {self.name}"


@dataclass(frozen=True)
class Keep:
    card: int
    name: str

    def __str__(self) -> str:
        return f"keep {self.name}"


@dataclass(frozen=True)
class Start:
    """Lay a card down as the first card of a new monster (placing by hand)."""

    card: int
    name: str
    turned: bool = False

    def __str__(self) -> str:
        return f"start {self.name}" + (" turned" if self.turned else "")


@dataclass(frozen=True)
class Attach:
    """Lay a card on the side ``edge`` of an already placed card, its ends meeting."""

    card: int
    name: str
    edge: int  # 0..3 = N, E, S, W of the anchor
    anchor: int
    anchor_name: str
    turned: bool = False

    def __str__(self) -> str:
        side = "NESW"[self.edge]
        return f"attach {self.name} {side} of {self.anchor_name}" + (
            " turned" if self.turned else ""
        )


EXPRESS = Express()
BUILD_BEST = BuildChoice("best")
BUILD_FLAT = BuildChoice("flat")
BUILD_PLACED = BuildChoice("placed")
MONSTER_GAP = 100  # hand-placed monsters sit this far apart on the x axis

Phase = Literal["expression", "growth", "breed-play", "breed-hand", "over"]


class TeratozoicState(State):
    """One match. Piles are lists whose END is the top card."""

    rules: TeratozoicRules
    # The card table is loaded once per match (a tuple of frozen cards) and the
    # Builds/PoolScores in ``builds``/``final`` are frozen values: nothing mutates them.
    SHARED = frozenset({"game", "rules", "deck"})

    def __init__(
        self, game: TeratozoicGame, players: int, seed: int, rules: TeratozoicRules
    ) -> None:
        self.game, self.players, self.rules = game, players, rules
        self.rng = Rng(seed)
        self.log = EventLog()
        self.deck: tuple[Card, ...] = cards_from(rules.cards)
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
                f"{players} players need {players} starting Gene Pools; "
                f"these options leave {len(pools)}"
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
            self.log.emit("gene_pool", seat=s, colour=colour, symbol=sym)
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
            self.log.emit("reshuffled", seat=seat, size=len(self.pool[seat]))
        return self.pool[seat].pop()

    def _advance_era(self) -> bool:
        """'If the Mutations Deck runs out and a player needs to draw from it,
        immediately advance to the next Era ... shuffle the Mutations Deck
        Discard Pile to create a new Mutations Deck'."""
        if len(self.eras) > 1:
            previous = self.eras.pop(0)
            self.era_discard.append(previous)
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
            while got_m < (self.ratio_era or self.era).mutations:
                if not self.mutations and not self._advance_era():
                    break
                if got_m >= (self.ratio_era or self.era).mutations or not self.mutations:
                    break
                hand.append(self.mutations.pop())
                got_m += 1
            from_pool = 0
            while len(hand) < HAND:
                card = self._draw_pool(s)
                if card is None:
                    break
                hand.append(card)
                from_pool += 1
            self.hand[s] = hand
            self.log.emit("drew", seat=s, mutations=got_m, gene_pool=from_pool)
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
        self.log.emit("generation", number=self.generation, era=self.era.name)

    def min_play(self, seat: int) -> int:
        return min(self.era.min_play, len(self.hand[seat]))

    def played(self, seat: int) -> list[int]:
        held = self.held[seat]
        return [c for c in self.hand[seat] if c not in held] + self.tie_cards[seat]

    def to_act(self) -> tuple[int, ...]:
        if self.phase == "expression":
            return (self.competing[self.expr_pos],)
        if self.phase == "growth":
            return tuple(s for s in self.competing if self.choice[s] is None)
        if self.phase == "breed-play":
            assert self.winner is not None
            return (self.winner,)
        if self.phase == "breed-hand":
            return (self.breed_order[self.breed_pos],)
        return ()

    def legal(self, seat: int) -> Sequence[Any]:
        if seat not in self.to_act():
            return []
        if self.phase == "expression":
            out: list[Any] = [EXPRESS]
            if len(self.held[seat]) < len(self.hand[seat]) - self.min_play(seat):
                out += [Hold(c, self.name(c)) for c in self.hand[seat] if c not in self.held[seat]]
            return out
        if self.phase == "growth":
            return self._growth_actions(seat)
        if self.phase == "breed-play":
            return [Take(c, self.name(c)) for c in self._takeable()]
        return [Keep(c, self.name(c)) for c in self._keepable(seat)]

    def _growth_actions(self, seat: int) -> list[Any]:
        """The solver's best build, no connections, or placing cards one at a time
        (start a monster, or attach a card where its end meets a placed end)."""
        out: list[Any] = [BUILD_BEST, BUILD_FLAT]
        placed = self.placing[seat]
        if placed:
            out.append(BUILD_PLACED)
        cells = {(p.x, p.y): p for p in placed}
        done = {p.card for p in placed}
        free = [c for c in self.played(seat) if c not in done]
        for c in free:
            card = self.deck[c]
            for t, _ in enumerate(card.orients):
                out.append(Start(c, card.name, t == 1))
        for p in placed:
            anchor = self.deck[p.card]
            amask = anchor.orients[-1] if p.turned else anchor.orients[0]
            for d in range(4):
                ends = edge(amask, d)
                dx, dy = STEP[d]
                if not ends or (p.x + dx, p.y + dy) in cells:
                    continue
                for c in free:
                    card = self.deck[c]
                    for t, m in enumerate(card.orients):
                        if edge(m, OPPOSITE[d]) & ends:
                            out.append(Attach(c, card.name, d, p.card, anchor.name, t == 1))
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
        self.log.emit("placed", to=[seat], seat=seat, card=action.card, x=x, y=y)

    def _takeable(self) -> list[int]:
        return [c for s in self.competing for c in self.played(s) if c not in self.taken]

    def _keepable(self, seat: int) -> list[int]:
        """'every player gains ... from their own hand (this includes both expressed
        and recessive genes, but no cards from other players)' — the cards they
        drew (tie draws included), not the ones the winner took."""
        return [
            c
            for c in self.hand[seat] + self.tie_cards[seat]
            if c not in self.taken and c not in self.kept
        ]

    def apply(self, seat: int, action: Any) -> None:
        if seat not in self.to_act():
            owed = self.to_act()
            raise NotYourTurn(
                f"seat {seat} has no decision to make now"
                + (f"; waiting for seat(s) {', '.join(map(str, owed))}" if owed else "")
            )
        legal = self.legal(seat)
        if action not in legal:
            raise IllegalAction(f"{action} is not a legal action for seat {seat} now", legal)
        if isinstance(action, Hold):
            self.held[seat].append(action.card)
            self.log.emit("held", to=[seat], seat=seat, card=action.card)
        elif isinstance(action, Express):
            self.log.emit("declared", seat=seat, held=len(self.held[seat]))
            self.expr_pos += 1
            if self.expr_pos == len(self.competing):
                self.phase = "growth"
        elif isinstance(action, (Start, Attach)):
            self._place(seat, action)
        elif isinstance(action, BuildChoice):
            self.choice[seat] = action.kind
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
            self.log.emit("grew", seat=s, cards=self.played(s), score=b.score, build=b.to_json())
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
            self.log.emit("tie", seats=tied, score=top, drew=drew)
            if not drew:
                # Nobody can draw any more: the first tied player clockwise from
                # the previous winner dominates (RULES.md, a reading).
                break
        self.winner = winner
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
        self.log.emit("took", seat=self.winner, card=card, owner=self._owner_of_played(card))
        self.gains_left -= 1
        self._after_gain()

    def _keep(self, seat: int, card: int) -> None:
        self.kept.append(card)
        self.gdiscard[seat].append(card)
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
                    self.log.emit("took", seat=self.winner, card=c, owner=self._owner_of_played(c))
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
            s for s in range(self.players) if self._in_play(s) and len(self.owned(s)) < ELIMINATION
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
        self.log.emit("game_over", **over)

    def _can_replay(self, tied: list[int]) -> bool:
        """Replay unless the cap is reached ('max_final_replays', then the tied
        players share the win) or fewer than two of them could stay in a game:
        a player with 'fewer than five cards in their entire Gene Pool' has lost
        by that rule, which only the game ending (everyone left falling below
        five at once, RULES.md) spared; they share the win as scored."""
        if self.replays >= self.rules.max_final_replays:
            return False
        return sum(1 for s in tied if len(self.owned(s)) >= ELIMINATION) >= 2

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
        return self.phase in ("breed-play", "breed-hand")

    def view(self, seat: int | None) -> dict[str, Any]:
        public = self._public_played()
        players = []
        for s in range(self.players):
            b = self.builds[s] if public else None
            players.append(
                {
                    "seat": s,
                    "eliminated": self.eliminated[s],
                    "competing": s in self.competing and not self.over,
                    "gene_pool": len(self.pool[s]),
                    "discard": list(self.gdiscard[s]),
                    "hand_size": len(self.hand[s]),
                    "held_count": len(self.held[s]),
                    "declared": self.phase != "expression"
                    or self.competing.index(s) < self.expr_pos
                    if s in self.competing
                    else False,
                    "chosen": self.choice[s] is not None,
                    "played": self.played(s) if public else None,
                    "build": b.to_json() if b is not None else None,
                    "score": b.score if b is not None else None,
                    "final": self._final_json(s),
                }
            )
        v: dict[str, Any] = {
            "game": "teratozoic",
            "cards_file": self.rules.cards,
            "phase": self.phase,
            "generation": self.generation,
            "era": self._era_json(self.era),
            "eras_left": [e.name for e in self.eras[1:]],
            "eras_past": [e.name for e in self.era_discard],
            "mutations_deck": len(self.mutations),
            "mutations_discard": len(self.mut_discard),
            "previous_winner": self.previous_winner,
            "winner": self.winner,
            "to_act": list(self.to_act()),
            "taken": list(self.taken) if public else [],
            "kept": list(self.kept) if public else [],
            "gains_left": self.gains_left if self.phase.startswith("breed") else 0,
            "players": players,
            "final_replays": self.replays,
            "replaying": list(self.replaying) if self.replaying is not None else None,
            "seat": seat,
        }
        if seat is not None:
            v["hand"] = list(self.hand[seat])
            v["held_cards"] = list(self.held[seat])
            v["my_gene_pool"] = sorted(self.pool[seat])  # its cards, not their order
            v["my_choice"] = self.choice[seat]
            v["placing"] = [p.to_json() for p in self.placing[seat]]
        return v

    def _final_json(self, s: int) -> dict[str, Any] | None:
        f = self.final[s]
        if f is None:
            return None
        return {
            "cards": f.cards,
            "monsters": {c: m.size for c, m in f.by_colour.items()},
            "exact": f.exact,
        }

    @staticmethod
    def _era_json(e: Era) -> dict[str, Any]:
        return {
            "name": e.name,
            "mutations": e.mutations,
            "gene_pool": e.gene_pool,
            "min_play": e.min_play,
            "winner_play": e.winner_play,
            "winner_hand": e.winner_hand,
            "others_hand": e.others_hand,
        }

    # ------------------------------------------------------------ copies
    def clone(self) -> TeratozoicState:
        other = TeratozoicState.__new__(TeratozoicState)
        other.__dict__.update(self.__dict__)
        other.rng = self.rng.copy()
        other.log = self.log.copy()
        other.eras = list(self.eras)
        other.era_discard = list(self.era_discard)
        other.mutations = list(self.mutations)
        other.mut_discard = list(self.mut_discard)
        for name in ("pool", "gdiscard", "hand", "held", "tie_cards"):
            setattr(other, name, [list(x) for x in getattr(self, name)])
        other.eliminated = list(self.eliminated)
        other.competing = list(self.competing)
        other.choice = list(self.choice)
        other.builds = list(self.builds)  # Builds are immutable
        other.placing = [list(p) for p in self.placing]  # Placements are immutable
        other.taken = list(self.taken)
        other.kept = list(self.kept)
        other.breed_order = list(self.breed_order)
        other.final = list(self.final)
        return other

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
        """Positions in seat ``s``'s hand that others cannot see: the whole hand
        before Growth; afterwards the recessive genes, unless kept (a kept card
        goes face up to the Gene Pool discard pile)."""
        if not self._public_played():
            return list(range(len(self.hand[s])))
        hidden = set(self.held[s]) - set(self.kept)
        return [i for i, c in enumerate(self.hand[s]) if c in hidden]

    def determinize(self, seat: int, rng: Rng) -> TeratozoicState:
        """Resample what ``seat`` cannot see: the Mutations Deck and its discard
        pile, other players' Gene Pools and hidden hand cards, and the order of
        its own Gene Pool. Sizes, public cards and its own hand stay; the
        future shuffles come from ``rng``, not from the real state's RNG."""
        other = self.clone()
        public = self._public_played()
        other.rng = rng.fork()
        slots: list[tuple[list[int], int]] = []
        for pile in (other.mutations, other.mut_discard):
            slots += [(pile, i) for i in range(len(pile))]
        for s in range(self.players):
            if s == seat:
                continue
            slots += [(other.pool[s], i) for i in range(len(other.pool[s]))]
            slots += [(other.hand[s], i) for i in self._hidden_hand(s)]
        unknown = [pile[i] for pile, i in slots]
        rng.shuffle(unknown)
        mapping: dict[int, int] = {}
        for (pile, i), new in zip(slots, unknown, strict=True):
            if pile is not other.mutations and pile is not other.mut_discard:
                mapping[pile[i]] = new
            pile[i] = new
        for s in range(self.players):
            if s != seat:
                other.held[s] = [mapping.get(c, c) for c in self.held[s]]
                if other.choice[s] is not None and not public:
                    other.choice[s] = "best"
                # How far another player has got placing cards is not visible.
                if not public:
                    other.placing[s] = []
        rng.shuffle(other.pool[seat])
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
        raise IllegalAction(f"{action} is not a Teratozoic action")

    def action_from_index(self, seat: int, index: int) -> Any:
        for a in self.legal(seat):
            if self.action_index(a) == index:
                return a
        raise IllegalAction(f"action {index} is not legal for seat {seat} now", self.legal(seat))
