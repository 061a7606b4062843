"""A fixed-size numeric encoding of one seat's view, for learning agents.

Built only from ``view.build_view(state, seat)``: the seat's team's hands
and face-down cards, and the public table; an opponent's face-down
creature is encoded as "a creature is there", nothing more. Conventions
(values in [0, 1], seats relative to the observer, unknown names skipped)
are those of :mod:`bestiary.agents.features`. Teams are relative too:
team slot 0 is the observer's team.

Fields, in order (``D`` card definitions, ``L`` leaders, ``P`` seats):

==============  ==========  ==============================================
phase           len+1       leaders/draft/hand limit/tactics/instants/...
round           1           round /10
teams           3           first team is mine, vitality mine/theirs
to_act, passed  2P
telestarion     P           /10
leaders         P*L         each seat's leader
hand_sizes      P           /10
my_hand         D           my cards /3
team_hands      D           my teammates' cards /3
tactics         4D          my face-down choices: a creature per lane, destiny
draft_row       D           the draft row /3
drafted         P*D         what each seat drafted this round
field           P*3*(9+D)   per seat and lane: present, face up, known,
                            damage, attack, defence, modifiers, ability used,
                            equipment count, and which card (if known)
destiny         P*(2+D)     per seat: face-down count, known count, cards
stack           2D+1        cards on the stack, its top, window open
decks           2           creature /80, destiny /50
graveyards      D           both graveyards /4
present         P           only with ``max_players``: 1 per seat at the table
==============  ==========  ==============================================

``P`` is the table's seats, or ``max_players`` when given: every per-seat
block is then laid out for ``max_players`` seats, the seats the table lacks
stay zero after the real ones (still counted from the observer, so teams
still alternate), and the ``present`` bits at the end say which blocks are
real, so one policy reads every table size with the same vector length.

``public_scores`` gives each seat its team's vitality (0 at the least, as
the result counts it): the ``score`` reward of :mod:`bestiary.rl`;
``score_scale`` is the starting vitality of the table size.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...agents.features import Layout, Writer, index_of
from ...engine.ruleset import Ruleset
from .cards import LANES, load_cards
from .phases import PHASE_NAMES
from .ruleset import MeatRules

SLOT = 9  # per-creature scalars before the card one-hot


class Observer:
    """Encodes views of one table size and ruleset into ``size`` floats."""

    #: The vitality changes all game long.
    running_score = True
    #: The view entries ``public_scores`` reads (every seat sees them alike).
    score_fields = frozenset({"vitality"})

    def __init__(self, players: int, rules: Ruleset, max_players: int | None = None) -> None:
        assert isinstance(rules, MeatRules)
        if max_players is not None and max_players < players:
            raise ValueError(f"max_players must be at least the table's {players} seats")
        cs = load_cards(rules.cards or None)
        p = players if max_players is None else max_players
        d, n_l = len(cs.defs), len(cs.leaders)
        self.players = players
        self.padded = max_players is not None
        self.d, self.n_l = d, n_l
        # A margin of a whole starting vitality counts 1 (RULES.md: 25, 40 or
        # 50 per side by table size, each an option).
        start = {2: rules.vitality_1v1, 4: rules.vitality_2v2, 6: rules.vitality_3v3}
        self.score_scale = float(start.get(players, rules.vitality_1v1))
        self.card = index_of(x.name for x in cs.defs)
        self.leader = index_of(x.name for x in cs.leaders)
        self.slot_width = SLOT + d
        self.layout = Layout(
            players,
            [
                ("phase", len(PHASE_NAMES) + 1),
                ("round", 1),
                ("teams", 3),
                ("to_act", p),
                ("passed", p),
                ("telestarion", p),
                ("leaders", p * n_l),
                ("hand_sizes", p),
                ("my_hand", d),
                ("team_hands", d),
                ("tactics", 4 * d),
                ("draft_row", d),
                ("drafted", p * d),
                ("field", p * 3 * self.slot_width),
                ("destiny", p * (2 + d)),
                ("stack", 2 * d + 1),
                ("decks", 2),
                ("graveyards", d),
                *([("present", p)] if self.padded else []),
            ],
        )
        self.size = self.layout.size

    def encode(self, view: Mapping[str, Any]) -> list[float]:
        w = self.layout.writer(view.get("seat"))
        d = self.d
        me = w.me
        w.one_hot("phase", PHASE_NAMES, view.get("phase"))
        w.scalar("round", view.get("round"), 10)
        team = view.get("team")
        my_team = team if team in (0, 1) else me & 1
        w.flag("teams", view.get("first_team") == my_team)
        vit = view.get("vitality") or ()
        start = max(1, int(view.get("vitality_start") or 1))
        if len(vit) == 2:
            w.scalar("teams", vit[my_team], start, 1)
            w.scalar("teams", vit[1 - my_team], start, 2)
        for s in view.get("to_act") or ():
            w.seat("to_act", s)
        w.per_seat("passed", [1 if x else 0 for x in view.get("passed") or ()], 1)
        w.per_seat("telestarion", view.get("telestarion"), 10)
        for s, name in enumerate(view.get("leaders") or ()):
            r = w.rel(s)
            if r is not None and name:
                w.names("leaders", self.leader, [name], block=r * self.n_l)
        w.per_seat("hand_sizes", view.get("hand_sizes"), 10)
        for s, cards in (view.get("hands") or {}).items():
            mine = str(s) == str(me)
            w.names("my_hand" if mine else "team_hands", self.card, cards, cap=3)
        pending = (view.get("tactics") or {}).get(str(me))
        if isinstance(pending, Mapping):
            for lane, name in enumerate((pending.get("creatures") or ())[:3]):
                if name:
                    w.names("tactics", self.card, [name], block=lane * d)
            w.names("tactics", self.card, pending.get("destiny") or (), block=3 * d)
        w.names("draft_row", self.card, view.get("draft_row") or (), cap=3)
        for s, cards in enumerate(view.get("drafted") or ()):
            r = w.rel(s)
            if r is not None:
                w.names("drafted", self.card, cards, block=r * d, cap=3)
        for row in view.get("field") or ():
            if isinstance(row, Mapping):
                self._row(w, row)
        stack = [x.get("card") for x in view.get("stack") or () if isinstance(x, Mapping)]
        w.names("stack", self.card, stack)
        w.names("stack", self.card, stack[-1:], block=d)
        w.flag("stack", view.get("window"), 2 * d)
        decks = view.get("decks") or {}
        w.scalar("decks", decks.get("creature"), 80)
        w.scalar("decks", decks.get("destiny"), 50, 1)
        graves = view.get("graveyards") or {}
        for pile in ("creature", "destiny"):
            w.names("graveyards", self.card, graves.get(pile) or (), cap=4)
        if self.padded:
            for r in range(self.players):
                w.set("present", r)
        return w.out

    def public_scores(self, view: Mapping[str, Any]) -> list[float] | None:
        """Each seat's team vitality (seats alternate teams), never below 0."""
        vit = view.get("vitality")
        if not isinstance(vit, list) or len(vit) != 2:
            return None
        return [float(max(int(vit[s & 1]), 0)) for s in range(self.players)]

    def _row(self, w: Writer, row: Mapping[str, Any]) -> None:
        r = w.rel(row.get("seat"))
        if r is None:
            return
        d = self.d
        for lane, cr in enumerate((row.get("creatures") or ())[: len(LANES)]):
            if not isinstance(cr, Mapping):
                continue
            base = (r * 3 + lane) * self.slot_width
            w.set("field", base)
            w.flag("field", cr.get("face_up"), base + 1)
            w.flag("field", "card" in cr, base + 2)
            w.scalar("field", cr.get("damage"), 10, base + 3)
            w.scalar("field", cr.get("attack"), 10, base + 4)
            w.scalar("field", cr.get("defence"), 10, base + 5)
            w.scalar("field", abs(int(cr.get("attack_mod") or 0)), 5, base + 6)
            w.flag("field", cr.get("ability_used"), base + 7)
            w.scalar("field", len(cr.get("equipment") or ()), 3, base + 8)
            if cr.get("card"):
                w.names("field", self.card, [cr["card"]], block=base + SLOT)
        base = r * (2 + d)
        for card in row.get("destiny") or ():
            if not isinstance(card, Mapping):
                continue
            if "card" in card:
                w.add("destiny", base + 1, 0.2)
                w.names("destiny", self.card, [card["card"]], block=base + 2)
            else:
                w.add("destiny", base, 0.2)
