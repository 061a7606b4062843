"""The errors a player or designer meets speak Polish too (issue 13, "English and Polish").

For every game an illegal move and a malformed card file give a Polish message under
``use_language("pl")`` and the English one otherwise; the engine's option errors are
Polish through the CLI (``--lang pl``) and still say what is allowed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bestiary.engine import BadCardFile, BadOptions, IllegalAction, State
from bestiary.engine.registry import get_game
from bestiary.i18n import language, set_language, use_language

GAMES = ["meat", "monster-maker", "taxonomy", "teratozoic"]

# A malformed card file per game: (option naming the file, file name, text, English, Polish).
BAD_FILES: dict[str, tuple[str, str, str, str, str]] = {
    "taxonomy": (
        "cards",
        "monsters.csv",
        "name,colour\nWerecat,red\n",
        "the header lacks column(s)",
        "w nagłówku brak kolumn",
    ),
    "meat": (
        "cards",
        "cards.toml",
        "[[monster]]\nname = 'Bober'\n",
        "unknown section(s) ['monster']; sections: creature, destiny, leader",
        "nieznane sekcje: ['monster']; sekcje: creature, destiny, leader",
    ),
    "monster-maker": (
        "cards",
        "deck.csv",
        "name,kind\nGoblin,monster\n",
        "missing column(s)",
        "brak kolumn",
    ),
    "teratozoic": (
        "cards",
        "cards.csv",
        "name,colour\nX,red\n",
        "header must be: ",
        "nagłówek musi mieć postać: ",
    ),
}


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """The CLI sets the language of this thread: put English back for other tests."""
    before = language()
    yield
    set_language(before)


def _illegal_move(game_id: str) -> tuple[State, int, object]:
    """A state, a seat and a move that seat made a moment ago and may not make now."""
    state = get_game(game_id).new(get_game(game_id).default_players, seed=7)
    for _ in range(200):
        seat = state.to_act()[0]
        action = state.legal(seat)[0]
        state.apply(seat, action)
        if state.over:
            break
        if seat in state.to_act() and action not in state.legal(seat):
            return state, seat, action
    pytest.fail(f"{game_id}: no move became illegal for its seat in 200 moves")


def _message(exc_type: type[Exception], call: object) -> str:
    with pytest.raises(exc_type) as info:
        call()  # type: ignore[operator]
    return str(info.value)


@pytest.mark.parametrize("game_id", GAMES)
def test_an_illegal_move_is_refused_in_the_players_language(game_id: str) -> None:
    state, seat, action = _illegal_move(game_id)
    english = _message(IllegalAction, lambda: state.apply(seat, action))
    with use_language("pl"):
        polish = _message(IllegalAction, lambda: state.apply(seat, action))
    first = str(state.legal(seat)[0])
    assert english.startswith(f"{action} is not a legal action for seat {seat} now; allowed: ")
    assert polish.startswith(f"{action} nie jest teraz dozwolonym ruchem dla miejsca {seat}; ")
    # What is allowed is still listed, in the same words as the moves are typed.
    assert polish.split("; dozwolone: ", 1)[1].startswith(first)
    assert english.split("; allowed: ", 1)[1].startswith(first)
    # Not the player's turn at all: the game's own message, in Polish too.
    others = [s for s in range(state.players) if s not in state.to_act()]
    if others:
        with use_language("pl"):
            waiting = _message(IllegalAction, lambda: state.apply(others[0], action))
        assert waiting.startswith(f"miejsce {others[0]} nie ma teraz nic do zdecydowania")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_malformed_card_file_is_reported_in_the_designers_language(
    game_id: str, tmp_path: Path
) -> None:
    option, name, text, english_words, polish_words = BAD_FILES[game_id]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    game = get_game(game_id)

    def start() -> object:
        return game.new(game.default_players, seed=1, options={option: str(path)})

    english = _message(BadCardFile, start)
    with use_language("pl"):
        polish = _message(BadCardFile, start)
    assert str(path) in english and str(path) in polish
    assert english_words in english and english_words not in polish
    assert polish_words in polish
    assert english == _message(BadCardFile, start)  # English again outside the block


def test_an_option_out_of_range_is_polish_and_says_what_is_allowed() -> None:
    game = get_game("meat")
    with use_language("pl"):
        polish = _message(BadOptions, lambda: game.new(2, seed=1, options={"max_rounds": "0"}))
    english = _message(BadOptions, lambda: game.new(2, seed=1, options={"max_rounds": "0"}))
    assert english == "option max_rounds=0 is out of range; allowed: 1 to 200"
    assert polish == "opcja max_rounds=0 jest poza zakresem; dozwolone: od 1 do 200"


def test_the_cli_reports_a_bad_option_in_polish_with_what_is_allowed() -> None:
    from bestiary.cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["--lang", "pl", "play", "meat", "-o", "max_rounds=abc"], input="")
    said = " ".join(res.output.replace("│", " ").split())
    assert "Traceback" not in res.output
    assert "opcja max_rounds='abc' musi być typu int" in said
    res = runner.invoke(app, ["--lang", "pl", "play", "taxonomy", "-o", "vitality=3"], input="")
    said = " ".join(res.output.replace("│", " ").split())
    assert "nieznana opcja 'vitality'; opcje: " in said
    assert "rounds" in said.split("opcje: ", 1)[1]  # what is allowed, still listed
    set_language("en")
    res = runner.invoke(app, ["--lang", "en", "play", "taxonomy", "-o", "vitality=3"], input="")
    said = " ".join(res.output.replace("│", " ").split())
    assert "unknown option 'vitality'; options: " in said


@pytest.mark.parametrize(
    ("call", "english", "polish"),
    [
        (
            lambda: get_game("no-such-game"),
            "unknown game 'no-such-game'; known games: ",
            "nieznana gra 'no-such-game'; znane gry: ",
        ),
        (
            lambda: get_game("meat").new(3, seed=1),
            "meat cannot be played by 3 players; allowed: 2, 4, 6",
            "w grę meat nie można grać w 3 osoby; dozwolone: 2, 4, 6",
        ),
        (
            lambda: get_game("teratozoic").new(2, seed=1, variant="huge"),
            "teratozoic has no variant 'huge'; variants: ",
            "gra teratozoic nie ma wariantu 'huge'; warianty: ",
        ),
    ],
    ids=["game", "players", "variant"],
)
def test_engine_errors_speak_polish(call: object, english: str, polish: str) -> None:
    from bestiary.engine import BestiaryError

    assert _message(BestiaryError, call).startswith(english)
    with use_language("pl"):
        assert _message(BestiaryError, call).startswith(polish)


def test_agent_spec_errors_speak_polish() -> None:
    from bestiary.agents.base import make_agent
    from bestiary.engine import BadAgentSpec

    game = get_game("taxonomy")
    english = _message(BadAgentSpec, lambda: make_agent(game, "nobody"))
    with use_language("pl"):
        polish = _message(BadAgentSpec, lambda: make_agent(game, "nobody"))
    assert english.startswith("unknown agent 'nobody' for taxonomy; agents: ")
    assert polish.startswith("nieznany bot 'nobody' dla gry taxonomy; boty: ")
    assert "random" in polish and "ismcts" in polish
