"""The ``heuristic`` bot: drafts on value for cost, places creatures against
the opponent's likely line-up, and chooses activations and INSTANT spells by
a one-step look-ahead on a determinized state (it never sees hidden cards:
``ctx.determinize()`` resamples everything its team cannot know).
"""

from __future__ import annotations

from itertools import permutations
from typing import Any, cast

from bestiary.agents.context import AgentContext, option_choice, option_flag, option_number
from bestiary.engine import Rng
from bestiary.engine.errors import BadAgentSpec
from bestiary.i18n import domain

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
    Move,
)
from .cards import (
    CHALLENGE,
    CLEAVE,
    FACTIONS,
    REFLEX,
    TOXIN,
    CardDef,
    CardSet,
    Effect,
    load_cards,
)
from .placement import sampled_place
from .rules import P_OVER, P_RESPOND, MeatState

_KW_VALUE = {REFLEX: 1.5, TOXIN: 2.5, CLEAVE: 1.5, CHALLENGE: 1.0}
#: How the heuristic places its creatures (``place``): against a guess of the
#: opponent's line-up, or by sampling the battle (``placement.py``).
PLACES = ("guess", "sample")
_ = domain("meat", __file__)
_LEADER_PREF = ("summary_bonus", "telestarion", "faction_stat", "destiny_draw", "draft_discount")


def power(d: CardDef) -> float:
    """A card's rough worth, for drafting, placing and discarding."""
    if d.is_creature:
        v = float(d.attack + d.defence)
        v += sum(val for bit, val in _KW_VALUE.items() if d.keywords & bit)
        v += 1.5 * bool(d.reveal) + 1.0 * bool(d.death) + 1.5 * bool(d.ability)
        return v
    return 3.0 + (1.0 if d.instant else 0.0) + d.cost


def _duel(a: CardDef | None, b: CardDef | None) -> float:
    """+1 if creature a survives and b dies, -1 the other way, 0 otherwise."""
    if a is None or b is None:
        return 0.5 if b is None and a is not None else (-0.5 if a is None and b else 0.0)
    a_kills = a.attack >= b.defence or (a.keywords & TOXIN and a.attack > 0)
    b_kills = b.attack >= a.defence or (b.keywords & TOXIN and b.attack > 0)
    a_first = a.keywords & REFLEX and not b.keywords & REFLEX
    b_first = b.keywords & REFLEX and not a.keywords & REFLEX
    if a_first and a_kills:
        b_kills = False
    if b_first and b_kills:
        a_kills = False
    return (1.0 if a_kills else 0.0) - (1.0 if b_kills else 0.0) + 0.01 * (a.defence - b.attack)


class HeuristicAgent:
    def __init__(
        self,
        seed: int = 0,
        lookahead: str | bool = True,
        leader: str = "best",
        faction: str = "",
        place: str = "guess",
        place_samples: int | str = 24,
    ) -> None:
        """Options (``heuristic:leader=random,faction=natura``): ``leader`` =
        best (a fixed preference), random, or a leader's name; ``faction`` =
        a faction (or its first word) to favour in the draft, for balance
        studies; ``lookahead=0`` turns the look-ahead off; ``place`` = guess
        (against the opponent's likely line-up) or sample (the battle run on
        ``place_samples`` samples, see ``placement.py``)."""
        self.rng = Rng(seed)
        self._rules: object = None
        self._cs: CardSet | None = None
        self.lookahead = option_flag("lookahead", lookahead)
        self.leader = leader.strip().casefold()
        self.place = option_choice("place", place, PLACES)
        self.place_samples = int(option_number("place_samples", place_samples, 1, 1000))
        want = faction.strip().casefold()
        self.faction = ""
        if want:
            found = [f for f in FACTIONS if f.casefold().startswith(want)]
            if not found:
                raise ValueError(f"faction {faction!r}; factions: {', '.join(FACTIONS)}")
            self.faction = found[0]

    def act(self, ctx: AgentContext) -> Move:
        legal: list[Any] = list(ctx.legal())
        if len(legal) == 1:
            return legal[0]
        cs = self._cards(ctx)
        kind = legal[0].kind
        if kind == LEADER:
            if self.leader == "random":
                return self.rng.choice(legal)
            if self.leader != "best":
                return self._named_leader(cs, legal)
            return min(legal, key=lambda m: _LEADER_PREF.index(cs.leaders[m.a].passive))
        if kind == DRAFT:
            lead = ctx.view()["leaders"][ctx.seat]
            boost = ""
            if lead is not None:
                ld = cs.leader(lead)
                boost = ld.faction if ld.passive == "faction_stat" else ""
            return max(legal, key=lambda m: self._draft_value(cs.defs[m.a], boost))
        if kind == PAY:
            return max(legal, key=lambda m: power(cs.defs[m.a]))
        if kind == DISCARD:
            return min(legal, key=lambda m: power(cs.defs[m.a]))
        if kind == PLACE:
            if self.place == "sample":
                return sampled_place(
                    ctx,
                    legal,
                    self.place_samples,
                    lambda iid: power(cs.defs[cs.kind[iid]]),
                    self.rng,
                )
            return self._place(ctx, cs, legal)
        if kind in (SET, DONE):
            return self._set(ctx, cs, legal)
        return self._look_ahead(ctx, cs, legal)

    def _named_leader(self, cs: CardSet, legal: list[Any]) -> Move:
        """The leader the spec names (``leader=Kat z Wieży``). The name is
        checked against the match's card set here, not when the spec is read,
        because a designer's card file may name leaders of its own; a name
        that is no leader of the set is an error, never a silent fallback."""
        if self.leader not in cs.leader_by_name:
            raise BadAgentSpec(
                _(
                    "heuristic: leader={leader!r} is not a leader of this card set; "
                    "leaders: {names} (or best, random)"
                ).format(leader=self.leader, names=", ".join(x.name for x in cs.leaders))
            )
        named = [m for m in legal if cs.leaders[m.a].name.casefold() == self.leader]
        # The named leader may not be among the ones dealt to this seat: then
        # the fixed preference picks, as the option's docstring says.
        if named:
            return cast(Move, named[0])
        return cast(Move, min(legal, key=lambda m: _LEADER_PREF.index(cs.leaders[m.a].passive)))

    def _cards(self, ctx: AgentContext) -> CardSet:
        """The match's card set, loaded once per match (per rules object), not
        once per decision: reading a designer's file every time made
        simulations with ``-o cards=FILE`` ten times slower."""
        rules = ctx.rules
        if self._rules is not rules or self._cs is None:
            self._cs = load_cards(rules.cards or None)
            self._rules = rules
        return self._cs

    def _draft_value(self, d: CardDef, leader_faction: str) -> float:
        v = power(d) - 1.5 * d.cost
        if d.faction == leader_faction:
            v += 1.0  # the leader's bonus applies to it
        return v + (4.0 if self.faction and d.faction == self.faction else 0.0)

    # -- Tactics
    def _place(self, ctx: AgentContext, cs: CardSet, legal: list[Move]) -> Move:
        view = ctx.view()
        seat = ctx.seat
        mine = [cs.card(n) for n in view["hands"][str(seat)]]
        mine = sorted((d for d in mine if d.is_creature), key=power, reverse=True)[:3]
        theirs = [cs.card(n) for n in view["drafted"][seat ^ 1]]
        theirs = sorted((d for d in theirs if d.is_creature), key=power, reverse=True)[:3]
        # The likely opposition: their best in front, then their left and right flanks.
        their_lane: list[CardDef | None] = [None, None, None]
        for d, lane in zip(theirs, (1, 0, 2), strict=False):
            their_lane[lane] = d
        best, best_v = None, -99.0
        while len(mine) < 3:
            mine.append(None)  # type: ignore[arg-type]
        for perm in permutations(range(3)):
            v = 0.0
            for lane, i in enumerate(perm):
                v += _duel(mine[i], their_lane[2 - lane])
                if mine[i] is not None and mine[i].keywords & CHALLENGE and lane == 1:
                    v += 0.3
            if v > best_v:
                best, best_v = perm, v
        assert best is not None
        for lane, i in enumerate(best):
            d = mine[i]
            if d is None:
                continue
            for m in legal:
                if m.a == d.index and m.b == lane:
                    return m
        return legal[0]

    def _set(self, ctx: AgentContext, cs: CardSet, legal: list[Move]) -> Move:
        view = ctx.view()
        seat = ctx.seat
        budget = view["telestarion"][seat]
        pend = view["tactics"][str(seat)]["destiny"]
        budget -= sum(cs.card(n).cost for n in pend)
        hand = [cs.card(n) for n in view["hands"][str(seat)]]
        if any(d.instant for d in hand):
            budget -= min(d.cost for d in hand if d.instant)
        options = [m for m in legal if m.kind == SET and not cs.defs[m.a].instant]
        options = [m for m in options if cs.defs[m.a].cost <= budget]
        if options:
            return max(options, key=lambda m: power(cs.defs[m.a]))
        return next(m for m in legal if m.kind == DONE)

    # -- Activation, INSTANT windows and responses
    def _look_ahead(self, ctx: AgentContext, cs: CardSet, legal: list[Move]) -> Move:
        pass_move = next((m for m in legal if m.kind == PASS), None)
        if not self.lookahead:
            acts = [m for m in legal if m.kind != CAST]
            return acts[0] if acts else legal[-1]
        base = ctx.determinize()
        base.quiet()
        assert isinstance(base, MeatState)
        seat = ctx.seat
        scored: list[tuple[float, float, Move]] = []
        for m in legal:
            s = base.clone()
            s.apply(seat, m)
            _settle_stack(s)
            v = round(evaluate(s, seat), 6)  # equal boards tie exactly
            if m.kind == CAST:
                v -= 1.0 + cs.defs[m.a].cost  # a spell kept in hand keeps its value
            scored.append((v, _goodwill(base, cs, seat, m), m))
        # Ties go to the move that helps one's own side (never list order,
        # which from seat 1 put the opponent's creatures first).
        best_v, _, best = max(scored, key=lambda x: (x[0], x[1]))
        if pass_move is not None:
            pv = next(v for v, _, m in scored if m is pass_move)
            if best_v <= pv + 0.05:
                # Nothing helps: pass — unless acting is free and harmless.
                neutral = [
                    (g, v, m)
                    for v, g, m in scored
                    if m.kind not in (PASS, CAST) and g >= 0 and v >= pv - 0.05
                ]
                return max(neutral, key=lambda x: (x[0], x[1]))[2] if neutral else pass_move
        return best


def _goodwill(st: MeatState, cs: CardSet, seat: int, m: Move) -> float:
    """How much a targeted move helps ``seat``'s side by its own text: the
    target's gain, counted against us when the target is an opponent's."""
    if m.kind not in (RESOLVE, CAST, ABILITY) or m.b <= 0:
        return 0.0
    slot = m.b - 1
    if m.kind == ABILITY:
        iid = st.field[seat * 3 + m.a]
        ability = st.ability_of(iid) if iid >= 0 else None
        gain = _effects_gain(ability.effects) if ability else 0.0
    else:
        gain = _card_gain(cs.defs[m.a])
    return gain if ((slot // 3) & 1) == (seat & 1) else -gain


def _card_gain(d: CardDef) -> float:
    """What a destiny card gives the creature it targets (negative: harm)."""
    if d.type == "equipment":
        v = float(d.attack + d.defence)
        v += sum(val for bit, val in _KW_VALUE.items() if d.keywords & bit)
        return v + (1.5 if d.ability else 0.0)
    return _effects_gain(d.effects)


def _effects_gain(effects: tuple[Effect, ...]) -> float:
    v = 0.0
    for e in effects:
        if e.to != "target":
            continue
        if e.do == "buff":
            v += e.attack + e.defence
        elif e.do == "grant":
            v += _KW_VALUE.get(e.keyword, 1.0)
        elif e.do == "heal":
            v += e.amount
        elif e.do == "damage":
            v -= e.amount
        elif e.do in ("destroy", "return"):
            v -= 5.0
    return v


def _settle_stack(s: MeatState) -> None:
    """Let everyone else pass, so the stack resolves (for the look-ahead)."""
    for _ in range(40):
        if s.phase != P_RESPOND:
            return
        seat = s.to_act()[0]
        s.apply(seat, s.space.get(PASS))


def evaluate(s: MeatState, seat: int) -> float:
    """The board from ``seat``'s team's side: the predicted battle, vitality, resources."""
    team = seat & 1
    if s.phase == P_OVER:
        return 1000.0 if s.winner_team == team else -1000.0
    b = s.clone()
    b.quiet()
    # The battle's own triggers first, so that passing (which opens the battle
    # window and fires them) and acting are judged on the same battle.
    b._battle_triggers()
    if b.phase != P_OVER:
        b.fight()
    if b.phase == P_OVER:
        return 1000.0 if b.winner_team == team else -1000.0
    alive = [0, 0]
    dfn = [0, 0]
    for slot in range(b.players * 3):
        if b.field[slot] >= 0:
            t = (slot // 3) & 1
            alive[t] += 1
            dfn[t] += b.defence(slot) + b.attack(slot)
    v = 6.0 * (alive[team] - alive[team ^ 1]) + 0.3 * (dfn[team] - dfn[team ^ 1])
    v += 1.0 * (s.vit[team] - s.vit[team ^ 1])
    v += 0.3 * s.tel[seat] + 0.6 * len(s.hand[seat])
    return v
