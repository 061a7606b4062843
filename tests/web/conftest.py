"""Headless Chromium for the browser tests (Debian's, driven by Playwright
through ``executable_path``; BESTIARY_CHROMIUM is exported by scripts/services.sh)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("BESTIARY_CHROMIUM")
# Without the background-networking flags Chromium keeps dialling out, and
# this machine's closed network refuses it.
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM, reason="BESTIARY_CHROMIUM is not set (no chromium)"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
