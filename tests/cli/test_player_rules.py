"""The terminal, for players (issue 26, "The table, for players"): the rules a
newcomer reads, `help` that says what each move does, natures and keywords
explained, readable tags, a legend that matches the table, a hot-seat hand-over
that hides the last hand, an honest peek that goes once it no longer applies,
and a bot's beat that leaves room for `undo`."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.cli import play as play_module
from bestiary.cli.prompt import legend, verb_help
from bestiary.engine import register
from bestiary.engine.record import Match
from bestiary.engine.registry import get_game
from bestiary.engine.rng import Rng
from bestiary.i18n import use_language

from ..engine.toygame import GAME as TOY

register(TOY)
GAMES = ("taxonomy", "monster-maker", "meat", "teratozoic")


def _play(args: list[str], lines: list[str], lang: str = "en") -> str:
    res = CliRunner().invoke(
        app,
        ["--lang", lang, "play", *args],
        input="".join(f"{x}\n" for x in lines),
    )
    assert "Traceback" not in res.output, res.output
    return res.output


# -- rules for players ----------------------------------------------------------------
def test_rules_shows_the_players_guide_not_the_specification() -> None:
    """ "`rules` in the terminal ... show the game's RULES.md — the engine's
    specification, in English even in Polish mode"."""
    en = _play(["taxonomy", "--seed", "3", "--plain"], ["rules", "quit"])
    assert "How to win" in en and "Aggressive" in en
    assert "Decided readings" not in en  # RULES.md's own headings
    assert "<!--" not in en and "rulebook 000" not in en
    pl = _play(["taxonomy", "--seed", "3", "--plain"], ["rules", "quit"], lang="pl")
    assert "Jak wygrać" in pl and "Agresywna" in pl and "How to win" not in pl


def test_rules_spec_still_opens_rules_md_and_a_topic_finds_a_guide_section() -> None:
    out = _play(
        ["teratozoic", "--seed", "3", "--plain"], ["rules spec", "rules spec winning", "quit"]
    )
    assert "Sections of the specification" in out and "Hidden information" in out
    pl = _play(["teratozoic", "--seed", "3", "--plain"], ["rules budowanie", "quit"], lang="pl")
    assert "Budowanie i punkty" in pl and "luźny" in pl


# -- help says what every move does ------------------------------------------------------
def _verbs(game_id: str, seeds: range) -> set[str]:
    """Every kind of move offered in a few random games (verb, or verb + word)."""
    game = get_game(game_id)
    found: set[str] = set()
    for seed in seeds:
        state = game.new(game.default_players, seed=seed)
        rng = Rng(seed)
        for _step in range(400):
            owed = state.to_act()
            if not owed:
                break
            for seat in owed:
                for a in state.legal(seat):
                    found.add(str(a))
            seat = owed[0]
            legal = state.legal(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_help_says_what_every_move_of_the_game_does(game_id: str) -> None:
    """ "Taxonomy's and Teratozoic's `help` in the terminal do not say what a move
    does" — and the other two are checked the same way."""
    meanings = verb_help(get_game(game_id))
    missing = set()
    for text in _verbs(game_id, range(3)):
        words = text.split(" ")
        if words[0] not in meanings and " ".join(words[:2]) not in meanings:
            missing.add(" ".join(words[:2]))
    assert not missing, missing


def test_help_at_a_taxonomy_prompt_explains_the_discard_in_polish() -> None:
    out = _play(["taxonomy", "--seed", "3", "--plain"], ["help", "quit"], lang="pl")
    assert "odrzuć kartę z ręki na stos kart odrzuconych" in out


# -- natures, keywords and spells explained ------------------------------------------------
def test_card_text_explains_the_cards_nature() -> None:
    """ "card text does not explain natures, spells or keywords"."""
    out = _play(["taxonomy", "--seed", "1", "--plain"], ["card Hellhound", "quit"])
    assert re.search(r"natures: aggressive\n\s+▸ aggressive — when you discard it", out)
    mm = _play(["monster-maker", "--seed", "1", "--plain"], ["card Charm", "quit"])
    assert "human only — works only against human-type monsters" in mm
    assert "Charm — a Magic-User or Elf who beats" in mm


def test_explain_names_a_nature_keyword_or_card_feature_in_either_language() -> None:
    pl = _play(["taxonomy", "--seed", "1", "--plain"], ["explain dumna", "explain", "quit"], "pl")
    assert "dumna — gdy ją odrzucisz, z ręki odchodzą wszystkie karty jej typu" in pl
    assert "Słowa do objaśnienia" in pl
    tera = _play(["teratozoic", "--seed", "1", "--plain"], ["explain doubler", "quit"])
    assert "doubling card (×2) — doubles the face values" in tera
    bad = _play(["meat", "--seed", "5", "--plain"], ["explain zzz", "quit"])
    assert "Nothing called 'zzz' to explain. Words: REFLEX" in bad


def test_meat_keywords_are_whole_words_on_the_board() -> None:
    """ "tags ... in the terminal are cryptic and cut off" (REF, CLE)."""
    from bestiary.games.meat.render import _cell

    cell: dict[str, Any] = {
        "card": "Rzeźnik",
        "face_up": True,
        "attack": 4,
        "defence": 4,
        "keywords": ["CLEAVE", "REFLEX"],
        "damage": 0,
    }
    assert "CLEAVE REFLEX" in _cell(cell).plain
    with use_language("pl"):
        assert "CIĘCIE REFLEKS" in _cell(cell).plain


# -- the legend ---------------------------------------------------------------------------
def test_the_legend_names_the_marks_the_table_draws() -> None:
    """ "the `legend` command describes a `>` marker the table draws as `◀`, and
    says nothing of Teratozoic's symbols"."""
    from bestiary.games.teratozoic.cards import SYMBOL

    tax = "\n".join(legend(get_game("taxonomy")))
    assert "◀" in tax and not tax.startswith(">")
    tera = "\n".join(legend(get_game("teratozoic")))
    for colour, symbol in SYMBOL.items():
        assert f"{symbol} {colour}" in tera, colour
    assert "[N E S W]" in tera and "×2" in tera
    with use_language("pl"):
        assert "# pomarańczowy" in "\n".join(legend(get_game("teratozoic")))


# -- the honest peek goes once it no longer applies ------------------------------------------
def test_the_peek_box_shows_only_cards_still_on_top_of_the_stock() -> None:
    """RULES.md reading 23: each draw from the stock takes the first peeked card."""
    from bestiary.games.taxonomy.render import peek_left, render_view

    game = get_game("taxonomy")
    state = game.new(2, seed=3)
    view = dict(state.view(0))
    cards = [dict(c) for c in view["hand"][:3]]
    view["peek"] = {"cards": cards, "stock_then": view["stock"] + 2}
    assert [c["name"] for c in peek_left(view)] == [cards[2]["name"]]
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(render_view(game, view, []))
    assert "showed you the top of the stock" in console.file.getvalue()  # type: ignore[attr-defined]
    view["peek"] = {"cards": cards, "stock_then": view["stock"] + 3}
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(render_view(game, view, []))
    assert "showed you the top of the stock" not in console.file.getvalue()  # type: ignore[attr-defined]


# -- hot-seat ---------------------------------------------------------------------------
def test_hot_seat_hand_over_clears_the_scroll_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "in hot-seat the previous player's hand stays in the scroll-back"."""
    specs = ["human", "human"]
    match = Match.start(TOY, 2, seed=4, seats=specs)
    term = play_module.Terminal(TOY, match, specs, plain=False)
    screen = io.StringIO()
    term.console = Console(file=screen, force_terminal=True, width=80)
    monkeypatch.setattr(play_module, "_read", lambda prompt: "")
    term.last_seat = 0
    term.hand_over(1)
    assert "\x1b[3J" in screen.getvalue()  # the scroll-back, not only the screen
    assert "Seat 1 (seat 1): press Enter" in screen.getvalue()


# -- a bot's beat leaves room for undo -------------------------------------------------------
def test_undo_against_a_bot_during_its_beat() -> None:
    """ "Bots in the terminal wait a short, configurable beat before answering ...
    so that `undo` is really possible"."""
    lines = ["1", "undo", "2", "1"]
    slow = _play(["toy", "--seats", "human,random", "--seed", "3", "--bot-delay", "0.01"], lines)
    assert "answers in a moment; type undo" in slow
    assert "Took back 'bid 2'." in slow and "Cannot undo" not in slow
    # Without the beat the bot has already answered: the move stands.
    fast = _play(["toy", "--seats", "human,random", "--seed", "3", "--bot-delay", "0"], lines)
    assert "Cannot undo: other players have moved since" in fast
    assert "Took back" not in fast


def test_a_bot_delay_out_of_range_is_a_clear_error() -> None:
    res = CliRunner().invoke(app, ["play", "toy", "--bot-delay", "-1"])
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "--bot-delay must be between 0 and 10 seconds, not -1" in res.output
