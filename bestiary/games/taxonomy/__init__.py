"""Monster Girl Taxonomy (rules v0.2; variant v0.1): collect sets of monsters
of the same taxon. The registry entry is ``GAME``."""

from .game import TaxonomyGame

GAME = TaxonomyGame()

__all__ = ["GAME", "TaxonomyGame"]
