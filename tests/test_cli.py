"""The azul command: play a whole game by typing moves, replay it, show positions, bench."""

import json
import subprocess
import sys

import pytest

import azul
from azul import cli
from azul.bots import make
from tests.pavilion.helpers import position


def test_play_a_whole_game_against_random(tmp_path):
    game = azul.load_game("pavilion")
    state = game.new_initial_state(5)
    out = []
    typed = []

    def ask(prompt):
        # a person who types 'help', a bad move, then always the first legal move
        if len(typed) == 0:
            typed.append("help")
        elif len(typed) == 1:
            typed.append("F9:Q")
        elif len(typed) == 2:
            typed.append("moves")
        else:
            typed.append(state.action_to_string(state.legal_actions()[0]))
        return typed[-1]

    bots = {1: make("random", seed=1)}
    final = cli.play(
        state, {0}, bots, seed=5, ask=ask, say=out.append, save=str(tmp_path / "g.jsonl")
    )
    text = "\n".join(out)
    assert final.is_terminal()
    assert "R@R3+1" in text  # the help
    assert "not legal: there is no factory 9" in text
    assert "final scores" in text
    rec = [json.loads(x) for x in (tmp_path / "g.jsonl").read_text().splitlines()]
    assert rec[0]["game"] == "pavilion" and rec[0]["seed"] == 5
    assert rec[-1]["scores"] == final.scores()


def test_moves_groups_the_many_passes_and_bots_moves_are_said_in_words():
    from azul.cli.terminal import grouped

    few = ["F1:R", "P@C1"] + [f"pass:{'P' * i}{'Y' * j}" for i in range(2) for j in range(4)]
    assert grouped(few) == few  # 8 passes are listed as they are typed
    many = ["F1:R", "P@C1"] + [f"pass:{'P' * i}{'Y' * j}" for i in range(4) for j in range(4)]
    assert grouped(many) == ["F1:R", "P@C1", "pass:… (16 ways, e.g. pass:PPPYYY)"]
    assert grouped(["F1:B>1"] * 20) == ["F1:B>1"] * 20  # not a word: Sintra's moves stay

    state = azul.load_game("pavilion", first_player=1).new_initial_state(3)
    out = []
    answers = iter(["quit"])
    cli.play(state, {0}, {1: make("greedy")}, seed=3, ask=lambda p: next(answers), say=out.append)
    (line,) = [x for x in out if x.startswith("seat 1 plays")]
    assert ": takes " in line  # the move in words: "F3:R: takes red ×2 from factory 3"


def test_after_the_bots_moves_the_terminal_shows_your_board_and_board_shows_all():
    state = azul.load_game("pavilion", players=3, first_player=0).new_initial_state(2)
    out = []
    typed = iter(["move", "board", "quit"])

    def ask(prompt):
        word = next(typed)
        return state.action_to_string(state.legal_actions()[0]) if word == "move" else word

    bots = {1: make("greedy"), 2: make("greedy")}
    cli.play(state, {0}, bots, seed=2, ask=ask, say=out.append)
    boards = [x for x in out if "C centre" in x]  # the outputs that draw boards
    assert [x.count("C centre") for x in boards] == [3, 1, 1, 3]
    _start, moved, turn, whole = boards
    # after your move, and again when your turn comes: your board, the others by their line
    for shown in (moved, turn):
        lines = shown.splitlines()
        star = next(i for i, x in enumerate(lines) if x.strip().startswith("star"))
        assert lines[star - 1].startswith("Seat 0: score")
        assert "Seat 1: score" in shown and "Seat 2: score" in shown
    between = out[out.index(moved) + 1 : out.index(turn)]
    plays = [x.split(" plays")[0] for x in between if " plays " in x]
    assert plays == ["seat 1", "seat 2"]  # both bots' moves, in words
    assert "type 'board'" in out[out.index(turn) + 1]
    assert whole.count("C centre") == 3  # 'board': the whole position


def test_end_of_input_leaves_cleanly():
    state = azul.load_game("pavilion", first_player=0).new_initial_state(1)

    def ask(prompt):
        raise EOFError

    out = []
    cli.play(state, {0}, {1: make("random")}, seed=1, ask=ask, say=out.append)
    assert "leaving the game" in out[-1]


def test_replay_command(tmp_path, capsys):
    from azul.core.records import record_of
    from azul.testing import play_random

    final = play_random(azul.load_game("pavilion"), seed=3)
    path = tmp_path / "g.jsonl"
    record_of(final, 3).save(path)
    assert cli.main(["replay", str(path), "--all"]) == 0
    out = capsys.readouterr().out
    assert (
        "final scores: " + ", ".join(f"seat {i}: {s}" for i, s in enumerate(final.scores())) in out
    )


def test_show_command(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(position(hands=["RRR"])))
    assert cli.main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "R@R3" in out and "Seat 0: score 5" in out


def test_errors_are_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "p.json"
    doc = position()
    doc["round"] = 9
    path.write_text(json.dumps(doc))
    assert cli.main(["show", str(path)]) == 2
    assert "azul: error: round: 9 is more than 6" in capsys.readouterr().err
    assert cli.main(["play", "pavilion", "-o", "board=blue"]) == 2
    assert cli.main(["replay", str(tmp_path / "none.jsonl")]) == 2


def test_bad_arguments_exit_with_usage():
    with pytest.raises(SystemExit):
        cli.main(["play", "chess"])


def test_bench_prints_figures(capsys):
    assert cli.main(["bench", "pavilion", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "steps/s" in out and "clone()" in out


def test_console_script_plays_in_a_terminal():
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "azul.cli", "play", "pavilion", "--seed", "1"],
        input="moves\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0
    assert "Azul: Summer Pavilion" in run.stdout and "F1:" in run.stdout


def test_sintra_in_the_terminal_says_the_values_are_provisional():
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "azul", "play", "sintra", "--seed", "2"],
        input="help\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0
    assert "provisional" in run.stdout
    assert "keep:" in run.stdout  # the notation help


def test_a_whole_sintra_game_typed_at_the_prompt():
    game = azul.load_game("sintra", first_player=0)
    state = game.new_initial_state(4)

    def ask(prompt):
        return state.action_to_string(state.legal_actions()[-1])

    final = cli.play(state, {0}, {1: make("random", seed=2)}, seed=4, ask=ask, say=lambda _: None)
    assert final.is_terminal()


def test_components_flag(tmp_path, capsys):
    from azul.sintra.data import SHIPPED

    path = tmp_path / "mine.toml"
    path.write_text(SHIPPED.read_text().replace("provisional: project", "measured: my"))
    assert cli.main(["bench", "sintra", "--games", "1", "--components", str(path)]) == 0
    assert cli.main(["bench", "pavilion", "--games", "1", "--components", str(path)]) == 2
    assert "unknown option(s) components for pavilion" in capsys.readouterr().err


def test_hint_undo_and_colours_at_the_prompt():
    # seat 0 takes from a factory (the centre is still empty, so nothing is drawn), the bot
    # replies, then undo takes both back; a pass in phase 2 refills the supply: no undo then
    state = azul.load_game("pavilion", first_player=0).new_initial_state(3)
    typed = iter(["hint", "undo", state.action_to_string(state.legal_actions()[0]), "undo"])
    out = []

    def ask(prompt):
        return next(typed, "quit")

    start = json.dumps(state.to_json(), sort_keys=True)
    final = cli.play(state, {0}, {1: make("greedy")}, seed=3, ask=ask, say=out.append, color=True)
    text = "\n".join(out)
    hint = next(line for line in out if line.startswith("hint: "))[6:].split(" · ")
    legal = {final.action_to_string(a) for a in final.legal_actions()}
    moves = [h.split(" (")[0] for h in hint]
    assert 1 <= len(hint) <= 3 and set(moves) <= legal
    assert "(best; +0 now, " in hint[0]  # taking tiles earns nothing at once
    assert all("points behind the best" in h for h in hint[1:] if "(best" not in h)
    assert "nothing to undo" in text and "took back your last move" in text
    assert json.dumps(final.to_json(), sort_keys=True) == start
    assert "\x1b[" in out[0]  # coloured pieces


def test_undo_is_refused_after_a_draw():
    from tests.pavilion.helpers import load

    # round 1, phase 2: seat 1 has passed; seat 0's pass ends the round and the factories
    # are filled for round 2 from the bag, so that pass cannot be taken back
    state = load(hands=["B"], passed=[False, True])
    typed = iter(["pass", "undo"])
    out = []
    final = cli.play(state, {0, 1}, {}, seed=0, ask=lambda _: next(typed, "quit"), say=out.append)
    assert "cannot undo: pieces were drawn since your last move" in out
    assert final.to_json()["round"] == 2


def test_replay_of_an_unfinished_game_shows_the_scores_so_far(tmp_path, capsys):
    from azul.core.records import record_of

    state = azul.load_game("sintra").new_initial_state(2)
    for _ in range(12):
        state.apply_action(state.legal_actions()[0])
    path = tmp_path / "g.jsonl"
    record_of(state, 2).save(path)
    assert cli.main(["replay", str(path), "--all"]) == 0
    out = capsys.readouterr().out
    scores = ", ".join(f"seat {i}: {s}" for i, s in enumerate(state.scores()))
    assert f"the game is unfinished; scores so far: {scores}" in out
    assert "final scores" not in out


def test_the_end_of_a_game_explains_the_scores():
    # the same items as the browser's table: a row per item, a column per seat, the total
    from azul import i18n

    state = azul.load_game("sintra", first_player=0).new_initial_state(4)
    out = []
    bots = {0: make("greedy"), 1: make("random", seed=2)}
    final = cli.play(state, set(), bots, seed=4, say=out.append)
    table = out[-1].splitlines()
    assert table[0].split() == ["seat", "0", "seat", "1"]
    assert table[1].startswith("during the game") and table[-2].startswith("total")
    assert any(line.startswith("broken glass") for line in table)
    assert table[-2].split()[1:] == [str(s) for s in final.scores()]
    for seat, items in enumerate(final.score_breakdown()):
        assert sum(item["points"] for item in items) == final.scores()[seat]
    assert len({len(line) for line in table[:-2]}) == 1  # aligned columns
    i18n.use("fr")
    assert "pendant la partie" in cli.score_table(final)


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_rules_are_plain_text(monkeypatch, capsys, lang, game):
    from azul import i18n

    monkeypatch.setenv("AZUL_LANG", lang)
    assert cli.main(["rules", game]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert "**" not in text and not any(line.startswith("#") for line in lines)
    assert lines[0] in i18n.rules(game, lang) and set(lines[1]) == {"="}
    assert max(len(line) for line in lines) <= 100


@pytest.mark.parametrize(
    "lang,typed,words",
    [
        ("fr", ["aide", "coups", "regles", "quitter"], ["coups (moves)", "F1:", "en bref"]),
        ("pt", ["ajuda", "jogadas", "regras", "sair"], ["jogadas (moves)", "F1:", "em resumo"]),
        ("fr", ["help", "moves", "rules", "quit"], ["aide (help)", "F1:", "en bref"]),
    ],
)
def test_commands_in_the_users_language(lang, typed, words):
    from azul import i18n

    i18n.use(lang)
    state = azul.load_game("pavilion", first_player=0).new_initial_state(1)
    said = []
    typed = iter(typed)
    cli.play(state, {0}, {}, 1, ask=lambda _: next(typed), say=said.append)
    text = "\n".join(said)
    for word in words:
        assert word in text
    assert "illégal" not in text and "inválida" not in text


def test_undo_takes_back_only_your_own_move_before_another_person_moves():
    # two people at one terminal: seat 1 has nothing to take back; once seat 1 has moved,
    # seat 0 cannot take back its move any more (the browser's rule too)
    state = azul.load_game("pavilion", first_player=0).new_initial_state(3)
    first = state.action_to_string(state.legal_actions()[0])
    after = state.clone()
    after.apply_string(first)
    second = after.action_to_string(after.legal_actions()[0])
    typed = iter([first, "undo", second, "undo"])
    out = []
    final = cli.play(state, {0, 1}, {}, seed=3, ask=lambda _: next(typed, "quit"), say=out.append)
    assert "nothing to undo: you have not moved yet" in out  # seat 1's undo
    assert "cannot undo: another person has moved since your last move" in out  # seat 0's
    assert len(final.history()) == 2


def test_the_version_is_written_once():
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    pyproject = tomllib.loads((root / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"] and "version" in pyproject["project"]["dynamic"]
    attr = pyproject["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "azul._version.__version__"
    source = (root / "src" / "azul" / "_version.py").read_text()
    assert f'__version__ = "{azul.__version__}"' in source


def test_version_option(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"azul {azul.__version__}\n"


@pytest.mark.parametrize("lang", [["--lang", "fr"], ["--lang=fr"], ["--lan", "fr"]])
def test_argparse_speaks_the_language_and_is_left_as_it_was(lang, capsys):
    import argparse
    import gettext

    before = dict(vars(argparse))
    domain = gettext.textdomain()
    assert cli.main([*lang, "rules", "pavilion"]) == 0
    assert "tour de défausse" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main([*lang, "play", "chess"])
    error = capsys.readouterr().err
    assert error.startswith("usage : azul play [-h]")
    assert "azul play : erreur : argument game : choix invalide : 'chess'" in error
    with pytest.raises(SystemExit):
        cli.main([*lang, "--help"])
    helped = capsys.readouterr().out
    assert "arguments positionnels:" in helped and "afficher cette aide et quitter" in helped
    assert "afficher la version du programme et quitter" in helped
    # nothing of argparse or gettext was changed for the rest of the process
    assert vars(argparse).keys() == before.keys()
    assert all(vars(argparse)[name] is value for name, value in before.items())
    assert argparse._ is gettext.gettext and argparse.ngettext is gettext.ngettext
    assert gettext.textdomain() == domain


def test_argparse_errors_in_portuguese(capsys):
    for argv, expected in [
        (["play"], "azul play: erro: os seguintes argumentos são obrigatórios: game"),
        (["bench", "--games", "x"], "argumento --games: valor int inválido: 'x'"),
        (["rules", "sintra", "--nope"], "azul: erro: argumentos não reconhecidos: --nope"),
        (["play", "pavilion", "--seed"], "argumento --seed: esperado um argumento"),
    ]:
        with pytest.raises(SystemExit):
            cli.main(["--lang", "pt", *argv])
        error = capsys.readouterr().err
        assert error.startswith("uso: azul") and expected in error, error


def test_an_unknown_language_is_refused_in_the_detected_one(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--lang", "de", "rules", "pavilion"])
    assert "argument --lang: invalid choice: 'de'" in capsys.readouterr().err


def test_the_core_commands_import_no_arena_package(tmp_path):
    # tqdm and openskill (the arena extra) blocked: playing, rules, bench and the server's
    # modules work without them, and a match says which extra to install
    code = """
import sys
for name in ("tqdm", "openskill"):
    sys.modules[name] = None  # an import of them fails, as when they are not installed
from azul import cli
assert cli.main(["rules", "pavilion"]) == 0
assert cli.main(["bench", "pavilion", "--games", "2"]) == 0
assert cli.main(["play", "sintra", "--seed", "1"]) == 0
import azul.server.app
assert cli.main(["match", "pavilion", "random", "greedy", "--games", "2", "--quiet"]) == 2
from azul.arena.runner import run_jobs
from azul.core.errors import AzulError
try:
    run_jobs([], progress=True)
except AzulError as e:
    print("run_jobs:", e)
assert sys.modules["tqdm"] is None and sys.modules["openskill"] is None
"""
    run = subprocess.run(
        [sys.executable, "-c", code],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    # the tests run from a clone, whose install command is pip install -e (a wheel's is
    # checked by the packaging test)
    extra = "matches and tournaments need the arena extra: pip install -e '.[arena]'"
    assert f"azul: error: {extra}" in run.stderr
    assert f"run_jobs: {extra}" in run.stdout
