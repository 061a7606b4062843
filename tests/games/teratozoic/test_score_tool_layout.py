"""The score tool's layout mode: ``{"placements": [[name, x, y, turned], ...]}``.

The web page's live score of a hand-placed build asks this instead of
scoring in JavaScript, so it must give exactly the game's `build placed`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine import BadInput, UnknownCard
from bestiary.games.teratozoic.game import named_build
from bestiary.games.teratozoic.rules import BUILD_BEST, BUILD_PLACED, EXPRESS, Attach, Start

from .helpers import DECK, GAME, ids, new, rig_hand

runner = CliRunner()
WORKED = (
    "green 6 tentacle-brain",
    "green 1 tentacle-with-science",
    "green 3 segment",
    "purple 3 left arm",
    "purple 5 pincer",
)
BRAIN, SCIENCE = WORKED[0], WORKED[1]


def score(payload: dict[str, Any], **options: object) -> dict[str, Any]:
    out = GAME.score_tool(payload, GAME.ruleset(None, options or None))
    assert out is not None
    return out


def test_a_layout_scores_exactly_as_the_game_scores_build_placed() -> None:
    """Rulebook, scoring: '1. Add up the face values of your played cards.
    2. +1 bonus point for each single-color monster with no loose ends. 3. If
    you need to double a monster's value, double both face values and bonus
    points. 4. +1 more bonus point if, considering all the cards you played as
    a group, there are no loose ends on any cards.' The worked example placed
    by hand (brain, science below it, the rest apart) scores 27 in the game;
    the same layout given to the score tool scores the same, monster by
    monster."""
    st = new(2, seed=19, two_player="extra-era")
    rig_hand(st, 0, WORKED)
    st.previous_winner = 0
    st._start_generation()
    while st.phase == "expression":
        st.apply(st.to_act()[0], EXPRESS)
    brain, science = ids(BRAIN, SCIENCE)
    st.apply(0, Start(brain, BRAIN))
    st.apply(0, Attach(science, SCIENCE, 2, brain, BRAIN))  # S of the brain
    st.apply(0, BUILD_PLACED)
    st.apply(1, BUILD_BEST)
    game_build = st.builds[0]
    assert game_build is not None and game_build.score == 27
    layout = [
        [DECK[p.card].name, p.x, p.y, p.turned] for m in game_build.monsters for p in m.placements
    ]
    assert len(layout) == 5
    out = score({"placements": layout})
    assert out["score"] == 27
    assert out["build"] == named_build(DECK, game_build)


def test_doubling_and_the_no_loose_ends_points_in_a_layout() -> None:
    """'the tentacle-with-science, in addition to doubling itself and the
    tentacle-brain, doubles the bonus point earned by creating an all-green
    monster with no loose ends': (6 + 1) x 2 + 1 x 2 = 16 for the monster,
    +1 as no card has a loose end = 17. Laid apart, each has a loose end:
    two monsters, the brain 6 and the science card 1 x 2 = 2, no bonus: 8."""
    joined = score({"placements": [[BRAIN, 0, 0, False], [SCIENCE, 0, -1, False]]})
    assert joined["score"] == 17
    (monster,) = joined["build"]["monsters"]
    assert monster["closed"] and monster["value"] == 16 and joined["build"]["all_closed"]
    apart = score({"placements": [[BRAIN, 0, 0, 0], [SCIENCE, -100, 0, 0]]})
    assert sorted(m["value"] for m in apart["build"]["monsters"]) == [2, 6]
    assert apart["score"] == 8 and not apart["build"]["all_closed"]
    assert score({"placements": []})["score"] == 0


def _laid_out(build: dict[str, Any]) -> list[list[Any]]:
    """A solver build as one table layout: each monster 100 cells further east
    (the solver draws every monster from its own origin). The tool names the
    cards, so its answer is a valid request as it stands."""
    return [
        [c, x + 100 * k, y, t]
        for k, m in enumerate(build["monsters"])
        for c, x, y, t in m["placements"]
    ]


@pytest.mark.parametrize("ignore", [False, True])
def test_the_doubling_option_comes_from_the_request_or_else_the_rules(ignore: bool) -> None:
    """RULES.md's house rule `doubling_ignores_colour` ('3. If you need to
    double a monster's value ...' read as: a doubling card doubles every card
    of its monster). The solver's best build of the worked example, laid out
    on the table, scores what the solver says under either reading, whether
    the option comes in the request or in the rules."""
    best = score({"cards": list(WORKED)}, doubling_ignores_colour=ignore)["build"]
    layout = _laid_out(best)
    by_request = score({"placements": layout, "doubling_ignores_colour": ignore})
    by_rules = score({"placements": layout}, doubling_ignores_colour=ignore)
    assert by_request == by_rules
    assert by_request["score"] == best["score"]
    if not ignore:
        assert best["score"] == 32  # the rulebook's worked example
    # An orange doubler joined to a three-colour 5: by colour only itself is
    # doubled (1 x 2 + 5 = 7); ignoring colour both are (2 + 10 = 12).
    mixed = [
        ["orange 1 tentacle-with-science", 0, 0, False],
        ["three-colour 5 chimera", 0, 1, True],
    ]
    (monster,) = score({"placements": mixed, "doubling_ignores_colour": ignore})["build"][
        "monsters"
    ]
    assert monster["value"] == (12 if ignore else 7)
    assert score({"placements": mixed}, doubling_ignores_colour=ignore)["score"] == monster["value"]


@pytest.mark.parametrize(
    ("payload", "error", "message"),
    [
        ({"placements": "x"}, BadInput, "must be a list of \\[card name, x, y, turned\\]"),
        ({"placements": [[BRAIN, 0, 0]]}, BadInput, "item 0 is"),
        ({"placements": [[BRAIN, "0", 0, False]]}, BadInput, "x, y integers"),
        ({"placements": [[BRAIN, True, 0, False]]}, BadInput, "x, y integers"),
        ({"placements": [[BRAIN, 0, 0, "yes"]]}, BadInput, "'turned' must be true/false"),
        ({"placements": [[BRAIN, 0, 0, 2]]}, BadInput, "'turned' must be true/false"),
        ({"placements": [["green 7 nothing", 0, 0, False]]}, UnknownCard, "unknown card"),
        (
            {"placements": [[BRAIN, 0, 0, False], [SCIENCE, 0, 0, False]]},
            BadInput,
            "both on cell \\(0, 0\\): cards cannot overlap",
        ),
        (
            {"placements": [[BRAIN, 0, 0, False], [BRAIN, 1, 0, False]]},
            BadInput,
            "laid out twice",
        ),
        (
            {"placements": [], "doubling_ignores_colour": "yes"},
            BadInput,
            "'doubling_ignores_colour' must be true or false",
        ),
        ({"layout": []}, BadInput, "placements"),
    ],
)
def test_a_malformed_layout_is_refused_with_what_is_allowed(
    payload: dict[str, Any], error: type[Exception], message: str
) -> None:
    """Bad input raises an engine exception saying what is allowed; 'Cards
    cannot overlap' (rulebook): one card per cell."""
    with pytest.raises(error, match=message):
        score(payload)


def test_bestiary_score_reads_a_layout_from_stdin() -> None:
    """`bestiary score teratozoic` passes stdin's JSON to the score tool:
    the joined brain and science card score 17 ((6 + 1) x 2 + 1 x 2 + 1);
    an overlap exits 2 with the reason."""
    layout = {"placements": [[BRAIN, 0, 0, False], [SCIENCE, 0, -1, False]]}
    res = runner.invoke(app, ["score", "teratozoic"], input=json.dumps(layout))
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["score"] == 17
    layout["placements"][1][2] = 0
    res = runner.invoke(app, ["score", "teratozoic"], input=json.dumps(layout))
    assert res.exit_code == 2 and "cannot overlap" in res.output
    res = runner.invoke(
        app, ["score", "teratozoic"], input=json.dumps({"placements": [["nope", 0, 0, 0]]})
    )
    assert res.exit_code == 2 and "unknown card 'nope'" in res.output
