"""Run folders that cannot collide: each ``make regress`` gets its own folder under ``sim_build/regress/``
(``<YYYYmmdd-HHMMSS>-<suite>-<sims>[-shard<i>of<n>]``, created exclusively), holds a lock on it while it runs, and
moves the ``latest`` link to it only when every job of its manifest has a result.

The lock is ``flock`` on ``<run>/.lock``, held through an open file descriptor: the kernel drops it when the process
ends, however it ends, so a crashed run never leaves it stuck. The file records who holds it, so that a second
process that wants the same folder (``RESUME=`` of a running run, or the same ``--out``) refuses at once with one line
naming the running one. Two runs with default folders simply run side by side.

``<run>/state.json`` says whether the run is complete (every job has a result and its report, history entry and
``latest`` are published) and, when not, why and the command that continues it: written "running" when the run
starts, then the reason it stopped (interrupted while its jobs ran, or while its report was written; a report that
could not be written; ``"stopped": true``: a full disk ended it), or complete. A run that crashed leaves "running"
with no lock held.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator, Optional

from dlaverif.flow import records

LOCK_NAME = ".lock"
LATEST = "latest"
STATE = "state.json"


class Busy(RuntimeError):
    """The folder is in use by another running regression (the message names it)."""


def new_name(suite: str, sims: list[str], shard: tuple[int, int], when: Optional[float] = None) -> str:
    """``<YYYYmmdd-HHMMSS>-<suite>-<sims>[-shard<i>of<n>]`` (local time of ``when``, default now)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when))
    index, total = shard
    return f"{stamp}-{suite}-{'-'.join(sims)}" + (f"-shard{index}of{total}" if total > 1 else "")


def create(base: Path, name: str) -> Path:
    """A new folder ``base/name`` (``name.2``, ``name.3``, ... when taken: never an existing one)."""
    base.mkdir(parents=True, exist_ok=True)
    n = 1
    while True:
        folder = base / (name if n == 1 else f"{name}.{n}")
        try:
            folder.mkdir()
            return folder
        except FileExistsError:
            n += 1


class RunLock:
    """An exclusive lock on a run folder for the life of this process (``with RunLock(folder): ...``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._fh: Optional[IO[str]] = None

    def __enter__(self) -> "RunLock":
        self.folder.mkdir(parents=True, exist_ok=True)
        fh = open(self.folder / LOCK_NAME, "a+")
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.seek(0)
            holder = fh.read().strip()
            fh.close()
            raise Busy(f"{self.folder} is in use by a running regression ({holder or 'unknown process'})") from None
        fh.seek(0)
        fh.truncate()
        fh.write(
            json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "since": time.strftime("%Y-%m-%d %H:%M:%S")})
        )
        fh.flush()
        self._fh = fh
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fh is not None:
            self._fh.close()  # closing the descriptor drops the lock
            self._fh = None


@contextmanager
def publishing(report: Path) -> Iterator[None]:
    """Held while a complete run writes ``report`` and moves ``latest`` (a blocking flock on a file beside the
    report), so that two runs finishing together leave the report and ``latest`` of the same run."""
    report = Path(os.path.abspath(report))
    report.parent.mkdir(parents=True, exist_ok=True)
    with open(report.parent / f".{report.name}.lock", "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield


def point_latest(base: Path, folder: Path) -> Path:
    """Move ``base/latest`` to ``folder`` atomically (a new link renamed over the old one)."""
    link = base / LATEST
    tmp = base / f".{LATEST}.{os.getpid()}"
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(os.path.relpath(folder, base), target_is_directory=True)
    os.replace(tmp, link)
    return link


def mark(
    folder: Path, complete: bool, reason: str, resume: str = "", stopped: bool = False, report: Optional[Path] = None
) -> Path:
    """Write ``folder/state.json`` whole (:func:`dlaverif.flow.records.write_text`): complete or not, why, how to
    continue; ``stopped``: the run was ended by a failure of its own (a full disk), not by a signal; ``report``: where a
    complete run's report was published (a resume into the same folder has nothing to do). On a full disk the state is
    rewritten in place instead (its file already holds the room it needs); when even that fails the error is raised
    (:class:`dlaverif.flow.records.WriteError`)."""
    state = {"complete": complete, "reason": reason, "resume": "" if complete else resume}
    if stopped:
        state["stopped"] = True
    if report is not None:
        state["report"] = os.path.abspath(report)
    state["when"] = time.strftime("%Y-%m-%d %H:%M:%S")
    text = json.dumps(state, indent=1) + "\n"
    try:
        return records.write_text(folder / STATE, text)
    except OSError as exc:
        if not records.is_space_error(exc) or not (folder / STATE).is_file():
            raise
        failed = exc
    try:  # no room for a second copy: overwrite the old state's bytes, then cut it to length
        with open(folder / STATE, "r+b") as fh:
            fh.write(text.encode())
            fh.truncate()
            fh.flush()
            os.fsync(fh.fileno())
    except OSError:
        raise failed from None
    return folder / STATE


def state(folder: Path) -> dict:
    """``folder/state.json`` (empty when the run wrote none: a Slurm shard, or an older run)."""
    try:
        return json.loads((folder / STATE).read_text())
    except (OSError, ValueError):
        return {}
