"""What a person types at the terminal, including while a bot takes its beat.

A bot answers a person's move after a short beat (``--bot-delay``) so that
``undo`` stays possible: once another seat has moved, a move stands
(``undo.py``). During the beat we watch the keyboard; a line typed then is
``undo`` (taken at once) or the answer to the next prompt, kept for it.
Piped input (tests, scripts) is typed ahead by nature: the beat looks at its
next line the same way, without waiting.
"""

from __future__ import annotations

import select
import sys
import time


class Keyboard:
    def __init__(self) -> None:
        self.pending: list[str] = []

    def read(self, prompt: str) -> str:
        """The next line: one typed during a beat first, else ``input`` (EOFError at the end)."""
        if self.pending:
            line = self.pending.pop(0)
            print(prompt + line)
            return line
        return input(prompt)

    def beat(self, seconds: float) -> str | None:
        """Wait up to ``seconds`` for a line; return it (it stays pending) or None."""
        if seconds <= 0:
            return None
        if self.pending:
            return self.pending[0]
        stream = sys.stdin
        try:
            live = stream.isatty()
            fileno = stream.fileno()
        except (AttributeError, OSError, ValueError):
            live, fileno = False, -1
        if not live:
            time.sleep(seconds)
            return self._typed_ahead()
        try:
            ready, _w, _x = select.select([fileno], [], [], seconds)
        except (OSError, ValueError):  # no select on this stream: just wait
            time.sleep(seconds)
            return None
        if not ready:
            return None
        line = stream.readline()
        if not line:
            return None
        self.pending.append(line.rstrip("\n"))
        return self.pending[0]

    def _typed_ahead(self) -> str | None:
        try:
            line = input()
        except EOFError:
            return None
        self.pending.append(line)
        return line

    def take(self) -> None:
        """Drop the pending line the beat returned (it was ``undo``, now done)."""
        if self.pending:
            self.pending.pop(0)
