"""Chaos benchmark: faults and floods against real ``azul serve`` processes while scripted
players play, and what was lost, duplicated or played on a stale view.

    python benchmarks/chaos.py                                   # the targets' sizes
    python benchmarks/chaos.py --cycles 5 --pg-restarts 3 --flood-seconds 8
    python benchmarks/chaos.py --scenarios kill-sqlite --cycles 1 --games 1 --json

Scenarios (``--scenarios``, comma-separated; all by default):

- ``kill-sqlite``: one server over SQLite, killed with SIGKILL and restarted, ``--cycles`` times;
- ``kill-postgres``: two servers over one PostgreSQL (the second with ``--workers`` processes),
  killed in turn and restarted; the processes that outlive a kill are counted as orphans;
- ``restart-postgres``: PostgreSQL restarted ``--pg-restarts`` times under two servers;
- ``slowloris``, ``drawings``, ``hints``: floods (see ``chaos_floods``) while an unrelated
  game is played, its latencies compared with the same game's when the server is idle.

During the faults, ``--games`` games of two scripted seats and ``--bot-games`` games against a
bot are played (a finished game is followed by another). Each seat's WebSocket is on one server,
its HTTP requests go to any (see ``chaos_play``). Afterwards every game's stored record is held
against the moves sent: an acknowledged move (the client saw a view come back with it) is lost
when the record does not have it where that view showed it, duplicated when the record has a
second copy nobody sent, and stale-applied when the record has it after another move than the
last one of the view it was chosen on. When the server's schema gives a move a ``ply`` (or
``version``) field, the players send the ply of the view they chose on; a move refused with 409
is counted as refused stale (the correct answer to a stale move); over the WebSocket, an error
counts so when it carries that status or a view. Recovery is the time from a killed server's
restart (or from the start of PostgreSQL's) until a move sent since was acknowledged by every
server struck, and until a bot replied to such a move.

Only loopback addresses are used. Every process the benchmark starts is ended when it stops,
also on Ctrl-C or SIGTERM; orphans of a killed server are counted and ended at once.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time

import httpx
from chaos_floods import drawings, hints, probe, slowloris
from chaos_play import (
    ANSWER_SECONDS,
    Context,
    Ledger,
    audit,
    keep_playing,
    ply_field,
    stop_playing,
)
from chaos_processes import Processes, Server, off_loop

FAULTS = ("kill-sqlite", "kill-postgres", "restart-postgres")
FLOODS = ("slowloris", "drawings", "hints")


def note(args: argparse.Namespace, text: str) -> None:
    if not args.quiet:
        print(text, file=sys.stderr, flush=True)


# -- faults -----------------------------------------------------------------------------------
async def fault_servers(args, procs: Processes, name: str):
    """The started servers of a fault scenario, and its PostgreSQL (None on SQLite)."""
    if name == "kill-sqlite":
        servers = [procs.server(f"sqlite:///{os.path.join(procs.folder(), 'chaos.db')}")]
        pg = None
    else:
        pg = await off_loop(procs.postgres)
        workers = args.workers if name == "kill-postgres" else 1
        servers = [procs.server(pg.url), procs.server(pg.url, workers)]
    for server in servers:  # one after the other: the first makes the tables
        await off_loop(procs.start, server)
    return servers, pg


def first_moves(ledger: Ledger, t0: float, servers: list[int]) -> float | None:
    """Seconds from ``t0`` until a move sent after it was acknowledged by each of ``servers``."""
    firsts = []
    for s in servers:
        times = [t for t, via, _, _, sent in ledger.acks if via == s and sent >= t0]
        if not times:
            return None
        firsts.append(min(times))
    return round(max(firsts) - t0, 2)


def first_bot_reply(ledger: Ledger, t0: float) -> float | None:
    """Seconds from ``t0`` until a bot replied to a move made after it."""
    bot_games = {g.id for g in ledger.games if g.bots}
    best = None
    for gid in bot_games:
        after = [(t, ply) for t, _, g, ply, sent in ledger.acks if g == gid and sent >= t0]
        if not after:
            continue
        t_move, ply = min(after)
        replies = [t for t, g, p in ledger.bot_moves if g == gid and p > ply and t >= t_move]
        if replies and (best is None or min(replies) < best):
            best = min(replies)
    return None if best is None else round(best - t0, 2)


async def recovery(args, ledger: Ledger, t0: float, servers: list[int]) -> dict:
    """Wait (at most ``--recovery-timeout``) for the people's and the bots' first moves."""
    while True:
        people = first_moves(ledger, t0, servers)
        bots = first_bot_reply(ledger, t0) if args.bot_games else None
        done = people is not None and (bots is not None or not args.bot_games)
        if done or time.monotonic() > t0 + args.recovery_timeout:
            return {"recovery_s": people, "bot_recovery_s": bots}
        await asyncio.sleep(0.1)


async def restart(procs: Processes, server: Server) -> dict:
    """Start a killed server again (a second try after a failure); the seconds it took."""
    began = time.monotonic()
    for attempt in range(1, 3):
        try:
            started = await off_loop(procs.start, server)
            started["restart_s"] = round(time.monotonic() - began, 2)
            return {**started, "attempts": attempt}
        except RuntimeError as e:
            failure = str(e)
            await off_loop(server.stop)
            await asyncio.sleep(attempt)
    return {"restart_failed": failure}


async def cycles(args, procs, ctx: Context, servers: list[Server], pg, name: str, out: list):
    """The faults of a scenario, one after the other, each followed by its recovery."""
    count = args.pg_restarts if name == "restart-postgres" else args.cycles
    await asyncio.sleep(args.play)
    for i in range(count):
        t0 = time.monotonic()
        if pg is not None and name == "restart-postgres":
            fault = {"restart_s": round(await off_loop(pg.restart), 2)}
            struck = list(range(len(servers)))
        else:  # recovery counts from the restart, not from the kill and the look for orphans
            struck = [i % len(servers)]
            fault = {"server": struck[0], **await off_loop(servers[struck[0]].kill)}
            t0 = time.monotonic()
            fault.update(await restart(procs, servers[struck[0]]))
        fault.update(await recovery(args, ctx.ledger, t0, struck))
        out.append(fault)
        note(args, f"{name}: {i + 1}/{count}: {json.dumps(fault)}")
        procs.reap()
        await asyncio.sleep(args.play)


def spread(values: list[float | None]) -> dict:
    """The median and the largest of the values seen, and how many were not seen in time."""
    seen = [v for v in values if v is not None]
    return {
        "p50": round(statistics.median(seen), 2) if seen else None,
        "max": max(seen, default=None),
        "timed_out": len(values) - len(seen),
    }


def summary(faults: list[dict], bots: bool) -> dict:
    return {
        "count": len(faults),
        "recovery_s": spread([f.get("recovery_s") for f in faults]),
        "bot_recovery_s": spread([f.get("bot_recovery_s") for f in faults]) if bots else None,
        "orphans": sum(f.get("orphans", 0) for f in faults),
        "orphaned": sorted({n for f in faults for n in f.get("orphaned", [])}),
        "port_held_after_kill": sum(f.get("port_held", False) for f in faults),
        "restart_failed": sum("restart_failed" in f for f in faults),
        "port_held_before_restart": sum(f.get("port_held_before", False) for f in faults),
        "each": faults,
    }


async def fault_scenario(args, procs: Processes, name: str) -> dict:
    """Play while the faults strike, then hold the stored records against what was seen."""
    servers, pg = await fault_servers(args, procs, name)
    async with httpx.AsyncClient(timeout=ANSWER_SECONDS) as http:
        schema = (await http.get(f"{servers[0].url}/openapi.json")).json()
        ctx = Context(
            [s.url for s in servers],
            http,
            Ledger(),
            random.Random(args.seed),
            asyncio.Event(),
            args.think,
            ply_field=ply_field(schema),
        )
        slots = [(i, False) for i in range(args.games)]
        slots += [(args.games + i, True) for i in range(args.bot_games)]
        tasks = [asyncio.ensure_future(keep_playing(ctx, i, bot)) for i, bot in slots]
        faults: list[dict] = []
        count = args.pg_restarts if name == "restart-postgres" else args.cycles
        budget = count * (args.recovery_timeout + args.play + 40) + args.play + 30
        timed_out = False
        try:
            await asyncio.wait_for(cycles(args, procs, ctx, servers, pg, name, faults), budget)
        except TimeoutError:
            timed_out = True
        await stop_playing(ctx, tasks)
        for server in servers:  # the records are read from the servers
            if server.proc is None or server.proc.poll() is not None:
                await restart(procs, server)
        result = {
            "servers": [{"port": s.port, "workers": s.workers} for s in servers],
            "database": "sqlite" if pg is None else "postgresql",
            "ply_field": ctx.ply_field,
            "timed_out": timed_out,
            "faults": summary(faults, bool(args.bot_games)),
            "moves": await audit(ctx),
        }
    for server in servers:
        await off_loop(server.stop)
    if pg is not None:
        await off_loop(pg.stop)
    return result


# -- floods -----------------------------------------------------------------------------------
def flood_of(name: str, args, server: Server, stop, ready):
    if name == "slowloris":
        return slowloris(server.port, "127.0.0.2", args.slowloris, args.drip, stop, ready)
    if name == "drawings":
        return drawings(server.url, "127.0.0.3", args.drawings, stop, ready)
    addresses = [f"127.0.0.{10 + i}" for i in range(args.hint_addresses)]
    return hints(server.url, addresses, stop, ready)


def against_idle(under: dict, idle: dict) -> dict:
    """The flood's p99s as multiples of the idle ones, and whether they stay within 3 times."""
    ratios = {}
    for key in ("move_ms", "bot_reply_ms"):
        base, now = idle[key]["p99"], under[key]["p99"]
        ratios[key] = round(now / base, 2) if base and now is not None else None
    within = all(r is not None and r <= 3 for r in ratios.values()) and not under["failed"]
    return {"p99_vs_idle": ratios, "within_3x": within}


async def healthy(server: Server, seconds: float) -> bool:
    end = time.monotonic() + seconds
    async with httpx.AsyncClient(timeout=2) as http:
        while time.monotonic() < end:
            try:
                if (await http.get(f"{server.url}/api/stats")).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.5)
    return False


async def one_flood(args, procs: Processes, name: str, server: Server, idle: dict) -> dict:
    """The unrelated game measured while the flood ``name`` runs."""
    stop, ready = asyncio.Event(), asyncio.Event()
    flood = asyncio.ensure_future(flood_of(name, args, server, stop, ready))
    waiting = asyncio.ensure_future(ready.wait())
    await asyncio.wait({flood, waiting}, timeout=90, return_when=asyncio.FIRST_COMPLETED)
    waiting.cancel()
    under = None
    if not flood.done():  # (a flood that ended already could not start: nothing to measure)
        under = await probe(server.url, args.flood_seconds, args.think, args.seed)
    stop.set()
    try:
        stats = await asyncio.wait_for(flood, 30)
    except Exception as e:  # a flood that could not start or stop says why
        stats = {"error": repr(e)[:200]}
    result = {"flood": stats, "idle": idle, "under_flood": under}
    if under is not None:
        result.update(against_idle(under, idle))
    result["server_answered_after"] = await healthy(server, 15)
    if not result["server_answered_after"]:
        await off_loop(server.stop)
        await off_loop(procs.start, server)
    note(args, f"{name}: {json.dumps(result)}")
    return result


async def flood_scenarios(args, procs: Processes, chosen: list[str]) -> dict:
    """An idle measurement, then each flood in turn, on one server with its default limits
    (but for creating games, which the benchmark does often)."""
    database = f"sqlite:///{os.path.join(procs.folder(), 'floods.db')}"
    server = procs.server(database, limits={"creates_per_minute": 10_000})
    await off_loop(procs.start, server)
    idle = await probe(server.url, args.flood_seconds, args.think, args.seed)
    note(args, f"idle: {json.dumps(idle)}")
    results = {}
    for name in chosen:
        results[name] = await one_flood(args, procs, name, server, idle)
    await off_loop(server.stop)
    return results


# -- the report -------------------------------------------------------------------------------
async def run(args, procs: Processes, report: dict) -> None:
    for name in [s for s in args.scenarios if s in FAULTS]:
        try:
            report["scenarios"][name] = await fault_scenario(args, procs, name)
        except (RuntimeError, OSError, httpx.HTTPError, subprocess.SubprocessError) as e:
            report["scenarios"][name] = {"error": repr(e)[:300]}
    floods = [s for s in args.scenarios if s in FLOODS]
    if floods:
        try:
            report["scenarios"].update(await flood_scenarios(args, procs, floods))
        except (RuntimeError, OSError, httpx.HTTPError) as e:
            report["scenarios"]["floods"] = {"error": repr(e)[:300]}


def commit() -> str | None:
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True
        )
    except OSError:
        return None
    return found.stdout.strip() or None


def _ms(q: dict) -> str:
    return f"p50 {q['p50']} ms, p99 {q['p99']} ms ({q['n']})"


def show(report: dict) -> str:
    """The report for people."""
    lines = [f"chaos benchmark at {report['commit']}"]
    for name, r in report["scenarios"].items():
        if "error" in r:
            lines.append(f"{name}: could not run: {r['error']}")
        elif "moves" in r:
            m, f = r["moves"], r["faults"]
            lines += [
                f"{name}: {f['count']} faults, {m['games']} games, {m['sent']} moves sent"
                + (" (timed out)" if r["timed_out"] else ""),
                f"  acknowledged {m['acknowledged']}: lost {m['lost']}, duplicated "
                f"{m['duplicated']}, stale-applied {m['stale_applied']}",
                f"  refused stale {m['refused_stale']}, refused {m['refused_other']}, failed "
                f"{m['failed']}; stored without acknowledgement {m['unacknowledged_applied']}, "
                f"unexplained {m['unexplained']}; stale views {m['stale_views']} of {m['views']}",
                f"  recovery: {f['recovery_s']}; bots: {f['bot_recovery_s']}",
                f"  orphans {f['orphans']} {f['orphaned']}, port held after a kill "
                f"{f['port_held_after_kill']}, restarts failed {f['restart_failed']}",
            ]
        elif r["under_flood"] is None:
            lines.append(f"{name}: the flood did not start: {r['flood']}")
        else:
            u, i = r["under_flood"], r["idle"]
            lines += [
                f"{name}: {r['flood']}",
                f"  moves {_ms(u['move_ms'])} (idle {_ms(i['move_ms'])})",
                f"  bot replies {_ms(u['bot_reply_ms'])} (idle {_ms(i['bot_reply_ms'])})",
                f"  failed {u['failed']} {u['failures']}; p99 vs idle {r['p99_vs_idle']}, "
                f"within 3x: {r['within_3x']}",
            ]
    return "\n".join(lines)


def _count(low: int, high: int):
    def count(text: str) -> int:  # (argparse names a bad value by this function's name)
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not in {low}..{high}")
        return value

    return count


def _seconds(low: float, high: float):
    def seconds(text: str) -> float:
        value = float(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not in {low}..{high}")
        return value

    return seconds


def _scenarios(text: str) -> list[str]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [s for s in names if s not in FAULTS + FLOODS]
    if unknown or not names:
        wrong = f"unknown {unknown[0][:40]!r}: " if unknown else "none named: "
        raise argparse.ArgumentTypeError(f"{wrong}use some of {', '.join(FAULTS + FLOODS)}")
    return names


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenarios", type=_scenarios, default=list(FAULTS + FLOODS))
    p.add_argument("--cycles", type=_count(0, 1000), default=20, help="kill -9 cycles (20)")
    p.add_argument("--pg-restarts", type=_count(0, 1000), default=10, help="(default 10)")
    p.add_argument("--games", type=_count(1, 200), default=6, help="games of two seats (6)")
    p.add_argument("--bot-games", type=_count(0, 50), default=1, help="games against a bot (1)")
    p.add_argument("--workers", type=_count(1, 8), default=2, help="of kill-postgres' 2nd server")
    p.add_argument("--think", type=_seconds(0, 10), default=0.05, help="mean seconds per move")
    p.add_argument("--play", type=_seconds(0, 600), default=3, help="seconds between faults")
    p.add_argument("--recovery-timeout", type=_seconds(1, 600), default=60)
    p.add_argument("--flood-seconds", type=_seconds(1, 600), default=10, help="each measure")
    p.add_argument("--slowloris", type=_count(1, 5000), default=1000, help="connections")
    p.add_argument("--drip", type=_seconds(0.5, 60), default=5, help="seconds between lines")
    p.add_argument("--drawings", type=_count(1, 500), default=32, help="concurrent drawings")
    p.add_argument("--hint-addresses", type=_count(1, 200), default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--out", help="also write the JSON report here")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return p


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def main() -> int:
    args = parser().parse_args()
    signal.signal(signal.SIGTERM, _interrupt)
    import azul

    report: dict = {"commit": commit(), "version": azul.__version__, "scenarios": {}}
    report["options"] = {k: v for k, v in vars(args).items() if k not in ("json", "out", "quiet")}
    procs = Processes()
    try:
        asyncio.run(run(args, procs, report))
    except KeyboardInterrupt:
        report["interrupted"] = True
    finally:
        procs.close()
    text = json.dumps(report, indent=2)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    print(text if args.json else show(report))
    return 130 if report.get("interrupted") else 0


if __name__ == "__main__":
    sys.exit(main())
