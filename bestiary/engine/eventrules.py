"""The rule behind each log line: ``why N`` in the terminal, a tooltip in the browser.

Each game keeps ``data/event_rules.toml`` beside its code, one table per event
kind::

    [draw]
    anchor = "drawing"                 # a heading's slug in this game's RULES.md
    quote = "Dobierz kartę ze stosu."  # the rulebook's own words (its language)
    quote_pl = "…"                     # optional: a bilingual rulebook's other language

and one reserved table, ``[rulebook]``, whose ``language`` names the language
of the ``quote`` lines (``en`` if absent): a reader of another language is
told the words are the rulebook's own, in that language.

``rule_for(game_dir, kind, data)`` returns the anchor, the rule's title, the quote and
the text of that RULES.md section. The title is a player's, in the reader's
language, from ``data/rule_titles.toml`` (``[en]``, ``[pl]``: anchor → title;
RULES.md is the engine's specification and its headings name code), else the
heading itself. One kind may stand for several rules (a
discard forced by a proud monster is not a turn's discard): a table named
``"<kind> <field>=<value>"`` is the rule of those events of ``kind`` whose
``data[field]`` reads ``value`` (``true``/``false`` for a flag); the first such
table in the file that matches wins, the plain ``[<kind>]`` otherwise. ``slug``
is how a heading becomes an anchor (GitHub's way: lower case, punctuation
dropped, spaces to hyphens).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .datafile import read_text


@dataclass(frozen=True, slots=True)
class EventRule:
    kind: str
    anchor: str
    title: str
    quote: str
    section: str  # the RULES.md section's text, heading included
    quote_language: str = "en"  # the language the quote is in

    def to_json(self) -> dict[str, str]:
        return {
            "anchor": self.anchor,
            "title": self.title,
            "quote": self.quote,
            "quote_language": self.quote_language,
        }


def slug(heading: str) -> str:
    text = re.sub(r"[^\w\s-]", "", heading.strip().lower())
    return re.sub(r"\s", "-", text)


@cache
def sections(rules_md: Path) -> dict[str, tuple[str, str]]:
    """anchor → (heading title, section text) for every heading of a RULES.md."""
    if not rules_md.exists():
        return {}
    found: dict[str, tuple[str, str]] = {}
    lines = read_text(rules_md).splitlines()
    heads = [(i, m) for i, line in enumerate(lines) if (m := re.match(r"^(#{1,6})\s+(.*)$", line))]
    for n, (i, m) in enumerate(heads):
        level = len(m.group(1))
        end = len(lines)
        for j, other in heads[n + 1 :]:
            if len(other.group(1)) <= level:
                end = j
                break
        title = m.group(2).strip()
        found.setdefault(slug(title), (title, "\n".join(lines[i:end]).strip()))
    return found


@cache
def table(game_dir: Path) -> dict[str, dict[str, str]]:
    path = game_dir / "data" / "event_rules.toml"
    if not path.exists():
        return {}
    return {k: v for k, v in _read(path).items() if k != RULEBOOK}


#: The reserved table of data/event_rules.toml that describes the rulebook itself.
RULEBOOK = "rulebook"


def _read(path: Path) -> dict[str, dict[str, str]]:
    data = tomllib.loads(read_text(path))
    return {str(k): {str(a): str(b) for a, b in v.items()} for k, v in data.items()}


@cache
def rulebook_language(game_dir: Path) -> str:
    """The language of the ``quote`` lines (``[rulebook] language``, else English)."""
    path = game_dir / "data" / "event_rules.toml"
    if not path.exists():
        return "en"
    return _read(path).get(RULEBOOK, {}).get("language", "en")


@cache
def titles(game_dir: Path) -> dict[str, dict[str, str]]:
    """language → (anchor → the rule's title for a player), from ``data/rule_titles.toml``."""
    path = game_dir / "data" / "rule_titles.toml"
    if not path.exists():
        return {}
    data = tomllib.loads(read_text(path))
    return {str(lang): {str(a): str(t) for a, t in v.items()} for lang, v in data.items()}


@cache
def variants(game_dir: Path, kind: str) -> tuple[tuple[str, str, str], ...]:
    """(table name, field, value) of each narrower rule of ``kind``, in file order."""
    found = []
    for name in table(game_dir):
        head, _, cond = name.partition(" ")
        field, eq, value = cond.partition("=")
        if head == kind and eq and field:
            found.append((name, field, value))
    return tuple(found)


def pick(found: tuple[tuple[str, str, str], ...], kind: str, data: Mapping[str, Any] | None) -> str:
    """The table that holds the rule of one event: its first matching variant, else ``kind``."""
    if data:
        for name, field, value in found:
            if field in data:
                got = data[field]
                text = str(got).lower() if isinstance(got, bool) else str(got)
                if text == value:
                    return name
    return kind


def rule_for(game_dir: Path, kind: str, data: Mapping[str, Any] | None = None) -> EventRule | None:
    """The rule behind events of ``kind`` (this one event's, given its ``data``)
    in the game kept in ``game_dir``."""
    entry = table(game_dir).get(pick(variants(game_dir, kind), kind, data))
    if entry is None:
        return None
    anchor = entry.get("anchor", "")
    title, section = sections(game_dir / "RULES.md").get(anchor, ("", ""))
    # A bilingual rulebook's words in the reader's language (``quote_pl``) when
    # the table has them; otherwise the rulebook's own language.
    from bestiary.i18n import language

    lang = language()
    title = titles(game_dir).get(lang, {}).get(anchor) or title
    own = entry.get(f"quote_{lang}")
    quote = own or entry.get("quote", "")
    quote_language = lang if own else rulebook_language(game_dir)
    return EventRule(kind, anchor, title, quote, section, quote_language)
