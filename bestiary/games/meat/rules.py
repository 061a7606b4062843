"""M.E.A.T.: The Cult — the match state, phase by phase as the manual reads.

Seats alternate between the two teams (team = seat % 2) and seat ``s`` faces
seat ``s ^ 1`` across the table ("każdy ich członek miał naprzeciwko siebie
jednego przeciwnika"). Vitality belongs to a team. A round is Otwarcie
(Opening: Telestarion, draft, destiny draw, hand limit), Ustalanie taktyki
(Tactics: simultaneous face-down placement, then an INSTANT window),
Aktywacja (reveal, pay, alternate activations), Bitwa (battle) and
Podsumowanie (summary). RULES.md lists every reading.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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
from bestiary.engine.protocol import Game
from bestiary.i18n import domain

from . import effects as fx
from .actions import (
    ABILITY,
    CAST,
    DISCARD,
    DONE,
    DRAFT,
    LEADER,
    PASS,
    PAY,
    PLACE,
    RESOLVE,
    SET,
    ActionSpace,
    Move,
    space_for,
)
from .cards import (
    CHALLENGE,
    CLEAVE,
    FACTIONS,
    LANES,
    REFLEX,
    TOXIN,
    Ability,
    CardSet,
    load_cards,
)
from .phases import (  # re-exported: bots.py, observe.py and whatif.py read them here
    D_ARMED,
    D_ATTACHED,
    D_DOWN,
    D_NONE,
    D_READY,
    D_UNPAID,
    P_ACTIVATION,
    P_DISCARD,
    P_DRAFT,
    P_LEADER,
    P_OVER,
    P_PAY,
    P_RESPOND,
    P_TACTICS,
    P_WINDOW,
    PHASE_NAMES,
)
from .view import build_view

_ = domain("meat", __file__)

__all__ = [
    "D_ARMED",
    "D_ATTACHED",
    "D_DOWN",
    "D_NONE",
    "D_READY",
    "D_UNPAID",
    "PHASE_NAMES",
    "P_ACTIVATION",
    "P_DISCARD",
    "P_DRAFT",
    "P_LEADER",
    "P_OVER",
    "P_PAY",
    "P_RESPOND",
    "P_TACTICS",
    "P_WINDOW",
    "MeatRules",
    "MeatState",
]


@dataclass(frozen=True)
class MeatRules(Ruleset):
    vitality_1v1: int = option(25, "vitality per side with 2 players", min=1, max=200)
    vitality_2v2: int = option(40, "vitality per team of two", min=1, max=300)
    vitality_3v3: int = option(50, "vitality per team of three", min=1, max=400)
    telestarion: int = option(
        7, "ounces of Telestarion each player takes in every Opening", min=0, max=50
    )
    telestarion_carry_over: bool = option(
        False, "unspent Telestarion is kept (default: the bank takes it back)"
    )
    draft_left: int = option(
        3, "creature cards left in the draft (go to the graveyard)", min=0, max=10
    )
    destiny_draw: int = option(3, "destiny cards each player draws per round", min=0, max=10)
    hand_limit: int = option(8, "cards in hand at the end of the Opening", min=1, max=30)
    instant_windows: bool = option(
        True, "INSTANT windows in Tactics and Battle (not only Activation)"
    )
    max_rounds: int = option(
        40, "safety limit; then the side with more vitality wins", min=1, max=200
    )
    cards: str = option("", "card file (TOML); empty: the bundled set", path=True)

    def validate(self) -> None:
        for name in ("vitality_1v1", "vitality_2v2", "vitality_3v3"):
            if getattr(self, name) < 1:
                raise BadOptions(_("{name} must be at least 1").format(name=name))
        if self.telestarion < 0 or self.destiny_draw < 0 or self.hand_limit < 0:
            raise BadOptions(_("telestarion, destiny_draw and hand_limit cannot be negative"))
        if not 0 <= self.draft_left <= 9:
            raise BadOptions(_("draft_left must be 0..9"))
        if self.max_rounds < 1:
            raise BadOptions(_("max_rounds must be at least 1"))
        if self.cards:
            # A bad card file is refused with the options, before any match
            # starts (BadCardFile names the file); the parsed set is cached.
            load_cards(self.cards)


def _copy_field(value: Any) -> Any:
    """An independent copy of one state attribute: lists (of ints, tuples or
    lists) are copied one level deeper than they nest, the RNG and the event
    log are copied, immutable values are shared."""
    if type(value) is list:
        if value and type(value[0]) is list:
            return [list(x) for x in value]
        return list(value)
    if isinstance(value, (Rng, EventLog)):
        return value.copy()
    if value is None or isinstance(value, (int, str, float, tuple)):
        return value
    return copy.deepcopy(value)


class MeatState(State):
    """One match. Cards are instance ids (ints) of ``self.cs``."""

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
            seats = sorted({s // 3 for s, _ in corpses})
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

    # ------------------------------------------------------------ protocol
    def to_act(self) -> tuple[int, ...]:
        ph = self.phase
        if ph in (P_LEADER, P_DRAFT):
            return (self.order[self.pos],)
        if ph == P_DISCARD:
            lim = self.rules.hand_limit
            return tuple(s for s in range(self.players) if len(self.hand[s]) > lim)
        if ph == P_TACTICS:
            return tuple(s for s in range(self.players) if self.tac_stage[s] < 2)
        if ph == P_WINDOW:
            return (self.win_order[self.win_pos],)
        if ph == P_RESPOND:
            return (self.resp_order[self.resp_pos],)
        if ph == P_ACTIVATION:
            return self._eligible(self.act_team)
        if ph == P_PAY:
            return tuple(s for s in range(self.players) if self.pay_owed[s])
        return ()

    def _eligible(self, team: int) -> tuple[int, ...]:
        members = [s for s in range(team, self.players, 2) if not self.passed[s]]
        fresh = tuple(s for s in members if not self.acted[s])
        return fresh or tuple(members)

    def legal(self, seat: int) -> Sequence[Move]:
        # The last answer is kept until the next apply (the usual caller asks
        # legal() and then apply(), which needs the same list).
        memo = self._memo
        if memo is not None and memo[0] == self._ver and memo[1] == seat:
            return memo[2]
        out = self._legal(seat)
        self._memo = (self._ver, seat, out)
        return out

    def _legal(self, seat: int) -> list[Move]:
        if seat not in self.to_act():
            return []
        sp = self.space
        ph = self.phase
        if ph == P_LEADER:
            taken = set(self.leader)
            return [sp.get(LEADER, i) for i in range(len(self.cs.leaders)) if i not in taken]
        if ph == P_DRAFT:
            out, seen = [], set()
            for iid in self.row:
                k = self.kind[iid]
                if k not in seen and self.draft_cost(seat, iid) <= self.tel[seat]:
                    seen.add(k)
                    out.append(sp.get(DRAFT, k))
            return out
        if ph == P_DISCARD:
            return [sp.get(DISCARD, k) for k in sorted({self.kind[i] for i in self.hand[seat]})]
        if ph == P_TACTICS:
            return self._tactics_legal(seat)
        if ph == P_ACTIVATION:
            return self._activation_legal(seat)
        if ph == P_PAY:
            tel = self.tel[seat]
            kinds = {self.kind[c] for c in self._unpaid(seat)}
            return [sp.get(PAY, k) for k in sorted(kinds) if self.defs[k].cost <= tel]
        return [*self._instant_options(seat), sp.get(PASS)]

    def _tactics_legal(self, seat: int) -> list[Move]:
        sp = self.space
        if self.tac_stage[seat] == 0:
            placed = self.tac_c[seat]
            free = [lane for lane in range(3) if placed[lane] < 0]
            kinds = sorted(
                {self.kind[i] for i in self.hand[seat] if i < self.ncre and i not in placed}
            )
            place = sp.place
            return [place[k][lane] for k in kinds for lane in free]
        pend = self.tac_d[seat]
        kinds = sorted({self.kind[i] for i in self.hand[seat] if i >= self.ncre and i not in pend})
        return [*(sp.get(SET, k) for k in kinds), sp.get(DONE)]

    def draft_cost(self, seat: int, iid: int) -> int:
        cost = self.defs[self.kind[iid]].cost
        ld = self.leader[seat]
        if ld >= 0 and self.picks[seat] == 0:
            lead = self.cs.leaders[ld]
            if lead.passive == "draft_discount":
                cost = max(0, cost - lead.amount)
        return cost

    def _targets(self, seat: int, kind: str) -> list[int]:
        if not kind:
            return [0]
        return [s + 1 for s in fx.chosen_targets(self, seat, kind)]

    def _instant_options(self, seat: int) -> list[Move]:
        out: list[Move] = []
        sp = self.space
        seen = set()
        for iid in self.hand[seat]:
            k = self.kind[iid]
            d = self.defs[k]
            if not d.instant or k in seen or d.cost > self.tel[seat]:
                continue
            seen.add(k)
            if any(e.do == "counter" for e in d.effects):
                if self.stack:
                    out.append(sp.get(CAST, k, 0))
                continue
            out += [sp.get(CAST, k, t) for t in self._targets(seat, d.target)]
        return out

    def _activation_legal(self, seat: int) -> list[Move]:
        sp = self.space
        out: list[Move] = []
        for lane in range(3):
            slot = seat * 3 + lane
            iid = self.field[slot]
            if iid < 0 or self.used[iid]:
                continue
            a = self.ability_of(iid)
            if a is None or a.cost > self.tel[seat]:
                continue
            out += [sp.get(ABILITY, lane, t) for t in self._targets(seat, a.target)]
        seen = set()
        for iid in self.dfield[seat]:
            k = self.kind[iid]
            if self.dstat[iid] != D_READY or k in seen:
                continue
            seen.add(k)
            out += [sp.get(RESOLVE, k, t) for t in self._targets(seat, self.defs[k].target)]
        out += self._instant_options(seat)
        out.append(sp.get(PASS))
        return out

    # ------------------------------------------------------------------ apply
    def apply(self, seat: int, action: Any) -> None:
        legal = self.legal(seat)  # empty for a seat that owes no decision
        if not legal:
            owed = self.to_act()
            if seat not in owed:
                if owed:
                    raise NotYourTurn(
                        _(
                            "seat {seat} has no decision to make now; waiting for seat(s) {seats}"
                        ).format(seat=seat, seats=", ".join(map(str, owed)))
                    )
                raise NotYourTurn(_("seat {seat} has no decision to make now").format(seat=seat))
        # The space builds every Move once, so the usual caller passes one of
        # these very objects: an identity scan first (``in`` would call the
        # dataclass ``__eq__`` on every move before it).
        for m in legal:
            if m is action:
                break
        else:
            if not isinstance(action, Move) or action not in legal:
                raise IllegalAction(
                    _("{action} is not a legal action for seat {seat} now").format(
                        action=action, seat=seat
                    ),
                    legal,
                )
        self._ver += 1
        self._memo = None
        kind = action.kind
        if kind == LEADER:
            self._pick_leader(seat, action.a)
        elif kind == DRAFT:
            self._draft(seat, action.a)
        elif kind == DISCARD:
            self._discard(seat, action.a)
        elif kind in (PLACE, SET, DONE):
            self._tactic(seat, action)
        elif kind == PASS:
            self._pass(seat)
        elif kind == CAST:
            self._cast(seat, action.a, action.b)
        elif kind == RESOLVE:
            self._resolve_destiny(seat, action.a, action.b)
            self._after_activation(seat)
        elif kind == ABILITY:
            self._ability(seat, action.a, action.b)
            self._after_activation(seat)
        elif kind == PAY:
            self._pay_choice(seat, action.a)

    # -- Rozpoczęcie: leaders
    def _pick_leader(self, seat: int, li: int) -> None:
        self.leader[seat] = li
        lead = self.cs.leaders[li]
        if lead.passive == "faction_stat":
            f = FACTIONS.index(lead.faction)
            self.lb_atk[seat][f] += lead.attack
            self.lb_def[seat][f] += lead.defence
        if self.log.enabled:
            self.log.emit("leader", seat=seat, leader=lead.name)
        self.pos += 1
        if self.pos >= len(self.order):
            self._start_round()

    # -- Otwarcie: Telestarion, draft, destiny draw, hand limit
    def _start_round(self) -> None:
        self.round += 1
        n = self.players
        r = self.rules
        for s in range(n):
            bonus = 0
            ld = self.leader[s]
            if ld >= 0 and self.cs.leaders[ld].passive == "telestarion":
                bonus = self.cs.leaders[ld].amount
            self.tel[s] = (self.tel[s] if r.telestarion_carry_over else 0) + r.telestarion + bonus
        self.picks = [0] * n
        self.drafted = [[] for _ in range(n)]
        if self.log.enabled:
            self.log.emit("round", round=self.round, telestarion=list(self.tel))
        size = n // 2 * 6 + 3  # 9 / 15 / 21 cards for 2 / 4 / 6 players
        row = []
        for _ in range(size):
            c = self._draw_one(True)
            if c < 0:
                break
            row.append(c)
        self.row = row
        if self.log.enabled:
            self.log.emit("draft_row", cards=[self.name(c) for c in row])
        self.order = self.roll_order(list(range(n)), "draft")
        self.pos = 0
        self.phase = P_DRAFT
        self._next_drafter(first=True)

    def _can_draft(self, seat: int) -> bool:
        if not self.row:
            return False
        # The cheapest card decides (the leader's discount is the same for every card).
        cheapest = min(self.row, key=self.cost_of.__getitem__)
        return self.draft_cost(seat, cheapest) <= self.tel[seat]

    def _next_drafter(self, first: bool = False) -> None:
        """Advance to the next seat that can pay for a card; end the draft when
        ``draft_left`` cards remain or nobody can pay."""
        n = len(self.order)
        for step in range(0 if first else 1, n + 1):
            if len(self.row) <= self.rules.draft_left:
                break
            p = (self.pos + step) % n
            if self._can_draft(self.order[p]):
                self.pos = p
                return
        self._end_draft()

    def _draft(self, seat: int, k: int) -> None:
        iid = next(c for c in self.row if self.kind[c] == k)
        cost = self.draft_cost(seat, iid)
        self.row.remove(iid)
        self.tel[seat] -= cost
        self.picks[seat] += 1
        self.hand[seat].append(iid)
        self.drafted[seat].append(iid)
        f = self.fac[k]
        self.faction_count[seat][f] += 1
        if self.log.enabled:
            self.log.emit("drafted", seat=seat, card=self.name(iid), paid=cost)
        self._next_drafter()

    def _end_draft(self) -> None:
        if self.row and self.log.enabled:
            self.log.emit("to_graveyard", cards=[self.name(c) for c in self.row])
        self.cgrave.extend(self.row)
        self.row = []
        for s in reversed(self.order):
            extra = 0
            ld = self.leader[s]
            if ld >= 0 and self.cs.leaders[ld].passive == "destiny_draw":
                extra = self.cs.leaders[ld].amount
            self.draw(s, False, self.rules.destiny_draw + extra)
        self.phase = P_DISCARD
        self._maybe_end_discard()

    def _discard(self, seat: int, k: int) -> None:
        iid = next(c for c in self.hand[seat] if self.kind[c] == k)
        self.hand[seat].remove(iid)
        (self.cgrave if iid < self.ncre else self.dgrave).append(iid)
        if self.log.enabled:
            self.log.emit("discarded", seat=seat, card=self.name(iid))
        self._maybe_end_discard()

    def _maybe_end_discard(self) -> None:
        if not self.to_act():
            self._start_tactics()

    # -- Ustalanie taktyki
    def _start_tactics(self) -> None:
        self.phase = P_TACTICS
        n = self.players
        self.tac_stage = [0] * n
        self.tac_c = [[-1, -1, -1] for _ in range(n)]
        self.tac_d = [[] for _ in range(n)]
        for s in range(n):
            self._check_stage(s)
        if self.log.enabled:
            self.log.emit("tactics", round=self.round)

    def _check_stage(self, seat: int) -> None:
        """Step 1 ends when the three lanes are full or no creature is left in hand."""
        if self.tac_stage[seat] == 0:
            placed = self.tac_c[seat]
            left = any(i < self.ncre and i not in placed for i in self.hand[seat])
            if all(p >= 0 for p in placed) or not left:
                self.tac_stage[seat] = 1

    def _tactic(self, seat: int, m: Move) -> None:
        team = self.team(seat & 1)
        if m.kind == PLACE:
            iid = next(
                c for c in self.hand[seat] if self.kind[c] == m.a and c not in self.tac_c[seat]
            )
            self.tac_c[seat][m.b] = iid
            if self.log.enabled:
                self.log.emit("placing", to=team, seat=seat, card=self.name(iid), lane=LANES[m.b])
            self._check_stage(seat)
        elif m.kind == SET:
            iid = next(
                c for c in self.hand[seat] if self.kind[c] == m.a and c not in self.tac_d[seat]
            )
            self.tac_d[seat].append(iid)
            if self.log.enabled:
                self.log.emit("setting", to=team, seat=seat, card=self.name(iid))
        else:
            self.tac_stage[seat] = 2
            if self.log.enabled:
                self.log.emit("ready", seat=seat)
            if all(st == 2 for st in self.tac_stage):
                self._end_tactics()

    def _end_tactics(self) -> None:
        for s in range(self.players):
            for lane, iid in enumerate(self.tac_c[s]):
                if iid >= 0:
                    self.hand[s].remove(iid)
                    self.field[s * 3 + lane] = iid
                    self.up[s * 3 + lane] = False
            for iid in self.tac_d[s]:
                self.hand[s].remove(iid)
                self.dfield[s].append(iid)
                self.dstat[iid] = D_DOWN
            if self.log.enabled:
                self.log.emit(
                    "face_down",
                    seat=s,
                    lanes=[LANES[x] for x in range(3) if self.tac_c[s][x] >= 0],
                    destiny=len(self.tac_d[s]),
                )
        self.tac_c = [[-1, -1, -1] for _ in range(self.players)]
        self.tac_d = [[] for _ in range(self.players)]
        if self.rules.instant_windows:
            self._open_window("tactics")
        else:
            self._start_activation()

    # -- INSTANT windows and the response stack
    def _open_window(self, kind: str) -> None:
        first = self.first_team if kind == "battle" else (0 if self.vit[0] <= self.vit[1] else 1)
        n = self.players
        self.win_order = [(first + i) % n for i in range(n)]
        self.win_pos = 0
        self.win_passes = 0
        self.win_kind = kind
        self.phase = P_WINDOW
        if self.log.enabled:
            self.log.emit("window", what=kind)

    def _pass(self, seat: int) -> None:
        ph = self.phase
        if ph == P_ACTIVATION:
            self.passed[seat] = True
            if self.log.enabled:
                self.log.emit("passed", seat=seat)
            self._after_activation(seat)
        elif ph == P_WINDOW:
            self.win_passes += 1
            self.win_pos = (self.win_pos + 1) % self.players
            if self.win_passes >= self.players:
                self._close_window()
        elif ph == P_RESPOND:
            self.resp_pos += 1
            if self.resp_pos >= len(self.resp_order):
                self._resolve_stack()

    def _close_window(self) -> None:
        if self.win_kind == "tactics":
            self._start_activation()
        else:
            self._battle()

    def _cast(self, seat: int, k: int, t: int) -> None:
        d = self.defs[k]
        iid = next(c for c in self.hand[seat] if self.kind[c] == k)
        self.hand[seat].remove(iid)
        self.tel[seat] -= d.cost
        slot = t - 1
        if any(e.do == "counter" for e in d.effects):
            target_card = self.stack[-1][1]
        else:
            target_card = self.field[slot] if slot >= 0 else -1
        self.stack.append((seat, iid, slot, target_card))
        if self.log.enabled:
            self.log.emit(
                "cast",
                seat=seat,
                card=d.name,
                target=slot,
                target_card=self.shown_name(slot),
                paid=d.cost,
            )
        if self.phase != P_RESPOND:
            self.resume = self.phase
            self.phase = P_RESPOND
            if self.resume == P_ACTIVATION:
                self.acted[seat] = True
        n = self.players
        self.resp_order = [(seat + i) % n for i in range(1, n)]
        self.resp_pos = 0

    def _resolve_stack(self) -> None:
        """Last in, first out; a spell that lost its target fizzles ("jej efekt
        zostaje anulowany, a karta trafia na odpowiedni CMENTARZ")."""
        while self.stack and not self.over:
            seat, iid, slot, tcard = self.stack.pop()
            d = self.defs[self.kind[iid]]
            self.dgrave.append(iid)
            if any(e.do == "counter" for e in d.effects):
                hit = next((i for i, e in enumerate(self.stack) if e[1] == tcard), -1)
                if hit < 0:
                    if self.log.enabled:
                        self.log.emit("fizzled", seat=seat, card=d.name)
                else:
                    gone = self.stack.pop(hit)
                    self.dgrave.append(gone[1])
                    if self.log.enabled:
                        self.log.emit("countered", seat=seat, card=d.name, spell=self.name(gone[1]))
                continue
            if d.target and (slot < 0 or self.field[slot] != tcard):
                if self.log.enabled:
                    self.log.emit("fizzled", seat=seat, card=d.name)
                continue
            if self.log.enabled:
                self.log.emit(
                    "resolved",
                    seat=seat,
                    card=d.name,
                    target=slot,
                    target_card=self.shown_name(slot),
                )
            fx.run(self, d.effects, seat, target=slot, source=d.name)
            self.settle()
        self.stack.clear()
        if self.over:
            return
        self.phase = self.resume
        if self.phase == P_WINDOW:
            self.win_passes = 0
            self.win_pos = (self.win_pos + 1) % self.players
        elif self.phase == P_ACTIVATION:
            self._next_turn()

    # -- Aktywacja
    def _start_activation(self) -> None:
        self.phase = P_ACTIVATION
        n = self.players
        if self.vit[0] != self.vit[1]:
            self.first_team = 0 if self.vit[0] < self.vit[1] else 1
        else:
            self.first_team = self.roll_order([0, 1], "first side")[0]
        self.act_team = self.first_team
        for s in range(n * 3):
            if self.field[s] >= 0:
                self.up[s] = True
        for s in range(n):
            for c in self.dfield[s]:
                self.dstat[c] = D_UNPAID
        if self.log.enabled:
            reveal = [
                {"slot": s, "card": self.name(self.field[s])}
                for s in range(n * 3)
                if self.field[s] >= 0
            ]
            destiny = {str(s): [self.name(c) for c in self.dfield[s]] for s in range(n)}
            self.log.emit("revealed", creatures=reveal, destiny=destiny)
        seats = [*self.team(self.first_team), *self.team(self.first_team ^ 1)]
        self._reveal_abilities(seats)
        if self.over:
            return
        # Pay for destiny cards; a player who cannot pay for all of them chooses
        # which to pay, and the rest go to the graveyard unresolved.
        self.pay_owed = [False] * n
        for s in seats:
            down = self.dfield[s]
            if sum(self.defs[self.kind[c]].cost for c in down) <= self.tel[s]:
                for iid in list(down):
                    self._pay(s, iid)
            else:
                self.pay_owed[s] = True
                self._check_paid(s)
        if any(self.pay_owed):
            self.phase = P_PAY
        else:
            self._begin_turns()

    def _reveal_abilities(self, seats: list[int]) -> None:
        """ODKRYCIE fires when the card is turned up (side that starts first,
        seat order, lanes left to right). A creature brought to 0 defence "karta
        natychmiast zostaje przeniesiona na stos CMENTARZA": it dies before the
        next ability, so its own REVEAL never fires, and destiny cards are not
        paid yet, so a Zemsta paid later does not fire for it."""
        order = [self.field[s * 3 + x] for s in seats for x in range(3)]
        for iid in order:
            if iid < 0 or iid not in self.field:
                continue  # dead or returned by an earlier REVEAL
            d = self.defs[self.kind[iid]]
            if not d.reveal:
                continue
            slot = self.field.index(iid)
            if self.log.enabled:
                self.log.emit("reveal_ability", slot=slot, card=d.name)
            toxin = bool(self.keywords(slot) & TOXIN)
            fx.run(self, d.reveal, slot // 3, src=slot, toxin=toxin, source=d.name)
            self.settle()
            if self.over:
                return

    def _pay(self, seat: int, iid: int) -> None:
        d = self.defs[self.kind[iid]]
        self.tel[seat] -= d.cost
        self.dstat[iid] = D_READY if d.on == "play" else D_ARMED
        if self.log.enabled:
            self.log.emit("paid", seat=seat, card=d.name, cost=d.cost)

    def _unpaid(self, seat: int) -> list[int]:
        return [c for c in self.dfield[seat] if self.dstat[c] == D_UNPAID]

    def _check_paid(self, seat: int) -> None:
        """A player's payments end when nothing left can be paid: the rest is discarded."""
        left = self._unpaid(seat)
        if any(self.defs[self.kind[c]].cost <= self.tel[seat] for c in left):
            return
        for iid in left:
            self.dfield[seat].remove(iid)
            self.dstat[iid] = D_NONE
            self.dgrave.append(iid)
            if self.log.enabled:
                self.log.emit("unpaid", seat=seat, card=self.name(iid))
        self.pay_owed[seat] = False

    def _pay_choice(self, seat: int, k: int) -> None:
        iid = next(c for c in self._unpaid(seat) if self.kind[c] == k)
        self._pay(seat, iid)
        self._check_paid(seat)
        if not any(self.pay_owed):
            self._begin_turns()

    def _begin_turns(self) -> None:
        self.phase = P_ACTIVATION
        self.settle()
        if self.over:
            return
        n = self.players
        self.passed = [False] * n
        self.acted = [False] * n
        if self.log.enabled:
            self.log.emit(
                "activation", first_team=self.first_team, seats=self.team(self.first_team)
            )

    def _ability(self, seat: int, lane: int, t: int) -> None:
        slot = seat * 3 + lane
        iid = self.field[slot]
        d = self.defs[self.kind[iid]]
        a = self.ability_of(iid)
        assert a is not None
        self.tel[seat] -= a.cost
        self.used[iid] = True
        if self.log.enabled:
            self.log.emit(
                "ability",
                seat=seat,
                card=d.name,
                lane=LANES[lane],
                target=t - 1,
                target_card=self.shown_name(t - 1),
                paid=a.cost,
            )
        toxin = bool(self.keywords(slot) & TOXIN)
        fx.run(self, a.effects, seat, src=slot, target=t - 1, toxin=toxin, source=d.name)
        self.settle()

    def _resolve_destiny(self, seat: int, k: int, t: int) -> None:
        iid = next(c for c in self.dfield[seat] if self.kind[c] == k and self.dstat[c] == D_READY)
        d = self.defs[k]
        slot = t - 1
        self.dfield[seat].remove(iid)
        if d.type == "equipment":
            target = self.field[slot]
            self.dstat[iid] = D_ATTACHED
            self.attached_to[iid] = target
            self.atk_mod[target] += d.attack
            self.def_mod[target] += d.defence
            self.kw_extra[target] |= d.keywords
            if self.log.enabled:
                self.log.emit(
                    "attached",
                    seat=seat,
                    card=d.name,
                    target=slot,
                    target_card=self.shown_name(slot),
                )
        else:
            self.dstat[iid] = D_NONE
            self.dgrave.append(iid)
            if self.log.enabled:
                self.log.emit(
                    "resolved",
                    seat=seat,
                    card=d.name,
                    target=slot,
                    target_card=self.shown_name(slot),
                )
            fx.run(self, d.effects, seat, target=slot, source=d.name)
        self.settle()

    def _after_activation(self, seat: int) -> None:
        if self.over:
            return
        self.acted[seat] = True
        self._next_turn()

    def _next_turn(self) -> None:
        """Sides alternate, one action per player; passing ends your activations."""
        if all(self.passed):
            if self.rules.instant_windows:
                self._start_battle_window()
            else:
                self._battle()
            return
        team = self.act_team
        other = team ^ 1
        for t in (other, team):
            members = [s for s in range(t, self.players, 2) if not self.passed[s]]
            if members:
                if all(self.acted[s] for s in members):
                    for s in members:
                        self.acted[s] = False
                self.act_team = t
                return

    # -- Bitwa
    def _start_battle_window(self) -> None:
        self._battle_triggers()
        if self.over:
            return
        self._open_window("battle")

    def _battle_triggers(self) -> None:
        if self.triggered_round == self.round:
            return
        self.triggered_round = self.round
        for s in [*self.team(self.first_team), *self.team(self.first_team ^ 1)]:
            self._fire_armed(s, "battle")
        self.settle()

    def _battle(self) -> None:
        self._battle_triggers()
        if self.over:
            return
        if self.log.enabled:
            self.log.emit("battle", round=self.round)
        self.fight()
        if not self.over:
            self._summary()

    #: The two passes of a battle: REFLEKS strikes first ("zadaje obrażenia
    #: jako pierwsza"), two REFLEX creatures strike together, then the rest.
    STRIKES = (True, False)

    def fight(self) -> None:
        """The battle's damage, without its triggers and summary (the look-ahead
        and the what-if tool use it too)."""
        for reflex in self.STRIKES:
            if self.over:
                return
            self._strike(reflex)

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

    def _strike(self, reflex: bool) -> None:
        hits: list[tuple[int, int, bool, str]] = []
        idle: list[int] = []  # creatures with nobody opposite (for the log)
        f = self.field
        for slot in range(self.players * 3):
            iid = f[slot]
            if iid < 0:
                continue
            kw = self.keywords(slot)
            if bool(kw & REFLEX) != reflex:
                continue
            o = fx.opposite(slot)
            if f[o] < 0:
                idle.append(slot)
                continue  # nobody opposite: no attack
            a = self.attack(slot)
            if a <= 0:
                continue
            aims = [o]
            if kw & CLEAVE:
                aims += [b for b in fx.beside(o) if f[b] >= 0]
            for t in aims:
                hits.append((t, a, bool(kw & TOXIN), self.name(iid)))
        if self.log.enabled:
            # The whole battle in the log: who strikes first, who has nobody to fight.
            if reflex and hits:
                self.log.emit("reflex", cards=sorted({src for _, _, _, src in hits}))
            for slot in idle:
                self.log.emit("unopposed", slot=slot, card=self.shown_name(slot))
        for t, a, tox, src in hits:
            self.hurt(t, a, tox, src)
        self.settle()

    # -- Podsumowanie
    def round_winner(self) -> tuple[int, list[int], list[int]]:
        """Podsumowanie 1: more creatures alive wins; tie: more total defence;
        tie again: a draw (-1). Returns (winning team, alive, total defence)."""
        alive = [0, 0]
        total = [0, 0]
        for slot in range(self.players * 3):
            if self.field[slot] >= 0:
                t = (slot // 3) & 1
                alive[t] += 1
                total[t] += self.defence(slot)
        if alive[0] != alive[1]:
            win = 0 if alive[0] > alive[1] else 1
        elif total[0] != total[1]:
            win = 0 if total[0] > total[1] else 1
        else:
            win = -1
        return win, alive, total

    def _summary(self) -> None:
        win, alive, total = self.round_winner()
        dice: list[int] = []
        bonus = 0
        if win >= 0:
            self.rounds_won[win] += 1
            dice = [self.rng.randint(1, 6) for _ in range(alive[win])]
            for s in self.team(win):
                ld = self.leader[s]
                has = any(self.field[s * 3 + x] >= 0 for x in range(3))
                if ld >= 0 and has and self.cs.leaders[ld].passive == "summary_bonus":
                    bonus += self.cs.leaders[ld].amount
        if self.log.enabled:
            self.log.emit(
                "summary",
                alive=alive,
                defence=total,
                winner=win,
                dice=dice,
                bonus=bonus,
                teams=[self.team(0), self.team(1)],
            )
        if win >= 0 and (dice or bonus):
            self.change_vitality(win ^ 1, -(sum(dice) + bonus), "summary")
        self._cleanup()
        if self.over:
            return
        if self.round >= self.rules.max_rounds:
            v0, v1 = self.vit
            self._finish(-1 if v0 == v1 else (0 if v0 > v1 else 1))
        else:
            self._start_round()

    def _cleanup(self) -> None:
        """The battlefield goes to the graveyards without triggering anything."""
        for slot in range(self.players * 3):
            if self.field[slot] >= 0:
                self.leave_field(slot)
        for s in range(self.players):
            for iid in self.dfield[s]:
                self.dstat[iid] = D_NONE
                self.dgrave.append(iid)
            self.dfield[s] = []

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

    @property
    def result(self) -> Result | None:
        if not self.over:
            return None
        wt = self.winner_team
        winners = [s for s in range(self.players) if wt >= 0 and (s & 1) == wt]
        scores = [float(max(self.vit[s & 1], 0)) for s in range(self.players)]
        fac = [
            FACTIONS[max(range(4), key=lambda f: self.faction_count[s][f])]
            for s in range(self.players)
        ]
        lead = [self.cs.leaders[x].name if x >= 0 else "" for x in self.leader]
        return Result(
            scores,
            winners,
            {
                "rounds": self.round,
                "winning_team": "draw" if wt < 0 else f"team {wt}",
                "winner_leaders": [lead[s] for s in winners],
                "winner_factions": [fac[s] for s in winners],
                "player_leaders": lead,
                "player_factions": fac,
            },
        )

    # ------------------------------------------------------------ information
    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def clone(self) -> MeatState:
        """An independent copy. Every attribute outside SHARED/CACHES is copied
        by its type, so a field added later cannot be shared by mistake (search
        copies once changed the real match through shared leader bonuses).
        The type tests are inlined: clone() is the look-ahead's hot path."""
        return self._copy(keep_rng=True)

    def _copy(self, keep_rng: bool) -> MeatState:
        """``clone()``; ``keep_rng=False`` leaves the RNG to the caller (a
        determinization draws a fresh one: copying the Mersenne Twister's
        state is half a clone's cost)."""
        other = MeatState.__new__(MeatState)
        shared = self.SHARED
        new = other.__dict__
        for k, v in self.__dict__.items():
            t = type(v)
            if t is list:
                new[k] = [x[:] for x in v] if v and type(v[0]) is list else v[:]
            elif t is int or t is str or t is bool or t is tuple or v is None or k in shared:
                new[k] = v
            elif k == "rng" and not keep_rng:
                new[k] = None  # set by the caller
            else:
                new[k] = _copy_field(v)
        other._memo = None
        return other

    def zones(self) -> dict[str, list[int]]:
        """Every card instance by zone; each card is in exactly one zone."""
        n = self.players
        out: dict[str, list[int]] = {
            "creature deck": list(self.cdeck),
            "destiny deck": list(self.ddeck),
            "creature graveyard": list(self.cgrave),
            "destiny graveyard": list(self.dgrave),
            "draft row": list(self.row),
            "stack": [e[1] for e in self.stack],
            "attached": [d for d in self.cs.destiny_ids if self.attached_to[d] >= 0],
        }
        for s in range(n):
            out[f"hand {s}"] = list(self.hand[s])
            out[f"field {s}"] = [c for c in self.field[s * 3 : s * 3 + 3] if c >= 0]
            out[f"destiny field {s}"] = list(self.dfield[s])
        return out

    def determinize(self, seat: int, rng: Rng) -> MeatState:
        """Resample every card ``seat``'s team cannot see: both decks' order,
        the opponents' hands and their face-down cards (pending tactics follow
        the card they named)."""
        other = self._copy(keep_rng=False)  # other.rng is drawn below
        foe = [s for s in range(self.players) if (s & 1) != (seat & 1)]
        ncre = self.ncre
        for creature in (True, False):
            spots: list[tuple[list[int], int]] = []
            deck = other.cdeck if creature else other.ddeck
            spots += [(deck, i) for i in range(len(deck))]
            for s in foe:
                h = other.hand[s]
                spots += [(h, i) for i in range(len(h)) if (h[i] < ncre) == creature]
                if creature:
                    spots += [
                        (other.field, s * 3 + x)
                        for x in range(3)
                        if other.field[s * 3 + x] >= 0 and not other.up[s * 3 + x]
                    ]
                else:
                    d = other.dfield[s]
                    spots += [(d, i) for i in range(len(d)) if other.dstat[d[i]] == D_DOWN]
            cards = [lst[i] for lst, i in spots]
            # Sorted before the shuffle: the sample must not depend on the order the
            # hidden cards really lie in, only on which cards are unseen.
            new = sorted(cards)
            rng.shuffle(new)
            remap = dict(zip(cards, new, strict=True))
            for (lst, i), c in zip(spots, new, strict=True):
                lst[i] = c
            # Per-card counters (damage, buffs on a face-down creature) stay with the spot.
            # (Usually all zero: cards in decks and hands carry none.)
            for arr in (other.atk_mod, other.def_mod, other.dmg, other.kw_extra):
                vals = [arr[c] for c in cards]
                if any(vals):
                    for c, v in zip(new, vals, strict=True):
                        arr[c] = v
            for flags in (other.used, other.doomed):
                bits = [flags[c] for c in cards]
                if any(bits):
                    for c, b in zip(new, bits, strict=True):
                        flags[c] = b
            other.stack = [(a, b, t, remap.get(tc, tc)) for a, b, t, tc in other.stack]
            for s in foe:
                other.tac_c[s] = [remap.get(c, c) for c in other.tac_c[s]]
                other.tac_d[s] = [remap.get(c, c) for c in other.tac_d[s]]
            if not creature:
                for c in cards:
                    other.dstat[c] = D_NONE
                for s in foe:
                    for c in other.dfield[s]:
                        if c in remap:
                            other.dstat[c] = D_DOWN
        other.rng = rng.fork()
        return other

    # ------------------------------------------------------------ action space
    def action_index(self, action: Any) -> int:
        if not isinstance(action, Move):
            raise IllegalAction(_("{action} is not a M.E.A.T. action").format(action=action))
        return self.space.index(action)

    def action_from_index(self, seat: int, index: int) -> Move:
        m = self.space.from_index(index)
        legal = self.legal(seat)
        if m is None or m not in legal:
            raise IllegalAction(
                _("action {index} is not legal for seat {seat} now").format(index=index, seat=seat),
                legal,
            )
        return m
