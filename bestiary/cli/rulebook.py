"""``rules [topic]`` at a prompt: the game's rules for players (``guide/<lang>.md``)
in the language in use; ``rules spec [topic]``: its RULES.md, a section at a time.

Both sit in the game's package (DESIGN.md, "A game package"), so they are
found from the module that defines the game class: no game needs a hook.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..engine.guide import guide
from ..engine.protocol import Game
from ..i18n import core, language
from .textmatch import fold, match


@dataclass(frozen=True)
class Section:
    title: str
    body: str


def rules_path(game: Game) -> Path | None:
    return game.rules_path()


def sections(game: Game) -> list[Section]:
    """The ``##`` sections of the game's RULES.md (its preamble first, as "Overview")."""
    path = rules_path(game)
    if path is None:
        return []
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return []
    return split(text)


def guide_sections(game: Game) -> list[Section]:
    """The ``##`` sections of the rules for players, in the language in use."""
    try:
        found = guide(game, language())
    except Exception:  # an unreadable guide leaves `rules spec`, not a traceback
        return []
    return split(found[1]) if found else []


def split(text: str) -> list[Section]:
    """Markdown cut at its ``##`` headings (the preamble first, as "Overview")."""
    found: list[Section] = []
    title, body = core.gettext("Overview"), list[str]()
    for line in text.splitlines():
        if line.startswith("## "):
            found.append(Section(title, "\n".join(body).strip()))
            title, body = line[3:].strip(), []
        elif not line.startswith("# "):
            body.append(line)
    found.append(Section(title, "\n".join(body).strip()))
    return [s for s in found if s.body]


def find(
    game: Game, topic: str, secs: list[Section] | None = None
) -> tuple[Section | None, list[str]]:
    """The section ``topic`` names (by title, then by a unique section whose text
    mentions it), or None and the titles to choose from; ``secs`` defaults to
    RULES.md's."""
    secs = sections(game) if secs is None else secs
    titles = [s.title for s in secs]
    hit = match(topic, titles)
    if hit.index is not None:
        return secs[hit.index], titles
    words = [s.title for s in secs if fold(topic) in fold(s.title)]
    if len(words) == 1:
        return secs[titles.index(words[0])], titles
    if words:
        return None, words
    mentions = [s for s in secs if fold(topic) in fold(s.body)]
    if len(mentions) == 1:
        return mentions[0], titles
    return None, [s.title for s in mentions] or titles
