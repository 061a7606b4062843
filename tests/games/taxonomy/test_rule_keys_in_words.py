"""The sets the rules make are named in the reader's language.

Rulebook v0.2: monsters alone in their type "form a set of their own" — the
orphans (the Polish guide: "Sieroty"). A Polish player read "Orphans /7" in
the hand's table, "zestaw Orphans" in the log and "przejmij jako Orphans" on
a button; the types and families of the card file ("Beastman/Cat", "Sprite")
are proper names and stay as the file writes them.
"""

from __future__ import annotations

from bestiary.engine.events import Event
from bestiary.games.taxonomy.describe import action_label, describe, key_label, rule_text
from bestiary.i18n import use_language


def test_the_rules_own_sets_are_polish_and_types_stay_names() -> None:
    with use_language("pl"):
        assert key_label("Orphans") == "Sieroty"
        assert key_label("Beastman orphans") == "Sieroty Beastman"
        assert key_label("Beastman/Cat") == "Beastman/Cat"
        assert action_label("claim Orphans") == "przejmij jako Sieroty"
        assert action_label("claim Sprite") == "przejmij jako Sprite"
        assert rule_text("set of 4 Orphans") == "zestaw 4 Sieroty"
        line = describe(
            Event(0, "tabled", {"seat": 1, "card": {"name": "Otohime"}, "key": "Orphans"}),
            ["Ana", "Ola"],
        )
        assert "Sieroty" in line and "Orphans" not in line
    with use_language("en"):
        assert action_label("claim Orphans") == "claim as Orphans"
        assert rule_text("set of 4 Orphans") == "set of 4 Orphans"


def test_a_claimers_choice_reads_as_words_with_the_cards_it_keeps() -> None:
    """Rulebook v0.2: a claimer of a set of more than three "chooses the cards
    to keep"; the private log line named the kept cards in the protocol's
    English ("przejmij jako Mage, keep Dhampir")."""
    event = Event(
        0,
        "decided",
        {"seat": 1, "choice": "claim Mage", "kept": ["keep Dhampir", "keep Trumpart"]},
    )
    with use_language("pl"):
        line = describe(event, ["Ana", "Ola"])
    assert line == (
        "Ola wybiera: przejmij jako Mage, zatrzymaj Dhampir na ręce, zatrzymaj Trumpart na ręce"
    )
