"""The regression's job lines (dlaverif.flow.regression.__main__.Progress): jobs end on the pool's threads at the same
moment, and each job's line must stay whole and numbered once (a resumed run is checked by counting them: CI saw
'[   2/4] ok' glued to the end of another line when two jobs ended together). No simulator needed."""

from __future__ import annotations

import io
import re
import sys
import threading
import time

from dlaverif.flow import testplan
from dlaverif.flow.regression import execute
from dlaverif.flow.regression.__main__ import Progress


class SlowStdout(io.StringIO):
    """A terminal that takes its time with every write, so that two threads' writes interleave if they can."""

    def write(self, s: str) -> int:
        n = super().write(s[: len(s) // 2])
        time.sleep(0.002)
        return n + super().write(s[len(s) // 2 :])


def _rec(i: int, status: str = execute.PASS) -> dict:
    return {
        "status": status,
        "sim": "verilator",
        "run": "agents/clocked",
        "test": f"t{i}",
        "seed": 1,
        "wall_s": 1.0,
        "first_error": "boom",
    }


def test_concurrent_jobs_print_whole_lines_numbered_once(monkeypatch):
    out = SlowStdout()
    monkeypatch.setattr(sys, "stdout", out)
    n = 40
    progress = Progress(n, testplan.load())
    start = threading.Barrier(8)

    def worker(k: int) -> None:
        start.wait()
        for i in range(k, n, 8):
            progress(_rec(i, execute.PASS if i % 3 else execute.FAIL))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = out.getvalue().splitlines()
    assert len(lines) == n, out.getvalue()
    numbers = [
        int(m.group(1))
        for m in (
            re.fullmatch(
                r"\[ +(\d+)/40\] (ok|FAIL) +verilator agents/clocked::t\d+ "
                r"seed=1 \(1s\)(  boom)?",
                ln,
            )
            for ln in lines
        )
        if m
    ]
    assert numbers == list(range(1, n + 1)), lines
