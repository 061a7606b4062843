"""Monster Maker: the State, reading like the rulebook (§ numbers are its sections).

One *game* is several *dungeons* (§5). In a dungeon each player walks
corridors to the treasure room (§3 <Treasure Cards>), draws a treasure and
walks the road back, which must total exactly the outward distance plus the
OPEN penalties (§3 <The Road Back>). Opponents block with monsters; battles
are dice (§3 <Battle>). The first home draws a prize; then nobody draws any
more (§3 <Endgame>) and whoever cannot get home dies.

The state is built in layers, one module each, importing downward only:

- ``phases.py``: the phases and player statuses;
- ``ruleset.py``: the options and variants;
- ``board.py``: the table — piles, hands, corridors, treasures — and a
  dungeon's set-up (§3 <Preparation>);
- ``dungeon.py``: the turn, traps, corridors and monsters, treasure, the road
  home and the end of a dungeon and of the game;
- ``combat.py``: battles and what follows them;
- this module: the protocol (whose decision, legal moves, ``apply``), copies
  and determinization; ``view.py`` cuts what each seat sees.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from bestiary.engine import Event, EventLog, IllegalAction, Rng
from bestiary.engine.legality import legal_at, not_your_turn, require_legal
from bestiary.i18n import domain

from .actions import MAX_SEATS, Move
from .battle import may_cast, may_wield
from .combat import MonsterMakerCombat
from .phases import BACK, DEAD, HOME, OUT, TRAP_LOSS
from .view import PARTIAL_FIELDS, build_view, partial_view

_ = domain("monster_maker", __file__)

_ATOMS = (int, str, bool, float, type(None))


def _copy_field(value: Any) -> Any:
    """An independent copy of one state attribute, by its type (see ``clone``)."""
    t = type(value)
    if t is list:
        if value and type(value[0]) in (list, set, dict):
            return [_copy_field(x) for x in value]
        return value[:]
    if t is set:
        return set(value)
    if t in _ATOMS:
        return value
    if t is dict:
        if all(type(v) in _ATOMS for v in value.values()):
            return dict(value)  # keys are atoms too: a shallow copy is a full one
        return copy.deepcopy(value)
    if isinstance(value, (Rng, EventLog)):
        return value.copy()
    return copy.deepcopy(value)


class MonsterMakerState(MonsterMakerCombat):
    """One game: the protocol over battles (``combat.py``), the turn
    (``dungeon.py``) and the table (``board.py``)."""

    # ------------------------------------------------------------ protocol
    def to_act(self) -> tuple[int, ...]:
        if self.final is not None:
            return ()
        return (self.turn,)

    def legal(self, seat: int) -> Sequence[Move]:
        if self.final is not None or seat != self.turn:
            return []
        moves = self._legal(seat)
        # apply() right after legal() (the usual driver loop) reuses the list.
        self._cached = (self._version, seat, moves)
        return moves

    def _legal(self, seat: int) -> list[Move]:
        get = self.space.get
        cards = self.cs.cards
        hand = self.hands[seat]
        kinds = sorted(set(hand))
        out: list[Move] = []
        ph = self.phase
        if ph == "trap":
            if self.to_lose == TRAP_LOSS:
                out.extend(get("avoid", c) for c in kinds if cards[c].has("avoids_traps"))
            out.extend(get("lose", c) for c in kinds)
            return out
        if ph == "door":
            out.extend(get("door", c) for c in kinds if cards[c].has("opens_doors"))
            out.append(get("leave_door"))
            return out
        if ph == "discard":
            discard = self.space.by_card["discard"]
            return [discard[c] for c in kinds]
        if ph == "battle":
            return self._battle_moves(seat, kinds)
        if ph == "after":
            return self._after_moves(seat, kinds)
        # ph == "turn"
        by_card = self.space.by_card
        mon = self.monster[seat]
        if mon >= 0:
            fight = by_card["fight"]
            out = [fight[c] for c in kinds if cards[c].kind == "character"]
            if self._is_undead(seat):
                out.extend(get("dispel", c) for c in kinds if cards[c].has("dispels_undead"))
                out.extend(
                    get("tdispel", t)
                    for t in self.held[seat]
                    if self.cs.treasures[t].dispels_undead
                )
            if any(cards[c].kind == "detour" for c in kinds):
                out.append(get("detour"))
        else:
            corridor = by_card["corridor"]
            out = [
                corridor[c]
                for c in kinds
                if cards[c].kind == "corridor" and self._corridor_fits(seat, c)
            ]
        if self.door_open[seat] and self.in_treasure_room(seat):
            out.extend(get("door", c) for c in kinds if cards[c].has("opens_doors"))
        monsters = [c for c in kinds if cards[c].kind == "monster"]
        if monsters:
            targets = [t for t in range(self.players) if self._can_target(seat, t)]
            for c in monsters:
                at = self.space.monster_at[c]
                out.extend(at[t] for t in targets)
        if len(hand) > self.rules.hand_limit:
            discard = by_card["discard"]
            out.extend(discard[c] for c in kinds)
        elif not self.endgame or not out:
            # <The Road Back>: one may "decline to play any corridor cards until
            # the one you need to finish your path comes up, as long as there
            # are cards in the draw pile and noone has returned from the dungeon
            # yet": in the endgame there is nothing to wait for, and a party
            # that can still return keeps its turns until it does or cannot.
            out.append(get("pass"))
        return out

    def _battle_moves(self, seat: int, kinds: list[int]) -> list[Move]:
        get = self.space.get
        cards = self.cs.cards
        out: list[Move] = [get("roll")]
        charm_cast = any(s >= 0 and cards[s].has("charm") for s in self.spell_of)
        alone = self.rules.charm_alone
        if alone and charm_cast:
            return out  # "the 4D from Charm alone must overcome the monster"
        out.extend(get("fight", c) for c in kinds if cards[c].kind == "character")
        free = sorted({self.party[i] for i in range(len(self.party)) if self.spell_of[i] < 0})
        mon = self.monster[seat]
        for s in kinds:
            sc = cards[s]
            if sc.kind != "spell":
                continue
            if (
                sc.has("charm")
                and alone
                and (len(self.party) > 1 or any(x >= 0 for x in self.spell_of + self.weapon_of))
            ):
                continue
            out.extend(
                get("cast", s, c)
                for c in free
                if may_cast(self.cs, self.rules, s, c, mon)
            )
        if self.status[seat] == BACK:
            unarmed = sorted(
                {self.party[i] for i in range(len(self.party)) if self.weapon_of[i] < 0}
            )
            for t in self.held[seat]:
                if t not in self.weapon_of:
                    out.extend(
                        get("wield", t, c)
                        for c in unarmed
                        if may_wield(self.cs, t, c, road_back=True)
                    )
        return out

    def _after_moves(self, seat: int, kinds: list[int]) -> list[Move]:
        get = self.space.get
        cards = self.cs.cards
        out: list[Move] = [get("end")]
        if self.fallen and any(cards[c].has("heals") for c in kinds):
            out.extend(get("heal", c) for c in sorted(set(self.fallen)))
        if self.charmed >= 0:
            out.extend(get("send", t) for t in range(self.players) if self._can_target(seat, t))
        if self.rules.fight_then_corridor and self.won and self.monster[seat] < 0:
            out.extend(
                get("corridor", c)
                for c in kinds
                if cards[c].kind == "corridor" and self._corridor_fits(seat, c)
            )
        return out

    def apply(self, seat: int, action: Any) -> None:
        if self.final is not None or seat != self.turn:
            raise not_your_turn(seat, self.to_act(), self.over)
        cached = self._cached
        if cached is not None and cached[0] == self._version and cached[1] == seat:
            legal = cached[2]
        else:
            legal = self._legal(seat)
        require_legal(seat, action, legal)
        self._version += 1
        self._cached = None
        move = self.space.moves[action.index]
        getattr(self, "_do_" + move.kind)(seat, move)

    # ------------------------------------------------------------ information
    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    PARTIAL_FIELDS = PARTIAL_FIELDS

    def partial_view(self, seat: int, fields: frozenset[str]) -> dict[str, Any]:
        return partial_view(self, seat, fields)

    # ------------------------------------------------------------ copies
    def clone(self) -> MonsterMakerState:
        """An independent copy: every attribute outside SHARED is copied by its
        type, so a field added later cannot be shared by mistake."""
        return self._copy(keep_rng=True)

    def _copy(self, keep_rng: bool) -> MonsterMakerState:
        """``clone()``; ``keep_rng=False`` leaves the RNG to the caller (a
        determinization draws a fresh one: copying the Mersenne Twister's
        state is half a clone's cost)."""
        o = MonsterMakerState.__new__(MonsterMakerState)
        shared, caches = self.SHARED, self.CACHES
        new = o.__dict__
        # _copy_field's commonest cases inlined (clone() is the search's hot path).
        for k, v in self.__dict__.items():
            t = type(v)
            if t is list and (not v or type(v[0]) in _ATOMS):
                new[k] = v[:]
            elif t in _ATOMS or k in shared:
                new[k] = v
            elif k == "rng" and not keep_rng:
                new[k] = None  # set by the caller
            elif k not in caches:
                new[k] = _copy_field(v)
        o._cached = None
        o._redacted = {}
        return o

    def zones(self) -> dict[str, list[tuple[str, int]]]:
        """Every card by zone: deck cards ``("card", type)``, treasures
        ``("treasure", i)``, prizes ``("prize", type)``."""
        n = self.players

        def cards(xs: Sequence[int]) -> list[tuple[str, int]]:
            return [("card", c) for c in xs]

        z: dict[str, list[tuple[str, int]]] = {
            "draw pile": cards(self.deck),
            "discard pile": cards(self.discard),
            "battle": cards(self.party + [x for x in self.spell_of if x >= 0]),
            "charmed": cards([self.charmed] if self.charmed >= 0 else []),
            "trap": cards([self.trap] if self.trap >= 0 else []),
            "treasure pile": [("treasure", t) for t in self.treasure_pile],
            "treasures out of the game": [("treasure", t) for t in self.removed],
            "prize pile": [("prize", p) for p in self.prize_pile],
        }
        for s in range(n):
            z[f"hand {s}"] = cards(self.hands[s])
            z[f"corridors out {s}"] = cards(self.out[s])
            z[f"corridors back {s}"] = cards(self.back[s])
            z[f"monster {s}"] = cards([self.monster[s]] if self.monster[s] >= 0 else [])
            z[f"treasures {s}"] = [("treasure", t) for t in self.held[s]]
            z[f"banked {s}"] = [("treasure", t) for t in self.banked[s]]
            z[f"prizes {s}"] = [("prize", p) for p in self.prizes[s]]
        return z

    def determinize(self, seat: int, rng: Rng) -> MonsterMakerState:
        """Resample other hands + the draw pile, hidden treasures + the treasure pile,
        the prize pile and the dice. A card ``seat`` saw go into another hand
        (a Heal) and not come out stays in that hand (``seen_in``)."""
        o = self._copy(keep_rng=False)
        o.rng = rng.fork()
        o.log = self._log_for(seat)
        cards = self.cs.cards
        others = [s for s in range(self.players) if s != seat]
        # Hands never hold traps (drawn traps are shown at once), so traps stay in the pile.
        # A card seen going into a hand (Heal) and not played since stays there.
        pool = []
        for s in others:
            rest = list(o.hands[s])
            for c in self.seen_in[s]:
                rest.remove(c)
            pool += rest
        face_up = self.rules.traps_face_up
        deck_free = [c for c in o.deck if cards[c].kind != "trap"]
        traps = [c for c in o.deck if cards[c].kind == "trap"]
        # Every pool is sorted before its shuffle: the sample must depend only on
        # which cards are unseen, never on the order they really lie in.
        pool = sorted(pool + deck_free)
        rng.shuffle(pool)
        for s in others:
            seen = self.seen_in[s]
            k = len(o.hands[s]) - len(seen)
            o.hands[s], pool = pool[:k], pool[k:]
            if seen:  # at random places: only that it is in the hand is known
                o.hands[s] += sorted(seen)
                rng.shuffle(o.hands[s])
        if face_up:  # trap positions are public: keep them
            it = iter(pool)
            o.deck = [c if cards[c].kind == "trap" else next(it) for c in o.deck]
        else:
            pool = sorted(pool + traps)
            rng.shuffle(pool)
            o.deck = pool
        # Hidden treasures are never OPEN cards.
        tr = self.cs.treasures
        hidden_slots = [
            (s, i) for s in others for i, t in enumerate(o.held[s]) if t not in o.shown[s]
        ]
        tpool = [o.held[s][i] for s, i in hidden_slots] + o.treasure_pile
        closed = sorted(t for t in tpool if not tr[t].open)
        opened = [t for t in tpool if tr[t].open]
        rng.shuffle(closed)
        for s, i in hidden_slots:
            o.held[s][i] = closed.pop()
        o.treasure_pile = sorted(closed + opened)
        rng.shuffle(o.treasure_pile)
        o.prize_pile = sorted(o.prize_pile)
        rng.shuffle(o.prize_pile)
        o.drawn_once = self._drawn_once_for(seat, o, hidden_slots)
        return o

    def _log_for(self, seat: int) -> EventLog:
        """The log as ``seat`` knows it: events it may not see keep their place
        (indices stay valid) but lose their data (the real hidden cards)."""
        done = self._redacted.setdefault(seat, [])
        # The log only grows: redact the new events, keep the rest (search
        # determinizes the same state many times).
        done.extend(
            e if e.visible(seat) else Event(e.index, e.kind, {}, e.visible_to)
            for e in self.log.events[len(done) :]
        )
        log = EventLog(self.log.enabled)
        log.events = list(done)
        return log

    def _drawn_once_for(
        self, seat: int, o: MonsterMakerState, hidden_slots: list[tuple[int, int]]
    ) -> set[int]:
        """Once-a-game treasures drawn already, as far as ``seat`` knows, plus any
        the resampling put into hidden slots (the redraw rule reads this set)."""
        tr = self.cs.treasures
        hidden = {self.held[s][i] for s, i in hidden_slots}
        known = {
            t
            for t in self.drawn_once
            if t not in hidden and (tr[t].open or t not in self.treasure_pile)
        }
        return known | {o.held[s][i] for s, i in hidden_slots if tr[o.held[s][i]].once_per_game}

    # ------------------------------------------------------------ action space
    def action_index(self, action: Any) -> int:
        if not isinstance(action, Move):
            raise IllegalAction(_("{action} is not a Monster Maker action").format(action=action))
        return action.index

    def action_from_index(self, seat: int, index: int) -> Move:
        legal = self.legal(seat)
        return legal_at(seat, index, next((a for a in legal if a.index == index), None), legal)


__all__ = ["BACK", "DEAD", "HOME", "MAX_SEATS", "OUT", "MonsterMakerState"]
