"""A game's first-game tutorial: a scripted deal and the steps that explain it.

The data lives in ``<game package>/tutorial.toml`` (data, not code)::

    [table]              # the table to create: seat 0 is the person
    players = 2
    bots = "normal"      # the level of every other seat
    seed = 3             # a fixed deal: seeded bots make the same game every time
    [table.options]      # options that make a short game
    max_dungeons = 1

    [[steps]]
    when = 'legal ^= "play Corridor"'   # when this step applies
    highlight = "play Corridor"         # the moves it points at (a text prefix)
    text_en = "…"                       # what to do next and why
    text_pl = "…"

The tutorial advises, it never blocks: any legal move is still allowed.

The condition language (``when``) is tiny and has two implementations that
must agree, this one and ``web/js/tutorial-steps.js``::

    condition := clause ( " and " clause )*
    clause    := "over" | "turn" | NAME OP "TEXT"
    OP        := "=" | "!=" | "^="          (equals, differs, starts with)
    NAME      := "legal"  (true when SOME legal move compares true; != is refused)
               | a key of the player's view, dotted for nested keys ("phase",
                 "round"), compared as text (a number 2 is "2", a list or a
                 table its number of entries, a missing key "")

``over``: the game is over; ``turn``: the person owes a move now.

How steps advance (the same in both places): a step is checked at each of
the person's decisions and when the game ends. The next step is shown once
its condition holds and the person has moved since the current one was shown
(the first step needs no move). The tutorial is over when its last step shows.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .datafile import read_text
from .errors import BestiaryError
from .protocol import Game

_CLAUSE = re.compile(r'^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(\^=|!=|=)\s*"([^"]*)"\s*$')
LEVELS = ("easy", "normal")


class TutorialError(BestiaryError):
    """A tutorial file that does not say what the format allows."""


@dataclass(frozen=True)
class Facts:
    """What a step's condition may look at: the person's view and legal moves."""

    view: Mapping[str, Any]
    legal: Sequence[str]
    over: bool = False

    @property
    def turn(self) -> bool:
        return bool(self.legal) and not self.over


@dataclass(frozen=True)
class Step:
    when: str
    text: Mapping[str, str]  # language -> text
    highlight: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"when": self.when, "text": dict(self.text), "highlight": self.highlight}


@dataclass(frozen=True)
class Tutorial:
    game: str
    players: int
    bots: str
    seed: int
    options: Mapping[str, Any]
    steps: tuple[Step, ...]
    variant: str | None = None

    def seats(self) -> list[dict[str, Any]]:
        """The seats as ``POST /api/tables`` takes them: the person first."""
        return [{"kind": "human"}] + [{"kind": "bot", "agent": self.bots}] * (self.players - 1)

    def bot_spec(self, game: Game) -> str:
        """The terminal's bot for the level (the server maps levels the same way,
        server/bots.py ``level_spec``; every game here has its own bot)."""
        if self.bots == "easy" or "heuristic" not in game.agents():
            return "random"
        return "heuristic"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "table": {
                "game": self.game,
                "variant": self.variant,
                "options": dict(self.options),
                "seats": self.seats(),
                "seed": self.seed,
            },
            "steps": [s.to_json() for s in self.steps],
        }


def _value(view: Mapping[str, Any], name: str) -> str:
    here: Any = view
    for part in name.split("."):
        if not isinstance(here, Mapping) or part not in here:
            return ""
        here = here[part]
    if here is None:
        return ""
    if isinstance(here, bool):
        return "true" if here else "false"
    if isinstance(here, Mapping | list | tuple):
        return str(len(here))  # a list or a table counts its entries
    if isinstance(here, float) and here.is_integer():
        return str(int(here))  # as JavaScript writes it: 2, not 2.0
    return str(here)


def _compare(value: str, op: str, text: str) -> bool:
    if op == "=":
        return value == text
    if op == "!=":
        return value != text
    return value.startswith(text)


def check(condition: str) -> None:
    """Raise TutorialError unless ``condition`` is in the language."""
    for clause in condition.split(" and "):
        word = clause.strip()
        if word in ("over", "turn"):
            continue
        m = _CLAUSE.match(clause)
        if m is None:
            raise TutorialError(
                f'condition {condition!r}: write clauses such as phase = "draft", '
                'legal ^= "discard ", over or turn, joined by " and "'
            )
        if m.group(1) == "legal" and m.group(2) == "!=":
            raise TutorialError(f"condition {condition!r}: legal takes = or ^=")


def holds(condition: str, facts: Facts) -> bool:
    """Whether ``condition`` holds for ``facts`` (the language is checked on load)."""
    for clause in condition.split(" and "):
        word = clause.strip()
        if word == "over":
            ok = facts.over
        elif word == "turn":
            ok = facts.turn
        else:
            m = _CLAUSE.match(clause)
            if m is None:
                return False
            name, op, text = m.groups()
            if name == "legal":
                ok = any(_compare(a, op, text) for a in facts.legal)
            else:
                ok = _compare(_value(facts.view, name), op, text)
        if not ok:
            return False
    return True


@dataclass
class Progress:
    """Where a person is in a tutorial: the step shown (-1: none yet)."""

    steps: Sequence[Step]
    index: int = -1
    acted: bool = False
    skipped: bool = False
    shown: list[int] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.skipped or self.index == len(self.steps) - 1

    def update(self, facts: Facts) -> Step | None:
        """Check the next step against ``facts``: the step newly shown, or None."""
        if self.skipped:
            return None
        nxt = self.index + 1
        if nxt >= len(self.steps) or not (self.index < 0 or self.acted):
            return None
        if not holds(self.steps[nxt].when, facts):
            return None
        self.index, self.acted = nxt, False
        self.shown.append(nxt)
        return self.steps[nxt]

    def moved(self) -> None:
        self.acted = True

    def current(self) -> Step | None:
        return None if self.skipped or self.index < 0 else self.steps[self.index]


def advised(step: Step | None, legal: Sequence[str]) -> str | None:
    """The first legal move the step points at (its ``highlight`` prefix), if any."""
    if step is None or not step.highlight:
        return None
    return next((a for a in legal if a.startswith(step.highlight)), None)


def load(game: Game) -> Tutorial | None:
    """The game's tutorial, or None where it has none; TutorialError if malformed."""
    folder = game.package_dir()
    if folder is None or not (folder / "tutorial.toml").is_file():
        return None
    data = tomllib.loads(read_text(folder / "tutorial.toml"))
    table = data.get("table", {})
    players = int(table.get("players", game.default_players))
    bots = str(table.get("bots", "normal"))
    if bots not in LEVELS:
        raise TutorialError(f"{game.id} tutorial: bots is one of {', '.join(LEVELS)}")
    steps = []
    for raw in data.get("steps", []):
        when = str(raw.get("when", ""))
        check(when)
        texts = {k[5:]: str(v).strip() for k, v in raw.items() if k.startswith("text_")}
        if not {"en", "pl"} <= texts.keys():
            raise TutorialError(f"{game.id} tutorial: a step needs text_en and text_pl")
        steps.append(Step(when, texts, str(raw.get("highlight", ""))))
    if not steps:
        raise TutorialError(f"{game.id} tutorial: no steps")
    return Tutorial(
        game=game.id,
        players=players,
        bots=bots,
        seed=int(table["seed"]),
        options=dict(table.get("options", {})),
        steps=tuple(steps),
        variant=table.get("variant"),
    )
