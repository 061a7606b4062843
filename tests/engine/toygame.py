"""A tiny game that exercises the whole protocol, for engine tests.

"Blind bids": every player is dealt 3 cards (1..9, values unique). Each
trick, all players choose a card at once and in secret; the highest card
takes the trick. After 3 tricks the most tricks wins (ties share the win).
Hands are hidden; chosen cards are hidden until everyone has chosen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bestiary.engine import (
    EventLog,
    Game,
    IllegalAction,
    Result,
    Rng,
    Ruleset,
    State,
    option,
)


@dataclass(frozen=True)
class Bid:
    card: int

    def __str__(self) -> str:
        return f"bid {self.card}"


@dataclass(frozen=True)
class ToyRules(Ruleset):
    tricks: int = option(3, "tricks per game", choices=(1, 2, 3))
    high_wins: bool = option(True, "the highest card takes the trick")


class ToyState(State):
    def __init__(self, game: ToyGame, players: int, seed: int, rules: ToyRules) -> None:
        self.game, self.players, self.rules = game, players, rules
        self.rng = Rng(seed)
        self.log = EventLog()
        deck = list(range(1, 10))
        self.rng.shuffle(deck)
        self.hands = [sorted(deck[i * 3 : i * 3 + 3]) for i in range(players)]
        self.pending: dict[int, int] = {}
        self.tricks = [0] * players
        self.played = 0
        self.gone: list[int] = []  # cards bid in finished tricks (shown to all)
        for s in range(players):
            self.log.emit("dealt", to=[s], seat=s, cards=list(self.hands[s]))

    def to_act(self) -> tuple[int, ...]:
        if self.over:
            return ()
        return tuple(s for s in range(self.players) if s not in self.pending)

    def legal(self, seat: int) -> Sequence[Bid]:
        if seat not in self.to_act():
            return []
        return [Bid(c) for c in self.hands[seat]]

    def apply(self, seat: int, action: Any) -> None:
        self.check_legal(seat, action)
        self.pending[seat] = action.card
        self.log.emit("chose", seat=seat)  # everyone sees *that* a seat chose, not what
        if len(self.pending) == self.players:
            bids = self.pending
            best = (max if self.rules.high_wins else min)(bids.values())
            winner = next(s for s, c in bids.items() if c == best)
            for s, c in bids.items():
                self.hands[s].remove(c)
                self.gone.append(c)
            self.tricks[winner] += 1
            self.played += 1
            self.log.emit("trick", bids={str(s): c for s, c in sorted(bids.items())}, winner=winner)
            self.pending = {}

    @property
    def over(self) -> bool:
        return self.played >= self.rules.tricks

    @property
    def result(self) -> Result | None:
        if not self.over:
            return None
        top = max(self.tricks)
        return Result(
            [float(t) for t in self.tricks],
            [s for s in range(self.players) if self.tricks[s] == top],
            {"tricks": self.played},
        )

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "hand": list(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "chosen": sorted(self.pending),
            "my_choice": self.pending.get(seat) if seat is not None else None,
            "tricks": list(self.tricks),
        }

    def clone(self) -> ToyState:
        other = ToyState.__new__(ToyState)
        other.__dict__.update(self.__dict__)
        other.rng = self.rng.copy()
        other.log = self.log.copy()
        other.hands = [list(h) for h in self.hands]
        other.pending = dict(self.pending)
        other.tricks = list(self.tricks)
        other.gone = list(self.gone)
        return other

    def determinize(self, seat: int, rng: Rng) -> ToyState:
        other = self.clone()
        # Every card the seat has not seen may be in another hand: the deck's
        # undealt cards too, not only the cards others really hold.
        unseen = [c for c in range(1, 10) if c not in self.hands[seat] and c not in self.gone]
        rng.shuffle(unseen)
        for s in range(self.players):
            if s != seat:
                k = len(other.hands[s])
                other.hands[s], unseen = sorted(unseen[:k]), unseen[k:]
        # Hidden pending bids are resampled from the new hands.
        for s in list(other.pending):
            if s != seat:
                other.pending[s] = rng.choice(other.hands[s])
        return other

    def action_index(self, action: Any) -> int:
        return int(action.card) - 1

    def action_from_index(self, seat: int, index: int) -> Bid:
        a = Bid(index + 1)
        if a not in self.legal(seat):
            raise IllegalAction(f"action {index} is not legal", self.legal(seat))
        return a


class ToyGame(Game):
    id = "toy"
    title = "Blind bids (test game)"
    min_players = 2
    max_players = 3
    default_players = 3

    @property
    def variants(self) -> Mapping[str, ToyRules]:
        return {"standard": ToyRules(), "lowball": ToyRules(high_wins=False)}

    def create(self, players: int, seed: int, rules: Ruleset) -> ToyState:
        assert isinstance(rules, ToyRules)
        return ToyState(self, players, seed, rules)

    def num_actions(self, players: int, rules: Ruleset) -> int:
        return 9


GAME = ToyGame()
