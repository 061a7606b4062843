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

DEFAULTS = "greed=0.3,plan=count,defend=0,final=0,cycle=0"


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
    games of plain heuristic self-play end exactly so. (Recorded again for issue 29:
    a proud monster set aside stays out of the stock for the rest of the game,
    RULES.md reading 13, so every later round deals from another stock.)"""
    plain = _summary(["heuristic", "heuristic"])
    assert plain["wins"] == GOLDEN_WINS
    assert plain["scores"] == pytest.approx(GOLDEN_SCORES)
    assert plain["decisions"] == pytest.approx(GOLDEN_DECISIONS)


GOLDEN_WINS = [2.0, 2.0]
GOLDEN_SCORES = [5.25, 5.5]
GOLDEN_DECISIONS = {"mean": 398.75, "median": 410.0, "max": 561}


def test_defaults() -> None:
    bot = HeuristicAgent()
    assert (bot.greed, bot.plan_mode, bot.defend, bot.final, bot.cycle) == (
        0.3,
        "count",
        0.0,
        False,
        0.0,
    )


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("plan", "fastest", "plan must be one of count, reach"),
        ("defend", "-1", "defend must be between 0"),
        ("defend", "lots", "defend must be a number"),
        ("plan", "", "plan must be one of count, reach"),
        ("greed", "x", "greed must be a number"),
        ("defend", "nan", "defend must be between 0"),
        ("final", "maybe", "final must be one of"),
        ("cycle", "fast", "cycle must be a number"),
        ("cycle", "-2", "cycle must be between 0"),
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


# -- cycle ----------------------------------------------------------------------------------


def test_cycle_sends_a_proud_monster_with_its_strays() -> None:
    """Rulebook (proud): "You must discard all cards with the same type as the proud
    monster", and "he must have 8 cards at the end [...] by drawing up to 8 from the
    middle": the group's strays are replaced by fresh draws this very turn. With two stray
    Angels (one proud) beside the Slimes and Undead it builds, the plain bot throws the
    plain Angel and keeps the proud one; with cycle it sends the proud Angel, and the other
    Angel with it, for two draws."""
    slimes = [card(f"Slime{i}", "Slime", ["Slime"]) for i in range(4)]
    undead = [card(f"Undead{i}", "Undead", ["Undead"]) for i in range(3)]
    proud = card("Angel0", "Angel", ["Angel"], ["proud"])
    hand = [*slimes, *undead, proud, card("Angel1", "Angel", ["Angel"])]
    view = base_view(hand)
    legal = [f"discard {c['name']}" for c in hand]
    assert choose(view, legal) == "discard Angel1"
    assert choose(view, legal, cycle=6) == "discard Angel0"


def test_cycle_sends_a_mean_monster_from_a_hand_of_strays() -> None:
    """Rulebook (mean): "when discarded, such a monster takes revenge on the player, and
    causes him to have to discard an additional random card" — and the hand is then drawn
    back up to 8. Among four strays the plain bot counts the random loss as the hand's
    average card and keeps the mean Imp for good; with cycle the loss is mostly a stray
    that a draw replaces, so the Imp goes."""
    slimes = [card(f"Slime{i}", "Slime", ["Slime"]) for i in range(4)]
    imp = card("Imp0", "Fiend", ["Fiend"], ["mean"])
    strays = [
        card("Plant0", "Plant", ["Plant"]),
        card("Angel0", "Angel", ["Angel"]),
        card("Elf0", "Elf", ["Elf"]),
        card("Undead0", "Undead", ["Undead"]),
    ]
    hand = [*slimes, imp, *strays]
    view = base_view(hand)
    view["key_sizes"]["Fiend"] = 13
    legal = [f"discard {c['name']}" for c in hand]
    assert choose(view, legal) != "discard Imp0"
    assert choose(view, legal, cycle=10) == "discard Imp0"


# -- final -----------------------------------------------------------------------------------


def _final_view(scores: list[int], rnd: int = 4) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Three Undead and three Slimes (big types: a set of 4 of them scores 0) and two
    Plants (seven in the deck: a set of 4 scores 2), in round ``rnd`` of 4; eight
    Undead and five Slimes are discarded (no set of 8 can be made)."""
    undead = [card(f"Undead{i}", "Undead", ["Undead"]) for i in range(3)]
    slimes = [card(f"Slime{i}", "Slime", ["Slime"]) for i in range(3)]
    plants = [card(f"Plant{i}", "Plant", ["Plant"]) for i in range(2)]
    gone = [card(f"Undead{i}", "Undead", ["Undead"]) for i in range(3, 11)]
    gone += [card(f"Slime{i}", "Slime", ["Slime"]) for i in range(3, 8)]
    hand = undead + slimes + plants + [card("Elf0", "Elf", ["Elf"])]
    return hand, base_view(hand, scores=scores, round=rnd, rounds=4, discards=gone)


def test_final_plans_a_hand_that_scores_enough_in_the_last_round() -> None:
    """Rulebook: "The player who has the most points at the end of the game wins." and
    "-a set of 4 monsters of a type with 5 to 7 monsters [...], 2pts / -a set of 4
    monsters of a type with 8 or more monsters, 0pts". Four points behind in the last
    round, Undead and Slimes (a 5+3 or a 4+4 without claims: 3 points) cannot catch up; a
    set of Plants can (5 points), so final plans the Plants and keeps them."""
    hand, view = _final_view([0, 4])
    legal = [f"discard {c['name']}" for c in hand]
    assert sorted(HeuristicAgent(plan="reach")._plan(view)) == ["Slime", "Undead"]
    assert "Plant" in HeuristicAgent(plan="reach", final=True)._plan(view)
    assert choose(view, legal, plan="reach", final=True) not in ("discard Plant0", "discard Plant1")
    # Not the last round, or not behind: the plain plan.
    for scores, rnd in (([0, 4], 3), ([4, 0], 4), ([2, 2], 4)):
        _, other = _final_view(scores, rnd)
        assert sorted(HeuristicAgent(plan="reach", final=True)._plan(other)) == ["Slime", "Undead"]


def test_final_passes_a_claim_that_leaves_too_few_points() -> None:
    """Scoring: "-2 sets of 4, 1 card taken from another player during the game, 2 points"
    against "no cards were taken [...], 3pts". Three behind in the last round with Undead
    and Slimes (both 0 points a set): after a claim they score at most 2, so final passes."""
    hand, view = _final_view([0, 3])
    hand.pop()  # the Plants go: the plan stays Undead and Slimes
    hand.pop()
    hand.pop()
    view["claim"] = {"key": None}
    legal = ["claim Undead", "pass"]
    assert choose(view, legal, plan="reach") == "claim Undead"
    assert choose(view, legal, plan="reach", final=True) == "pass"
    view["scores"] = [0, 2]  # two behind: a 2-point win draws level, worth the claim
    assert choose(view, legal, plan="reach", final=True) == "claim Undead"


def test_final_reads_the_round_in_lite_playouts_too() -> None:
    """``lite=1`` (search playouts) asks for the round as well when ``final`` is on, so the
    same options play the same games with and without it."""
    opts = "greed=2,plan=reach,defend=60,final=1"
    full = _summary([f"heuristic:{opts}", "heuristic"])
    lite = _summary([f"heuristic:{opts},lite=1", "heuristic"])
    assert lite["wins"] == full["wins"] and lite["decisions"] == full["decisions"]


def test_cycle_reads_only_the_lite_fields() -> None:
    """``cycle`` weighs cards of the hand alone, so ``lite=1`` (search playouts, the
    partial view) plays the very same games with it."""
    opts = "greed=0,plan=reach,defend=60,cycle=6"
    full = _summary([f"heuristic:{opts}", "heuristic"])
    lite = _summary([f"heuristic:{opts},lite=1", "heuristic"])
    assert lite == full
