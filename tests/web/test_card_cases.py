"""Card names declined on the game pages.

Issue 26's "card names in the case the sentence needs": the buttons a page
builds itself put a card's name after a colon ("walcz: Wojownik", "weź w
drafcie: Akolita", "zatrzymaj: pomarańczowa głowa 1"), because the page had only
each name's nominative. ``GET /api/i18n/pl`` now carries every name's cases
(the games' ``locale/pl/nouns.toml``), ``cardNoun`` (web/js/cards.js) gives the
form a translation asks for (``{card:ins}``, i18n.js ``format``), and the pages'
Polish sentences decline: "walcz Wojownikiem (3D+3)". Run in node with the
server's own catalog, no browser needed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from bestiary.server.i18n_api import merged

JS = Path(__file__).resolve().parents[2] / "bestiary" / "web" / "js"

_SCRIPT = """
globalThis.localStorage = { getItem: () => LANG, setItem() {} };
globalThis.navigator = { languages: [LANG], language: LANG };
globalThis.document = { querySelector: () => null, querySelectorAll: () => [] };
globalThis.fetch = async () => ({ ok: true, json: async () => ({ messages: CATALOG }) });
const i18n = await import(I18N);
const cards = await import(CARDS);
await i18n.ready();
const { t } = i18n;
const { cardNoun } = cards;
console.log(JSON.stringify([
  t("fight with {card}", { card: cardNoun("Fighter", " (3D+3)") }),
  t("cast {spell} →", { spell: cardNoun("Sleep", " (2D)") }),
  t("wield {treasure} →", { treasure: cardNoun("Magic Bow") }),
  t("by {card}", { card: cardNoun("Elf") }),
  t("{name} loses to {monster} ({n}): total",
    { name: "Ala", monster: cardNoun("Giant Rat"), n: 8 }),
  t("draft {card}", { card: cardNoun("Akolita") }),
  t("use {card}'s ability", { card: cardNoun("Akolita") }),
  t("keep {card}", { card: cardNoun("orange 1 head") }),
  t("keep {card}", { card: cardNoun("Dhampir") }),
  t("fight with {card}", { card: "a plain text" }),
  String(cardNoun("Fighter", " (3D+3)")),
]));
"""


def _run(lang: str) -> list[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    head = (
        f"const LANG = {json.dumps(lang)};\n"
        f"const CATALOG = {json.dumps(merged(lang) if lang != 'en' else {})};\n"
        f"const I18N = {json.dumps((JS / 'i18n.js').as_uri())};\n"
        f"const CARDS = {json.dumps((JS / 'cards.js').as_uri())};\n"
    )
    out = subprocess.run(
        ["node", "--input-type=module"],
        input=head + _SCRIPT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    result: list[str] = json.loads(out.stdout)
    return result


def test_polish_buttons_decline_the_card_names() -> None:
    assert _run("pl") == [
        "walcz Wojownikiem (3D+3)",
        "rzuć Sen (2D) →",
        "użyj Magicznego Łuku →",
        "przez Elfa",
        "Ala przegrywa z Olbrzymim Szczurem (8); razem",
        "weź w drafcie Akolitę",
        "użyj zdolności Akolity",
        "zatrzymaj pomarańczową głowę 1",
        "zatrzymaj Dhampir",  # a taxonomy monster's name is a proper name: no cases
        "walcz a plain text",  # a value without cases shows as it is
        "Wojownik (3D+3)",
    ]


def test_english_buttons_read_as_before() -> None:
    assert _run("en") == [
        "fight with Fighter (3D+3)",
        "cast Sleep (2D) →",
        "wield Magic Bow →",
        "by Elf",
        "Ala loses to Giant Rat (8): total",
        "draft Akolita",
        "use Akolita's ability",
        "keep orange 1 head",
        "keep Dhampir",
        "fight with a plain text",
        "Fighter (3D+3)",
    ]
