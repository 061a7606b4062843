"""Shared test setup: the toy game is registered for engine tests."""
