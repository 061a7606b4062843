"""The heuristic taxonomy bot: decisions on crafted views, and strength."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bestiary.engine import get_game
from bestiary.games.taxonomy.bots import HeuristicAgent
from bestiary.sim.runner import simulate


class _Act:
    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text


class _Ctx:
    """A stand-in for AgentContext: the bot reads only view() and legal()."""

    def __init__(self, view: dict[str, Any], legal: Sequence[str]) -> None:
        self._view, self._legal = view, [_Act(t) for t in legal]
        self.seat = view["seat"]

    def view(self) -> dict[str, Any]:
        return self._view

    def legal(self) -> list[_Act]:
        return self._legal


def card(name: str, type_: str, keys: list[str], natures: list[str] | None = None) -> dict:
    return {
        "name": name,
        "type": type_,
        "family": type_.upper(),
        "keys": keys,
        "natures": natures or [],
        "roll": None,
    }


def base_view(hand: list[dict], **extra: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "seat": 0,
        "players": 2,
        "hand": hand,
        "tables": [[], []],
        "discards": [],
        "set_aside": [[], []],
        "bans": [[], []],
        "scores": [0, 0],
        "key_sizes": {"Slime": 9, "Undead": 15, "Plant": 7, "Elf": 2, "Angel": 6},
        "orphan_keys": [],
    }
    view.update(extra)
    return view


SLIMES = [card(f"Slime{i}", "Slime", ["Slime"]) for i in range(3)]
UNDEAD = [card(f"Undead{i}", "Undead", ["Undead"]) for i in range(3)]


def choose(view: dict[str, Any], legal: list[str]) -> str:
    return str(HeuristicAgent(seed=1).act(_Ctx(view, legal)))  # type: ignore[arg-type]


def test_always_declares_a_win() -> None:
    """Rulebook: "To win a round a player can collect 8 cards of the same type, 2 sets of 4..." —
    the bot takes the win whenever `win` is legal."""
    hand = SLIMES + UNDEAD
    assert choose(base_view(hand), ["discard Slime0", "win"]) == "win"


def test_discards_the_stray_card_and_keeps_its_two_sets() -> None:
    elf = card("Elf", "Elf", ["Elf"])
    hand = [*SLIMES, *UNDEAD, elf]
    legal = [f"discard {c['name']}" for c in hand]
    assert choose(base_view(hand), legal) == "discard Elf"


def test_will_not_discard_a_proud_card_that_would_take_its_set_along() -> None:
    """Rulebook (proud): "When discarded, it convinces all other monsters in that group to move
    away from you. You must discard all cards with the same type as the proud monster." """
    proud = card("Lich", "Undead", ["Undead"], ["proud"])
    stray = card("Alraune", "Plant", ["Plant"])
    stray2 = card("Dryad", "Plant", ["Plant"])
    hand = [*SLIMES, *UNDEAD[:2], proud, stray, stray2]
    legal = [f"discard {c['name']}" for c in hand]
    assert choose(base_view(hand), legal) in ("discard Alraune", "discard Dryad")


def test_claims_only_for_a_key_of_its_plan() -> None:
    """Rulebook: "If you have 3 cards of the same type, and another player discards another
    card of that type, you can take that card" — worth it only for a set the bot is building."""
    hand = [*SLIMES, *UNDEAD, card("Elf", "Elf", ["Elf"]), card("Angel", "Angel", ["Angel"])]
    assert choose(base_view(hand), ["claim Slime", "pass"]) == "claim Slime"
    assert choose(base_view(hand), ["claim Angel", "pass"]) == "pass"


def test_sends_an_aggressive_monster_at_the_leader() -> None:
    """Rulebook (aggressive): "such a monster can be sent to another player [...] The player who
    loses loses a turn." The bot targets the opponent with the most points."""
    view = base_view(SLIMES, players=3, scores=[0, 2, 7], tables=[[], [], []])
    assert choose(view, ["attack 1", "attack 2", "no attack"]) == "attack 2"


def test_heuristic_clearly_beats_random() -> None:
    summary = simulate(
        get_game("taxonomy"),
        ["heuristic", "random", "random", "random"],
        games=40,
        seed=100,
        rotate=True,
    )
    rates = summary.agent_win_rates()
    assert rates["heuristic"] > 0.6
    assert rates["heuristic"] > 5 * rates["random"]
