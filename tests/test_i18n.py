"""English and Polish everywhere, and a rule behind every log line.

- Every message marked in the code (Python ``_``/``N_``/``ngettext``, JavaScript
  ``t``/``tn``, HTML ``data-i18n``) is extracted with Babel, package by package,
  and must have a Polish translation in that package's catalog: not empty, not
  fuzzy, with the same ``{placeholders}`` (a ``{name}`` in English appears in
  Polish) and three plural forms.
- The CLI and the pages render in Polish when asked (``--lang pl``, the
  environment, the toggle or the browser's language) and in English otherwise.
- Every event kind a game can emit (seen in random games, plus every
  ``emit("kind")`` in its source) maps to an existing section of its RULES.md.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from typer.testing import CliRunner

import bestiary
from bestiary.engine import Rng
from bestiary.engine.eventrules import sections, table, titles
from bestiary.engine.registry import all_games, get_game
from bestiary.i18n import _plural_index, language, set_language, use_language

PKG = Path(bestiary.__file__).resolve().parent
KEYWORDS: dict[str, Any] = {
    "_": None,
    "gettext": None,
    "N_": None,
    "ngettext": (1, 2),
    "t": None,
    "tn": (1, 2),
}
HTML = "bestiary.i18n.extract.extract_html"
POLISH_PLURALS = (
    "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
)


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """The CLI sets the language of this thread: put English back for other tests."""
    before = language()
    yield
    set_language(before)


# -- catalogs -------------------------------------------------------------------------------
def _catalogs() -> list[tuple[str, Path, list[tuple[str, str]], Path]]:
    """(name, directory, method map, Polish .po) for every package that speaks to players."""
    core_map = [
        ("cli/**.py", "python"),
        ("server/**.py", "python"),
        ("engine/**.py", "python"),
        ("agents/base.py", "python"),
        ("i18n/**.py", "python"),
        ("lab/**.py", "python"),
        ("web/js/**.js", "javascript"),
        ("web/*.html", HTML),
    ]
    found = [("core", PKG, core_map, PKG / "i18n/locale/pl/LC_MESSAGES/bestiary.po")]
    for pkg in sorted(p for p in (PKG / "games").iterdir() if (p / "__init__.py").exists()):
        pos = sorted((pkg / "locale/pl/LC_MESSAGES").glob("*.po"))
        po = pos[0] if pos else pkg / "locale/pl/LC_MESSAGES" / f"{pkg.name.replace('_', '-')}.po"
        found.append((pkg.name, pkg, [("**.py", "python")], po))
    web_games = PKG / "web/games"
    found.append(
        (
            "web-games",
            web_games,
            [("**.js", "javascript")],
            web_games / "locale/pl/LC_MESSAGES/web-games.po",
        )
    )
    return found


CATALOGS = _catalogs()


def _extract(directory: Path, method_map: list[tuple[str, str]]) -> dict[Any, list[str]]:
    messages: dict[Any, list[str]] = {}
    for filename, lineno, message, _comments, context in extract_from_dir(
        str(directory), method_map, {}, keywords=KEYWORDS
    ):
        if context is not None:
            continue
        messages.setdefault(message, []).append(f"{filename}:{lineno}")
    return messages


def _names(text: str) -> set[str]:
    """The {placeholders} of a message (``{{`` is a literal brace)."""
    return set(re.findall(r"(?<!\{)\{(\w*)(?:[:!][^{}]*)?\}", text))


def _problems(messages: dict[Any, list[str]], catalog: Catalog) -> list[str]:
    problems = []
    for msgid, where in messages.items():
        at = where[0]
        entry = catalog.get(msgid)
        if (
            entry is None
            or not entry.string
            or (isinstance(entry.string, tuple) and not all(entry.string))
        ):
            problems.append(f"{at}: no Polish for {msgid!r}")
            continue
        if entry.fuzzy:
            problems.append(f"{at}: the Polish for {msgid!r} is marked fuzzy")
            continue
        if isinstance(msgid, tuple):
            need = _names(msgid[0]) | _names(msgid[1])
            forms = list(entry.string)
            if len(forms) != 3:
                problems.append(f"{at}: {msgid[0]!r} needs 3 Polish plural forms, has {len(forms)}")
            for form in forms:
                have = _names(form)
                if not (need - {"n"} <= have <= need):
                    problems.append(f"{at}: {form!r} has {sorted(have)}, English {sorted(need)}")
        elif _names(msgid) != _names(entry.string):
            problems.append(
                f"{at}: placeholders differ: {msgid!r} has {sorted(_names(msgid))}, "
                f"{entry.string!r} has {sorted(_names(entry.string))}"
            )
    return problems


@pytest.mark.parametrize(
    ("name", "directory", "method_map", "po"), CATALOGS, ids=[c[0] for c in CATALOGS]
)
def test_every_message_has_a_polish_translation(
    name: str, directory: Path, method_map: list[tuple[str, str]], po: Path
) -> None:
    messages = _extract(directory, method_map)
    if not messages:
        pytest.skip(f"{name} marks no messages for translation")
    if not po.exists():
        pytest.xfail(f"{name} marks {len(messages)} messages but has no Polish catalog yet ({po})")
    with po.open("rb") as fh:
        catalog = read_po(fh, locale="pl")
    assert catalog.plural_forms == POLISH_PLURALS, f"{po}: Plural-Forms header"
    problems = _problems(messages, catalog)
    assert not problems, f"{po.relative_to(PKG.parent)}:\n" + "\n".join(problems[:40])


def test_the_core_catalog_covers_the_cli_the_server_and_the_pages() -> None:
    """The extraction really reaches every kind of source (a broken method map
    would pass the test above with nothing to check)."""
    messages = _extract(PKG, CATALOGS[0][2])
    files = {w.split(":")[0].split("/")[0] for where in messages.values() for w in where}
    assert {"cli", "server", "web"} <= files
    kinds = {Path(w.split(":")[0]).suffix for where in messages.values() for w in where}
    assert {".py", ".js", ".html"} <= kinds
    assert "Game log" in messages and "What you may do now:" in messages


def test_polish_plural_forms_follow_the_catalog_rule() -> None:
    def gettext_rule(n: int) -> int:  # the Plural-Forms expression, as written
        return 0 if n == 1 else 1 if 2 <= n % 10 <= 4 and (n % 100 < 10 or n % 100 >= 20) else 2

    for n in [*range(0, 130), 1001, 1002, 1005, 1012, 1022]:
        assert _plural_index("pl", n) == gettext_rule(n), n
    with use_language("pl"):
        from bestiary.i18n import core

        forms = [
            core.ngettext("{verb} ({n} choice)", "{verb} ({n} choices)", n) for n in (1, 3, 5, 22)
        ]
    assert forms == [
        "{verb} ({n} opcja)",
        "{verb} ({n} opcje)",
        "{verb} ({n} opcji)",
        "{verb} ({n} opcje)",
    ]


# -- the CLI in both languages ----------------------------------------------------------------
def _play(args: list[str], lines: list[str], env: dict[str, str] | None = None) -> str:
    from bestiary.cli import app

    res = CliRunner().invoke(
        app,
        [*args, "play", "taxonomy", "--seed", "3", "--plain"],
        input="\n".join(lines) + "\n",
        env=env,
    )
    assert "Traceback" not in res.output
    return res.output


def test_the_cli_speaks_polish_when_asked_and_english_otherwise() -> None:
    moves = ["help", "log", "why 1", "card zzz", "quit"]
    pl = _play(["--lang", "pl"], moves, env={"BESTIARY_LANG": "en"})
    en = _play(["--lang", "en"], moves, env={"BESTIARY_LANG": "pl"})
    for english, polish in [
        ("What you may do now:", "Co możesz teraz zrobić:"),
        ("Commands you can type at any prompt:", "Polecenia, które możesz wpisać"),
        ("Seat 0, your move:", "Gracz 0, twój ruch:"),
        ("No card is called 'zzz'.", "Żadna karta nie nazywa się 'zzz'."),
        ("What happened (lines", "Co się wydarzyło (wiersze"),
    ]:
        assert english in en and english not in pl
        assert polish in pl and polish not in en
    # The game's own log lines follow the same language (its catalog, its describe).
    assert "seat 0 (you)" in en and "gracz 0 (ty)" in pl  # a seat in a sentence is a player


def test_help_is_polish_with_lang_before_the_command() -> None:
    import os
    import subprocess

    exe = Path(sys.executable).with_name("bestiary")
    env = {**os.environ, "BESTIARY_LANG": "en", "COLUMNS": "200"}
    pl = subprocess.run(
        [str(exe), "--lang", "pl", "play", "--help"], capture_output=True, text=True, env=env
    )
    en = subprocess.run([str(exe), "play", "--help"], capture_output=True, text=True, env=env)
    assert pl.returncode == en.returncode == 0
    assert "Zagraj w terminalu z botami" in pl.stdout and "ziarno losowania" in pl.stdout
    assert "Play a game in the terminal against bots" in en.stdout
    assert "random seed (default: a random one)" in en.stdout


def test_a_describer_without_names_still_makes_log_lines() -> None:
    """A game written before describers took the seats' names keeps its log."""
    from bestiary.cli.history import History
    from bestiary.engine.protocol import Game
    from bestiary.server.messages import event_json

    from .engine.toygame import GAME

    class OldStyle(type(GAME)):  # type: ignore[misc]
        def describe_event(self, event: Any) -> str:  # type: ignore[override]
            return f"old {event.kind}"

    old: Game = OldStyle()
    state = old.new(2, seed=1)
    for _ in range(6):
        seat = state.to_act()[0]
        state.apply(seat, state.legal(seat)[0])
    event = state.events_since(0, None)[0]
    assert event_json(old, event, ["Ala", "Bolek"])["texts"] == {
        "en": f"old {event.kind}",
        "pl": f"old {event.kind}",
    }
    assert History(old, ["Ala", "Bolek"]).new_lines(state, None)[0] == f"old {event.kind}"


def test_the_language_comes_from_the_environment_without_lang() -> None:
    out = _play([], ["help", "quit"], env={"BESTIARY_LANG": "pl_PL.UTF-8"})
    assert "Co możesz teraz zrobić:" in out
    out = _play(
        [],
        ["help", "quit"],
        env={"BESTIARY_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"},
    )
    assert "What you may do now:" in out


def test_an_unknown_language_is_a_clean_error() -> None:
    from bestiary.cli import app

    res = CliRunner().invoke(app, ["--lang", "xx", "games"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    said = " ".join(res.output.replace("│", " ").split())  # Rich draws a box around it
    assert "'xx' is not a language here; choose one of: en, pl" in said


def test_why_prints_the_rule_behind_a_log_line() -> None:
    out = _play(["--lang", "en"], ["log", "why 2", "why 99", "quit"])
    game = get_game("taxonomy")
    state = game.new(4, seed=3)
    second = state.events_since(0, 0)[1]
    rule = game.event_rule(second.kind)
    if rule is None:
        assert "No rule is recorded for this kind of line yet." in out
    else:
        assert f"Rule: {rule.title}" in out
        assert f"The rulebook says: “{rule.quote}”" in out
    assert "why takes the number of a log line, from 1 to" in out


# -- the server's log entries ---------------------------------------------------------------
def test_log_entries_carry_both_languages_names_and_their_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bestiary.server import messages

    game = get_game("taxonomy")
    state = game.new(3, seed=1)
    table = {"seats": [{"name": "Ala"}, {"name": "Bolek"}, {"name": None}]}
    built: list[int] = []
    real = messages._payload

    def counting(g: Any, e: Any, n: Any) -> dict[str, Any]:
        built.append(e.index)
        return real(g, e, n)

    monkeypatch.setattr(messages, "_payload", counting)
    messages._cache.clear()
    spectators = [messages.seat_update(game, state, None, 0, 0, 0, table) for _ in range(3)]
    events = spectators[0]["events"]
    assert events and all(s["events"] == events for s in spectators)
    assert sorted(built) == sorted({e.index for e in state.events_since(0, None)})  # once each
    for item in events:
        assert set(item["texts"]) == {"en", "pl"} and item["text"] == item["texts"]["en"]
        assert "seat 0" not in item["text"]  # the table's name, not the number
        rule = game.event_rule(item["event"]["kind"])
        shown = dict(item["rule"] or {})
        quotes = shown.pop("quotes", None)
        titles = shown.pop("titles", None)
        quoted_in = shown.pop("quote_languages", None)
        assert (shown or None) == (rule.to_json() if rule else None)
        if rule is not None:  # the rulebook's words in each language it has them in
            with use_language("pl"):
                polish = game.event_rule(item["event"]["kind"])
            assert quotes == {"en": rule.quote, "pl": polish.quote if polish else ""}
            assert titles == {"en": rule.title, "pl": polish.title if polish else ""}
            pl_quoted = polish.quote_language if polish else ""
            assert quoted_in == {"en": rule.quote_language, "pl": pl_quoted}
    deal = next(e for e in events if e["event"]["kind"] == "round")
    assert "Ala" in deal["texts"]["en"] and "Ala" in deal["texts"]["pl"]
    assert deal["texts"]["en"] != deal["texts"]["pl"]


def test_the_pages_catalog_endpoint_merges_core_and_game_pages() -> None:
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from bestiary.server.i18n_api import router

    app = FastAPI()
    app.include_router(router)
    client = TestClient(app)
    pl = client.get("/api/i18n/pl-PL").json()
    assert pl["lang"] == "pl" and pl["messages"]["Game log"] == "Przebieg gry"
    assert pl["messages"]["the deal ({n} move follows)\x001"] == "rozdanie (potem {n} ruchy)"
    assert client.get("/api/i18n/en").json()["messages"] == {}
    web_games = PKG / "web/games/locale/pl/LC_MESSAGES/web-games.po"
    if web_games.exists():  # the game pages' words come in the same answer
        with web_games.open("rb") as fh:
            theirs = {
                m.id: m.string
                for m in read_po(fh, locale="pl")
                if isinstance(m.id, str) and m.id and m.string and not m.fuzzy
            }
        from bestiary.i18n import core

        ours = core.catalog("pl")  # the core catalog wins a clash
        served = {k: pl["messages"].get(k) for k in theirs if k not in ours}
        assert served and served == {k: theirs[k] for k in served}
    r = client.get("/api/i18n/xx")
    assert r.status_code == 404 and "en, pl" in r.json()["detail"]
    # Every marked word of the three pages is in the Polish catalog.
    marked = _extract(PKG, [("web/*.html", HTML)])
    assert marked and not [m for m in marked if m not in pl["messages"]]


# -- every event kind has its rule ------------------------------------------------------------
def _package_dir(game: Any) -> Path:
    return Path(sys.modules[type(game).__module__].__file__ or "").resolve().parent


def _kinds_in_source(pkg: Path) -> set[str]:
    found: set[str] = set()
    for path in pkg.rglob("*.py"):
        found |= set(
            re.findall(r"\bemit\(\s*[\"']([\w\- ]+)[\"']", path.read_text(encoding="utf-8"))
        )
    return found


def _kinds_played(game: Any, games: int = 3, moves: int = 4000) -> set[str]:
    kinds: set[str] = set()
    counts = sorted({game.min_players, game.default_players, *game.allowed_players()[-1:]})
    for variant in game.variants:
        for k, players in enumerate(counts):
            for seed in range(games):
                state = game.new(players, seed=1000 * k + seed, variant=variant)
                rng = Rng(seed)
                for _ in range(moves):
                    if state.over:
                        break
                    seat = state.to_act()[0]
                    legal = state.legal(seat)
                    state.apply(seat, legal[rng.randrange(len(legal))])
                kinds |= {e.kind for e in state.log.events}
    return kinds


GAMES = sorted(g.id for g in all_games())


@pytest.mark.parametrize("game_id", GAMES)
def test_every_event_kind_maps_to_a_rules_section(game_id: str) -> None:
    game = get_game(game_id)
    pkg = _package_dir(game)
    if not (pkg / "data" / "event_rules.toml").exists():
        pytest.xfail(f"{game_id} has no data/event_rules.toml yet (being written)")
    kinds = _kinds_played(game) | _kinds_in_source(pkg)
    assert kinds, "no event kinds found"
    anchors = sections(pkg / "RULES.md")
    problems = []
    for kind in sorted(kinds):
        rule = game.event_rule(kind)
        if rule is None:
            problems.append(f"{kind}: not in data/event_rules.toml")
        elif rule.anchor not in anchors:
            problems.append(f"{kind}: anchor {rule.anchor!r} is no heading of RULES.md")
        elif not rule.quote.strip():
            problems.append(f"{kind}: no rulebook quote")
    assert not problems, f"{game_id}:\n" + "\n".join(problems)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rule_a_log_line_names_has_a_players_title_in_each_language(game_id: str) -> None:
    """A Polish page said "Reguła: Dealing" and "Reguła: Building monsters
    (`tiles.py`)": the title was RULES.md's heading, English and naming code.
    Every rule a log line points at has a title in English and in Polish
    (``data/rule_titles.toml``), with no code in it, and ``why N`` / the page
    show the reader's."""
    game = get_game(game_id)
    pkg = _package_dir(game)
    if not (pkg / "data" / "event_rules.toml").exists():
        pytest.skip(f"{game_id} has no data/event_rules.toml")
    anchors = {entry["anchor"] for entry in table(pkg).values() if entry.get("anchor")}
    names = titles(pkg)
    for lang in ("en", "pl"):
        missing = sorted(anchors - set(names.get(lang, {})))
        assert not missing, f"{game_id}: no {lang} title for {missing}"
        coded = [t for t in names[lang].values() if "`" in t or ".py" in t]
        assert not coded, coded
    kind = next(k for k, e in table(pkg).items() if " " not in k and e.get("anchor"))
    anchor = table(pkg)[kind]["anchor"]
    for lang in ("en", "pl"):
        with use_language(lang):
            rule = game.event_rule(kind)
        assert rule is not None and rule.title == names[lang][anchor]


# -- a page in Polish, in a browser ---------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from .server.serving import running

    db = str(tmp_path_factory.mktemp("i18n") / "i18n.sqlite3")
    with running("taxonomy", db, bot_delay=0) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    from .web.conftest import ARGS, CHROMIUM

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.mark.browser
def test_the_pages_follow_the_browser_language_and_the_toggle(server: str, browser: Any) -> None:
    from .web.conftest import CHROMIUM

    if not CHROMIUM:
        pytest.skip("BESTIARY_CHROMIUM is not set (no chromium)")
    import httpx

    body = {"game": "taxonomy", "seats": [{"kind": "bot", "agent": "random"}] * 4}
    table = httpx.post(server + "/api/tables", json=body, timeout=30).json()
    context = browser.new_context(locale="pl-PL", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.wait_for_selector("html[lang='pl']")
    assert page.inner_text("#new-table h2") == "Nowy stół"
    assert page.locator(".lang-toggle button[data-lang='pl'].current").count() == 1
    # A table of bots plays to the end: its log is in Polish, each line with its rule.
    page.goto(f"{server}/table/{table['id']}")
    page.wait_for_selector("body[data-over='yes']", timeout=120_000)
    assert page.inner_text("#log-panel h2") == "Przebieg gry"
    # The first line, built here from the finished table's public seed and names.
    from bestiary.server.messages import seat_names

    info = httpx.get(f"{server}/api/tables/{table['id']}", timeout=30).json()
    game = get_game("taxonomy")
    state = game.new(
        info["players"], seed=int(info["seed"]), variant=info["variant"], options=info["options"]
    )
    with use_language("pl"):
        want = game.describe_event(state.events_since(0, None)[0], seat_names(info, "pl"))
    assert page.locator("#log li .log-text").first.inner_text().strip() == want
    count = page.locator("#log li").count()
    if count >= 100:  # "100." kept every digit: the list makes room for them
        assert (
            page.eval_on_selector("#log", "el => el.style.paddingLeft")
            == f"{len(str(count)) + 2}ch"
        )
    ruled = page.locator("#log li.has-rule").first
    if ruled.count():
        assert ruled.get_attribute("title").startswith("Zasada: ")
        ruled.click()
        assert (
            page.locator("#log .log-rule .log-quote").inner_text().startswith("Instrukcja mówi: „")
        )
        # The rule's title is a player's, in Polish (data/rule_titles.toml).
        polish_titles = set(titles(_package_dir(game))["pl"].values())
        shown_title = page.locator("#log .log-rule strong").first.inner_text()
        assert shown_title.startswith("Zasada: ") and shown_title[8:] in polish_titles
    # The toggle switches to English, and the choice is remembered.
    page.click(".lang-toggle button[data-lang='en']")
    page.wait_for_selector("html[lang='en']")
    page.wait_for_selector("body[data-over='yes']", timeout=60_000)
    assert page.inner_text("#log-panel h2") == "Game log"
    page.goto(server + "/")
    page.wait_for_selector("html[lang='en']")
    assert page.inner_text("#new-table h2") == "New table"
    assert not errors, errors
    context.close()


def test_seats_that_share_a_name_are_told_apart_in_the_log() -> None:
    """Three "hard bot"s at one table: a log line that said "Hard bot draws a
    card" did not say which. A name two seats share gets the seat ("hard bot
    (seat 2)", "trudny bot (miejsce 2)"); a name of its own stays as it is."""
    from bestiary.server import messages

    table = {
        "seats": [
            {"kind": "human", "name": "Ala"},
            {"kind": "bot", "agent": "hard", "name": "hard bot"},
            {"kind": "bot", "agent": "hard", "name": "hard bot"},
            {"kind": "bot", "agent": "normal", "name": "normal bot"},
        ]
    }
    assert messages.seat_names(table, "en") == (
        "Ala",
        "hard bot (seat 1)",
        "hard bot (seat 2)",
        "normal bot",
    )
    assert messages.seat_names(table, "pl")[1:3] == (
        "trudny bot (miejsce 1)",
        "trudny bot (miejsce 2)",
    )
    game = get_game("taxonomy")
    state = game.new(4, seed=1)
    moves = 0
    while moves < 60:  # every seat moves: the first legal move, or the next one
        seat = state.to_act()[0]
        legal = state.legal(seat)
        state.apply(seat, legal[moves % len(legal)])
        moves += 1
    lines = [e["text"] for e in messages.seat_update(game, state, None, 0, 0, 0, table)["events"]]
    told = [line for line in lines if "hard bot" in line.casefold()]
    assert any("hard bot (seat 1)" in line.casefold() for line in told)
    assert any("hard bot (seat 2)" in line.casefold() for line in told)
    assert all("hard bot (seat " in line.casefold() for line in told)


def test_a_quote_in_another_language_than_the_readers_says_so() -> None:
    """Monster Maker's and Teratozoic's rulebooks are English only, M.E.A.T.'s
    Polish only: a Polish reader of ``why N`` read "Instrukcja mówi: „Shuffle
    the…”". The rule now carries the quote's language, and the line says when
    it is not the reader's; Taxonomy's rulebook has both, so each reads its own."""
    from bestiary.cli.prompt import quote_line

    cases = [
        ("monster-maker", "dealt", "pl", "en"),
        ("meat", "rolled", "en", "pl"),
        ("taxonomy", "round", "pl", "pl"),
        ("taxonomy", "round", "en", "en"),
    ]
    for game_id, kind, reader, quoted in cases:
        with use_language(reader):
            rule = get_game(game_id).event_rule(kind)
            assert rule is not None and rule.quote_language == quoted, (game_id, reader)
            line = quote_line(rule.quote, rule.quote_language)
        assert rule.quote in line
        said = {
            ("pl", "en"): "Instrukcja mówi (po angielsku): „",
            ("en", "pl"): "The rulebook says (in Polish): “",
            ("pl", "pl"): "Instrukcja mówi: „",
            ("en", "en"): "The rulebook says: “",
        }[reader, quoted]
        assert line.startswith(said), line
