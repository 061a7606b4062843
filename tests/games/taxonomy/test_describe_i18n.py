"""Taxonomy log lines and screens in English and Polish, with the table's names,
in words (never Python data), each explained by a rule (issue 13)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from rich.console import Console

from bestiary.engine import Rng
from bestiary.engine.eventrules import sections
from bestiary.engine.events import Event
from bestiary.games.taxonomy import GAME
from bestiary.games.taxonomy import describe as describe_module
from bestiary.games.taxonomy.describe import describe
from bestiary.games.taxonomy.render import group_of
from bestiary.games.taxonomy.rules import TaxonomyState
from bestiary.i18n import use_language

from .helpers import arrange, state

PACKAGE = Path(describe_module.__file__).resolve().parent
CATALOG = PACKAGE / "locale" / "pl" / "LC_MESSAGES" / "taxonomy.po"
RULEBOOK = PACKAGE.parents[2].parent / "shared" / "seeds" / "000_b7149b74ded4a331.txt"
NAMES = ["Ann", "Bob", "Cy", "Dee"]
KAPPA = {"name": "Kappa", "natures": ["mean"]}
PROUD = {"name": "Dragon", "natures": ["proud"]}


def emitted_kinds() -> set[str]:
    """Every event kind the rules can emit (the ``emit("kind", ...)`` calls of
    every module of the package: rules.py is split into layers)."""
    kinds: set[str] = set()
    for module in PACKAGE.glob("*.py"):
        source = module.read_text(encoding="utf-8")
        kinds |= set(re.findall(r"emit\(\s*\"(\w+)\"", source))
    return kinds


def random_game(seed: int, players: int = 4) -> TaxonomyState:
    st = GAME.new(players, seed=seed)
    assert isinstance(st, TaxonomyState)
    rng = Rng(seed)
    while not st.over:
        seat = st.to_act()[0]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
    return st


def scenario_events() -> list[Event]:
    """A game's events plus a won round and an honest claim (random play rarely
    shows those): every kind the rules emit, as some seat sees it."""
    events: list[Event] = []
    for seed in (0, 1):
        st = random_game(seed)
        events += [e for s in range(4) for e in st.events_since(0, s)]
    st = arrange(state(4), {0: ["Sea Bishop"], 1: ["Mermaid", "Merrow", "Unagi Joro"]})
    st.apply_text(0, "discard Sea Bishop")
    st.apply_text(1, "claim Piscine")
    events += st.events_since(0, 1)
    won = arrange(
        state(4),
        {0: ["Mummy", "Zombie", "Lich", "Jiangshi", "Scylla", "Kraken", "Giant Slug"]},
        stock=["Mindflayer"],
    )
    won.apply_text(0, "win")
    return events + won.events_since(0, 0)


# -- English and Polish lines ------------------------------------------------------
def test_a_sample_of_lines_in_english_and_polish() -> None:
    """Rules v0.2: "Mean/selfish: when discarded, such a monster takes revenge on the
    player, and causes him to have to discard an additional random card." — "Gramy w
    papier kamień nożyce [...] Gracz który przegrał traci turę." Each line is a whole
    sentence of the catalog, with the natures as the Polish rules name them."""
    forced = Event(0, "discarded", {"seat": 2, "card": KAPPA, "why": "mean", "aside": False})
    rps = Event(
        1,
        "rps",
        {"attacker": 0, "target": 1, "choices": ["rock", "scissors"], "loser": 1},
    )
    won = Event(2, "won", {"seat": 3, "pattern": "4+4", "points": 6})
    over = Event(3, "game_over", {"scores": [0, 4, 4, 0], "winners": [1, 2]})
    with use_language("en"):
        assert describe(forced, NAMES) == (
            "A mean monster takes revenge: Cy discards Kappa (mean) at random"
        )
        assert describe(rps, NAMES) == (
            "Rock-paper-scissors: Ann plays rock, Bob plays scissors; Bob loses their next turn"
        )
        assert describe(won, NAMES) == "Dee wins the round with two sets of 4: 6 points"
        assert describe(over, NAMES) == (
            "Game over: Ann 0, Bob 4, Cy 4, Dee 0. Bob and Cy share the win."
        )
    with use_language("pl"):
        assert describe(forced, NAMES) == (
            "Złośliwa potworzyca mści się: Cy odrzuca losową kartę Kappa (złośliwa)"
        )
        assert describe(rps, NAMES) == (
            "Papier, kamień, nożyce: Ann pokazuje kamień, Bob pokazuje nożyce; "
            "Bob traci następną turę"
        )
        assert describe(won, NAMES) == "Dee wygrywa rundę, mając dwa zestawy po 4: 6 punktów"
        assert describe(over, NAMES) == (
            "Koniec gry: Ann: 0, Bob: 4, Cy: 4, Dee: 0. Bob i Cy dzielą się zwycięstwem."
        )


@pytest.mark.parametrize(("points", "word"), [(1, "punkt"), (3, "punkty"), (5, "punktów")])
def test_polish_plurals_follow_the_number(points: int, word: str) -> None:
    """Polish has three forms: 1 punkt, 2–4 punkty, 5+ punktów."""
    event = Event(0, "won", {"seat": 0, "pattern": "8", "points": points})
    with use_language("pl"):
        assert describe(event, NAMES) == f"Ann wygrywa rundę, mając zestaw 8: {points} {word}"


def test_the_end_of_a_won_round_is_told_once() -> None:
    """A won round was told twice ("Seat 0 wins the round with two sets of 4:
    2 points", then "Round 1 ends: seat 0 scores 2 points with two sets of 4"):
    the round's end now only closes it; a round nobody won still says why. A
    lost turn says why it is lost: "The player who loses loses a turn." """
    won = Event(0, "round_end", {"round": 2, "winner": 0, "pattern": "8", "points": 3})
    skip = Event(1, "skipped", {"seat": 1})
    with use_language("en"):
        assert describe(won, NAMES) == "End of round 2"
        assert describe(skip, NAMES) == (
            "Bob sits this turn out, having lost at rock-paper-scissors"
        )
    with use_language("pl"):
        assert describe(won, NAMES) == "Koniec rundy 2"
        assert describe(skip, NAMES) == (
            "Bob pauzuje w tej turze po przegranej w papier, kamień, nożyce"
        )


def test_no_doubled_tags_and_no_reason_that_looks_like_a_nature() -> None:
    """A card's natures show once, in brackets; why it left the hand is a clause
    ("it follows the proud monster"), never a bracketed tag like a nature."""
    card = {"name": "Dragon", "natures": ["proud", "proud"]}
    for why in ("chosen", "mean", "cheerful", "proud"):
        for aside in (False, True):
            event = Event(0, "discarded", {"seat": 0, "card": card, "why": why, "aside": aside})
            line = describe(event, NAMES)
            assert line.count("(proud)") == 1 and "(proud) (" not in line, line
            assert not re.search(r"\((mean|cheerful|chosen)\)", line), line


# -- names, words and rules over whole games -----------------------------------
def test_every_line_of_random_games_uses_names_and_words_in_both_languages() -> None:
    """No "seat N" when the table has names; no "[" or "{" of a Python list or dict."""
    events = scenario_events()
    for lang in ("en", "pl"):
        with use_language(lang):
            for e in events:
                line = GAME.describe_event(e, NAMES)
                assert line and not re.search(r"[\[\]{}]", line), (e.kind, line)
                assert not re.search(r"\bseat \d", line), (e.kind, line)
                assert "=" not in line.replace("2d20-4", ""), (e.kind, line)


def test_every_emitted_kind_has_a_line_and_a_rule() -> None:
    """Issue 13: "each event carries the rule that caused it (a RULES.md anchor)"."""
    kinds = emitted_kinds()
    assert len(kinds) >= 19 and {"claimed", "won", "saw_hand", "rps"} <= kinds
    assert kinds <= describe_module.KINDS
    seen = {e.kind for e in scenario_events()}
    assert seen == kinds, "the scenario shows every kind the rules emit"
    anchors = sections(PACKAGE / "RULES.md")
    for kind in kinds:
        rule = GAME.event_rule(kind)
        assert rule is not None, kind
        assert rule.anchor in anchors and rule.section.startswith("#"), kind
        assert rule.quote and rule.title, kind


def test_rule_quotes_are_the_rulebooks_words() -> None:
    """Each quote is the English text of rules v0.2 word for word (spacing folded);
    each has its Polish counterpart."""
    import tomllib

    table = tomllib.loads((PACKAGE / "data" / "event_rules.toml").read_text(encoding="utf-8"))
    for entry in table.values():
        assert entry["quote"].strip() and entry["quote_pl"].strip()
    if not RULEBOOK.exists():
        pytest.skip("the rulebooks (../shared/seeds) are not beside this checkout")
    book = " ".join(RULEBOOK.read_text(encoding="utf-8").split())
    for kind, entry in table.items():
        assert " ".join(entry["quote"].split()) in book, kind


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
def screen(view: dict, events: list[Event], lang: str = "en") -> str:
    console = Console(width=200, record=True)
    with use_language(lang):
        console.print(GAME.render(view, events))
    return console.export_text()


def test_render_shows_every_event_given_and_speaks_polish() -> None:
    """The CLI passes every event since the last decision: none may be cut."""
    st = random_game(5, players=3)
    events = st.events_since(0, 0)[-40:]
    text = screen(st.view(0), events, "pl")
    for e in events:
        with use_language("pl"):
            assert GAME.describe_event(e) in text
    assert "Twoja ręka" in text and "Gracze" in text and "Co się wydarzyło" in text


def test_the_prompt_offers_table_and_win_only_when_legal() -> None:
    """Reading 2: `win` is offered after a draw of one's own turn; "When you draw
    another card of this type you can add it to the table": `table` only then."""
    st = arrange(
        state(4),
        {0: ["Mummy", "Zombie", "Lich", "Jiangshi", "Scylla", "Kraken", "Giant Slug"]},
        stock=["Mindflayer"],
    )
    legal = [str(a) for a in st.legal(0)]
    assert "win" in legal
    text = screen(st.view(0), [])
    assert "you may declare the win" in text and "laid set" not in text
    plain = arrange(state(4), {}, stock=["Slime"])
    assert "win" not in [str(a) for a in plain.legal(0)]
    text = screen(plain.view(0), [])
    assert "Discard 1 card." in text and "declare the win" not in text and "laid set" not in text


def test_the_players_table_shows_claims_and_turns_to_lose_and_bans_are_marked() -> None:
    """ "The player who loses loses a turn." / "you can no longer collect cards with
    this type for the rest of the game" — both visible on the table screen."""
    st = arrange(state(4), {0: ["Hornet", "Harpy", "Fairy"], 1: ["Mummy", "Zombie", "Lich"]})
    st.apply_text(0, "discard Hornet")
    st.apply_text(0, "attack 2")
    st.apply_text(0, "rps rock")
    st.apply_text(2, "rps scissors")
    view = st.view(0)
    assert view["skips"][2] == 1
    text = screen(view, [])
    assert "turns to lose" in text and "claims" in text
    row = next(line for line in text.splitlines() if line.startswith("│ seat 2"))
    assert re.search(r"│\s*0\s*│\s*1\s*│", row), row
    card = view["hand"][0]
    view["bans"][0] = [group_of(card)]
    line = next(x for x in screen(view, []).splitlines() if card["name"] in x and "│" in x)
    assert "(banned)" in line


def test_honest_peeks_and_seen_hands_read_as_card_lists() -> None:
    st = arrange(state(4), {0: ["Sea Bishop"], 1: ["Mermaid", "Merrow", "Unagi Joro"]})
    st.apply_text(0, "discard Sea Bishop")
    st.apply_text(1, "claim Piscine")
    text = screen(st.view(1), [])
    line = next(x for x in text.splitlines() if "An honest monster told you" in x)
    assert "seat 0 held:" in line and "{" not in line and "'name'" not in line
