"""The Teratozoic table: the Era stack, every seat's Gene Pool, discard pile,
hand and held genes, the Mutations Deck, and drawing (Era changes mid-draw,
the final shuffle). ``generation.py`` and ``rules.py`` build the game on it
(each a class over the one below: modules import downward).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bestiary.engine import BadOptions, EventLog, Game, Result, Rng, State
from bestiary.i18n import domain

from .actions import action_table
from .cards import Card, Era, cards_from
from .phases import Phase
from .ruleset import HAND, TeratozoicRules, era_stack, removed_third
from .solver import PoolScore
from .tiles import Build, Placement

_ = domain("teratozoic", __file__)


class TeratozoicBoard(State):
    """One match's data. Piles are lists whose END is the top card."""

    rules: TeratozoicRules
    # The card table is loaded once per match (a tuple of frozen cards) and the
    # Builds/PoolScores in ``builds``/``final`` are frozen values: nothing mutates them.
    # The card set's action table is shared by every match with this card set:
    # built whole up front, it never changes either (the audit checks both).
    SHARED = frozenset({"game", "rules", "deck", "acts"})

    # The per-state-change caches of ``to_act``/``legal``, and what a sample's
    # sampler worked out (``rules.StateSampler.sample``: until the state changes).
    CACHES = frozenset({"_to_act", "_legal", "_sampled"})

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
        # A sample's seat and its sampler's knowledge (``rules.StateSampler.sample``).
        self._sampled: tuple[int, dict[str, Any]] | None = None
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
        # What everyone knows of each Gene Pool (determinize keeps it): the
        # starting pool is announced and every gain goes face up, so
        # ``lineage[s]`` holds the cards seen going into s's Gene Pool and not
        # seen leaving it -- every card of its draw pile is one of them.
        # ``sure[s]`` (within it) are those certainly still in its Gene Pool,
        # discard pile or hand: a recessive gene not gained leaves unseen, so
        # any card s may have drawn since can be gone. None: not known (a final
        # replay shuffles hidden hand cards into the Gene Pool). Frozensets,
        # replaced on change, so copies share them.
        self.lineage: list[frozenset[int] | None] = [frozenset(p) for p in self.pool]
        self.sure: list[frozenset[int]] = [frozenset(p) for p in self.pool]
        # Cards seen going to the Mutations Deck Discard Pile (plays not gained,
        # an eliminated player's face-up discard pile): there until it is
        # shuffled into a new Mutations Deck.
        self.mut_seen: frozenset[int] = frozenset()
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

    def __getstate__(self) -> dict[str, Any]:
        """A pickle (a server's bot job, a worker's answer) without the card
        set's tables: the receiving process has them or builds them once
        (``__setstate__``), instead of every job carrying half a megabyte."""
        state = dict(self.__dict__)
        state["acts"] = None
        state["_to_act"] = state["_legal"] = None  # listed from the table's own actions
        state["_sampled"] = None
        if self.deck is cards_from(""):
            state["deck"] = None  # the standard deck: the receiver loads its own
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        if state.get("deck") is None:
            state = {**state, "deck": cards_from("")}
        self.__dict__.update(state)
        self.acts = action_table(self.deck)

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

    # ------------------------------------------------------------ public knowledge
    def _gain(self, seat: int, card: int) -> None:
        """``card`` goes face up into ``seat``'s Gene Pool Discard Pile ("All
        gained cards go directly to a player's own Gene Pool Discard Pile"), in
        everyone's sight: the one way a gain enters a Gene Pool, so what is
        known of the pools (``lineage``, ``sure``) cannot miss one."""
        self.gdiscard[seat].append(card)
        one = frozenset((card,))
        for s in range(self.players):
            lin = self.lineage[s]
            if s == seat:
                if lin is not None:
                    self.lineage[s] = lin | one
                    self.sure[s] = self.sure[s] | one
            elif lin is not None and card in lin:
                self.lineage[s], self.sure[s] = lin - one, self.sure[s] - one

    def _seen_gone(self, cards: Sequence[int]) -> None:
        """``cards`` were seen going to the Mutations Deck Discard Pile."""
        out = frozenset(cards)
        self.mut_seen |= out
        for s in range(self.players):
            lin = self.lineage[s]
            if lin is not None and not out.isdisjoint(lin):
                self.lineage[s], self.sure[s] = lin - out, self.sure[s] - out

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
        self.mut_seen = frozenset()
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

    def _start_generation(self) -> None:
        """A new generation (``generation.py``): the set-up ends by starting one."""
        raise NotImplementedError
