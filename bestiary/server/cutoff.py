"""An ASGI middleware that answers a request cut off by the server's stop
with 503 instead of a traceback.

A stopping server gives requests under way a few seconds (uvicorn's
``timeout_graceful_shutdown``), then cancels them. A hint still queued for
the tool worker is such a request: uvicorn would log "Exception in ASGI
application" with the CancelledError's traceback. A stop is no input at all,
and "no input, however broken, produces a traceback": the request gets
"503 the server is shutting down" (if nothing of its answer was sent yet), a
line goes to the log, and the cancellation ends there.
"""

from __future__ import annotations

import asyncio
import json
import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("bestiary.server")

SHUTTING_DOWN = "the server is shutting down; try again in a moment"


class CutOff:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except asyncio.CancelledError:
            log.info("%s %s cut off by the server's stop", scope.get("method"), scope.get("path"))
            if not started:
                await _answer_503(send)
            # Not raised again: the request is answered, and the stop goes on
            # (uvicorn cancels each request once and waits for it to end).


async def _answer_503(send: Send) -> None:
    body = json.dumps({"detail": SHUTTING_DOWN}).encode()
    try:
        await send(
            {
                "type": "http.response.start",
                "status": 503,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", b"5"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
    except Exception:  # the connection is gone already: nobody to answer
        pass
