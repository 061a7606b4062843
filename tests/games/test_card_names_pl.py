"""Monster Maker's and Teratozoic's cards named in the reader's language.

Both games' card files are English ("Corridor 10", "orange 1 elbow", "Apocalyptic
Era"), and a Polish player read those names in Polish sentences. Now every card,
treasure, prize and Era has a Polish name with its gender and cases
(``games/<id>/locale/pl/nouns.toml``, keyed by the English name): the log, the
labels and the screens say "Korytarz 10", "łokieć", in the case the sentence
needs, while the actions' text forms (the protocol: "play Corridor 10") stay
English, and English text is as it was.
"""

from __future__ import annotations

import csv
import tomllib
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from bestiary.cli.prompt import labeller
from bestiary.cli.textmatch import match
from bestiary.engine import Event
from bestiary.games.meat import describe as meat_describe
from bestiary.games.monster_maker import GAME as MM
from bestiary.games.monster_maker import describe as mm
from bestiary.games.monster_maker.render import render_view as mm_render
from bestiary.games.teratozoic import describe as tz
from bestiary.games.teratozoic.cards import cards_from
from bestiary.i18n import use_language
from bestiary.i18n.nouns import CASES, GENDERS

from .monster_maker.mm_helpers import give

PKG = Path(mm.__file__).resolve().parents[2]
NAMES = ["Ala", "Bob", "Cyd"]
TZ_DECK = cards_from("")
TZ_ID = {c.name: c.id for c in TZ_DECK}


def _nouns(game: str) -> dict[str, dict[str, str]]:
    path = PKG / "games" / game / "locale" / "pl" / "nouns.toml"
    with path.open("rb") as fh:
        return tomllib.load(fh)


def _names(path: Path) -> list[str]:
    """The ``name`` column of a card file (its ``#`` comment lines left out)."""
    with path.open(encoding="utf-8") as fh:
        rows = csv.DictReader(line for line in fh if not line.startswith("#"))
        return [row["name"] for row in rows]


def _text(renderable: object) -> str:
    console = Console(width=220, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


# -- the data: every name of both games has its Polish forms -----------------------------------


@pytest.mark.parametrize(
    ("game", "files"),
    [
        (
            "monster_maker",
            [
                "deck.csv",
                "treasures.csv",
                "prizes.csv",
                "solvable_deck.csv",
                "solvable_treasures.csv",
            ],
        ),
        ("teratozoic", ["cards.csv", "eras.csv"]),
    ],
)
def test_every_card_name_has_a_polish_name_with_every_case(game: str, files: list[str]) -> None:
    """Every card, treasure, prize and Era of the shipped files has a Polish
    nominative (``name``), a gender and all five other cases; a Polish form is
    never the English name left in place (but "Goblin", "Elf" are Polish too)."""
    nouns = _nouns(game)
    names = {n for f in files for n in _names(PKG / "games" / game / "data" / f)}
    assert names, "no card names read"
    missing = sorted(names - set(nouns))
    assert not missing, f"no Polish name for {missing}"
    for name in names:
        forms = nouns[name]
        assert forms.get("name"), name
        assert forms.get("gender") in GENDERS, name
        for case in CASES[1:]:
            assert forms.get(case), f"{name}: no {case}"
    # The Teratozoic card faces print the body part alone ("łokieć").
    if game == "teratozoic":
        for name in names - {n for n in names if n.endswith(" Era")}:
            part = name.split(" ", 2)[2]
            assert nouns[part]["name"] and part in nouns, part


def test_known_names_are_the_usual_polish_words() -> None:
    """What a Polish player of a dungeon crawler and of an anatomy game says."""
    mm_pl = {k: v["name"] for k, v in _nouns("monster_maker").items()}
    assert mm_pl["Corridor 10"] == "Korytarz 10"
    assert (mm_pl["Detour"], mm_pl["Thief"], mm_pl["Charm"]) == ("Objazd", "Złodziej", "Urok")
    tz_pl = _nouns("teratozoic")
    assert [tz_pl[p]["name"] for p in ("elbow", "hip", "knee")] == ["łokieć", "biodro", "kolano"]
    assert tz_pl["orange 1 elbow"]["name"] == "pomarańczowy łokieć 1"
    assert tz_pl["Teratozoic Era"]["name"] == "Era Teratozoiczna"


# -- the noun mechanism ---------------------------------------------------------------------------


def test_a_noun_with_a_translated_name_shows_it_and_declines_it() -> None:
    """``_.noun("Corridor 10")`` renders "Korytarz 10" in Polish and "Corridor 10"
    in English; its ``str`` stays the data's name (what actions and lookups use)."""
    noun = mm._.noun("Giant Rat")
    with use_language("en"):
        assert f"{noun}|{noun:acc}|{noun:ins}" == "Giant Rat|Giant Rat|Giant Rat"
    with use_language("pl"):
        assert f"{noun}|{noun:acc}|{noun:ins}" == (
            "Olbrzymi Szczur|Olbrzymiego Szczura|Olbrzymim Szczurem"
        )
        assert "{c:g:m|f|n|pl}".format(c=mm._.noun("Trap")) == "f"
        assert str(noun) == "Giant Rat"
        # A name without data keeps its own form, in every case.
        assert f"{mm._.noun('Home-made Card'):dat}" == "Home-made Card"


def test_meat_names_decline_as_before() -> None:
    """M.E.A.T.'s names are Polish nominatives (no ``name``): unchanged."""
    noun = meat_describe._.noun("Akolita")
    with use_language("pl"):
        assert f"{noun}|{noun:acc}|{noun:g:a|b|c}" == "Akolita|Akolitę|a"
    with use_language("en"):
        assert f"{noun:acc}" == "Akolita"


# -- Monster Maker: the log, the labels, the terminal --------------------------------------------


def _mm(kind: str, **data: Any) -> str:
    return mm.describe(Event(0, kind, data), NAMES)


def test_monster_maker_log_names_cards_in_polish_in_the_sentences_case() -> None:
    with use_language("en"):
        assert _mm("drew", seat=0, card="Corridor 10") == "Ala draws Corridor 10"
        assert _mm("discard", seat=0, card="Giant Rat") == "Ala discards Giant Rat"
    with use_language("pl"):
        assert _mm("drew", seat=0, card="Corridor 10") == "Ala dobiera Korytarz 10"
        assert _mm("discard", seat=0, card="Giant Rat") == "Ala odrzuca Olbrzymiego Szczura"
        assert _mm("fight", seat=1, monster="Skeleton") == (
            "Bob stawia czoła Szkieletowi (siła 10, nieumarły)"
        )
        assert _mm("cast", by="Magic-User", spell="Sleep") == "  Mag rzuca Sen"
        assert _mm("wield", by="Fighter", treasure="Holy Sword") == (
            "  Wojownik walczy Świętym Mieczem"
        )
        assert _mm("dispel", seat=0, monster="Ghoul", card="Cleric") == (
            "Ala przegania Ghula dzięki Kapłanowi"
        )
        # The participle agrees with the treasure's gender (feminine here).
        assert _mm("set_aside", treasure="Magic Wand") == (
            "Magiczna Różdżka została dobrana drugi raz i zostaje odłożona na bok"
        )


def test_monster_maker_labels_are_polish_and_the_text_forms_stay() -> None:
    with use_language("en"):
        assert mm.action_label("play Corridor 10", NAMES) == "play Corridor 10"
        assert (
            mm.action_label("place Giant Rat before seat 1", NAMES) == "place Giant Rat before Bob"
        )
    with use_language("pl"):
        assert mm.action_label("play Corridor 10", NAMES) == "zagraj Korytarz 10"
        assert mm.action_label("place Giant Rat before seat 1", NAMES) == (
            "postaw Olbrzymiego Szczura na drodze przeciwnika (Bob)"
        )
        assert mm.action_label("cast Charm by Elf", NAMES) == "Elf rzuca Urok"
        assert mm.action_label("avoid trap with Thief", NAMES) == (
            "uniknij pułapki dzięki Złodziejowi"
        )


def test_monster_maker_terminal_shows_and_takes_polish_names() -> None:
    """The hand on the screen is Polish, and typing a Polish name picks the move
    (the menu's labels are matched as well as the text forms)."""
    st = MM.new(3, seed=5)
    give(st, st.turn, "Corridor 10", "Giant Rat", "Thief")  # type: ignore[arg-type]
    view = st.view(st.turn)
    with use_language("pl"):
        screen = _text(mm_render(view, []))
        assert "Korytarz 10 (10p)" in screen and "Złodziej" in screen
        assert "Corridor" not in screen and "Giant Rat" not in screen
        texts = [str(a) for a in st.legal(st.turn)]
        label = labeller(MM, view)
        labels = [label(t) for t in texts]
        assert "play Corridor 10" in texts
        hit = match("zagraj korytarz 10", labels)
        assert hit.index is not None and texts[hit.index] == "play Corridor 10"
    with use_language("en"):
        assert "Corridor 10 (10p)" in _text(mm_render(view, []))


# -- Teratozoic ------------------------------------------------------------------------------------


def _tz(kind: str, **data: Any) -> str:
    return tz.describe(Event(0, kind, data), NAMES, TZ_DECK)


def test_teratozoic_log_names_cards_and_eras_in_polish() -> None:
    hand = [TZ_ID[n] for n in ("orange 1 elbow", "orange 3 hip", "orange 2 knee")]
    knee = TZ_ID["orange 2 knee"]
    with use_language("en"):
        assert _tz("hand", seat=0, cards=hand) == (
            "Ala now holds orange 1 elbow, orange 3 hip, orange 2 knee"
        )
        assert _tz("placed", seat=0, card=knee, x=0, y=0) == (
            "Ala starts monster 1 with orange 2 knee"
        )
    with use_language("pl"):
        assert _tz("hand", seat=0, cards=hand) == (
            "Ala ma teraz na ręce: pomarańczowy łokieć 1, pomarańczowe biodro 3, "
            "pomarańczowe kolano 2"
        )
        assert _tz("placed", seat=0, card=knee, x=0, y=0) == (
            "Ala zaczyna potwora 1 od pomarańczowego kolana 2"
        )
        assert (
            _tz("kept", seat=1, card=TZ_ID["green 3 hip"])
            == "Bob zachowuje zielone biodro 3 z ręki"
        )
        assert _tz("generation", number=2, era="Temnozoic Era") == (
            "— Pokolenie 2 (Era Temnozoiczna) —"
        )


def test_teratozoic_labels_are_polish_and_the_text_forms_stay() -> None:
    attach = "attach orange 2 knee W of orange 1 elbow"
    with use_language("en"):
        assert tz.action_label("hold orange 1 elbow") == "hold orange 1 elbow back"
        assert tz.action_label(attach) == "put orange 2 knee left of orange 1 elbow"
    with use_language("pl"):
        assert tz.action_label("hold orange 1 elbow") == "zatrzymaj pomarańczowy łokieć 1"
        assert tz.action_label(attach) == (
            "połóż pomarańczowe kolano 2 na lewo od pomarańczowego łokcia 1"
        )
        assert tz.action_label("start purple 5 pincer turned") == (
            "zacznij potwora od fioletowych szczypiec 5 położonych do góry nogami"
        )


def test_the_pages_catalog_carries_the_card_names() -> None:
    """The pages read names from ``GET /api/i18n/{lang}`` (``cardName`` in
    web/js/cards.js): the Polish catalog has them, the English one stays empty."""
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from bestiary.server.i18n_api import CARD_NAME, router

    app = FastAPI()
    app.include_router(router)
    client = TestClient(app)
    pl = client.get("/api/i18n/pl").json()["messages"]
    assert pl[CARD_NAME + "Corridor 10"] == "Korytarz 10"
    assert pl[CARD_NAME + "elbow"] == "łokieć"
    assert pl[CARD_NAME + "orange 1 elbow"] == "pomarańczowy łokieć 1"
    assert pl[CARD_NAME + "Apocalyptic Era"] == "Era Apokaliptyczna"
    # M.E.A.T.'s names are Polish already: nothing to translate.
    assert not any(k.startswith(CARD_NAME + "Akolita") for k in pl)
    assert client.get("/api/i18n/en").json()["messages"] == {}
