"""The game review: a bad move's cost worked out by hand, round 6 on the endgame solver's values,
the same review under the same seed, the graph and the `azul analyse` command."""

import json
import xml.etree.ElementTree as ET

import pytest

import azul
from azul import cli
from azul.bots import make
from azul.core.errors import AzulError
from azul.core.records import record_of, replay
from azul.review import label, review_moves, review_record, review_svg

ITERATIONS = 60  # a light search: these tests are about the bookkeeping, not the strength


def _round6_with_three_blue() -> azul.State:
    """Round 6, play phase, coloured side, red wild (rules 3.2): seat 0 holds 3 blue tiles, its
    board is empty and it has 20 points; seat 1 has passed. The 132 tiles are all counted."""
    doc = {
        "format": "azul-position",
        "version": 1,
        "game": "pavilion",
        "options": {"players": 2},
        "round": 6,
        "decision": "place",
        "to_move": 0,
        "start_player": 0,
        "token": 0,
        "bonus_owed": 0,
        "factories": [{}, {}, {}, {}, {}],
        "centre": {},
        "supply": {"purple": 2, "green": 2, "orange": 2, "yellow": 2, "blue": 1, "red": 1},
        "bag": {},
        "tower": {"purple": 20, "green": 20, "orange": 20, "yellow": 20, "blue": 18, "red": 21},
        "players": [
            {"score": 20, "hand": {"blue": 3}, "kept": {}, "passed": False, "board": {}},
            {"score": 20, "hand": {}, "kept": {}, "passed": True, "board": {}},
        ],
        "pending_draws": [],
        "history": [],
    }
    return azul.load_state(doc, seed=0)


def _action(state: azul.State, move: str) -> int:
    (a,) = [a for a in state.legal_actions() if state.action_to_string(a) == move]
    return a


def test_passing_with_three_tiles_that_fit_is_a_mistake_of_six_points():
    # Best play (rules 5.2, 5.5): blue on space 1 of the blue star (cost 1) scores 1, then
    # blue on space 2 beside it (cost 2) scores the run of 2: 3 points, no tile left. Passing
    # keeps the 3 tiles (5.8, 4 or fewer), and after round 6 each costs 1 (5.9, 7.3): -3.
    # The pass gives up 3 - (-3) = 6 points: 5 or more and under 10 is a mistake.
    state = _round6_with_three_blue()
    review = review_moves([(state, _action(state, "pass"))], iterations=ITERATIONS)
    (d,) = review.decisions
    assert d.exact and not d.forced
    assert d.loss == 6.0
    assert d.label == "mistake"
    assert d.best_move in ("B@B1", "B@B2")  # either order of the two placements
    assert review.summary[0].mistakes == 1 and review.summary[0].average_loss == 6.0

    best = review_moves([(state, _action(state, "B@B1"))], iterations=ITERATIONS)
    assert best.decisions[0].loss == 0.0 and best.decisions[0].label is None
    # blue on space 3 of the blue star spends all 3 tiles for 1 point: 2 behind
    weak = review_moves([(state, _action(state, "B@B3"))], iterations=ITERATIONS)
    assert weak.decisions[0].loss == 2.0 and weak.decisions[0].label == "inaccuracy"


def _bots_game(name: str, seed: int, players: int = 2) -> azul.State:
    game = azul.load_game(name, players=players)
    state = game.new_initial_state(seed)
    bots = [make("heuristic", seed=1)] + [make("random", seed=2 + i) for i in range(players - 1)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].choose(state))
    return state


def test_round_six_is_reviewed_on_the_endgame_solvers_values():
    final = _bots_game("pavilion", 7)
    rec = record_of(final, 7)
    review = review_record(rec, seed=3, iterations=ITERATIONS)
    by_ply = {d.ply: d for d in review.decisions}
    solved = 0
    for ply, (state, action) in enumerate(replay(rec), 1):
        if action is None:
            break
        exact = state.game.strategy().endgame_values(state.clone())
        d = by_ply[ply]
        if exact is None or d.forced:
            assert not d.exact
            continue
        solved += 1
        top = max(exact.values())
        assert d.exact
        assert exact[d.best] == top
        assert d.loss == pytest.approx(round(top - exact[action], 1))
    assert solved >= 5  # the game's last round was solved, decision by decision


def test_a_review_is_the_same_under_the_same_seed_and_covers_every_decision():
    final = _bots_game("sintra", 4)
    rec = record_of(final, 4)
    one = review_record(rec, seed=9, iterations=ITERATIONS).to_json()
    two = review_record(rec, seed=9, iterations=ITERATIONS).to_json()
    assert one == two
    assert len(one["decisions"]) == sum(1 for p in rec.players if p >= 0)
    assert [d["action"] for d in one["decisions"]] == [
        a for a, p in zip(rec.actions, rec.players, strict=True) if p >= 0
    ]
    # the random seat gives up more per move than the one-ply bot
    heuristic, randomly = one["summary"]
    assert randomly["average_loss"] > heuristic["average_loss"]
    for d in one["decisions"]:
        assert d["loss"] >= 0 and d["label"] == label(d["loss"])
        assert (d["loss"] == 0) or d["best"] != d["action"]


def test_labels_follow_the_documented_thresholds():
    assert [label(x) for x in (0, 1.9, 2, 4.9, 5, 9.9, 10, 40)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder",
    ]  # fmt: skip


def test_bad_input_is_refused_by_name():
    state = azul.load_game("sintra").new_initial_state(1)
    illegal = max(range(state.game.info.num_distinct_actions)) + 1
    with pytest.raises(AzulError, match="ply 1: action .* is not legal"):
        review_moves([(state, illegal)], iterations=ITERATIONS)
    with pytest.raises(AzulError, match="no move to review"):
        review_moves([], iterations=ITERATIONS)
    with pytest.raises(AzulError, match="iteration or a time limit"):
        review_moves([(state, state.legal_actions()[0])], iterations=None)
    with pytest.raises(AzulError, match="not a positive integer"):
        review_moves([(state, state.legal_actions()[0])], iterations=0)


def test_the_graph_has_a_line_per_seat_and_a_mark_per_labelled_move():
    final = _bots_game("sintra", 5, players=3)
    review = review_record(record_of(final, 5), iterations=ITERATIONS)
    svg = ET.fromstring(review_svg(review))
    ns = "{http://www.w3.org/2000/svg}"
    lines = svg.findall(f"{ns}polyline")
    assert sorted(int(p.get("data-seat")) for p in lines) == [0, 1, 2]
    for p in lines:
        assert len(p.get("points").split()) == len(review.margins(int(p.get("data-seat"))))
    marks = svg.findall(f"{ns}circle")
    labelled = [d.ply for d in review.decisions if d.label and d.lead is not None]
    assert [int(m.get("data-ply")) for m in marks] == labelled
    legend = [t.text for t in svg.findall(f"{ns}text") if t.get("class") == "legend"]
    assert legend == ["seat 0", "seat 1", "seat 2"]
    # the words are in the language asked for; the names as given
    french = ET.fromstring(review_svg(review, lang="fr"))
    legend = [t.text for t in french.findall(f"{ns}text") if t.get("class") == "legend"]
    assert legend == ["place 0", "place 1", "place 2"]
    assert "expected" not in french.find(f"{ns}title").text
    two = review_record(record_of(_bots_game("sintra", 6), 6), iterations=ITERATIONS)
    named = ET.fromstring(review_svg(two, names=["Ana", "Bo"], lang="pt"))
    legend = [t.text for t in named.findall(f"{ns}text") if t.get("class") == "legend"]
    assert legend[0].startswith("Ana") and legend[1].startswith("Bo")
    assert "ahead" not in " ".join(legend)


def test_analyse_command(tmp_path, capsys):
    final = _bots_game("pavilion", 2)
    path = tmp_path / "g.jsonl"
    record_of(final, 2).save(path)
    svg = tmp_path / "g.svg"
    args = ["analyse", str(path), "--iterations", "30", "--json", "-", "--svg", str(svg)]
    assert cli.main(args) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "azul-review" and doc["iterations"] == 30
    assert [p["seat"] for p in doc["summary"]] == [0, 1]
    assert ET.fromstring(svg.read_text(encoding="utf-8")).tag.endswith("svg")

    assert cli.main(["analyse", str(path), "--iterations", "30", "--color", "never"]) == 0
    text = capsys.readouterr().out
    assert "points lost per move" in text and "\x1b[" not in text
    worst = max(doc["decisions"], key=lambda d: d["loss"])
    assert f"best {worst['best_move']}" in text

    assert cli.main(["analyse", str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl" in capsys.readouterr().err
    assert cli.main(["analyse", str(path), "--iterations", "0"]) == 2
    assert "--iterations" in capsys.readouterr().err
