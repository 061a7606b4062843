"""Monster Maker: a dungeon race with dice battles (game id ``monster-maker``)."""

from .game import MonsterMakerGame

GAME = MonsterMakerGame()

__all__ = ["GAME", "MonsterMakerGame"]
