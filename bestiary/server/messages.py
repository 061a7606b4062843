"""What the server tells one seat (or a spectator): built only from what the
protocol gives that seat — ``view(seat)``, ``events_since(n, seat)``,
``legal(seat)`` and, once the game is over, the result.

This module is the whole of what leaves the server about a match in
progress, so the leak tests check it message by message.

Log lines go out in every language at once (``"texts": {"en": …, "pl": …}``;
``"text"`` stays English for older pages) with the rule behind them
(``"rule"``: RULES.md anchor, heading and the rulebook's words, or None), so a
page switches language without asking the server again. A line depends only
on the event and the table's seat names, both the same for everyone allowed
to see the event, so it is built once and shared by every connection.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.eventrules import pick, variants
from ..engine.events import Event
from ..engine.protocol import Game, State
from ..i18n import LANGUAGES, N_, core, language, use_language
from ..i18n.agents import bot_name
from ..i18n.labels import labels_by_language

log = logging.getLogger("bestiary.server")

_ = core.gettext

# What the server itself says to a socket (app.py, live.py): marked here so the
# catalog keeps them; the pages look each one up in the language they show.
SERVER_MESSAGES = (
    N_("internal server error"),
    N_("internal server error: this seat's view could not be built"),
    N_("too many messages; closing"),
    N_("too many messages: slow down"),
    N_("spectators cannot act; join a seat to play"),
    N_('"act" needs "action": the text of a legal action'),
    N_("already connected"),
    N_("you resigned: a bot plays this seat now; you are watching"),
    N_("spectators cannot take moves back"),
)

# Sent to a socket before its whole state anew, when moves it saw were taken
# back (an undo): the page drops what it had and reads the update that follows.
RESET: dict[str, Any] = {"type": "reset", "why": "undo"}

_CACHE_SIZE = 20_000
# (id(event), game id, names) -> (event, payload). The entry holds the event
# itself, so its id cannot be reused by another object while it is cached.
_cache: OrderedDict[tuple[int, str, tuple[tuple[str, ...], ...]], tuple[Event, dict[str, Any]]] = (
    OrderedDict()
)


def describe(game: Game, event: Event, names: Sequence[str] | None = None) -> str:
    """The game's readable line for an event in the current language (a plain
    fallback if the hook fails)."""
    try:
        try:
            return str(game.describe_event(event, names))
        except TypeError:  # a game written before describers took the seats' names
            return str(game.describe_event(event))
    except Exception:  # a game's describe hook must not break play
        log.exception("describe_event failed for %s event %s", game.id, event.kind)
        return event.kind


def rule_json(
    game: Game, kind: str, data: Mapping[str, Any] | None = None
) -> dict[str, str] | None:
    """The rule behind events of ``kind`` (anchor, title, quote) in the
    current language, or None; given an event's ``data``, the narrower rule
    the game's table keeps for it. Found once per game, rule and language (the
    lookup resolves the game's folder on disk: a tenth of a busy server's
    time when it was done for every event); do not change what it returns."""
    where = (type(game), game.id, kind)
    narrower = _variants.get(where)
    if narrower is None:
        folder = game.package_dir()
        narrower = variants(folder, kind) if folder else ()
        if len(_variants) < _RULES_SIZE:
            _variants[where] = narrower
    name = pick(narrower, kind, data)
    key = (type(game), game.id, name, language())
    if key in _rules:
        return _rules[key]
    try:
        # The plain rule is asked as before (a game may override event_rule(kind)).
        rule = game.event_rule(kind, data) if name != kind else game.event_rule(kind)
    except Exception:  # a broken rules table costs the tooltip, not the game
        log.exception("event_rule failed for %s event %s", game.id, kind)
        return None
    found = rule.to_json() if rule is not None else None
    if len(_rules) < _RULES_SIZE:
        _rules[key] = found
    return found


_RULES_SIZE = 10_000  # (game, kind, language) entries: far more than the games have
_rules: dict[tuple[type, str, str, str], dict[str, str] | None] = {}
# (game, kind) → the narrower rules its table keeps for some events of that kind
_variants: dict[tuple[type, str, str], tuple[tuple[str, str, str], ...]] = {}


def seat_names(table: Mapping[str, Any] | None, lang: str = "en") -> tuple[str, ...]:
    """The names the table shows for its seats in ``lang`` ("" where a seat has
    none yet: the log line then says "seat N"). A bot the server named after
    its level ("normal bot") is named in that language; people's names are
    theirs. A name two seats share ("hard bot", three times at a table of
    bots) gets its seat, "hard bot (seat 2)": a log line must say which."""
    seats = (table or {}).get("seats") or []
    names: list[str] = []
    for s in seats:
        if not isinstance(s, Mapping):
            names.append("")
            continue
        name, agent = s.get("name"), s.get("agent")
        if s.get("kind") == "bot" and agent and name == f"{agent} bot":
            with use_language(lang):
                name = bot_name(str(agent))
        names.append(str(name)[:60] if name else "")
    shared = {n for n in names if n and names.count(n) > 1}
    if shared:
        with use_language(lang):
            names = [
                _("{name} (seat {n})").format(name=n, n=i) if n in shared else n
                for i, n in enumerate(names)
            ]
    return tuple(names)


def table_names(table: Mapping[str, Any] | None) -> dict[str, tuple[str, ...]]:
    """The seats' names in every language (``seat_names`` for each)."""
    return {lang: seat_names(table, lang) for lang in LANGUAGES}


Names = Sequence[str] | Mapping[str, Sequence[str]] | None


def _names_in(names: Names, lang: str) -> tuple[str, ...]:
    if isinstance(names, Mapping):
        return tuple(names.get(lang) or names.get("en") or ())
    return tuple(names or ())


def _payload(game: Game, event: Event, names: Names) -> dict[str, Any]:
    texts: dict[str, str] = {}
    quotes: dict[str, str] = {}
    titles: dict[str, str] = {}
    quote_languages: dict[str, str] = {}
    rule: dict[str, Any] | None = None
    for lang in LANGUAGES:
        with use_language(lang):
            texts[lang] = describe(game, event, _names_in(names, lang) or None)
            found = rule_json(game, event.kind, event.data)
        if found is not None:
            quotes[lang], titles[lang] = found["quote"], found["title"]
            quote_languages[lang] = found["quote_language"]
            if rule is None or lang == "en":
                rule = dict(found)
    if rule is not None:
        # A bilingual rulebook's words in each language (the rulebook's own
        # otherwise: which language each is in), and the rule's title in each.
        rule["quotes"], rule["titles"] = quotes, titles
        rule["quote_languages"] = quote_languages
    return {"text": texts["en"], "texts": texts, "rule": rule}


def event_json(game: Game, event: Event, names: Names = None) -> dict[str, Any]:
    """One log entry: the event, its line in every language and its rule.
    ``names``: the seats' names, one list for every language or a dict of
    them by language (``table_names``)."""
    key = (id(event), game.id, tuple(_names_in(names, lang) for lang in LANGUAGES))
    hit = _cache.get(key)
    if hit is not None and hit[0] is event:
        _cache.move_to_end(key)
        payload = hit[1]
    else:
        payload = _payload(game, event, names)
        _cache[key] = (event, payload)
        if len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    # The payload is shared: each message gets its own copies of what it may change.
    return {
        "event": event.to_json(),
        "text": payload["text"],
        "texts": dict(payload["texts"]),
        "rule": payload["rule"],
    }


def seat_update(
    game: Game,
    state: State,
    seat: int | None,
    since: int,
    shown: int,
    moves: int,
    table: dict[str, Any],
    clock: dict[str, Any] | None = None,
    notices: Sequence[dict[str, Any]] = (),
    can_undo: bool = False,
) -> dict[str, Any]:
    """The update for ``seat`` (None: spectator) carrying its events after log
    index ``since``.

    ``can_undo`` (seats only): whether the seat may take its last move back
    now (``server/takeback.py``); it changes only with what the seat sees.

    ``clock`` (a turn timer: ``clock_json``) goes only to the seat it times,
    while that seat owes a move; ``notices`` are the clock's log lines this
    seat may read (``clock_notice``). Both are left out when there are none.

    Events are numbered among those this seat can see (``shown`` were sent
    before), so gaps never betray hidden events; ``moves`` is this seat's own
    counter of the moves that showed it something; ``table`` the lobby's
    public table info (its seat names name the seats in log lines).
    """
    actions = list(state.legal(seat)) if seat is not None and not state.over else []
    legal = [str(a) for a in actions]
    result = state.result if state.over else None
    names = table_names(table)
    events = []
    for k, e in enumerate(state.events_since(since, seat)):
        item = event_json(game, e, names)
        item["event"]["i"] = shown + k
        events.append(item)
    return {
        "type": "update",
        "seat": seat,
        "moves": moves,
        "view": state.view(seat),
        "events": events,
        "legal": legal,
        # What each legal action's button says, per language (``legal`` stays
        # what is submitted: the protocol's text forms).
        "labels": labels_by_language(game, actions, names),
        "your_turn": bool(legal),
        "over": state.over,
        "result": result.to_json() if result is not None else None,
        "table": table,
        **({"can_undo": can_undo} if seat is not None else {}),
        **({"clock": clock} if clock is not None and legal else {}),
        **({"notices": list(notices)} if notices else {}),
    }


def clock_json(seconds_left: float, turn_seconds: int) -> dict[str, Any]:
    """A seat's own turn clock: the seconds left for its current decision
    (relative, so the page needs no clock of the server's) and the table's
    time per decision."""
    return {"seconds_left": round(max(0.0, seconds_left), 1), "turn_seconds": turn_seconds}


def clock_notice(table: Mapping[str, Any] | None, seat: int, at: int) -> dict[str, Any]:
    """The log line of a decision the turn timer took: "the clock ran out: a
    bot moved for Ana", in every language; ``at`` is the number (``event.i``)
    of the first event the reader was shown after it."""
    texts: dict[str, str] = {}
    for lang in LANGUAGES:
        who = _who(table, seat, lang)
        with use_language(lang):
            texts[lang] = _("The clock ran out: a bot moved for {name}.").format(name=who)
    return {"kind": "clock", "seat": seat, "at": at, "text": texts["en"], "texts": texts}


def undo_notice(table: Mapping[str, Any] | None, seat: int, at: int, yours: bool) -> dict[str, Any]:
    """The log line of an undo, in every language: "You took back your move."
    for the seat that did it, "Ana took back a move." for others it showed
    something; never which move. ``at`` as in ``clock_notice``."""
    texts: dict[str, str] = {}
    for lang in LANGUAGES:
        who = _who(table, seat, lang)
        with use_language(lang):
            texts[lang] = (
                _("You took back your move.")
                if yours
                else _("{name} took back a move.").format(name=who)
            )
    return {"kind": "undo", "seat": seat, "at": at, "text": texts["en"], "texts": texts}


def _who(table: Mapping[str, Any] | None, seat: int, lang: str) -> str:
    """The seat's name in ``lang`` as log lines give it ("seat 2" if none)."""
    name = _names_in(table_names(table), lang)[seat : seat + 1]
    if name and name[0]:
        return name[0]
    with use_language(lang):
        return _("seat {n}").format(n=seat)


def error(message: str) -> dict[str, Any]:
    """An error for one socket. Pages translate it (``t(message)``): the
    server's own messages are in the catalog (``SERVER_MESSAGES``)."""
    return {"type": "error", "message": message}
