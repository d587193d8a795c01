"""A whole training run, tiny: its files, and resumption after a kill at any point."""

import json

import numpy as np
import pytest

from azul.learn import command, dataset
from azul.learn.config import Config
from azul.learn.run import Run

TINY = dict(generations=2, games=3, iterations=4, explore=2, epochs=2, batch=64, gate_deals=1)


def tiny(**changes):
    return Config("sintra", **{**TINY, **changes})


def test_a_tiny_run_end_to_end(tmp_path):
    curve = Run(tmp_path, tiny(), progress=False).go()
    for g in (0, 1):
        assert dataset.finished(tmp_path, g, 3) == [0, 1, 2]
    assert not (tmp_path / "gen-002" / "games").exists()  # the last network plays no games
    with np.load(tmp_path / "gen-002" / "weights.npz", allow_pickle=False) as f:
        meta = json.loads(str(f["meta"]))
        assert f["w0"].shape == (1206, 64) and f["w2"].shape == (64, 1)
        assert {f[k].dtype for k in f.files if k != "meta"} == {np.dtype(np.float16)}
    assert meta["generation"] == 2 and meta["observation_size"] == 1206
    assert meta["command"].startswith("python -m azul.learn sintra --players 2 --hidden 64,64")
    assert meta["trained"]["generations"] == [0, 1]
    assert meta["residual"] is True and "--residual" in meta["command"].split()
    # the error of a correction of zero: the centred targets' own size, never zero
    assert meta["trained"]["hand_rmse"] > 0 and curve[1]["hand_rmse"] > 0
    assert {"game", "players", "options", "commit"} <= set(meta)
    gate = json.loads((tmp_path / "gen-002" / "gate.json").read_text())
    assert gate["hand"]["games"] == 2  # one deal from each seat
    assert set(gate) >= {"hand", "accepted"}
    assert [row["generation"] for row in curve] == [0, 1, 2]
    assert curve[0]["positions"] > 100 and "rmse" in curve[1]
    assert json.loads((tmp_path / "curve.json").read_text()) == curve
    assert (tmp_path / "curve.png").stat().st_size > 1000
    assert json.loads((tmp_path / "progress.json").read_text())["phase"] == "done"


def contents(folder):
    """Everything a run wrote that does not depend on the machine's speed."""
    out = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.suffix == ".npz" and "fit-state" not in name and ".tmp" not in name:
            with np.load(path, allow_pickle=False) as f:
                out[name] = {k: f[k].tolist() for k in f.files if k != "seconds"}
        elif path.suffix == ".jsonl":
            lines = [json.loads(line) for line in path.read_text().splitlines()]
            for line in lines:
                line.pop("seconds_per_move")
            out[name] = sorted(lines, key=lambda line: line["index"])
    return out


class Killed(Exception):
    pass


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """What an uninterrupted tiny run writes."""
    folder = tmp_path_factory.mktemp("whole")
    Run(folder, tiny(), progress=False).go()
    return contents(folder)


# killed in: a game of generation 0, the first fit, the first gate, generation 1's games, the
# second fit
@pytest.mark.parametrize("at", [1, 4, 6, 9, 12])
def test_a_run_killed_anywhere_resumes_to_the_same_result(tmp_path, whole, at):
    cut = tmp_path / "cut"
    events = []

    def kill(what):
        events.append(what)
        if len(events) == at:
            raise Killed

    with pytest.raises(Killed):
        Run(cut, tiny(), progress=False, tick=kill).go()
    for jsonl in cut.rglob("*.jsonl"):  # a kill while writing a line leaves half of it
        with jsonl.open("a") as f:
            f.write('{"index": 1, "sco')
    (cut / "gen-000" / "games" / "00002.tmp.npz").write_bytes(b"half a file")
    Run(cut, tiny(), progress=False).go()
    assert contents(cut) == whole


def test_another_seed_gives_another_run(tmp_path):
    Run(tmp_path / "a", tiny(generations=1), progress=False).go()
    Run(tmp_path / "b", tiny(generations=1, seed=1), progress=False).go()
    a, b = contents(tmp_path / "a"), contents(tmp_path / "b")
    assert a.keys() == b.keys() and a != b


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pavilion", "--workers", "0"], "workers 0 is not a positive integer"),
        (["pavilion", "--backend", "mpi"], "unknown backend 'mpi'"),
        (["pavilion", "--games", "-2"], "games -2 is not a positive integer"),
        (["pavilion", "--hidden", "64,x"], "--hidden '64,x' is not sizes like 64,64"),
        (["pavilion", "-o", "board"], "game option 'board' is not KEY=VALUE"),
        (["chess"], "unknown game 'chess'"),
    ],
)
def test_the_command_refuses_bad_options_clearly_and_starts_nothing(
    tmp_path, capsys, argv, message
):
    assert command.main([*argv, "--dir", str(tmp_path / "run")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_the_command_resumes_a_run_and_refuses_other_settings(tmp_path, capsys):
    folder = tmp_path / "run"
    argv = ["pavilion", "--dir", str(folder), "--quiet", "--generations", "1", "--games", "2"]
    argv += ["--iterations", "3", "--epochs", "1", "--gate-deals", "1"]
    assert command.main(argv) == 0
    assert command.main(["pavilion", "--dir", str(folder), "--quiet"]) == 0  # nothing left
    assert command.main(["pavilion", "--dir", str(folder), "--games", "5"]) == 2
    assert "started with games=2 (given 5)" in capsys.readouterr().err


def test_azul_train_is_the_same_command(tmp_path, capsys):
    from azul import cli

    folder = tmp_path / "run"
    assert cli.main(["train", "sintra", "--dir", str(folder), "--workers", "0"]) == 2
    assert "workers 0 is not a positive integer" in capsys.readouterr().err
    argv = ["train", "sintra", "--dir", str(folder), "--quiet", "--generations", "1"]
    assert cli.main([*argv, "--games", "2", "--iterations", "3", "--gate-deals", "1"]) == 0
    assert json.loads((folder / "progress.json").read_text())["phase"] == "done"


def test_a_residual_run_recomputes_the_hand_values_of_games_recorded_without_them(tmp_path):
    """Games played before the hand values (and the moves) were recorded get them by replaying;
    the network learns from them exactly as from games that recorded them."""
    c = tiny(generations=1)
    folder, stripped = tmp_path / "run", tmp_path / "stripped"
    folder.mkdir()
    Run(folder, c, progress=False)._games(0, 0)
    for i in range(3):
        with np.load(dataset.game_path(folder, 0, i), allow_pickle=False) as f:
            arrays = {k: f[k] for k in f.files if k not in (dataset.HAND, "action")}
            recorded, moves = f[dataset.HAND], f["action"]
        dataset.save_game(dataset.game_path(stripped, 0, i), arrays)
    Run(stripped, c, progress=False)._fit(1)
    with np.load(dataset.game_path(stripped, 0, 2), allow_pickle=False) as f:
        assert np.array_equal(f[dataset.HAND], recorded)
        assert np.array_equal(f["action"], moves)
    Run(folder, c, progress=False)._fit(1)
    with (
        np.load(folder / "gen-001" / "weights.npz") as a,
        np.load(stripped / "gen-001" / "weights.npz") as b,
    ):
        assert all(np.array_equal(a[k], b[k]) for k in a.files if k != "meta")
        assert json.loads(str(b["meta"]))["residual"] is True
