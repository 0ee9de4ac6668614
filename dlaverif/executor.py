"""The one way the flow runs a child process: its own session, a wall-clock limit, its whole group ended, a record.

Every step the flow starts (a regression's jobs and builds, the build commands and the simulator of ``make sim`` and
of the pytest simulations, the coverage merges and genhtml of a report, a mutant, a yosys or smtbmc call of ``make
formal``, Slurm's ``sbatch``/``squeue``, the git calls of ``make nvdla``) is a :class:`Step` run by an
:class:`Executor`. It is a module of the package, not of ``dlaverif.flow``, and uses the
standard library only: ``dlaverif.thirdparty`` (which the flow's layout keeps from importing the flow, and whose
``make nvdla`` runs on the system's Python) uses it too.

- **its own session**: the step starts in a new session (``start_new_session``), so it and everything it starts
  (a simulator, a solver) are one process group, ended together;
- **a limit**: after ``limit_s`` seconds of wall time the group gets SIGTERM and SIGCONT (a stopped process acts on
  the pending SIGTERM as it resumes, and runs nothing before), and :data:`KILL_GRACE_S` later SIGKILL; the step ends
  as ``timeout`` and :meth:`Record.line` is the one line naming the step and its limit;
- **a record** (:class:`Record`): command, folder, start, end, status (:data:`STATUSES`), return code, log, the
  group's id;
- **it dies with its parent**: the executor starts a small guard (this file run as a script, standard library
  only) as the session's leader with Linux's ``PR_SET_PDEATHSIG`` set (``prctl`` through ``ctypes`` in the
  ``preexec_fn``), and the guard starts the command in its group. When the orchestrator dies, however it dies
  (SIGKILL from the OOM killer too), the kernel sends the guard SIGTERM and the guard SIGKILLs its whole group: the
  command's own children (a simulator started by a cocotb runner) included, which a death signal alone would miss.
  A group that was stopped (SIGSTOP) when its orchestrator was SIGKILLed cannot act on it; the groups a run started
  are listed in its registry (``registry``: one JSON line per step, the group's id and its leader's start time)
  and :func:`stop_leftovers` ends those still there when the run is resumed or reported.

  The death signal fires when the *thread* that forked the guard exits, not the process: the executor forks from
  the thread that calls :meth:`Executor.run_all`, and every caller in the flow calls it from the main thread (the
  regression's and the mutants' parallel jobs are one polling loop here, not a thread pool).

- **interrupts**: :meth:`Executor.signals` turns SIGINT, SIGTERM and SIGHUP (a closed terminal: handled like
  SIGTERM) into :meth:`Executor.stop`: every running group ends and no step starts after; :func:`raising_signals`
  makes the three raise :class:`Interrupted` instead, which ends every running step on its way out of
  :meth:`Executor.run_all`.

A process that is itself a step (the guard marks its command's environment, :data:`STEP_ENV`) starts its own
children plainly: its step's group already holds them (:func:`inside_step`; ``dlaverif.flow.runner`` asks it).

``python dlaverif/executor.py --guard PARENT_PID -- COMMAND...`` is the guard (:func:`_guard`).
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Callable, Iterator, Mapping, Optional, Sequence

OK, FAILED, TIMEOUT, KILLED, NOT_STARTED = "ok", "failed", "timeout", "killed", "not started"
#: a step's status: exit 0; another exit or a signal from elsewhere; past its limit; ended by :meth:`Executor.stop`;
#: never started (the executor was stopping)
STATUSES = (OK, FAILED, TIMEOUT, KILLED, NOT_STARTED)
KILL_GRACE_S = 5.0  # SIGTERM to SIGKILL
POLL_S = 0.05  # how often the running steps are looked at
HANDLED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)  # the orchestrator's signals that end its steps
GUARD = Path(__file__).resolve()
STEP_ENV = "FLOW_EXECUTOR_STEP"  # set by the guard for its command (and so for all below it): the guard's pid
_PR_SET_PDEATHSIG = 1


@dataclass
class Step:
    """One child process to run: ``command`` in ``cwd`` with ``env``, stdout and stderr into ``log`` (None: dropped,
    or kept in :attr:`Record.output` with ``capture``), ended after ``limit_s`` seconds (None: no limit).
    ``name`` and ``limit_name`` (the make variable or option that sets the limit) are what its one line says;
    ``prepare`` runs just before it starts (never for a step that does not start: e.g. its fresh folder);
    ``inherit``: the output goes to this process's own stdout and stderr instead (a terminal, make's output)."""

    name: str
    command: Sequence[str]
    limit_s: Optional[float] = None
    limit_name: str = ""
    cwd: Optional[Path] = None
    log: Optional[Path] = None
    capture: bool = False
    env: Optional[Mapping[str, str]] = None
    prepare: Optional[Callable[[], None]] = field(default=None, repr=False)
    inherit: bool = False


@dataclass
class Record:
    """What happened to a :class:`Step` (times: seconds since the epoch)."""

    name: str
    command: list[str]
    cwd: str
    start: float
    end: float
    status: str
    returncode: Optional[int]
    log: Optional[str]
    pgid: Optional[int]
    limit_s: Optional[float]
    limit_name: str = ""
    output: str = field(default="", repr=False)  # the captured output (``Step.capture``)

    @property
    def wall_s(self) -> float:
        return self.end - self.start

    def line(self) -> str:
        """One line: the step, how it ended and, for a timeout, the limit that ended it."""
        if self.status == TIMEOUT:
            var = f" ({self.limit_name})" if self.limit_name else ""
            return f"{self.name}: timeout: still running after {self.limit_s:.0f}s{var}, process group killed"
        if self.status == FAILED:
            return f"{self.name}: failed (exit {self.returncode})" + (f", see {self.log}" if self.log else "")
        return f"{self.name}: {self.status} ({self.wall_s:.0f}s)"

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("output")
        return d


class StepTimeout(RuntimeError):
    """A step that must succeed ran past its limit (the message is :meth:`Record.line`)."""


class Interrupted(KeyboardInterrupt):
    """SIGINT, SIGTERM or SIGHUP under :func:`raising_signals` (``signum``: which)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


# ---------------------------------------------------------------------------------------------- processes
def start_ticks(pid: int) -> Optional[int]:
    """The start time of process ``pid`` in clock ticks since boot (``/proc/<pid>/stat`` field 22), which tells a
    process from a later one that got the same pid; None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) ": field 3 onwards
    return int(fields[22 - 3])


def inside_step() -> bool:
    """True in a process an executor's step started (or below it): its step's group holds its children already."""
    return bool(os.environ.get(STEP_ENV))


def group_members(pgid: int) -> list[int]:
    """The live processes of process group ``pgid`` (zombies left out: they run nothing)."""
    out = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:  # fields 3 (state) and 5 (pgrp)
            out.append(int(entry.name))
    return out


def signal_group(pgid: int, sig: int) -> None:
    """``sig`` to the group, then SIGCONT (a stopped process acts on no signal but SIGKILL: it resumes with ``sig``
    pending, which acts at once; SIGCONT first would let it run on between the two); nothing when it is gone."""
    for s in (sig,) if sig == signal.SIGKILL else (sig, signal.SIGCONT):
        try:
            os.killpg(pgid, s)
        except (ProcessLookupError, PermissionError):
            return


def _die_with(parent: int) -> Callable[[], None]:
    """The ``preexec_fn`` of a guard: SIGTERM when the thread that forked it exits (``PR_SET_PDEATHSIG``), and at
    once when the parent is already gone (it died between the fork and the ``prctl``)."""

    def preexec() -> None:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)

    return preexec


@dataclass(frozen=True)
class Identity:
    """A process as a later reader can check it: pid, start time (:func:`start_ticks`) and host."""

    pid: int
    start: Optional[int]
    host: str

    @classmethod
    def me(cls) -> "Identity":
        return cls(os.getpid(), start_ticks(os.getpid()), socket.gethostname())

    def alive(self) -> Optional[bool]:
        """True while this very process runs; None when it ran on another host (it cannot be checked here)."""
        if self.host != socket.gethostname():
            return None
        return self.start is not None and start_ticks(self.pid) == self.start


def stop_leftovers(registry: Path) -> list[dict]:
    """End every process group of the ``registry`` (the lines :class:`Executor` appended) that still has a live
    process: SIGKILL (which a stopped process obeys too), and wait (up to a few seconds) until it is gone. A group
    counts as the registered one while its leader is the process registered (same start time) or is gone; a leader
    with the pid but another start time is a new process, and the old group is gone. Returns the entries that were
    ended."""
    if not registry.is_file():
        return []
    ended = []
    for raw in registry.read_text().splitlines():
        try:
            entry = json.loads(raw)
            pgid, start = int(entry["pgid"]), entry.get("start")
        except (ValueError, KeyError, TypeError):
            continue  # a line cut by the death of its writer
        now = start_ticks(pgid)
        if now is not None and now != start:
            continue
        if group_members(pgid):
            signal_group(pgid, signal.SIGKILL)
            _wait_gone(pgid, 3.0)
            ended.append(entry)
    return ended


def _ended(pid: int) -> bool:
    """True once child ``pid`` has ended, without collecting it (``waitid`` with ``WNOWAIT``)."""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


def _wait_gone(pgid: int, timeout_s: float) -> None:
    end = time.monotonic() + timeout_s
    while group_members(pgid) and time.monotonic() < end:
        time.sleep(0.02)


# ---------------------------------------------------------------------------------------------- the executor
@dataclass
class _Running:
    index: int
    step: Step
    proc: subprocess.Popen
    out: Optional[IO]
    t0: float
    start: float
    deadline: Optional[float]
    kill_at: Optional[float] = None
    status: str = ""  # TIMEOUT or KILLED once the executor has ended it


class Executor:
    """Runs :class:`Step` s (see the module's docstring); ``registry``: a file to list every group it starts in (a
    run folder's, for :func:`stop_leftovers`); ``grace_s``: SIGTERM to SIGKILL."""

    def __init__(self, registry: Optional[Path] = None, grace_s: float = KILL_GRACE_S) -> None:
        self.registry = registry
        self.grace_s = grace_s
        self.stopping = False
        self._running: dict[int, _Running] = {}

    def run(self, step: Step) -> Record:
        """Run one step to its end (see :meth:`run_all`)."""
        return self.run_all([step])[0]

    def run_all(
        self, steps: Sequence[Step], workers: int = 1, on_done: Optional[Callable[[int, Record], None]] = None
    ) -> list[Record]:
        """Run ``steps``, ``workers`` at a time in order, from this thread (which must outlive them: the death
        signal follows it); ``on_done(index, record)`` as each one ends. Their records, in the steps' order; after
        :meth:`stop` the steps not started are ``not started``. An exception (an :class:`Interrupted`) ends every
        running step's group before it propagates."""
        records: list[Optional[Record]] = [None] * len(steps)
        pending = deque(range(len(steps)))
        mine: dict[int, _Running] = {}
        try:
            while pending or mine:
                while pending and len(mine) < max(1, workers) and not self.stopping:
                    r = self._start(pending.popleft(), steps)
                    mine[r.proc.pid] = self._running[r.proc.pid] = r
                if self.stopping:
                    while pending:
                        i = pending.popleft()
                        records[i] = self._not_started(steps[i])
                        if on_done is not None:
                            on_done(i, records[i])  # type: ignore[arg-type]
                now = time.monotonic()
                for pid, r in list(mine.items()):
                    if not _ended(pid):
                        self._check(r, now)
                        continue
                    del mine[pid]
                    self._running.pop(pid, None)
                    rec = self._finish(r)
                    records[r.index] = rec
                    if on_done is not None:
                        on_done(r.index, rec)
                if mine:
                    time.sleep(POLL_S)
        except BaseException:
            for pid, r in mine.items():
                self._running.pop(pid, None)
                signal_group(pid, signal.SIGKILL)
                r.proc.wait()
                _wait_gone(pid, 2.0)
                if r.out is not None:
                    r.out.close()
            raise
        return [r for r in records if r is not None]

    def stop(self) -> None:
        """End every running step's group (SIGTERM and SIGCONT, SIGKILL after the grace) and start no other one."""
        self.stopping = True
        now = time.monotonic()
        for r in list(self._running.values()):
            if not r.status:
                r.status = KILLED
                signal_group(r.proc.pid, signal.SIGTERM)
                r.kill_at = now + self.grace_s

    @contextmanager
    def signals(self, announce: Optional[Callable[[int], None]] = None) -> Iterator[list[int]]:
        """SIGINT, SIGTERM and SIGHUP call :meth:`stop` (``announce(signum)`` first) inside the block; yields the
        list of the signals received. Handlers can be set in the main thread only, where the flow runs."""
        received: list[int] = []

        def handler(signum: int, frame: object) -> None:
            if announce is not None:
                announce(signum)
            received.append(signum)
            self.stop()

        previous = {sig: signal.signal(sig, handler) for sig in HANDLED}
        try:
            yield received
        finally:
            for sig, old in previous.items():
                signal.signal(sig, old)

    # ------------------------------------------------------------------------------------------ internals
    def _start(self, index: int, steps: Sequence[Step]) -> _Running:
        step = steps[index]
        if step.prepare is not None:
            step.prepare()
        out: Optional[IO] = None
        if step.inherit:
            pass
        elif step.log is not None:
            step.log.parent.mkdir(parents=True, exist_ok=True)
            out = open(step.log, "wb")
        elif step.capture:
            out = tempfile.TemporaryFile()
        else:
            out = open(os.devnull, "wb")
        me = os.getpid()
        try:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-S", str(GUARD), "--guard", str(me), "--", *step.command],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=None if out is None else subprocess.STDOUT,
                cwd=step.cwd,
                env=None if step.env is None else dict(step.env),
                start_new_session=True,
                preexec_fn=_die_with(me),
            )
        except BaseException:
            if out is not None:
                out.close()
            raise
        t0 = time.monotonic()
        if self.registry is not None:
            line = {"name": step.name, "pgid": proc.pid, "start": start_ticks(proc.pid), "command": list(step.command)}
            with open(self.registry, "a") as fh:
                fh.write(json.dumps(line) + "\n")
        deadline = None if step.limit_s is None else t0 + step.limit_s
        return _Running(index, step, proc, out, t0, time.time(), deadline)

    def _check(self, r: _Running, now: float) -> None:
        """A step still running: past its limit, SIGTERM to its group; past the grace, SIGKILL."""
        if not r.status and r.deadline is not None and now >= r.deadline:
            r.status = TIMEOUT
            signal_group(r.proc.pid, signal.SIGTERM)
            r.kill_at = now + self.grace_s
        elif r.kill_at is not None and now >= r.kill_at:
            signal_group(r.proc.pid, signal.SIGKILL)
            r.kill_at = None

    def _finish(self, r: _Running) -> Record:
        """The leader ended (not yet collected, so its pid, the group's id, is not free for another process):
        whatever is left of its group is killed (nothing of a step outlives it), then it is collected and recorded."""
        signal_group(r.proc.pid, signal.SIGKILL)
        rc = r.proc.wait()
        if r.status:
            _wait_gone(r.proc.pid, 2.0)
        output = ""
        if r.out is not None and r.step.capture and r.step.log is None:
            r.out.seek(0)
            output = r.out.read().decode(errors="replace")
        if r.out is not None:
            r.out.close()
        # a step that ended by itself, and well, as it was being stopped is kept: it is not an interrupted one
        status = r.status if r.status and not (r.status == KILLED and rc == 0) else (OK if rc == 0 else FAILED)
        return Record(
            r.step.name,
            list(r.step.command),
            str(r.step.cwd or os.getcwd()),
            r.start,
            r.start + (time.monotonic() - r.t0),
            status,
            rc,
            None if r.step.log is None else str(r.step.log),
            r.proc.pid,
            r.step.limit_s,
            r.step.limit_name,
            output,
        )

    def _not_started(self, step: Step) -> Record:
        now = time.time()
        return Record(
            step.name,
            list(step.command),
            str(step.cwd or os.getcwd()),
            now,
            now,
            NOT_STARTED,
            None,
            None,
            None,
            step.limit_s,
            step.limit_name,
        )


def check(record: Record) -> Record:
    """``record`` of a step that must succeed: raises :class:`StepTimeout` (its one line) past its limit and
    :class:`subprocess.CalledProcessError` (with the captured output) when it failed."""
    if record.status == TIMEOUT:
        raise StepTimeout(record.line())
    if record.status != OK:
        raise subprocess.CalledProcessError(
            record.returncode if record.returncode is not None else -1, record.command, record.output, record.output
        )
    return record


@contextmanager
def raising_signals() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP raise :class:`Interrupted` inside the block (the way Ctrl-C raises
    KeyboardInterrupt), so that :meth:`Executor.run_all` ends the running steps on its way out."""

    def handler(signum: int, frame: object) -> None:
        raise Interrupted(signum)

    previous = {sig: signal.signal(sig, handler) for sig in HANDLED}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


# ---------------------------------------------------------------------------------------------- the guard
def _guard(parent: int, command: list[str]) -> int:
    """The leader of a step's session: runs ``command`` in its own group and ends as it ended (the same exit code,
    or the same signal). SIGTERM or SIGHUP while ``parent`` (the orchestrator) lives is the executor ending the
    group, which reaches the command too: the guard waits for it. Once the orchestrator is gone (the death signal,
    SIGTERM) the guard SIGKILLs the whole group, itself included."""

    def orphaned() -> bool:
        return os.getppid() != parent

    def on_signal(signum: int, frame: object) -> None:
        if orphaned():
            signal_group(0, signal.SIGKILL)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    if orphaned():  # the orchestrator died before the handlers were set
        signal_group(0, signal.SIGKILL)
    try:
        child = subprocess.Popen(command, env={**os.environ, STEP_ENV: str(os.getpid())})
    except OSError as exc:
        print(f"executor: cannot run {command[0]}: {exc.strerror or exc}", file=sys.stderr, flush=True)
        return 127
    rc = child.wait()
    if rc >= 0:
        return rc
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # the same signal, without a core file
    if -rc != signal.SIGKILL:  # (its action cannot be set, nor needs to be)
        signal.signal(-rc, signal.SIG_DFL)
    os.kill(os.getpid(), -rc)
    return 128 - rc


if __name__ == "__main__":
    if sys.argv[1:2] != ["--guard"] or len(sys.argv) < 5 or sys.argv[3] != "--":
        print("usage: python dlaverif/executor.py --guard PARENT_PID -- COMMAND...", file=sys.stderr)
        sys.exit(2)
    sys.exit(_guard(int(sys.argv[2]), sys.argv[4:]))
