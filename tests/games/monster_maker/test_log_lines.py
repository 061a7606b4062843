"""Log lines and screens a newcomer can read, in English and Polish: the table's
names, monsters with strength and type, gold in gold, the rule behind each line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from rich.console import Console

from bestiary.engine import Event, Rng
from bestiary.engine.eventrules import sections
from bestiary.games.monster_maker import GAME
from bestiary.games.monster_maker.render import render_view
from bestiary.i18n import domain, use_language

from .mm_helpers import at_treasure, cid, do, give, table, tid

GAME_DIR = Path(__file__).resolve().parents[3] / "bestiary" / "games" / "monster_maker"
NAMES = ["Ala", "Bob", "Cyd", "Dan", "Ewa", "Fil"]


def _random_game(players: int, seed: int, **options: object) -> list[Event]:
    st = GAME.new(players, seed=seed, options={"max_dungeons": 2, **options})
    rng = Rng(seed)
    while not st.over:
        seat = st.to_act()[0]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
    seen: dict[int, Event] = {}
    for seat in (None, *range(players)):
        for e in st.events_since(0, seat):
            seen.setdefault(e.index, e)
    return [seen[i] for i in sorted(seen)]


@pytest.fixture(scope="module")
def played() -> list[tuple[int, Event]]:
    out = []
    for n, seed, opts in ((2, 1, {}), (3, 2, {"victory": "dungeons"}), (4, 3, {})):
        out += [(n, e) for e in _random_game(n, seed, **opts)]
    return out


def _emitted_kinds() -> set[str]:
    found: set[str] = set()
    for path in GAME_DIR.glob("*.py"):
        found |= set(re.findall(r'emit\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    return found


def test_every_event_kind_explains_itself(played: list[tuple[int, Event]]) -> None:
    """Issue 13: "each event carries the rule that caused it (a RULES.md anchor)"."""
    kinds = _emitted_kinds() | {e.kind for _, e in played}
    assert {"battle", "corridor", "game_over", "treasure"} <= kinds
    anchors = sections(GAME_DIR / "RULES.md")
    for kind in sorted(kinds):
        rule = GAME.event_rule(kind)
        assert rule is not None, f"no event_rules.toml entry for {kind}"
        assert rule.anchor in anchors, (kind, rule.anchor)
        assert rule.section.startswith("#") and rule.title and rule.quote, kind


def test_quotes_are_the_rulebooks_words() -> None:
    book = Path(__file__).resolve().parents[4] / "shared/seeds/002_298fdf7096020bd3.txt"
    if not book.exists():
        pytest.skip("the rulebook is not beside the checkout")
    text = re.sub(r"\s+", " ", book.read_text(encoding="utf-8").replace("\\", ""))
    for kind in _emitted_kinds():
        rule = GAME.event_rule(kind)
        assert rule is not None
        assert re.sub(r"\s+", " ", rule.quote) in text, kind


def test_no_raw_structures_and_seats_by_name(played: list[tuple[int, Event]]) -> None:
    """Issue 13: no raw lists/dicts in a line, names instead of "seat N"."""
    for lang in ("en", "pl"):
        with use_language(lang):
            for players, e in played:
                line = GAME.describe_event(e, NAMES[:players])
                assert line.strip(), e.kind
                assert "[" not in line and "{" not in line, (e.kind, line)
                assert not re.search(r"\bseat\b|\w=\S", line), (e.kind, line)


def _line(kind: str, **data: object) -> str:
    return GAME.describe_event(Event(0, kind, dict(data)), NAMES[:3])


def test_monsters_show_strength_and_type() -> None:
    """Appendix B lists each monster's type ("Human Type", "Undead"): a newcomer
    reads the monster's strength and type in the line that places it."""
    line = _line("monster", seat=0, target=2, monster="Zombie", strength=11, type="undead")
    assert line == "Ala places Zombie (strength 11, undead) before Cyd"
    with use_language("pl"):
        assert _line("monster", seat=0, target=2, monster="Ogre", strength=14, type="human") == (
            # "przed graczem gracz 2" where a seat has no name: the player stays in the nominative.
            "Ala stawia Ogra (siła 14, typ ludzki) na drodze przeciwnika (Cyd)"
        )


def test_battle_line_shows_every_die() -> None:
    """<Battle>: "If '2D+3' shows, you roll 2 dice, and add 3 to the result"."""
    party = [
        {"card": "Fighter", "dice": "3D+3", "roll": 11, "strength": 11},
        {
            "card": "Elf",
            "dice": "3D+2",
            "roll": 9,
            "spell": "Sleep",
            "spell_dice": "2D",
            "spell_roll": 7,
            "strength": 16,
        },
    ]
    data = dict(
        seat=1, monster="Ogre", monster_strength=20, party=party, penalty=0, total=27, won=True
    )
    assert _line("battle", **data) == (
        "Bob WINS against Ogre (20): Fighter 3D+3 rolled 11 = 11; "
        "Elf 3D+2 rolled 9 + Sleep 2D rolled 7 = 16 → total 27"
    )
    with use_language("pl"):
        assert _line("battle", **data) == (
            "Bob POKONUJE Ogra (20): Wojownik 3D+3: wyrzucono 11 = 11; "
            "Elf 3D+2: wyrzucono 9 + Sen 2D: wyrzucono 7 = 16 → razem 27"
        )


def test_treasures_and_prizes_in_gold_with_polish_plurals() -> None:
    """Appendix C: "Ring ... 150gold", "Mystic Map ... 3Dx20gold"; prize gold too."""
    line = _line("home", seat=0, treasures=["Ring", "Mystic Map"], prize="Prize 200")
    assert line == (
        "Ala returns from the dungeon with Ring (150 gold), "
        "Mystic Map (3Dx20 gold, rolled at the end); first home: a prize card worth 200 gold"
    )
    with use_language("pl"):
        assert _line("died", seat=1, cause="stuck", reason="x", returned=1) == (
            "Bob nie może wrócić i ginie w lochu; 1 skarb wraca na stos"
        )
        assert _line("died", seat=1, cause="stuck", reason="x", returned=3) == (
            "Bob nie może wrócić i ginie w lochu; 3 skarby wracają na stos"
        )
        assert _line("died", seat=1, cause="stuck", reason="x", returned=5) == (
            "Bob nie może wrócić i ginie w lochu; 5 skarbów wraca na stos"
        )
        over = _line(
            "game_over",
            reason="1 dungeons played",
            cause="max_dungeons",
            dungeons=1,
            gold=[350, 0, 22],
            scores=[350.0, 0.0, 22.0],
            victory="gold",
        )
        assert over == (
            "Koniec gry (rozegrano 1 loch): Ala: 350 sztuk złota, Bob: 0 sztuk złota, "
            "Cyd: 22 sztuki złota"
        )


def _text(renderable: object) -> str:
    console = Console(record=True, width=220, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_gold_so_far_is_gold_and_the_end_says_what_each_card_was_worth() -> None:
    """Issue 13: "treasures' gold in gold (not names), what each rolled treasure
    was worth at the end"."""
    st = table(players=2, max_dungeons=1)
    at_treasure(st, 0)
    st.held[0] = [tid(st, "Ring"), tid(st, "Lost Crown")]
    st.back[0] = [cid(st, "Corridor 40")] * 2
    st.dist_back[0] = 80
    give(st, 0, "Corridor 20")
    st.status[1] = 3  # DEAD: the dungeon ends when Ala gets home
    do(st, "play Corridor 20")
    assert st.over
    out = _text(render_view(st.view(0), []))
    prize = st.cs.prizes[st.prizes[0][0]]
    assert f"{450 + prize.gold} gold" in out  # Ring 150 + Lost Crown 300 + the prize
    assert "Ring: 150 gold" in out and "Lost Crown: 300 gold" in out


def test_view_says_who_acts_and_what_they_are_asked() -> None:
    """Like the other games' views: ``to_act`` and a ``prompt`` for that seat only."""
    st = table(players=3)
    view = st.view(0)
    assert view["to_act"] == [0] and view["prompt"].startswith("Your turn")
    assert st.view(1)["prompt"] == "" and st.view(None)["prompt"] == ""
    with use_language("pl"):
        assert "Twoja tura: jedna akcja" in _text(render_view(view, []))


def test_trap_banner_offers_only_what_you_can_do() -> None:
    st = table()
    give(st, 0, "Fighter", "Orc", "Corridor 10")
    st.deck.append(cid(st, "Trap"))
    st._start_turn(0)
    out = _text(render_view(st.view(0), []))
    assert "choose which to lose" in out and "Thief" not in out.split("TRAP!")[1].split("\n")[0]
    with use_language("pl"):
        out = _text(render_view(st.view(0), []))
        assert "PUŁAPKA! Pułapka zabiera jeszcze 3 karty z twojej ręki" in out


def test_newcomers_are_pointed_to_a_shorter_game() -> None:
    from bestiary.games.monster_maker.render import start_tip
    from bestiary.games.monster_maker.ruleset import MonsterMakerRules

    assert "-o max_dungeons=1" in (start_tip(MonsterMakerRules()) or "")
    with use_language("pl"):
        assert "na pierwszą grę uruchom ją z `-o max_dungeons=1`" in (
            start_tip(MonsterMakerRules()) or ""
        )


def test_every_message_has_a_polish_translation() -> None:
    """Issue 13: "Tests check that every message has both languages"."""
    catalog = domain("monster_maker", GAME_DIR / "game.py").catalog("pl")
    missing = []
    for path in sorted(GAME_DIR.glob("*.py")):
        for _line_no, msgid, _comments, _context in extract_from_file(
            "python", str(path), keywords={"_": None, "N_": None, "ngettext": (1, 2)}
        ):
            key = msgid[0] if isinstance(msgid, tuple | list) else msgid
            if key not in catalog:
                missing.append(key)
    assert missing == []


def test_a_statue_that_rolled_4_to_6_is_shown_as_worthless() -> None:
    """Rulebook, Statue of Goddess: "On a 1,2,or 3, has a value of 400gold".
    Once its die showed 4 (the log said "it is worthless"), the hand line, the
    players' table and the line of its return still read "400 gold if a die
    shows 1-3" (found playing)."""
    statue = "Statue of Goddess"
    view = GAME.new(2, seed=7).view(0)
    view["my_treasures"] = [statue]
    for p in view["players"]:
        if p["seat"] == 0:
            p["open_treasures"], p["worthless"] = [statue], [statue]
    console = Console(record=True, width=200, color_system=None)
    console.print(render_view(view, []))
    out = console.export_text()
    assert out.count("Statue of Goddess (worthless)") == 2, out
    assert "if a die shows 1-3" not in out
    home = Event(0, "home", {"seat": 0, "treasures": [statue], "worthless": [statue]})
    line = GAME.describe_event(home, ["Ana", "Bob"])
    assert line == "Ana returns from the dungeon with Statue of Goddess (worthless)"
    kept = Event(0, "home", {"seat": 0, "treasures": [statue], "worthless": []})
    assert "if a die shows 1-3" in GAME.describe_event(kept, ["Ana", "Bob"])
