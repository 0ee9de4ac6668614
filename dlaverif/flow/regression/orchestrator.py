"""Who runs a run folder: the orchestrator's identity in ``orchestrator.json``, and what is done when it died.

A local run (``make regress``, a Slurm shard) writes ``<run>/orchestrator.json`` when it starts: its pid, its start
time (``/proc/<pid>/stat`` field 22, so that a later process with the same pid is not taken for it) and host
(:class:`dlaverif.executor.Identity`). Every process group its executor starts is listed in
``<run>/processes.jsonl`` (:data:`dlaverif.flow.regression.execute.PROCESSES`).

Before ``RESUME=`` continues a run, and before ``make report`` reads one, :func:`take_over` looks at it:

- its orchestrator still runs: a resume is refused (:class:`Alive`, one line), a report reads it as it is;
- its orchestrator is dead: every leftover process group of the run is ended first (a stopped simulator, which the
  death signal of :mod:`dlaverif.executor` could not end), so that nothing writes into the run after this; when its
  ``state.json`` still says "running", the orchestrator died without a word (SIGKILL: the OOM killer) and the state
  says so now, with the command that continues it.

A run recorded on another host cannot be checked from here: it is left as it is.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Optional

from dlaverif.executor import Identity, stop_leftovers
from dlaverif.flow import records

from . import execute, runfolder

ORCHESTRATOR = "orchestrator.json"
RUNNING = "running since"  # how runfolder.mark's reason of a running run starts


class Alive(RuntimeError):
    """The run's orchestrator still runs (the message says which, in one line)."""


def record(regdir: Path) -> Path:
    """Write this process as the orchestrator of ``regdir``."""
    me = Identity.me()
    since = time.strftime("%Y-%m-%d %H:%M:%S")
    record = {"pid": me.pid, "start": me.start, "host": me.host, "since": since}
    return records.write_json(regdir / ORCHESTRATOR, record)


def recorded(regdir: Path) -> Optional[Identity]:
    """The orchestrator ``regdir`` names (None: none recorded, an older run or a Slurm base folder)."""
    try:
        raw = records.read_json(regdir / ORCHESTRATOR, what="orchestrator record")
        return Identity(int(raw["pid"]), raw.get("start"), str(raw["host"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def take_over(regdir: Path, refuse_alive: bool) -> Optional[str]:
    """Make ``regdir`` safe to continue or report: see the module's docstring. ``refuse_alive`` (a resume): raise
    :class:`Alive` when its orchestrator runs. Returns the line saying that the orchestrator died (None when it did
    not, or when nothing can be known)."""
    who = recorded(regdir)
    if who is None or who.pid == os.getpid():
        return None
    alive = who.alive()
    if alive is None:
        return None
    if alive:
        if refuse_alive:
            raise Alive(f"{regdir} is still run by its orchestrator (pid {who.pid} on {who.host}); stop it first")
        return None
    ended = stop_leftovers(regdir / execute.PROCESSES)
    state = runfolder.state(regdir)
    if state.get("complete") or not str(state.get("reason", "")).startswith(RUNNING):
        if ended:
            print(f"regress: {regdir}: ended {len(ended)} leftover process group(s) of its run", file=sys.stderr)
        return None
    line = (
        f"orchestrator died (pid {who.pid} on {who.host}) while the run was running; "
        f"{len(ended)} leftover process group(s) ended"
    )
    runfolder.mark(regdir, False, line, f"make regress RESUME={regdir}")
    return line
