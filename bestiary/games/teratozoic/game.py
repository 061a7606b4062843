"""The Teratozoic game object: metadata, variants and the optional hooks."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bestiary.engine import BadInput, Event, Game, Rng, Ruleset, UnknownCard
from bestiary.i18n import N_, domain

from .cards import cards_from, default_eras
from .rules import TeratozoicState
from .ruleset import TeratozoicRules
from .solver import best_build, build_within, score_pool
from .tiles import Build, Placement, score_layout

_ = domain("teratozoic", __file__)

if TYPE_CHECKING:
    from rich.console import RenderableType

    from .cards import Card


class TeratozoicGame(Game):
    id = "teratozoic"
    title = "Teratozoic"
    min_players = 2
    max_players = 6
    default_players = 4

    @property
    def variants(self) -> Mapping[str, TeratozoicRules]:
        return {
            "advanced": TeratozoicRules(),
            # 'For your first game ... removing all the Advanced cards from the deck.'
            "basic": TeratozoicRules(advanced=False),
        }

    def create(self, players: int, seed: int, rules: Ruleset) -> TeratozoicState:
        assert isinstance(rules, TeratozoicRules)
        return TeratozoicState(self, players, seed, rules)

    def num_actions(self, players: int, rules: Ruleset) -> int:
        assert isinstance(rules, TeratozoicRules)
        n = len(cards_from(rules.cards))
        # hold, express, build best/flat, take, keep, build placed, start, attach
        return 5 * n + 4 + 8 * n * n

    def agents(self) -> Mapping[str, Callable[..., Any]]:
        from .bots import HeuristicAgent

        return {"heuristic": HeuristicAgent}

    def render(self, view: Mapping[str, Any], events: Sequence[Event]) -> RenderableType:
        from .render import render_view

        return render_view(self, view, events)

    def describe_event(self, event: Event, names: Sequence[str] | None = None) -> str:
        from .describe import describe

        return describe(event, names)

    def catalog(self, rules: Ruleset) -> dict[str, Any] | None:
        assert isinstance(rules, TeratozoicRules)
        deck = cards_from(rules.cards)
        return {
            "game": self.id,
            "reconstruction": True,
            "cards": [
                {
                    "id": c.id,
                    "name": c.name,
                    "set": c.set,
                    "pool": c.pool,
                    "colour": c.colour,
                    "value": c.value,
                    "ends": c.ends,
                    "doubler": c.doubler,
                    "third": c.third,
                }
                for c in deck
                if rules.advanced or c.set != "advanced"
            ],
            "eras": [
                {
                    "name": e.name,
                    "min_players": e.min_players,
                    "draw": [e.mutations, e.gene_pool],
                    "min_play": e.min_play,
                    "winner": [e.winner_play, e.winner_hand],
                    "others": e.others_hand,
                }
                for e in default_eras()
            ],
        }

    def render_catalog(self, catalog: Mapping[str, Any]) -> RenderableType:
        from .render import render_catalog

        return render_catalog(catalog)

    def score_tool(self, payload: Mapping[str, Any], rules: Ruleset) -> dict[str, Any] | None:
        """``{"cards": [names]}`` -> the best build; ``{"gene_pool": [names]}`` -> final
        scoring; ``{"placements": [[name, x, y, turned], ...]}`` (optionally with
        ``"doubling_ignores_colour": bool``) -> that exact layout's score, as the game
        scores ``build placed`` (the web page's live score asks this). Answers name
        cards as they were given (by name). ``"budget"`` (search nodes, default
        ``SCORE_BUDGET``) caps the work of the first two: when it runs out the answer
        is the best found, with ``"exact": false``."""
        assert isinstance(rules, TeratozoicRules)
        if not isinstance(payload, Mapping):
            raise BadInput(_(_SCORE_USAGE))
        deck = cards_from(rules.cards)
        by_name = {c.name.casefold(): c.id for c in deck}
        budget = _budget(payload)

        def ids(key: str) -> list[int]:
            names = payload.get(key)
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise BadInput(_("{key!r} must be a list of card names").format(key=key))
            out = []
            for n in names:
                if n.casefold() not in by_name:
                    raise UnknownCard(n, (c.name for c in deck))
                out.append(by_name[n.casefold()])
            if len(set(out)) != len(out):
                raise BadInput(_("a card is listed twice"))
            return out

        if "cards" in payload:
            b, exact = build_within(deck, ids("cards"), rules.doubling_ignores_colour, budget)
            return {"score": b.score, "exact": exact, "build": named_build(deck, b)}
        if "gene_pool" in payload:
            p = score_pool(deck, ids("gene_pool"), budget)
            return {
                "cards": p.cards,
                "monsters": {c: m.size for c, m in p.by_colour.items()},
                "exact": p.exact,
            }
        if "placements" in payload:
            ignore = payload.get("doubling_ignores_colour", rules.doubling_ignores_colour)
            if not isinstance(ignore, bool):
                raise BadInput(_("'doubling_ignores_colour' must be true or false"))
            b = score_layout(deck, _layout(payload["placements"], deck, by_name), ignore)
            return {"score": b.score, "exact": True, "build": named_build(deck, b)}
        raise BadInput(_(_SCORE_USAGE))

    def bench_extra(self, rules: Ruleset) -> dict[str, Any]:
        """Median solver times (cold caches): 5-card hands, 30-card Gene Pools, Gene
        Pools bred towards one colour (20 of 30), whole colours (every card of a
        colour: the largest single-colour pool the deck allows), random 12-29
        card single-colour pools and 30-card single-colour pools (a whole colour
        and one more copy of one of its cards); and how many were proven exact."""
        from . import closed, solver

        assert isinstance(rules, TeratozoicRules)
        deck = cards_from(rules.cards)
        rng = Rng(12345)
        ids = [c.id for c in deck if rules.advanced or c.set != "advanced"]

        def cold() -> None:
            solver.clear_caches()
            for cache in (
                closed.close_all,
                closed._largest_closed_cached,
                closed.parity_bound,
                closed._leaf_choices,
                closed.segment_bound,
                closed.upper_bound,
                closed._matcher,
            ):
                cache.cache_clear()

        def timed(pool: list[int]) -> tuple[float, bool]:
            cold()
            t0 = time.perf_counter()
            exact = score_pool(deck, pool).exact
            return (time.perf_counter() - t0) * 1000, exact

        hand_ms = []
        for _ in range(200):
            hand = rng.sample(ids, 5)
            cold()
            t0 = time.perf_counter()
            best_build(deck, hand, rules.doubling_ignores_colour)
            hand_ms.append((time.perf_counter() - t0) * 1000)
        pool = [timed(rng.sample(ids, 30)) for _ in range(10)]
        colours = [
            c for c in ("orange", "purple", "green") if any(deck[i].colour == c for i in ids)
        ]
        one, whole, single = [], [], []
        for colour in colours:
            mine = [i for i in ids if deck[i].colour == colour]
            rest = [i for i in ids if deck[i].colour != colour]
            # A Gene Pool bred towards one colour (20 of its 30 cards).
            one.append(timed(rng.sample(mine, min(20, len(mine))) + rng.sample(rest, 10)))
            whole.append(timed(mine))
            for _ in range(10):
                single.append(timed(rng.sample(mine, rng.randint(min(12, len(mine)), len(mine)))))
        # A 30-card single-colour Gene Pool: every card of a colour (29 in the
        # standard deck) and one more copy of one of them, each in turn, as a
        # designer's card set with 30 cards of a colour would allow.
        thirty = []
        for colour in colours:
            of_colour = [deck[i] for i in ids if deck[i].colour == colour]
            for extra in of_colour:
                pool30 = tuple(
                    replace(c, id=k, name=f"{c.name} #{k}")
                    for k, c in enumerate([*of_colour, extra])
                )
                cold()
                t0 = time.perf_counter()
                exact = score_pool(pool30, range(len(pool30))).exact
                thirty.append(((time.perf_counter() - t0) * 1000, exact))
        cold()
        out: dict[str, Any] = {
            "solver_hand5_ms_median": round(statistics.median(hand_ms), 3),
            "solver_hand5_ms_max": round(max(hand_ms), 3),
        }
        for name, runs in (
            ("pool30", pool),
            ("pool30_one_colour", one),
            ("whole_colour", whole),
            ("single_colour_12_29", single),
            ("single_colour_30", thirty),
        ):
            if not runs:
                continue
            ms = [t for t, _ in runs]
            out[f"solver_{name}_ms_median"] = round(statistics.median(ms), 2)
            out[f"solver_{name}_ms_max"] = round(max(ms), 2)
            out[f"solver_{name}_exact"] = f"{sum(e for _, e in runs)}/{len(runs)}"
        return out

    def lab_tracker(self, state: Any) -> Any:  # the designer's lab: stats.py
        from .stats import tracker

        return tracker(state)


_SCORE_USAGE = N_(
    'give {"cards": [names]} (a play), {"gene_pool": [names]} (final scoring) '
    'or {"placements": [[name, x, y, turned], ...]} (a layout); optionally "budget": '
    "search nodes (a whole number >= 1)"
)
# The score tool's default work cap: a play of up to 11 cards is solved exactly (< 1 s),
# and every Gene Pool of the standard deck is proven within it (RULES.md).
SCORE_BUDGET = 200_000


def _budget(payload: Mapping[str, Any]) -> int:
    raw = payload.get("budget", SCORE_BUDGET)
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < 1:
        raise BadInput(
            _("'budget' must be a whole number of search nodes >= 1, not {raw!r}").format(raw=raw)
        )
    return raw


def named_build(deck: Sequence[Card], build: Build) -> dict[str, Any]:
    """A build's JSON with card names where the game's own JSON has ids."""
    out = build.to_json()
    for m in out["monsters"]:
        m["cards"] = [deck[i].name for i in m["cards"]]
        m["placements"] = [[deck[i].name, x, y, t] for i, x, y, t in m["placements"]]
    return out


def _layout(raw: object, deck: Sequence[Card], by_name: Mapping[str, int]) -> list[Placement]:
    """Check a layout's JSON, ``[[card name, x, y, turned], ...]``, before scoring it.

    'Cards cannot overlap' (rulebook): one card per cell, each card once.
    """
    shape = _("'placements' must be a list of [card name, x, y, turned] (x, y integers)")
    if not isinstance(raw, list):
        raise BadInput(shape)
    out: list[Placement] = []
    cells: dict[tuple[int, int], str] = {}
    seen: set[int] = set()
    for k, item in enumerate(raw):
        if not isinstance(item, list) or len(item) != 4:
            raise BadInput(_("{shape}; item {k} is {item!r}").format(shape=shape, k=k, item=item))
        name, x, y, turned = item
        # bool is an int in Python: refuse true/false as a coordinate.
        if not isinstance(name, str) or any(
            not isinstance(v, int) or isinstance(v, bool) for v in (x, y)
        ):
            raise BadInput(_("{shape}; item {k} is {item!r}").format(shape=shape, k=k, item=item))
        if not isinstance(turned, int) or turned not in (0, 1):
            raise BadInput(
                _("item {k}: 'turned' must be true/false (or 1/0), not {turned!r}").format(
                    k=k, turned=turned
                )
            )
        card = by_name.get(name.casefold())
        if card is None:
            raise UnknownCard(name, (c.name for c in deck))
        if card in seen:
            raise BadInput(_("card {name!r} is laid out twice").format(name=deck[card].name))
        if (x, y) in cells:
            raise BadInput(
                _(
                    "{first!r} and {second!r} are both on cell ({x}, {y}): cards cannot overlap"
                ).format(first=deck[card].name, second=cells[(x, y)], x=x, y=y)
            )
        seen.add(card)
        cells[(x, y)] = deck[card].name
        out.append(Placement(card, x, y, bool(turned)))
    return out
