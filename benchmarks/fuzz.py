"""Stateful fuzzing of the API from its OpenAPI schema, against a server process it starts:
sequences follow the schema's links into real games (new games, their seats' views, moves chosen
on those views, undos, hints, rematches). Hypothesis seldom follows the links from a view to a
move many times in a row, so one more step of the sequences plays on: in a game a sequence made,
the seat to move plays one of its view's legal moves with that view's version, a few times in a
row (each view and move a request of the schema's operations, checked like the others).

Prints the requests made by operation and status, the moves they played, the games played to
their end, the 5xx answers and every failed check (a status or content type the schema does not
document).

    python benchmarks/fuzz.py --requests 5000 --steps 20
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter

import httpx
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.errors import Flaky, FlakyStrategyDefinition
from hypothesis.stateful import precondition, rule
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, status_code_conformance

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance]


def start(port: int, database: str, log: str) -> subprocess.Popen:
    limits = ["--limit", "creates_per_minute=100000", "--limit", "hints_per_minute=100000"]
    command = [sys.executable, "-m", "azul", "serve", "--port", str(port), "--database", database]
    out = open(log, "w")  # noqa: SIM115 - the process owns it
    proc = subprocess.Popen(command + limits, stdout=out, stderr=subprocess.STDOUT)
    end = time.time() + 60
    while time.time() < end:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the server did not start (log: {log})")


def playable(case) -> None:
    """Most new games are playable: two seats, a person first and to move (the generated game,
    public flag and second seat's kind are kept); a quarter stay as generated."""
    if case.operation.label == "POST /api/games" and isinstance(case.body, dict):
        seats = case.body.get("seats")
        if isinstance(seats, list) and len(seats) % 4:
            bot = isinstance(seats[-1], dict) and seats[-1].get("kind") == "bot"
            second = {"kind": "bot", "bot": "random"} if bot else {"kind": "human"}
            case.body = {
                **case.body,
                "options": {"first_player": 0},
                "seats": [{"kind": "human"}, second],
            }


def fuzz(url: str, requests: int, steps: int) -> tuple[Counter, Counter, int, int]:
    """Requests by (operation, status), failed checks by (check, operation, status), the runs
    hypothesis cut short, and the games seen played to their end. Runs of 25 sequences follow
    one another until ``requests`` were made (the games' state lives in the server, so
    hypothesis may find that a replayed sequence draws differently: that run ends, and the next
    one starts)."""
    schema = schemathesis.openapi.from_url(f"{url}/openapi.json")
    answered: Counter = Counter()
    failed: Counter = Counter()
    over: set[str] = set()  # games played to their end

    get_game = schema["/api/games/{game_id}"]["GET"]
    post_move = schema["/api/games/{game_id}/moves"]["POST"]

    class Machine(schema.as_state_machine()):  # type: ignore[misc]
        def setup(self):
            self.games: list[tuple[str, list[str]]] = []  # made in this sequence, with tokens

        def before_call(self, case):
            playable(case)

        def after_call(self, response, case):
            super().after_call(response, case)
            if case.operation.label == "POST /api/games" and response.status_code == 201:
                made = response.json()
                tokens = [s["token"] for s in made["seats"] if s.get("token")]
                self.games.append((made["id"], tokens))

        def checked(self, case):
            response = self.call(case)
            self.validate_response(response, case)
            return response

        @precondition(lambda self: bool(self.games))
        @rule(data=st.data())
        def play_on(self, data):
            """The seat to move of a game of this sequence plays legal moves on its views."""
            game_id, tokens = data.draw(st.sampled_from(self.games), label="game")
            for _ in range(data.draw(st.integers(1, 80), label="moves")):
                for token in tokens:
                    case = get_game.Case(
                        path_parameters={"game_id": game_id}, query={"token": token}
                    )
                    view = self.checked(case)
                    if view.status_code == 200 and view.json()["legal"]:
                        break
                else:  # over, or a bot's turn
                    if view.status_code == 200 and view.json()["over"]:
                        over.add(game_id)
                    return
                view = view.json()
                pick = data.draw(st.integers(0, len(view["legal"]) - 1), label="legal move")
                body = {"token": token, "action": view["legal"][pick]["action"]}
                body["version"] = view["version"]
                case = post_move.Case(
                    path_parameters={"game_id": game_id}, body=body, media_type="application/json"
                )
                self.checked(case)

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            key = (case.operation.label, response.status_code)
            answered[key] += 1
            for check in CHECKS:  # each failure is counted; the run goes on
                try:
                    case.validate_response(response, checks=[check])
                except Exception:
                    failed[(check.__name__, *key)] += 1

    cut = 0
    while sum(answered.values()) < requests:
        try:
            Machine.run(
                settings=settings(
                    max_examples=25,
                    stateful_step_count=steps,
                    deadline=None,
                    suppress_health_check=list(HealthCheck),
                    database=None,
                )
            )
        except (FlakyStrategyDefinition, Flaky):
            cut += 1
    return answered, failed, cut, len(over)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=5000, help="at least (default 5000)")
    parser.add_argument("--steps", type=int, default=12, help="most steps a sequence takes")
    parser.add_argument("--port", type=int, default=0, help="the server's port (default: free)")
    args = parser.parse_args()
    port = args.port
    if not port:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="azul-fuzz-")
    log = os.path.join(folder, "server.log")
    proc = start(port, f"sqlite:///{folder}/games.db", log)
    url = f"http://127.0.0.1:{port}"
    began = time.time()
    try:
        answered, failed, cut, finished = fuzz(url, args.requests, args.steps)
        moves = httpx.get(f"{url}/api/stats").json()["moves"]
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
    total = sum(answered.values())
    errors = sum(n for (_, status), n in answered.items() if status >= 500)
    undocumented = sum(n for (check, *_), n in failed.items() if check != "not_a_server_error")
    for (operation, status), n in sorted(answered.items()):
        print(f"{n:6d}  {status}  {operation}")
    for (check, operation, status), n in sorted(failed.items()):
        print(f"FAILED {check}: {n} x {status} on {operation}")
    with open(log) as f:
        tracebacks = f.read().count("Traceback")
    print(
        f"requests {total}, moves played {moves}, games played to the end {finished}, "
        f"5xx {errors}, failed checks {undocumented}, "
        f"tracebacks in the server log {tracebacks}, runs cut short {cut}, "
        f"{time.time() - began:.0f} s"
    )
    return 1 if errors or undocumented or tracebacks else 0


if __name__ == "__main__":
    sys.exit(main())
