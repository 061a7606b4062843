"""Monster Maker at the terminal for a newcomer: odds in battle, monster types,
treasures' gold, a trap banner that offers only what the seat can do, and a
pointer to a one-dungeon game."""

from __future__ import annotations

import random
import re
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine.registry import get_game
from bestiary.games.monster_maker.render import action_label, render_view, treasure_gold

GAME = get_game("monster-maker")
runner = CliRunner()


def _text(view: dict[str, Any]) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(render_view(view, []))
    return console.export_text()


def _views(seed: int) -> list[tuple[dict[str, Any], list[str]]]:
    """(view, legal texts) of the seat to act at every decision of a random game."""
    state = GAME.new(2, seed=seed)
    rng = random.Random(seed)
    seen = []
    while not state.over:
        seat = state.to_act()[0]
        legal = state.legal(seat)
        seen.append((state.view(seat), [str(a) for a in legal]))
        state.apply(seat, rng.choice(legal))
    return seen


def test_a_battle_shows_the_dice_and_the_chance_to_win() -> None:
    view = next(v for v, lg in _views(3) if v["battle"] and "roll" in lg)
    text = _text(view)
    assert re.search(r"Odds: .+ \d[Dd].* vs .+ \d+: \d+% to win", text)
    label = action_label(view, "roll")
    assert re.search(r"roll  \(.+% to win\)", label)


def test_joining_a_fight_says_how_the_odds_change() -> None:
    for seed in range(3, 20):
        for view, legal in _views(seed):
            fights = [t for t in legal if t.startswith("fight with ")]
            if fights and view["players"][view["turn"]]["monster"]:
                assert re.search(r"% to win\)$", action_label(view, fights[0]))
                return
    raise AssertionError("no fight in 17 games")


def test_monsters_show_their_type_and_treasures_their_gold() -> None:
    assert treasure_gold("Royal Princess") == "400 gold"
    assert "1-3" in treasure_gold("Statue of Goddess")
    view = next(v for v, _ in _views(3) if any(p["monster"] for p in v["players"]))
    text = _text(view)
    # The monster before a player: its strength and its type (appendix B).
    assert re.search(r"\(strength \d+, (general type|human type|undead)\)", text)


def test_the_trap_banner_offers_avoiding_only_with_a_thief() -> None:
    seen_without = seen_with = False
    for seed in range(3, 40):
        for view, legal in _views(seed):
            if not view["trap"] or view["turn"] != view["seat"]:
                continue
            banner = next(line for line in _text(view).splitlines() if "TRAP!" in line)
            can_avoid = any(t.startswith("avoid trap") for t in legal)
            assert ("avoid it" in banner) == can_avoid, (banner, legal)
            seen_with |= can_avoid
            seen_without |= not can_avoid
        if seen_with and seen_without:
            return
    assert seen_without


def test_a_newcomer_is_pointed_to_a_one_dungeon_game() -> None:
    res = runner.invoke(app, ["play", "monster-maker", "--seed", "3"], input="quit\n")
    assert "-o max_dungeons=1" in res.output
    res = runner.invoke(
        app, ["play", "monster-maker", "--seed", "3", "-o", "max_dungeons=1"], input="quit\n"
    )
    assert "max_dungeons=1" not in res.output and "treasure room" in res.output
