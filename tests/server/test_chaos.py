"""The chaos benchmark's audit counts what it should, and its script runs end to end at its
smallest size (one kill -9 on SQLite) with a report whose numbers agree with each other."""

import importlib.util
import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")
pytest.importorskip("httpx")

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _play_module():
    spec = importlib.util.spec_from_file_location("chaos_play", BENCHMARKS / "chaos_play.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


play = _play_module()


def record(moves):
    """A stored record's lines: a draw first, then (seat, notation) for each move."""
    header = {"format": "azul-record", "version": 1, "game": "sintra", "seed": None}
    header |= {"options": {"explicit_chance": True}, "seeded": False}
    lines = [json.dumps(header), json.dumps({"ply": 1, "player": "chance", "action": 0})]
    for i, (seat, move) in enumerate(moves, 2):
        lines.append(json.dumps({"ply": i, "player": seat, "action": i, "move": move}))
    return lines


def sent(seat, seen, last, move, status="acknowledged", ply=None):
    return play.Sent(seat, seen, last, move, via=0, at=0.0, status=status, ply=ply)


def test_the_audit_tells_lost_duplicated_stale_and_unacknowledged_moves():
    game = play.Game("0" * 16, "watch", {0: "a", 1: "b"}, set(), "http")
    game.sent = [
        sent(0, 0, None, "a", ply=1),
        sent(1, 1, (1, 0, "a"), "b", ply=2),
        sent(0, 2, (2, 1, "b"), "c", ply=3),
        sent(1, 1, (1, 0, "a"), "d", ply=4),  # chosen after "a", stored after "c": stale
        sent(0, 5, (5, 1, "d"), "f", status="failed"),  # no answer, yet stored at 6
        sent(0, 3, (3, 0, "c"), "e", ply=8),  # acknowledged, not stored: lost
        sent(1, 3, (3, 0, "c"), "g", status="refused_stale"),
    ]
    stored = [(0, "a"), (1, "b"), (0, "c"), (1, "d"), (1, "d"), (0, "f"), (1, "z")]
    examples = []
    counts = play.check(game, record(stored), examples)
    assert counts["acknowledged_checked"] == 5
    assert counts["acknowledged_stored"] == 4 and counts["lost"] == 1
    assert counts["stale_applied"] == 1
    assert counts["duplicated"] == 1  # the second "d", sent once
    assert counts["unacknowledged_applied"] == 1  # "f"
    assert counts["unexplained"] == 1  # "z", never sent
    assert counts["stored"] == 7
    assert sorted(e["kind"] for e in examples) == ["lost", "stale_applied"]
    stale = next(e for e in examples if e["kind"] == "stale_applied")
    assert stale["stored_before_it"] == (0, "c") and stale["view_ended_with"] == (1, 0, "a")


def test_a_fresh_game_has_nothing_to_report():
    game = play.Game("0" * 16, "watch", {0: "a"}, {1}, "ws")
    game.sent = [sent(0, 0, None, "a", ply=1), sent(0, 2, (2, 1, "x"), "b", ply=3)]
    counts = play.check(game, record([(0, "a"), (1, "x"), (0, "b")]), [])
    assert counts["acknowledged_stored"] == 2 and counts["stored"] == 2  # the bot's not counted
    assert not (counts["lost"] or counts["stale_applied"] or counts["duplicated"])


def test_moves_name_their_view_only_when_the_schema_has_the_field():
    def schema(*names):
        properties = {n: {"type": "integer"} for n in ("token", "action", *names)}
        return {"components": {"schemas": {"Move": {"properties": properties}}}}

    assert play.ply_field(schema()) is None
    assert play.ply_field(schema("ply")) == "ply"
    assert play.ply_field(schema("version")) == "version"
    assert play.ply_field({}) is None


def view(version, log, legal):
    return {"version": version, "log": log, "legal": legal, "over": False}


def move_answered(status, answer, field):
    """What a seat's client sends on a view offering one move, and makes of ``answer``."""
    import asyncio
    import random

    import httpx

    bodies = []

    def server(request):
        bodies.append(json.loads(request.content))
        return httpx.Response(status, json=answer)

    async def play_once():
        async with httpx.AsyncClient(transport=httpx.MockTransport(server)) as http:
            urls = ["http://127.0.0.1:9"]
            ctx = play.Context(urls, http, play.Ledger(), random.Random(0), asyncio.Event())
            ctx.think, ctx.ply_field = 0, field
            game = play.Game("0" * 16, "watch", {0: "t"}, set(), "http")
            log = [{"ply": 1, "seat": 1, "move": "F1:B>2"}]
            await play.SeatClient(ctx, game, 0).maybe_move(
                view(7, log, [{"action": 5, "move": "F2:R>1"}])
            )
            return game

    game = asyncio.run(play_once())
    return bodies[0], game.sent[0], game


def test_a_move_names_its_view_when_the_server_takes_it():
    body, _, _ = move_answered(409, {"error": "it is not your turn"}, None)
    assert body == {"action": 5, "token": "t"}
    body, _, _ = move_answered(409, {"error": "older view"}, "version")
    assert body["version"] == 7
    body, _, _ = move_answered(409, {"error": "older view"}, "ply")
    assert body["ply"] == 1  # the moves the view showed


def test_a_refusal_with_the_view_now_is_a_refused_stale_move():
    now = view(9, [{"ply": n, "seat": n % 2, "move": "x"} for n in range(1, 4)], [])
    _, sent, game = move_answered(409, {"error": "older view", "view": now}, "version")
    assert sent.status == "refused_stale" and game.newest == 9  # the view now was taken
    _, sent, _ = move_answered(400, {"error": "illegal"}, "version")
    assert sent.status == "refused_other"
    _, sent, _ = move_answered(500, {"error": "internal"}, "version")
    assert sent.status == "failed"
    log = [{"ply": 1, "seat": 1, "move": "F1:B>2"}, {"ply": 2, "seat": 0, "move": "F2:R>1"}]
    _, sent, game = move_answered(200, view(8, log, []), "version")
    assert sent.status == "acknowledged" and sent.ply == 2 and sent.last == (1, 1, "F1:B>2")


def test_one_kill_on_sqlite_reports_consistent_numbers(tmp_path):
    out = tmp_path / "chaos.json"
    command = [sys.executable, str(BENCHMARKS / "chaos.py"), "--scenarios", "kill-sqlite"]
    command += ["--cycles", "1", "--games", "1", "--bot-games", "0", "--play", "1"]
    command += ["--think", "0.02", "--recovery-timeout", "60", "--json", "--quiet"]  # busy CI
    run = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(out.read_text())
    assert json.loads(run.stdout) == report
    assert report["options"]["cycles"] == 1
    result = report["scenarios"]["kill-sqlite"]
    assert "error" not in result and not result["timed_out"]
    faults, moves = result["faults"], result["moves"]
    assert faults["count"] == 1 and faults["restart_failed"] == 0
    assert faults["recovery_s"]["timed_out"] == 0 and faults["recovery_s"]["max"] > 0
    statuses = ("acknowledged", "refused_stale", "refused_other", "failed", "unanswered")
    assert moves["sent"] == sum(moves[s] for s in statuses)
    assert moves["acknowledged"] > 5 and moves["unchecked_games"] == 0
    assert moves["acknowledged_checked"] == moves["acknowledged"]
    assert moves["acknowledged_checked"] == moves["acknowledged_stored"] + moves["lost"]
    assert moves["stored"] == (
        moves["acknowledged_stored"]
        + moves["unacknowledged_applied"]
        + moves["duplicated"]
        + moves["unexplained"]
    )
    assert moves["stale_applied"] <= moves["acknowledged_stored"]
    # one process over SQLite: nothing acknowledged is lost, and it serves no stale view
    # (a move chosen on a view older than one the client had may still be applied)
    assert moves["lost"] == moves["duplicated"] == moves["unexplained"] == 0
    assert moves["stale_views"] == 0
    with socket.socket() as s:  # the server it started is gone
        assert s.connect_ex(("127.0.0.1", result["servers"][0]["port"])) != 0
