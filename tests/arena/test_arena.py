"""Matches and tournaments: mirrored schedules, statistics, output files, backends agree."""

import csv
import json

import pytest

import azul
from azul.arena import tournament
from azul.arena.match import GameResult, play_game, schedule
from azul.arena.stats import mean_interval, summarize, table, wilson
from azul.bots import Limit
from azul.bots.spec import BotSpec
from azul.core.records import final_state, load_record


def test_bot_specs():
    spec = BotSpec.parse("mcts:iterations=50,c=0.5")
    assert spec.name == "mcts" and dict(spec.options) == {"iterations": 50, "c": 0.5}
    assert spec.label == "mcts:iterations=50,c=0.5"
    with pytest.raises(azul.OptionError, match="not KEY=VALUE"):
        BotSpec.parse("mcts:fast")


def test_every_deal_is_played_with_every_seat_assignment():
    a, b = BotSpec("greedy"), BotSpec("random")
    games = schedule([a, b], 2, 3, 10)
    assert [(s, [x.name for x in seats]) for s, seats in games] == [
        (10, ["greedy", "random"]),
        (10, ["random", "greedy"]),
        (11, ["greedy", "random"]),
        (11, ["random", "greedy"]),
        (12, ["greedy", "random"]),
        (12, ["random", "greedy"]),
    ]
    # 3 seats, 2 bots: A B A in every distinct arrangement (3 of them)
    three = schedule([a, b], 3, 1, 0)
    assert sorted(tuple(x.name for x in seats) for _, seats in three) == [
        ("greedy", "greedy", "random"),
        ("greedy", "random", "greedy"),
        ("random", "greedy", "greedy"),
    ]


def test_games_round_up_to_whole_deals():
    jobs = tournament.match_jobs(
        "pavilion", {}, [BotSpec("greedy"), BotSpec("random")], 2, 5, 0, None
    )
    assert len(jobs) == 6


def test_wilson_and_mean_intervals():
    # 8 of 10: Wilson 95% interval (0.490, 0.943), worked out from the formula
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-3) and high == pytest.approx(0.9433, abs=1e-3)
    mean, low, high = mean_interval([1, 2, 3, 4, 5])
    # sd = 1.5811, half-width 1.96 * 1.5811 / sqrt(5) = 1.386
    assert mean == 3 and low == pytest.approx(1.614, abs=1e-3)
    assert high == pytest.approx(4.386, abs=1e-3)


def result(seats, scores):
    best = max(scores)
    winners = [i for i, s in enumerate(scores) if s == best]
    return GameResult(
        "pavilion",
        {},
        0,
        seats,
        scores,
        [0.0] * len(seats),
        winners,
        think=[0.5, 0.1],
        decisions=[5, 5],
    )


def test_summary_counts_shared_wins_as_fractions():
    results = [result(["a", "b"], [10, 5]), result(["b", "a"], [7, 7]), result(["a", "b"], [3, 9])]
    stats = {s.bot: s for s in summarize(results)}
    assert stats["a"].wins == 1.5 and stats["b"].wins == 1.5
    assert stats["a"].mean_score == pytest.approx((10 + 7 + 3) / 3)
    assert stats["a"].mean_margin == pytest.approx((5 + 0 - 6) / 3)
    assert stats["a"].games == 3
    assert stats["a"].rating is not None  # openskill


def test_match_writes_results_and_replayable_records(tmp_path):
    jobs = tournament.match_jobs(
        "sintra", {}, [BotSpec("greedy"), BotSpec("random")], 2, 4, 0, None
    )
    results, stats = tournament.run(jobs, progress=False)
    files = tournament.write(tmp_path, results, stats)
    doc = json.loads((tmp_path / "results.json").read_text())
    assert {b["bot"] for b in doc["bots"]} == {"greedy", "random"}
    assert len(doc["games"]) == 4
    rows = list(csv.DictReader((tmp_path / "games.csv").open()))
    assert len(rows) == 8
    records = sorted((tmp_path / "records").iterdir())
    assert len(records) == 4 and len(files) == 2
    rec = load_record(records[0])
    assert final_state(rec).scores() == results[0].scores


def test_local_pool_gives_identical_results():
    jobs = tournament.match_jobs(
        "pavilion", {}, [BotSpec.parse("mcts:iterations=20"), BotSpec("greedy")], 2, 2, 3, None
    )
    one = [r.scores for r in tournament.run(jobs, progress=False)[0]]
    two = [r.scores for r in tournament.run(jobs, workers=2, progress=False)[0]]
    assert one == two


def test_ray_backend_gives_identical_results():
    pytest.importorskip("ray")
    jobs = tournament.match_jobs(
        "sintra", {}, [BotSpec.parse("mcts:iterations=20"), BotSpec("greedy")], 2, 2, 5, None
    )
    local = [r.scores for r in tournament.run(jobs, progress=False)[0]]
    ray = [r.scores for r in tournament.run(jobs, backend="ray", workers=2, progress=False)[0]]
    assert local == ray


def test_time_limit_reaches_the_bots():
    r = play_game(
        "pavilion",
        {"first_player": 0},
        [BotSpec.parse("mcts:iterations=100000"), BotSpec("random")],
        1,
        Limit(time=0.01),
    )
    assert r.think[0] / r.decisions[0] < 0.2


def test_cli_match(tmp_path, capsys):
    from azul import cli

    out = tmp_path / "out"
    assert (
        cli.main(
            ["match", "sintra", "greedy", "random", "--games", "2", "--quiet", "--out", str(out)]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "win rate" in text and "greedy" in text
    assert f"2 games; results in {out / '001-match-sintra'}/" in text
    assert (out / "001-match-sintra" / "results.json").exists()
    assert (
        cli.main(
            [
                "tournament",
                "pavilion",
                "greedy",
                "random",
                "heuristic",
                "--games",
                "2",
                "--quiet",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    run = out / "002-tournament-pavilion"
    assert len(json.loads((run / "results.json").read_text())["games"]) == 6
    assert cli.main(["match", "pavilion", "greedy", "--out", str(out)]) == 2
    assert cli.main(["match", "pavilion", "greedy", "nobot", "--out", str(out)]) == 2


def test_runs_never_mix_in_the_results_folder(tmp_path, capsys):
    # a match with a plot, then a tournament, with the same --out: each run in its own folder
    pytest.importorskip("matplotlib")
    from azul import cli

    out = tmp_path / "results"
    match = ["match", "sintra", "greedy", "random", "--games", "2", "--quiet", "--plot"]
    assert cli.main([*match, "--out", str(out)]) == 0
    tour = ["tournament", "sintra", "greedy", "random", "heuristic", "--games", "2", "--quiet"]
    assert cli.main([*tour, "--out", str(out)]) == 0
    first, second = sorted(out.iterdir())
    assert (first.name, second.name) == ("001-match-sintra", "002-tournament-sintra")
    assert (first / "scores.png").exists() and not (second / "scores.png").exists()
    assert len(list((first / "records").iterdir())) == 2
    assert len(list((second / "records").iterdir())) == 6
    games = json.loads((second / "results.json").read_text())["games"]
    assert {bot for g in games for bot in g["seats"]} == {"greedy", "random", "heuristic"}
    capsys.readouterr()


def test_results_are_never_written_over_an_earlier_run(tmp_path):
    jobs = tournament.match_jobs(
        "sintra", {}, [BotSpec("greedy"), BotSpec("random")], 2, 2, 0, None
    )
    results, stats = tournament.run(jobs, progress=False)
    tournament.write(tmp_path / "run", results, stats)
    with pytest.raises(azul.AzulError, match="is not empty"):
        tournament.write(tmp_path / "run", results, stats)
    (tmp_path / "007-old").mkdir()
    assert tournament.fresh_folder(tmp_path, "match-sintra").name == "008-match-sintra"


def test_results_count_the_stars_completed_from_the_score_breakdown():
    r = play_game("pavilion", {}, [BotSpec("builder"), BotSpec("greedy")], seed=3)
    assert len(r.stars) == 2 and len(r.items) == 2  # the breakdown's "star" items
    for seat in range(2):
        assert sum(r.items[seat].values()) == r.scores[seat]
        assert (r.stars[seat] > 0) == ("star" in r.items[seat])
    stats = {s.bot: s for s in summarize([r])}
    assert stats["builder"].stars_per_game == r.stars[0]
    assert "stars/game" in table(list(stats.values())) or not any(r.stars)
