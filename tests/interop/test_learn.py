"""The learned baselines: the policy network, its training, and the shipped policies as bots."""

import json

import numpy as np
import pytest

import azul
from azul.bots import make
from azul.core.errors import AzulError
from azul.interop import learn
from azul.interop.learn import Decisions, Policy, PolicyBot


def small_policy(game="sintra", hidden=8, seed=0):
    info = azul.load_game(game).info
    x = np.random.default_rng(seed).random((20, info.observation_shape[0]), np.float32)
    return Policy.initial(game, 2, x, info.num_distinct_actions, hidden, seed)


def play_out(state, bots):
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        action = bots[state.current_player()].choose(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


@pytest.mark.parametrize("name", ["pavilion", "sintra"])
def test_shipped_policy_plays_legal_moves_to_the_end(name):
    state = azul.load_game(name).new_initial_state(5)
    end = play_out(state, [make("policy", seed=1), make("random", seed=2)])
    assert end.is_terminal() and len(end.scores()) == 2


def test_the_policy_is_deterministic_and_samples_with_a_temperature():
    state = azul.load_game("sintra").new_initial_state(2)
    assert PolicyBot(seed=1).choose(state) == PolicyBot(seed=9).choose(state)
    firsts = {PolicyBot(seed=s, temperature=5.0).choose(state) for s in range(40)}
    assert len(firsts) > 1
    with pytest.raises(AzulError, match="temperature"):
        make("policy", temperature=-1)


def test_a_policy_refuses_a_game_it_was_not_trained_for():
    three = azul.load_game("sintra", players=3).new_initial_state(1)
    with pytest.raises(AzulError, match="2-player sintra, not 3-player sintra"):
        PolicyBot().choose(three)
    pavilion = azul.load_game("pavilion").new_initial_state(1)
    with pytest.raises(AzulError, match="2-player sintra, not 2-player pavilion"):
        PolicyBot(policy=small_policy("sintra")).choose(pavilion)


def test_save_and_load_give_the_same_logits(tmp_path):
    policy = small_policy()
    policy.save(tmp_path / "p.npz")
    again = Policy.load(tmp_path / "p.npz")
    x = np.random.default_rng(3).random((4, policy.mean.shape[0]), np.float32)
    assert (again.game, again.players) == ("sintra", 2)
    np.testing.assert_allclose(policy.logits(x), again.logits(x), rtol=0.01, atol=0.01)
    again.save(tmp_path / "q.npz")  # float16 weights survive a second round trip exactly
    np.testing.assert_array_equal(again.logits(x), Policy.load(tmp_path / "q.npz").logits(x))


def test_loading_never_unpickles_and_names_a_broken_file(tmp_path):
    policy = small_policy()
    arrays = {k: getattr(policy, k) for k in ("mean", "std", "w1", "b1", "w2", "b2")}
    np.savez(tmp_path / "evil.npz", game=np.array([object()], dtype=object), players=2, **arrays)
    with pytest.raises(AzulError, match="not a policy file.*pickle"):
        Policy.load(tmp_path / "evil.npz")
    (tmp_path / "text.npz").write_text("weights", encoding="utf-8")
    with pytest.raises(AzulError, match="not a policy file"):
        Policy.load(tmp_path / "text.npz")
    np.savez(tmp_path / "bent.npz", game="sintra", players=2, **{**arrays, "w2": arrays["w1"]})
    with pytest.raises(AzulError, match="shapes"):
        Policy.load(tmp_path / "bent.npz")


def test_gradients_match_finite_differences():
    policy = small_policy(hidden=5, seed=4)
    for k in ("w1", "b1", "w2", "b2"):
        setattr(policy, k, getattr(policy, k).astype(np.float64))
    rng = np.random.default_rng(5)
    actions = policy.b2.shape[0]
    mask = rng.random((6, actions)) < 0.3
    y = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
    part = Decisions(rng.random((6, policy.mean.shape[0])) * 3, mask, y)

    def loss():
        return learn.loss_and_agreement(policy, part)[0]

    grads = learn.gradients(policy, part)
    for k, i in [("w1", (3, 2)), ("b1", (1,)), ("w2", (4, int(y[0]))), ("b2", (int(y[1]),))]:
        w = getattr(policy, k)
        w[i] += 1e-5
        up = loss()
        w[i] -= 2e-5
        down = loss()
        w[i] += 1e-5
        assert grads[k][i] == pytest.approx((up - down) / 2e-5, rel=1e-3, abs=1e-7)


def test_training_writes_a_policy_and_a_curve_that_learns(tmp_path):
    settings = "--games 6 --epochs 6 --hidden 16 --lr 0.003 --workers 1 --eval-games 2"
    learn.main(["sintra", *settings.split(), "--eval-every", "3", "--out", str(tmp_path)])
    written = json.loads((tmp_path / "sintra-curve.json").read_text(encoding="utf-8"))
    curve = written["curve"]
    assert [row["epoch"] for row in curve] == list(range(7))
    assert written["chosen_epoch"] == min(curve, key=lambda row: row["loss"])["epoch"]
    assert curve[-1]["train_loss"] < curve[0]["train_loss"] - 0.3
    assert "win_rate_vs_greedy" in curve[3] and "win_rate_vs_greedy" not in curve[2]
    policy = Policy.load(tmp_path / "sintra.npz")
    end = play_out(azul.load_game("sintra").new_initial_state(4), [PolicyBot(policy=policy)] * 2)
    assert end.is_terminal()


def test_training_refuses_bad_settings(capsys):
    with pytest.raises(SystemExit):
        learn.main(["sintra", "--games", "0"])
    assert "--games" in capsys.readouterr().err


def test_the_evaluation_protocol_runs_and_prints_its_table(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "baselines.py"
    out = tmp_path / "rows.json"
    command = [sys.executable, str(script), "sintra", "policy", "--games", "2", "--workers", "1"]
    run = subprocess.run(
        [*command, "--quiet", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    rows = json.loads(out.read_text(encoding="utf-8"))["rows"]
    search = "mcts:iterations=200,eval=hand"  # by hand, whatever networks ship
    assert [r["opponent"] for r in rows] == ["random", "greedy", "heuristic", search]
    assert all(r["games"] == 2 and 0 <= r["win_rate"] <= 1 for r in rows)
    assert run.stdout.count("\n| `") == 4
    one = subprocess.run(
        [*command, "--quiet", "--opponent", "greedy"], capture_output=True, text=True, timeout=300
    )
    assert one.returncode == 0, one.stderr
    assert one.stdout.count("\n| `") == 1 and "| `greedy` | 2 |" in one.stdout
