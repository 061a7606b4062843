"""Shared test setup: every test starts in English, whatever the one before
it set (the CLI sets its language for the whole process: ``--lang pl`` in a
test run through ``CliRunner`` would otherwise leak into the next test the
same worker runs)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bestiary.i18n import use_language


@pytest.fixture(autouse=True)
def _english_unless_asked() -> Iterator[None]:
    with use_language("en"):
        yield


JAX_TESTS = Path(__file__).resolve().parent / "jax"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """tests/jax runs only in a pytest process of its own (``pytest tests/jax``;
    scripts/test runs it after the main suite). JAX starts threads when it is
    imported, and every later fork in that process (the lab's process pool, Ray
    starting) would then risk a deadlock, as JAX itself warns."""
    if collection_path.resolve() != JAX_TESTS:
        return None
    asked = [Path(str(a).split("::")[0]).resolve() for a in config.args]
    alone = bool(asked) and all(a == JAX_TESTS or JAX_TESTS in a.parents for a in asked)
    return None if alone else True
