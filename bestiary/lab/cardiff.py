"""What a designer changed between two runs' card files, card by card and field by field.

A run keeps the text of every card file it was played with in its metadata
(``files``: option -> text; the shipped file's when no option names one), so
the comparison still works after the file was edited again or moved. Runs
written before that kept only the path and a hash: their file is read from
the path (or the shipped file) when its hash still matches, else the change
is reported as unknown.

Both formats the games use are read as rows with a name:

- CSV (``#`` lines are comments): one row per line, named by its ``name``
  column (a name seen again is ``name (2)``, for decks that list a card once
  per copy);
- TOML: every array of tables (``[[creature]]``) gives rows named
  ``creature NAME``; every other table (``[patterns]``) is one row named by
  its key, its fields the table's own keys.
"""

from __future__ import annotations

import csv
import io
import json
import tomllib
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from ..engine.errors import BestiaryError
from ..engine.registry import get_game
from .runs import card_file_path, cards_hash, run_meta

# key -> (section, name, field -> value as text)
Rows = dict[str, tuple[str, str, dict[str, str]]]


@dataclass(frozen=True)
class CardChange:
    """One field of one card (or a whole card, ``field`` = "") that differs."""

    file: str  # the option that names the file: cards, treasures, scoring...
    section: str  # a TOML array's name (creature, destiny, leader); "" in a CSV
    name: str  # the card's name (a TOML table's key for a plain table)
    field: str
    a: str  # "" when the card is new in B
    b: str  # "" when the card was removed in B

    @property
    def card(self) -> str:
        return f"{self.section} {self.name}".strip()

    def to_json(self) -> dict[str, str]:
        return {
            "file": self.file,
            "card": self.card,
            "name": self.name,
            "field": self.field,
            "a": self.a,
            "b": self.b,
        }


def _value(v: Any) -> str:
    return v if isinstance(v, str) else json.dumps(v, sort_keys=True, ensure_ascii=False)


def rows_of(text: str, toml: bool) -> Rows:
    """A card file's rows: key -> (section, name, field -> value as text)."""
    out: Rows = {}

    def put(section: str, name: str, fields: dict[str, str]) -> None:
        shown, k = name, 1
        while f"{section} {shown}" in out:
            k += 1
            shown = f"{name} ({k})"
        out[f"{section} {shown}"] = (section, shown, fields)

    if toml:
        data = tomllib.loads(text)
        for section, value in data.items():
            if isinstance(value, list) and all(isinstance(x, dict) for x in value):
                for item in value:
                    fields = {k: _value(v) for k, v in item.items()}
                    put(section, str(item.get("name", "?")), fields)
            elif isinstance(value, dict):
                put("", section, {k: _value(v) for k, v in value.items()})
            else:
                put("", section, {"value": _value(value)})
        return out
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    for i, row in enumerate(csv.DictReader(io.StringIO(body)), start=1):
        name = (row.get("name") or "").strip() or f"row {i}"
        put("", name, {k: (v or "").strip() for k, v in row.items() if k is not None})
    return out


def diff_rows(file: str, a: Rows, b: Rows) -> list[CardChange]:
    changes = []
    for key in sorted(a.keys() | b.keys()):
        section, name, _ = a[key] if key in a else b[key]
        if key not in b:
            changes.append(CardChange(file, section, name, "", "(card)", ""))
        elif key not in a:
            changes.append(CardChange(file, section, name, "", "", "(card)"))
        else:
            fa, fb = a[key][2], b[key][2]
            for field in sorted(fa.keys() | fb.keys()):
                x, y = fa.get(field, ""), fb.get(field, "")
                if x != y:
                    changes.append(CardChange(file, section, name, field, x, y))
    return changes


def file_texts(table: pa.Table) -> dict[str, tuple[str, bool] | None]:
    """Option -> (text, is TOML) of every card file of the run's game; None
    where the text is gone (an older run whose file has changed since)."""
    meta = run_meta(table)
    cfg = meta.get("config", {})
    kept: dict[str, str] = meta.get("files") or {}
    game = get_game(str(cfg.get("game")))
    options = dict(cfg.get("options") or {})
    # The option names from the rules' defaults: the run's own files may be gone.
    rules = game.ruleset(cfg.get("variant") or None, {})
    out: dict[str, tuple[str, bool] | None] = {}
    try:
        hash_ok = cards_hash(game.id, cfg.get("variant") or "", options) == meta.get("cards_hash")
    except (BestiaryError, OSError):  # a file of the run is gone or broken now
        hash_ok = False
    for field in sorted(type(rules).path_fields()):
        path = card_file_path(game.id, field, str(options.get(field) or ""))
        if path is None:
            continue
        toml = path.suffix.lower() == ".toml"
        if field in kept:
            out[field] = (kept[field], toml)
        elif hash_ok and path.is_file():
            out[field] = (path.read_text(encoding="utf-8-sig"), toml)
        else:
            out[field] = None
    return out


def card_changes(a: pa.Table, b: pa.Table) -> tuple[list[CardChange], list[str]]:
    """Every card field that differs between the runs' card files, and the
    files whose change cannot be told (their text is gone)."""
    fa, fb = file_texts(a), file_texts(b)
    changes: list[CardChange] = []
    unknown: list[str] = []
    for field in sorted(fa.keys() & fb.keys()):
        x, y = fa[field], fb[field]
        if x is None or y is None:
            unknown.append(field)
            continue
        if x[0] != y[0]:
            changes += diff_rows(field, rows_of(x[0], x[1]), rows_of(y[0], y[1]))
    return changes, unknown
