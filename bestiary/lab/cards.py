"""Card files without Python: export the shipped set in its editable format,
and list every problem of a designer's file at once.

The games' loaders are the judges of a card, and they stop at the first bad
row, and at the first bad field of a row (Monster Maker's list every problem
but in one line). To list every problem of every card anyway,
:func:`validate` works in two passes over temporary copies (the designer's
file is never changed):

1. *Which cards are bad*: load the file, set aside (comment out) the card
   the error names by its line, load again, until the file loads or the
   error names no card (a problem of the whole file, reported last).
2. *What is wrong with each*: put the bad card back alone among the good
   ones, first as written (a card that loads there had no problem of its
   own), then as *probes*: a good card of the same kind (the most alike, from
   the file or the shipped set) with one field taken from the bad card. A
   probe the loader refuses names a bad field, in the loader's words (what is
   wrong, what is allowed); what the fields do only together (a spell's
   target with its trigger) is what the card still does wrong once its bad
   fields are the good card's.
"""

from __future__ import annotations

import itertools
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.errors import BadCardFile, BadInput, BestiaryError
from ..engine.registry import get_game
from ..i18n import core
from . import card_file
from .card_file import CardFile

_ = core.gettext

_GAMES = Path(__file__).resolve().parent.parent / "games"

# (game, option naming a file) -> the shipped file in that format.
SHIPPED: dict[tuple[str, str], Path] = {
    ("meat", "cards"): _GAMES / "meat" / "data" / "cards.toml",
    ("monster-maker", "cards"): _GAMES / "monster_maker" / "data" / "deck.csv",
    ("monster-maker", "treasures"): _GAMES / "monster_maker" / "data" / "treasures.csv",
    ("monster-maker", "prizes"): _GAMES / "monster_maker" / "data" / "prizes.csv",
    ("taxonomy", "cards"): _GAMES / "taxonomy" / "data" / "monsters.csv",
    ("taxonomy", "scoring"): _GAMES / "taxonomy" / "data" / "scoring.toml",
    ("teratozoic", "cards"): _GAMES / "teratozoic" / "data" / "cards.csv",
}
MAX_PROBLEMS = 200
MAX_CARDS = 60  # bad cards looked at field by field; the rest get the loader's first word
TEMPLATES = 3  # good cards tried as a probe's base
# The probe's name, so that a probe never repeats a card's name (a file refuses
# a name twice); the loader's messages show the bad card's own name instead.
PROBE = "Bestiary probe card"
# "line 12: ..." in one message that lists the problems of several lines
_LISTED_LINE = re.compile(r"(\d+): ")
_MISSING = object()


def _names(words: str, key: str) -> bool:
    """Whether a loader's words name the field ``key``."""
    return re.search(rf"(?<!\w){re.escape(key)}(?!\w)", words, re.IGNORECASE) is not None


def file_options(game_id: str) -> list[str]:
    get_game(game_id)  # unknown game: the registry's clear error
    return sorted(field for g, field in SHIPPED if g == game_id)


def shipped(game_id: str, field: str = "cards") -> Path:
    if (game_id, field) not in SHIPPED:
        allowed = ", ".join(file_options(game_id)) or "none"
        raise BadInput(f"{game_id} has no {field} file; files it takes: {allowed}")
    return SHIPPED[(game_id, field)]


def export(game_id: str, dest: str | Path, field: str = "cards", force: bool = False) -> Path:
    """Copy the shipped ``field`` file of ``game_id`` to ``dest`` (the format to edit)."""
    src = shipped(game_id, field)
    out = Path(dest)
    if out.exists() and not force:
        raise BadInput(f"{out} exists; choose another name or pass --force to overwrite it")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, out)
    except OSError as exc:  # a folder that cannot be made, a full or read-only disk...
        raise BadInput(
            core.gettext("cannot write {path}: {reason}").format(
                path=out, reason=exc.strerror or type(exc).__name__
            )
        ) from None
    return out


@dataclass(frozen=True)
class Problem:
    """One problem of a card file: where, which card and field, and the
    loader's own words for what is wrong and what is allowed."""

    path: str
    text: str
    line: int | None = None
    card: str | None = None  # the card's name ("" if it has none); None: the whole file
    field: str | None = None  # None: the card as a whole (its fields together)

    def __str__(self) -> str:
        if self.line is None:
            return _("{path}: {problem}").format(path=self.path, problem=self.text)
        if self.card is None:
            return _("{path}, line {line}: {problem}").format(
                path=self.path, line=self.line, problem=self.text
            )
        card = repr(self.card) if self.card else "?"
        if self.field is None:
            return _("{path}, line {line}: card {card}: {problem}").format(
                path=self.path, line=self.line, card=card, problem=self.text
            )
        return _("{path}, line {line}: card {card}, field {field}: {problem}").format(
            path=self.path, line=self.line, card=card, field=self.field, problem=self.text
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "card": self.card,
            "field": self.field,
            "problem": self.text,
            "message": str(self),
        }


class _Loader:
    """Loads texts as the game would load the designer's file, each from a
    file of its own (loaders cache by path and time: a rewritten file could
    be taken for the one before).

    A quick load reads the file as ``bestiary cards`` does (the rules and the
    card list, no game dealt: a Teratozoic game builds its action table
    first, a tenth of a second a load); a full load deals a game. Quick loads
    serve while the first full load agrees with them."""

    def __init__(self, game_id: str, field: str, variant: str | None, tmp: Path, src: Path):
        self.game = get_game(game_id)
        self.field, self.variant, self.tmp, self.src = field, variant, tmp, src
        self.count = itertools.count()
        self.quick = True

    def load(self, data: str | bytes, full: bool = False) -> BestiaryError | None:
        folder = self.tmp / str(next(self.count))
        folder.mkdir()
        work = folder / self.src.name
        if isinstance(data, bytes):
            work.write_bytes(data)
        else:
            work.write_text(data, encoding="utf-8")
        options = {self.field: str(work)}
        try:
            if self.quick:
                self.game.catalog(self.game.ruleset(self.variant, options))
            if full or not self.quick:
                players = min(self.game.allowed_players())
                self.game.new(players, seed=0, variant=self.variant, options=options)
        except BestiaryError as exc:
            return exc
        return None

    def first(self, data: bytes) -> BestiaryError | None:
        """The designer's file, fully; quick loads stop if they would miss its problem."""
        err = self.load(data, full=True)
        if err is not None and self.load(data) is None:
            self.quick = False  # this file is read only when a game is dealt
        return err

    def words(self, err: BestiaryError) -> str:
        """The problem, without the (temporary) file's name."""
        text = err.problem if isinstance(err, BadCardFile) else str(err)
        copy = re.escape(str(self.tmp)) + r"[/\\][0-9]+[/\\]" + re.escape(self.src.name)
        return re.sub(copy, lambda _m: str(self.src), text)

    def lines(self, err: BestiaryError) -> set[int]:
        """The lines an error names: its own, or those a list of problems names."""
        if isinstance(err, BadCardFile) and err.line is not None:
            return {err.line}
        return {int(m) for m in _LISTED_LINE.findall(self.words(err))}


def _own_words(text: str, name: str) -> str:
    """The loader's words about a card, less the card's name it starts with
    ("creature 'Bober': ..."): the problem names the card already."""
    text = text.replace(repr(PROBE), repr(name)).replace(PROBE, name)
    lead = f"{name!r}: "
    at = text.find(lead)
    return text[at + len(lead) :] if 0 <= at <= 40 else text


class _Check:
    def __init__(self, loader: _Loader, model: CardFile, shipped_model: CardFile) -> None:
        self.loader, self.model, self.shipped = loader, model, shipped_model
        self.path = str(loader.src)

    def bad_cards(self, first: BestiaryError) -> tuple[dict[int, str], BestiaryError | None]:
        """Pass 1: the bad cards (with the loader's words when it named only
        that card), and the problem of the whole file left once they are aside."""
        aside: dict[int, str] = {}
        err: BestiaryError | None = first
        while err is not None and len(aside) < len(self.model.cards):
            hit = {self.model.card_at(n) for n in self.loader.lines(err)} - {None}
            fresh = sorted(i for i in hit if i is not None and i not in aside)
            if not fresh:
                return aside, err
            for i in fresh:
                aside[i] = self.loader.words(err) if len(fresh) == 1 else ""
            text = self.model.render(set(aside))
            err = self.loader.load(text)
            if err is None:  # what a quick load takes, a dealt game may still refuse
                err = self.loader.load(text, full=True)
        return aside, err

    def refused(self, aside: set[int], i: int, fields: dict[str, Any] | None) -> str | None:
        """The loader's words if card ``i`` (as written, or as ``fields``) is
        refused among the good cards; None if it loads there. The words may be
        about another card (a name the card repeats): the good cards load
        without it, so whatever a card-level error says, this card brought."""
        card = self.model.cards[i]
        if fields is None:
            err = self.loader.load(self.model.render(aside - {i}))
            lines, shift = card.end - card.start, 0
        else:
            text = self.model.write(card, fields)
            err = self.loader.load(self.model.render(aside, (i, text)))
            lines = text.count("\n")
            shift = lines - (card.end - card.start)
        if err is None:
            return None
        for n in self.loader.lines(err):
            own = card.start <= n < card.start + lines
            if own or self.model.card_at(n if n < card.start else n - shift) is not None:
                return _own_words(self.loader.words(err), card.name)
        return None  # the whole file's problem, there without this card too

    def template(self, i: int, aside: set[int]) -> dict[str, Any] | None:
        """A good card of card ``i``'s kind that loads in its place (under the
        probe's name), the most alike first: the file's own (they fit its
        other cards), then the shipped set's. None if none of the first few does."""
        card = self.model.cards[i]
        fields = card.fields
        assert fields is not None
        own = [c for k, c in enumerate(self.model.cards) if k not in aside]
        pool = [
            c.fields
            for c in own + self.shipped.cards
            if c.fields is not None and c.section == card.section
        ]

        def alike(f: dict[str, Any]) -> int:
            return sum(1 for k, v in fields.items() if k != "name" and f.get(k) == v)

        # a CSV card has the file's columns (a shipped column the file lacks is not written)
        keep = {h.casefold() for h in self.model.header} if not self.model.toml else None
        for tpl in sorted(pool, key=alike, reverse=True)[:TEMPLATES]:
            base = {
                k: (PROBE if k == "name" else v)
                for k, v in tpl.items()
                if keep is None or k in keep
            }
            if self.refused(aside, i, base) is None:
                return base
        return None

    def card_problems(self, i: int, aside: set[int]) -> list[Problem]:
        """Pass 2 for card ``i``: each problem the loader names, one after the
        other, with the field that mending (taking the good card's value)
        moves the loader past it."""
        card = self.model.cards[i]

        def problem(text: str, field: str | None = None) -> Problem:
            return Problem(self.path, text, card.start, card.name, field)

        words = self.refused(aside, i, None)
        if words is None:
            return []  # it loads among the good cards: what was refused is the file's
        if card.fields is None:
            return [problem(words)]
        base = self.template(i, aside)
        if base is None:  # no good card fits here: the loader's first word only
            return [problem(words)]
        found: list[Problem] = []
        current = dict(card.fields)
        while words is not None and len(found) <= len(current) + len(base):
            said = words
            differ = [
                k
                for k in [*current, *(k for k in base if k not in current)]
                if current.get(k, _MISSING) != base.get(k, _MISSING)
            ]
            # the fields the words name first; the name last unless they name it
            differ.sort(key=lambda k: (not _names(said, k), k == "name"))
            for key in differ:
                mended = dict(current)
                if key in base:
                    mended[key] = base[key]
                else:
                    del mended[key]
                words = self.refused(aside, i, mended)
                if words != said:
                    found.append(problem(said, self.model.field_name(key)))
                    current = mended
                    break
            else:  # no one field mends it
                found.append(problem(said))
                break
        return found

    def run(self, first: BestiaryError) -> list[Problem]:
        aside, left = self.bad_cards(first)
        problems: list[Problem] = []
        for n, i in enumerate(sorted(aside)):
            if len(problems) >= MAX_PROBLEMS:
                break
            card = self.model.cards[i]
            if n < MAX_CARDS:
                problems += self.card_problems(i, set(aside))
            else:
                words = _own_words(aside[i], card.name) if aside[i] else ""
                words = words or _(
                    "the game refuses this card as well; fix the cards above and check again"
                )
                problems.append(Problem(self.path, words, card.start, card.name))
        if left is not None:
            text = self.loader.words(left)
            lines = self.loader.lines(left)
            if problems:
                text = _("{problem} (this may come from the cards with problems above)").format(
                    problem=text
                )
            line = next(iter(lines)) if len(lines) == 1 else None
            problems.append(Problem(self.path, text, line))
        return problems[:MAX_PROBLEMS]


def validate(
    game_id: str, path: str | Path, field: str = "cards", variant: str | None = None
) -> list[Problem]:
    """Every problem of the file, card by card and field by field (empty: it loads)."""
    reference = shipped(game_id, field)
    src = Path(path)
    if not src.is_file():
        raise BadInput(f"{src} does not exist (or is not a file)")
    raw = src.read_bytes()
    toml = src.suffix.lower() == ".toml"
    with tempfile.TemporaryDirectory() as tmp:
        loader = _Loader(game_id, field, variant, Path(tmp), src)
        first = loader.first(raw)
        if first is None:
            return []
        try:
            model = card_file.read(raw.decode("utf-8-sig"), toml)
        except UnicodeDecodeError:  # the loader said where the bad byte is
            lines = loader.lines(first)
            return [Problem(str(src), loader.words(first), min(lines) if lines else None)]
        ref = card_file.read(reference.read_text(encoding="utf-8-sig"), toml)
        return _Check(loader, model, ref).run(first)
