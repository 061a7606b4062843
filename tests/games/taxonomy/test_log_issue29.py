"""Issue 29, log and views of Taxonomy: `why N` on a proud card set aside cites
the proud rule, a claim is one line (no "X is claimed" before it), and the last
round's result panel leaves the screen once the next round is under way."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.console import Console

from bestiary.agents import AgentContext, make_agent
from bestiary.engine import Rng
from bestiary.engine.events import Event
from bestiary.games.taxonomy import GAME
from bestiary.i18n import use_language
from bestiary.server.messages import rule_json


def _games(seeds: range, players: int = 4) -> Iterator[list[Event]]:
    """The whole log (a spectator's) of heuristic games on ``seeds``."""
    for seed in seeds:
        st = GAME.new(players, seed=seed)
        agents = [make_agent(GAME, "heuristic", i) for i in range(players)]
        rng = Rng(seed)
        while not st.over:
            s = st.to_act()[0]
            st.apply(s, agents[s].act(AgentContext(st, s, rng)))
        yield list(st.events_since(0, None))


def test_a_proud_card_set_aside_cites_the_proud_rule() -> None:
    """Issue 29: "`why N` on 'sets Demon (proud) aside' cites the generic
    'discards are announced' reading instead of the proud rule" — RULES.md 13:
    "Set the proud monster aside so that you can see what type you can no longer
    collect." A nature's forced discard cites that nature."""
    aside = {"seat": 0, "card": {"name": "Demon", "natures": ["proud"]}, "why": "chosen"}
    for lang in ("en", "pl"):
        with use_language(lang):
            rule = GAME.event_rule("discarded", {**aside, "aside": True})
            assert rule is not None and rule.anchor == "13-proud"
            found = rule_json(GAME, "discarded", {**aside, "aside": True})
            assert found is not None and found["anchor"] == "13-proud"
            plain = rule_json(GAME, "discarded", {**aside, "aside": False})
            assert plain is not None and plain["anchor"] == "20-discards-are-announced"
            for why, anchor in (
                ("mean", "15-mean"),
                ("cheerful", "16-cheerful"),
                ("proud", "13-proud"),
            ):
                found = rule_json(GAME, "discarded", {**aside, "aside": False, "why": why})
                assert found is not None and found["anchor"] == anchor, why
    with use_language("en"):
        quote = GAME.event_rule("discarded", {**aside, "aside": True}).quote  # type: ignore[union-attr]
        assert "Set the proud monster aside" in quote
    with use_language("pl"):
        quote = GAME.event_rule("discarded", {**aside, "aside": True}).quote  # type: ignore[union-attr]
        assert "Odłóż dumnego potwora na bok" in quote
    # In a real game the event itself carries what picks the rule (a proud card
    # a mean or cheerful monster drags out cites that nature, its cause).
    seen = [
        e
        for log in _games(range(1, 4))
        for e in log
        if e.kind == "discarded" and e.data.get("aside") and e.data["why"] in ("chosen", "proud")
    ]
    assert seen and all(GAME.event_rule(e.kind, e.data).anchor == "13-proud" for e in seen)  # type: ignore[union-attr]


def test_a_claim_is_told_once() -> None:
    """Issue 29: "Every claim prints a redundant 'X is claimed' line before the
    real claim line: drop the redundant one" — the claim line keeps who claimed
    what, from whom, and the set laid."""
    claims = 0
    for log in _games(range(1, 7)):
        for i, e in enumerate(log):
            if e.kind == "claims_closed":
                assert not e.data.get("claimed"), "a claim has its own line"
            if e.kind != "claimed":
                continue
            claims += 1
            before = log[i - 1]
            for lang in ("en", "pl"):
                with use_language(lang):
                    lines = [GAME.describe_event(x) for x in log[max(0, i - 3) : i + 1]]
                    card = e.data["card"]["name"]
                    assert card in lines[-1]
                    assert not any(x.endswith(("is claimed", "zostaje przejęta")) for x in lines)
            assert before.kind != "claims_closed"
    assert claims, "the seeds show a claim"


def _view_after_round() -> tuple[dict[str, Any], dict[str, Any]]:
    """A view early in round 2 and one deep into it (3 rounds)."""
    st = GAME.new(2, seed=3, options={"rounds": 3})
    agents = [make_agent(GAME, "heuristic", i) for i in range(2)]
    rng = Rng(3)
    early = None
    while not st.over:
        v = st.view(0)
        if v["last_round"] and early is None:
            early = v
        if v["last_round"] and v["turns"] > 6 and v["round"] == 2:
            return early, v  # type: ignore[return-value]
        s = st.to_act()[0]
        st.apply(s, agents[s].act(AgentContext(st, s, rng)))
    raise AssertionError("no long second round")


def _screen(view: dict[str, Any]) -> str:
    console = Console(record=True, width=160)
    console.print(GAME.render(view, []))
    return console.export_text()


def test_the_last_rounds_result_leaves_the_screen() -> None:
    """Issue 29: "The previous round's result panel stays on screen through the
    next round": it shows while the next round's first go-round is played and at
    the end, then leaves (the log keeps its line)."""
    early, late = _view_after_round()
    for lang, head in (("en", "Round 1: "), ("pl", "Runda 1: ")):
        with use_language(lang):
            assert head in _screen(early)
            assert head not in _screen(late)
            late_over = {**late, "result": {"scores": [1, 0], "winners": [0]}}
            assert head in _screen(late_over)
