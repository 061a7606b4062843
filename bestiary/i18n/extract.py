"""A Babel extractor for the pages' HTML: the words of elements marked
``data-i18n`` and the attributes named in ``data-i18n-attr`` (``title``,
``placeholder``…), which ``web/js/i18n.js`` translates when a page loads.

babel.cfg names it: ``[bestiary.i18n.extract.extract_html: **.html]``.
Whitespace is collapsed as the page collapses it, so the ids match.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


def _clean(text: str) -> str:
    return " ".join(text.split())


class _Marked(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        # per open element: None, or (line, the id it gives, the text inside so far)
        self._open: list[tuple[int, str, list[str]] | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        line = self.getpos()[0]
        for name in a.get("data-i18n-attr", "").replace(",", " ").split():
            if a.get(name):
                self.found.append((line, _clean(a[name])))
        if tag in VOID:
            return
        self._open.append((line, a["data-i18n"], []) if "data-i18n" in a else None)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID or not self._open:
            return
        top = self._open.pop()
        if top is not None:
            text = _clean(top[1] or "".join(top[2]))  # as i18n.js: a given id wins
            if text:
                self.found.append((top[0], text))

    def handle_data(self, data: str) -> None:
        for item in self._open:
            if item is not None:
                item[2].append(data)


def extract_html(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    parser = _Marked()
    parser.feed(fileobj.read().decode(str(options.get("encoding", "utf-8"))))
    parser.close()
    for line, text in parser.found:
        yield line, None, text, []
