"""The MCTS bot with a learned evaluation at its leaves: the eval, weights and rank options, the
shipped networks found through the game's strategy, and the Python and compiled searches making
the same decisions with a network."""

import logging
import random

import pytest

import azul
from azul import native
from azul.bots import evaluation
from azul.bots.mcts import MCTSBot
from azul.bots.spec import BotSpec
from azul.core.errors import OptionError
from azul.learn import net
from azul.learn.net import WeightsError
from azul.pavilion.strategy import PavilionStrategy

compiled = pytest.mark.skipif(
    native.pure() or native.module("pavilion") is None, reason="no compiled core"
)


def saved(tmp_path, game, hidden=(32, 16), seed=0, name="net.npz", residual=False):
    made = net.random_net(game, hidden, seed, residual=residual)
    w, b = made.layers[-1]  # values of tens of points, spread as a trained network's
    if residual:  # corrections of a few points to the hand evaluation
        w, b = w * 3, b - b
    else:
        w, b = w * 30, b + 50
    path = tmp_path / name
    net.save(path, (*made.layers[:-1], (w, b)), made.scale, made.meta)
    return path


def midgame(game, seed, moves):
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@compiled
@pytest.mark.parametrize(
    ("name", "options", "rank", "residual"),
    [
        ("pavilion", {}, "hand", False),
        ("sintra", {}, "leaf", False),
        ("pavilion", {"players": 3}, "leaf", False),
        ("sintra", {"players": 4}, "hand", False),
        ("pavilion", {}, "leaf", True),
        ("sintra", {"players": 3}, "hand", True),
    ],
)
def test_the_compiled_and_python_searches_decide_alike_with_a_network(
    tmp_path, name, options, rank, residual
):
    """Fixed seed and iterations: the same visits per move (values agree to float32 rounding:
    numpy adds up in another order than the C forward pass), a few moves of one game; a
    residual network adds its output to the hand evaluation in both."""
    game = azul.load_game(name, **options)
    path = saved(tmp_path, game, residual=residual)
    kwargs = {"seed": 3, "iterations": 120, "weights": str(path), "rank": rank, "endgame": False}
    fast, slow = MCTSBot(**kwargs), MCTSBot(**kwargs, native=False)
    hand = MCTSBot(seed=3, iterations=120, eval="hand", rank=rank, endgame=False)
    state = midgame(game, 5, 9)
    differs = 0
    for _ in range(3):
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        got = fast.analyse(state)
        want = slow.analyse(state)
        assert [(c.action, c.visits) for c in got] == [(c.action, c.visits) for c in want]
        assert [c.value for c in got] == pytest.approx([c.value for c in want], abs=1e-5)
        differs += [c.visits for c in hand.analyse(state)] != [c.visits for c in got]
        state.apply_action(got[0].action)
    assert differs  # the network, not the hand evaluation, valued the leaves
    assert type(fast._tree[1]).__name__ == "Tree" and type(slow._tree[1]).__name__ == "Node"


def test_the_options_are_checked_when_the_bot_is_made(tmp_path):
    with pytest.raises(OptionError, match="eval 'deep' is not one of auto, learned, hand"):
        MCTSBot(eval="deep")
    with pytest.raises(OptionError, match="mcts rank 'best' is not one of hand, leaf"):
        MCTSBot(rank="best")
    path = saved(tmp_path, azul.load_game("sintra"))
    with pytest.raises(OptionError, match="mcts eval=hand takes no weights"):
        MCTSBot(eval="hand", weights=str(path))
    (tmp_path / "bad.npz").write_text("no")
    with pytest.raises(WeightsError, match="bad.npz: not a weights file"):
        MCTSBot(weights=str(tmp_path / "bad.npz"))
    with pytest.raises(OptionError, match="weights 3 is not a file name"):
        MCTSBot(weights=3)
    bot = BotSpec.parse(f"mcts:iterations=5,weights={path}").make(1)  # as the command line
    assert bot.leaf_network(azul.load_game("sintra")).meta["game"] == "sintra"
    given = net.load(path)  # or a network in memory, as the training hands it over
    assert MCTSBot(iterations=5, weights=given).leaf_network(azul.load_game("sintra")) is given


def test_a_network_for_other_games_is_refused_at_the_search(tmp_path):
    bot = MCTSBot(iterations=5, weights=str(saved(tmp_path, azul.load_game("sintra"))))
    with pytest.raises(WeightsError, match="for 'sintra', not 'pavilion'"):
        bot.choose(azul.load_game("pavilion").new_initial_state(1))
    with pytest.raises(WeightsError, match="for 2 players, not 3"):
        bot.choose(azul.load_game("sintra", players=3).new_initial_state(1))


def test_auto_takes_the_network_the_game_ships_and_falls_back_to_the_hand_evaluation(
    tmp_path, monkeypatch, caplog
):
    four = azul.load_game("pavilion", players=4)
    assert four.strategy().value_weights(4) is None  # none ships: by hand
    assert MCTSBot(iterations=5).leaf_network(four) is None
    with pytest.raises(azul.AzulError, match="no trained value network ships for pavilion with 4"):
        MCTSBot(iterations=5, eval="learned").leaf_network(four)
    three = MCTSBot(iterations=5).leaf_network(azul.load_game("pavilion", players=3))
    assert three is not None and three.meta["players"] == 3 and three.residual
    game = azul.load_game("pavilion")
    shipped = MCTSBot(iterations=5).leaf_network(game)  # 2 players: one ships
    assert shipped is not None and shipped.residual and shipped.meta["commit"] != ""
    folder = tmp_path / "values"
    folder.mkdir()
    saved(folder, game, name="2p.npz")
    monkeypatch.setattr(PavilionStrategy, "value_weights", lambda self, n: folder / f"{n}p.npz")
    found = MCTSBot(iterations=5).leaf_network(game)
    assert found is not None and found.hidden == (32, 16)
    assert MCTSBot(iterations=5, eval="learned").leaf_network(game) is found  # read once
    assert MCTSBot(iterations=5, eval="hand").leaf_network(game) is None
    # without numpy: auto says so and plays by hand; learned refuses
    monkeypatch.setattr(evaluation, "_has_numpy", lambda: False)
    monkeypatch.setattr(evaluation, "_NOTED", set())
    with caplog.at_level(logging.WARNING, "azul.bots.evaluation"):
        assert MCTSBot(iterations=5).leaf_network(game) is None
    assert "numpy is not installed: pavilion's search uses the hand evaluation" in caplog.text
    with pytest.raises(azul.AzulError, match="eval=learned in pavilion needs numpy"):
        MCTSBot(iterations=5, eval="learned").leaf_network(game)


def test_the_shipped_networks_are_looked_for_in_the_games_packages(tmp_path):
    from azul.core.api import Strategy, shipped_weights

    (tmp_path / "3p.npz").write_bytes(b"")
    assert shipped_weights(tmp_path, 3) == tmp_path / "3p.npz"
    assert shipped_weights(tmp_path, 2) is None
    assert Strategy().value_weights(2) is None
    for name in ("pavilion", "sintra"):
        strategy = azul.load_game(name).strategy()
        for players in (2, 3, 4):
            found = strategy.value_weights(players)
            assert found is None or (found.name == f"{players}p.npz" and found.is_file())


def test_helpers_search_with_the_same_evaluation(tmp_path, monkeypatch):
    from azul.bots import mcts

    made = []

    class Helpers:  # records the helpers' options, starts no process
        def __init__(self, cls, options):
            made.append(options)

        def close(self):
            pass

    monkeypatch.setattr(mcts, "Helpers", Helpers)
    path = str(saved(tmp_path, azul.load_game("sintra")))
    MCTSBot(iterations=10, workers=3, weights=path, rank="leaf")._helpers()
    assert [(o["eval"], o["weights"], o["rank"]) for o in made[0]] == [("auto", path, "leaf")] * 2


def test_no_client_of_the_server_can_name_a_weights_file():
    from azul.server.settings import LEVELS, Settings

    for level in LEVELS:
        spec = BotSpec.parse(Settings().level(level))
        assert not {"weights", "eval", "rank"} & dict(spec.options).keys()
    with pytest.raises(azul.AzulError, match="unknown bot level"):
        Settings().level("mcts:weights=/etc/passwd")
