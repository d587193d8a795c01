"""The panel benchmark runs end to end at a tiny size, and its figures by seat add up to the
totals (the figures themselves are benchmarks)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "panel.py"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("panel") / "panel.json"
    command = [sys.executable, str(SCRIPT), "pavilion", "greedy", "--games", "2"]
    command += ["--opponent", "random", "--opponent", "bigpile", "--also", "greedy"]
    run = subprocess.run(
        [*command, "--workers", "1", "--quiet", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout, json.loads(out.read_text(encoding="utf-8"))


def test_one_row_per_opponent_and_the_bot_itself_is_left_out(report):
    stdout, doc = report
    assert [r["opponent"] for r in doc["opponents"]] == ["random", "bigpile"]
    assert doc["skipped"] == ["greedy"]
    assert doc["bot"] == "greedy" and doc["players"] == 2
    assert "benchmarks/panel.py pavilion greedy" in doc["command"]
    assert stdout.count("\n| `") == 2


def test_the_seats_add_up_to_the_totals(report):
    for row in report[1]["opponents"]:
        seats = row["by_seat"]
        assert [s["seat"] for s in seats] == [0, 1]
        assert [s["games"] for s in seats] == [1, 1]  # one deal, mirrored
        assert sum(s["wins"] for s in seats) == pytest.approx(row["wins"])
        assert row["win_rate"] == pytest.approx(row["wins"] / row["games"])
        total = sum(s["score"] * s["games"] for s in seats)
        assert total / row["games"] == pytest.approx(row["score"])
        rival = sum(s["opponent_score"] * s["games"] for s in seats)
        assert rival / row["games"] == pytest.approx(row["opponent_score"])
        assert 0 <= row["win_low"] <= row["win_rate"] <= row["win_high"] <= 1


def test_bad_sizes_are_refused_naming_the_option():
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "pavilion", "greedy", "--games", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "--games" in run.stderr


def test_a_journal_resumes_the_panel_playing_only_the_games_it_lacks(tmp_path):
    journal, out = tmp_path / "games.jsonl", tmp_path / "panel.json"

    def panel(games):
        command = [sys.executable, str(SCRIPT), "pavilion", "greedy", "--opponent", "random"]
        command += ["--games", str(games), "--workers", "1", "--quiet", "--json", str(out)]
        run = subprocess.run(
            [*command, "--journal", str(journal)], capture_output=True, text=True, timeout=300
        )
        assert run.returncode == 0, run.stderr
        return json.loads(out.read_text(encoding="utf-8"))["opponents"][0]

    panel(2)
    lines = journal.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])  # greedy in seat 0 of the first deal: given 500 points
    first["result"]["scores"][0] = 500
    journal.write_text(json.dumps(first) + "\n" + lines[1] + "\n{cut short", encoding="utf-8")
    row = panel(4)
    assert row["games"] == 4
    assert row["by_seat"][0]["score"] > 250  # (500 + another game) / 2: read, not replayed
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 4  # the cut line dropped
