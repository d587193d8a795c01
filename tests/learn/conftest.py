import inspect

import pytest

from azul.bots.mcts import MCTSBot
from azul.learn import gate, selfplay


@pytest.fixture(autouse=True)
def hand_evaluation_until_the_network_is_searched(monkeypatch):
    if "values" in inspect.signature(MCTSBot).parameters:
        return
    monkeypatch.setattr(selfplay, "searcher", lambda seed, it, w: MCTSBot(seed=seed, iterations=it))
    monkeypatch.setattr(gate, "spec", lambda w, it: gate.BotSpec("mcts", (("iterations", it),)))
