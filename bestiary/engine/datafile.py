"""Reading the data files a designer edits (card lists, scoring tables).

One rule for every game: UTF-8 text, with or without the byte-order mark that
spreadsheets write ("CSV UTF-8"); anything else is a one-line
:class:`BadCardFile` naming the file and the line of the first bad byte.
"""

from __future__ import annotations

from pathlib import Path

from ..i18n import core
from .errors import BadCardFile


def decode_text(path: str, raw: bytes, hint: str = "") -> str:
    """``raw`` as text; ``hint`` ends the advice (e.g. ``" (CSV, comma separated)"``)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        problem = core.gettext("not UTF-8 text (byte 0x{byte}); save it as UTF-8{hint}").format(
            byte=f"{raw[exc.start]:02x}", hint=hint
        )
        raise BadCardFile(path, line, problem) from None


def read_bytes(path: str | Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise BadCardFile(
            str(path), None, core.gettext("cannot read the file ({reason})").format(reason=reason)
        ) from None
    except ValueError:  # a NUL byte in the name
        raise BadCardFile(repr(str(path)), None, core.gettext("not a file name")) from None


def read_text(path: str | Path, hint: str = "") -> str:
    """The data file at ``path`` as text (see the module docstring)."""
    return decode_text(str(path), read_bytes(path), hint)
