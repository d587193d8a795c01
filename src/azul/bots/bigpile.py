"""The big-pile bot: a simple one-ply opponent that does not share the search's evaluation. It
scores each action's outcome by the game's "bigpile" style (``Strategy.styles``): in Summer
Pavilion it takes the biggest pile it can, places tiles for completed structures and connected
points first and passes only when it must. A game without that style is refused, naming the
styles it has."""

from __future__ import annotations

from azul.bots.builder import BuilderBot


class BigPileBot(BuilderBot):
    name = "bigpile"
    style = "bigpile"
