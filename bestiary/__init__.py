"""Bestiary: engine, player and laboratory for monster card games."""

__version__ = "0.3.0"
