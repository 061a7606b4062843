"""M.E.A.T. at the terminal for a newcomer: leaders with their abilities, costs and
stats in the draft row and hand, targets named by creature, no raw lists in the log."""

from __future__ import annotations

import random
import re

from rich.console import Console

from bestiary.engine.registry import get_game
from bestiary.games.meat.render import action_label, render

GAME = get_game("meat")


def _text(view: dict[str, object]) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(render(view, []))
    return console.export_text()


def _play_until(seed: int, want: str) -> tuple[object, int, str]:
    """A random game up to the first legal action of seat 0 containing ``want``."""
    state = GAME.new(2, seed=seed)
    rng = random.Random(seed)
    while not state.over:
        seat = state.to_act()[0]
        legal = state.legal(seat)
        hits = [a for a in legal if want in str(a)]
        if hits and seat == 0:
            return state, seat, str(hits[0])
        state.apply(seat, rng.choice(legal))
    raise AssertionError(f"no {want!r} action in seed {seed}")


def test_the_table_shows_leader_abilities_and_card_costs_and_stats() -> None:
    state, seat, _ = _play_until(5, "draft ")
    text = _text(state.view(seat))  # type: ignore[attr-defined]
    assert re.search(r"seat 0 \(you\): leader .+ — \S", text)  # the ability, in words
    assert "Draft row" in text and "cost" in text and "what it does" in text
    assert re.search(r"│ \d/\d", text)  # attack/defence of the creatures on offer


def test_two_against_two_names_your_team_and_its_seats() -> None:
    state = GAME.new(4, seed=2)
    text = _text(state.view(1))
    # Yours first, each team by its members (the table's names; "seat N" without them).
    assert "your team (seat 1 and seat 3): 40 · the other team (seat 0 and seat 2): 40" in text


def test_a_target_is_named_by_the_creature_on_it() -> None:
    for seed in range(30):
        try:
            state, seat, text = _play_until(seed, " @ s")
        except AssertionError:
            continue
        view = state.view(seat)  # type: ignore[attr-defined]
        label = action_label(view, text)
        assert label.startswith(text)  # the text the prompt accepts comes first
        assert re.search(r"→ (.+ \(\d+/\d+\) on|the face-down creature on|the empty) ", label)
        return
    raise AssertionError("no targeted action in 30 games")


def test_the_log_has_no_python_lists() -> None:
    state = GAME.new(2, seed=3)
    rng = random.Random(3)
    while not state.over:
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal(seat)))
    lines = [GAME.describe_event(e) for e in state.events_since(0, 0)]
    assert any("wins the round" in line for line in lines)
    raw = [line for line in lines if re.search(r"\[\d|\{'", line)]
    assert not raw, raw[:5]
