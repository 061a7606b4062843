"""Teratozoic log lines and screens in English and Polish, with the table's names,
in words (never Python data), each explained by a rule (issue 13)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from rich.console import Console

from bestiary.engine import Rng
from bestiary.engine.eventrules import sections
from bestiary.engine.events import Event
from bestiary.games.teratozoic import describe as describe_module
from bestiary.games.teratozoic.describe import describe
from bestiary.games.teratozoic.rules import TeratozoicState
from bestiary.i18n import use_language

from .helpers import BY_NAME, DECK, GAME, new, rig_hand
from .test_final_tiebreak import _tied_three

PACKAGE = Path(describe_module.__file__).resolve().parent
CATALOG = PACKAGE / "locale" / "pl" / "LC_MESSAGES" / "teratozoic.po"
RULEBOOK = PACKAGE.parents[2].parent / "shared" / "seeds" / "004_50d073825b6688fe.txt"
NAMES = ["Ann", "Bob", "Cy"]


def emitted_kinds() -> set[str]:
    """Every event kind the rules can emit (the ``emit("kind", ...)`` calls of
    every module of the package)."""
    source = "".join(p.read_text(encoding="utf-8") for p in PACKAGE.glob("*.py"))
    return set(re.findall(r"emit\(\s*\"(\w+)\"", source))


def play_out(st: TeratozoicState, seed: int) -> TeratozoicState:
    rng = Rng(seed)
    while not st.over:
        seat = st.to_act()[0]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
    return st


def every_event() -> list[Event]:
    """Two random games (one reaches the final shuffle) and a final tie that is
    played again: every kind the rules emit, as each seat sees it."""
    events: list[Event] = []
    for seed in (1, 2):
        st = play_out(new(3, seed=seed), seed)
        events += [e for s in range(3) for e in st.events_since(0, s)]
    tied = _tied_three()
    tied._finish()
    play_out(tied, 3)
    return events + [e for s in range(3) for e in tied.events_since(0, s)]


# -- English and Polish lines ------------------------------------------------------
def test_a_sample_of_lines_in_english_and_polish() -> None:
    """'Continuing clockwise, each player declares whether they are expressing all
    their genes or holding some back.' / 'The player with the highest total is the
    winner.' Whole sentences, names, Polish plural forms."""
    held = [Event(i, "declared", {"seat": 1, "held": n}) for i, n in enumerate((1, 2, 5))]
    over = Event(
        3,
        "game_over",
        {"scores": [22.0, 26.0, 26.0], "winners": [1, 2], "monsters": {"0": {"green": 10}}},
    )
    took = Event(4, "took", {"seat": 0, "card": BY_NAME["green 3 hip"], "owner": 2})
    with use_language("en"):
        assert [describe(e, NAMES) for e in held] == [
            "Bob: “I'm not playing all my cards” (1 card face down)",
            "Bob: “I'm not playing all my cards” (2 cards face down)",
            "Bob: “I'm not playing all my cards” (5 cards face down)",
        ]
        assert describe(over, NAMES) == (
            "Game over. Cards in monsters: Ann 22, Bob 26, Cy 26. Bob and Cy share the win."
        )
        assert describe(took, NAMES) == "Ann takes green 3 hip from play (played by Cy)"
    with use_language("pl"):
        assert [describe(e, NAMES) for e in held] == [
            "Bob: „Nie zagrywam wszystkich kart” (1 karta zakryta)",
            "Bob: „Nie zagrywam wszystkich kart” (2 karty zakryte)",
            "Bob: „Nie zagrywam wszystkich kart” (5 kart zakrytych)",
        ]
        assert describe(over, NAMES) == (
            "Koniec gry. Karty w potworach: Ann: 22, Bob: 26, Cy: 26. "
            "Bob i Cy dzielą się zwycięstwem."
        )
        assert describe(took, NAMES) == "Ann bierze z gry zielone biodro 3 (z zagrania — Cy)"


def test_an_era_line_says_what_the_era_card_says() -> None:
    """The Apocalyptic Era of the sample turn: 'draw 4 + 1', 'Play at least 4',
    'Winner: gain 1 from Play, gain 1 from hand', 'Others: gain 1 from hand'."""
    era = Event(0, "era", {"era": "Apocalyptic Era", "numbers": "ignored"})
    with use_language("pl"):
        assert describe(era) == (
            "Zaczyna się Era Apokaliptyczna — dobierz 4 z Talii Mutacji i 1 z Puli "
            "Genów, zagraj co najmniej 4; zwycięzca zyskuje 1 z gry i 1 z ręki, pozostali 1 z "
            "ręki"
        )


# -- names, words and rules over whole games -----------------------------------
def test_every_line_uses_names_and_words_in_both_languages() -> None:
    """No "seat N" when the table has names; no "[" or "{" of a Python list or dict."""
    events = every_event()
    for lang in ("en", "pl"):
        with use_language(lang):
            for e in events:
                line = GAME.describe_event(e, NAMES)
                assert line and not re.search(r"[\[\]{}]", line), (e.kind, line)
                assert not re.search(r"\bseat \d", line), (e.kind, line)
                assert "=" not in line, (e.kind, line)


def test_every_emitted_kind_has_a_line_and_a_rule() -> None:
    """Issue 13: "each event carries the rule that caused it (a RULES.md anchor)"."""
    kinds = emitted_kinds()
    assert len(kinds) >= 20 and {"final_tie", "final_replay", "tie", "took"} <= kinds
    assert kinds <= describe_module.KINDS
    assert {e.kind for e in every_event()} == kinds
    anchors = sections(PACKAGE / "RULES.md")
    for kind in kinds:
        rule = GAME.event_rule(kind)
        assert rule is not None, kind
        assert rule.anchor in anchors and rule.section.startswith("#"), kind
        assert rule.quote and rule.title, kind


def test_rule_quotes_are_the_rulebooks_words() -> None:
    """Each quote is the rulebook's text word for word (its bold marks and spacing
    folded)."""
    import tomllib

    table = tomllib.loads((PACKAGE / "data" / "event_rules.toml").read_text(encoding="utf-8"))
    if not RULEBOOK.exists():
        pytest.skip("the rulebooks (../shared/seeds) are not beside this checkout")

    def fold(text: str) -> str:
        return " ".join(text.replace("*", "").split())

    book = fold(RULEBOOK.read_text(encoding="utf-8"))
    for kind, entry in table.items():
        assert fold(entry["quote"]) in book, kind


# -- the catalog ---------------------------------------------------------------
def test_the_polish_catalog_translates_every_message_with_the_same_placeholders() -> None:
    with CATALOG.open("rb") as fh:
        catalog = read_po(fh, locale="pl")
    assert catalog.num_plurals == 3
    ids: set[str] = set()
    for path in (PACKAGE / "describe.py", PACKAGE / "render.py"):
        for _line, message, _comments, _context in extract_from_file(
            "python", str(path), keywords={"_": None, "N_": None, "ngettext": (1, 2)}
        ):
            ids.add(message if isinstance(message, str) else message[0])
    translated = {m.id[0] if isinstance(m.id, tuple) else m.id: m for m in catalog if m.id}
    assert ids and ids <= set(translated), sorted(ids - set(translated))
    for msgid, message in translated.items():
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms), msgid
        want = set(re.findall(r"\{(\w+)", msgid))
        for form in forms:
            assert set(re.findall(r"\{(\w+)", form)) == want, (msgid, form)


# -- the terminal screen -------------------------------------------------------------
def screen(view: dict[str, Any], events: list[Event], lang: str = "en") -> str:
    console = Console(width=220, record=True)
    with use_language(lang):
        console.print(GAME.render(view, events))
    return console.export_text()


def test_render_does_not_import_the_game_module() -> None:
    """render.py stands below game.py: no import cycle between them."""
    tree = ast.parse((PACKAGE / "render.py").read_text(encoding="utf-8"))
    imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "game" not in imported and not any(m.endswith(".game") for m in imported)


def test_render_shows_every_event_given_and_no_dict_at_the_end() -> None:
    """The CLI passes every event since the last decision: none may be cut; the
    final screen reads as words."""
    st = play_out(new(3, seed=2), 2)
    events = st.events_since(0, 0)[-30:]
    for lang in ("en", "pl"):
        text = screen(st.view(0), events, lang)
        with use_language(lang):
            for e in events:
                assert GAME.describe_event(e) in text
        assert "{" not in text and not re.search(r"\[\d", text), "no dict, no list of ids"


def test_expression_previews_what_holding_back_costs() -> None:
    """'hold some back as “recessive genes”': the screen shows the best build of the
    play and what each card held back would change."""
    st = new(3, seed=1)
    seat = st.to_act()[0]
    rig_hand(
        st,
        seat,
        [
            "green 6 tentacle-brain",
            "green 1 tentacle-with-science",
            "green 3 segment",
            "purple 3 left arm",
            "purple 5 pincer",
        ],
    )
    text = screen(st.view(seat), [])
    assert "Playing these 5 cards: best build 32 points." in text
    assert "hold purple 5 pincer back: best build" in text
    pl = screen(st.view(seat), [], "pl")
    assert "Zagranie tych kart (5): najlepsza budowa to 32 punkty." in pl


def test_placing_shows_a_running_score_and_colour_symbols() -> None:
    """'Key to Color Symbols': orange #, blue O — a grid marks a card by its symbol,
    so orange never reads as blue."""
    st = new(3, seed=1)
    while st.phase != "growth":
        seat = st.to_act()[0]
        st.apply(seat, next(a for a in st.legal(seat) if str(a) == "express"))
    seat = st.to_act()[0]
    start = next(a for a in st.legal(seat) if str(a).startswith("start "))
    st.apply(seat, start)
    view = st.view(seat)
    text = screen(view, [])
    assert "Placed so far (the rest laid apart):" in text
    card = DECK[view["placing"][0][0]]
    symbol = {"orange": "#", "blue": "O", "green": "Θ", "purple": "∅"}.get(card.colour)
    if symbol:
        assert f"{symbol}{card.value}" in text


def test_discard_piles_are_shown_by_card_name() -> None:
    """'All gained cards go directly to a player's own Gene Pool Discard Pile'
    — face up, so the screen names them (not ids)."""
    st = play_out(new(3, seed=1), 1)
    view = st.view(0)
    other = next(p for p in view["players"] if p["seat"] != 0 and p["discard"])
    text = screen(view, [])
    names = [c.name for c in DECK if c.id in other["discard"]]
    assert all(n in text for n in names)
