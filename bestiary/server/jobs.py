"""The work the server hands to worker processes: module-level functions of
picklable arguments (see :mod:`.workers`). They run the same in-process, which
the restart test and offline replays rely on."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from ..agents.base import AgentContext, make_agent
from ..engine.protocol import Game, State
from ..engine.rng import Rng


def bot_seed(table_seed: int, seat: int, move: int) -> int:
    """The seed of a bot's decision: a function of the table, the seat and the
    move number only, so a restarted server makes the very same decisions."""
    digest = hashlib.sha256(f"{table_seed}:{seat}:{move}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def bot_move(
    game: Game,
    state: State,
    spec: str,
    table_seed: int,
    seat: int,
    move: int,
    allow_import: bool = False,
) -> str:
    """The text of the move the bot ``spec`` makes for ``seat`` as move number
    ``move``: a pure function of the match so far, so an uninterrupted server,
    a restarted one and an offline replay all agree. ``spec`` is already one
    the server allows (:mod:`.bots`); ``allow_import`` is set only for the
    operator's own agents (``serve --agent``), never for a client's spec."""
    seed = bot_seed(table_seed, seat, move)
    agent = make_agent(game, spec, seed, allow_import=allow_import)
    return str(agent.act(AgentContext(state, seat, Rng(seed ^ 0x5EED))))


def score_tool(game: Game, payload: Mapping[str, Any], variant: str | None) -> Any:
    """A game's scoring tool (``bestiary score``); None if it has none."""
    return game.score_tool(payload, game.ruleset(variant))


def replay_frames(
    game: Game,
    record: Mapping[str, Any],
    seat: int | None,
    names: Mapping[str, Sequence[str]] | None = None,
) -> list[dict[str, Any]]:
    """One frame per move of a finished match: the view of ``seat`` (None: a
    spectator's) and the log lines that move produced, naming the seats as the
    table did (``names`` by language, as ``messages.table_names`` gives them).
    ``game`` is passed in (not looked up), so games registered only in the
    server work too."""
    from ..engine.record import MatchRecord
    from .messages import event_json

    rec = MatchRecord.from_json(record)
    state = game.new(rec.players, seed=rec.seed, variant=rec.variant, options=rec.options)
    frames = []
    seen = 0
    for move in [None, *rec.moves]:
        if move is not None:
            state.apply_text(*move)
        events = state.events_since(seen, seat)
        seen = state.event_count()
        frames.append(
            {
                "move": {"seat": move[0], "action": move[1]} if move else None,
                "view": state.view(seat),
                "events": [event_json(game, e, names) for e in events],
            }
        )
    return frames


def hint(game: Game, state: State, seat: int, seconds: float) -> dict[str, Any]:
    """The strongest bot's move for ``seat``, searched from that seat's view only
    (``bestiary.agents.hint``); ``game`` is passed in, as for the other jobs."""
    from ..agents.hint import suggest

    del game  # the state knows its game; the argument keeps every job's shape
    return suggest(state, seat, seconds=seconds).to_json()
