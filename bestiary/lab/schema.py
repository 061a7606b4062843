"""The row schema of a run: one row per game, card-level rows nested in it.

A run file is one Parquet table. Every row is one game, fully determined by
the run's configuration and the game's index (seed = first seed + index), so
rows do not depend on the worker count or the backend. Card-level facts
(a seat's leader or faction, a card it picked, a round's winning pattern)
travel in the ``items`` list column, one struct per (game, item), made by
each game's ``stats.py`` (``Game.lab_tracker``); :func:`bestiary.lab.
metrics.item_rows` unnests them into one row per (game, item).

The run's configuration is stored in the file's schema metadata under
``bestiary.run`` (JSON), so a file can be resumed or extended without the
command that made it.
"""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa

SCHEMA_VERSION = 2
META_KEY = b"bestiary.run"

ITEM = pa.struct(
    [
        pa.field("kind", pa.string()),  # "leader", "faction", "pattern", ...
        pa.field("name", pa.string()),
        pa.field("seat", pa.int32()),  # -1: no one seat (a round's pattern)
        pa.field("won", pa.bool_()),  # did this item's seat (side) win the game
        pa.field("value", pa.float64()),  # points, gold, count...; null when none
    ]
)

ROW = pa.schema(
    [
        pa.field("index", pa.int64()),  # offset from the run's first seed
        pa.field("seed", pa.int64()),
        pa.field("game", pa.string()),
        pa.field("variant", pa.string()),
        pa.field("options", pa.string()),  # JSON, keys sorted
        pa.field("cards_hash", pa.string()),  # sha256 of the card files in force ("" shipped)
        pa.field("players", pa.int32()),
        pa.field("seats", pa.list_(pa.string())),  # agent spec per seat
        pa.field("scores", pa.list_(pa.float64())),
        pa.field("winners", pa.list_(pa.int32())),
        pa.field("decisions", pa.int64()),
        pa.field("branching", pa.float64()),  # mean legal actions per decision
        # every seat's score after each round, where the game keeps running scores
        pa.field("running", pa.list_(pa.list_(pa.float64()))),
        pa.field("lead_changes", pa.int64()),  # null without running scores
        pa.field("decided_round", pa.int64()),  # round after which the winner led for good
        pa.field("turns", pa.int64()),  # null where the game does not count turns
        pa.field("rounds", pa.int64()),  # rounds, dungeons or generations; null if none
        pa.field("stats", pa.string()),  # the game's Result.stats, JSON
        pa.field("items", pa.list_(ITEM)),
        pa.field("error", pa.string()),  # null, or why the game failed (then no scores)
    ]
)


def with_meta(schema: pa.Schema, config: dict[str, Any]) -> pa.Schema:
    return schema.with_metadata({META_KEY: json.dumps(config, sort_keys=True).encode()})


def meta_of(schema: pa.Schema) -> dict[str, Any]:
    raw = (schema.metadata or {}).get(META_KEY)
    if raw is None:
        return {}
    data: dict[str, Any] = json.loads(raw)
    return data
