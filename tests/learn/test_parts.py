"""The parts of self-play training: the recorded games, the fit and its checkpoints, the
settings and their errors."""

import json
import re

import numpy as np
import pytest

import azul
from azul.core.errors import AzulError, OptionError
from azul.interop.observation import observation
from azul.learn import config, dataset, fit, selfplay
from azul.learn.config import Config


@pytest.mark.parametrize("name", ["pavilion", "sintra"])
def test_a_self_play_game_records_every_decision_from_every_seat(name):
    job = selfplay.Job(name, (("players", 2),), seed=3, iterations=4, explore=5)
    game = selfplay.play(job)
    state = azul.load_game(name).new_initial_state(3)
    for i, action in enumerate(game["action"]):  # replay the moves on the Python engine
        while state.is_chance_node():
            raise AssertionError("the game draws by itself without explicit chance")
        assert state.current_player() == game["mover"][i]
        for seat in (0, 1):
            assert np.array_equal(game["obs"][i, seat], observation(state, seat))
        state.apply_action(int(action))
    assert state.is_terminal()
    assert list(game["scores"]) == state.scores()


def test_exploration_draws_moves_by_visits_and_then_plays_the_most_visited():
    from azul.bots.base import Candidate

    cands = [Candidate(1, "a", 0.0, 90), Candidate(2, "b", 0.0, 10), Candidate(3, "c", 0.0, 0)]
    import random

    rng = random.Random(0)
    drawn = [selfplay.pick(cands, rng, True) for _ in range(400)]
    assert 3 not in drawn and 20 < drawn.count(2) < 70
    assert {selfplay.pick(cands, rng, False) for _ in range(20)} == {1}


def numeric_gradient(layers, x, y, i, k, index, eps=1e-3):
    def loss():
        return fit.gradients(layers, x, y)[0]

    array = layers[i][k]
    old = array[index]
    array[index] = old + eps
    up = loss()
    array[index] = old - eps
    down = loss()
    array[index] = old
    return (up - down) / (2 * eps)


def test_the_gradients_are_those_of_the_squared_error():
    rng = np.random.default_rng(1)
    layers = [(w.astype(np.float64), b.astype(np.float64) + 0.1) for w, b in
              fit.initial(5, (7, 4), rng)]  # fmt: skip
    x, y = rng.standard_normal((9, 5)), rng.standard_normal(9)
    _, grads = fit.gradients(layers, x, y)
    for i, k, index in [(0, 0, (2, 3)), (0, 1, (5,)), (1, 0, (6, 1)), (2, 0, (3, 0)), (2, 1, (0,))]:
        assert grads[i][k][index] == pytest.approx(numeric_gradient(layers, x, y, i, k, index),
                                                   rel=1e-4, abs=1e-7)  # fmt: skip


def synthetic(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 4, (n, 12)).astype(np.float16)
    y = (40 + 5 * x[:, 0] - 3 * x[:, 1] * x[:, 2] + 2 * np.maximum(x[:, 3] - 1, 0)).astype(
        np.float32
    )
    return dataset.Samples(x, y)


SETTINGS = {"hidden": (16, 16), "seed": 4, "lr": 3e-3, "decay": 0.0, "batch": 32, "epochs": 6}


def test_the_fit_learns_a_score_far_better_than_its_mean(tmp_path):
    train, test = synthetic(3000, 0), synthetic(500, 1)
    layers, scale, curve = fit.fit(train, test, SETTINGS, tmp_path / "state.npz")
    assert scale[0] == pytest.approx(1 / np.sqrt(1.25), rel=0.05)  # uniform on 0..3
    assert 1 / scale[0] == pytest.approx(float(train.x[:, 0].astype(np.float32).std()), rel=1e-4)
    spread = float(test.y.std())
    assert min(r["rmse"] for r in curve) < 0.35 * spread  # the mean itself is 1 spread off
    assert fit.rmse(layers, scale, test) == pytest.approx(min(r["rmse"] for r in curve), rel=1e-5)


def test_a_fit_killed_after_an_epoch_ends_as_an_uninterrupted_one(tmp_path):
    train, test = synthetic(600, 2), synthetic(100, 3)
    whole = fit.fit(train, test, SETTINGS, tmp_path / "whole.npz")

    def kill(what):
        if kill.left == 0:
            raise KeyboardInterrupt
        kill.left -= 1

    kill.left = 2
    with pytest.raises(KeyboardInterrupt):
        fit.fit(train, test, SETTINGS, tmp_path / "cut.npz", kill)
    assert len(json.loads(str(np.load(tmp_path / "cut.npz")["facts"]))["curve"]) == 3
    resumed = fit.fit(train, test, SETTINGS, tmp_path / "cut.npz")
    assert resumed[2] == whole[2]
    for (w1, b1), (w2, b2) in zip(resumed[0], whole[0], strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"game": "chess"}, "chess"),
        ({"game": "pavilion", "players": 7}, "players"),
        ({"game": "pavilion", "options": {"board": "purple"}}, "purple"),
        ({"game": "pavilion", "games": 0}, "games 0 is not a positive integer"),
        ({"game": "pavilion", "iterations": 2.5}, "iterations 2.5 is not a positive integer"),
        ({"game": "pavilion", "explore": -1}, "explore -1 is not an integer ≥ 0"),
        ({"game": "pavilion", "hidden": [64, 0]}, "hidden [64, 0]"),
        ({"game": "pavilion", "hidden": []}, "hidden []"),
        ({"game": "pavilion", "lr": -0.1}, "lr -0.1"),
        ({"game": "pavilion", "holdout": 0.9}, "holdout 0.9"),
        ({"game": "pavilion", "accept": 2}, "accept 2"),
        ({"game": "pavilion", "residual": "yes"}, "residual 'yes' is not true or false"),
        ({"game": "pavilion", "hand_iterations": 0}, "hand_iterations 0 is not a positive"),
        ({"game": "pavilion", "gamez": 3}, "unknown run settings: gamez"),
    ],
)
def test_bad_settings_are_refused_by_name_and_leave_no_run(tmp_path, settings, message):
    with pytest.raises(AzulError, match=re.escape(message)):
        config.merge(tmp_path / "run", settings)
    assert not (tmp_path / "run").exists()


def test_a_run_resumes_only_with_its_own_settings(tmp_path):
    stored = config.merge(tmp_path, {"game": "sintra", "games": 7})
    assert config.merge(tmp_path, {"game": "sintra"}) == stored
    assert config.merge(tmp_path, {"game": "sintra", "games": 7}) == stored
    before = (tmp_path / config.CONFIG).read_text()
    with pytest.raises(OptionError, match=r"started with games=7 \(given 8\)"):
        config.merge(tmp_path, {"game": "sintra", "games": 8})
    assert (tmp_path / config.CONFIG).read_text() == before
    assert Config.from_json(json.loads(before)) == stored


def test_a_run_stored_before_residual_networks_resumes_as_it_was(tmp_path):
    assert config.merge(tmp_path / "new", {"game": "sintra"}).residual  # the default
    doc = Config("sintra").to_json()
    del doc["residual"]
    (tmp_path / config.CONFIG).write_text(json.dumps(doc))
    assert not config.merge(tmp_path, {"game": "sintra"}).residual
    with pytest.raises(OptionError, match=r"started with residual=False \(given True\)"):
        config.merge(tmp_path, {"game": "sintra", "residual": True})


@pytest.mark.parametrize("name", ["pavilion", "sintra"])
def test_the_hand_values_are_recorded_and_recomputed_by_replaying_the_moves(tmp_path, name):
    from azul import native

    job = selfplay.Job(name, (("players", 2),), seed=5, iterations=4, explore=5)
    game = selfplay.play(job)
    state = azul.load_game(name).new_initial_state(5)
    for i, action in enumerate(game["action"]):  # the core's hand evaluation of each seat
        core = native.core(name).from_state(state)
        assert game["hand"][i].tolist() == [core.evaluate(0), core.evaluate(1)]
        state.apply_action(int(action))
    assert len(set(game["hand"][:, 0].tolist())) > 3  # the values change along the game
    assert np.array_equal(selfplay.replay_hand(job, game), game["hand"])
    unmoved = {k: v for k, v in game.items() if k not in ("action", "hand")}  # as old games
    assert np.array_equal(selfplay.moves(job, unmoved), game["action"])
    assert np.array_equal(selfplay.replay_hand(job, unmoved), game["hand"])
    other = selfplay.Job(name, (("players", 2),), seed=6, iterations=4, explore=5)
    with pytest.raises(AzulError, match="does not replay from deal 6: move 0"):
        selfplay.replay_hand(other, game)
    with pytest.raises(AzulError, match="does not replay from deal 6: move 0"):
        selfplay.replay_hand(other, unmoved)
    # the residual targets: final score less the hand value, position by position, seat by
    # seat, less its mean over the position's seats
    path = tmp_path / "g.npz"
    dataset.save_game(path, game)
    plain, residual = dataset.samples([path]), dataset.samples([path], residual=True)
    assert np.array_equal(plain.x, residual.x)
    gap = game["scores"][None, :] - game["hand"]
    want = (gap - gap.mean(axis=1, keepdims=True)).reshape(-1)
    assert residual.y == pytest.approx(want, abs=1e-4)
    assert residual.y[0::2] == pytest.approx(-residual.y[1::2], abs=1e-4)  # 2 seats: opposite
    assert np.ptp(residual.y) > 1
    assert plain.y.tolist() == np.tile(game["scores"], len(game["obs"])).tolist()
    del game["hand"]
    dataset.save_game(path, game)
    with pytest.raises(AzulError, match="g.npz has no hand values to train a residual network"):
        dataset.samples([path], residual=True)


def test_a_gate_can_give_the_hand_evaluation_more_iterations_than_the_network():
    from azul.learn import command, gate

    options = {"players": 2}
    equal = gate.jobs("sintra", options, "net.npz", None, 1, 5, 100)
    more = gate.jobs("sintra", options, "net.npz", None, 1, 5, 100, hand_iterations=250)
    for job in equal:
        assert [dict(s.options)["iterations"] for s in gate.seat_specs(job)] == [100, 100]
    for job in more:
        by_seat = {seat: dict(s.options) for seat, s in enumerate(gate.seat_specs(job))}
        for seat, o in by_seat.items():
            mine = seat in job.candidate
            assert o["iterations"] == (100 if mine else 250)
            assert o["eval"] == ("learned" if mine else "hand")
    # the setting is kept with the run and named in the command that reproduces it
    assert "--hand-iterations" not in command.reproduce(Config("sintra"))
    words = command.reproduce(Config("sintra", hand_iterations=250)).split()
    assert words[words.index("--hand-iterations") + 1] == "250"
