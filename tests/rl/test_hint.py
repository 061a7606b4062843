"""Hints: the strongest bot's move for a seat, from that seat's view only (issue 11).

"`bestiary hint` / a "hint" button on the web table: the strongest bot's
suggested move for your seat, from your view only."
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bestiary.agents.hint import suggest
from bestiary.cli import app
from bestiary.engine.audit import fingerprint, random_states
from bestiary.engine.errors import BadInput, NotYourTurn
from bestiary.engine.protocol import State
from bestiary.engine.record import MatchRecord
from bestiary.engine.registry import get_game
from bestiary.engine.rng import Rng

GAMES = ["taxonomy", "monster-maker", "meat", "teratozoic"]
runner = CliRunner()


def _mid_game(game_id: str, seed: int) -> list[State]:
    """Two positions of a random game, copied (the walk's live state moves on)."""
    game = get_game(game_id)
    found: list[State] = []
    for state in random_states(game, game.default_players, seed, every=0.05):
        if len(state.legal(state.to_act()[0])) > 1:
            found.append(state.clone())
        if len(found) == 2:
            break
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_a_hint_is_a_legal_move_and_leaves_the_state_unchanged(game_id: str) -> None:
    for state in _mid_game(game_id, 11):
        seat = state.to_act()[0]
        before = fingerprint(state)
        hint = suggest(state, seat, seed=3, iterations=8)
        assert hint.action in {str(a) for a in state.legal(seat)}
        assert hint.alternatives[0].action == hint.action
        assert fingerprint(state) == before


@pytest.mark.parametrize("game_id", GAMES)
def test_two_worlds_the_seat_cannot_tell_apart_give_the_same_hint(game_id: str) -> None:
    """From your view only: the real state and a determinization for the seat
    (other hidden cards, same view) must get the same hint from the same search."""
    for state in _mid_game(game_id, 5):
        seat = state.to_act()[0]
        other = state.determinize(seat, Rng(99))
        assert other.view(seat) == state.view(seat)
        real = suggest(state, seat, seed=7, iterations=12)
        twin = suggest(other, seat, seed=7, iterations=12)
        assert real.action == twin.action
        assert real.alternatives == twin.alternatives


def test_a_hint_refuses_what_it_cannot_answer() -> None:
    game = get_game("meat")
    state = game.new(2, seed=1)
    waiting = next(s for s in range(2) if s not in state.to_act())
    with pytest.raises(NotYourTurn, match="no decision"):
        suggest(state, waiting, iterations=2)
    with pytest.raises(BadInput, match="seats are 0 to 1"):
        suggest(state, 5, iterations=2)
    with pytest.raises(BadInput, match="at most"):
        suggest(state, state.to_act()[0], seconds=60)


def test_bestiary_hint_advises_a_seat_of_a_recorded_game(tmp_path: Path) -> None:
    """`bestiary hint RECORD --seat N --at MOVE`: a legal move for that seat at
    that point of the record; a seat with no decision there is told who has one."""
    rec = tmp_path / "meat.json"
    played = runner.invoke(
        app, ["play", "meat", "--seats", "random,random", "--seed", "4", "--record", str(rec)]
    )
    assert played.exit_code == 0, played.output
    record = MatchRecord.load(rec)
    at = 6
    state = get_game("meat").new(2, seed=record.seed, variant=record.variant)
    for seat, text in record.moves[:at]:
        state.apply_text(seat, text)
    seat = state.to_act()[0]
    res = runner.invoke(
        app, ["hint", str(rec), "--seat", str(seat), "--at", str(at), "--seconds", "0.2", "--json"]
    )
    assert res.exit_code == 0, res.output
    answer = json.loads(res.stdout)
    assert answer["move"] == at and answer["seat"] == seat
    assert answer["action"] in {str(a) for a in state.legal(seat)}
    waiting = [s for s in range(2) if s not in state.to_act()]
    if waiting:
        res = runner.invoke(app, ["hint", str(rec), "--seat", str(waiting[0]), "--at", str(at)])
        assert res.exit_code == 2
        assert "has no decision" in res.output
    res = runner.invoke(app, ["hint", str(rec), "--seat", "0", "--at", "100000"])
    assert res.exit_code == 2 and "--at must be between 0 and" in res.output


def test_a_hint_at_rock_paper_scissors_says_why_it_did_not_search() -> None:
    """Taxonomy reading 14: an attack is settled by rock-paper-scissors, chosen
    in secret. The hint leaves it to the heuristic (``leave=rps``) and says so,
    not "0 searches"."""
    from bestiary.agents import AgentContext, make_agent
    from bestiary.cli.hint import hint_lines

    game = get_game("taxonomy")
    state = game.new(2, seed=4)
    state.quiet()
    rng = Rng(4)
    bots = [make_agent(game, "heuristic", seed=s) for s in range(2)]
    while not state.over:
        seat = state.to_act()[0]
        if all(str(m).startswith("rps ") for m in state.legal(seat)):
            break
        state.apply(seat, bots[seat].act(AgentContext(state, seat, rng)))
    assert not state.over
    found = suggest(state, seat, iterations=16, seed=1)
    assert found.iterations == 0 and found.action.startswith("rps ")
    lines = hint_lines(found)
    assert lines[0] == f"Hint: {found.action}"
    assert "searching would not do better here" in lines[-1]
    assert not any("0 searches" in line for line in lines)


def test_a_hint_says_when_the_search_could_not_tell_the_moves_apart() -> None:
    """At a four-seat M.E.A.T. draft every pick the search weighs scores alike
    (the battle lies past its playouts' horizon, and before the battle the
    estimate is the vitality, which no pick changes), so "won 42%" beside every
    move would read as a coin toss: the hint says the pick is the bot's own. A
    hint whose moves differ says nothing of the kind."""
    from bestiary.agents.hint import Alternative, Hint
    from bestiary.cli.hint import hint_lines

    state = get_game("meat").new(4, seed=3)
    state.quiet()
    while "draft" not in str(state.legal(state.to_act()[0])[0]):
        seat = state.to_act()[0]
        state.apply(seat, state.legal(seat)[0])
    seat = state.to_act()[0]
    found = suggest(state, seat, iterations=48, seed=2)
    assert found.iterations > 0 and found.action.startswith("draft ")
    assert len({round(a.win_rate, 6) for a in found.alternatives}) == 1
    assert any("could not tell these moves apart" in line for line in hint_lines(found))
    apart = Hint(
        "draft A",
        "ismcts",
        10,
        0.1,
        [Alternative("draft A", 6, 0.6), Alternative("draft B", 4, 0.4)],
    )
    assert not any("could not tell" in line for line in hint_lines(apart))


def test_a_hint_names_its_moves_as_the_buttons_do_in_the_players_language() -> None:
    """Issue 26, "whole Polish": every string a player can see. A Polish hint
    read "Podpowiedź: discard Pixie" (the protocol's text form) and "w 1.0 s"."""
    from bestiary.agents.hint import Alternative, Hint
    from bestiary.cli.hint import hint_lines
    from bestiary.i18n import use_language

    found = Hint(
        action="discard Pixie",
        agent="ismcts",
        iterations=614,
        seconds=1.04,
        alternatives=[
            Alternative("discard Pixie", 200, 0.6),
            Alternative("claim Orphans", 127, 0.57),
        ],
    )
    with use_language("pl"):
        lines = hint_lines(found, get_game("taxonomy"))
    assert lines[0] == "Podpowiedź: odrzuć Pixie"
    assert "przejmij jako Sieroty" in lines[1] and "claim" not in lines[1]
    assert "w 1,0 s" in lines[-1]
    with use_language("en"):
        assert hint_lines(found, get_game("taxonomy"))[0] == "Hint: discard Pixie"
