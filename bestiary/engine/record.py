"""Match records: ``(game, variant, options, players, seed, moves)`` as JSON,
and replaying them.

A record fully determines a match because the state's only randomness is
its seeded RNG. Moves are stored in their text form, so a record reads
like a game log and survives changes to a game's action numbering.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import core
from .errors import BadInput, BadRecord, BestiaryError
from .protocol import Action, Game, State
from .registry import get_game

FORMAT = "bestiary-record/1"

#: Deepest nesting of arrays and objects that JSON input may have. Python's
#: parser recurses once per level: far deeper input would end in RecursionError.
MAX_JSON_DEPTH = 100
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """How deeply arrays and objects nest in ``text`` (brackets inside strings do not count)."""
    depth = deepest = 0
    for bracket in _JSON_BRACKET.findall(_JSON_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def parse_json(text: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` for untrusted input: BadInput (one line) instead of any parser error."""
    if json_depth(text) > max_depth:
        raise BadInput(
            core.gettext("JSON nested deeper than {depth} levels (refused)").format(depth=max_depth)
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(core.gettext("not JSON: {error}").format(error=exc)) from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise BadInput(core.gettext("unreadable JSON: {error}").format(error=exc)) from None


@dataclass
class MatchRecord:
    game: str
    players: int
    seed: int
    variant: str
    options: dict[str, Any] = field(default_factory=dict)
    moves: list[tuple[int, str]] = field(default_factory=list)
    seats: list[str] | None = None  # agent specs or "human", for information only
    result: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "variant": self.variant,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
            "seats": self.seats,
            "moves": [[s, m] for s, m in self.moves],
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchRecord:
        try:
            if data.get("format", FORMAT) != FORMAT:
                raise BadRecord(
                    core.gettext("unknown record format {format!r}; expected {expected}").format(
                        format=data.get("format"), expected=FORMAT
                    )
                )
            moves = [(int(s), str(m)) for s, m in data.get("moves", [])]
            players = int(data["players"])
            options = data.get("options") or {}
            if not isinstance(options, dict):
                raise BadRecord(
                    core.gettext("malformed record: options must be an object of name: value")
                )
            seats = data.get("seats")
            if seats and (
                not isinstance(seats, list)
                or len(seats) != players
                or not all(isinstance(s, str) for s in seats)
            ):
                raise BadRecord(
                    core.ngettext(
                        "malformed record: seats must be a list of {n} agent spec (text)",
                        "malformed record: seats must be a list of {n} agent specs (text)",
                        players,
                    ).format(n=players)
                )
            return cls(
                game=str(data["game"]),
                players=players,
                seed=int(data["seed"]),
                variant=str(data["variant"]),
                options={str(k): v for k, v in options.items()},
                moves=moves,
                seats=list(seats) if seats else None,
                result=data.get("result"),
            )
        except BadRecord:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
            raise BadRecord(
                core.gettext(
                    "malformed record ({error}); a record needs game, players, seed, variant, moves"
                ).format(error=exc)
            ) from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        try:
            data = parse_json(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise BadRecord(
                core.gettext("cannot read record {path}: {reason}").format(
                    path=path, reason=exc.strerror
                )
            ) from None
        except UnicodeDecodeError:
            raise BadRecord(
                core.gettext("{path} is not a text file (records are UTF-8 JSON)").format(path=path)
            ) from None
        except BadInput as exc:
            problem = core.gettext("{path}: {problem}").format(path=path, problem=exc)
            raise BadRecord(problem) from None
        if not isinstance(data, dict):
            raise BadRecord(core.gettext("{path}: a record is a JSON object").format(path=path))
        return cls.from_json(data)


class Match:
    """A state plus the record of the moves applied to it."""

    def __init__(self, game: Game, state: State, record: MatchRecord) -> None:
        self.game, self.state, self.record = game, state, record

    @classmethod
    def start(
        cls,
        game: Game,
        players: int,
        *,
        seed: int,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        seats: list[str] | None = None,
    ) -> Match:
        state = game.new(players, seed=seed, variant=variant, options=options)
        record = MatchRecord(
            game=game.id,
            players=players,
            seed=seed,
            variant=variant or game.default_variant,
            options=dict(options or {}),
            seats=seats,
        )
        return cls(game, state, record)

    def apply(self, seat: int, action: Action) -> None:
        self.state.apply(seat, action)  # raises before anything is recorded
        self.record.moves.append((seat, str(action)))
        if self.state.over and self.state.result is not None:
            self.record.result = self.state.result.to_json()

    def apply_text(self, seat: int, text: str) -> Action:
        action = self.state.parse(seat, text)
        self.apply(seat, action)
        return action


def replay_steps(record: MatchRecord) -> Iterator[tuple[State, tuple[int, str] | None]]:
    """Yield the state before any move, then after each move (with that move).

    The same state object is yielded each time (it is advanced in place).
    """
    game = get_game(record.game)
    state = game.new(
        record.players, seed=record.seed, variant=record.variant, options=record.options
    )
    yield state, None
    for i, (seat, text) in enumerate(record.moves):
        try:
            state.apply_text(seat, text)
        except BestiaryError as exc:
            raise BadRecord(
                core.gettext("move {number} ({seat}: {text!r}) does not replay: {error}").format(
                    number=i + 1, seat=seat, text=text, error=exc
                )
            ) from None
        yield state, (seat, text)


def replay(record: MatchRecord) -> State:
    """Rebuild the state a record ends in."""
    last: State | None = None
    for last, _ in replay_steps(record):  # noqa: B007 - the last state is the answer
        pass
    assert last is not None
    return last
