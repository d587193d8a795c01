"""The terminal game: people type moves and commands at a prompt, bots answer (``azul play``)."""

from __future__ import annotations

import shutil
import textwrap
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import azul
from azul import i18n
from azul.cli.scores import outcome
from azul.core.errors import AzulError
from azul.core.records import record_of
from azul.i18n import N_, _
from azul.i18n.plain import markdown_to_text

if TYPE_CHECKING:
    from azul.bots.advice import Hint

# the prompt's commands: each one's English words (the first is its name) and what it does
COMMANDS = {
    "moves": (("moves", "m"), N_("list the legal moves")),
    "board": (("board", "b"), N_("show the whole position, every board")),
    "hint": (("hint",), N_("the three best moves, what each gives up, earns and sets up")),
    "undo": (("undo",), N_("take back your last move")),
    "rules": (("rules",), N_("a summary of the rules")),
    "save": (("save",), N_("save the game record to FILE")),
    "help": (("help", "h", "?"), N_("this help")),
    "quit": (("quit", "exit", "q"), N_("leave the game")),
}


def wrap(items: list[str]) -> str:
    return textwrap.fill("  ".join(items), width=100, subsequent_indent="  ")


GROUPED = 8  # more variants than this of one word (Summer Pavilion's "pass:...") are grouped


def grouped(moves: list[str]) -> list[str]:
    """The legal moves to list: the many variants of one word ("pass:PY", "pass:PPY", ...)
    as one entry that says how many there are and gives one, the others as they are."""
    families: dict[str, list[str]] = {}
    for move in moves:
        word, colon, _rest = move.partition(":")
        if colon and word.isalpha():
            families.setdefault(word, []).append(move)
    shown, said = [], set()
    for move in moves:
        word = move.partition(":")[0]
        family = families.get(word, [])
        if len(family) <= GROUPED:
            shown.append(move)
        elif word not in said:
            said.add(word)
            text = _("{word}:… ({count} ways, e.g. {example})")
            example = max(family, key=len)  # the notation at its fullest
            shown.append(text.format(word=word, count=len(family), example=example))
    return shown


def command_words() -> dict[str, str]:
    """Each command's word in the current language (the English words work too)."""
    return {
        "moves": i18n.pgettext("command", "moves"),
        "board": i18n.pgettext("command", "board"),
        "hint": i18n.pgettext("command", "hint"),
        "undo": i18n.pgettext("command", "undo"),
        "rules": i18n.pgettext("command", "rules"),
        "save": i18n.pgettext("command", "save"),
        "help": i18n.pgettext("command", "help"),
        "quit": i18n.pgettext("command", "quit"),
    }


def _fold(word: str) -> str:
    """``word`` in lower case without accents, so that 'regles' is 'règles'."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def parse_command(line: str) -> tuple[str | None, str]:
    """The command typed in ``line`` (in English or in the current language) and its argument;
    None when ``line`` is not a command. Only 'save' takes an argument."""
    word, _sep, arg = line.strip().partition(" ")
    arg = arg.strip()
    local = command_words()
    for name, (english, _what) in COMMANDS.items():
        if _fold(word) in {*english, _fold(local[name])} and bool(arg) == (name == "save"):
            return name, arg
    return None, ""


def help_text() -> str:
    local = command_words()
    rows = []
    for name, (_english, what) in COMMANDS.items():
        words = local[name] if local[name] == name else f"{local[name]} ({name})"
        rows.append((words + " " + _("FILE") if name == "save" else words, _(what)))
    width = max(len(words) for words, _what in rows)
    lines = [f"  {words:<{width}}  {what}" for words, what in rows]
    return "\n".join([_("Commands: a move in the notation below, or"), *lines, ""])


def hint_text(hint: Hint) -> str:
    """'Y@C5 (14 points behind the best; +5 now, +2.0 in prospects)'."""
    behind = _("best") if hint.behind == 0 else _("{points} points behind the best")
    why = _("{now} now, {later} in prospects").format(
        now=f"{hint.earns:+d}", later=f"{hint.sets_up:+.1f}"
    )
    return f"{hint.move} ({behind.format(points=f'{hint.behind:g}')}; {why})"


def rules_text(game: str) -> str:
    width = min(shutil.get_terminal_size().columns, 100) - 1
    text = azul.GAMES[game].rules_summary(i18n.current())
    if text is None:
        return _("{game} has no rules summary").format(game=game)
    return markdown_to_text(text, width)


def save_record(state: azul.State, seed: int, path: str, say: Callable[[str], None]) -> None:
    try:
        record_of(state, seed).save(path)
    except OSError as e:
        say(_("cannot save to {path}: {reason}").format(path=path, reason=e.strerror))
        return
    say(_("record saved to {path}").format(path=path))


class TerminalGame:
    """One game at the prompt. ``state`` is the position played on; after an undo the game
    goes on in a copy."""

    def __init__(
        self,
        state: azul.State,
        humans: set[int],
        bots: dict[int, Any],
        seed: int,
        say: Callable[[str], None],
        color: bool,
    ) -> None:
        self.state, self.humans, self.bots, self.seed = state, humans, bots, seed
        self.say, self.color = say, color
        # the position before each of the humans' moves, and who moved, for undo: your last
        # move and the bots' replies since, as long as nothing was drawn and no other person
        # moved (the browser's undo is the same)
        self.before: list[tuple[int, azul.State]] = []

    def show(self, everything: bool = False, seat: int | None = None) -> None:
        """The position: every board with ``everything`` or at the end; else the shared pieces,
        each seat's line and one board: ``seat``'s, by default the seat to move's."""
        state = self.state
        seat = state.current_player() if seat is None else seat
        if everything or state.is_terminal() or seat < 0:
            self.say(state.render(self.color))
            return
        self.say(state.render(self.color, boards={seat}))
        if state.num_players() > 1:
            word = command_words()["board"]
            self.say(_("(the other boards: type '{board}')").format(board=word))

    def bot_turn(self, seat: int) -> None:
        """The bot's move in words, with the points it scored, and the position once a
        person is to move."""
        state = self.state
        action = self.bots[seat].choose(state)
        words = state.game.presenter().describe_action(state, action).translate(_)
        played = _("seat {seat} plays {move}: {words}")
        line = played.format(seat=seat, move=state.action_to_string(action), words=words)
        before = state.scores()[seat]
        state.apply_action(action)
        after = state.scores()[seat]
        if after != before:
            change = _("{change:+d} points, now {score}").format(change=after - before, score=after)
            line += f" ({change})"
        self.say(line)
        if state.current_player() in self.humans or state.is_terminal():
            self.show()

    def command(self, name: str, arg: str, seat: int) -> None:
        """Carry out a prompt command other than 'quit'."""
        state = self.state
        if name == "help":
            self.say(help_text() + state.game.notation_help())
        elif name == "moves":
            self.say(wrap(grouped([state.action_to_string(a) for a in state.legal_actions()])))
        elif name == "board":
            self.show(everything=True)
        elif name == "hint":
            from azul.bots import hints

            best = hints(state, self.seed + len(state.history()))
            self.say(_("hint: {moves}").format(moves=" · ".join(map(hint_text, best))))
        elif name == "undo":
            self.undo(seat)
        elif name == "rules":
            self.say(rules_text(state.game.name))
        elif name == "save":
            save_record(state, self.seed, arg, self.say)

    def undo(self, seat: int) -> None:
        if not any(mover == seat for mover, _position in self.before):
            self.say(_("nothing to undo: you have not moved yet"))
        elif self.before[-1][0] != seat:
            self.say(_("cannot undo: another person has moved since your last move"))
        elif self.before[-1][1].draws() != self.state.draws():
            self.say(_("cannot undo: pieces were drawn since your last move"))
        else:
            self.state = self.before.pop()[1]
            self.say(_("took back your last move"))
            self.show()

    def move(self, line: str, seat: int) -> None:
        """Play the move typed in ``line``, or say why it is not legal (nothing changes)."""
        copy = self.state.clone()
        try:
            self.state.apply_string(line)
        except AzulError as e:
            words = command_words()
            hint = _("type '{moves}' for the legal moves, '{help}' for the notation")
            hint = hint.format(moves=words["moves"], help=words["help"])
            self.say(_("not legal: {reason}").format(reason=e.translate(_)) + f"  ({hint})")
            return
        self.before.append((seat, copy))
        self.show(seat=seat)

    def run(self, ask: Callable[[str], str]) -> None:
        """Play until the game ends or the person leaves."""
        self.show(everything=True)
        while not self.state.is_terminal():
            seat = self.state.current_player()
            if seat not in self.humans:
                self.bot_turn(seat)
                continue
            try:
                prompt = _("seat {seat}, your move ({decision})> ")
                line = ask(prompt.format(seat=seat, decision=_(self.state.decision()))).strip()
            except (EOFError, KeyboardInterrupt):
                self.say("\n" + _("leaving the game"))
                return
            if not line:
                continue
            name, arg = parse_command(line)
            if name == "quit":
                return
            if name is None:
                self.move(line, seat)
            else:
                self.command(name, arg, seat)


def play(
    state: azul.State,
    humans: set[int],
    bots: dict[int, Any],
    seed: int,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    save: str | None = None,
    color: bool = False,
) -> azul.State:
    """Play to the end: humans type moves, bots choose theirs. Moves are applied to ``state``;
    after an undo the game goes on in a copy. Returns the final state."""
    table = TerminalGame(state, humans, bots, seed, say, color)
    table.run(ask)
    if table.state.is_terminal():
        say(outcome(table.state))
    if save:
        save_record(table.state, seed, save, say)
    return table.state
