"""The value network (azul.learn.net): its file, its numpy forward pass, and the same forward
pass in C inside the compiled search."""

import json
import random

import numpy as np
import pytest

import azul
from azul import native
from azul.learn import net
from azul.learn.net import Net, WeightsError


def tiny():
    """Two inputs, two ReLU units, one output: values worked out by hand below."""
    layers = [
        (np.array([[1, -1], [0, 1]], np.float32), np.array([0, -1], np.float32)),
        (np.array([[2], [3]], np.float32), np.array([0.5], np.float32)),
    ]
    return layers, np.array([1, 2], np.float32)


def meta(game="pavilion", players=2, size=2, **more):
    return {
        "game": game,
        "players": players,
        "options": {},
        "observation_size": size,
        "generation": 1,
        "command": "test",
        "commit": "0" * 40,
        "trained": "2026-01-01",
        **more,
    }


def test_the_forward_pass_is_relu_layers_then_one_linear_output():
    layers, scale = tiny()
    n = Net(scale, tuple(layers), meta())
    # x = obs * scale; h = relu(x @ w0 + b0); value = h @ w1 + b1
    assert n.value(np.array([1, 1])) == pytest.approx(2.5)  # h = (1, 0)
    assert n.value(np.array([0, 1])) == pytest.approx(3.5)  # h = (0, 1)
    assert n.value(np.array([-1, 0])) == pytest.approx(0.5)  # h = (0, 0): both cut
    batch = n.value(np.array([[1, 1], [0, 1], [-1, 0]]))
    assert batch.shape == (3,) and batch.dtype == np.float32
    assert batch.tolist() == pytest.approx([2.5, 3.5, 0.5])
    assert n.hidden == (2,) and n.observation_size == 2


def test_a_saved_network_loads_back_as_float16_computed_in_float32(tmp_path):
    game = azul.load_game("sintra", players=3)
    made = net.random_net(game, (16, 8), seed=4)
    path = tmp_path / "3p.npz"
    net.save(path, made.layers, made.scale, made.meta)
    with np.load(path, allow_pickle=False) as f:
        assert sorted(f.files) == ["b0", "b1", "b2", "meta", "scale", "w0", "w1", "w2"]
        assert {f[k].dtype for k in f.files if k != "meta"} == {np.dtype(np.float16)}
        assert json.loads(str(f["meta"]))["players"] == 3
    back = net.load(path, game)
    assert back.meta == made.meta and back.hidden == (16, 8)
    assert all(w.dtype == np.float32 for w, _ in back.layers)
    for (w, b), (w2, b2) in zip(made.layers, back.layers, strict=True):
        assert np.array_equal(w.astype(np.float16).astype(np.float32), w2)
        assert np.array_equal(b.astype(np.float16).astype(np.float32), b2)
    obs = np.random.default_rng(0).integers(0, 3, (5, made.observation_size))
    assert back.value(obs) == pytest.approx(made.value(obs), rel=2e-2, abs=2e-2)
    with open(path, "rb") as f:  # a binary file (as importlib.resources opens one) reads too
        assert net.load(f).meta == made.meta


def write(path, arrays):
    np.savez(path, **arrays)
    return path


def good_arrays():
    layers, scale = tiny()
    arrays = {"scale": scale, "meta": np.array(json.dumps(meta()))}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    return arrays


def changed(**changes):
    arrays = good_arrays()
    for k, v in changes.items():
        if v is None:
            del arrays[k]
        else:
            arrays[k] = v
    return arrays


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        (changed(w1=None), "the array 'w1' is missing"),
        (changed(scale=None), "the array 'scale' is missing"),
        (changed(meta=None), "the array 'meta' is missing"),
        (changed(b0=np.zeros(3, np.float32)), "'b0' has shape (3,), not (2,)"),
        (changed(w1=np.zeros((3, 1), np.float32)), "'w1' has shape (3, 1); its rows should be 2"),
        (changed(w1=np.zeros((2, 2), np.float32), b1=np.zeros(2)), "the last layer has 2 outputs"),
        (changed(w3=np.zeros((1, 1)), b3=np.zeros(1)), "the layers are not numbered 0 to 2"),
        (changed(w0=np.full((2, 2), np.nan, np.float32)), "'w0' holds a value that is not finite"),
        (changed(w0=np.zeros((2, 2), np.int8)), "'w0' holds int8, not floats"),
        (changed(scale=np.ones(3, np.float32)), "'w0' has shape (2, 2); its rows should be 3"),
        (changed(meta=np.array("{not json")), "'meta' is not JSON"),
        (changed(meta=np.array([1, 2])), "'meta' is not a string of JSON"),
        (changed(meta=np.array(json.dumps({"game": "sintra"}))), "'meta' lacks players, options"),
        (
            changed(meta=np.array(json.dumps(meta(size=5)))),
            "meta says 5 observation entries, scale has 2",
        ),
        (changed(meta=np.array(json.dumps(meta(players="2")))), "meta players '2' is not a"),
    ],
)
def test_a_bad_file_is_refused_naming_what_is_wrong(tmp_path, arrays, message):
    path = write(tmp_path / "bad.npz", arrays)
    with pytest.raises(WeightsError) as e:
        net.load(path)
    assert message in str(e.value) and "bad.npz" in str(e.value)


def test_files_that_are_not_networks_are_refused(tmp_path):
    text = tmp_path / "notes.npz"
    text.write_text("hello")
    array = tmp_path / "one.npy"
    np.save(array, np.zeros(3))
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"PK\x03\x04" + b"\0" * 40)
    for path, message in [
        (text, "not a weights file"),
        (array, "a .npy array, not an .npz"),
        (broken, "not a weights file"),
        (tmp_path / "absent.npz", "no such weights file"),
        (tmp_path, "not a weights file"),
    ]:
        with pytest.raises(WeightsError, match=message):
            net.load(path)
    assert issubclass(WeightsError, azul.AzulError)


def test_a_network_for_another_game_is_refused():
    game = azul.load_game("pavilion", players=3)
    made = net.random_net(game, (4,))
    made.check(game)
    with pytest.raises(WeightsError, match="for 'pavilion', not 'sintra'"):
        made.check(azul.load_game("sintra", players=3))
    with pytest.raises(WeightsError, match="for 3 players, not 2"):
        made.check(azul.load_game("pavilion"))
    made.meta["players"] = 2  # a file whose meta lies about its size
    with pytest.raises(WeightsError, match="observations of 887 entries; pavilion with 2 .* 607"):
        made.check(azul.load_game("pavilion"))


def test_saving_a_wrong_network_writes_nothing(tmp_path):
    layers, scale = tiny()
    path = tmp_path / "net.npz"
    with pytest.raises(WeightsError, match="'w1' has shape"):
        net.save(path, [layers[0], (np.zeros((3, 1)), np.zeros(1))], scale, meta())
    with pytest.raises(WeightsError, match="lacks commit"):
        net.save(path, layers, scale, {k: v for k, v in meta().items() if k != "commit"})
    with pytest.raises(WeightsError, match="cannot be written as JSON"):
        net.save(path, layers, scale, meta(when=object()))
    with pytest.raises(WeightsError, match="more than 1024"):
        wide = [(np.zeros((2, 1025)), np.zeros(1025)), (np.zeros((1025, 1)), np.zeros(1))]
        net.save(path, wide, scale, meta())
    assert list(tmp_path.iterdir()) == []
    net.save(path, layers, scale, meta())  # the right one, with no ".npz" added to its name
    assert [p.name for p in tmp_path.iterdir()] == ["net.npz"]


# -- the forward pass in C ----------------------------------------------------------------------

compiled = pytest.mark.skipif(
    native.pure() or native.module("pavilion") is None, reason="no compiled core"
)
TOLERANCE = 1e-4  # relative (at least 1 point): float32 sums in another order than numpy's


def positions(game, count, seed):
    """Compiled cores in positions of random games (at least ``count`` of them)."""
    module = native.module(game.name)
    rng = random.Random(seed)
    found = []
    g = 0
    while len(found) < count:
        core = module.Core.new(game, seed + g)
        g += 1
        while not core.is_terminal():
            found.append(core.clone())
            core.apply_action(rng.choice(core.legal_actions()))
        found.append(core)  # the end too
    return found


@compiled
@pytest.mark.parametrize("name", ["pavilion", "sintra"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_compiled_forward_pass_gives_the_numpy_values(name, players):
    game = azul.load_game(name, players=players)
    module = native.module(name)
    size = game.info.observation_shape[0]
    nets = [
        net.random_net(game, (96, 48), seed=players),
        net.random_net(game, (), seed=7),  # one linear layer
        net.random_net(game, (1024, 3, 17), seed=8),
    ]
    w, b = nets[0].layers[-1]  # outputs of tens of points, as a trained network's
    nets[0] = Net(nets[0].scale, (*nets[0].layers[:-1], (w * 50, b + 60)), nets[0].meta)
    # residual: the hand evaluation plus corrections of a few points
    corrections = net.random_net(game, (32,), seed=9, residual=True)
    w, b = corrections.layers[-1]
    nets.append(Net(corrections.scale, (corrections.layers[0], (w * 3, b)), corrections.meta))
    cores = positions(game, 1200 // players, seed=players)
    obs = np.zeros((len(cores) * players, size), np.float32)
    hand = np.zeros(len(cores) * players)
    for i, core in enumerate(cores):
        for seat in range(players):
            core.observe(seat, obs[i * players + seat])
            hand[i * players + seat] = core.evaluate(seat)
    worst = 0.0
    for made in nets:
        expected = made.value(obs, hand) if made.residual else made.value(obs)
        weights = made.compiled(module)
        got = np.array([module.net_value(c, weights, s) for c in cores for s in range(players)])
        assert (np.abs(got - expected) <= TOLERANCE * np.maximum(1, np.abs(expected))).all()
        worst = max(worst, float(np.abs(got - expected).max()))
        assert len(np.unique(expected)) > len(cores) // 2  # the values tell them apart
    assert len(obs) >= 1200 and np.ptp(nets[0].value(obs)) > 5
    assert np.ptp(nets[-1].forward(obs)) > 1  # the corrections are not all one constant
    print(f"{name} {players}p: {len(obs)} values, largest difference {worst:.2g} points")


def obs1(core):
    out = np.zeros(core.to_state().game.info.observation_shape, np.float32)
    core.observe(1, out)
    return out


@compiled
def test_the_compiled_search_refuses_a_network_of_another_size():
    game = azul.load_game("pavilion")
    module = native.module("pavilion")
    other = net.random_net(azul.load_game("pavilion", players=3), (4,)).compiled(module)
    core = module.Core.new(game, 1)
    with pytest.raises(azul.AzulError, match="reads 887 observation entries; this game has 607"):
        module.net_value(core, other, 0)
    with pytest.raises(azul.AzulError, match="reads 887"):
        module.search(
            core, module.Tree(), random.Random(1), 0.7, 1.5, 15, 0, [0, 0], None, 5, other
        )
    made = net.random_net(game, (4,))
    w, b = made.layers[0]
    odd = Net(made.scale.astype(np.float64), ((w.T.copy().T, b), made.layers[1]), made.meta)
    weights = odd.compiled(module)  # float64 and a transposed view are taken too
    assert module.net_value(core, weights, 1) == pytest.approx(float(made.value(obs1(core))))
    with pytest.raises(azul.AzulError, match="seat 2 is not a seat"):
        module.net_value(core, weights, 2)
    with pytest.raises(azul.AzulError, match="layers"):
        module.Weights(np.ones(607, np.float32), [], [])


def test_a_network_pickles_without_its_compiled_arrays():
    import pickle

    game = azul.load_game("sintra")
    made = net.random_net(game, (8,), seed=2)
    module = native.module("sintra")
    if module is not None:
        made.compiled(module)
    again = pickle.loads(pickle.dumps(made))  # as options sent to helper processes
    assert again._compiled == {} and again.meta == made.meta
    obs = np.ones(made.observation_size, np.float32)
    assert again.value(obs) == made.value(obs)


@compiled
def test_the_benchmark_measures_the_search_with_a_network():
    from azul.bench import _learned, _positions

    game = azul.load_game("pavilion", players=4)  # no network ships: one of random weights
    rate, label = _learned(game, _positions(game, 0, count=1))
    assert rate > 0 and label == "network 64x64 hidden (random weights)"
    three = azul.load_game("pavilion", players=3)  # the shipped one
    rate, label = _learned(three, _positions(three, 0, count=1))
    assert rate > 0 and label == "network 64x64 hidden (generation 1)"


def score_reader(game):
    """One linear layer that reads the evaluated seat's own score from its observation."""
    from azul.interop.observation import named_views

    size = game.info.observation_shape[0]
    w = np.zeros((size, 1), np.float32)
    named_views(game, w[:, 0])["scores"][0] = 1  # the observer's block comes first
    return Net(np.ones(size, np.float32), ((w, np.zeros(1, np.float32)),), meta(size=size))


@compiled
@pytest.mark.parametrize(("name", "players"), [("pavilion", 3), ("sintra", 4)])
def test_the_search_values_each_seat_from_its_own_point_of_view(name, players):
    """A network that reads the seat's own score gives every seat its score, in numpy and in
    C: the observation is the evaluated seat's, rotated so that it comes first."""
    game = azul.load_game(name, players=players)
    module = native.module(name)
    reader = score_reader(game)
    weights = reader.compiled(module)
    obs = np.zeros(game.info.observation_shape, np.float32)
    seen = set()
    for core in positions(game, 200, seed=3):
        for seat in range(players):
            core.observe(seat, obs)
            assert module.net_value(core, weights, seat) == core.scores()[seat]
            assert reader.value(obs) == core.scores()[seat]
            seen.add(core.scores()[seat])
    assert len(seen) > 4  # the seats had different scores


def test_a_residual_network_adds_its_output_to_the_hand_values(tmp_path):
    layers, scale = tiny()
    n = Net(scale, tuple(layers), meta(residual=True))
    assert n.residual and not Net(scale, tuple(layers), meta()).residual  # absent: not
    obs = np.array([[1, 1], [0, 1]])
    assert n.value(obs, [10, -20]).tolist() == pytest.approx([12.5, -16.5])
    assert n.value(np.array([1, 1]), 10.0) == pytest.approx(12.5)
    with pytest.raises(WeightsError, match="residual network needs the hand evaluation"):
        n.value(obs)
    with pytest.raises(WeightsError, match=r"hand values of shape \(3,\) for outputs of \(2,\)"):
        n.value(obs, [1, 2, 3])
    with pytest.raises(WeightsError, match="not residual: it takes no hand values"):
        Net(scale, tuple(layers), meta()).value(obs, [1, 2])
    net.save(tmp_path / "r.npz", layers, scale, meta(residual=True))
    assert net.load(tmp_path / "r.npz").residual
    with pytest.raises(WeightsError, match="meta residual 'yes' is not true or false"):
        net.save(tmp_path / "bad.npz", layers, scale, meta(residual="yes"))
    assert not (tmp_path / "bad.npz").exists()


@compiled
def test_a_residual_network_of_zeros_values_leaves_as_the_hand_evaluation():
    game = azul.load_game("pavilion")
    module = native.module("pavilion")
    made = net.random_net(game, (8,), seed=1, residual=True)
    w, b = made.layers[-1]
    zero = Net(made.scale, (made.layers[0], (w * 0, b * 0)), made.meta).compiled(module)
    assert zero.residual and not net.random_net(game, (8,)).compiled(module).residual
    for core in positions(game, 50, seed=2):
        for seat in range(2):
            assert module.net_value(core, zero, seat) == core.evaluate(seat)
