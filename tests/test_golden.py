"""Replay the golden playthroughs (recorded actions and draws, not the seed) and diff each line."""

import json

import pytest

import azul
from tests.golden.make import GAMES, HERE, line

pytestmark = pytest.mark.usefixtures("engine")  # both engines, the same results


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough(name):
    rows = [json.loads(t) for t in (HERE / f"{name}.jsonl").read_text().splitlines()]
    header, rows = rows[0], rows[1:]
    state = azul.load_game(header["game"], **header["options"]).new_initial_state(0)
    for expected in rows:
        action = expected.get("action")
        assert line(expected["step"], state, action) == expected, f"step {expected['step']}"
        if action is not None:
            state.apply_action(action)
    assert state.is_terminal()
