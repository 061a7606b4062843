"""What a button or a terminal choice says for an action, in the current language.

An action's text form (``discard Werecat``, ``place Rekrut front``) is the
protocol: the page submits it, records keep it, ``Action.parse`` reads it.
It stays English. A person reads a *label* instead, a whole phrase of the
game's catalog: ``odrzuć Werecat``, ``połóż Rekruta na pozycji: front``.

Each game lists its text forms as patterns beside its log lines
(``games/<id>/describe.py``: ``ACTION_LABELS``, a regular expression with
named groups and the English phrase, marked ``N_``) and offers
``action_label(action, names)``; ``label_with`` does the matching.
``action_labels`` is how the server and the terminal ask any game, and it
falls back to the text form for a game without labels.

The shape every game's ``ACTION_LABELS`` shares:

- ``patterns([(regex, N_(phrase)), ...])``, compiled once at import;
- a regex matches the *whole* text form, and the first that matches wins:
  a longer form comes before the shorter one it starts with (M.E.A.T.'s
  ``cast X @ s1 left`` before ``cast X``, Teratozoic's ``attach ... turned``
  before ``attach ...``);
- each named group is a placeholder of the phrase. ``card`` is a card's
  name, ``seat`` a seat number; a game's own groups are its words
  (``lane``, ``key``, ``anchor``, ``by``), and a phrase may also take a value
  that is not in the text (M.E.A.T.'s ``target``, given as ``extra``).

``action_label`` then comes in three shapes: ``label_with(text, ACTION_LABELS,
_)`` where every group is shown as matched (Teratozoic);
``label_with(..., name_seats(names))`` where a ``seat`` becomes the table's
name for it (Monster Maker, Taxonomy; ``bestiary.engine.events.name_seats``);
and a game's own ``fill`` where a group needs the game's words (M.E.A.T.: a
card the Polish sentence declines, a lane in words, a target place).
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import Domain

LabelPatterns = Sequence[tuple["re.Pattern[str]", str]]


def patterns(table: Sequence[tuple[str, str]]) -> list[tuple[re.Pattern[str], str]]:
    """Compile ``(regex, phrase)`` pairs once, at import time."""
    return [(re.compile(rx), phrase) for rx, phrase in table]


def label_with(
    text: str,
    table: LabelPatterns,
    catalog: Domain,
    fill: Callable[[str, str], object] | None = None,
    **extra: object,
) -> str:
    """The phrase of the first pattern that matches all of ``text``, its groups
    put in by ``fill(group, value)`` (a seat's name, a lane in words, a card
    that the sentence declines) and ``extra`` values; the text itself when none matches."""
    for rx, phrase in table:
        m = rx.fullmatch(text)
        if m is None:
            continue
        values: dict[str, object] = dict(extra)
        for key, value in m.groupdict().items():
            if value is None:
                continue
            values[key] = fill(key, value) if fill is not None else value
        return catalog.gettext(phrase).format(**values)
    return text


def _describe_module(game: object) -> Any:
    module = type(game).__module__
    is_package = hasattr(sys.modules.get(module), "__path__")
    package = module if is_package else module.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.describe")
    except ImportError:
        return None


def game_catalog(game: object) -> Domain | None:
    """The game's own catalog (its ``describe`` module's ``_``), where a game
    shows names and words in the reader's language; None for a game without one."""
    catalog = getattr(_describe_module(game), "_", None)
    return catalog if isinstance(catalog, Domain) else None


def action_labels(
    game: object, actions: Sequence[object], names: Sequence[str] | None = None
) -> list[str]:
    """A label for each action, in the current language (the text form where
    the game has no ``action_label``)."""
    label = getattr(_describe_module(game), "action_label", None)
    if label is None:
        return [str(a) for a in actions]
    out = []
    for a in actions:
        try:
            out.append(str(label(a, names)))
        except Exception:  # a label is a courtesy: never lose the move over it
            out.append(str(a))
    return out


def labels_by_language(
    game: object,
    actions: Sequence[object],
    names: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, list[str]]:
    """``{"en": [...], "pl": [...]}``: the labels in every language, in the order of ``actions``."""
    from . import LANGUAGES, use_language

    out: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        with use_language(lang):
            out[lang] = action_labels(game, actions, (names or {}).get(lang))
    return out
