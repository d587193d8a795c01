"""Game records: save, load, replay to the identical final position; broken records refused."""

import pytest

import azul
from azul.core.records import final_state, load_record, parse_record, record_of, replay
from azul.testing import play_random


@pytest.mark.parametrize(
    "options",
    [{"players": 2}, {"players": 3, "board": "grey"}, {"players": 2, "explicit_chance": True}],
)
def test_save_and_replay_identical(tmp_path, options):
    game = azul.load_game("pavilion", **options)
    final = play_random(game, seed=8)
    path = tmp_path / "game.jsonl"
    record_of(final, seed=8).save(path)
    rec = load_record(path)
    assert rec.actions == final.history()
    assert rec.result == final.scores()
    assert final_state(rec).to_json() == final.to_json()


def test_replay_steps_through_every_action():
    final = play_random(azul.load_game("pavilion"), seed=2)
    rec = record_of(final, seed=2)
    steps = list(replay(rec))
    assert len(steps) == len(rec.actions) + 1
    assert steps[-1][1] is None


def test_a_move_that_disagrees_is_reported_with_its_ply():
    final = play_random(azul.load_game("pavilion"), seed=2)
    lines = record_of(final, seed=2).to_lines()
    lines[3] = lines[3].replace('"move": "', '"move": "X')
    with pytest.raises(azul.RecordError, match="ply 3: the record says 'X"):
        final_state(parse_record(lines))


def test_an_illegal_action_is_reported_with_its_ply():
    final = play_random(azul.load_game("pavilion"), seed=2)
    rec = record_of(final, seed=2)
    rec.actions[0] = 1600
    rec.moves[0] = ""
    with pytest.raises(azul.RecordError, match="ply 1: "):
        final_state(rec)


HEAD = '{"format": "azul-record", "version": 1, "game": "pavilion", "options": {}, "seed": 1}'


@pytest.mark.parametrize(
    "lines,message",
    [
        ([], "the record is empty"),
        (["{"], "line 1: not valid JSON"),
        (['{"format": "other"}'], "line 1: format"),
        ([HEAD.replace('"seed": 1', '"seed": "x"')], "seed 'x'"),
        (
            [HEAD, '{"ply": 1, "action": "F1:R"}'],
            "line 2: 'action'",
        ),
        ([HEAD, '{"ply": 1, "action": 3}'], "line 2: 'player' None is not a seat"),
        ([HEAD, '{"ply": 1, "player": "dealer", "action": 3}'], "line 2: 'player' 'dealer'"),
        ([HEAD, '{"ply": 1, "player": -2, "action": 3}'], "line 2: 'player' -2"),
    ],
)
def test_broken_records(lines, message):
    with pytest.raises(azul.RecordError, match=message):
        parse_record(lines)


def test_unknown_game_in_record():
    rec = parse_record(
        ['{"format": "azul-record", "version": 1, "game": "chess", "options": {}, "seed": 1}']
    )
    with pytest.raises(azul.RecordError, match="header: unknown game"):
        final_state(rec)


def test_missing_file():
    with pytest.raises(azul.RecordError, match="cannot read"):
        load_record("/nonexistent/record.jsonl")
