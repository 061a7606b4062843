"""The table of a M.E.A.T. match: every card's zone, vitality, Telestarion,
the per-card counters, and the bookkeeping every phase uses — drawing,
damage (with WYZWANIE), moving, leaving play, deaths and their abilities,
destiny cards that fire by themselves, the end of the game.

Seats alternate between the two teams (team = seat % 2) and seat ``s`` faces
seat ``s ^ 1`` across the table ("każdy ich członek miał naprzeciwko siebie
jednego przeciwnika"). Vitality belongs to a team. ``rounds.py`` builds the
round on this class and ``rules.py`` the protocol on that (each a class over
the one below: modules import downward).
"""

from __future__ import annotations

from bestiary.engine import EventLog, Rng, State
from bestiary.engine.protocol import Game

from . import effects as fx
from .actions import ActionSpace, Move, space_for
from .cards import CHALLENGE, FACTIONS, Ability, CardSet, load_cards
from .phases import D_ARMED, D_NONE, P_ACTIVATION, P_LEADER, P_OVER
from .ruleset import MeatRules


class MeatBoard(State):
    """One match's data. Cards are instance ids (ints) of ``self.cs``."""

    rules: MeatRules

    #: Built once per match and never changed: the game, the rules and the
    #: card tables of ``cs`` (``kind``, ``defs``, ``fac`` and the action space).
    SHARED = frozenset(
        {"game", "rules", "cs", "space", "kind", "defs", "fac", "gear_abilities", "cost_of"}
    )

    #: The legal() memo, rebuilt on demand.
    CACHES = frozenset({"_memo"})

    def __init__(self, game: Game, players: int, seed: int, rules: MeatRules) -> None:
        self.game, self.players, self.rules = game, players, rules
        self.rng = Rng(seed)
        self.log = EventLog()
        cs = load_cards(rules.cards or None)
        self.cs: CardSet = cs
        self.space: ActionSpace = space_for(cs)
        n, ninst = players, len(cs.kind)
        self.kind = cs.kind
        self.cost_of = tuple(cs.defs[k].cost for k in cs.kind)  # printed cost per instance
        self.ncre = len(cs.creature_ids)  # instance ids below this are creatures
        self.triggered_round = 0
        self._ver = 0  # bumped by every apply: the key of the legal() memo
        self._memo: tuple[int, int, list[Move]] | None = None
        self.defs = cs.defs
        self.fac = [FACTIONS.index(d.faction) if d.faction else -1 for d in cs.defs]
        # Equipment instances that grant a ♦ ability (usually none).
        self.gear_abilities = tuple(i for i in cs.destiny_ids if cs.defs[cs.kind[i]].ability)
        start = {2: rules.vitality_1v1, 4: rules.vitality_2v2, 6: rules.vitality_3v3}[n]
        self.vit_start = start
        self.vit = [start, start]
        self.tel = [0] * n
        self.leader = [-1] * n
        self.lb_atk = [[0] * 4 for _ in range(n)]
        self.lb_def = [[0] * 4 for _ in range(n)]
        self.cdeck = list(cs.creature_ids)
        self.ddeck = list(cs.destiny_ids)
        self.rng.shuffle(self.cdeck)
        self.rng.shuffle(self.ddeck)
        self.cgrave: list[int] = []
        self.dgrave: list[int] = []
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.row: list[int] = []
        self.field = [-1] * (n * 3)
        self.up = [False] * (n * 3)
        self.dfield: list[list[int]] = [[] for _ in range(n)]
        self.atk_mod = [0] * ninst
        self.def_mod = [0] * ninst
        self.dmg = [0] * ninst
        self.kw_extra = [0] * ninst
        self.used = [False] * ninst
        self.doomed = [False] * ninst
        self.dstat = [D_NONE] * ninst
        self.attached_to = [-1] * ninst
        self.phase = P_LEADER
        self.resume = P_ACTIVATION
        self.round = 0
        self.order: list[int] = []
        self.pos = 0
        self.picks = [0] * n
        self.tac_stage = [0] * n
        self.tac_c: list[list[int]] = [[-1, -1, -1] for _ in range(n)]
        self.tac_d: list[list[int]] = [[] for _ in range(n)]
        self.first_team = 0
        self.act_team = 0
        self.passed = [False] * n
        self.acted = [False] * n
        self.pay_owed = [False] * n
        # Choices made "all at once" (hand limit, paying), hidden until all are in.
        self.dis_pick: list[list[int]] = [[] for _ in range(n)]
        self.pay_pick: list[list[int]] = [[] for _ in range(n)]
        self.pay_order: list[int] = []  # the order payments are settled in
        self.win_order: list[int] = []
        self.win_pos = 0
        self.win_passes = 0
        self.win_kind = ""
        self.stack: list[tuple[int, int, int, int]] = []  # (seat, card, target slot, target card)
        self.resp_order: list[int] = []
        self.resp_pos = 0
        self.drafted: list[list[int]] = [[] for _ in range(n)]  # this round's picks (public)
        self.faction_count: list[list[int]] = [[0] * 4 for _ in range(n)]
        self.winner_team = -2  # -2 playing, -1 draw, 0/1 the winning team
        self.rounds_won = [0, 0]
        self.order = self.roll_order(list(range(n)), "leaders")

    # ------------------------------------------------------------------ helpers
    def team_of(self, seat: int) -> int:
        return seat & 1

    def team(self, t: int) -> list[int]:
        return list(range(t, self.players, 2))

    def attack(self, slot: int) -> int:
        iid = self.field[slot]
        d = self.defs[self.kind[iid]]
        f = self.fac[d.index]
        return max(0, d.attack + self.atk_mod[iid] + self.lb_atk[slot // 3][f])

    def defence(self, slot: int) -> int:
        iid = self.field[slot]
        d = self.defs[self.kind[iid]]
        f = self.fac[d.index]
        return d.defence + self.def_mod[iid] + self.lb_def[slot // 3][f] - self.dmg[iid]

    def keywords(self, slot: int) -> int:
        iid = self.field[slot]
        return self.defs[self.kind[iid]].keywords | self.kw_extra[iid]

    def ability_of(self, iid: int) -> Ability | None:
        """The creature's ♦ ability: its own, else one granted by fused
        equipment ("otrzymuje korzyści wynikające z opisu FUZJI"); a creature
        has one ♦ ability, so its own wins (RULES.md)."""
        own = self.defs[self.kind[iid]].ability
        if own is not None:
            return own
        for e in self.gear_abilities:
            if self.attached_to[e] == iid:
                return self.defs[self.kind[e]].ability
        return None

    def roll_order(self, seats: list[int], why: str) -> list[int]:
        """Die-roll order, highest first; tied seats roll again."""
        keys = {s: [self.rng.randint(1, 6)] for s in seats}
        while True:
            groups: dict[tuple[int, ...], list[int]] = {}
            for s in seats:
                groups.setdefault(tuple(keys[s]), []).append(s)
            tied = [g for g in groups.values() if len(g) > 1]
            if not tied:
                break
            for g in tied:
                for s in g:
                    keys[s].append(self.rng.randint(1, 6))
        order = sorted(seats, key=lambda s: keys[s], reverse=True)
        if self.log.enabled:
            self.log.emit("rolled", why=why, rolls={str(s): keys[s] for s in seats}, order=order)
        return order

    def _draw_one(self, creature: bool) -> int:
        deck = self.cdeck if creature else self.ddeck
        if not deck:
            grave = self.cgrave if creature else self.dgrave
            if not grave:
                return -1
            deck.extend(grave)
            grave.clear()
            self.rng.shuffle(deck)
            if self.log.enabled:
                self.log.emit(
                    "deck_rebuilt", deck="creature" if creature else "destiny", size=len(deck)
                )
        return deck.pop()

    def draw(self, seat: int, creature: bool, count: int) -> None:
        got = []
        for _ in range(count):
            c = self._draw_one(creature)
            if c < 0:
                break
            self.hand[seat].append(c)
            got.append(c)
        kind = "creature" if creature else "destiny"
        if self.log.enabled:
            self.log.emit("drew", seat=seat, deck=kind, count=len(got))
        if got and self.log.enabled:
            self.log.emit(
                "drew_cards",
                to=self.team(seat & 1),
                seat=seat,
                cards=[self.name(c) for c in got],
            )

    def name(self, iid: int) -> str:
        return self.defs[self.kind[iid]].name

    def shown_name(self, slot: int) -> str | None:
        """The card on ``slot`` if everyone may see it (face up), else None: a log
        line names a face-down creature by its place only."""
        if slot < 0 or self.field[slot] < 0 or not self.up[slot]:
            return None
        return self.name(self.field[slot])

    def change_vitality(self, team: int, delta: int, source: str) -> None:
        if self.phase == P_OVER:
            return  # "rozgrywka kończy się": nothing changes after the game is over
        before = self.vit[team]
        v = before + delta
        if delta > 0:
            v = min(v, self.vit_start)
        self.vit[team] = v
        if self.log.enabled:
            self.log.emit(
                "vitality",
                team=team,
                seats=self.team(team),
                delta=v - before,
                before=before,
                vitality=v,
                source=source,
            )
        if v <= 0 and self.phase != P_OVER:
            self._finish(team ^ 1)  # 0 vitality loses the game at once

    # ------------------------------------------------------------ creatures
    def hurt(self, slot: int, amount: int, toxin: bool, source: str) -> None:
        if self.field[slot] < 0 or amount <= 0:
            return
        aimed = slot
        slot = self._redirect(slot)  # WYZWANIE takes any damage aimed beside it
        iid = self.field[slot]
        self.dmg[iid] += amount
        if toxin:
            self.doomed[iid] = True
        if self.log.enabled:
            if slot != aimed:
                self.log.emit(
                    "challenged",
                    slot=slot,
                    card=self.shown_name(slot),
                    aimed=aimed,
                    aimed_card=self.shown_name(aimed),
                    source=source,
                )
            self.log.emit(
                "damaged",
                slot=slot,
                card=self.shown_name(slot),
                amount=amount,
                toxin=toxin,
                source=source,
            )

    def move(self, slot: int, lane: int, source: str) -> None:
        seat = slot // 3
        dest = seat * 3 + lane
        if dest == slot:
            return
        f, u = self.field, self.up
        f[slot], f[dest] = f[dest], f[slot]
        u[slot], u[dest] = u[dest], u[slot]
        if self.log.enabled:
            self.log.emit(
                "moved",
                seat=seat,
                card=self.shown_name(dest),
                src=slot % 3,
                dest=lane,
                source=source,
            )

    def _reset_card(self, iid: int) -> None:
        self.atk_mod[iid] = self.def_mod[iid] = self.dmg[iid] = self.kw_extra[iid] = 0
        self.used[iid] = self.doomed[iid] = False

    def _drop_equipment(self, iid: int) -> None:
        if iid not in self.attached_to:
            return  # usually nothing is fused to it (one C-level scan)
        for d in self.cs.destiny_ids:
            if self.attached_to[d] == iid:
                self.attached_to[d] = -1
                self.dstat[d] = D_NONE
                self.dgrave.append(d)

    def leave_field(self, slot: int, to_hand: bool = False) -> None:
        """A creature leaves the battlefield (graveyard or hand) without dying."""
        iid = self.field[slot]
        face_up = self.up[slot]
        self.field[slot] = -1
        self.up[slot] = False
        self._drop_equipment(iid)
        self._reset_card(iid)
        if to_hand:
            seat = slot // 3
            self.hand[seat].append(iid)
            if face_up:
                if self.log.enabled:
                    self.log.emit("returned", slot=slot, card=self.name(iid))
            else:
                # A face-down card goes back to the hand unseen: only its
                # owner's team learns which card it was.
                if self.log.enabled:
                    self.log.emit("returned", slot=slot)
                if self.log.enabled:
                    self.log.emit(
                        "returned_card", to=self.team(seat & 1), slot=slot, card=self.name(iid)
                    )
        else:
            self.cgrave.append(iid)

    def settle(self) -> None:
        """Creatures with defence ≤ 0 go to the graveyard at once; then their
        death abilities fire, players in die-roll order ("o kolejności
        aktywacji decyduje rzut kostką")."""
        for _ in range(50):
            dead = [
                s
                for s in range(self.players * 3)
                if self.field[s] >= 0 and (self.defence(s) <= 0 or self.doomed[self.field[s]])
            ]
            if not dead:
                return
            corpses = []
            for s in dead:
                iid = self.field[s]
                if self.log.enabled:
                    self.log.emit("died", slot=s, card=self.name(iid))
                self.leave_field(s)
                corpses.append((s, iid))
            # Only the players whose dead have something to fire (a death
            # ability, or a destiny card armed for an ally's death) need an
            # order: with one or none, no die is rolled.
            seats = sorted(
                {
                    s // 3
                    for s, iid in corpses
                    if self.defs[self.kind[iid]].death
                    or any(
                        self.dstat[c] == D_ARMED and self.defs[self.kind[c]].on == "ally_dies"
                        for c in self.dfield[s // 3]
                    )
                }
            )
            order = self.roll_order(seats, "death order") if len(seats) > 1 else seats
            for seat in order:
                for s, iid in corpses:
                    if s // 3 != seat or self.over:
                        continue  # the game ends at once at 0 vitality
                    d = self.defs[self.kind[iid]]
                    if d.death:
                        fx.run(self, d.death, seat, src=s, source=d.name)
                    self._fire_armed(seat, "ally_dies", s)
            if self.over:
                return

    def _fire_armed(self, seat: int, on: str, src: int = -1) -> None:
        """Destiny cards with a condition fire by themselves ("aktywują się samoczynnie")."""
        for iid in list(self.dfield[seat]):
            d = self.defs[self.kind[iid]]
            if self.dstat[iid] == D_ARMED and d.on == on:
                self.dfield[seat].remove(iid)
                self.dstat[iid] = D_NONE
                self.dgrave.append(iid)
                if self.log.enabled:
                    self.log.emit("fired", seat=seat, card=d.name)
                fx.run(self, d.effects, seat, src=src, source=d.name)

    def _redirect(self, slot: int) -> int:
        """WYZWANIE: "ISTOTA przejmuje obrażenia kierowane w stronę sąsiednich,
        przyjaznych ISTOT" — battle, spell and ability damage alike (only CIĘCIE
        is limited to the Battle phase). A face-down creature's text is not in
        play yet, so only a face-up challenger takes damage."""
        if self.keywords(slot) & CHALLENGE and self.up[slot]:
            return slot
        for b in fx.beside(slot):
            if self.field[b] >= 0 and self.up[b] and self.keywords(b) & CHALLENGE:
                return b
        return slot

    def _finish(self, team: int) -> None:
        self.winner_team = team
        self.phase = P_OVER
        if self.log.enabled:
            self.log.emit(
                "game_over",
                winner=team,
                vitality=list(self.vit),
                teams=[self.team(0), self.team(1)],
            )

    # ------------------------------------------------------------ outcome
    @property
    def over(self) -> bool:
        return self.phase == P_OVER
