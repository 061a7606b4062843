"""A game's rules for players: ``guide/<lang>.md`` beside its RULES.md.

RULES.md is the engine's specification (every reading, in English); the
guide is the short version a newcomer reads before a first game, in each
language the project speaks. The guide cites the rulebook's lines in HTML
comments (``<!-- rulebook 000 lines 160-170 -->``) for whoever maintains
it; readers never see them, so they are dropped here, once for every surface.
"""

from __future__ import annotations

import re
from pathlib import Path

from .datafile import read_text
from .protocol import Game

FALLBACK = "en"
_COMMENT = re.compile(r"<!--.*?-->[ \t]*\n?", re.DOTALL)


def guide_path(game: Game, lang: str) -> Path | None:
    """The guide in ``lang``, else the English one, else None."""
    folder = game.package_dir()
    if folder is None:
        return None
    for code in dict.fromkeys((lang, FALLBACK)):
        path = folder / "guide" / f"{code}.md"
        if path.is_file():
            return path
    return None


def strip_comments(markdown: str) -> str:
    """The Markdown without its HTML comments (the rulebook citations)."""
    return _COMMENT.sub("", markdown)


def guide(game: Game, lang: str) -> tuple[str, str] | None:
    """``(language found, Markdown for readers)`` or None when the game has no guide."""
    path = guide_path(game, lang)
    if path is None:
        return None
    return path.stem, strip_comments(read_text(path))
