"""`bestiary play` for a newcomer: the whole log, help at every prompt, forgiving
input, no prompt for a forced move, hot-seat screens (the "newcomer" issue)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.cli.cardtext import lookup
from bestiary.cli.history import History
from bestiary.cli.rulebook import find
from bestiary.cli.textmatch import fold, match
from bestiary.engine import register
from bestiary.engine.record import MatchRecord, replay
from bestiary.engine.registry import get_game

from ..engine.toygame import GAME

register(GAME)
runner = CliRunner()


def _play(args: list[str], lines: list[str]) -> str:
    res = runner.invoke(app, ["play", *args], input="".join(f"{x}\n" for x in lines))
    assert "Traceback" not in res.output
    return res.output


# -- forgiving input ----------------------------------------------------------
def test_names_match_without_case_or_diacritics_and_by_any_unique_part() -> None:
    assert fold("Rzeźnik Łowca") == "rzeznik lowca"
    assert match("Rzeznik", ["draft Rzeźnik", "draft Rekrut"]).index == 0
    assert match("rock", ["rps paper", "rps rock", "rps scissors"]).index == 1
    assert match("hold hydra", ["hold Werecat", "hold Hydra"]).index == 1
    assert match("s1 front", ["cast Grom @ s0 front", "cast Grom @ s1 front"]).index == 1


def test_an_ambiguous_name_is_no_guess() -> None:
    m = match("draft s", ["draft Stary Dąb", "draft Sierżant", "draft Rekrut"])
    assert m.index is None and set(m.candidates) == {0, 1}


def test_a_prompt_says_did_you_mean_and_takes_a_folded_name() -> None:
    # Seed 5: the first draft row holds Stary Dąb, Sierżant and Rzeźnik.
    out = _play(["meat", "--seed", "5", "--plain"], ["1", "s", "RZEZNIK", "quit"])
    assert "did you mean: draft Stary Dąb" in out or "did you mean: draft Sierżant" in out
    # the folded name was taken (log lines name the player's seat: "seat 0 (you)")
    assert re.search(r"(?i)seat 0( \(you\))? drafts Rzeźnik", out)


# -- help, rules, card, log, piles ---------------------------------------------
def test_help_rules_and_card_answer_at_a_prompt_and_cost_no_move() -> None:
    out = _play(
        ["meat", "--seed", "5", "--plain"],
        ["help", "rules battle", "card rzeznik", "card zzz", "log 2", "quit"],
    )
    assert "What you may do now" in out and "leader" in out
    assert "Bitwa (Battle)" in out  # the RULES.md section, found by a word of its title
    assert re.search(r"Rzeźnik \(creature\)\n\s+English name: Butcher", out)
    assert "attack: 4" in out and "{" not in out.split("Rzeźnik (creature)")[1][:200]
    assert "No card is called 'zzz'" in out
    assert "What happened (lines" in out
    assert "Seat 0 takes the leader" not in out  # nothing chosen: helpers are free


def test_rules_finds_a_section_by_a_word_in_its_title() -> None:
    sec, _ = find(get_game("monster-maker"), "trap")
    assert sec is not None and sec.title.startswith("Detour, Trap")


def test_card_lookup_covers_every_game_and_prints_no_python_data() -> None:
    for game_id, name, want in [
        ("meat", "Arcykaplanka", "text: Your Sekta"),
        ("monster-maker", "royal princess", "gold: 400"),
        ("taxonomy", "succubus", "type: Fiend"),
        ("teratozoic", "orange 1 head", "colour: orange"),
    ]:
        game = get_game(game_id)
        lines, _ = lookup(game, game.ruleset(), name)
        assert lines is not None, game_id
        text = "\n".join(lines)
        assert want in text
        assert not re.search(r"[\[\]{}]|None|True|False", text), text


def test_piles_show_the_whole_graveyard(tmp_path: Path) -> None:
    # Play meat to a second draft as bots do, then ask for the piles as seat 0.
    out = _play(["meat", "--seed", "5", "--plain"], ["1"] * 12 + ["piles", "quit"])
    assert re.search(r"graveyards creature \(\d+\):\n  \w", out)


# -- the whole log ----------------------------------------------------------------
def test_every_event_of_a_whole_game_reaches_the_player(tmp_path: Path) -> None:
    """Taxonomy's own render shows the last 10 events; the terminal shows them all."""
    rec = tmp_path / "tax.json"
    out = _play(
        [
            "taxonomy",
            "--seats",
            "human,heuristic,heuristic,heuristic",
            "--seed",
            "21",
            "--plain",
            "--record",
            str(rec),
        ],
        ["1"] * 3000,
    )
    assert "seed 21" in out
    game = get_game("taxonomy")
    state = replay(MatchRecord.from_json(json.loads(rec.read_text())))
    names = ["seat 0 (you)", "", "", ""]  # the terminal names the player's own seat
    lines = [game.describe_event(e, names) for e in state.events_since(0, 0)]
    missing = [line for line in lines if line not in out]
    assert len(lines) > 100 and not missing


def test_history_pages_back_and_numbers_its_lines() -> None:
    game = get_game("meat")
    state = game.new(2, seed=1)
    hist = History(game)
    first = hist.new_lines(state, 0)
    assert first and hist.new_lines(state, 0) == []  # shown once as new
    assert hist.last(state, 0, 1) == [(len(first), first[-1])]  # but kept for `log`


# -- forced moves and hot-seat --------------------------------------------------
def test_a_lone_forced_move_is_made_without_a_prompt() -> None:
    # Three tricks of blind bids: the third bid is the last card in the hand.
    out = _play(["toy", "--seats", "human,random", "--seed", "3"], ["1", "1"])
    assert "the only move is 'bid" in out
    assert out.count("your move") == 2
    assert "seed 3" in out


def test_hot_seat_hides_a_hand_before_the_next_seat_plays() -> None:
    out = _play(
        ["toy", "--seats", "human,human", "--seed", "4"], ["", "1", "", "1"] + ["", "1"] * 4
    )
    first_prompt = out.index("Seat 0, your move")
    handover = out.index("Seat 1 (seat 1): press Enter")
    second_prompt = out.index("Seat 1, your move")
    assert first_prompt < handover < second_prompt
    assert out.index("Seat 0 (seat 0): press Enter") < first_prompt


def test_a_game_without_a_picture_shows_words_not_a_dict() -> None:
    out = _play(["toy", "--seats", "human,random", "--seed", "3"], ["1", "1"])
    assert "hand sizes: 3, 3" in out
    assert "{'" not in out


def test_choices_keep_their_order_from_one_prompt_to_the_next() -> None:
    from bestiary.cli.prompt import stable_order

    game = get_game("meat")
    state = game.new(2, seed=5)
    while "draft" not in str(state.legal(state.to_act()[0])[0]):
        seat = state.to_act()[0]
        state.apply(seat, state.legal(seat)[0])
    seat = state.to_act()[0]
    before = [str(a) for a in stable_order(state, state.legal(seat))]
    state.apply(seat, state.legal(seat)[0])
    while state.to_act()[0] != seat:
        other = state.to_act()[0]
        state.apply(other, state.legal(other)[0])
    after = [str(a) for a in stable_order(state, state.legal(seat))]
    assert after == [t for t in before if t in after]  # same relative order, gaps closed


def test_typed_words_may_each_start_a_word_of_the_move() -> None:
    moves = ["place Strażnik Bramy left", "place Strażnik Bramy front", "place Dziki Wilk front"]
    assert match("straznik front", moves).index == 1
    assert set(match("front", moves).candidates) == {1, 2}


def test_piles_are_lists_of_cards_never_the_fields_of_one_card() -> None:
    from bestiary.cli.piles import piles

    view = {
        "discard_top": {"name": "Lich", "keys": ["Undead"], "natures": ["loyal"]},
        "discards": [{"name": "Lich"}, {"name": "Red Slime"}],
        "hand": ["Werecat"],
    }
    assert piles(view) == [("discards", ["Lich", "Red Slime"])]
