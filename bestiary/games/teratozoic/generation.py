"""A Teratozoic generation, phase by phase (rulebook, "How To Play"):
Expression (held-back genes, the Era's minimum), Growth (everyone builds at
once; the most valuable play wins; ties put Gene Pool cards into play),
Breeding (the winner takes from play, everyone keeps from hand), Mutation
(clean-up, new hands, Era changes, elimination) and the end of the game.
"""

from __future__ import annotations

from typing import Any

from bestiary.engine import Result

from .actions import Attach, Start
from .board import TeratozoicBoard
from .edges import STEP
from .ruleset import ELIMINATION
from .solver import best_build, flat_build, score_pool
from .tiles import Build, Placement, score_layout

MONSTER_GAP = 100  # hand-placed monsters sit this far apart on the x axis


def played_cards(hand: list[int], held: list[int], tie_cards: list[int]) -> list[int]:
    """A seat's play: its hand but the held-back cards, then its tie draws."""
    if not held:  # the common case, without a scan
        return hand + tie_cards
    return [c for c in hand if c not in held] + tie_cards


class TeratozoicGeneration(TeratozoicBoard):
    """The phases of a generation; ``rules.TeratozoicState`` asks them through ``apply``."""

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
        return played_cards(self.hand[seat], self.held[seat], self.tie_cards[seat])

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
        self._taken(card)
        self.gains_left -= 1
        if self.gains_left > 0:
            return  # still more cards to choose from than gains left (one fewer of each)
        self._after_gain()

    def _keep(self, seat: int, card: int) -> None:
        self._kept(seat, card)
        self.gains_left -= 1
        if self.gains_left > 0:
            return  # still more cards to choose from than gains left (one fewer of each)
        self._after_gain()

    def _taken(self, card: int) -> None:
        """The generation's winner takes ``card`` from play (chosen or forced)."""
        assert self.winner is not None
        self.taken.append(card)
        self._gain(self.winner, card)
        if self.log.enabled:
            self.log.emit("took", seat=self.winner, card=card, owner=self._owner_of_played(card))

    def _kept(self, seat: int, card: int) -> None:
        """``seat`` keeps ``card`` from its hand (chosen or forced)."""
        self.kept.append(card)
        self._gain(seat, card)
        if self.log.enabled:
            self.log.emit("kept", seat=seat, card=card)

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
                    self._taken(c)
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
                    self._kept(seat, c)
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
            # The plays were face up: seen going; recessive genes go unseen, so
            # whatever s may have drawn from its Gene Pool may be gone.
            self._seen_gone([c for c in self.played(s) if c not in gained])
            if any(c not in gained for c in self.held[s]):
                self.sure[s] = self.sure[s] & frozenset(self.gdiscard[s])
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
            self.lineage[s] = self.sure[s] = frozenset()
            self.mut_seen |= frozenset(self.gdiscard[s])  # face up: seen going
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
            self.lineage[s], self.sure[s] = None, frozenset()  # unseen hand cards join it
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
