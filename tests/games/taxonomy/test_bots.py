"""The heuristic taxonomy bot: decisions on crafted views, and strength."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bestiary.engine import get_game
from bestiary.games.taxonomy.bots import HeuristicAgent
from bestiary.games.taxonomy.scoring_file import load_scoring
from bestiary.games.taxonomy.view import scoring_json
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

    def view(self, fields: frozenset[str] | None = None) -> dict[str, Any]:
        return self._view  # the whole hand-made view, as AgentContext.view(fields) may

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
        "scoring": scoring_json(load_scoring()),
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


# -- the claimer's choice of the laid set (RULES.md reading 11) ----------------------------
def claim_view(hand: list[dict], key: str = "Undead", **extra: Any) -> dict[str, Any]:
    return base_view(
        hand,
        phase="claim",
        claim={"card": card("Ghost", "Undead", ["Undead"]), "key": key, "keys": [key]},
        **extra,
    )


def test_keeps_in_hand_the_card_its_other_plan_key_needs() -> None:
    """Rulebook: "you can take that card, show that you have created a set of four" —
    with four Undead in hand, the one that is also a Slime (the bot's other set)
    stays in hand; three plain Undead go down."""
    both = card("Undead-Slime", "Undead", ["Undead", "Slime"])
    hand = [*UNDEAD, both, *SLIMES, card("Elf", "Elf", ["Elf"])]
    legal = [f"keep {c['name']}" for c in [*UNDEAD, both]]
    assert choose(claim_view(hand), legal) == "keep Undead-Slime"


def test_lays_a_proud_card_rather_than_keeping_it_at_risk_in_hand() -> None:
    """Proud: "When discarded [...] You must discard all cards with the same type" — a
    proud card in hand can be lost to a mean monster's random discard and take its
    type along; laid on the table it is safe, so the bot keeps a plain one."""
    proud = card("Pharaoh", "Undead", ["Undead"], ["proud"])
    hand = [*UNDEAD, proud, *SLIMES, card("Elf", "Elf", ["Elf"])]
    legal = [f"keep {c['name']}" for c in [*UNDEAD, proud]]
    assert choose(claim_view(hand), legal) in {f"keep {c['name']}" for c in UNDEAD}


# -- issue "strong bots" ----------------------------------------------------------------------
def _tabled(size: int, key_size: int) -> str:
    laid = [card(f"Laid{i}", "Undead", ["Undead"]) for i in range(size)]
    drawn = card("Drawn", "Undead", ["Undead"])
    hand = [drawn, *SLIMES, *[card(f"Plant{i}", "Plant", ["Plant"]) for i in range(2)]]
    hand += [card("Elf", "Elf", ["Elf"]), card("Angel", "Angel", ["Angel"])]
    view = base_view(
        hand,
        tables=[[{"key": "Undead", "cards": laid}], []],
        key_sizes={"Slime": 9, "Undead": key_size, "Plant": 7, "Elf": 2, "Angel": 6},
        drawn=["Drawn"],
    )
    legal = ["table Drawn", *(f"discard {c['name']}" for c in hand)]
    return choose(view, legal)


def test_adds_a_drawn_card_to_a_laid_set_up_to_five() -> None:
    """ "You can then collect another set of 4 monsters, or expand this set to 5 or 8
    cards. When you draw another card of this type you can add it to the table." """
    assert _tabled(4, 15) == "table Drawn"


def test_does_not_lay_a_sixth_card_unless_the_set_of_8_is_within_reach() -> None:
    """A laid set past 5 leaves only the 8-card win (RULES.md reading 25): with 7
    Undead in the deck (6 laid or in hand, 1 unseen) 8 cannot be reached."""
    assert _tabled(5, 7) != "table Drawn"
    assert _tabled(5, 15) == "table Drawn"


def test_attack_ties_are_broken_at_random_not_always_at_the_lowest_seat() -> None:
    """Aggressive: "such a monster can be sent to another player"; among equally
    threatening rivals the target is drawn from the bot's own RNG, so seat 0 (where
    a human usually sits) is not every bot's target."""
    view = base_view(SLIMES, seat=3, players=4, scores=[0, 0, 0, 0], tables=[[], [], [], []])
    targets = {
        str(
            HeuristicAgent(seed=s).act(
                _Ctx(view, ["attack 0", "attack 1", "attack 2", "no attack"])
            )
        )  # type: ignore[arg-type]
        for s in range(20)
    }
    assert targets == {"attack 0", "attack 1", "attack 2"}


def test_values_a_set_by_the_scoring_table_in_force(tmp_path: Path) -> None:
    """The bot reads the table from the view (`scoring`), so a designer's table
    (`-o scoring=FILE`) changes what it builds toward."""
    from bestiary.games.taxonomy.bots import _content_points
    from bestiary.games.taxonomy.scoring_file import DEFAULT_SCORING

    assert _content_points(4, False, scoring_json(load_scoring())) == 3.0
    path = tmp_path / "scoring.toml"
    path.write_text(
        DEFAULT_SCORING.read_text().replace(
            "{ up_to = 4, points = 3 }", "{ up_to = 4, points = 9 }"
        )
    )
    assert _content_points(4, False, scoring_json(load_scoring(str(path)))) == 9.0
