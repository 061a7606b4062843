"""A fixed-size numeric encoding of one seat's view, for learning agents.

Built only from ``state.view(seat)``, so it holds nothing the seat may not
know (other hands and hidden treasures appear only as counts, as in the
view). Conventions (values in [0, 1], seats relative to the observer,
unknown names skipped) are those of :mod:`bestiary.agents.features`.

Fields, in order (``k`` card types, ``q`` treasures, ``P`` seats):

=============  ========  ==================================================
phase          7         trap/turn/battle/after/door/discard/other
turn           P         whose turn (relative one-hot)
table          7         dungeon/6, room/150, endgame, draw pile, treasure
                         pile, prize pile, final
hand           k         my cards by type /3
my_treasures   q         treasures I hold (hidden or shown)
discard_pile   k         discarded cards by type /4
trap, to_lose  k+1       the trap being resolved, cards still to lose /3
battle         2k+q      party cards, their spells, weapons
fallen         k         characters fallen in this battle
charmed        k         the charmed monster
players        P*(16+k+q)  per seat: status (4), distances out/back/target
                         /150, monster strength /20, hand size /10, hidden
                         treasures /4, secret door, battle penalty /20,
                         banked /5, prizes /5, dungeon wins /3, corridors
                         out/back /8, its monster (k), its shown treasures (q)
worthless      q         treasures known to be worthless
present        P         only with ``max_players``: 1 per seat at the table
=============  ========  ==================================================

``P`` is the table's seats, or ``max_players`` when given: every per-seat
block is then laid out for ``max_players`` seats, the seats the table lacks
stay zero after the real ones (still counted from the observer), and the
``present`` bits at the end say which blocks are real, so one policy reads
every table size with the same vector length.

``public_scores`` gives each seat's gold in sight (banked treasures and
prizes; a dice treasure not rolled yet at its average, one known to be
worthless at 0), or its dungeon wins with ``victory=dungeons``: the
``score`` reward of :mod:`bestiary.rl`. ``score_scale`` is 1000 gold, or
2 dungeon wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...agents.features import Layout, Writer, index_of
from ...engine.ruleset import Ruleset
from .cards import load_cardset
from .ruleset import MonsterMakerRules
from .scoring import gold_range

PHASES = ("trap", "turn", "battle", "after", "door", "discard")
STATUSES = ("outward", "returning", "home", "dead")
SEAT_SCALARS = 16


class Observer:
    """Encodes views of one table size and ruleset into ``size`` floats."""

    #: The points change during the game (treasures banked, prizes won).
    running_score = True
    #: The view entries ``public_scores`` reads (every seat sees them alike).
    score_fields = frozenset({"players"})

    def __init__(self, players: int, rules: Ruleset, max_players: int | None = None) -> None:
        assert isinstance(rules, MonsterMakerRules)
        if max_players is not None and max_players < players:
            raise ValueError(f"max_players must be at least the table's {players} seats")
        cs = load_cardset(rules.cards, rules.treasures, rules.prizes)
        p = players if max_players is None else max_players
        k, q = len(cs.cards), len(cs.treasures)
        self.players = players
        self.padded = max_players is not None
        self.k, self.q = k, q
        self.by_dungeons = rules.victory == "dungeons"
        self.score_scale = 2.0 if self.by_dungeons else 1000.0
        # What a banked treasure is worth before the end: its printed gold, or
        # the average of its dice (they are rolled when the game is over).
        self.worth = {
            t.name: float(t.gold.fixed) if not t.gold.rolled else gold_range(t).mean
            for t in cs.treasures
        }
        self.prize_gold = {pz.name: float(pz.gold) for pz in cs.prizes}
        self.card = index_of(c.name for c in cs.cards)
        self.treasure = index_of(t.name for t in cs.treasures)
        self.deck_size = max(1, len(cs.deck()))
        self.prize_count = max(1, len(cs.prize_pile()))
        self.seat_width = SEAT_SCALARS + k + q
        self.layout = Layout(
            players,
            [
                ("phase", len(PHASES) + 1),
                ("turn", p),
                ("table", 7),
                ("hand", k),
                ("my_treasures", q),
                ("discard_pile", k),
                ("trap", k + 1),
                ("battle", 2 * k + q),
                ("fallen", k),
                ("charmed", k),
                ("players", p * self.seat_width),
                ("worthless", q),
                *([("present", p)] if self.padded else []),
            ],
        )
        self.size = self.layout.size

    def encode(self, view: Mapping[str, Any]) -> list[float]:
        w = self.layout.writer(view.get("seat"))
        k, q = self.k, self.q
        w.one_hot("phase", PHASES, view.get("phase"))
        w.seat("turn", view.get("turn"))
        w.scalar("table", view.get("dungeon"), 6)
        w.scalar("table", view.get("treasure_room"), 150, 1)
        w.flag("table", view.get("endgame"), 2)
        w.scalar("table", view.get("draw_pile"), self.deck_size, 3)
        w.scalar("table", view.get("treasure_pile"), max(1, q), 4)
        w.scalar("table", view.get("prize_pile"), self.prize_count, 5)
        w.flag("table", view.get("final"), 6)
        w.names("hand", self.card, view.get("hand") or (), cap=3)
        w.names("my_treasures", self.treasure, view.get("my_treasures") or ())
        w.names("discard_pile", self.card, view.get("discard_pile") or (), cap=4)
        trap = view.get("trap")
        if trap:
            w.names("trap", self.card, [trap])
        w.scalar("trap", view.get("to_lose"), 3, k)
        for fighter in view.get("battle") or ():
            if isinstance(fighter, Mapping):
                w.names("battle", self.card, [fighter.get("card")])
                w.names("battle", self.card, [fighter.get("spell")], block=k)
                w.names("battle", self.treasure, [fighter.get("weapon")], block=2 * k)
        w.names("fallen", self.card, view.get("fallen") or ())
        charmed = view.get("charmed")
        if charmed:
            w.names("charmed", self.card, [charmed])
        worthless: set[str] = set()
        for pl in view.get("players") or ():
            if isinstance(pl, Mapping):
                self._player(w, pl)
                worthless.update(pl.get("worthless") or ())
        w.names("worthless", self.treasure, sorted(worthless))
        if self.padded:
            for r in range(self.players):
                w.set("present", r)
        return w.out

    def public_scores(self, view: Mapping[str, Any]) -> list[float] | None:
        """Each seat's gold in sight (or dungeon wins), from what everyone sees."""
        seats = view.get("players")
        if not isinstance(seats, list) or len(seats) != self.players:
            return None
        return [self._gold_in_sight(pl) if isinstance(pl, Mapping) else 0.0 for pl in seats]

    def _gold_in_sight(self, pl: Mapping[str, Any]) -> float:
        if self.by_dungeons:
            return float(pl.get("dungeon_wins") or 0)
        rolls: dict[str, list[int]] = {}
        for name, roll in pl.get("rolled") or ():
            rolls.setdefault(name, []).append(roll)
        worthless = list(pl.get("worthless") or ())
        gold = 0.0
        for name in pl.get("banked") or ():
            if name in worthless:
                worthless.remove(name)
            elif rolls.get(name):
                gold += rolls[name].pop(0)
            else:
                gold += self.worth.get(name, 0.0)
        return gold + sum(self.prize_gold.get(name, 0.0) for name in pl.get("prizes") or ())

    def _player(self, w: Writer, pl: Mapping[str, Any]) -> None:
        r = w.rel(pl.get("seat"))
        if r is None:
            return
        base = r * self.seat_width
        status = pl.get("status")
        if status in STATUSES:
            w.set("players", base + STATUSES.index(status))
        for i, key in enumerate(("distance_out", "distance_back", "return_target")):
            w.scalar("players", pl.get(key), 150, base + 4 + i)
        w.scalar("players", pl.get("monster_strength"), 20, base + 7)
        w.scalar("players", pl.get("hand_size"), 10, base + 8)
        w.scalar("players", pl.get("hidden_treasures"), 4, base + 9)
        w.flag("players", pl.get("secret_door_waiting"), base + 10)
        w.scalar("players", pl.get("battle_penalty"), 20, base + 11)
        w.scalar("players", len(pl.get("banked") or ()), 5, base + 12)
        w.scalar("players", len(pl.get("prizes") or ()), 5, base + 13)
        w.scalar("players", pl.get("dungeon_wins"), 3, base + 14)
        corridors = len(pl.get("corridors_out") or ()) + len(pl.get("corridors_back") or ())
        w.scalar("players", corridors, 8, base + 15)
        monster = pl.get("monster")
        if monster:
            w.names("players", self.card, [monster], block=base + SEAT_SCALARS)
        w.names(
            "players",
            self.treasure,
            pl.get("open_treasures") or (),
            block=base + SEAT_SCALARS + self.k,
        )
