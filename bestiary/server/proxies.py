"""The client's address behind the operator's reverse proxies.

Quotas are kept per address, so the address must be one the client cannot
choose. ``X-Forwarded-For`` and ``Forwarded`` (RFC 7239) are written by
whoever sends the request: they are believed only when the peer that
connected is one of the proxies the operator named (``Access.trusted_proxies``),
and then only as far back as the chain runs through trusted proxies: the
right-most address that is not a trusted proxy is the client. From any other
peer the headers are ignored and the peer's own address is the client.

:class:`ClientAddress` is an ASGI middleware that puts that address in the
scope's ``client``, for HTTP and websockets alike, so every reader of
``request.client`` gets it. (``bestiary serve`` turns uvicorn's own proxy
handling off, which would otherwise trust any loopback peer.)
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Sequence
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_FOR = re.compile(r'(?:^|;)\s*for\s*=\s*("[^"]*"|[^;,\s]*)', re.IGNORECASE)


def _address(text: str) -> Address | None:
    """An IP address from a header's node (``1.2.3.4``, ``1.2.3.4:80``,
    ``[2001:db8::1]:80``, ``2001:db8::1``), or None (``unknown``, ``_hidden``)."""
    node = text.strip().strip('"').strip()
    if node.startswith("["):
        node = node[1:].split("]", 1)[0]
    elif node.count(":") == 1:  # IPv4 with a port
        node = node.split(":", 1)[0]
    try:
        return ipaddress.ip_address(node)
    except ValueError:
        return None


def forwarded_chain(headers: Iterable[tuple[bytes, bytes]]) -> list[str] | None:
    """The addresses the proxy headers name, client first: from ``Forwarded``
    when present, else ``X-Forwarded-For``; None when neither is sent."""
    forwarded: list[str] = []
    xff: list[str] = []
    for name, value in headers:
        key = name.decode("latin-1").lower()
        text = value.decode("latin-1")
        if key == "forwarded":
            for element in text.split(","):
                m = _FOR.search(element)
                forwarded.append(m.group(1) if m else "")
        elif key == "x-forwarded-for":
            xff.extend(part.strip() for part in text.split(","))
    if forwarded:
        return forwarded
    return xff or None


def client_address(peer: str, chain: Sequence[str] | None, trusted: Sequence[Network]) -> str:
    """The client's address: ``peer`` itself unless it is a trusted proxy;
    then the right-most address of ``chain`` that is not one (a node that is
    no address, e.g. ``unknown``, stops the walk at the proxy that wrote it)."""
    if not trusted or not chain:
        return peer
    hop = _address(peer)
    if hop is None or not _trusted(hop, trusted):
        return peer
    for node in reversed(chain):
        address = _address(node)
        if address is None:
            return str(hop)  # the last trusted proxy cannot say who sent it the request
        hop = address
        if not _trusted(hop, trusted):
            return str(hop)
    return str(hop)  # every hop is a trusted proxy: the first of them


def _trusted(address: Address, trusted: Sequence[Network]) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in net for net in trusted if net.version == address.version)


class ClientAddress:
    """ASGI middleware: ``scope["client"]`` becomes :func:`client_address`."""

    def __init__(self, app: Any, trusted: Sequence[Network]) -> None:
        self.app = app
        self.trusted = tuple(trusted)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if self.trusted and scope["type"] in ("http", "websocket") and scope.get("client"):
            host, _port = scope["client"]
            chain = forwarded_chain(scope.get("headers", ()))
            real = client_address(host, chain, self.trusted)
            if real != host:
                scope = {**scope, "client": (real, 0)}
        await self.app(scope, receive, send)
