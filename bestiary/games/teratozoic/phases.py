"""Teratozoic's phases: the four phases of a generation as the state names
them ("breed-play": the winner takes cards from play; "breed-hand": every
player keeps cards from their hand), and the end. This module imports nothing
of the game.
"""

from __future__ import annotations

from typing import Literal

Phase = Literal["expression", "growth", "breed-play", "breed-hand", "over"]
