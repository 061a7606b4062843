"""A designer's card files (``--cards``, ``-o treasures=``, ``-o prizes=``): read
with or without a BOM, refused in one clear line (every problem at once) when
wrong, escaped wherever Rich prints their names, and loaded once per match."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from bestiary.agents.base import AgentContext
from bestiary.engine import BadCardFile, BestiaryError, Rng
from bestiary.games.monster_maker import GAME, bots
from bestiary.games.monster_maker.cards import (
    DATA,
    DECK_COLUMNS,
    PRIZE_COLUMNS,
    TREASURE_COLUMNS,
    CardSet,
    load_cardset,
)
from bestiary.games.monster_maker.render import describe, render_catalog, render_view
from bestiary.games.monster_maker.rules import MonsterMakerState

DECK = (DATA / "deck.csv").read_text(encoding="utf-8")
TREASURES = (DATA / "treasures.csv").read_text(encoding="utf-8")
PRIZES = (DATA / "prizes.csv").read_text(encoding="utf-8")


def _write(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def _one_line(err: BaseException) -> str:
    msg = str(err)
    assert "\n" not in msg and "\r" not in msg
    return msg


def test_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """Spreadsheet programs save "UTF-8 with BOM": the header must still read."""
    deck = _write(tmp_path, "deck.csv", "\ufeff" + DECK)
    prizes = _write(tmp_path, "prizes.csv", b"\xef\xbb\xbf" + PRIZES.encode())
    cs = load_cardset(deck, "", prizes)
    assert cs.cards == load_cardset().cards and cs.prizes == load_cardset().prizes


def test_a_file_that_is_not_utf8_is_one_line_naming_the_file(tmp_path: Path) -> None:
    deck = _write(tmp_path, "latin1.csv", DECK.replace("Orc", "Orc\xe9").encode("latin-1"))
    with pytest.raises(BadCardFile) as err:
        load_cardset(deck)
    msg = _one_line(err.value)
    assert deck in msg and "not UTF-8" in msg and "0xe9" in msg


def test_every_problem_is_listed_at_once(tmp_path: Path) -> None:
    text = (
        DECK.replace("Orc,monster,1,11,human", "Orc,monster,1,11,elf")
        .replace("Corridor 5,corridor,4,5", "Corridor 5,corridor,many,5")
        .replace("Kobold,monster,1,7,human,", "Kobold,monster,1,7,human")
    )
    deck = _write(tmp_path, "deck.csv", text)
    with pytest.raises(BadCardFile) as err:
        load_cardset(deck)
    msg = _one_line(err.value)
    lines = text.splitlines()

    def at(prefix: str) -> int:
        return next(i + 1 for i, t in enumerate(lines) if t.startswith(prefix))

    assert msg.startswith(f"{deck}: 3 problems")
    assert f"line {at('Orc,')}: monster type 'elf'; types: human, undead, general" in msg
    assert f"line {at('Corridor 5,')}: count 'many' is not a whole number from 1 to 100" in msg
    assert f"line {at('Kobold,')}: 5 values, expected 6" in msg


def test_wrong_columns_say_which_and_what_is_expected(tmp_path: Path) -> None:
    text = PRIZES.replace("name,count,gold", "name,cuont,gold")
    prizes = _write(tmp_path, "prizes.csv", text)
    with pytest.raises(BadCardFile) as err:
        load_cardset("", "", prizes)
    msg = _one_line(err.value)
    assert "missing column(s) count" in msg and "unknown column(s) 'cuont'" in msg
    assert "the header must name the columns name, count, gold" in msg


def test_treasure_values_are_checked(tmp_path: Path) -> None:
    text = TREASURES.replace("Ring,no,150", "Ring,maybe,3Q").replace(
        "Mystic Map,no,3Dx20", "Fighter,no,3Dx20"
    )
    treasures = _write(tmp_path, "t.csv", text)
    with pytest.raises(BadCardFile) as err:
        load_cardset("", treasures)
    msg = _one_line(err.value)
    assert "open 'maybe' must be yes or no" in msg
    assert "gold '3Q' is neither a number nor dice" in msg
    assert "treasure 'Fighter' has the name of a deck card" in msg  # "dispel with X" stays clear


def test_huge_numbers_are_refused_not_built(tmp_path: Path) -> None:
    text = DECK.replace("Fighter,character,10,3D+3", "Fighter,character,10,99999D+3").replace(
        "Corridor 10,corridor,16,", "Corridor 10,corridor,1600000000,"
    )
    deck = _write(tmp_path, "deck.csv", text)
    with pytest.raises(BadCardFile) as err:
        load_cardset(deck)
    msg = _one_line(err.value)
    assert "strength '99999D+3' is too large" in msg and "count 1600000000" in msg


# -- fuzz --------------------------------------------------------------------------
_CELLS = st.sampled_from(
    ["", "1", "0", "-3", "10", "3D+3", "2D", "4Dx20-200", "1d0", "yes", "no", "human",
     "undead", "corridor", "monster", "character", "spell", "detour", "trap", "Fighter",
     "Elf", "casts heals", "charm human_only", "secret_door", "goddess", "²", "9" * 50,
     "\"", "a,b", "[/red]", "\x00", "\x1b[31m", "Ｄ", "\u2028"]
)  # fmt: skip
_TEXT_CELLS = st.one_of(_CELLS, st.text(max_size=12))


_STAMPS = itertools.count(1_000_000_000)


def _csv_line(cells: list[str]) -> str:
    return ",".join(cells)


@st.composite
def _card_file(draw: st.DrawFn, columns: tuple[str, ...], base: str) -> bytes:
    """A file near a real one: its lines, some replaced, mangled or removed,
    odd headers and encodings."""
    lines = base.splitlines()
    if draw(st.booleans()):
        cols = draw(st.lists(st.sampled_from([*columns, "junk", "NAME", ""]), max_size=12))
        lines = [_csv_line(cols), *lines[-5:]]
    for _ in range(draw(st.integers(0, 6))):
        i = draw(st.integers(0, max(len(lines) - 1, 0)))
        row = draw(st.lists(_TEXT_CELLS, min_size=0, max_size=len(columns) + 2))
        if lines:
            lines[i] = _csv_line(row)
    if draw(st.booleans()):
        lines = lines[: draw(st.integers(0, len(lines)))]
    text = "\n".join(lines)
    data = text.encode(draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16"])), "replace")
    if draw(st.booleans()):
        data += draw(st.binary(max_size=8))
    return data


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    which=st.sampled_from(["deck", "treasures", "prizes"]),
    data=st.data(),
)
def test_fuzzed_card_files_load_or_fail_cleanly(
    tmp_path: Path, which: str, data: st.DataObject
) -> None:
    """Any file: a valid card set, or one engine error in one line naming the file."""
    columns, base = {
        "deck": (DECK_COLUMNS, DECK),
        "treasures": (TREASURE_COLUMNS, TREASURES),
        "prizes": (PRIZE_COLUMNS, PRIZES),
    }[which]
    raw = data.draw(_card_file(columns, base))
    path = _write(tmp_path, f"fuzz-{which}.csv", raw)
    stamp = next(_STAMPS)
    os.utime(path, ns=(stamp, stamp))  # a new stamp each example: never a cached answer
    args = {"deck": (path, "", ""), "treasures": ("", path, ""), "prizes": ("", "", path)}[which]
    try:
        cs = load_cardset(*args)
    except BestiaryError as exc:
        assert isinstance(exc, BadCardFile)
        assert path in _one_line(exc)
        return
    assert isinstance(cs, CardSet)
    state = GAME.new(
        3, seed=1, options=dict(zip(("cards", "treasures", "prizes"), args, strict=True))
    )
    assert state.to_act()  # a valid file makes a playable table


# -- names are data, never markup ----------------------------------------------------
def _render(renderable: object) -> str:
    console = Console(width=220, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_card_names_that_look_like_markup_are_printed_as_they_are(tmp_path: Path) -> None:
    """A card named ``[/red]`` is a name: the terminal shows it, Rich does not parse it."""
    deck = _write(tmp_path, "deck.csv", DECK.replace("Orc,monster", "[/red],monster"))
    treasures = _write(tmp_path, "t.csv", TREASURES.replace("Ring,", "[bold]Ring,"))
    prizes = _write(tmp_path, "p.csv", PRIZES.replace("Prize 100,", "[/]Prize,"))
    options = {"cards": deck, "treasures": treasures, "prizes": prizes}
    cat = GAME.catalog(GAME.ruleset(None, options))
    assert cat is not None
    text = _render(render_catalog(cat))
    assert "[/red]" in text and "[bold]Ring" in text and "[/]Prize" in text
    state = GAME.new(3, seed=1, options=options)
    assert isinstance(state, MonsterMakerState)
    orc = state.cs.by_name["[/red]"].index
    seat = state.turn
    target = (seat + 1) % 3
    state.hands[seat] = [orc]
    state.out[target] = [state.cs.by_name["corridor 10"].index]
    state.dist_out[target] = 10
    state.monster[target] = orc
    state.held[target] = [next(t.index for t in state.cs.treasures if t.name == "[bold]Ring")]
    state.shown[target] = set(state.held[target])
    view = state.view(seat)
    events = state.events_since(0, seat)
    text = _render(render_view(view, events))
    # The table names the monster with its strength and type; the hand shows its label.
    assert "[/red] (strength 11, human type)" in text and "[/red] (11, human type)" in text
    assert "[bold]Ring" in text
    state.log.emit("monster", seat=seat, target=target, monster="[/red]")
    assert "places [/red] before" in _render(render_view(view, state.events_since(0, seat)[-1:]))
    assert describe(state.log.events[-1]).endswith(f"places [/red] before seat {target}")


# -- loaded once --------------------------------------------------------------------
def test_an_edited_file_is_read_again_by_the_next_match(tmp_path: Path) -> None:
    prizes = tmp_path / "prizes.csv"
    prizes.write_text(PRIZES, encoding="utf-8")
    first = GAME.new(2, seed=1, options={"prizes": str(prizes)})
    assert isinstance(first, MonsterMakerState)
    prizes.write_text(PRIZES + "Prize 900,1,900\n", encoding="utf-8")
    second = GAME.new(2, seed=1, options={"prizes": str(prizes)})
    assert isinstance(second, MonsterMakerState)
    assert "Prize 900" not in {p.name for p in first.cs.prizes}
    assert "Prize 900" in {p.name for p in second.cs.prizes}


def test_the_bot_loads_the_card_set_once_per_match(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not at every decision: the bot keeps the match's card set."""
    calls: list[tuple[str, ...]] = []
    real = bots.load_cardset

    def counting(*args: str) -> CardSet:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(bots, "load_cardset", counting)
    state = GAME.new(2, seed=3, options={"max_dungeons": 1})
    state.quiet()
    agents = [bots.HeuristicAgent(seed=s) for s in range(2)]
    decisions = 0
    while not state.over:
        seat = state.to_act()[0]
        state.apply(seat, agents[seat].act(AgentContext(state, seat, Rng(seat))))
        decisions += 1
    assert decisions > 20 and len(calls) <= 2
