"""The ``bestiary`` command: play, simulate, replay, inspect and benchmark games.

One module per group of commands; they are registered here, in the order
``bestiary --help`` lists them.
"""

from __future__ import annotations

from ..i18n import N_
from . import bench, hint, inspect, lab, play, replay, rl, serve, simulate
from .app import app

# What `--help` says of each command (the docstrings, marked for translation).
HELP = {
    "games": N_("List the games, their variants, options and bots."),
    "play": N_(
        "Play a game in the terminal against bots (or friends, hot-seat).\n\n"
        "The seed is shown when the game is over, not before: it reproduces\n"
        "every hidden card."
    ),
    "simulate": N_(
        "Play many games between bots and print wins, scores and game statistics.\n\n"
        "With --out, every game is kept as a row of a run file for the lab\n"
        "(`bestiary report`, `bestiary compare`)."
    ),
    "report": N_(
        "One self-contained HTML page (plots embedded) for a run, or its summary as JSON."
    ),
    "compare": N_(
        "Every metric of two runs side by side: difference, interval, test; biggest movers first."
    ),
    "sweep": N_(
        "One run per value of an option (or per card file) and a page plotting each metric "
        "against the value."
    ),
    "arena": N_(
        "Round robin between agents with seats rotated: OpenSkill ratings with uncertainty."
    ),
    "ab": N_(
        "Play two versions of a game on common seeds in batches until a metric's change "
        "is known (an always-valid confidence sequence) or the budget of games is spent."
    ),
    "tune": N_(
        "Find the value of one card's integer field at which a metric reaches a target "
        "(bisection; the metric assumed monotone in the field)."
    ),
    "validate": N_("List every problem of a card file at once (exit 1 if there is any)."),
    "replay": N_("Step through a recorded game and check that it replays to its result."),
    "cards": N_(
        "List a game's cards, or export the shipped card file to edit (--export).\n\n"
        "For taxonomy the list also shows the collecting keys and orphans."
    ),
    "score": N_(
        "Score with a game's own scoring tool (JSON on stdin, JSON on stdout).\n\n"
        "Malformed input exits with code 2 and the shape the game expects.\n"
        "Example: echo '{\"hand\": [...]}' | bestiary score taxonomy"
    ),
    "hint": N_(
        "Suggest a move for a seat of a recorded game, as the strongest bot sees it "
        "(from that seat's view only)."
    ),
    "bench": N_(
        "Time random self-play (µs per decision, games per second), clone() and "
        "determinize() (µs each) and ISMCTS (iterations per second), and game extras.\n\n"
        "With a game, -o/--cards/--variant measure those rules (e.g. a designer's "
        "card file); without one, every installed game in one table."
    ),
    "serve": N_(
        "Run the web app: lobby and tables for every game. Several processes may "
        "serve the same tables over one PostgreSQL (--db postgresql://…)."
    ),
}

app.command(help=HELP["games"])(inspect.games)
app.command(help=HELP["play"])(play.play)
app.command(help=HELP["simulate"])(simulate.simulate)
app.command(help=HELP["replay"])(replay.replay)
app.command(help=HELP["hint"])(hint.hint)
app.command(help=HELP["cards"])(inspect.cards)
app.command(help=HELP["report"])(lab.report)
app.command(help=HELP["compare"])(lab.compare)
app.command(help=HELP["sweep"])(lab.sweep)
app.command(help=HELP["arena"])(lab.arena)
app.command(help=HELP["ab"])(lab.ab)
app.command(help=HELP["tune"])(lab.tune)
app.command(help=HELP["validate"])(lab.validate)
app.command(cls=inspect.ScoreCommand, help=HELP["score"])(inspect.score)
app.command(help=HELP["bench"])(bench.bench)
app.command(help=HELP["serve"])(serve.serve)
app.add_typer(rl.app, name="rl")

__all__ = ["app", "main"]


def main() -> None:
    app()
