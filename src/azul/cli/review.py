"""``azul analyse``: a game's review printed in the terminal, mistakes in colour."""

from __future__ import annotations

from azul.i18n import _
from azul.review import WORDS, Review

# ANSI colours of the labels (yellow, bold yellow, bold red)
COLOURS = {"inaccuracy": "\x1b[33m", "mistake": "\x1b[1;33m", "blunder": "\x1b[1;31m"}


def review_text(review: Review, colour: bool = False) -> str:
    """The review as lines: each decision with the best move and what it lost, then each
    player's average loss and labels."""

    def paint(text: str, name: str | None) -> str:
        return f"{COLOURS[name]}{text}\x1b[0m" if colour and name else text

    width = max((len(d.move) for d in review.decisions), default=4)
    forced = _("(forced)")
    lines = []
    for d in review.decisions:
        seat = _("seat {seat}").format(seat=d.seat)
        line = f"{d.ply:4}. {seat}  {d.move:<{width}}"
        if d.forced:
            line += "  " + forced
        elif d.loss > 0:
            what = "  " + _("best {move}").format(move=d.best_move) + f"  -{d.loss:g}"
            if d.label:
                what += f"  {_(WORDS[d.label])}"
            line += paint(what, d.label)
        if d.lead is not None:
            line += f"  [{d.lead:+.1f}]"
        lines.append(line)
    lines.append("")
    for p in review.summary:
        lines.append(
            _(
                "seat {seat}: {loss:.2f} points lost per move; {inaccuracies} inaccuracies, "
                "{mistakes} mistakes, {blunders} blunders"
            ).format(
                seat=p.seat,
                loss=p.average_loss,
                inaccuracies=p.inaccuracies,
                mistakes=p.mistakes,
                blunders=p.blunders,
            )
        )
    lines.append(_("[lead]: the mover's expected final lead in points; losses in points."))
    return "\n".join(lines)
