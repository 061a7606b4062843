"""Issue 26, "The table, for players": the whole table in Polish.

- "Polish is half English": every log line of random games, every action
  label, phase name, seat kind and lobby option must read in Polish — a
  Polish line equal to the English one (beyond proper names: cards, families,
  Eras, people) or a placeholder left unfilled is a fault.
- "The Polish that exists has slips": each reported sentence is pinned here
  as the exact Polish it now reads.
- "never glue sentences from fragments … card names declined where a sentence
  needs a case: keep the cases … as DATA": the card-name cases live in
  ``locale/pl/nouns.toml``; a sentence picks one with ``{card:acc}``.

Random games: ``BESTIARY_POLISH_GAMES`` games per game (default: a few per
game, about 10 s in all; the issue's full count is ``BESTIARY_POLISH_GAMES=200``).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import bestiary
from bestiary.engine import Event, Rng
from bestiary.engine.registry import get_game
from bestiary.i18n import domain, use_language

PKG = Path(bestiary.__file__).resolve().parent
GAMES = ["meat", "monster-maker", "taxonomy", "teratozoic"]
PACKAGES = {
    "meat": "meat",
    "monster-maker": "monster_maker",
    "taxonomy": "taxonomy",
    "teratozoic": "teratozoic",
}
# Games per game in the default run (each game's random games take a different time).
DEFAULT_GAMES = {"meat": 60, "monster-maker": 6, "taxonomy": 25, "teratozoic": 12}
UNFILLED = re.compile(r"\{\w*(?:[:!][^{}]*)?\}|%\(\w+\)[sd]|%[sd]\b")
# Words both languages share: the games' own terms (kept as the Polish manual
# spells them or as numbers), measures and the like.
SHARED_WORDS = {"d", "k", "p", "vs", "ok", "front", "telestarion", "gold"}


def _games_of(game_id: str) -> int:
    full = os.environ.get("BESTIARY_POLISH_GAMES")
    return int(full) if full else DEFAULT_GAMES[game_id]


def _played(game_id: str, count: int) -> Iterator[tuple[Any, Any]]:
    """``count`` seeded random games at the game's usual seat counts."""
    game = get_game(game_id)
    seats = list(game.allowed_players())
    for seed in range(count):
        state = game.new(seats[seed % len(seats)], seed=26_000 + seed)
        rng = Rng(seed)
        for _ in range(6000):
            if state.over:
                break
            seat = state.to_act()[0]
            legal = state.legal(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
        yield game, state


# The event fields that hold names (cards, families, Eras, treasures): proper
# names, written as their data spells them. Every other text an event carries
# (a choice, a reason, a lane, a nature) is the game's words and must be told
# in Polish.
PROPER = {
    "card",
    "cards",
    "name",
    "family",
    "keys",
    "key",
    "type",
    "group",
    "leader",
    "spell",
    "monster",
    "weapon",
    "target_card",
    "aimed_card",
    "source",
    "by",
    "treasure",
    "treasures",
    "prize",
    "era",
    "party",
    "set",
    "destiny",
    "creatures",
}


def _texts(value: Any, named: bool = False) -> Iterator[tuple[str, bool]]:
    """Every text an event carries, with whether it sits under a ``PROPER`` field."""
    if isinstance(value, str):
        yield value, named
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _texts(v, named or k in PROPER)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _texts(v, named)


def _strings(value: Any) -> Iterator[str]:
    """The names an event carries (the texts under a ``PROPER`` field)."""
    return (text for text, named in _texts(value) if named)


def _game_words(value: Any) -> Iterator[str]:
    """The other texts an event carries (a choice, a reason, a lane): words of
    the game and its protocol, which a Polish line must say in Polish."""
    return (
        text
        for text, named in _texts(value)
        if not named and re.search(r"[A-Za-z]{2,}", text) and text.casefold() not in SHARED_WORDS
    )


def _proper_names(game: Any, state: Any, event: Event) -> list[str]:
    names = [s for s in _strings(event.data) if len(s) > 1]
    deck = getattr(state, "deck", None)
    names += [str(getattr(c, "name", c)) for c in (deck if isinstance(deck, list | tuple) else [])]
    for attr in ("names", "key_names"):  # Taxonomy's deck: card and family names
        names += [str(x) for x in getattr(deck, attr, ()) or ()]
    return sorted(set(names), key=len, reverse=True)


def _english_left(line: str, proper: list[str]) -> list[str]:
    """The English words of ``line`` once proper names and numbers are taken out."""
    rest = line
    for name in proper:
        rest = rest.replace(name, " ")
    rest = re.sub(r"\bseat \d+\b|\bSeat \d+\b", " ", rest)
    words = re.findall(r"[A-Za-z]{2,}", rest)
    return [w for w in words if w.casefold() not in SHARED_WORDS]


def _words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[^\W\d_]{2,}", re.sub(r"\{[^{}]*\}", " ", text))}


def _english_only_words(game_id: str) -> set[str]:
    """Words of the game's English messages that no Polish message uses: one of
    them in a Polish line is English left in it ("wybiera: rps paper")."""
    from babel.messages.pofile import read_po

    en: set[str] = set()
    pl: set[str] = set()
    for po in (PKG / "games" / PACKAGES[game_id] / "locale/pl/LC_MESSAGES").glob("*.po"):
        with po.open("rb") as fh:
            for m in read_po(fh):
                ids = m.id if isinstance(m.id, tuple) else (m.id,)
                strs = m.string if isinstance(m.string, tuple) else (m.string,)
                for i in ids:
                    en |= _words(str(i or ""))
                for x in strs:
                    pl |= _words(str(x or ""))
    return en - pl - SHARED_WORDS


@pytest.mark.parametrize("game_id", GAMES)
def test_every_event_of_random_games_reads_in_polish(game_id: str) -> None:
    """Issue 26: "Polish is half English" — a Polish line equal to the English
    one (beyond proper names) is untranslated; ``{…}``, ``%(…)s`` or ``%s`` left
    in a line is a placeholder nobody filled."""
    problems: dict[str, str] = {}
    english = _english_only_words(game_id)
    lines = 0
    for game, state in _played(game_id, _games_of(game_id)):
        for event in state.log.events:
            with use_language("pl"):
                pl = game.describe_event(event, None)
            with use_language("en"):
                en = game.describe_event(event, None)
            lines += 1
            if UNFILLED.search(pl) or UNFILLED.search(en):
                problems.setdefault(event.kind, f"unfilled placeholder: {pl!r} / {en!r}")
            proper = _proper_names(game, state, event)
            if pl == en and _english_left(en, proper):
                problems.setdefault(event.kind, f"untranslated: {pl!r}")
            rest = pl
            for name in proper:
                rest = rest.replace(name, " ")
            left = _words(rest) & english
            left |= {
                w
                for w in _game_words(event.data)
                if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", rest)
            }
            if left:
                problems.setdefault(event.kind, f"English words {sorted(left)} in {pl!r}")
    assert lines > 100
    assert not problems, "\n".join(f"{k}: {v}" for k, v in sorted(problems.items()))


# -- every label, phase, seat kind and lobby option has its Polish -----------------------------
def _describe(game_id: str) -> Any:
    import importlib

    return importlib.import_module(f"bestiary.games.{PACKAGES[game_id]}.describe")


def _pages_catalog() -> dict[str, str]:
    """What a page in Polish reads: the core and the game pages' catalogs, merged
    as ``GET /api/i18n/pl`` serves them."""
    from bestiary.i18n import core

    pages = domain("web-games", PKG / "web/games/x.js")
    return {**pages.catalog("pl"), **core.catalog("pl")}


def _untranslated(
    msgids: list[str], catalog: Mapping[str, str], same_ok: frozenset[str] = frozenset()
) -> list[str]:
    return [m for m in msgids if m not in same_ok and catalog.get(m, m) == m]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_action_has_a_polish_label(game_id: str) -> None:
    """Issue 26: "move texts on buttons and in the terminal ('draft…', 'pass',
    'discard…') … add a localized LABEL for each action, built per game from the
    action". Every label phrase is in the game's catalog in Polish, and every
    action of random games gets a Polish label that is not its English one."""
    from bestiary.i18n.labels import action_labels

    module = _describe(game_id)
    catalog = domain(PACKAGES[game_id], module.__file__).catalog("pl")
    phrases = [phrase for _rx, phrase in module.ACTION_LABELS]
    assert not _untranslated(phrases, catalog)
    same: list[str] = []
    texts: set[str] = set()
    game = get_game(game_id)
    for seed in range(3):
        state = game.new(game.default_players, seed=seed)
        rng = Rng(seed)
        for _ in range(400):
            if state.over:
                break
            seat = state.to_act()[0]
            legal = state.legal(seat)
            fresh = [a for a in legal if str(a) not in texts]
            texts |= {str(a) for a in fresh}
            with use_language("pl"):
                pl = action_labels(game, fresh)
            with use_language("en"):
                en = action_labels(game, fresh)
            same += [f"{a} -> {p}" for a, p, e in zip(fresh, pl, en, strict=True) if p == e]
            state.apply(seat, legal[rng.randrange(len(legal))])
    assert texts and not same, same[:10]


def test_the_server_sends_a_label_beside_each_legal_action() -> None:
    """Issue 26: "sending labels in the server's message beside `legal` (a
    `labels` list per language) so pages need only show them" — ``legal``
    stays the text forms a button submits."""
    from bestiary.server import messages

    game = get_game("meat")
    state = game.new(2, seed=3)
    seat = state.to_act()[0]
    table = {"seats": [{"kind": "human", "name": "Ala"}, {"kind": "bot", "agent": "normal"}]}
    update = messages.seat_update(game, state, seat, 0, 0, 0, table)
    legal = update["legal"]
    assert legal == [str(a) for a in state.legal(seat)] and legal[0].startswith("leader ")
    assert set(update["labels"]) == {"en", "pl"}
    assert all(len(update["labels"][lang]) == len(legal) for lang in ("en", "pl"))
    first = legal[0].removeprefix("leader ")
    forms = tomllib.loads((PKG / "games/meat/locale/pl/nouns.toml").read_text(encoding="utf-8"))
    assert update["labels"]["pl"][0] == f"wybierz na LIDERA {forms[first]['acc']}"
    assert update["labels"]["en"][0] == f"take {first} as your leader"


def _phases_seen(game_id: str) -> set[str]:
    phases: set[str] = set()
    for _game, state in _played(game_id, 3):
        phases.add(str(state.view(None).get("phase")))
    game = get_game(game_id)
    state = game.new(game.default_players, seed=1)
    rng = Rng(1)
    while not state.over:
        phases.add(str(state.view(None).get("phase")))
        seat = state.to_act()[0]
        legal = state.legal(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    phases.add(str(state.view(None).get("phase")))
    return phases


def _page_phase_names(page: str) -> dict[str, str]:
    """``PHASE_NAME`` of a game page: phase → its English name (marked N_)."""
    text = (PKG / "web/games" / page).read_text(encoding="utf-8")
    found = re.search(r"const PHASE_NAME = \{(.+?)\};", text)
    assert found, f"{page} names no phases"
    pairs = re.findall(r'(?:"([^"]+)"|(\w+)): N_\("([^"]+)"\)', found.group(1))
    return {quoted or bare: name for quoted, bare, name in pairs}


@pytest.mark.parametrize(
    ("game_id", "page"),
    [("meat", "meat.js"), ("taxonomy", "taxonomy.js"), ("teratozoic", "teratozoic.js")],
)
def test_every_phase_has_a_polish_name_on_the_page(game_id: str, page: str) -> None:
    """Issue 26: "'faza: discard' (phase names)" — every phase a game's view
    reports is named on its page, and the name is in the Polish catalog."""
    names = _page_phase_names(page)
    phases = _phases_seen(game_id)
    assert not phases - set(names), f"{page}: no name for {sorted(phases - set(names))}"
    assert not _untranslated([names[p] for p in phases], _pages_catalog())


def test_every_phase_has_a_polish_name_in_the_terminal() -> None:
    from bestiary.games.meat import render as meat
    from bestiary.games.teratozoic import render as teratozoic

    for phase in _phases_seen("meat"):
        with use_language("pl"):
            pl = domain("meat", meat.__file__)(meat._PHASES[phase])
        assert pl != meat._PHASES[phase], phase
    for phase in _phases_seen("teratozoic"):
        with use_language("pl"):
            pl = teratozoic._phase(phase)
        with use_language("en"):
            en = teratozoic._phase(phase)
        assert pl != en, phase


def test_every_seat_kind_is_named_in_polish() -> None:
    """Issue 26: seat kinds ("human", "heuristic", "bot normal") — every bot a
    game offers, the levels and a person are named in Polish, in the lobby (its
    BOT_NAMES, api.js) and by the server and terminal (``bestiary.i18n.agents``)."""
    from bestiary.engine.registry import all_games
    from bestiary.i18n import core
    from bestiary.i18n.agents import BOT_NAMES, seat_kind
    from bestiary.server.messages import seat_names

    agents = {"random", "easy", "normal", "hard"} | {a for g in all_games() for a in g.agents()}
    assert agents <= set(BOT_NAMES)
    pages = (PKG / "web/js/api.js").read_text(encoding="utf-8")  # the lobby's and the table's
    shown = dict(re.findall(r'(\w+): N_\("([^"]+ bot)"\)', pages))
    assert agents <= set(shown) and not _untranslated(list(shown.values()), core.catalog("pl"))
    for spec in ["human", *sorted(agents)]:
        with use_language("pl"):
            pl = seat_kind(spec)
        with use_language("en"):
            en = seat_kind(spec)
        assert pl != en and spec not in pl.split(), (spec, pl)
    table = {"seats": [{"kind": "bot", "agent": "normal", "name": "normal bot"}]}
    assert seat_names(table, "pl") == ("zwykły bot",)
    table = {"seats": [{"kind": "bot", "agent": "heuristic", "name": "heuristic bot"}]}
    assert seat_names(table, "pl") == ("heurystyczny bot",)


# Option words that are the same in Polish: version numbers.
SAME_IN_POLISH = frozenset({"v0.1", "v0.2"})


@pytest.mark.parametrize("game_id", GAMES)
def test_every_lobby_option_has_polish(game_id: str) -> None:
    """Issue 26: "every lobby option (lobby.js and the game's options/ruleset
    descriptions)": the lobby shows each option's name, help and choices and
    each variant through the catalog; each has its Polish."""
    info = get_game(game_id).info()
    words = list(info["variants"])
    for option in info["options"]:
        if option["path"]:  # file options are for the command line only
            continue
        words += [option["name"].replace("_", " "), option["help"]]
        words += [c for c in option["choices"] or [] if isinstance(c, str)]
    missing = _untranslated(words, _pages_catalog(), SAME_IN_POLISH)
    assert not missing, missing
    lobby = (PKG / "web/js/lobby.js").read_text(encoding="utf-8")
    assert "t(o.help)" in lobby and 't(o.name.replaceAll("_", " "))' in lobby


# -- the reported slips, as the exact Polish now produced ---------------------------------------
def _meat_line(kind: str, **data: Any) -> str:
    game = get_game("meat")
    with use_language("pl"):
        return game.describe_event(Event(0, kind, data), None)


def test_slip_target_of_a_buff_is_declined_not_cel_cel() -> None:
    """Was "+2 OBRONY (cel: cel)" (Zielarka, Medyk Polowy)."""
    from bestiary.games.meat.cards import load_cards
    from bestiary.games.meat.effects import card_text

    cards = {d.name: d for d in load_cards().defs}
    with use_language("pl"):
        assert card_text(cards["Zielarka"]) == "♦1 (cel: ISTOTA twojej drużyny): +2 OBRONY dla celu"
        assert card_text(cards["Bober"]) == "♦1: +2 OBRONY dla tej ISTOTY"
        assert card_text(cards["Zagłada"]) == "Cel: dowolna ISTOTA. zniszcz cel"
        assert (
            card_text(cards["Kwasowy Ślimak"])
            == "Po śmierci: zadaj ISTOCIE naprzeciwko 2 pkt obrażeń"
        )
        assert "(cel: cel)" not in " ".join(card_text(d) for d in cards.values())


def test_slip_a_card_laid_is_in_the_accusative() -> None:
    """Was "kładzie Kolczasta Zbroja"."""
    assert _meat_line("setting", seat=0, card="Kolczasta Zbroja") == (
        "  (gracz 0 kładzie Kolczastą Zbroję rewersem do góry)"
    )
    assert _meat_line("placing", seat=1, card="Medyk Polowy", lane="left") == (
        "  (gracz 1 kładzie Medyka Polowego na pozycji: lewa flanka)"
    )
    assert (
        _meat_line("leader", seat=0, leader="Kat z Wieży")
        == "Gracz 0 wybiera na LIDERA Kata z Wieży"
    )


def test_slip_a_card_agrees_with_its_gender() -> None:
    """Was "Deszcz Ognia opłacona": a word that goes with a card agrees with
    its grammatical gender (nouns.toml), or is a form without one."""
    assert _meat_line("resolved", card="Deszcz Ognia") == "Deszcz Ognia zostaje rozpatrzony"
    assert _meat_line("resolved", card="Wizja") == "Wizja zostaje rozpatrzona"
    assert _meat_line("resolved", card="Błogosławieństwo") == "Błogosławieństwo zostaje rozpatrzone"
    assert _meat_line("resolved", card="Kajdany") == "Kajdany zostają rozpatrzone"
    # The board's status beside a paid destiny card: "opłacono" goes with any card.
    from rich.console import Console

    from bestiary.games.meat import render

    game = get_game("meat")
    state = game.new(2, seed=0)
    rng = Rng(0)
    while True:
        view = state.view(0)
        paid = [
            d
            for f in view["field"]
            for d in f["destiny"]
            if d.get("card") and d["status"] == "paid"
        ]
        if paid:
            break
        seat = state.to_act()[0]
        legal = state.legal(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    console = Console(record=True, width=200, no_color=True)
    with use_language("pl"):
        console.print(render._board(view))
    board = console.export_text()
    assert f"{paid[0]['card']} (opłacono)" in board and "opłacona" not in board


def test_slip_draw_three_mutations_reads_with_any_number() -> None:
    """Was "dobierz 3 mutacji": the Era line of the page, whole for any count."""
    catalog = _pages_catalog()
    msgid = (
        "draw {m} mutations + {g} from your Gene Pool · play at least {min} · the winner gains "
        "{wp} from play + {wh} from hand · the others {oh} from hand"
    )
    said = catalog[msgid].format(m=3, g=1, min=3, wp=1, wh=1, oh=1)
    assert said == (
        "dobierz z Talii Mutacji: 3, z Puli Genów: 1 · zagraj co najmniej 3 · zwycięzca bierze z "
        "gry: 1, z ręki: 1 · pozostali biorą z ręki: 1"
    )


def test_slip_the_breeding_phase_is_named_in_good_polish() -> None:
    """Was "faza rozmnażanie": the phase's name follows "faza:" (a label, in the
    nominative) instead of standing where Polish wants the genitive."""
    catalog = _pages_catalog()
    msgid = (
        "Generation {n} · phase {phase} · Mutations Deck {deck} · Mutations Deck Discard Pile "
        "{discard} · Eras to come: {eras}"
    )
    phase = catalog["breeding (the winner takes)"]
    said = catalog[msgid].format(n=2, phase=phase, deck=40, discard=3, eras="Temnozoic Era")
    assert said == (
        "Pokolenie 2 · faza: rozmnażanie (zwycięzca bierze) · Talia Mutacji: 40 · odrzucone z "
        "Talii Mutacji: 3 · nadchodzące Ery: Temnozoic Era"
    )


def test_slip_a_seat_in_a_sentence_is_a_player() -> None:
    """Was "którą odrzuca miejsce 0": seats are people."""
    game = get_game("taxonomy")
    for _game, state in _played("taxonomy", 10):
        claimed = [e for e in state.log.events if e.kind == "claimed"]
        if claimed:
            break
    event = claimed[0]
    with use_language("pl"):
        line = game.describe_event(event, None)
    d = event.data
    card = d["card"]["name"]
    assert re.match(
        rf"Gracz {d['seat']} przejmuje kartę {re.escape(card)}( \([^)]*\))?, którą odrzuca "
        rf"gracz {d['discarder']}, i wykłada zestaw ",
        line,
    ), line
    assert "miejsce" not in line


def test_every_meat_name_has_its_cases() -> None:
    """The cases are data beside the card names: every card and leader of the
    card set (and every phrase a card text aims at) has its gender and cases."""
    from bestiary.games.meat.cards import load_cards
    from bestiary.games.meat.effects import _TO_TEXT

    forms = tomllib.loads((PKG / "games/meat/locale/pl/nouns.toml").read_text(encoding="utf-8"))
    cs = load_cards()
    meat = domain("meat", PKG / "games/meat/describe.py")
    with use_language("pl"):
        names = [d.name for d in cs.defs] + [x.name for x in cs.leaders]
        names += [meat(text) for text in _TO_TEXT.values()]
    missing = [n for n in names if n not in forms]
    assert not missing, missing
    for name in names:
        assert forms[name]["gender"] in {"m", "f", "n", "pl"}
        assert {"gen", "dat", "acc", "ins", "loc"} <= set(forms[name]), name


# -- the page shows the labels and submits the text forms ----------------------------------------
_DOM = """
class El {
  constructor(tag) { this.tag = tag; this.children = []; this.attrs = {}; this.dataset = {}; }
  append(...c) { this.children.push(...c); }
  prepend(...c) { this.children.unshift(...c); }
  setAttribute(k, v) { this.attrs[k] = v; if (k.startsWith("data-")) this.dataset[k.slice(5)] = v; }
  addEventListener() {}
  querySelectorAll() { return []; }
  get textContent() {
    return this.children.map((c) => (typeof c === "string" ? c : c.textContent)).join("");
  }
}
globalThis.Node = El;
globalThis.document = { createElement: (t) => new El(t), createTextNode: (s) => s };
globalThis.navigator = { languages: ["pl-PL"], language: "pl-PL" };
"""


def test_the_generic_page_shows_labels_and_submits_text_forms() -> None:
    """Issue 26: "have the page … show the label while still submitting the
    text form" (js/generic.js: every game's leftover buttons)."""
    import json
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    generic = (PKG / "web/js/generic.js").as_uri()
    legal = ["discard Werecat", "pass"]
    labels = {"en": ["discard Werecat", "pass"], "pl": ["odrzuć Werecat", "pasuj"]}
    script = f"""{_DOM}
const g = await import({json.dumps(generic)});
const legal = {json.dumps(legal)};
const state = {{ legal, labels: g.actionLabels(legal, {json.dumps(labels)}) }};
const box = g.actionButtons(state, {{ act() {{}} }});
const buttons = box.children.flatMap((row) => row.children.filter((c) => c.tag === "button"));
console.log(JSON.stringify(buttons.map((b) => [b.attrs["data-action"], b.textContent])));
"""
    out = subprocess.run(
        [node, "--input-type=module"], input=script, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [["discard Werecat", "odrzuć Werecat"], ["pass", "pasuj"]]


def test_the_terminal_shows_labels_and_accepts_them() -> None:
    """Issue 26: the terminal's choices are the Polish labels ("odrzuć
    Werecat", not "discard Werecat"); typing a label or the text form plays
    the same move."""
    from typer.testing import CliRunner

    from bestiary.cli import app

    def play(lines: list[str]) -> str:
        res = CliRunner().invoke(
            app,
            ["--lang", "pl", "play", "taxonomy", "--seed", "3", "--plain"],
            input="\n".join(lines) + "\n",
        )
        assert "Traceback" not in res.output
        return res.output

    said = play(["quit"])
    assert "   1 odrzuć Werecat" in said and "discard Werecat" not in said
    for typed in ("odrzuć werecat", "discard werecat"):
        assert "Gracz 0 (ty) odrzuca Werecat" in play([typed, "log", "quit"])


def test_every_case_a_catalog_asks_for_exists() -> None:
    """A Polish sentence picks a name's case with a format spec (``{card:acc}``,
    ``{card:g:…|…}``); every spec in every catalog is one ``nouns.py`` knows."""
    from babel.messages.pofile import read_po

    from bestiary.i18n.nouns import CASES

    bad = []
    for po in PKG.rglob("locale/pl/LC_MESSAGES/*.po"):
        with po.open("rb") as fh:
            for m in read_po(fh):
                strings = m.string if isinstance(m.string, tuple) else (m.string,)
                for text in strings:
                    # A word of three or more letters is a case ({n:g} is a number's format).
                    for spec in re.findall(r"\{\w+:([a-z]{3,}|g:[^{}]*)\}", str(text or "")):
                        if spec not in CASES and not re.fullmatch(r"g:[^|]+(\|[^|]+){2,3}", spec):
                            bad.append(f"{po.name}: {m.id!r}: {spec}")
    assert not bad, bad
