"""Labels come from the rules in force: what a card shows is what it rolls.

Errata (appendix D): "Sleep's value should be 2D, not 1D." With the errata on
(the default) every surface — the view's hand, the terminal, the catalog, the
battle log and the web page — says 2D; the first-edition variant says 1D.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from bestiary.engine import Rng
from bestiary.games.monster_maker import GAME
from bestiary.games.monster_maker.render import describe, render_view

from .mm_helpers import at_treasure, dice, do, give, last, table

JS = Path(__file__).parents[3] / "bestiary" / "web" / "games" / "monster-maker.js"


def _text(renderable: object) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize(("variant", "dice_text"), [("standard", "2D"), ("first-edition", "1D")])
def test_hand_labels_show_the_sleep_the_rules_roll(variant: str, dice_text: str) -> None:
    """Errata: "Sleep's value should be 2D, not 1D" — the label follows the rules."""
    st = GAME.new(3, seed=5, variant=variant)
    give(st, st.turn, "Sleep", "Fighter")  # type: ignore[arg-type]
    v = st.view(st.turn)
    assert f"Sleep ({dice_text})" in v["hand_labels"]
    sleep = next(c for c in v["hand_cards"] if c["name"] == "Sleep")
    assert sleep["strength"] == dice_text and sleep["kind"] == "spell"
    assert f"Sleep ({dice_text})" in _text(render_view(v, []))


@pytest.mark.parametrize(("variant", "dice_text"), [("standard", "2D"), ("first-edition", "1D")])
def test_catalog_shows_the_sleep_the_rules_roll(variant: str, dice_text: str) -> None:
    cat = GAME.catalog(GAME.ruleset(variant))
    assert cat is not None
    assert next(c for c in cat["deck"] if c["name"] == "Sleep")["value"] == dice_text


def test_battle_log_shows_the_spell_dice_it_rolled() -> None:
    """The battle line names the dice the Sleep rolled (2D with the errata)."""
    st = table(3, 0)
    ogre = st.cs.by_name["ogre"].index
    st.monster[0] = ogre
    at_treasure(st, 0)
    give(st, 0, "Fighter", "Sleep")
    do(st, "fight with Fighter")
    do(st, "cast Sleep by Fighter")
    dice(st, 10, 7)
    do(st, "roll")
    row = last(st, "battle")["party"][0]
    assert row["spell_dice"] == "2D" and row["spell_roll"] == 7
    line = describe(next(e for e in reversed(st.log.events) if e.kind == "battle"))
    assert "Fighter 3D+3 rolled 10 + Sleep 2D rolled 7 = 17" in line


# -- the web page (node) --------------------------------------------------------------
_DOM = """
class El {
  constructor(tag) {
    this.tag = tag; this.children = []; this.attrs = {}; this.dataset = {};
    const el = this; // the page marks cards by class (classList), as a browser allows
    this.classList = {
      add: (...names) => { el.attrs.class = [el.attrs.class, ...names].filter(Boolean).join(" "); },
      contains: (n) => String(el.attrs.class || "").split(" ").includes(n),
    };
  }
  append(...c) { this.children.push(...c); }
  setAttribute(k, v) { this.attrs[k] = v; }
  addEventListener() {}
  replaceChildren(...c) { this.children = c; }
  get textContent() {
    return this.children.map((c) => (typeof c === "string" ? c : c.textContent)).join("");
  }
  set textContent(v) { this.children = [String(v)]; }
}
globalThis.Node = El;
globalThis.document = {
  querySelector: () => null,
  head: { append() {} },
  createElement: (t) => new El(t),
  createElementNS: (ns, t) => new El(t),
  createTextNode: (s) => s,
};
globalThis.fetch = async () => ({ ok: true, json: async () => CATALOG });
if (typeof globalThis.navigator === "undefined") {
  // i18n.js reads it; node 20 has none
  globalThis.navigator = { languages: ["en"], language: "en" };
}
"""


def _node(script: str, catalog: dict[str, object]) -> object:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    code = (
        f"const CATALOG = {json.dumps(catalog)};\n{_DOM}\n"
        f"const page = await import({json.dumps(JS.as_uri())});\n{script}"
    )
    out = subprocess.run(
        [node, "--input-type=module"],
        input=code,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_web_page_draws_the_strength_the_match_rolls_not_the_default_catalog() -> None:
    """First edition rolls Sleep 1D; the page's card list (default rules) says 2D.
    The hand card must say 1D: the match's view decides."""
    st = GAME.new(3, seed=5, variant="first-edition")
    give(st, st.turn, "Sleep")  # type: ignore[arg-type]
    view = st.view(st.turn)
    default_catalog = GAME.catalog(GAME.ruleset())
    assert default_catalog is not None
    script = f"""
await page.askCatalog();
const view = {json.dumps(view)};
const fromView = view.hand_cards.map(page.handCard);
const fromLabel = view.hand_labels.map((l) => page.parseLabel(l, new Set()));
console.log(JSON.stringify({{ fromView, fromLabel }}));
"""
    out = _node(script, default_catalog)
    assert isinstance(out, dict)
    assert out["fromView"][0]["mark"] == "strength 1D"
    assert out["fromLabel"][0]["mark"] == "strength 1D"


def test_web_page_final_says_dungeon_wins_and_rolled_gold() -> None:
    """§5: "You may also determine the victor by ... the number of single-dungeon
    wins": under victory=dungeons the result says wins, and each seat's
    breakdown shows what its dice treasures rolled."""
    view = {
        "victory": "dungeons",
        "final": {
            "reason": "1 dungeons played",
            "gold": [60, 0],
            "scores": [1.0, 0.0],
            "detail": [[["Mystic Map", 60]], []],
        },
    }
    script = f"""
const el = page.finalPanel({json.dumps(view)}, {{}});
console.log(JSON.stringify(el.textContent));
"""
    text = _node(script, {})
    assert isinstance(text, str)
    assert "seat 0: 1 dungeon won, 60 gold" in text
    assert "Mystic Map (60)" in text


def test_web_page_renders_real_views_of_a_whole_game() -> None:
    """The page draws every kind of moment of a real match (battles, traps,
    treasures, the discard after a costly dispel, the end under
    victory=dungeons) without an error, and shows the Sleep the rules roll."""
    st = GAME.new(2, seed=11, options={"victory": "dungeons", "max_dungeons": 1})
    rng = Rng(11)
    snaps: list[dict[str, Any]] = []
    n = 0
    while True:
        seat = st.to_act()[0] if st.to_act() else 0
        if n % 9 == 0 or st.over:
            legal = [str(a) for a in st.legal(seat)]
            log = [{"event": e.to_json(), "text": describe(e)} for e in st.events_since(0, seat)]
            snaps.append(
                {
                    "game": "monster-maker",
                    "seat": seat,
                    "view": st.view(seat),
                    "legal": legal,
                    "yourTurn": bool(legal),
                    "over": st.over,
                    "result": st.result.to_json() if st.result else None,
                    "table": {},
                    "log": log[-40:],
                }
            )
        if st.over:
            break
        legal_moves = st.legal(seat)
        st.apply(seat, legal_moves[rng.randrange(len(legal_moves))])
        n += 1
    script = f"""
const snaps = {json.dumps(snaps)};
const out = [];
for (const state of snaps) {{
  const root = new Node("div");
  page.render(root, state, {{ act() {{}}, seatLabel: (s) => `seat ${{s}}` }});
  out.push(root.textContent);
}}
console.log(JSON.stringify(out));
"""
    texts = _node(script, {})
    assert isinstance(texts, list) and len(texts) == len(snaps)
    assert all("Dungeon 1" in t for t in texts)
    assert "Game over" in texts[-1] and "won" in texts[-1]


def test_a_refused_spell_or_weapon_is_named_in_polish() -> None:
    """<Spells>: "Sleep and Charm spells only work on human type monsters"; a
    weapon helps the classes its card names. The refusals said so with the
    card file's words on a Polish screen: "Sleep działa tylko na potwory typu
    human (Giant Rat ma typ general)", "Magic Bow pomaga tylko postaciom Elf,
    a nie Thief"."""
    from bestiary.engine import get_game
    from bestiary.games.monster_maker import battle
    from bestiary.i18n import use_language

    st = get_game("monster-maker").new(4, seed=1)
    cs = st.cs

    def card(name: str) -> int:
        return next(c.index for c in cs.cards if c.name == name)

    bow = next(i for i, t in enumerate(cs.treasures) if t.name == "Magic Bow")
    with use_language("pl"):
        assert battle.spell_refusal(
            cs, st.rules, card("Sleep"), card("Elf"), card("Giant Rat")
        ) == ("Sen działa tylko na potwory typu ludzkiego (Olbrzymi Szczur ma typ ogólny)")
        assert battle.weapon_refusal(cs, bow, card("Thief"), True) == (
            "Magiczny Łuk pomaga tylko tym postaciom: Elf; Złodziej do nich nie należy"
        )
    with use_language("en"):  # the English reads as before
        assert battle.spell_refusal(
            cs, st.rules, card("Sleep"), card("Elf"), card("Giant Rat")
        ) == ("Sleep only works on human-type monsters (Giant Rat is general)")
