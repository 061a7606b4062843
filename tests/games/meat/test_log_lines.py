"""Log lines a newcomer can read: whole sentences in English and Polish, the
table's names for seats and teams, no raw data, and the rule behind each line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file

from bestiary.engine import Event, Rng
from bestiary.engine.eventrules import sections
from bestiary.games.meat import GAME
from bestiary.i18n import use_language

from .helpers import at_tactics, events, pass_all, to_activation

GAME_DIR = Path(__file__).resolve().parents[3] / "bestiary" / "games" / "meat"
NAMES = ["Ala", "Bob", "Cyd", "Dan", "Ewa", "Fil"]


def _random_game(players: int, seed: int) -> list[Event]:
    st = GAME.new(players, seed=seed)
    rng = Rng(seed)
    while not st.over:
        seat = st.to_act()[0]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
    # Every event once: the spectator's, then each team's private ones.
    seen: dict[int, Event] = {}
    for seat in (None, *range(players)):
        for e in st.events_since(0, seat):
            seen.setdefault(e.index, e)
    return [seen[i] for i in sorted(seen)]


@pytest.fixture(scope="module")
def played() -> list[tuple[int, Event]]:
    return [(n, e) for n in (2, 4, 6) for seed in (1, 2) for e in _random_game(n, seed)]


def _emitted_kinds() -> set[str]:
    """Every kind the package's code can emit (``emit("kind", ...)``)."""
    found: set[str] = set()
    for path in GAME_DIR.glob("*.py"):
        found |= set(re.findall(r'emit\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    return found


def test_every_event_kind_explains_itself(played: list[tuple[int, Event]]) -> None:
    """Issue 13: "each event carries the rule that caused it (a RULES.md anchor)"."""
    kinds = _emitted_kinds() | {e.kind for _, e in played}
    assert {"challenged", "damaged", "vitality", "summary"} <= kinds
    anchors = sections(GAME_DIR / "RULES.md")
    for kind in sorted(kinds):
        rule = GAME.event_rule(kind)
        assert rule is not None, f"no event_rules.toml entry for {kind}"
        assert rule.anchor in anchors, (kind, rule.anchor)
        assert rule.section.startswith("#") and rule.title, kind
        assert rule.quote, kind


def test_quotes_are_the_manuals_words() -> None:
    """Each quote is a sentence of the Polish manual (OCR slips aside)."""
    manual = Path(__file__).resolve().parents[4] / "shared/seeds/003_576faf991c32a693.txt"
    if not manual.exists():
        pytest.skip("the rulebook is not beside the checkout")
    text = re.sub(r"\s+", " ", manual.read_text(encoding="utf-8").replace("*", ""))
    text = text.replace("wptacenie", "wpłacenie").replace("zagranii", "zagraniu")
    text = text.replace("TELESTARIO-NU", "TELESTARIONU").replace("ZAKŁĘĆ", "ZAKLĘĆ")
    text = re.sub("[„”“]", '"', text)
    for kind in _emitted_kinds():
        rule = GAME.event_rule(kind)
        assert rule is not None
        quote = re.sub("[„”“]", '"', re.sub(r"\s+", " ", rule.quote))
        assert quote[:60] in text, (kind, quote[:60])


def test_no_raw_structures_and_seats_by_name(played: list[tuple[int, Event]]) -> None:
    """Issue 13: no raw Python lists/dicts in lines ("creatures [2, 3]"); log
    lines use player names, never "seat N", when the table has names."""
    for lang in ("en", "pl"):
        with use_language(lang):
            for players, e in played:
                line = GAME.describe_event(e, NAMES[:players])
                assert line.strip(), e.kind
                assert "[" not in line and "{" not in line, (e.kind, line)
                assert not re.search(r"\bseat\b|\bmiejsce\b", line), (e.kind, line)
                assert not re.search(r"\w=\S", line), (e.kind, line)


def test_seats_and_teams_are_named() -> None:
    names = NAMES[:4]
    drafted = Event(0, "drafted", {"seat": 2, "card": "Rekrut", "paid": 1})
    assert GAME.describe_event(drafted, names) == "Cyd drafts Rekrut for 1 Telestarion"
    vit = Event(
        1,
        "vitality",
        {
            "team": 1,
            "seats": [1, 3],
            "delta": -7,
            "before": 40,
            "vitality": 33,
            "source": "summary",
        },
    )
    # 2v2: "team-vs-team wording" — the side is named by its members.
    assert GAME.describe_event(vit, names) == "The team of Bob and Dan loses 7 vitality: 40 → 33"
    with use_language("pl"):
        assert (
            GAME.describe_event(vit, names) == "Drużyna: Bob i Dan traci 7 pkt WITALNOŚCI: 40 → 33"
        )
    one = Event(2, "vitality", {**vit.data, "seats": [1]})
    assert GAME.describe_event(one, names[:2]).startswith("Bob loses 7 vitality")


def test_polish_lines_use_the_manuals_terms_and_plural_forms() -> None:
    def line(kind: str, **data: object) -> str:
        return GAME.describe_event(Event(0, kind, dict(data)), NAMES[:2])

    with use_language("pl"):
        assert line("drew", seat=0, deck="destiny", count=1) == (
            "Ala dobiera 1 kartę PRZEZNACZENIA"
        )
        assert line("drew", seat=0, deck="destiny", count=3) == (
            "Ala dobiera 3 karty PRZEZNACZENIA"
        )
        assert line("drew", seat=1, deck="creature", count=5) == "Bob dobiera 5 kart ISTOT"
        assert line("drafted", seat=1, card="Bober", paid=2) == (
            "Bob bierze z DRAFTU kartę Bober za 2 uncje TELESTARIONU"
        )
        assert line("paid", seat=0, card="Wizja", cost=1) == (
            "Ala płaci 1 uncję TELESTARIONU za kartę Wizja"
        )
        assert line("died", slot=4, card="Bober") == (
            "Bober (Bob – front) ginie i trafia na CMENTARZ ISTOT"
        )
        assert line("damaged", slot=0, card="Rekrut", amount=3, toxin=True, source="Żmija") == (
            "Żmija zadaje 3 pkt obrażeń: Rekrut (Ala – lewa flanka) (TOKSYNA: obrażenia śmiertelne)"
        )
    # The same events in English.
    assert line("drew", seat=0, deck="destiny", count=1) == "Ala draws 1 destiny card"
    assert line("died", slot=4, card="Bober") == (
        "Bober (Bob's front) dies and goes to the creature graveyard"
    )


def test_effect_lines_name_the_card_only_when_face_up() -> None:
    """damaged/buffed/healed name the creature; a face-down one (Tactics window)
    is named by its place only — the line adds nothing hidden."""
    up = Event(
        0,
        "buffed",
        {"slot": 1, "card": "Rekrut", "attack": 1, "defence": 0, "source": "Okrzyk Bojowy"},
    )
    assert GAME.describe_event(up, NAMES[:2]) == (
        "Rekrut (Ala's front) gets +1 attack (Okrzyk Bojowy)"
    )
    down = Event(
        1,
        "damaged",
        {"slot": 3, "card": None, "amount": 2, "toxin": False, "source": "Krwawy Grom"},
    )
    assert GAME.describe_event(down, NAMES[:2]) == (
        "Krwawy Grom deals 2 to the face-down creature on Bob's left flank"
    )


def test_a_challenge_says_it_took_the_damage() -> None:
    """WYZWANIE: "ISTOTA przejmuje obrażenia kierowane w stronę sąsiednich,
    przyjaznych ISTOT" — the log says so before the damage line."""
    st = at_tactics(2, 0, {0: ["Stary Dąb", "Rekrut"], 1: ["Dziki Wilk"]})
    to_activation(st, {0: {"front": "Stary Dąb", "left": "Rekrut"}, 1: {"right": "Dziki Wilk"}})
    pass_all(st)
    log = st.events_since(0, None)
    i = next(i for i, e in enumerate(log) if e.kind == "challenged")
    ch = log[i].data
    assert (ch["slot"], ch["card"], ch["aimed"], ch["aimed_card"]) == (1, "Stary Dąb", 0, "Rekrut")
    assert log[i + 1].kind == "damaged" and log[i + 1].data["slot"] == 1
    assert GAME.describe_event(log[i], NAMES[:2]) == (
        "CHALLENGE: Stary Dąb (Ala's front) takes the damage aimed at "
        "Rekrut (Ala's left flank) (Dziki Wilk)"
    )
    with use_language("pl"):
        assert GAME.describe_event(log[i], NAMES[:2]) == (
            "WYZWANIE: Stary Dąb (Ala – front) przejmuje obrażenia (Dziki Wilk) "
            "zamiast sąsiada: Rekrut (Ala – lewa flanka)"
        )


def test_nothing_changes_vitality_after_the_game_ends() -> None:
    """ "Jeśli punkty WITALNOŚCI rywala spadną do 0, gracz/drużyna przegrywa, a
    rozgrywka kończy się." Two Necromutants kill each other; each one's death
    deals 2 to the other side. The first to fire ends the game: the second
    must not fire (it once did, moving the loser from -1 to -3 or the
    winner's vitality after the end)."""
    st = at_tactics(2, 0, {0: ["Nekromutant"], 1: ["Nekromutant"]})
    to_activation(st, {0: {"front": "Nekromutant"}, 1: {"front": "Nekromutant"}})
    st.vit = [2, 2]
    pass_all(st)
    assert st.over
    hits = events(st, "vitality")
    assert len(hits) == 1 and hits[0]["source"] == "Nekromutant"
    loser = hits[0]["team"]
    assert st.vit[loser] == 0 and st.vit[loser ^ 1] == 2
    over = events(st, "game_over")[0]
    assert over["winner"] == loser ^ 1 and over["vitality"] == st.vit
    assert [e.kind for e in st.events_since(0, None)][-1] == "game_over"


def test_the_vitality_line_reads_as_a_loss_not_a_gain() -> None:
    """The reported "vitality went from -2 to -1" was the old line
    "Team 1 vitality -2 → -1": a change of -2 down to -1. It now says both ends."""
    e = Event(
        0,
        "vitality",
        {
            "team": 1,
            "seats": [1],
            "delta": -2,
            "before": 1,
            "vitality": -1,
            "source": "Nekromutant",
        },
    )
    assert GAME.describe_event(e, NAMES[:2]) == (
        "Bob loses 2 vitality: 1 → -1, none left (Nekromutant)"
    )
    # "0 or less loses the game": a count below 0 is said to mean nothing is left.
    with use_language("pl"):
        assert GAME.describe_event(e, NAMES[:2]) == (
            "Bob traci 2 pkt WITALNOŚCI: 1 → -1; WITALNOŚĆ wyczerpana (Nekromutant)"
        )


def test_every_message_has_a_polish_translation() -> None:
    """Issue 13: "Tests check that every message has both languages"."""
    from bestiary.i18n import domain

    catalog = domain("meat", GAME_DIR / "__init__.py").catalog("pl")
    missing = []
    for name in ("describe.py", "render.py", "effects.py"):
        for _line, msgid, _comments, _context in extract_from_file(
            "python", str(GAME_DIR / name), keywords={"_": None, "N_": None, "ngettext": (1, 2)}
        ):
            key = msgid[0] if isinstance(msgid, tuple | list) else msgid
            if key not in catalog:
                missing.append(key)
    assert missing == []


def test_the_render_speaks_polish() -> None:
    from rich.console import Console

    st = at_tactics(2, 0, {0: ["Rekrut", "Wizja"], 1: ["Rekrut"]})
    st.leader = [st.cs.leader("Wyrocznia").index, -1]
    console = Console(record=True, width=200, color_system=None)
    with use_language("pl"):
        console.print(GAME.render(st.view(0), []))
    out = console.export_text()
    assert "Twoja ręka" in out and "POLE BITWY" in out
    assert "W każdej rundzie dobierasz" in out  # the leader's ability, in Polish
    assert "koszt" in out


def test_a_name_that_ends_in_a_bracket_is_not_given_an_apostrophe() -> None:
    """At a terminal the player is "seat 0 (you)": the log read "seat 0 (you)'s
    left flank". Such a name owns its lane the other way round; a plain name
    keeps "Bob's front", and Polish reads "gracz 0 (ty) – lewa flanka"."""
    from bestiary.games.meat.describe import place
    from bestiary.i18n import use_language

    assert place(0, ["seat 0 (you)", "Bob"]) == "the left flank of seat 0 (you)"
    assert place(4, ["seat 0 (you)", "Bob"]) == "Bob's front"
    with use_language("pl"):
        assert place(0, ["gracz 0 (ty)", "Bob"]) == "gracz 0 (ty) – lewa flanka"


def test_a_card_that_fires_by_itself_is_owned_without_an_apostrophe_after_a_bracket() -> None:
    """The same for a destiny card that fires by itself (rulebook: "Okrzyk
    Bojowy … na początku Bitwy"): the log read "Seat 0 (you)'s Okrzyk Bojowy
    fires by itself"."""
    fired = Event(0, "fired", {"seat": 0, "card": "Okrzyk Bojowy"})
    assert GAME.describe_event(fired, ["seat 0 (you)", "Bob"]) == (
        "Okrzyk Bojowy of seat 0 (you) fires by itself"
    )
    assert GAME.describe_event(fired, ["Ana", "Bob"]) == "Ana's Okrzyk Bojowy fires by itself"
    with use_language("pl"):
        assert GAME.describe_event(fired, ["gracz 0 (ty)", "Bob"]) == (
            "Karta Okrzyk Bojowy (gracz 0 (ty)) aktywuje się samoczynnie"
        )
