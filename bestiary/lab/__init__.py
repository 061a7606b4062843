"""The designer's lab: runs as data (Parquet), statistics, reports, compare,
sweep and arena.

``runs`` plays games and writes one row per game; ``stats`` holds the
interval and test formulas; ``metrics`` turns a run into named metrics;
``report``/``compare``/``sweep``/``arena`` build on those. The heavy
dependencies (pyarrow, duckdb, matplotlib, openskill) come with the ``lab``
extra and are imported by the modules that need them, so ``import
bestiary.lab`` alone costs nothing.
"""
