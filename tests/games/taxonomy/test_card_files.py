"""A designer's card file as a spreadsheet writes it, files that are not text,
fuzzed card files and `score` payloads (a clean engine error or a valid result,
never anything else), and card names that look like Rich markup."""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine import BadCardFile, BestiaryError, Rng
from bestiary.games.taxonomy import GAME
from bestiary.games.taxonomy.cards import NATURES, Deck, load_deck, load_natures, parse_cards
from bestiary.games.taxonomy.rules import TaxonomyState

runner = CliRunner()


def rows(n: int = 40, name: str = "M") -> list[str]:
    return [f"{name}{i},T{i % 5},F{i % 3},{'mean' if i == 0 else ''}" for i in range(n)]


def write(tmp_path: Path, data: bytes, name: str = "cards.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# -- encodings ----------------------------------------------------------------------------
def test_a_byte_order_mark_as_spreadsheets_write_it_is_read(tmp_path: Path) -> None:
    """A spreadsheet's "CSV UTF-8" starts with a byte-order mark; the header's
    first column is still `name`."""
    text = "\n".join(["name,type,family,natures", *rows()]) + "\n"
    path = write(tmp_path, "\ufeff".encode() + text.encode("utf-8"))
    deck = load_deck(str(path))
    assert deck.size == 40 and deck.names[0] == "M0"
    st = GAME.new(4, seed=1, options={"cards": str(path)})
    assert isinstance(st, TaxonomyState) and st.deck.size == 40


def test_a_file_that_is_not_utf8_is_a_one_line_error_naming_it(tmp_path: Path) -> None:
    text = "\n".join(["name,type,family", "Ménade,Fée,Bois", *rows()]) + "\n"
    path = write(tmp_path, text.encode("latin-1"), "latin1.csv")
    with pytest.raises(BadCardFile) as err:
        load_deck(str(path))
    msg = str(err.value)
    assert msg.startswith(str(path)) and "\n" not in msg
    assert "not UTF-8" in msg and "CSV UTF-8" in msg
    res = runner.invoke(app, ["cards", "taxonomy", "--cards", str(path)])
    assert res.exit_code == 2 and "latin1.csv" in res.stderr and "not UTF-8" in res.stderr


def test_a_file_name_with_a_nul_byte_is_a_clean_error() -> None:
    with pytest.raises(BadCardFile, match="not a file name"):
        GAME.ruleset(None, {"cards": "bad\x00name.csv"})
    with pytest.raises(BadCardFile, match="not a file name"):
        GAME.ruleset(None, {"scoring": "bad\x00name.toml"})


@pytest.mark.parametrize(
    ("row", "problem"),
    [
        ("X,Cheerful,F", "type 'Cheerful' is the name of a collecting key"),
        ("X,orphans,F", "type 'orphans' is the name of a collecting key"),
        ("X,Beastman/Wolf,F", "type 'Beastman/Wolf' is the name of a collecting key"),
        ("X,t1,F", "type 't1' is written 'T1' on line 3"),
        ("X,Beastman,Wolf", "family 'Beastman/Wolf' is written 'Beastman/wolf' on line"),
    ],
)
def test_a_type_may_not_take_a_key_the_rules_make_or_another_types_name(
    row: str, problem: str
) -> None:
    """Keys are the types, `Beastman/<family>`, `Orphans`, `Beastman orphans` and
    `Cheerful` (RULES.md reading 1), looked up case-insensitively: a type named
    like one of the rules' keys would merge two sets."""
    text = "\n".join(["name,type,family", "A,T0,F", "B,T1,F", "W,Beastman,wolf", row]) + "\n"
    with pytest.raises(BadCardFile) as err:
        parse_cards(text, "mine.csv", load_natures())
    assert problem in str(err.value) and "mine.csv, line 5" in str(err.value)


# -- fuzzing ------------------------------------------------------------------------------
FIELD = st.text(alphabet=string.ascii_letters + " ,;\"'#()/-\t" + "éü\x00\ufeff", max_size=12)
WORDS = st.sampled_from(
    ["name", "type", "family", "natures", "dispositions", "provenance", "source", "colour"]
)
NATURE_TEXT = st.lists(st.sampled_from([*NATURES, "none", "sleepy"]), max_size=3).map(" ".join)


@st.composite
def card_files(draw: st.DrawFn) -> str:
    """Mostly well-formed CSV card files with random damage."""
    header = draw(
        st.one_of(
            st.just(["name", "type", "family", "natures"]),
            st.lists(WORDS, min_size=1, max_size=6),
        )
    )
    lines = [",".join(header)]
    for i in range(draw(st.integers(0, 30))):
        fields = []
        for col in header:
            if col == "name":
                fields.append(draw(st.one_of(st.just(f"C{i}"), FIELD)))
            elif col == "type":
                fields.append(draw(st.sampled_from(["T0", "T1", "Beastman", "Orphans", "t0"])))
            elif col == "family":
                fields.append(draw(st.sampled_from(["F0", "F1", "Wolf", ""])))
            elif col == "natures":
                fields.append(draw(NATURE_TEXT))
            elif col == "provenance":
                fields.append(draw(st.sampled_from(["published", "assumed", "rumour", ""])))
            else:
                fields.append(draw(FIELD))
        if draw(st.booleans()) and fields:
            fields = fields[: draw(st.integers(0, len(fields)))]
        lines.append(",".join(fields))
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), draw(FIELD))
    return "\n".join(lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(card_files(), st.text(max_size=200)))
def test_any_card_file_text_gives_a_deck_or_a_card_file_error(text: str) -> None:
    try:
        cards = parse_cards(text, "fuzz.csv", load_natures())
    except BadCardFile as err:
        assert str(err).startswith("fuzz.csv") and "\n" not in str(err)
        return
    deck = Deck(cards, load_natures(), True)
    assert deck.size == len(cards) > 0
    assert all(len(set(ks)) == len(ks) for ks in deck.keys_of), "a card counts once per key"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.one_of(card_files().map(str.encode), st.binary(max_size=300)), seed=st.integers(0, 99)
)
def test_any_card_file_on_disk_plays_or_is_refused_cleanly(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, seed: int
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "cards.csv"
    path.write_bytes(data)
    try:
        state = GAME.new(2, seed=seed, options={"cards": str(path)})
    except BestiaryError as err:
        assert "\n" not in str(err)
        return
    rng = Rng(seed)
    for _ in range(60):  # a deck that loads must also play
        if state.over:
            break
        seat = state.to_act()[0]
        legal = state.legal(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])


DECK = load_deck()
NAMES = st.sampled_from([*DECK.names, "Nobody", "", "fairy"])
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 9)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def payloads(draw: st.DrawFn) -> Any:
    """`bestiary score` inputs: real-looking hands with random damage, or any JSON."""
    if draw(st.integers(0, 3)) == 0:
        return draw(JSON)
    out: dict[str, Any] = {"hand": draw(st.lists(NAMES, max_size=9))}
    if draw(st.booleans()):
        item = st.one_of(
            st.lists(NAMES, max_size=5),
            st.fixed_dictionaries(
                {"cards": st.lists(NAMES, max_size=5)},
                optional={"key": st.sampled_from([*DECK.key_names, "Nope", 3])},
            ),
            JSON,
        )
        out["exposed"] = draw(st.lists(item, max_size=2))
    if draw(st.booleans()):
        out["claims"] = draw(st.one_of(st.integers(-1, 3), JSON))
    if draw(st.booleans()):
        out[draw(st.sampled_from(["variant", "colour"]))] = draw(JSON)
    return out


@settings(max_examples=300, deadline=None)
@given(payload=payloads())
def test_any_score_payload_gives_a_result_or_a_clean_engine_error(payload: Any) -> None:
    try:
        out = GAME.score_tool(payload, GAME.ruleset())
    except BestiaryError as err:
        assert str(err) and "\n" not in str(err)
        return
    json.dumps(out)
    assert isinstance(out["valid"], bool)
    if out["valid"]:
        assert out["pattern"] in ("4+4", "5+3", "8") and isinstance(out["points"], int)
        assert sum(r["points"] for r in out["breakdown"]) == out["points"]
        assert sum(len(s["cards"]) for s in out["sets"]) == 8
    else:
        assert isinstance(out["reason"], str) and out["reason"]


# -- Rich markup --------------------------------------------------------------------------
def test_card_names_print_as_written_not_as_rich_markup(tmp_path: Path) -> None:
    """A card named `[/red]` (or `[bold]Sly`) is data: the terminal prints it as
    written, in the hand, the tables, the round's scoring and `bestiary cards`."""
    lines = ["name,type,family"]
    lines += ["[/red],[red]Slimy,Slime", "[bold]Sly,[red]Slimy,Slime"]
    lines += [f"Goo {i},[red]Slimy,Slime" for i in range(2)]
    lines += [f"Other {i},Type{i % 6},Fam" for i in range(40)]
    path = tmp_path / "markup.csv"
    path.write_text("\n".join(lines) + "\n")
    state = GAME.new(2, seed=1, options={"cards": str(path)})
    assert isinstance(state, TaxonomyState)
    deck = state.deck
    slimy = [deck.card(n) for n in ("[/red]", "[bold]Sly", "Goo 0", "Goo 1")]
    others = [c for c in range(deck.size) if c not in slimy]
    state.arrange([[*slimy, *others[:4]], others[4:12]], [others[12]], 0)  # type: ignore[list-item]
    state.apply_text(0, f"discard {deck.names[others[0]]}")
    view = state.view(0)
    view["last_round"] = {
        "round": 1,
        "winner": 0,
        "pattern": "4+4",
        "points": 3,
        "breakdown": [{"rule": "set of 4 [red]Slimy", "points": 0}],
        "sets": [{"key": "[red]Slimy", "cards": ["[/red]", "[bold]Sly"], "points": 0}],
    }
    view["bans"] = [["[/red]Slimy"], []]
    console = Console(record=True, width=200)
    console.print(GAME.render(view, []))
    out = console.export_text()
    for text in ("[/red]", "[bold]Sly", "[red]Slimy", "set of 4 [red]Slimy", "[/red]Slimy"):
        assert text in out, text
    res = runner.invoke(app, ["cards", "taxonomy", "--cards", str(path)])
    assert res.exit_code == 0, res.output
    assert "[/red]" in res.stdout and "[bold]Sly" in res.stdout
