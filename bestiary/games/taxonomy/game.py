"""The taxonomy :class:`Game`: metadata, variants, factory and the optional
hooks (bots, rendering, the card catalog, the scoring tool, the lab)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...engine.errors import BadInput
from ...engine.events import Event
from ...engine.protocol import Game
from ...engine.ruleset import Ruleset
from ...i18n import domain
from .cards import load_deck
from .rules import TaxonomyState
from .ruleset import VARIANTS, TaxonomyRules
from .scoring import score_payload

_ = domain("taxonomy", __file__)

if TYPE_CHECKING:
    from rich.console import RenderableType


class TaxonomyGame(Game):
    id = "taxonomy"
    title = "Monster Girl Taxonomy"
    min_players = 2
    max_players = 6
    default_players = 4

    @property
    def variants(self) -> Mapping[str, TaxonomyRules]:
        return dict(VARIANTS)

    def create(self, players: int, seed: int, rules: Ruleset) -> TaxonomyState:
        assert isinstance(rules, TaxonomyRules)
        return TaxonomyState(self, players, seed, rules)

    def num_actions(self, players: int, rules: Ruleset) -> int:
        from .actions import moves_for

        assert isinstance(rules, TaxonomyRules)
        return moves_for(rules.deck()).count

    # -- hooks ---------------------------------------------------------------
    def agents(self) -> Mapping[str, Callable[..., Any]]:
        from .bots import HeuristicAgent

        return {"heuristic": HeuristicAgent}

    def render(self, view: Mapping[str, Any], events: Sequence[Event]) -> RenderableType:
        from .render import render_view

        return render_view(self, view, events)

    def describe_event(self, event: Event, names: Sequence[str] | None = None) -> str:
        from .describe import describe

        return describe(event, names)

    def catalog(self, rules: Ruleset) -> dict[str, Any]:
        assert isinstance(rules, TaxonomyRules)
        deck = rules.deck()
        return {
            "game": self.id,
            "cards_file": rules.cards or "monsters.csv (shipped)",
            "count": deck.size,
            "cards": [
                {
                    "name": c.name,
                    "type": c.type,
                    "family": c.family,
                    "keys": [deck.key_names[k] for k in deck.keys_of[c.id]],
                    "dispositions": c.dispositions,
                    "provenance": c.provenance,
                    "natures": list(c.natures),
                    "source": c.source,
                }
                for c in deck.cards
            ],
            "keys": {deck.key_names[k]: deck.key_size[k] for k in range(deck.num_keys)},
            "orphans": deck.orphans(),
        }

    def render_catalog(self, catalog: Mapping[str, Any]) -> RenderableType:
        from rich.console import Group
        from rich.markup import escape
        from rich.table import Table

        cards = Table(title=f"Monster Girl Taxonomy: {catalog['count']} cards")
        for col in ("name", "type", "family", "keys", "natures", "provenance"):
            cards.add_column(col)
        for c in catalog["cards"]:
            # Names, types and families come from a designer's file: data, never markup.
            cards.add_row(
                escape(c["name"]),
                escape(c["type"]),
                escape(c["family"]),
                escape(", ".join(c["keys"])),
                ", ".join(c["natures"]) or "-",
                c["provenance"],
            )
        keys = Table(title="Collecting keys")
        keys.add_column("key")
        keys.add_column("cards", justify="right")
        for k, n in sorted(catalog["keys"].items(), key=lambda kv: (-kv[1], kv[0])):
            keys.add_row(escape(k), str(n))
        orphans = Table(title="Orphans")
        orphans.add_column("set")
        orphans.add_column("monsters")
        for k, names in catalog["orphans"].items():
            orphans.add_row(escape(k), escape(", ".join(names)))
        return Group(cards, keys, orphans)

    def bench_extra(self, rules: Ruleset) -> dict[str, Any]:
        """Timings of the pieces simulation leans on: scoring a winning hand,
        cloning and determinizing a mid-game state, building a view."""
        import time

        from ...engine.rng import Rng
        from .scoring import best_score

        assert isinstance(rules, TaxonomyRules)
        deck = rules.deck()
        table = rules.scoring_table()
        st = self.create(4, 1, rules)
        st.quiet()
        rng = Rng(1)
        for _ in range(200):  # a mid-game position
            if st.over:
                break
            seat = st.to_act()[0]
            legal = st.legal(seat)
            st.apply(seat, legal[rng.randrange(len(legal))])
        hand = [deck.card(n) for n in ("Fairy", "Titania", "Pixie", "Harpy")]
        hand += [deck.card(n) for n in ("Gandharva", "Apsara", "Witch", "Slime")]
        cards = [c for c in hand if c is not None]

        def per_call(fn: Callable[[], object], n: int) -> float:
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            return (time.perf_counter() - t0) / n * 1e6

        return {
            "us_best_score": round(
                per_call(lambda: best_score(deck, cards, [], 0, scoring=table), 2000), 2
            ),
            "us_clone": round(per_call(st.clone, 2000), 2),
            "us_determinize": round(per_call(lambda: st.determinize(0, rng), 500), 2),
            "us_view": round(per_call(lambda: st.view(0), 500), 2),
        }

    def score_tool(self, payload: Mapping[str, Any], rules: Ruleset) -> dict[str, Any]:
        assert isinstance(rules, TaxonomyRules)
        if not isinstance(payload, Mapping):
            raise BadInput(_("the input must be a JSON object"))
        deck = load_deck(rules.cards, rules.beastman_orphans)
        seven_plus_one = rules.orphan_eight == "seven-plus-one"
        return score_payload(deck, dict(payload), seven_plus_one, rules.scoring_table())

    def lab_tracker(self, state: Any) -> Any:  # the designer's lab: stats.py
        from .stats import tracker

        return tracker(state)
