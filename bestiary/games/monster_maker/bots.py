"""The ``heuristic`` Monster Maker bot: races, blocks the leader, fights on good
odds (exact dice probabilities), and plays the road back to land exactly.

It sees only its seat's view and legal moves (through the agent context).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from bestiary.agents.base import AgentContext
from bestiary.engine import Rng

from .actions import Move
from .cards import CardSet, Strength, load_cardset

# Corridor lengths the draw pile is rich in: a road-back remainder of one of
# these is likely to be drawn before the endgame.
COMMON = (10, 20, 30, 40)
FIGHT_ODDS = 0.6  # start a battle when the best party wins this often
ENOUGH = 0.85  # stop adding cards to a battle at these odds


@lru_cache(maxsize=256)
def _dist(st: Strength) -> tuple[tuple[int, float], ...]:
    return tuple(st.distribution().items())


def _convolve(a: dict[int, float], b: tuple[tuple[int, float], ...]) -> dict[int, float]:
    out: dict[int, float] = {}
    for x, p in a.items():
        for y, q in b:
            out[x + y] = out.get(x + y, 0.0) + p * q
    return out


def win_chance(parts: list[tuple[tuple[int, float], ...]], need: int) -> float:
    """P(sum of independent strengths >= need)."""
    if not parts:
        return 0.0
    d: dict[int, float] = {0: 1.0}
    for part in parts:
        d = _convolve(d, part)
    return sum(p for v, p in d.items() if v >= need)


def _reachable(values: list[int], target: int) -> bool:
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums if s + v <= target}
    return target in sums


class HeuristicAgent:
    def __init__(self, seed: int = 0, fight_odds: str | float = FIGHT_ODDS) -> None:
        self.rng = Rng(seed)
        self.fight_odds = float(fight_odds)

    # ------------------------------------------------------------ entry
    def act(self, ctx: AgentContext) -> Move:
        legal: list[Move] = list(ctx.legal())  # type: ignore[arg-type]
        if len(legal) == 1:
            return legal[0]
        rules = ctx.rules
        cs = load_cardset(rules.cards, rules.treasures, rules.prizes)
        view = ctx.view()
        by: dict[str, list[Move]] = {}
        for m in legal:
            by.setdefault(m.kind, []).append(m)
        turn = _Turn(self, cs, view, ctx.seat, by, rules)
        return turn.decide()


class _Turn:
    """One decision: the view decoded, and the choice."""

    def __init__(
        self,
        agent: HeuristicAgent,
        cs: CardSet,
        view: dict[str, Any],
        seat: int,
        by: dict[str, list[Move]],
        rules: Any,
    ) -> None:
        self.agent, self.cs, self.view, self.seat, self.by, self.rules = (
            agent,
            cs,
            view,
            seat,
            by,
            rules,
        )
        self.me = view["players"][seat]
        self.hand = [cs.by_name[n.casefold()].index for n in view["hand"]]
        self.strength = {c.index: c.strength for c in cs.cards if c.strength is not None}
        sleep = cs.by_name.get("sleep")
        if rules.sleep_errata and sleep is not None:
            self.strength[sleep.index] = Strength.parse("2D")
        self.tindex = {t.name: t.index for t in cs.treasures}

    # ------------------------------------------------------------ helpers
    def progress(self, p: dict[str, Any]) -> float:
        room = self.view["treasure_room"]
        if p["status"] == "outward":
            return 0.5 * min(p["distance_out"] / room, 1.0)
        if p["status"] == "returning":
            return 0.5 + 0.5 * p["distance_back"] / max(p["return_target"], 1)
        return 1.0 if p["status"] == "home" else -1.0

    def card_worth(self, c: int) -> float:
        card = self.cs.cards[c]
        if card.kind == "corridor":
            if self.me["status"] == "returning":
                left = self.me["return_target"] - self.me["distance_back"]
                return 3.0 if card.value <= left else 0.2
            return card.value / 10
        if card.kind == "monster":
            return 1.0 + card.value / 10
        if card.kind == "character":
            st = self.strength[c]
            extra = 1.0 if card.has("avoids_traps") else 0.0
            return 1.0 + st.mean / 5 + extra
        if card.kind == "spell":
            return 1.5
        if card.kind == "detour":
            return 2.5
        return 0.0

    def cheapest(self, moves: list[Move]) -> Move:
        return min(moves, key=lambda m: (self.card_worth(m.a), m.index))

    def leader(self, targets: set[int]) -> int | None:
        best, best_p = None, -2.0
        for s in targets:
            p = self.progress(self.view["players"][s])
            if p > best_p:
                best, best_p = s, p
        return best

    # ------------------------------------------------------------ battle odds
    def _need(self) -> int:
        name = self.me["monster"]
        return self.cs.by_name[name.casefold()].value + self.me["battle_penalty"]

    def _party_parts(self, party: list[dict[str, Any]]) -> list[tuple[tuple[int, float], ...]]:
        parts = []
        for m in party:
            c = self.cs.by_name[m["card"].casefold()].index
            sp = m.get("spell")
            if sp is not None:
                s = self.cs.by_name[sp.casefold()]
                if s.has("charm") and self.rules.charm_alone:
                    parts.append(_dist(self.strength[s.index]))
                    continue
                if self.rules.spell_strength == "added":
                    parts.append(_dist(self.strength[c]))
                parts.append(_dist(self.strength[s.index]))
            else:
                parts.append(_dist(self.strength[c]))
            w = m.get("weapon")
            if w is not None:
                parts.append(((self.cs.treasures[self.tindex[w]].weapon_bonus, 1.0),))
        return parts

    def _after(self, party: list[dict[str, Any]], m: Move) -> list[dict[str, Any]]:
        """The battle party after move ``m`` (a model of the rules' battle step)."""
        cards = self.cs.cards
        party = [dict(x) for x in party]
        if m.kind == "fight":
            party.append({"card": cards[m.a].name, "spell": None, "weapon": None})
        elif m.kind == "cast":
            for x in party:
                if x["card"] == cards[m.b].name and x["spell"] is None:
                    x["spell"] = cards[m.a].name
                    break
        elif m.kind == "wield":
            for x in party:
                if x["card"] == cards[m.b].name and x["weapon"] is None:
                    x["weapon"] = self.cs.treasures[m.a].name
                    break
        return party

    def best_odds(self) -> float:
        """Greedy estimate of the best odds with every character, spell and weapon in hand."""
        cards = self.cs.cards
        need = self._need()
        human = cards[self.cs.by_name[self.me["monster"].casefold()].index].mtype == "human"
        chars = sorted(
            (c for c in self.hand if cards[c].kind == "character"),
            key=lambda c: -self.strength[c].mean,
        )
        if not chars:
            return 0.0
        parts = [_dist(self.strength[c]) for c in chars]
        p_all = win_chance(parts, need)
        spells = [
            c
            for c in self.hand
            if cards[c].kind == "spell" and not (cards[c].has("human_only") and not human)
        ]
        best = p_all
        if self.rules.charm_alone:
            for s in spells:
                if cards[s].has("charm"):
                    best = max(best, win_chance([_dist(self.strength[s])], need))
            spells = [s for s in spells if not cards[s].has("charm")]
        casters = [
            c for c in chars if self.rules.spell_casters == "anyone" or cards[c].has("casts")
        ]
        extra = []
        if self.rules.spell_strength == "added":
            # One spell per caster: the first casters carry the spells.
            extra = [_dist(self.strength[s]) for s in spells[: len(casters)]]
        if self.me["status"] == "returning":
            for name in self.view["my_treasures"]:
                t = self.cs.treasures[self.tindex[name]]
                if t.weapon and any(cards[c].name in t.weapon_users for c in chars):
                    extra.append(((t.weapon_bonus, 1.0),))
        if extra:
            best = max(best, win_chance(parts + extra, need))
        return best

    # ------------------------------------------------------------ decisions
    def decide(self) -> Move:
        ph = self.view["phase"]
        by = self.by
        if ph == "trap":
            if "avoid" in by:
                return by["avoid"][0]
            return self.cheapest(by["lose"])
        if ph == "door":
            if "door" in by:
                return self.cheapest(by["door"])
            return by["leave_door"][0]
        if ph == "battle":
            return self.battle()
        if ph == "after":
            return self.after()
        return self.main()

    def battle(self) -> Move:
        by = self.by
        need = self._need()
        party = self.view["battle"]
        if "wield" in by:  # weapons are not used up: always worth it
            return by["wield"][0]
        now = win_chance(self._party_parts(party), need) if party else -1.0
        if now >= ENOUGH and "roll" in by:
            return by["roll"][0]
        best, best_p = by["roll"][0] if "roll" in by else by["fight"][0], now
        for kind in ("cast", "fight"):
            for m in by.get(kind, []):
                p = win_chance(self._party_parts(self._after(party, m)), need)
                # Prefer spells (cheap) over characters at similar odds.
                p_adj = p + (0.02 if kind == "cast" else 0.0)
                if p_adj > best_p + 0.01:
                    best, best_p = m, p_adj
        return best

    def after(self) -> Move:
        by = self.by
        if "heal" in by:
            return max(by["heal"], key=lambda m: self.strength[m.a].mean)
        if "send" in by:
            targets = {m.a for m in by["send"]}
            lead = self.leader(targets)
            return next(m for m in by["send"] if m.a == lead)
        if "corridor" in by:
            c = self.corridor_choice(by["corridor"])
            if c is not None:
                return c
        return by["end"][0]

    def corridor_choice(self, moves: list[Move]) -> Move | None:
        cards = self.cs.cards
        me = self.me
        if me["status"] == "outward":
            room = self.view["treasure_room"]
            arriving = [m for m in moves if me["distance_out"] + cards[m.a].value >= room]
            if arriving:  # the shortest arrival keeps the road back short
                return min(arriving, key=lambda m: cards[m.a].value)
            return max(moves, key=lambda m: cards[m.a].value)
        left = me["return_target"] - me["distance_back"]
        corridors = [cards[c].value for c in self.hand if cards[c].kind == "corridor"]
        exact = [m for m in moves if cards[m.a].value == left]
        if exact:
            return exact[0]
        good: list[Move] = []
        for m in moves:
            v = cards[m.a].value
            rest = list(corridors)
            rest.remove(v)
            r = left - v
            if _reachable(rest, r) or (not self.view["endgame"] and (r in COMMON or r >= 50)):
                good.append(m)
        if good:
            return max(good, key=lambda m: cards[m.a].value)
        return None

    def main(self) -> Move:
        by = self.by
        cards = self.cs.cards
        me = self.me
        if me["monster"] is not None:
            if "tdispel" in by:
                return by["tdispel"][0]
            if "dispel" in by:
                return by["dispel"][0]
            odds = self.best_odds()
            if "detour" in by and (odds < 0.75 or self._need() >= 18):
                return by["detour"][0]
            if "fight" in by and odds >= self.agent.fight_odds:
                return self.battle()
        if "door" in by:
            return self.cheapest(by["door"])
        corridor = self.corridor_choice(by["corridor"]) if "corridor" in by else None
        if "monster" in by:
            targets = {m.b for m in by["monster"]}
            lead = self.leader(targets)
            assert lead is not None
            lp = self.progress(self.view["players"][lead])
            mine = self.progress(me)
            if corridor is None or (lp > mine and lp >= 0.6) or lp >= mine + 0.25:
                ms = [m for m in by["monster"] if m.b == lead]
                return max(ms, key=lambda m: cards[m.a].value)
        if corridor is not None:
            return corridor
        # Must give up a card anyway: a long-shot battle costs no more.
        must_shed = len(self.hand) > self.rules.hand_limit
        if me["monster"] is not None and "fight" in by and must_shed and self.best_odds() >= 0.3:
            return self.battle()
        if "discard" in by:
            return self.cheapest(by["discard"])
        return by["pass"][0]
