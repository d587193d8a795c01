"""Golden playthroughs: write them with ``python -m tests.golden.make``; tests replay and diff.

Each game is played with explicit chance, so every draw is a line of its own and replaying does not
depend on the generator. Each line holds the state summary, the legal moves (ids and notation) and
the action taken; a rules change shows up as a reviewed diff of these files.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import azul

HERE = Path(__file__).parent
GAMES = {
    "pavilion-2p-coloured": dict(players=2, board="coloured"),
    "pavilion-3p-grey": dict(players=3, board="grey"),
    "pavilion-4p-coloured": dict(players=4, board="coloured"),
}
SEED = 2026


def summary(state: azul.State) -> dict:
    doc = state.to_json()
    return {
        "round": doc["round"],
        "decision": state.decision(),
        "scores": state.scores(),
        "to_move": state.current_player(),
    }


def line(step: int, state: azul.State, action: int | None) -> dict:
    row = {"step": step, **summary(state)}
    if state.is_chance_node():
        row["outcomes"] = [[a, round(p, 12)] for a, p in state.chance_outcomes()]
    elif not state.is_terminal():
        legal = state.legal_actions()
        row["legal"] = legal
        row["moves"] = " ".join(state.action_to_string(a) for a in legal)
    if action is not None:
        row["action"] = action
        row["move"] = state.action_to_string(action)
    return row


def play(options: dict, seed: int) -> list[dict]:
    """A seeded game: draws by their probabilities, players prefer placing to passing."""
    game = azul.load_game("pavilion", explicit_chance=True, **options)
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    rows = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, probs)[0]
        else:
            legal = state.legal_actions()
            placing = [a for a in legal if not state.action_to_string(a).startswith("pass")]
            action = rng.choice(placing if placing and rng.random() < 0.9 else legal)
        rows.append(line(len(rows), state, action))
        state.apply_action(action)
    rows.append(line(len(rows), state, None))
    return rows


def main() -> None:
    for name, options in GAMES.items():
        rows = play(options, SEED)
        header = {"game": "pavilion", "options": {**options, "explicit_chance": True}}
        text = "\n".join(json.dumps(r) for r in [header, *rows]) + "\n"
        (HERE / f"{name}.jsonl").write_text(text)
        print(f"{name}: {len(rows)} lines, final scores {rows[-1]['scores']}", file=sys.stderr)


if __name__ == "__main__":
    main()
