"""Issue 29, log and views of Teratozoic: the rulebook's words for each pile,
which card is turned in a placing move, and a gap between separate monsters."""

from __future__ import annotations

from rich.console import Console

from bestiary.agents import AgentContext, make_agent
from bestiary.engine import Rng
from bestiary.engine.events import Event
from bestiary.games.teratozoic.describe import action_label
from bestiary.games.teratozoic.render import _monsters, _placing
from bestiary.i18n import use_language

from .helpers import DECK, GAME, new

NAMES = ["Ala", "Bob"]


def _screen(view: object) -> str:
    console = Console(record=True, width=200, color_system=None)
    console.print(GAME.render(view, []))  # type: ignore[arg-type]
    return console.export_text()


def _view_with_builds() -> dict[str, object]:
    """Seat 0's view of a generation's growth: every player's monsters drawn."""
    st = new(2, seed=4)
    agents = [make_agent(GAME, "heuristic", i) for i in range(2)]
    rng = Rng(1)
    while not st.over:
        v = st.view(0)
        if any(p["build"] and len(p["build"]["monsters"]) > 1 for p in v["players"]):
            return v
        s = st.to_act()[0]
        st.apply(s, agents[s].act(AgentContext(st, s, rng)))
    raise AssertionError("no build of two monsters")


def test_each_pile_goes_by_the_rulebooks_name() -> None:
    """Issue 29: "'Gene Pool' means the draw pile in the table but draw pile plus
    discard pile in the seat panel: use the rulebook's words for each" — the
    rulebook's Gene Pool, Gene Pool Discard Pile, Mutations Deck (Discard Pile),
    and "their entire Gene Pool (including their Gene Pool Discard Pile and hand)"."""
    view = _view_with_builds()
    with use_language("en"):
        out = _screen(view)
        assert "Gene Pool Discard Pile" in out and "Mutations Deck Discard Pile" in out
        assert "Your entire Gene Pool, outside your hand:" in out
        assert "Gene Pool, to draw (" in out and "Your Gene Pool:" not in out
        line = GAME.describe_event(Event(0, "eliminated", {"seat": 1}), NAMES)
        assert line == "Bob has fewer than five cards in their entire Gene Pool and is out"
    with use_language("pl"):
        out = _screen(view)
        assert "Odrzucone z Puli Genów" in out and "odrzucone z Talii Mutacji" in out
        assert "Cała twoja Pula Genów poza ręką:" in out
        assert "Stos odrzuconych kart Puli Genów (" in out
        line = GAME.describe_event(Event(0, "eliminated", {"seat": 1}), NAMES)
        assert line == "Bob ma mniej niż pięć kart w całej swojej Puli Genów i odpada z gry"


def test_the_turned_card_is_the_one_laid() -> None:
    """Issue 29: "'attach X E of Y turned' reads as if Y were turned: reword so
    the turned card is clear"."""
    a, b = DECK[0].name, DECK[1].name
    with use_language("en"):
        label = action_label(f"attach {a} E of {b} turned")
        assert label == f"put {a}, upside down, right of {b}"
        assert action_label(f"start {a} turned") == f"start a monster with {a}, upside down"
    with use_language("pl"):
        label = action_label(f"attach {a} E of {b} turned")
        # The cards in the reader's language, in the cases the sentence needs.
        assert (
            label == "połóż pomarańczową głowę 1 do góry nogami na prawo od pomarańczowego pazura 2"
        )


def test_separate_monsters_are_drawn_apart() -> None:
    """Issue 29: "Separate monsters are drawn touching each other in the
    terminal: leave a gap" — a blank line between two monsters' drawings, in a
    build and while placing by hand."""
    view = _view_with_builds()
    build = next(p["build"] for p in view["players"] if len(p["build"]["monsters"]) > 1)  # type: ignore[index,union-attr]
    with use_language("en"):
        text = _monsters(DECK, build).plain
    assert "+\n\n  " in text, text
    two = {"placing": [[0, 0, 0, False], [1, 100, 0, False]], "hand": [0, 1], "held_cards": []}
    with use_language("en"):
        text = _placing(DECK, two).plain
    assert text.count("+\n\n  +") == 1, text
