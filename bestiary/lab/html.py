"""Small HTML building blocks for the lab's self-contained pages (no template engine:
every piece of text from a run, a card file or an agent spec goes through ``esc``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from ..i18n import language

STYLE = """
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.6rem}h2{border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0}
td,th{padding:.2rem .6rem;border-bottom:1px solid #eee}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.warn{background:#fff3cd;border-left:4px solid #e0a800;padding:.4rem .8rem}
.sig{font-weight:bold;color:#a61b1b}.note{color:#666;font-size:.9rem}
img{max-width:100%}code{background:#f4f4f4;padding:0 .2rem}
"""


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def page(title: str, body: Iterable[str]) -> str:
    """A whole page, its ``lang`` the language it is built in."""
    return (
        f"<!doctype html><html lang='{esc(language())}'><head><meta charset='utf-8'>"
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{esc(title)}</h1>" + "".join(body) + "</body></html>"
    )


def section(sid: str, title: str, parts: Iterable[str]) -> str:
    return f"<section id='{esc(sid)}'><h2>{esc(title)}</h2>{''.join(parts)}</section>"


def img(uri: str, alt: str) -> str:
    return f"<figure><img class='plot' src='{uri}' alt='{esc(alt)}'></figure>"


def para(text: str, cls: str = "") -> str:
    return f"<p class='{cls}'>{esc(text)}</p>" if cls else f"<p>{esc(text)}</p>"


def table(header: Sequence[str], rows: Iterable[Sequence[object]], numeric_from: int = 1) -> str:
    def cell(tag: str, i: int, v: object) -> str:
        cls = " class='n'" if i >= numeric_from else ""
        return f"<{tag}{cls}>{esc(v)}</{tag}>"

    head = "".join(cell("th", i, h) for i, h in enumerate(header))
    body = "".join(
        "<tr>" + "".join(cell("td", i, v) for i, v in enumerate(r)) + "</tr>" for r in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
