"""M.E.A.T.: The Cult — team drafting and three-lane battles (2, 4 or 6 players)."""

from .game import MeatGame

GAME = MeatGame()

__all__ = ["GAME", "MeatGame"]
