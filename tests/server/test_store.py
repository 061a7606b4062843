"""Where the store lives (``bestiary serve --db``) and how it is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from bestiary.engine.errors import BadInput
from bestiary.server import _safe
from bestiary.server.store import Store, database_url


def test_no_db_means_a_sqlite_file_in_the_user_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = database_url(None)
    assert url == f"sqlite:///{tmp_path / 'bestiary' / 'bestiary.sqlite3'}"
    assert (tmp_path / "bestiary").is_dir()


def test_a_path_is_a_sqlite_file_and_a_postgresql_url_uses_psycopg(tmp_path: Path) -> None:
    assert database_url(str(tmp_path / "x.db")) == f"sqlite:///{tmp_path / 'x.db'}"
    assert database_url("postgresql://me:pw@db/b") == "postgresql+psycopg://me:pw@db/b"
    assert database_url("postgres://db/b") == "postgresql+psycopg://db/b"


def test_an_unsupported_url_or_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="use a SQLite file path or postgresql"):
        database_url("mysql://db/x")
    with pytest.raises(BadInput, match="does not exist"):
        database_url(str(tmp_path / "nowhere" / "x.db"))


def test_the_printed_store_url_hides_the_password() -> None:
    assert _safe("postgresql+psycopg://me:secret@db:5432/b") == "postgresql+psycopg://me@db:5432/b"


def test_a_refused_move_leaves_no_trace(tmp_path: Path) -> None:
    """The move is written in the transaction that applies it: when applying
    fails, nothing is stored."""
    from datetime import UTC, datetime

    from bestiary.server.store import SeatRow, TableRow

    store = Store(database_url(str(tmp_path / "s.db")))
    store.migrate()
    row = TableRow("t1", "toy", "standard", {}, 2, 1, "playing", datetime.now(UTC))
    row.seats = [SeatRow(0, "human"), SeatRow(1, "human")]
    store.create_table(row)
    with pytest.raises(RuntimeError), store.recording_move("t1", 0, 0, "bid 1"):
        raise RuntimeError("the state refused")
    with store.recording_move("t1", 0, 1, "bid 2") as finish:
        finish({"scores": [1, 0], "winners": [0]})
    again = store.load_table("t1")
    assert again is not None
    assert again.moves == [(1, "bid 2")]
    assert (again.status, again.result) == ("finished", {"scores": [1, 0], "winners": [0]})
    store.dispose()


def test_a_database_that_cannot_be_reached_is_a_clear_error() -> None:
    """`bestiary serve --db postgresql://…` with the server down: one line, no trace."""
    store = Store(database_url("postgresql://nobody@127.0.0.1:1/none"))
    with pytest.raises(BadInput, match="cannot open the database: connection failed"):
        store.check()
