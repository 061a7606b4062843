"""Table chat (issue 26): a few quick messages and short free text between
the people and spectators at one table.

What this module decides: which messages are accepted (a known quick key,
or text of at most ``MAX_CHAT_CHARS`` once control characters are removed
and the ends trimmed), what the broadcast message holds, and the last
``HISTORY`` messages a table keeps in memory for sockets that connect later.

Hidden information: a chat message carries only who wrote it (seat number
and seat name, or "spectator"), what they wrote and the server's clock;
nothing about the game (no move number, no whose turn). Nothing of chat is
stored with the table or in the game's record: it lives in this process's
memory only and goes with the table's replica (with several processes each
has its own room: chat is per process, see the web README).
"""

from __future__ import annotations

import unicodedata
from collections import deque
from datetime import UTC, datetime
from typing import Any

# The quick messages: fixed keys, each translated on the reader's page
# (js/chat.js), so "gg" reads "Dobra gra!" to a Polish reader.
QUICK = ("gg", "your_turn", "thinking", "well_played", "one_moment")
MAX_CHAT_CHARS = 200
HISTORY = 50  # messages kept per table, sent after hello

# Format characters (Unicode category Cf) are invisible: direction overrides
# make a name or a message read backwards on the reader's screen, zero-width
# spaces make a message that looks empty. They go with the control
# characters, except those that join emoji and scripts (ZWNJ, ZWJ, and the
# tag characters of subdivision flags).
_KEPT_FORMAT = {"\u200c", "\u200d"}
_TAGS = range(0xE0020, 0xE0080)
_SPACES = set("\n\r\t\u2028\u2029")  # a line break is a space: chat is one line


class ChatRefused(ValueError):
    """A chat message that is not sent: ``message`` (English, for other
    clients) and ``fields`` for the error answer (``chat``: the reason's key,
    and what is allowed)."""

    def __init__(self, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.message, self.fields = message, fields

    def answer(self) -> dict[str, Any]:
        return {"type": "error", "message": self.message, **self.fields}


def clean(text: str) -> str:
    """``text`` without control, surrogate or invisible format characters,
    its ends trimmed; a line break or tab becomes a space."""
    out = []
    for ch in text:
        if ch in _SPACES:
            out.append(" ")
            continue
        kind = unicodedata.category(ch)
        if kind in ("Cc", "Cs"):
            continue
        if kind == "Cf" and ch not in _KEPT_FORMAT and ord(ch) not in _TAGS:
            continue
        out.append(ch)
    return "".join(out).strip()


def parse_chat(msg: dict[str, Any]) -> dict[str, str]:
    """The content of a client's ``chat`` message: ``{"text": …}`` or
    ``{"quick": …}``; :class:`ChatRefused` says why not."""
    text, quick = msg.get("text"), msg.get("quick")
    if (text is None) == (quick is None):
        raise ChatRefused(
            'a chat message needs either "text" or "quick"', chat="shape", quick=list(QUICK)
        )
    if quick is not None:
        if not isinstance(quick, str) or quick not in QUICK:
            shown = repr(quick[:20]) if isinstance(quick, str) else type(quick).__name__
            raise ChatRefused(
                f"unknown quick message {shown}; use one of: {', '.join(QUICK)}",
                chat="quick",
                allowed=list(QUICK),
            )
        return {"quick": quick}
    if not isinstance(text, str):
        raise ChatRefused(
            f'"text" is a string of at most {MAX_CHAT_CHARS} characters',
            chat="length",
            limit=MAX_CHAT_CHARS,
        )
    cleaned = clean(text)
    if len(cleaned) > MAX_CHAT_CHARS:
        raise ChatRefused(
            f"a chat message is at most {MAX_CHAT_CHARS} characters (this one has {len(cleaned)})",
            chat="length",
            limit=MAX_CHAT_CHARS,
        )
    if not cleaned:
        raise ChatRefused(
            "a chat message is empty once control characters are removed", chat="empty"
        )
    return {"text": cleaned}


def too_fast(retry_after: float, per_second: float, burst: int) -> ChatRefused:
    """The answer to a chat message over the socket's chat rate."""
    wait = max(0.1, round(retry_after, 1))
    return ChatRefused(
        f"too many chat messages (at most {burst} at once, then {per_second:g} a second): "
        f"try again in {wait:g} s",
        chat="rate",
        retry_after=wait,
    )


class ChatRoom:
    """One table's chat in this process: the last ``HISTORY`` messages."""

    def __init__(self, keep: int = HISTORY) -> None:
        self.history: deque[dict[str, Any]] = deque(maxlen=keep)

    def post(self, seat: int | None, name: str, content: dict[str, str]) -> dict[str, Any]:
        """The message everyone at the table gets (kept for later sockets)."""
        at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        msg = {"type": "chat", "from": seat, "name": name, **content, "at": at}
        self.history.append(msg)
        return msg

    def backlog(self) -> dict[str, Any] | None:
        """What a socket gets after hello: the kept messages, oldest first
        (None when there are none: a table nobody chats at sends nothing)."""
        if not self.history:
            return None
        return {"type": "chat_history", "messages": list(self.history)}
