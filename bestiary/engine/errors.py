"""The few exceptions bad input raises.

Every message says what was wrong and what is allowed instead. Whatever
raised one left every state and record unchanged: nothing is half-applied.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from ..i18n import core

_ = core.gettext
ngettext = core.ngettext


class BestiaryError(Exception):
    """Base of every error the engine raises on bad input."""


def _allowed(options: Iterable[object], limit: int = 40) -> str:
    items = [str(o) for o in options]
    shown = ", ".join(items[:limit])
    if len(items) > limit:
        shown += _(", … ({n} more)").format(n=len(items) - limit)
    return shown or _("nothing")


class IllegalAction(BestiaryError):
    """An action that is not legal now for that seat (or not for any seat)."""

    def __init__(self, message: str, allowed: Iterable[object] | None = None) -> None:
        self.allowed = [str(a) for a in allowed] if allowed is not None else None
        if self.allowed is not None:
            message = _("{message}; allowed: {allowed}").format(
                message=message, allowed=_allowed(self.allowed)
            )
        super().__init__(message)


class NotYourTurn(IllegalAction):
    """The seat owes no decision right now."""


class UnknownGame(BestiaryError):
    def __init__(self, game_id: str, known: Iterable[str]) -> None:
        super().__init__(
            _("unknown game {game!r}; known games: {known}").format(
                game=game_id, known=_allowed(sorted(known))
            )
        )


class UnknownVariant(BestiaryError):
    def __init__(self, game_id: str, variant: str, known: Iterable[str]) -> None:
        super().__init__(
            _("{game} has no variant {variant!r}; variants: {known}").format(
                game=game_id, variant=variant, known=_allowed(known)
            )
        )


class BadOptions(BestiaryError):
    """A rule option that does not exist, or a value of the wrong kind."""


class BadPlayers(BestiaryError):
    def __init__(self, game_id: str, players: int, allowed: Iterable[int]) -> None:
        super().__init__(
            ngettext(
                "{game} cannot be played by {n} player; allowed: {allowed}",
                "{game} cannot be played by {n} players; allowed: {allowed}",
                players,
            ).format(game=game_id, n=players, allowed=_allowed(allowed))
        )


class UnknownCard(BestiaryError):
    def __init__(self, name: str, known: Iterable[str] | None = None) -> None:
        msg = _("unknown card {name!r}").format(name=name)
        if known is not None:
            names = sorted(known)
            close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
            shown = _allowed(names, 12)
            if close:
                guesses = _(" or ").join(map(repr, close))
                msg = _(
                    "unknown card {name!r}; did you mean {guesses}? (known cards include: {known})"
                ).format(name=name, guesses=guesses, known=shown)
            else:
                msg = _("unknown card {name!r} (known cards include: {known})").format(
                    name=name, known=shown
                )
        super().__init__(msg)


class BadCardFile(BestiaryError):
    """A malformed card (or other data) file: names the file, line and problem."""

    def __init__(self, path: str, line: int | None, problem: str) -> None:
        self.path, self.line, self.problem = path, line, problem
        if line is None:
            text = _("{path}: {problem}").format(path=path, problem=problem)
        else:
            text = _("{path}, line {line}: {problem}").format(path=path, line=line, problem=problem)
        super().__init__(text)


class BadRecord(BestiaryError):
    """A match record that cannot be read or does not replay."""


class BadAgentSpec(BestiaryError):
    """An agent spec such as ``ismcts:iterations=400`` that cannot be built."""


class BadInput(BestiaryError):
    """Malformed input to a tool (e.g. the JSON that ``bestiary score`` reads)."""
