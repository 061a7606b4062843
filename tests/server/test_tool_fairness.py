"""Issue 27, point 7: "One shared tool worker: a hint flood from one client
gives another person's hint a 503."

What is promised instead: the tool workers (hints, scoring, replays) serve
clients in turn; a client has at most ``tool_calls_per_client`` requests
under way, and one more is refused at once with 429, a Retry-After header
and a message saying when to try again, instead of queueing ahead of others.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from bestiary.server import create_app
from bestiary.server.config import Limits

from .conftest import create, join

HOG = {"X-Bestiary-Client": "hog-0000001"}
PERSON = {"X-Bestiary-Client": "person-0001"}


@pytest.fixture
def one_tool(db_path: str) -> Iterator[TestClient]:
    """One tool worker; a request waits at most 3 s for it (a hint takes 1 s)."""
    limits = Limits(tool_workers=1, tool_seconds=1.0, queue_seconds=3.0)
    with TestClient(create_app(db_path, bot_delay=3600, limits=limits)) as c:
        yield c


def test_a_flood_from_one_client_does_not_refuse_another_persons_hint(one_tool: TestClient) -> None:
    """A client floods the only tool worker with hints (a second each, from
    eight threads, again and again): its requests past its share are refused
    at once (429, Retry-After, a message), and another person's hint is
    served after at most the flood's hint under way (first come first
    served: behind the whole flood, past queue_seconds, a 503)."""
    client = one_tool
    table = create(client, seats=["human", "random"])
    token = join(client, table["id"], 0)
    url = f"/api/tables/{table['id']}/hint"
    warm = client.post(url, json={"token": token}, headers=PERSON)
    assert warm.status_code == 200, warm.text  # the worker is up
    hogs = create(client, seats=["human", "random"])
    hog_token = join(client, hogs["id"], 0)

    stop = threading.Event()
    answers: list[tuple[int, str, str | None]] = []

    def flood() -> None:
        """One of the hog's threads: a hint, again and again, until told to stop."""
        while not stop.is_set():
            r = client.post(
                f"/api/tables/{hogs['id']}/hint", json={"token": hog_token}, headers=HOG
            )
            answers.append((r.status_code, r.text, r.headers.get("retry-after")))
            time.sleep(0.05)

    hub = client.app.state.hub  # type: ignore[attr-defined]
    with ThreadPoolExecutor(8) as pool:
        threads = [pool.submit(flood) for _ in range(8)]

        async def flooded() -> None:
            for _ in range(2000):  # the hog's hint is being searched, more wait or were refused
                if hub.tools.busy >= 1 and len(answers) >= 3:
                    return
                await asyncio.sleep(0.005)

        client.portal.call(flooded)  # type: ignore[union-attr]
        try:
            hint = client.post(url, json={"token": token}, headers=PERSON)
        finally:
            stop.set()
            for t in threads:
                t.result()
    assert hint.status_code == 200, hint.text
    refused = [a for a in answers if a[0] == 429]
    assert refused, answers  # the hog's requests past its share
    for _status, text, retry in refused:
        assert retry is not None and int(retry) >= 1
        assert f"try again in {retry} s" in text


def test_a_refusal_for_a_full_queue_says_when_to_retry() -> None:
    """A request that waited its queue_seconds for a worker in vain: Busy,
    with the seconds after which to try again."""
    from bestiary.server.fair import Busy, FairSlots, TooMany

    async def main() -> Busy:
        slots = FairSlots(1, "tool worker(s)")
        await slots.take(("a", "x"))
        try:
            await slots.take(("b", "y"), wait=0.01)
        except Busy as exc:
            return exc
        raise AssertionError("not refused")

    exc = asyncio.run(main())
    assert not isinstance(exc, TooMany)
    assert exc.retry_after >= 1 and f"try again in {exc.retry_after} s" in str(exc)
