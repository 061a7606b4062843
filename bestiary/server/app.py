"""The FastAPI app: lobby API, websocket play and the static browser client."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ..engine.errors import (
    BadInput,
    BestiaryError,
    NotYourTurn,
    UnknownGame,
)
from ..engine.record import MatchRecord, replay_steps
from ..engine.registry import game_ids, get_game
from .hub import Conflict, Hub, NotFound
from .limits import BURST, MAX_MESSAGE_BYTES, MAX_STRIKES, RATE_PER_SECOND, RateLimiter
from .live import Connection, LiveTable
from .messages import error, event_json
from .store import Store, database_url

log = logging.getLogger("bestiary.server")

WEB = Path(__file__).resolve().parent.parent / "web"
HELLO_TIMEOUT = 20.0

OptionValue = str | int | float | bool | None


class SeatSpec(BaseModel):
    kind: Literal["human", "bot"] = "human"
    agent: str | None = Field(None, max_length=200, description="agent spec for a bot")
    name: str | None = Field(None, max_length=40)


class CreateTable(BaseModel):
    game: str = Field(max_length=64)
    variant: str | None = Field(None, max_length=64)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=64)
    seats: list[SeatSpec] = Field(min_length=1, max_length=12)
    seed: int | None = Field(None, ge=0, lt=2**31)


class JoinTable(BaseModel):
    seat: int | None = Field(None, ge=0, lt=64)
    name: str | None = Field(None, max_length=40)


class Joined(BaseModel):
    table: str
    seat: int
    token: str = Field(description="the seat token: the only way to act for this seat")
    url: str


def has_page(game_id: str) -> bool:
    return (WEB / "games" / f"{game_id}.js").is_file()


def _status(exc: BestiaryError) -> int:
    if isinstance(exc, (NotFound, UnknownGame)):
        return 404
    if isinstance(exc, Conflict):
        return 409
    return 400


def create_app(
    db: str | None = None,
    bot_delay: float = 0.4,
    *,
    rate_per_second: float = RATE_PER_SECOND,
    burst: int = BURST,
) -> FastAPI:
    """The app on the store ``db`` names (see :func:`store.database_url`).
    ``rate_per_second``/``burst`` limit the messages one websocket may send."""
    store = Store(database_url(db))
    hub = Hub(store, bot_delay)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store.migrate()
        await hub.start()
        yield
        await hub.stop()
        store.dispose()

    app = FastAPI(title="Bestiary", version="0.1.0", lifespan=lifespan)
    app.state.hub = hub
    app.state.store = store

    @app.exception_handler(BestiaryError)
    async def bestiary_error(request: Request, exc: BestiaryError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=_status(exc))

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("error serving %s", request.url.path)
        return JSONResponse({"detail": "internal server error"}, status_code=500)

    # -- lobby API ---------------------------------------------------------------
    @app.get("/api/games", summary="Every game, its variants, options and bots")
    async def games() -> dict[str, Any]:
        out = []
        for gid in game_ids():
            try:
                info = get_game(gid).info()
            except BestiaryError as exc:
                out.append({"id": gid, "error": str(exc)})
                continue
            info["has_page"] = has_page(gid)
            out.append(info)
        return {"games": out}

    @app.get("/api/games/{game_id}/cards", summary="A game's card list (as `bestiary cards`)")
    async def game_cards(game_id: str, variant: str | None = None) -> dict[str, Any]:
        game = get_game(game_id)
        catalog = game.catalog(game.ruleset(variant))
        if catalog is None:
            raise NotFound(f"{game_id} has no card list")
        return catalog

    @app.post("/api/games/{game_id}/score", summary="A game's scoring tool (as `bestiary score`)")
    async def game_score(game_id: str, payload: dict[str, Any]) -> dict[str, Any]:
        game = get_game(game_id)
        variant = payload.get("variant")
        if variant is not None and not isinstance(variant, str):
            raise BadInput("'variant' must be a string")
        result = game.score_tool(payload, game.ruleset(variant))
        if result is None:
            raise NotFound(f"{game_id} has no scoring tool")
        return result

    @app.post("/api/tables", status_code=201, summary="Create a table")
    async def create_table(req: CreateTable) -> dict[str, Any]:
        table = hub.create(
            req.game,
            [s.model_dump() for s in req.seats],
            variant=req.variant,
            options=req.options,
            seed=req.seed,
        )
        return table.info()

    @app.get("/api/tables", summary="List tables (status: waiting, playing, finished)")
    async def list_tables(
        status: Annotated[Literal["waiting", "playing", "finished"] | None, Query()] = None,
    ) -> dict[str, Any]:
        return {"tables": hub.list(status)}

    @app.get("/api/tables/{table_id}", summary="A table's public info")
    async def get_table(table_id: str) -> dict[str, Any]:
        return hub.get(table_id).info()

    @app.post("/api/tables/{table_id}/join", summary="Take a free seat: returns its token")
    async def join_table(table_id: str, req: JoinTable) -> Joined:
        seat, token = hub.join(table_id, req.seat, req.name)
        return Joined(table=table_id, seat=seat, token=token, url=f"/table/{table_id}")

    def finished(table_id: str) -> LiveTable:
        table = hub.get(table_id)
        if table.row.status != "finished":
            raise HTTPException(409, "the record and replay open when the game is over")
        return table

    @app.get("/api/tables/{table_id}/record", summary="The match record of a finished table")
    async def record(table_id: str) -> dict[str, Any]:
        table = finished(table_id)
        row = table.row
        rec = MatchRecord(
            game=row.game,
            players=row.players,
            seed=row.seed,
            variant=row.variant,
            options=row.options,
            moves=list(row.moves),
            seats=[s.agent or "human" for s in row.seats],
            result=row.result,
        )
        return rec.to_json()

    @app.get("/api/tables/{table_id}/replay", summary="Every step of a finished table")
    async def replay(
        table_id: str, seat: Annotated[int | None, Query(ge=0, lt=64)] = None
    ) -> dict[str, Any]:
        """One frame per move: the view of ``seat`` (default: a spectator's) and
        the log lines that move produced. Only for finished tables."""
        table = finished(table_id)
        row = table.row
        if seat is not None and seat >= row.players:
            raise HTTPException(404, f"seats are 0 to {row.players - 1}")
        rec = MatchRecord(row.game, row.players, row.seed, row.variant, row.options, row.moves)
        frames = []
        seen = 0
        for state, move in replay_steps(rec):
            events = state.events_since(seen, seat)
            seen = state.event_count()
            frames.append(
                {
                    "move": {"seat": move[0], "action": move[1]} if move else None,
                    "view": state.view(seat),
                    "events": [event_json(table.game, e) for e in events],
                }
            )
        return {"table": table.info(), "seat": seat, "frames": frames}

    # -- play --------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        """First message ``{"type": "hello", "token": "…"}`` (no token: spectate);
        then ``{"type": "act", "action": "<text form>"}``, ``{"type": "sync"}``
        or ``{"type": "ping"}``. The server sends ``update`` and ``error``."""
        await websocket.accept()
        try:
            table = hub.get(table_id)
        except BestiaryError as exc:
            await _refuse(websocket, str(exc), 4404)
            return
        except Exception:
            log.exception("cannot open table %s", table_id)
            await _refuse(websocket, "internal server error", 1011)
            return
        try:
            seat = await _hello(websocket, hub, table_id)
        except _Refused as exc:
            await _refuse(websocket, exc.message, exc.code)
            return
        except WebSocketDisconnect:
            return
        conn = table.connect(seat)
        writer = asyncio.create_task(_pump(websocket, conn))
        code = 1000
        try:
            code = await _read(websocket, table, conn, RateLimiter(rate_per_second, burst))
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("websocket of table %s failed", table_id)
            conn.queue.put_nowait(error("internal server error"))
            code = 1011
        finally:
            table.disconnect(conn)  # the writer sends what is queued, then stops
            with contextlib.suppress(Exception):
                await writer
            if websocket.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close(code)

    # -- the browser client ---------------------------------------------------------
    @app.get("/", include_in_schema=False)
    def lobby_page() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "table.html")

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app


class _Refused(Exception):
    def __init__(self, message: str, code: int) -> None:
        self.message, self.code = message, code


async def _refuse(websocket: WebSocket, message: str, code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(error(message)))
        await websocket.close(code)


def _decode(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A client message as a dict, or _Refused/ValueError explaining why not."""
    text = raw.get("text")
    if text is None and raw.get("bytes") is not None:
        text = raw["bytes"].decode("utf-8", "replace")
    if text is None:
        raise ValueError("empty message")
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise _Refused(f"message too large (limit {MAX_MESSAGE_BYTES} bytes)", 1009)
    try:
        msg = json.loads(text)
    except json.JSONDecodeError:
        raise ValueError(
            'messages are JSON objects such as {"type": "act", "action": "…"}'
        ) from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ValueError('a message is a JSON object with a "type" (hello, act, sync, ping)')
    return msg


async def _hello(websocket: WebSocket, hub: Hub, table_id: str) -> int | None:
    try:
        raw = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
    except TimeoutError:
        raise _Refused("no hello received", 1008) from None
    if raw.get("type") == "websocket.disconnect":
        raise WebSocketDisconnect(raw.get("code", 1000))
    try:
        msg = _decode(raw)
    except ValueError as exc:
        raise _Refused(str(exc), 1008) from None
    if msg["type"] != "hello":
        raise _Refused('the first message must be {"type": "hello", "token": …}', 1008)
    token = msg.get("token")
    if token is None:
        return None
    if not isinstance(token, str) or len(token) > 200:
        raise _Refused("the token must be a string", 1008)
    seat = hub.seat_of(table_id, token)
    if seat is None:
        raise _Refused("that token holds no seat at this table", 4403)
    return seat


async def _pump(websocket: WebSocket, conn: Connection) -> None:
    """Send a connection's queued messages in order until it closes."""
    while True:
        msg = await conn.queue.get()
        if msg is None:
            return
        try:
            await websocket.send_text(json.dumps(msg))
        except Exception:
            return


async def _read(
    websocket: WebSocket, table: LiveTable, conn: Connection, limiter: RateLimiter
) -> int:
    """Handle a connection's messages; return the close code when it must end."""
    while True:
        raw = await websocket.receive()
        if raw.get("type") == "websocket.disconnect":
            return 1000
        if not limiter.allow():
            if limiter.strikes > MAX_STRIKES:
                conn.queue.put_nowait(error("too many messages; closing"))
                return 1008
            conn.queue.put_nowait(error("too many messages: slow down"))
            continue
        try:
            msg = _decode(raw)
        except _Refused as exc:
            conn.queue.put_nowait(error(exc.message))
            return exc.code
        except ValueError as exc:
            conn.queue.put_nowait(error(str(exc)))
            continue
        kind = msg["type"]
        if kind == "act":
            action = msg.get("action")
            if conn.seat is None:
                conn.queue.put_nowait(error("spectators cannot act; join a seat to play"))
            elif not isinstance(action, str) or not action.strip():
                conn.queue.put_nowait(error('"act" needs "action": the text of a legal action'))
            else:
                try:
                    await table.act(conn.seat, action[:500])
                except NotYourTurn as exc:
                    conn.queue.put_nowait(error(str(exc)))
                except BestiaryError as exc:
                    conn.queue.put_nowait(error(str(exc)))
        elif kind == "sync":
            conn.since = 0
            conn.queue.put_nowait(table.safe_update_for(conn))
        elif kind == "ping":
            conn.queue.put_nowait({"type": "pong"})
        elif kind == "hello":
            conn.queue.put_nowait(error("already connected"))
        else:
            conn.queue.put_nowait(error(f"unknown message type {kind!r}; use act, sync or ping"))
