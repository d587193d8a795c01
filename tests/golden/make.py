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
    "pavilion-2p-coloured": ("pavilion", dict(players=2, board="coloured")),
    "pavilion-3p-grey": ("pavilion", dict(players=3, board="grey")),
    "pavilion-4p-coloured": ("pavilion", dict(players=4, board="coloured")),
    "sintra-2p-A": ("sintra", dict(players=2, side="A")),
    "sintra-3p-B": ("sintra", dict(players=3, side="B")),
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


def play(name: str, options: dict, seed: int) -> list[dict]:
    """A seeded game: draws by their probabilities; players prefer moves other than passing
    or breaking every piece, so that games reach their later rules."""
    game = azul.load_game(name, explicit_chance=True, **options)
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    rows = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, probs)[0]
        else:
            legal = state.legal_actions()
            placing = [a for a in legal if not _idle(state.action_to_string(a))]
            action = rng.choice(placing if placing and rng.random() < 0.9 else legal)
        rows.append(line(len(rows), state, action))
        state.apply_action(action)
    rows.append(line(len(rows), state, None))
    return rows


def _idle(move: str) -> bool:
    return move.startswith("pass") or move.endswith(">break") or move == "back"


def main() -> None:
    for name, (game, options) in GAMES.items():
        rows = play(game, options, SEED)
        header = {"game": game, "options": {**options, "explicit_chance": True}}
        text = "\n".join(json.dumps(r) for r in [header, *rows]) + "\n"
        (HERE / f"{name}.jsonl").write_text(text)
        print(f"{name}: {len(rows)} lines, final scores {rows[-1]['scores']}", file=sys.stderr)


if __name__ == "__main__":
    main()
