"""A bot's name in the current language: "hard bot" / "bot trudny".

The server names a seat's bot after its level (``{agent} bot``); the level is
an agent spec, a word of the protocol, so the known ones have whole names in
the catalog and any other (an operator's own bot) keeps its spec.
"""

from __future__ import annotations

from . import N_, core

BOT_NAMES = {
    "random": N_("random bot"),
    "easy": N_("easy bot"),
    "normal": N_("normal bot"),
    "hard": N_("hard bot"),
    "heuristic": N_("heuristic bot"),
}


def bot_name(agent: str) -> str:
    """``normal`` → "normal bot" ("bot normalny"); an unknown spec stays in it."""
    known = BOT_NAMES.get(agent)
    return core.gettext(known) if known else core.gettext("{agent} bot").format(agent=agent)


def seat_kind(spec: str) -> str:
    """Who plays a seat, in words: ``human`` → "a person" ("człowiek"), a bot by
    its name; a spec with settings (``ismcts:iterations=200``) stays as typed."""
    if spec == "human":
        return core.gettext("a person")
    return bot_name(spec) if spec in BOT_NAMES else spec
