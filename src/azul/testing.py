"""A conformance kit for any game on the API, in the manner of PettingZoo's ``api_test``.

    >>> from azul.testing import check_game
    >>> check_game(azul.load_game("pavilion", players=3), games=3)

Seeded random games check, at every step: conservation of every piece, sorted legal actions that
agree with the mask, the notation round trip for every legal action, clone independence, the JSON
round trip, that an illegal action raises and changes nothing, chance probabilities summing to 1,
and the terminal rules; and over whole games, determinism (same seed and actions, same record).

For a game with a compiled core (``Game.compiled()``), ``differential`` plays its compiled states
and its Python reference engine side by side and raises ``Divergence`` at the first difference.
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


class Divergence(AssertionError):
    """A compiled core and its Python engine disagreed."""


def _same(step: int, what: str, python: Any, native: Any) -> None:
    if python != native:
        raise Divergence(f"step {step}: {what}: Python {python!r}, compiled {native!r}")


def differential(
    game: Game[Any], steps: int, seed: int = 0, reload: int = 50, native_class: Any = None
) -> tuple[int, int]:
    """Play random games on the Python engine and on the compiled core's states side by side,
    until at least ``steps`` steps were compared; returns (steps, games). At every step: the
    legal actions, the chance outcomes, the scores, the whole position (its JSON document),
    and an illegal action refused by both with the same message and no change; every
    ``reload`` steps the core goes on from the position read back from JSON. Each game ends
    with a core playout from a mid-game position, replayed in Python. Raises ``Divergence`` at
    the first difference. ``native_class`` replaces the game's ``Core`` (to test this check)."""
    from azul.core.compiled import missing

    module = game.compiled()
    Core = native_class or (module.Core if module is not None else None)
    if Core is None:
        raise Divergence(f"{game.name}: {missing(type(game))}")
    reference = game.on_python()
    rng = random.Random(seed)
    done = games = 0
    while done < steps:
        python = reference.new_initial_state(seed + games)
        native = game.compiled_state(Core.new(game, seed + games))
        games += 1
        _same(done, "initial position", _dump(python), _dump(native))
        middle = None
        while not python.is_terminal():
            legal = python.legal_actions()
            _same(done, "legal actions", legal, native.legal_actions())
            _same(done, "player", python.current_player(), native.current_player())
            _same(done, "scores", python.scores(), native.scores())
            if python.is_chance_node():
                _same(done, "chance", python.chance_outcomes(), native.chance_outcomes())
            _check_refusal(done, python, native, legal, rng)
            action = rng.choice(legal)
            python.apply_action(action)
            native.apply_action(action)
            done += 1
            _same(done, "position", _dump(python), _dump(native))
            # (a position read at the end would have no breakdown to compare)
            if done % reload == 0 and not python.is_terminal():
                loaded = reference.state_from_json(python.to_json())
                native = game.compiled_state(Core.from_state(loaded))
            if middle is None and rng.random() < 0.02:
                middle = python.clone()
        _same(done, "terminal", True, native.is_terminal())
        _same(done, "returns", python.returns(), native.returns())
        _same(done, "breakdown", python.score_breakdown(), native.score_breakdown())
        if middle is not None:
            _check_playout(done, middle, Core, rng.getrandbits(64))
    return done, games


def _check_refusal(
    step: int, python: State, native: State, legal: list[int], rng: random.Random
) -> None:
    """An action that is not legal is refused by both, with the same message, changing
    nothing."""
    size = python.game.info.num_distinct_actions
    illegal = [a for a in rng.sample(range(-2, size + 2), 6) if a not in legal]
    if not illegal:
        return
    action = illegal[0]
    before = _dump(native)
    errors = []
    for state in (python, native):
        try:
            state.apply_action(action)
        except IllegalMoveError as e:
            errors.append(str(e))
        else:
            raise Divergence(f"step {step}: illegal action {action} was accepted")
    _same(step, f"refusal of {action}", errors[0], errors[1])
    _same(step, f"position after refusing {action}", before, _dump(native))


def _check_playout(step: int, start: State, Core: Any, seed: int) -> None:
    """A whole playout in C from ``start``, replayed move by move in Python."""
    native = Core.from_state(start)
    native.playout(seed)
    python = start
    for action in native.history()[len(start.history()) :]:
        python.apply_action(action)
    _same(step, "playout", _dump(python), _dump(native.to_state()))
