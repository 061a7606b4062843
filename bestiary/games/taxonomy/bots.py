"""The `heuristic` taxonomy bot: builds toward the best pattern it can reach.

It reads only its seat's view (hand, every visible card, bans, key sizes).
Each decision it picks a *plan*: the two collecting keys (or one, for a set
of 8) with the most cards in hand and on its table, weighted by how many
cards of that key are still unseen and by what a set of it scores. Cards in
the plan are kept; the discard is the card whose loss costs least,
counting what its nature does on discard (a proud card takes its whole type
with it, a cheerful one every other cheerful card, a mean one a random card;
an aggressive one can make the leader skip a turn, which is a small gain).
It claims a discard only for a key of its plan and, holding more than three
cards of that key, keeps in hand the ones worth most there (a card of its
other plan key, an aggressive monster to send later) and lays the ones that
are a risk in hand (proud, cheerful, mean). It always declares a win,
takes an impatient monster's extra draw, plays rock-paper-scissors
uniformly at random (the only unexploitable strategy) and sends aggressive
monsters at the most threatening opponent (points, then cards laid; ties
broken at random, so that no seat is everyone's target). It adds a drawn
card to a laid set up to five cards; past five only the set of 8 remains
(RULES.md, reading 25), so only when 8 of that key are still within reach.

Options (``heuristic:greed=0,plan=reach,defend=60``; each default
plays exactly the plain bot's moves):

- ``greed`` (0.3): weight of a set's points in the plan score; 0 plays for
  speed alone (a round is a race: a winner scores ~3.7 points).
- ``plan`` (``count``): ``count`` plans the two keys with the best score
  ``n*n + 0.3*min(unseen, 8)`` (plus ``greed`` times the set's points);
  ``reach`` takes the six best of those and plans the pair whose cheapest
  winning shape (4+4, 5+3, 3+5, or 8 of one) needs the fewest expected draws,
  each missing card of a key costing ``cards unseen / unseen of the key`` (a
  key with no cards left to complete the shape cannot be planned for it).
- ``defend`` (0): adds ``defend`` times the chance that some opponent can
  claim a card to the cost of discarding it: the chance it holds three of one
  of the card's keys (hypergeometric over the cards this seat has not seen)
  and has room on its table; a loyal card, or one of a group every opponent
  is banned from, cannot be claimed.
- ``final`` (0): in the last round, when behind, plans only hands that score
  enough to draw level with the leader ("The player who has the most points
  at the end of the game wins": a cheaper hand ends the round but not the
  defeat), pairing up to ten keys, and claims only when the claim brings such
  a hand nearer (a claim costs points: "2 sets of 4, 1 card taken [...], 2
  points" against 3). No such hand left: it races as before. With ``plan=reach``.
- ``cycle`` (0): what each card that a discarded monster's nature takes
  with it (a proud one's group, a cheerful one's fellows, a mean one's random
  card) is worth less than its keep value: the hand is refilled from the stock
  at once ("he must have 8 cards at the end [...] by drawing up to 8 from the
  middle"), so every such card is an extra draw in the same turn. 0 counts the
  loss alone (the plain bot, which hoards mean and proud strays); 6 sends a
  proud monster with two strays of its group or a mean one from a hand of
  strays, cycling the hand faster than the turns alone.

``lite`` (on by default since issue 31: the whole view was a third of a
heuristic game's time; ``lite=0`` is the old path) makes the same moves
faster: it asks for only the entries of its view that it reads (hand, tables,
discards, set-aside cards, bans, scores, the claim, the deck's key sizes:
``view.PARTIAL_FIELDS``), which the game builds without the rest of the view
(``State.partial_view``; tests/test_trust.py holds them equal to the view's,
tests/sim/test_same_games.py holds whole seeded games to the old moves).
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...agents.context import AgentContext, option_choice, option_flag, option_number
from ...engine.protocol import Action
from ...engine.rng import Rng
from .view import PARTIAL_FIELDS

PLAN_BONUS = 10.0
BEASTMAN = "beastman"


_GROUPS: dict[tuple[str, str], str] = {}


def _group(card: Mapping[str, Any]) -> str:
    """What a proud monster bans: its type, or its family for a Beastman (cards.Card.group)."""
    kind, family = str(card["type"]), str(card["family"])
    group = _GROUPS.get((kind, family))
    if group is None:
        group = f"Beastman/{family}" if kind.casefold() == BEASTMAN else kind
        _GROUPS[(kind, family)] = group
    return group


class _Unseen(Counter[str]):
    """Cards of each key not yet seen, counted when first asked (the bot asks
    about a few keys, the deck has dozens): ``max(0, size - seen)``, 0 for a
    key the deck does not have."""

    def __init__(self, sizes: Mapping[str, int], seen: Counter[str]) -> None:
        super().__init__()
        self._sizes = sizes
        self._seen = seen

    def __missing__(self, key: str) -> int:
        value = max(0, self._sizes.get(key, 0) - self._seen[key])
        self[key] = value
        return value


_POINTS: dict[tuple[int, int, bool], tuple[Mapping[str, Any], float]] = {}


def _content_points(size: int, orphan: bool, scoring: Mapping[str, Any] | None) -> float:
    """What a set of 4 of a key of this size scores under the table in force
    (the view's ``scoring``: data/scoring.toml or a designer's, reading 7).
    Remembered per table (views share one scoring dict per table)."""
    if not scoring:
        return 0.0
    key = (id(scoring), size, orphan)
    hit = _POINTS.get(key)
    if hit is None or hit[0] is not scoring:
        hit = _POINTS[key] = (scoring, _points(size, orphan, scoring))
    return hit[1]


def _points(size: int, orphan: bool, scoring: Mapping[str, Any] | None) -> float:
    return _band_points(scoring["four"], size, orphan) if scoring else 0.0


def _eight_points(size: int, orphan: bool, scoring: Mapping[str, Any]) -> float:
    """What a set of 8 of a key of this size scores (the table's ``eight`` rows)."""
    return _band_points(scoring["eight"], size, orphan)


def _band_points(rows: Mapping[str, Any], size: int, orphan: bool) -> float:
    """The points of a scoring table's rows (``four`` or ``eight``) for a key
    of ``size`` cards, or for orphans."""
    if orphan:
        return float(rows["orphans"])
    for band in rows["sizes"]:
        if band["up_to"] is None or size <= band["up_to"]:
            return float(band["points"])
    return 0.0


def _draws_to(have: int, unseen: int, pool: int, target: int) -> float:
    """Expected draws to hold ``target`` cards of a key: each missing card costs
    ``pool / unseen`` (cards not seen over those of the key among them); out
    of reach when the unseen cards cannot make up the gap."""
    missing = target - have
    if missing <= 0:
        return 0.0
    return missing * pool / unseen if unseen >= missing else math.inf


def _shape_draws(
    a: Sequence[float], b: Sequence[float]
) -> tuple[float, float, float, float, float]:
    """Expected draws to each winning shape of a pair — 4+4, 5+3, 3+5, 8 of
    the first, 8 of the second — from each key's draws to 3, 4, 5 and 8 of it
    ("8 cards of the same type, 2 sets of 4 [...], or a set of 5 of one type
    and 3 of another")."""
    a3, a4, a5, a8 = a
    b3, b4, b5, b8 = b
    return (a4 + b4, a5 + b3, a3 + b5, a8, b8)


PLAN_MODES = ("count", "reach")
REACH_KEYS = 6  # keys (best by the count score) a reach plan pairs up
HAND_SIZE = 8
FINAL_FIELDS = frozenset({"round", "rounds"})
FINAL_KEYS = 10  # keys a last-round plan that must score enough pairs up


class HeuristicAgent:
    def __init__(
        self,
        seed: int = 0,
        greed: float | str = 0.3,
        lite: bool | str = True,
        plan: str = "count",
        defend: float | str = 0.0,
        final: bool | str = False,
        cycle: float | str = 0.0,
    ) -> None:
        self.rng = Rng(seed)
        self.greed = option_number("greed", greed)
        self.lite = option_flag("lite", lite)
        self.plan_mode = option_choice("plan", plan, PLAN_MODES)
        self.defend = option_number("defend", defend, 0.0, 1000.0)
        self.final = option_flag("final", final)
        self.cycle = option_number("cycle", cycle, 0.0, 100.0)
        # Per decision: _have, _unseen and _plan of the view in hand (pure
        # functions of it, asked several times per decision).
        self._memo: dict[str, Any] = {}

    def _view(self, ctx: AgentContext) -> Mapping[str, Any]:
        # The entries of the view this bot reads, and only those (lite: the
        # game builds them without the rest of the view).
        if not self.lite:
            return ctx.view()
        # final reads the round too (the whole view: slower, the same moves).
        return ctx.view(PARTIAL_FIELDS | FINAL_FIELDS if self.final else PARTIAL_FIELDS)

    # ------------------------------------------------------------------ decisions
    def act(self, ctx: AgentContext) -> Action:
        legal = list(ctx.legal())
        if len(legal) == 1:
            return legal[0]
        by_text = {str(a): a for a in legal}
        if "win" in by_text:
            return by_text["win"]
        self._memo = {}
        view = self._view(ctx)
        rps = [a for t, a in by_text.items() if t.startswith("rps ")]
        if rps:
            return self.rng.choice(rps)
        attacks = {t: a for t, a in by_text.items() if t.startswith("attack ")}
        if attacks:
            return self._attack(view, attacks, by_text)
        if "draw" in by_text and "stop" in by_text:
            return by_text["draw"]
        keeps = {t[len("keep ") :]: a for t, a in by_text.items() if t.startswith("keep ")}
        if keeps:
            return self._keep(view, keeps)
        claims = {t[len("claim ") :]: a for t, a in by_text.items() if t.startswith("claim ")}
        if claims or "pass" in by_text:
            return self._claim(view, claims, by_text)
        return self._main(view, by_text)

    def _attack(
        self, view: Mapping[str, Any], attacks: Mapping[str, Action], by_text: Mapping[str, Action]
    ) -> Action:
        scores = view.get("scores") or []
        tables = view.get("tables") or []

        def threat(text: str) -> tuple[float, int]:
            s = int(text.split()[1])
            on_table = sum(len(t["cards"]) for t in tables[s]) if s < len(tables) else 0
            return (scores[s] if s < len(scores) else 0.0, on_table)

        top = max(threat(t) for t in attacks)
        # Ties at random (from this bot's own RNG): not always the lowest seat.
        return attacks[self.rng.choice(sorted(t for t in attacks if threat(t) == top))]

    def _keep(self, view: Mapping[str, Any], keeps: Mapping[str, Action]) -> Action:
        """Which card of the claimed key stays in hand (the rest are laid)."""
        claim = view.get("claim") or {}
        key = claim.get("key")
        plan = self._plan(view)
        have = self._have(view)
        hand = {c["name"]: c for c in view.get("hand") or []}

        def worth(name: str) -> float:
            card = hand.get(name, {"keys": [], "natures": []})
            value = max(
                (have[k] + (PLAN_BONUS if k in plan else 0.0) for k in card["keys"] if k != key),
                default=0.0,
            )
            natures = set(card.get("natures") or [])
            if "aggressive" in natures:
                value += 0.5  # a discard that can cost a rival a turn
            if natures & {"proud", "cheerful", "mean"}:
                value -= 2.0  # its discard would cost more cards: safer on the table
            return value + self.rng.random() * 1e-3

        return keeps[max(keeps, key=worth)]

    def _claim(
        self, view: Mapping[str, Any], claims: Mapping[str, Action], by_text: Mapping[str, Action]
    ) -> Action:
        plan = self._plan(view)
        wanted = [k for k in claims if k in plan]
        if wanted and self.final and len(plan) > 1:
            need = self._need(view)
            if need and not self._claim_pays(view, plan, wanted[0], need):
                wanted = []
        if wanted:
            return claims[wanted[0]]
        return by_text.get("pass") or next(iter(claims.values()))

    def _main(self, view: Mapping[str, Any], by_text: Mapping[str, Action]) -> Action:
        tabling = self._table_move(view, by_text)
        if tabling is not None:
            return tabling
        discards = {t[len("discard ") :]: a for t, a in by_text.items() if t.startswith("discard ")}
        if not discards:
            return self.rng.choice(list(by_text.values()))
        hand: list[dict[str, Any]] = list(view.get("hand") or [])
        plan = self._plan(view)
        have = self._have(view)
        keep = {id(c): self._keep_value(c, plan, have) for c in hand}
        mean_loss = sum(keep.values()) / max(len(keep), 1)
        best_name, best_cost = None, float("inf")
        for card in hand:
            name = card["name"]
            if name not in discards:
                continue
            cost = keep[id(card)] + self._nature_cost(card, hand, keep, mean_loss)
            if self.defend:
                cost += self.defend * self._feed_risk(view, card)
            cost += self.rng.random() * 1e-3  # break ties without bias
            if cost < best_cost:
                best_name, best_cost = name, cost
        assert best_name is not None
        return discards[best_name]

    def _table_move(self, view: Mapping[str, Any], by_text: Mapping[str, Action]) -> Action | None:
        """Add a drawn card to its laid set while the set has fewer than 5 cards
        (a 5 still makes a 5+3); a 6th or later leaves only the set of 8, so only
        when 8 of the key are within reach (in hand, on the table and unseen)."""
        texts = [t for t in by_text if t.startswith("table ")]
        if not texts:
            return None
        seat = view.get("seat") or 0
        mine = (view.get("tables") or [[]] * (seat + 1))[seat]
        size = {t["key"]: len(t["cards"]) for t in mine}
        hand = {c["name"]: c for c in view.get("hand") or []}
        have, unseen = self._have(view), self._unseen(view)
        for text in texts:
            card = hand.get(text[len("table ") :])
            keys = [k for k in (card or {}).get("keys", []) if k in size]
            if not keys:
                continue
            k = keys[0]
            if size[k] < 5 or have[k] + unseen[k] >= 8:
                return by_text[text]
        return None

    # ------------------------------------------------------------------ valuation
    def _remembered(
        self, name: str, view: Mapping[str, Any], compute: Callable[[Mapping[str, Any]], Any]
    ) -> Any:
        """``compute(view)``, worked out once per decision (the view in hand): the
        plan, the keys held and the keys unseen are asked for several times."""
        hit = self._memo.get(name)
        if hit is not None and hit[0] is view:
            return hit[1]
        value = compute(view)
        self._memo[name] = (view, value)
        return value

    def _have(self, view: Mapping[str, Any]) -> Counter[str]:
        """Cards per collecting key in my hand and on my table (banned groups excluded)."""
        have: Counter[str] = self._remembered("have", view, self._count_have)
        return have

    def _count_have(self, view: Mapping[str, Any]) -> Counter[str]:
        seat = view.get("seat")
        banned = set((view.get("bans") or [[]] * (seat + 1 if seat is not None else 1))[seat or 0])
        have: Counter[str] = Counter()
        for card in view.get("hand") or []:
            if _group(card) in banned:
                continue
            for k in card["keys"]:
                have[k] += 1
        if seat is not None:
            for tset in (view.get("tables") or [])[seat]:
                have[tset["key"]] += len(tset["cards"])
        return have

    def _unseen(self, view: Mapping[str, Any]) -> Counter[str]:
        unseen: Counter[str] = self._remembered("unseen", view, self._count_unseen)
        return unseen

    def _count_unseen(self, view: Mapping[str, Any]) -> Counter[str]:
        sizes: Mapping[str, int] = view.get("key_sizes") or {}
        seen: Counter[str] = Counter()
        piles: list[Sequence[Mapping[str, Any]]] = [
            view.get("hand") or [],
            view.get("discards") or [],
        ]
        for t in view.get("tables") or []:
            piles.extend(s["cards"] for s in t)
        piles.extend(view.get("set_aside") or [])
        for pile in piles:
            for card in pile:
                for k in card["keys"]:
                    seen[k] += 1
        return _Unseen(sizes, seen)

    def _plan(self, view: Mapping[str, Any]) -> list[str]:
        """The (up to) two keys worth building, best first."""
        plan: list[str] = self._remembered("plan", view, self._make_plan)
        return plan

    def _make_plan(self, view: Mapping[str, Any]) -> list[str]:
        have = self._have(view)
        unseen = self._unseen(view)
        sizes: Mapping[str, int] = view.get("key_sizes") or {}
        orphans = set(view.get("orphan_keys") or [])
        seat = view.get("seat") or 0
        table_keys = {t["key"] for t in (view.get("tables") or [[]] * (seat + 1))[seat]}
        scored = []
        for k, n in have.items():
            if n + unseen[k] < 3:  # cannot even reach the 3 of a 5+3
                continue
            value = n * n + 0.3 * min(unseen[k], 8)
            value += self.greed * _content_points(
                sizes.get(k, 8), k in orphans, view.get("scoring")
            )
            if k in table_keys:
                value += 100.0  # a laid set is fixed: it is always part of the plan
            scored.append((value, k))
        scored.sort(reverse=True)
        if self.plan_mode != "count" and len(scored) > 1:
            need = self._need(view) if self.final else None
            width = FINAL_KEYS if need else REACH_KEYS
            return self._reach_plan(view, [k for _, k in scored[:width]], table_keys, need)
        return [k for _, k in scored[:2]]

    def _reach_plan(
        self,
        view: Mapping[str, Any],
        keys: Sequence[str],
        table_keys: set[str],
        need: float | None = None,
    ) -> list[str]:
        """The pair of ``keys`` (best first by the count score) whose cheapest
        winning shape (4+4, 5+3, 3+5, or 8 of the first) needs the fewest
        expected draws (``_draws_to``); with ``need`` (final), only the shapes
        that score that many points."""
        have, unseen = self._have(view), self._unseen(view)
        pool: int = self._remembered("pool", view, self._count_pool)
        # Per key, the expected draws to reach 3, 4, 5 and 8 of it.
        costs = {
            k: tuple(_draws_to(have[k], unseen[k], pool, t) for t in (3, 4, 5, 8)) for k in keys
        }
        points = self._shape_points(view, keys, len(table_keys)) if need else None
        goal = need or 0.0
        inf = math.inf
        best: tuple[float, int, list[str]] | None = None
        rank = 0
        for i, a in enumerate(keys):
            for b in keys[i + 1 :]:
                rank += 1
                if table_keys and not (table_keys <= {a, b}):
                    continue
                d44, d53, d35, a8, b8 = _shape_draws(costs[a], costs[b])
                # 8 of one key only when the other has no laid set.
                shapes = (
                    d44,
                    d53,
                    d35,
                    a8 if b not in table_keys else inf,
                    b8 if a not in table_keys else inf,
                )
                if points is None:
                    c = min(shapes)
                else:  # final: only the shapes that score enough
                    scored = zip(shapes, points(a, b), strict=True)
                    c = min((d for d, p in scored if p >= goal), default=inf)
                if best is None or (c, rank) < best[:2]:
                    best = (c, rank, [a, b])
        if (best is None or best[0] == math.inf) and need:
            # No pair can score enough: race for the round all the same.
            return self._reach_plan(view, keys[:REACH_KEYS], table_keys)
        if best is None or best[0] == math.inf:
            return list(keys[:2])
        return best[2]

    def _claim_pays(
        self, view: Mapping[str, Any], plan: Sequence[str], key: str, need: float
    ) -> bool:
        """final: does claiming ``key`` bring a hand that scores ``need`` points
        nearer (fewer expected draws) than drawing on? A claim costs points
        ("2 sets of 4, 1 card taken from another player during the game, 2
        points" against 3 with none); when no hand scores enough either way, the
        claim stands (the race for the round)."""
        seat = view.get("seat") or 0
        laid = len((view.get("tables") or [[]] * (seat + 1))[seat])
        have, unseen = self._have(view), self._unseen(view)
        pool: int = self._remembered("pool", view, self._count_pool)
        a, b = plan[0], plan[1]

        def draws(claims: int, extra: str | None) -> float:
            points = self._shape_points(view, plan, claims)
            if points is None:
                return math.inf

            def costs(k: str) -> tuple[float, ...]:
                held = have[k] + (1 if k == extra else 0)
                return tuple(_draws_to(held, unseen[k], pool, t) for t in (3, 4, 5, 8))

            shapes = _shape_draws(costs(a), costs(b))
            return min(
                (d for d, p in zip(shapes, points(a, b), strict=True) if p >= need),
                default=math.inf,
            )

        without, with_claim = draws(laid, None), draws(laid + 1, key)
        return with_claim < without or with_claim == without == math.inf

    def _need(self, view: Mapping[str, Any]) -> float | None:
        """In the last round, the points a win must score to draw level with the
        leader (None: not the last round, or I lead: any win takes the game).
        Rulebook: "The player who has the most points at the end of the game wins." """
        rnd, rounds = view.get("round"), view.get("rounds")
        scores = view.get("scores") or []
        seat = view.get("seat") or 0
        if rnd is None or rounds is None or rnd < rounds or len(scores) < 2:
            return None
        need = max(x for q, x in enumerate(scores) if q != seat) - scores[seat]
        return float(need) if need > 0 else None

    def _shape_points(
        self, view: Mapping[str, Any], keys: Sequence[str], claims: int
    ) -> Callable[[str, str], tuple[float, float, float, float, float]] | None:
        """What each winning shape of a pair scores (4+4, 5+3, 3+5, 8 of the first,
        8 of the second), with ``claims`` cards taken (reading 7's table)."""
        scoring = view.get("scoring")
        if not scoring:
            return None
        sizes: Mapping[str, int] = view.get("key_sizes") or {}
        orphans = set(view.get("orphan_keys") or [])
        p4 = {k: _content_points(sizes.get(k, 8), k in orphans, scoring) for k in keys}
        p8 = {k: _eight_points(sizes.get(k, 8), k in orphans, scoring) for k in keys}
        c = min(claims, 2)
        method = scoring["method"]
        m44, m53, m8 = (float(method[s][c]) for s in ("4+4", "5+3", "8"))

        def points(a: str, b: str) -> tuple[float, float, float, float, float]:
            pa = p4.get(a, 0.0)
            pb = p4.get(b, 0.0)
            return (m44 + pa + pb, m53 + pa, m53 + pb, m8 + p8.get(a, 0.0), m8 + p8.get(b, 0.0))

        return points

    def _feed_risk(self, view: Mapping[str, Any], card: Mapping[str, Any]) -> float:
        """The chance that some opponent may claim ``card`` if I discard it: holds
        three of one of its keys (hypergeometric over the cards I have not seen)
        and has room on its table. A loyal card, or one of a group every
        opponent is banned from, cannot be claimed."""
        if "loyal" in (card.get("natures") or []):
            return 0.0
        risks: dict[str, float] = self._remembered("risk", view, lambda v: {})
        worst = 0.0
        for k in card["keys"]:
            r = risks.get(k)
            if r is None:
                r = risks[k] = self._key_risk(view, k)
            if r > worst:
                worst = r
        if worst:
            banned: set[str] | None = self._remembered("banned", view, self._banned_by_all)
            if banned and _group(card) in banned:
                return 0.0
        return worst

    @staticmethod
    def _banned_by_all(view: Mapping[str, Any]) -> set[str] | None:
        """The groups every opponent is banned from (None: no opponent)."""
        bans = view.get("bans") or []
        seat = view.get("seat") or 0
        opponents = [set(bans[q]) for q in range(len(bans)) if q != seat]
        return set.intersection(*opponents) if opponents else None

    def _key_risk(self, view: Mapping[str, Any], key: str) -> float:
        u = self._unseen(view)[key]
        if u < 3:
            return 0.0
        pool: int = self._remembered("pool", view, self._count_pool)
        hands: list[int] = self._remembered("hands", view, self._open_hands)
        safe = 1.0
        for h in hands:
            safe *= 1.0 - _at_least_three(pool, u, min(h, pool))
        return 1.0 - safe

    @staticmethod
    def _open_hands(view: Mapping[str, Any]) -> list[int]:
        """The hand size of each opponent with room on its table to lay a claimed set."""
        seat = view.get("seat") or 0
        hands = []
        for q, t in enumerate(view.get("tables") or []):
            laid = sum(len(s["cards"]) for s in t)
            if q != seat and laid + 4 <= HAND_SIZE:
                hands.append(HAND_SIZE - laid)
        return hands

    @staticmethod
    def _count_pool(view: Mapping[str, Any]) -> int:
        """Cards I have not seen (the stock and the other hands)."""
        sizes: Mapping[str, int] = view.get("key_sizes") or {}
        deck = sum(sizes.values()) - sizes.get("Cheerful", 0)
        seen = len(view.get("hand") or []) + len(view.get("discards") or [])
        for t in view.get("tables") or []:
            seen += sum(len(s["cards"]) for s in t)
        for pile in view.get("set_aside") or []:
            seen += len(pile)
        return max(deck - seen, 1)

    def _keep_value(
        self, card: Mapping[str, Any], plan: Sequence[str], have: Counter[str]
    ) -> float:
        best = 0.0
        for k in card["keys"]:
            v = have[k] + (PLAN_BONUS if k in plan else 0.0)
            best = max(best, v)
        return best

    def _lost(self, value: float) -> float:
        """What losing a card to a nature (proud, cheerful, mean) costs: its keep
        value less ``cycle``, the worth of the draw that refills the hand ("he
        must have 8 cards at the end [...] by drawing up to 8 from the middle")."""
        return value - self.cycle

    def _nature_cost(
        self,
        card: Mapping[str, Any],
        hand: Sequence[Mapping[str, Any]],
        keep: Mapping[int, float],
        mean_loss: float,
    ) -> float:
        """What the card's nature does to me when I discard it."""
        natures = set(card.get("natures") or [])
        cost = 0.0
        if "proud" in natures:
            group = _group(card)
            cost += sum(
                self._lost(keep[id(c)]) for c in hand if c is not card and _group(c) == group
            )
            cost += 1.0  # the ban lasts the whole game
        if "cheerful" in natures:
            cost += sum(
                self._lost(keep[id(c)])
                for c in hand
                if c is not card and "cheerful" in (c.get("natures") or [])
            )
        if "mean" in natures:
            cost += self._lost(mean_loss)
        if "aggressive" in natures:
            cost -= 0.5
        return cost


@functools.lru_cache(maxsize=65536)
def _at_least_three(pool: int, good: int, drawn: int) -> float:
    """P(X >= 3), X hypergeometric: ``drawn`` cards from ``pool`` holding ``good``."""
    good = min(good, pool)
    if drawn < 3 or good < 3:
        return 0.0
    total = math.comb(pool, drawn)
    below = sum(math.comb(good, x) * math.comb(pool - good, drawn - x) for x in range(3))
    return max(0.0, 1.0 - below / total)
