"""The heuristic taxonomy bot's tuning options (``heuristic:plan=reach,defend=60``).

Each option's default keeps the plain bot's moves (the yardstick, and the
golden records replay its games); each other value is checked on a crafted
position, quoting the rule it rests on; a bad value is a clear ValueError.
"""

from __future__ import annotations

from typing import Any

import pytest

from bestiary.engine import get_game
from bestiary.games.taxonomy.bots import HeuristicAgent
from bestiary.sim.runner import simulate

from .test_bots import _Ctx, base_view, card

DEFAULTS = "greed=0.3,plan=count,defend=0"


def choose(view: dict[str, Any], legal: list[str], **options: Any) -> str:
    bot = HeuristicAgent(seed=1, **options)
    return str(bot.act(_Ctx(view, legal)))  # type: ignore[arg-type]


def _summary(specs: list[str]) -> dict[str, Any]:
    s = simulate(get_game("taxonomy"), specs, games=4, seed=7000, rotate=True)
    return {"wins": s.wins, "scores": s.mean_scores, "decisions": s.decisions, "stats": s.stats}


# -- the defaults are the plain bot ---------------------------------------------------------


def test_default_options_play_the_plain_bot() -> None:
    """Spelling every new option at its default plays the very same games as ``heuristic``."""
    plain = _summary(["heuristic", "heuristic"])
    spelled = _summary([f"heuristic:{DEFAULTS}", "heuristic"])
    assert spelled == plain


def test_plain_bot_games_are_unchanged() -> None:
    """Recorded with the bot as it was before the options (commit 0f332de): four seeded
    games of plain heuristic self-play end exactly so."""
    plain = _summary(["heuristic", "heuristic"])
    assert plain["wins"] == GOLDEN_WINS
    assert plain["scores"] == pytest.approx(GOLDEN_SCORES)
    assert plain["decisions"] == pytest.approx(GOLDEN_DECISIONS)


GOLDEN_WINS = [3.0, 1.0]
GOLDEN_SCORES = [9.5, 3.75]
GOLDEN_DECISIONS = {"mean": 518.5, "median": 485.5, "max": 801}


def test_defaults() -> None:
    bot = HeuristicAgent()
    assert (bot.greed, bot.plan_mode, bot.defend) == (0.3, "count", 0.0)


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("plan", "fastest", "plan must be one of count, reach"),
        ("defend", "-1", "defend must be between 0"),
        ("defend", "lots", "defend must be a number"),
        ("plan", "", "plan must be one of count, reach"),
        ("greed", "x", "greed must be a number"),
        ("defend", "nan", "defend must be between 0"),
    ],
)
def test_a_bad_value_is_a_clear_error(option: str, value: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        HeuristicAgent(**{option: value})


# -- plan=reach ------------------------------------------------------------------------------


def _dead_end_view() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Three Angels and three Plants in hand, every other card of both keys discarded:
    neither can grow past 3, so the two together can never win."""
    angels = [card(f"Angel{i}", "Angel", ["Angel"]) for i in range(3)]
    plants = [card(f"Plant{i}", "Plant", ["Plant"]) for i in range(3)]
    undead = [card("Undead0", "Undead", ["Undead"])]
    slimes = [card(f"Slime{i}", "Slime", ["Slime"]) for i in range(2)]
    gone = [card(f"Angel{i}", "Angel", ["Angel"]) for i in range(3, 6)]
    gone += [card(f"Plant{i}", "Plant", ["Plant"]) for i in range(3, 7)]
    hand = angels + plants + undead + slimes
    return hand, base_view(hand, discards=gone)


def test_reach_plans_a_pair_that_can_still_win() -> None:
    """Rulebook: "To win a round a player can collect 8 cards of the same type, 2 sets of 4
    cards of 2 different types, or a set of 5 of one type and 3 of another." Three Angels and
    three Plants with none left to draw make no winning hand; plan=reach keeps the 3 of a
    5+3 (Plants) and the key with most cards left to draw for the 5 (Undead: 14 unseen),
    and so discards a Slime where the count plan (Angels and Plants) throws the Undead."""
    hand, view = _dead_end_view()
    legal = [f"discard {c['name']}" for c in hand]
    assert choose(view, legal) == "discard Undead0"
    assert choose(view, legal, plan="reach") in ("discard Slime0", "discard Slime1")
    bot = HeuristicAgent(plan="reach")
    assert sorted(bot._plan(view)) == ["Plant", "Undead"]


# -- defend ----------------------------------------------------------------------------------


def _defend_view(extra: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    slimes = [card(f"Slime{i}", "Slime", ["Slime"]) for i in range(4)]
    undead = [card(f"Undead{i}", "Undead", ["Undead"]) for i in range(3)]
    hand = [*slimes, *undead, extra, card("Elf0", "Elf", ["Elf"])]
    return hand, base_view(hand)


def test_defend_discards_a_card_no_opponent_can_claim() -> None:
    """Rulebook: "If you have 3 cards of the same type, and another player discards another
    card of that type, you can take that card". Only one other Elf exists, so no opponent
    can hold three of them; a Plant (six unseen) may be claimed. With defend the bot throws
    the Elf."""
    hand, view = _defend_view(card("Plant0", "Plant", ["Plant"]))
    legal = [f"discard {c['name']}" for c in hand]
    assert choose(view, legal, defend=60) == "discard Elf0"
    # The plain bot sees two strays alike and picks at random.
    plain = {str(HeuristicAgent(seed=s).act(_Ctx(view, legal))) for s in range(20)}  # type: ignore[arg-type]
    assert plain == {"discard Elf0", "discard Plant0"}


def test_defend_counts_a_loyal_card_as_safe() -> None:
    """Rulebook (loyal): "Such a card cannot be taken into your set." A loyal Plant is as
    safe a discard as a card of an exhausted key."""
    loyal = card("Plant0", "Plant", ["Plant"], ["loyal"])
    hand, view = _defend_view(loyal)
    hand[-1] = card("Angel0", "Angel", ["Angel"])  # five Angels unseen: a risk
    legal = [f"discard {c['name']}" for c in hand]
    assert choose(view, legal, defend=60) == "discard Plant0"
    bot = HeuristicAgent(defend=60)
    assert bot._feed_risk(view, loyal) == 0.0
    assert bot._feed_risk(view, hand[-1]) > 0.0


def test_defend_ignores_an_opponent_without_room_to_lay() -> None:
    """Reading 11: "A claim needs room on the table (table + 4 <= 8)". An opponent with
    five cards laid cannot claim, so nothing is a risk."""
    hand, view = _defend_view(card("Plant0", "Plant", ["Plant"]))
    laid = [{"key": "Undead", "cards": [card(f"U{i}", "Undead", ["Undead"]) for i in range(5)]}]
    view["tables"] = [[], laid]
    assert HeuristicAgent(defend=60)._feed_risk(view, hand[7]) == 0.0
