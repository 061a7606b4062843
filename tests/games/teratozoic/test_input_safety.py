"""Bad input gets a clean one-line engine error; user text is never Rich markup.

Card files come from designers (``--cards FILE``) and score requests from
anyone (``bestiary score`` / ``POST /api/games/teratozoic/score``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine import BadCardFile, BestiaryError
from bestiary.games.teratozoic.cards import DATA, Card, cards_from, load_cards, parse_cards

from .helpers import GAME

GOOD = (DATA / "cards.csv").read_bytes()


def _renamed(old: str, new: str) -> bytes:
    return GOOD.replace(f"\n{old},".encode(), f"\n{new},".encode())


# ------------------------------------------------------------ names, not ids
def test_the_score_tool_answers_with_card_names() -> None:
    """`echo '{"cards": [...]}' | bestiary score teratozoic` names the cards it
    was given; it used to answer with card ids."""
    names = ["green 6 tentacle-brain", "green 1 tentacle-with-science", "purple 3 left arm"]
    out = CliRunner().invoke(app, ["score", "teratozoic"], input=json.dumps({"cards": names}))
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)
    cards = [c for m in got["build"]["monsters"] for c in m["cards"]]
    placed = [p[0] for m in got["build"]["monsters"] for p in m["placements"]]
    assert sorted(cards) == sorted(names) == sorted(placed)


def test_an_empty_request_says_what_is_allowed() -> None:
    out = CliRunner().invoke(app, ["score", "teratozoic"], input="{}")
    assert out.exit_code != 0
    assert "[name, x, y, turned]" in out.output  # the bracketed example is printed as text


# ------------------------------------------------------------ Rich markup
def test_a_card_named_like_markup_is_printed_as_text(tmp_path: Path) -> None:
    """A designer's card called `[/red]` is data: the catalogue and the game
    picture print it literally (Rich would otherwise fail on a closing tag)."""
    path = tmp_path / "cards.csv"
    path.write_bytes(
        _renamed("orange 1 head", "[/red]").replace(b"\norange 2 claw,", b"\n[bold]x,")
    )
    rules = GAME.ruleset(None, {"cards": str(path)})
    console = Console(width=200, record=True)
    catalog = GAME.catalog(rules)
    assert catalog is not None
    console.print(GAME.render_catalog(catalog))
    text = console.export_text()
    assert "[/red]" in text and "[bold]x" in text
    # The game picture and the event lines.
    st = GAME.new(3, seed=1, options={"cards": str(path)})
    deck = cards_from(str(path))
    red = next(c.id for c in deck if c.name == "[/red]")
    for s in range(3):
        if red not in st.hand[s]:
            continue
        console = Console(width=200, record=True)
        console.print(GAME.render(st.view(s), st.events_since(0, s)))
        assert "[/red]" in console.export_text()


# ------------------------------------------------------------ card files
def test_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """Spreadsheets save UTF-8 with a byte order mark: the file still loads."""
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD)
    assert [c.name for c in load_cards(path)] == [c.name for c in load_cards()]


def test_a_file_that_is_not_utf8_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.csv"
    path.write_bytes(GOOD.replace(b"orange 1 head", "orange 1 tête".encode("latin-1")))
    with pytest.raises(BadCardFile) as exc:
        load_cards(path)
    message = str(exc.value)
    assert str(path) in message and "not UTF-8" in message and "\n" not in message


def test_an_edited_card_file_is_read_again_for_the_next_match(tmp_path: Path) -> None:
    """One card table per match: a file edited between matches is reloaded,
    while a match keeps the table it started with."""
    path = tmp_path / "cards.csv"
    path.write_bytes(GOOD)
    first = GAME.new(2, seed=1, options={"cards": str(path)})
    path.write_bytes(_renamed("orange 1 head", "orange 1 skull") + b"\n")
    second = GAME.new(2, seed=1, options={"cards": str(path)})
    assert first.deck[0].name == "orange 1 head"  # type: ignore[attr-defined]
    assert second.deck[0].name == "orange 1 skull"  # type: ignore[attr-defined]


def _mutations() -> st.SearchStrategy[bytes]:
    """The real file with a few random edits: bytes changed, lines cut or doubled."""
    lines = GOOD.split(b"\n")

    @st.composite
    def build(draw: st.DrawFn) -> bytes:
        out = list(lines)
        for _ in range(draw(st.integers(1, 4))):
            k = draw(st.integers(0, len(out) - 1))
            kind = draw(st.sampled_from(["bytes", "cut", "double", "drop"]))
            if kind == "bytes":
                line = bytearray(out[k])
                if line:
                    i = draw(st.integers(0, len(line) - 1))
                    line[i] = draw(st.integers(0, 255))
                out[k] = bytes(line)
            elif kind == "cut":
                out[k] = out[k][: draw(st.integers(0, max(len(out[k]) - 1, 0)))]
            elif kind == "double":
                out.insert(k, out[k])
            else:
                del out[k]
        return b"\n".join(out)

    return build()


def _valid(cards: tuple[Card, ...]) -> None:
    assert cards and len({c.name.casefold() for c in cards}) == len(cards)
    assert all(0 <= c.value <= 9 for c in cards)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=st.one_of(_mutations(), st.binary(max_size=300)))
def test_fuzzed_card_files_load_or_fail_cleanly(raw: bytes) -> None:
    """Any bytes: a valid card table or a BadCardFile naming the file, one line."""
    try:
        cards = parse_cards("fuzz.csv", raw)
    except BadCardFile as exc:
        assert str(exc).startswith("fuzz.csv") and "\n" not in str(exc)
        return
    _valid(cards)


# ------------------------------------------------------------ score input
_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_NAMES = st.sampled_from(
    ["green 6 tentacle-brain", "green 1 head", "purple 5 pincer", "blue 6 frost-spine", "nope"]
)
_REQUEST = st.one_of(
    _JSON,
    st.fixed_dictionaries(
        {
            "cards": st.lists(_NAMES | _JSON, max_size=6),
        },
        optional={"budget": _JSON | st.integers(1, 5000)},
    ),
    st.fixed_dictionaries(
        {"gene_pool": st.lists(_NAMES | _JSON, max_size=6)},
        optional={"budget": _JSON | st.integers(1, 5000)},
    ),
    st.fixed_dictionaries(
        {
            "placements": st.lists(
                st.tuples(_NAMES, st.integers(-2, 2), st.integers(-2, 2), st.booleans()).map(list)
                | _JSON,
                max_size=5,
            )
        },
        optional={"doubling_ignores_colour": _JSON},
    ),
)


@settings(max_examples=300, deadline=None)
@given(payload=_REQUEST)
def test_fuzzed_score_requests_answer_or_fail_cleanly(payload: object) -> None:
    """Any JSON: a result with a score, or an engine error with a one-line message."""
    rules = GAME.ruleset()
    try:
        out = GAME.score_tool(payload, rules)  # type: ignore[arg-type]
    except BestiaryError as exc:
        assert str(exc) and "\n" not in str(exc).strip()
        return
    assert out is not None and isinstance(out["exact"], bool)
    assert ("score" in out) != ("cards" in out and "monsters" in out)
    json.dumps(out)
