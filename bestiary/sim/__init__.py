"""Many games at once: the runner, statistics and benchmarks."""
