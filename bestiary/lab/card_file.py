"""A designer's card file as the validator sees it: its lines, and which
lines are which card (a CSV row, a TOML ``[[table]]``) with the card's fields.

Only what checking a file needs: the card a loader's error line falls in,
the file with some cards set aside (commented out, so that every other line
keeps its number), and one card written again with some of its fields
changed (a probe, see :mod:`bestiary.lab.cards`). The games' loaders stay
the judges of what a card may be; nothing here knows a game's rules.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import tomllib
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any

# A top-level header: an array of tables ([[creature]]) starts a card, a plain
# table ([method]) ends one. Dotted headers ([creature.ability]) belong to the card.
_ARRAY = re.compile(r"\s*\[\[\s*([A-Za-z0-9_-]+)\s*\]\]\s*(?:#.*)?$")
_TABLE = re.compile(r"\s*\[\s*[A-Za-z0-9_-]+\s*\]\s*(?:#.*)?$")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_NAME = re.compile(r"""^\s*name\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.MULTILINE)


@dataclass(frozen=True)
class Card:
    start: int  # its first line (1-based)
    end: int  # the line after its last
    section: str  # the TOML array it is a table of; "" for a CSV row
    fields: dict[str, Any] | None  # None: the row or table cannot be read on its own
    name: str  # as written; "" when it has none

    def holds(self, line: int) -> bool:
        return self.start <= line < self.end


@dataclass(frozen=True)
class CardFile:
    lines: list[str]  # the file's lines, each with its own line end
    toml: bool
    header: list[str]  # a CSV file's column names as written; [] for TOML
    cards: list[Card]

    def card_at(self, line: int) -> int | None:
        """The index of the card that holds ``line``, if one does."""
        return next((i for i, c in enumerate(self.cards) if c.holds(line)), None)

    def render(self, aside: set[int], probe: tuple[int, str] | None = None) -> str:
        """The file with the cards ``aside`` commented out and, for a probe
        ``(index, text)``, that card's lines replaced by ``text``."""
        out = list(self.lines)
        for i in sorted(aside, reverse=True):
            c = self.cards[i]
            out[c.start - 1 : c.end - 1] = ["# " + line for line in out[c.start - 1 : c.end - 1]]
        if probe is not None:
            c = self.cards[probe[0]]
            out[c.start - 1 : c.end - 1] = [probe[1]]
        return "".join(out)

    def write(self, card: Card, fields: dict[str, Any]) -> str:
        """``fields`` written as the card's own row or table (a probe's text,
        ending with a line end)."""
        if not self.toml:
            buf = io.StringIO()
            csv.writer(buf, lineterminator="\n").writerow(
                [str(fields.get(h.casefold(), "")) for h in self.header]
            )
            return buf.getvalue()
        body = "".join(f"{_key(k)} = {_value(v)}\n" for k, v in fields.items())
        return f"[[{card.section}]]\n{body}"

    def field_name(self, key: str) -> str:
        """A field as the designer wrote it (a CSV column keeps its case)."""
        return next((h for h in self.header if h.casefold() == key), key)


def read(text: str, toml: bool) -> CardFile:
    lines = text.splitlines(keepends=True)
    return _read_toml(lines) if toml else _read_csv(lines)


def _read_csv(lines: list[str]) -> CardFile:
    header: list[str] = []
    cards: list[Card] = []
    for n, line in enumerate(lines, 1):
        bare = line.rstrip("\r\n")
        if not bare.strip() or bare.lstrip().startswith("#"):
            continue
        try:
            cells = next(csv.reader([bare]), [])
        except csv.Error:
            cells = None
        if not header:
            if cells is None:
                break  # no header to read rows by: the loader says what is wrong
            header = [h.strip() for h in cells]
            continue
        keys = [h.casefold() for h in header]
        named = dict(zip(keys, (v.strip() for v in cells or []), strict=False))
        fields = named if cells is not None and len(cells) == len(keys) else None
        cards.append(Card(n, n + 1, "", fields, named.get("name", "")))
    return CardFile(lines, False, header, cards)


def _read_toml(lines: list[str]) -> CardFile:
    starts: list[tuple[int, str]] = []  # (line, section) of each [[table]]
    ends: list[int] = []  # lines of plain [tables], which end a card too
    for n, line in enumerate(lines, 1):
        m = _ARRAY.match(line)
        if m:
            starts.append((n, m.group(1)))
        elif _TABLE.match(line):
            ends.append(n)
    cards: list[Card] = []
    for k, (start, section) in enumerate(starts):
        nxt = [s for s, _sec in starts[k + 1 : k + 2]] + [e for e in ends if e > start]
        end = min(nxt, default=len(lines) + 1)
        text = "".join(lines[start - 1 : end - 1])
        try:
            got = tomllib.loads(text).get(section)
            fields = got[0] if isinstance(got, list) and got and isinstance(got[0], dict) else None
        except tomllib.TOMLDecodeError:
            fields = None
        if fields is not None:
            name = fields.get("name", "")
            name = name if isinstance(name, str) else ""
        else:  # the table does not parse: its name as written, if a line says it
            m = _NAME.search(text)
            name = (m.group(1) or m.group(2) or "") if m else ""
        cards.append(Card(start, end, section, fields, name))
    return CardFile(lines, True, [], cards)


def _key(k: str) -> str:
    return k if _BARE_KEY.fullmatch(k) else _string(k)


def _string(s: str) -> str:
    # JSON's escapes are TOML's, but for DEL, which TOML wants escaped as well
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def _value(v: Any) -> str:
    """A value tomllib read, written back as TOML (inline tables for tables)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        return ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, (datetime, date, time)):
        return v.isoformat()
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"not a TOML value: {type(v).__name__}")
