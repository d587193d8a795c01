"""The processes a test session started and left running.

Every program the tests start inherits ``MARK`` in its environment, with a value of the session's
own; a process still carrying it when the session ends is a leftover, however it was started
(a daemon that forked away from its parent too). Linux only: elsewhere nothing is found.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

MARK = "AZUL_TEST_SESSION"
GRACE = "AZUL_TEST_GRACE"  # seconds the processes have to end (default 10)


def _marked(pid: str, needle: bytes) -> str | None:
    """The command line of process ``pid`` if its environment holds ``needle``."""
    try:
        if needle not in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
            return None
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").strip()
        status = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # ended meanwhile, or not ours to read
        return None
    if status.rpartition(")")[2].split()[0] == "Z":  # ended, its parent not told yet
        return None
    return command.decode(errors="replace") or "?"


def running(value: str, exclude: set[int]) -> dict[int, str]:
    """The processes, other than ``exclude``, whose environment has ``MARK=value``."""
    needle = f"{MARK}={value}".encode()
    found = {}
    for entry in Path("/proc").glob("[0-9]*"):
        if int(entry.name) not in exclude:
            command = _marked(entry.name, needle)
            if command is not None:
                found[int(entry.name)] = command
    return found


def left_running(value: str) -> dict[int, str]:
    """The marked processes still running after ``GRACE`` seconds for them to end; the
    session's own process and its children of the standard library's multiprocessing resource
    tracker (which ends with it) do not count."""
    own = {os.getpid()}
    deadline = time.monotonic() + float(os.environ.get(GRACE, "10"))
    while True:
        found = {
            pid: command
            for pid, command in running(value, own).items()
            if "multiprocessing.resource_tracker" not in command
        }
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)
