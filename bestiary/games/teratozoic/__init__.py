"""Teratozoic (Teel McClanahan III, CC BY 4.0): breed the biggest monsters."""

from .game import TeratozoicGame

GAME = TeratozoicGame()

__all__ = ["GAME", "TeratozoicGame"]
