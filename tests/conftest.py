"""Shared test setup: every test starts in English, whatever the one before
it set (the CLI sets its language for the whole process: ``--lang pl`` in a
test run through ``CliRunner`` would otherwise leak into the next test the
same worker runs)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bestiary.i18n import use_language


@pytest.fixture(autouse=True)
def _english_unless_asked() -> Iterator[None]:
    with use_language("en"):
        yield
