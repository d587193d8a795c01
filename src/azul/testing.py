"""A conformance kit for any game on the API, in the manner of PettingZoo's ``api_test``.

    >>> from azul.testing import check_game
    >>> check_game(azul.load_game("pavilion", players=3), games=3)

Seeded random games check, at every step: conservation of every piece, sorted legal actions that
agree with the mask, the notation round trip for every legal action, clone independence, the JSON
round trip, that an illegal action raises and changes nothing, chance probabilities summing to 1,
and the terminal rules; and over whole games, determinism (same seed and actions, same record).
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

from azul.core.api import CHANCE, TERMINAL, Game, State
from azul.core.errors import IllegalMoveError


class ConformanceError(AssertionError):
    """A game broke one of the API's promises."""


def _fail(step: int, what: str) -> ConformanceError:
    return ConformanceError(f"step {step}: {what}")


def _dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def check_state(game: Game[Any], state: State, step: int, rng: random.Random) -> None:
    """Every per-position promise of the API, on one state."""
    info = game.info
    if state.count_pieces() != info.total_pieces:
        raise _fail(step, f"{state.count_pieces()} pieces, expected {info.total_pieces}")
    before = _dump(state)
    loaded = game.state_from_json(state.to_json())
    if _dump(loaded) != before:
        raise _fail(step, "JSON round trip changed the position")
    player = state.current_player()
    legal = state.legal_actions()
    if loaded.legal_actions() != legal:
        raise _fail(step, "the loaded position has other legal actions")
    if player == TERMINAL:
        if legal:
            raise _fail(step, "a terminal state has legal actions")
        returns = state.returns()
        if not math.isclose(sum(returns), info.utility_sum, abs_tol=1e-9):
            raise _fail(step, f"returns {returns} do not sum to {info.utility_sum}")
        if any(not info.min_utility <= r <= info.max_utility for r in returns):
            raise _fail(step, f"returns {returns} outside the utility bounds")
        breakdown = state.score_breakdown()
        if (
            breakdown is not None
            and [sum(line["points"] for line in lines) for lines in breakdown] != state.scores()
        ):
            raise _fail(step, f"the score breakdown {breakdown} does not add up to the scores")
        return
    if state.score_breakdown() is not None:
        raise _fail(step, "a live state has a final score breakdown")
    if not legal:
        raise _fail(step, "a live state has no legal action")
    if legal != sorted(set(legal)):
        raise _fail(step, "legal actions are not sorted and unique")
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        if [a for a, _ in outcomes] != legal:
            raise _fail(step, "chance outcomes differ from the legal actions")
        if not math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9):
            raise _fail(step, "chance probabilities do not sum to 1")
        if len(outcomes) > info.max_chance_outcomes:
            raise _fail(step, "more chance outcomes than max_chance_outcomes")
    else:
        if not 0 <= player < info.num_players:
            raise _fail(step, f"current player {player} is not a seat")
        mask = state.legal_actions_mask()
        if [a for a, m in enumerate(mask) if m] != legal:
            raise _fail(step, "the legal-action mask disagrees with legal_actions()")
        if legal[-1] >= info.num_distinct_actions:
            raise _fail(step, "a legal action is outside the action space")
        n = info.num_distinct_actions
        illegal = [a for a in rng.sample(range(n), min(8, n)) if a not in legal]
        for a in illegal[:3]:
            try:
                state.apply_action(a)
            except IllegalMoveError:
                pass
            else:
                raise _fail(step, f"illegal action {a} was accepted")
            if _dump(state) != before:
                raise _fail(step, f"rejected action {a} changed the position")
    for a in legal:
        text = state.action_to_string(a)
        if state.string_to_action(text) != a:
            raise _fail(step, f"notation round trip failed for {a} ({text!r})")
    child = state.clone()
    child.apply_action(rng.choice(legal))
    if _dump(state) != before:
        raise _fail(step, "applying an action to a clone changed the original")


def play_random(game: Game[Any], seed: int, check: bool = False) -> State:
    """A seeded random game to the end (checking every state if asked)."""
    rng = random.Random(seed)
    probe = random.Random(~seed)  # the checks' own draws leave the game's moves alone
    state: State = game.new_initial_state(seed)
    step = 0
    while True:
        if check:
            check_state(game, state, step, probe)
        if state.is_terminal():
            return state
        if step > game.info.max_game_length:
            raise _fail(
                step, f"the game is longer than max_game_length {game.info.max_game_length}"
            )
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        step += 1


def check_game(game: Game[Any], games: int = 2, seed: int = 0) -> None:
    """Run the whole kit on ``games`` seeded random games; raise ConformanceError on a breach."""
    for g in range(games):
        final = play_random(game, seed + g, check=True)
        again = play_random(game, seed + g)
        if final.history() != again.history() or _dump(final) != _dump(again):
            raise ConformanceError(f"game {g}: the same seed did not replay identically")
        replay = game.new_initial_state(seed + g)
        for a in final.history():
            replay.apply_action(a)
        if _dump(replay) != _dump(final):
            raise ConformanceError(f"game {g}: replaying the history gave another position")
