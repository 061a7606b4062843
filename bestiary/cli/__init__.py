"""The ``bestiary`` command: play, simulate, replay, inspect and benchmark games.

One module per group of commands; they are registered here, in the order
``bestiary --help`` lists them.
"""

from __future__ import annotations

from . import bench, inspect, lab, play, replay, serve, simulate
from .app import app

app.command()(inspect.games)
app.command()(play.play)
app.command()(simulate.simulate)
app.command()(replay.replay)
app.command()(inspect.cards)
app.command()(lab.report)
app.command()(lab.compare)
app.command()(lab.sweep)
app.command()(lab.arena)
app.command()(lab.validate)
app.command(cls=inspect.ScoreCommand)(inspect.score)
app.command()(bench.bench)
app.command()(serve.serve)

__all__ = ["app", "main"]


def main() -> None:
    app()
