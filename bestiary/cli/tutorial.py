"""The first-game tutorial in the terminal (``bestiary play GAME --tutorial``).

The steps and their conditions are the game's ``tutorial.toml``, read and
advanced by :mod:`bestiary.engine.tutorial` (the web page runs the same rules
in ``web/js/tutorial-steps.js``). At a prompt, ``next`` plays the move the
step points at (or the menu's first), ``skip`` leaves the tutorial.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from ..engine.protocol import State
from ..engine.tutorial import Facts, Progress, Tutorial, advised
from ..i18n import core, language

_ = core.gettext


class Coach:
    """Prints each tutorial step above the prompt as the game reaches it."""

    def __init__(self, tutorial: Tutorial, seat: int, console: Console, game_id: str) -> None:
        self.tutorial = tutorial
        self.seat = seat
        self.console = console
        self.game_id = game_id
        self.progress = Progress(tutorial.steps)
        self.legal: list[str] = []

    def _facts(self, state: State) -> Facts:
        legal = [] if state.over else [str(a) for a in state.legal(self.seat)]
        return Facts(state.view(self.seat), legal, state.over)

    def at_decision(self, state: State) -> None:
        """Before the person's decision (and once the game is over)."""
        facts = self._facts(state)
        self.legal = list(facts.legal)
        step = self.progress.update(facts)
        if step is None:
            return
        n, total = self.progress.index + 1, len(self.progress.steps)
        body = Text(step.text.get(language(), step.text["en"]))
        move = advised(step, facts.legal)
        if move is not None:
            body.append("\n" + _("Try: {move} (or type next).").format(move=move), style="bold")
        if self.progress.done:
            body.append(
                "\n"
                + _(
                    "Tutorial over. Play it again: bestiary play {game} --tutorial; "
                    "a real game: bestiary play {game}"
                ).format(game=self.game_id),
                style="dim",
            )
        elif n == 1:
            body.append("\n" + _("Type skip to leave the tutorial."), style="dim")
        title = _("Tutorial, step {n} of {total}").format(n=n, total=total)
        self.console.print(Panel(body, title=Text(title), border_style="yellow"))

    def moved(self) -> None:
        self.progress.moved()

    def command(self, word: str, menu: Sequence[str]) -> str | None:
        """``next``: the move to play; ``skip``: leave the tutorial (None: ask again)."""
        if self.progress.skipped:
            return None
        if word == "skip":
            self.progress.skipped = True
            self.console.print(Text(_("Tutorial skipped: play on as you like."), style="yellow"))
            return None
        move = advised(self.progress.current(), self.legal)
        return move if move is not None else (menu[0] if menu else None)
