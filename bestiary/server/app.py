"""The FastAPI app: lobby API, websocket play and the static browser client."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import json
import logging
import re
import secrets
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect, WebSocketState

from .. import __version__
from ..engine.errors import (
    BadInput,
    BestiaryError,
    NotYourTurn,
    UnknownGame,
)
from ..engine.record import MatchRecord
from ..engine.registry import game_ids, get_game
from . import jobs
from .bodylimit import BodyLimit
from .bots import operator_agents
from .chat import ChatRefused, parse_chat, too_fast
from .config import Access, Limits
from .cutoff import CutOff
from .hub import Conflict, Hub, NotFound, Quota
from .limits import (
    CHAT_BURST,
    CHAT_PER_SECOND,
    HELLO_LATE,
    MAX_ACTION_CHARS,
    MAX_MESSAGE_BYTES,
    TOO_MANY_SOCKETS,
    TOO_SLOW,
    ClientBuckets,
    RateLimiter,
    Sockets,
)
from .live import Connection, LiveTable
from .messages import error, table_names
from .proxies import ClientAddress
from .store import Store, TableRow, data_folder, database_url
from .takeback import UndoRefused
from .workers import Busy, TooMany, TooSlow

log = logging.getLogger("bestiary.server")

WEB = Path(__file__).resolve().parent.parent / "web"
# How long a closing socket may take to send what it has left and its close
# frame (a reader that stopped reading never takes them).
CLOSE_GRACE = 5.0

OptionValue = Annotated[str, Field(max_length=200)] | int | float | bool | None
OptionName = Annotated[str, Field(max_length=64)]
SHORT = 40  # the most of a client's input an error message repeats


class SeatSpec(BaseModel):
    kind: Literal["human", "bot"] = "human"
    agent: str | None = Field(
        None,
        max_length=80,
        description="easy, normal, hard, random, the game's own bot (e.g. heuristic), "
        "an agent the server's operator enabled (by name) or ismcts:iterations=N (bounded)",
    )
    name: str | None = Field(None, max_length=40)


class CreateTable(BaseModel):
    game: str = Field(max_length=64)
    variant: str | None = Field(None, max_length=64)
    options: dict[OptionName, OptionValue] = Field(default_factory=dict, max_length=64)
    seats: list[SeatSpec] = Field(min_length=1, max_length=12)
    seed: int | None = Field(
        None,
        ge=0,
        lt=2**128,
        description="only for a solo table (one person, the rest bots); "
        "otherwise the server draws a 128-bit seed nobody knows",
    )
    turn_seconds: int | None = Field(
        None,
        ge=10,
        le=86_400,
        description="turn timer: a person who owes a move this long gets a bot's move",
    )


class SeatToken(BaseModel):
    token: str = Field(max_length=200)


class JoinTable(BaseModel):
    seat: int | None = Field(None, ge=0, lt=64)
    name: str | None = Field(None, max_length=40)


class RematchClaim(BaseModel):
    token: str | None = Field(
        None, max_length=200, description="your seat token at the finished table"
    )
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
    if isinstance(exc, (Quota, TooMany)):  # TooMany: a client's share of the tools (fairbots)
        return 429
    if isinstance(exc, (Busy, TooSlow)):
        return 503
    if type(exc).__name__ == "WorkerFailed":
        return 500
    return 400


def _short(value: Any) -> str:
    """A short prefix of a client's input, for an error message."""
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= SHORT else text[:SHORT] + "…"


def _game_bots() -> set[str]:
    """The names of every loadable game's own bots (an operator's agent may not take one)."""
    names: set[str] = set()
    for gid in game_ids():
        try:
            names.update(get_game(gid).agents())
        except BestiaryError:
            continue
    return names


def _client(conn: Request | WebSocket) -> str:
    """The client's IP address (its quota key when it names no client id)."""
    return conn.client.host if conn.client is not None else "unknown"


CLIENT_HEADER = "x-bestiary-client"
_CLIENT_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


def _tool_key(request: Request) -> tuple[str, str]:
    """fairbots: who asks for a tool worker, (address, client): served in turn."""
    return (_client(request), _client_id(request))


def _client_id(request: Request) -> str:
    """The quota key of an HTTP request: the id the client sends in the
    X-Bestiary-Client header (its own random id, kept by the browser), else
    its IP address. BadInput for a malformed id."""
    raw = request.headers.get(CLIENT_HEADER)
    if raw is None:
        return _client(request)
    if not _CLIENT_ID.fullmatch(raw):
        raise BadInput(
            "the X-Bestiary-Client header must be 8 to 64 letters, digits, - or _ "
            "(a random id the client keeps), or absent"
        )
    return f"id:{raw}"


def create_app(
    db: str | None = None,
    bot_delay: float = 0.8,
    *,
    rate_per_second: float | None = None,
    burst: int | None = None,
    limits: Limits | None = None,
    agents: Mapping[str, str] | None = None,
    ray_address: str | None = None,
    freeze_gc: bool = False,
    access: Access | None = None,
) -> FastAPI:
    """The app on the store ``db`` names (see :func:`store.database_url`).
    ``rate_per_second``/``burst`` limit the messages one websocket may send
    (default: the limits' ``socket_messages_per_second``/``socket_message_burst``);
    ``limits`` everything else (default: :meth:`Limits.from_env`). ``agents``:
    the operator's own bots, ``{"NAME": "module:Object"}``, offered by NAME for
    every game; each is imported and checked now (BadAgentSpec if it fails).
    ``ray_address``: bots think on that Ray cluster (``"local"``: one started
    here) instead of local worker processes. ``freeze_gc`` (``bestiary serve``):
    once started, the objects that live as long as the process (modules, the
    app, the games' data) leave the garbage collector's care (``gc.freeze``),
    so a full collection walks only the tables, not the whole program: a full
    collection stops every table while it runs; and young collections come
    every ``GC_YOUNG`` new objects instead of 700, so the many short-lived
    objects of a move die by reference counting before a collection sees
    them, and full collections (which walk every live table) come minutes
    apart instead of seconds. ``access`` (default :meth:`Access.from_env`):
    whether the lab is on and its token, and the proxies whose headers name
    the client (config.py)."""
    limits = limits or Limits.from_env()
    access = access or Access.from_env()
    if access.lab and not access.lab_token:  # one for this run, shown by `bestiary serve`
        access = dataclasses.replace(access, lab_token=secrets.token_urlsafe(24))
    own = operator_agents(agents or {}, _game_bots()) if agents else {}
    store = Store(database_url(db))
    hub = Hub(store, bot_delay, limits, own, ray_address=ray_address)
    sockets = Sockets(limits.sockets_per_client, limits.sockets_in_all)
    rate = limits.socket_messages_per_second if rate_per_second is None else rate_per_second
    socket_burst = limits.socket_message_burst if burst is None else burst
    client_messages = ClientBuckets(limits.client_messages_per_second, limits.client_message_burst)
    ip_messages = ClientBuckets(
        limits.ip_factor * limits.client_messages_per_second,
        round(limits.ip_factor * limits.client_message_burst),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store.migrate()
        await hub.start()
        if freeze_gc:
            gc.collect()
            gc.freeze()
            gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
        yield
        await hub.stop()
        store.dispose()

    app = FastAPI(title="Bestiary", version=__version__, lifespan=lifespan)
    app.state.hub = hub
    app.state.store = store
    app.state.limits = limits
    app.state.sockets = sockets  # the play sockets open now, and why others closed
    app.state.access = access
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes)
    # The client's address (every quota's key) from proxy headers only when a
    # proxy the operator trusts sent them (proxies.py).
    app.add_middleware(ClientAddress, trusted=access.networks())
    # Outermost: a request the stop cuts off is answered 503, not a traceback.
    app.add_middleware(CutOff)

    @app.exception_handler(BestiaryError)
    async def bestiary_error(request: Request, exc: BestiaryError) -> JSONResponse:
        # fairbots: a refusal for lack of workers says when to try again.
        retry = {"Retry-After": str(exc.retry_after)} if isinstance(exc, Busy) else None
        return JSONResponse({"detail": str(exc)}, status_code=_status(exc), headers=retry)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # Pydantic's errors repeat the whole input: say what was wrong, not what was sent.
        detail = [
            {"loc": list(e.get("loc", ()))[:6], "msg": str(e.get("msg", ""))[:200]}
            for e in exc.errors()[:10]
        ]
        return JSONResponse({"detail": detail}, status_code=422)

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
            # The operator's own bots are seated by name at every game.
            info["agents"] = [*info.get("agents", []), *sorted(own)]
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
    async def game_score(game_id: str, payload: dict[str, Any], request: Request) -> dict[str, Any]:
        """Runs in a worker process within ``Limits.tool_seconds``: a search too
        big for that is stopped with a 503, and other requests carry on."""
        game = get_game(game_id)
        variant = payload.get("variant")
        if variant is not None and not isinstance(variant, str):
            raise BadInput("'variant' must be a string")
        game.ruleset(variant)  # an unknown variant is refused before any work
        result = await hub.tools.run(
            jobs.score_tool,
            game,
            payload,
            variant,
            seconds=limits.tool_seconds,
            wait=limits.queue_seconds,
            key=_tool_key(request),
        )
        if result is None:
            raise NotFound(f"{game_id} has no scoring tool")
        return dict(result)

    @app.post("/api/tables", status_code=201, summary="Create a table")
    async def create_table(req: CreateTable, request: Request) -> dict[str, Any]:
        humans = sum(s.kind == "human" for s in req.seats)
        if req.seed is not None and humans > 1:
            # Whoever knows the seed knows every hand: never at a table others join.
            raise BadInput(
                "only a solo table (at most one person, every other seat a bot) may choose "
                "its seed; "
                "leave 'seed' out and the server deals fairly"
            )
        table = await hub.create_async(
            req.game,
            [s.model_dump() for s in req.seats],
            variant=req.variant,
            options=req.options,
            seed=req.seed,
            client=_client_id(request),
            turn_seconds=req.turn_seconds,
            ip=_client(request),
        )
        return table.info()

    @app.get(
        "/api/tables",
        summary="List tables, newest first, a page at a time",
        response_model=dict[str, Any],
    )
    async def list_tables(
        status: Annotated[
            Literal["waiting", "playing", "finished", "expired"] | None, Query()
        ] = None,
        game: Annotated[str | None, Query(max_length=64)] = None,
        free: Annotated[
            bool | None, Query(description="only tables with (true) or without a free seat")
        ] = None,
        limit: Annotated[int, Query(ge=1, le=100)] = 50,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    ) -> JSONResponse:
        tables, total = await hub.list(status, game=game, free=free, limit=limit, offset=offset)
        # Plain JSON values already (table_info): sent as they are, without
        # FastAPI's walk over every value of the page (about 15 ms of the event
        # loop for a page of 100 tables).
        return JSONResponse({"tables": tables, "total": total, "limit": limit, "offset": offset})

    @app.get("/api/tables/{table_id}", summary="A table's public info")
    async def get_table(table_id: str) -> dict[str, Any]:
        return hub.info(table_id)

    @app.post("/api/tables/{table_id}/join", summary="Take a free seat: returns its token")
    async def join_table(table_id: str, req: JoinTable) -> Joined:
        seat, token = await hub.join_async(table_id, req.seat, req.name)
        return Joined(table=table_id, seat=seat, token=token, url=f"/table/{table_id}")

    @app.post("/api/tables/{table_id}/resign", summary="Leave for good: a bot takes the seat")
    async def resign(table_id: str, req: SeatToken) -> dict[str, Any]:
        seat = await hub.resign(table_id, req.token)
        return {"table": table_id, "seat": seat, "agent": "normal"}

    @app.post("/api/tables/{table_id}/rematch", summary="The rematch of a finished table")
    async def rematch(
        table_id: str, request: Request, req: RematchClaim | None = None
    ) -> dict[str, Any]:
        """The same game, options and bots with a fresh seed; every player
        asking gets the same table. Each person's seat is held for them: with
        ``token`` (their seat token at the finished table) the answer also
        holds ``seat`` and its new ``token``; nobody else may take it."""
        client, ip = _client_id(request), _client(request)
        if req is None or req.token is None:
            return hub.rematch(table_id, client, ip).info()
        table, seat, token = hub.claim_rematch(table_id, req.token, req.name, client, ip)
        return {**table.info(), "seat": seat, "token": token}

    def finished(table_id: str) -> TableRow:
        row = hub.row(table_id)
        if row.status != "finished":
            raise HTTPException(409, "the record and replay open when the game is over")
        return row

    def record_of(row: TableRow) -> MatchRecord:
        return MatchRecord(
            game=row.game,
            players=row.players,
            seed=row.seed,
            variant=row.variant,
            options=row.options,
            moves=list(row.moves),
            seats=[s.agent or "human" for s in row.seats],
            result=row.result,
        )

    @app.get("/api/tables/{table_id}/record", summary="The match record of a finished table")
    async def record(table_id: str) -> dict[str, Any]:
        """With the seed (revealed now that the game is over) and the commitment
        published at the start: ``sha256(str(seed)) == seed_sha256``."""
        row = finished(table_id)
        out = record_of(row).to_json()
        out["seed_sha256"] = hub.info(table_id)["seed_sha256"]
        return out

    @app.get("/api/tables/{table_id}/replay", summary="Every step of a finished table")
    async def replay(
        table_id: str, request: Request, seat: Annotated[int | None, Query(ge=0, lt=64)] = None
    ) -> dict[str, Any]:
        """One frame per move: the view of ``seat`` (default: a spectator's) and
        the log lines that move produced. Only for finished tables; built in a
        worker process."""
        row = finished(table_id)
        if seat is not None and seat >= row.players:
            raise HTTPException(404, f"seats are 0 to {row.players - 1}")
        info = hub.info(table_id)
        frames = await hub.tools.run(
            jobs.replay_frames,
            get_game(row.game),
            record_of(row).to_json(),
            seat,
            table_names(info),  # the log says the players' names, as it did live
            seconds=limits.tool_seconds * 4,
            wait=limits.queue_seconds,
            key=_tool_key(request),
        )
        return {"table": info, "seat": seat, "frames": frames}

    # -- play --------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        """First message ``{"type": "hello", "token": "…"}`` (no token: spectate);
        then ``{"type": "act", "action": "<text form>"}``, ``{"type": "undo"}``
        (take back your own last move: ``takeback.py``), ``{"type": "sync"}``,
        ``{"type": "ping"}`` or ``{"type": "chat", "text" | "quick": …}``. The
        server sends ``update``, ``reset`` (an undo: the whole state follows),
        ``chat``, ``chat_history`` and ``error``."""
        await websocket.accept()
        client = _client(websocket)
        # Counted from accept: a socket that never says hello holds memory too.
        refusal = sockets.open(client)
        if refusal is not None:
            sockets.note(TOO_MANY_SOCKETS)
            await _refuse(websocket, refusal, TOO_MANY_SOCKETS)
            return
        try:
            sockets.note(await session(websocket, table_id, client))
        finally:
            sockets.close(client)

    async def session(websocket: WebSocket, table_id: str, client: str) -> int:
        """One counted socket from hello to close; the close code."""
        try:
            table = await hub.get_async(table_id)
        except BestiaryError as exc:
            await _refuse(websocket, str(exc), 4404)
            return 4404
        except Exception:
            log.exception("cannot open table %s", table_id)
            await _refuse(websocket, "internal server error", 1011)
            return 1011
        try:
            seat = await _hello(websocket, hub, table_id, limits.hello_seconds)
        except _Refused as exc:
            await _refuse(websocket, exc.message, exc.code)
            return exc.code
        except WebSocketDisconnect:
            return 1000
        # The live table again: while hello was awaited, the hub may have let an
        # idle replica go and loaded the table anew (several processes).
        with contextlib.suppress(BestiaryError):
            table = await hub.get_async(table_id)
        conn = table.connect(seat, client, limits.socket_queue_bytes)
        writer = asyncio.create_task(_pump(websocket, conn))
        code, reason = 1000, ""
        # A seated socket's quota is its seat's (people behind one address do
        # not share it); a spectator's is its address's. The address as a
        # whole gets ip_factor times a client's share.
        key = f"seat:{table_id}:{seat}" if seat is not None else client
        limiter = _Limiter(
            RateLimiter(rate, socket_burst),
            [(client_messages, key), (ip_messages, client)],
            limits.socket_strikes,
            RateLimiter(1.0 / max(limits.sync_seconds, 1e-6), max(1, limits.sync_burst)),
        )
        try:
            code = await _read(websocket, table, conn, limiter)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("websocket of table %s failed", table_id)
            conn.send(error("internal server error"))
            code = 1011
        finally:
            table.disconnect(conn)  # the writer sends what is queued, then stops
            if conn.slow:
                # Its writer may wait for a reader that never reads: what it
                # had waiting is dropped already; the close says why.
                writer.cancel()
                code = TOO_SLOW
                reason = f"too slow: over {limits.socket_queue_bytes} bytes waited; reconnect"
            # A reader that stops reading must not hold this socket open for ever.
            await asyncio.wait({writer}, timeout=CLOSE_GRACE)
            writer.cancel()
            if websocket.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(websocket.close(code, reason), CLOSE_GRACE)
        return code

    # -- the browser client ---------------------------------------------------------
    @app.get("/", include_in_schema=False)
    def lobby_page() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "table.html")

    # The designer's lab: runs in the background, stored beside the tables;
    # off unless the operator turns it on, then behind the operator's token.
    from .lab import lab_off_router, lab_router

    if access.lab and access.lab_token is not None:
        app.include_router(
            lab_router(
                store.engine,
                data_folder(store.url),
                token=access.lab_token,
                max_games=limits.lab_max_games,
                max_iterations=limits.max_iterations,
                max_seconds=limits.max_search_seconds,
                runs_per_client=limits.lab_runs_per_client,
                client_of=_client,  # an address: a made-up client id lifts nothing
            )
        )
    else:
        app.include_router(lab_off_router(access.lab))
    from .hint_api import hint_router  # the strongest bot's move for your seat
    from .i18n_api import router as i18n_router  # the pages' words, EN and PL
    from .rules_api import router as rules_router  # RULES.md for the rules drawer

    app.include_router(hint_router(hub, limits, _tool_key))
    app.include_router(rules_router)
    from .tutorial_api import router as tutorial_router  # first-game tutorials

    app.include_router(tutorial_router)

    app.include_router(i18n_router)

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app


GC_YOUNG = 10_000  # new container objects between two young collections (Python: 700)


class _Refused(Exception):
    def __init__(self, message: str, code: int) -> None:
        self.message, self.code = message, code


async def _refuse(websocket: WebSocket, message: str, code: int) -> None:
    """The error answer, then the close (within CLOSE_GRACE: a client that
    does not read gets neither)."""

    async def say() -> None:
        await websocket.send_text(json.dumps(error(message)))
        # A close frame's reason is at most 123 bytes of UTF-8.
        await websocket.close(code, message.encode()[:120].decode("utf-8", "ignore"))

    with contextlib.suppress(Exception):
        await asyncio.wait_for(say(), CLOSE_GRACE)


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
    except (json.JSONDecodeError, RecursionError):
        # RecursionError: a message nested deeper than the parser goes (4 KB
        # of brackets); it is as malformed as any other (issue 27).
        raise ValueError(
            'messages are JSON objects such as {"type": "act", "action": "…"}'
        ) from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ValueError('a message is a JSON object with a "type" (hello, act, sync, ping, chat)')
    return msg


async def _hello(websocket: WebSocket, hub: Hub, table_id: str, seconds: float) -> int | None:
    try:
        raw = await asyncio.wait_for(websocket.receive(), seconds)
    except TimeoutError:
        raise _Refused(f"no hello within {seconds:g} s", HELLO_LATE) from None
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
    seat = await hub.seat_of_async(table_id, token)
    if seat is None:
        raise _Refused("that token holds no seat at this table", 4403)
    return seat


async def _pump(websocket: WebSocket, conn: Connection) -> None:
    """Send a connection's queued messages (JSON texts) in order until it closes."""
    while True:
        text = await conn.queue.get()
        if text is None:
            return
        try:
            # Returns once the socket took the text: the server's socket waits
            # here while its reader's buffers are full (its queue grows meanwhile).
            await websocket.send_text(text)
        except Exception:
            return
        finally:
            conn.taken(text)


class _Limiter:
    """A socket's own rate and its shares (its client's over all its sockets,
    its address's over all its clients)."""

    def __init__(
        self,
        socket: RateLimiter,
        shares: list[tuple[ClientBuckets, str]],
        strikes: int,
        sync: RateLimiter | None = None,
    ) -> None:
        self.socket, self.shares, self.max_strikes = socket, shares, strikes
        # sync resends the whole log: rarer than other messages (issue 27).
        self.sync = sync or RateLimiter(0.2, 2)
        # Chat goes to everyone at the table: rarer still (chat.py).
        self.chat = RateLimiter(CHAT_PER_SECOND, CHAT_BURST)

    def allow(self) -> bool:
        return self.socket.allow() and all(b.allow(key) for b, key in self.shares)

    @property
    def strikes(self) -> int:
        return self.socket.strikes


async def _receive(websocket: WebSocket, conn: Connection) -> Mapping[str, Any] | None:
    """The socket's next message, or None once its queue went over the bound
    (``Connection``): it is then closed at once, whether or not its client
    sends anything. A message being handled (a move) always finishes first."""
    if conn.slow:
        return None
    message = asyncio.ensure_future(websocket.receive())
    over = asyncio.ensure_future(conn.over.wait())
    try:
        await asyncio.wait({message, over}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        over.cancel()
        if not message.done():
            message.cancel()
    if conn.slow or message.cancelled():
        return None
    return message.result()


async def _read(websocket: WebSocket, table: LiveTable, conn: Connection, limiter: _Limiter) -> int:
    """Handle a connection's messages; return the close code when it must end."""
    while True:
        raw = await _receive(websocket, conn)
        if raw is None:
            return TOO_SLOW
        if raw.get("type") == "websocket.disconnect":
            return 1000
        if not limiter.allow():
            if limiter.strikes > limiter.max_strikes:
                conn.send(error("too many messages; closing"))
                return 1008
            conn.send(error("too many messages: slow down"))
            continue
        try:
            msg = _decode(raw)
        except _Refused as exc:
            conn.send(error(exc.message))
            return exc.code
        except ValueError as exc:
            conn.send(error(str(exc)))
            continue
        kind = msg["type"]
        if kind == "act":
            action = msg.get("action")
            if conn.seat is None:
                conn.send(error("spectators cannot act; join a seat to play"))
            elif not isinstance(action, str) or not action.strip():
                conn.send(error('"act" needs "action": the text of a legal action'))
            elif len(action) > MAX_ACTION_CHARS:
                conn.send(error(f"an action's text is at most {MAX_ACTION_CHARS} characters"))
            else:
                try:
                    await table.act(conn.seat, action)
                except NotYourTurn as exc:
                    conn.send(error(str(exc)))
                except BestiaryError as exc:
                    conn.send(error(str(exc)))
        elif kind == "undo":
            if conn.seat is None:
                conn.send(error("spectators cannot take moves back"))
            else:
                try:
                    await table.undo(conn.seat)
                except UndoRefused as exc:
                    conn.send(exc.reason.answer())
        elif kind == "sync":
            if limiter.sync.allow():
                table.resend(conn)
            else:
                wait = max(0.1, round(limiter.sync.retry_after(), 1))
                refused = error(f"too many syncs: try again in {wait:g} s")
                conn.send({**refused, "retry_after": wait})
        elif kind == "ping":
            conn.send({"type": "pong"})
        elif kind == "chat":
            _chat(table, conn, limiter, msg)
        elif kind == "hello":
            conn.send(error("already connected"))
        else:
            conn.send(
                error(f"unknown message type {_short(kind)!r}; use act, undo, sync, ping or chat")
            )


def _chat(table: LiveTable, conn: Connection, limiter: _Limiter, msg: dict[str, Any]) -> None:
    """A chat message: checked, then sent to everyone at the table; or refused
    (an error with ``chat``: the reason, and ``retry_after`` for the rate)."""
    try:
        content = parse_chat(msg)
        if not limiter.chat.allow():
            raise too_fast(limiter.chat.retry_after(), CHAT_PER_SECOND, CHAT_BURST)
    except ChatRefused as exc:
        conn.send(exc.answer())
        return
    table.say(conn, content)
