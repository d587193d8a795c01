"""Game review: each decision weighed against the best move (``analysis``), its evaluation
graph as SVG (``graph``); ``azul.cli.review`` prints it in the terminal."""

from azul.review.analysis import (
    ITERATIONS,
    LABELS,
    WORDS,
    Decision,
    Player,
    Review,
    label,
    review_decision,
    review_moves,
    review_record,
)
from azul.review.graph import review_svg

__all__ = [
    "ITERATIONS",
    "LABELS",
    "WORDS",
    "Decision",
    "Player",
    "Review",
    "label",
    "review_decision",
    "review_moves",
    "review_record",
    "review_svg",
]
