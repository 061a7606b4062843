"""Small test games for the CLI tests, built on the toy game (tests/engine/toygame.py).

- ``toy-silent``: the toy game, but a seat's bid emits no event at all until
  the trick resolves, so a replay must not print another seat's move text.
- ``toy-brackets``: bids whose text holds Rich markup (``bid [red]5[/red]``),
  as a designer's card name could.
- ``toy-scored``: the toy game with a scoring tool, registered at run time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bestiary.engine import BadInput, Ruleset

from ..engine.toygame import Bid, ToyGame, ToyRules, ToyState


class SilentState(ToyState):
    def apply(self, seat: int, action: Any) -> None:
        enabled = self.log.enabled
        self.log.enabled = False  # no "chose" event: nobody else learns of the bid
        try:
            super().apply(seat, action)
        finally:
            self.log.enabled = enabled
        if not self.pending:  # the last bid resolved the trick: that much is public
            self.log.emit("trick", tricks=list(self.tricks))


class SilentGame(ToyGame):
    id = "toy-silent"  # type: ignore[misc]
    title = "Blind bids, silent (test game)"  # type: ignore[misc]

    def create(self, players: int, seed: int, rules: Ruleset) -> ToyState:
        assert isinstance(rules, ToyRules)
        return SilentState(self, players, seed, rules)


@dataclass(frozen=True)
class BracketBid(Bid):
    def __str__(self) -> str:
        return f"bid [red]{self.card}[/red]"


class BracketState(ToyState):
    def legal(self, seat: int) -> Sequence[Bid]:
        return [BracketBid(b.card) for b in super().legal(seat)]


class BracketGame(ToyGame):
    id = "toy-brackets"  # type: ignore[misc]
    title = "Blind bids [with brackets] (test game)"  # type: ignore[misc]

    def create(self, players: int, seed: int, rules: Ruleset) -> ToyState:
        assert isinstance(rules, ToyRules)
        return BracketState(self, players, seed, rules)


class ScoredGame(ToyGame):
    id = "toy-scored"  # type: ignore[misc]

    def score_tool(self, payload: Mapping[str, Any], rules: Ruleset) -> dict[str, Any] | None:
        """``{"bids": [ints]}`` -> the highest bid."""
        bids = payload.get("bids")
        if not isinstance(bids, list) or not bids:
            raise BadInput('give {"bids": [card numbers]}')
        return {"best": max(bids)}


SILENT, BRACKETS, SCORED = SilentGame(), BracketGame(), ScoredGame()
