"""Every relative link in docs/ and README.md points at a file or directory in the
repository (and, with a ``#fragment``, at a heading of that Markdown file)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
# [text](target) and [text](target "title"), not images of remote sites; code spans
# and fenced blocks are removed first so `[x](y)` examples in code are not links.
LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE = re.compile(r"`[^`\n]*`")
REMOTE = ("http://", "https://", "mailto:")


def links(page: Path) -> list[str]:
    text = CODE.sub("", FENCE.sub("", page.read_text(encoding="utf-8")))
    return [t for t in LINK.findall(text) if not t.startswith(REMOTE)]


def anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    heads = re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


def test_there_are_pages_to_check() -> None:
    names = {p.name for p in PAGES}
    assert {"README.md", "ARCHITECTURE.md", "ADDING_A_GAME.md", "AGENTS.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_repository(page: Path) -> None:
    broken = []
    for target in links(page):
        path_part, _, fragment = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if ROOT not in (dest, *dest.parents):
            broken.append(f"{target} (outside the repository)")
        elif not dest.exists():
            broken.append(f"{target} (no such file)")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            broken.append(f"{target} (no heading #{fragment})")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_link_check_catches_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("see [the guide](../shared/DESIGN.md) and `[not](a-link)`\n")
    assert links(page) == ["../shared/DESIGN.md"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_sends_the_reader_to_a_guide_outside_the_repository(page: Path) -> None:
    """The design guide used to live next to the clone (``../shared/DESIGN.md``);
    what a contributor needs from it is docs/ARCHITECTURE.md now."""
    text = page.read_text(encoding="utf-8")
    assert "../shared" not in text and "DESIGN.md" not in text
