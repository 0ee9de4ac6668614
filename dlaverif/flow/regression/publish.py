"""Reports written safely: built in a temporary folder beside the old one, then swapped in with one atomic
``renameat2(RENAME_EXCHANGE)`` (a plain rename where there is no old one). A failure while building (a full disk, a
genhtml error) removes the partial folder, leaves the previous report as it was and raises :class:`ReportError`
whose message is the one line to print ("No space left on device" when that is the cause).

Putting a report in place (the exchange, then what goes with it: the history entry, the ``latest`` link, the run's
state) is one step that an interrupt cannot cut in two: SIGINT, SIGTERM and SIGHUP received during it are held
(:func:`signals_deferred`) and act when it is done. Building the report (the long part: coverage merges, genhtml)
can be interrupted; then nothing of the new report stays.
"""

from __future__ import annotations

import ctypes
import errno
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Optional, TypeVar

from dlaverif import executor
from dlaverif.flow import records

T = TypeVar("T")
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
_HELD = executor.HANDLED  # SIGINT, SIGTERM and SIGHUP (a closed terminal, as SIGTERM)
#: a report that failed to build on a file system with less room than this (MB) failed for the full disk
FULL_MB = 1.0


class ReportError(RuntimeError):
    """The report could not be written (the message says why, in one line)."""


def cause(exc: BaseException, folder: Optional[Path] = None) -> str:
    """One line naming why building a report failed; a full disk names ``folder`` (where the report was being
    written), its file system and the room left there (:func:`dlaverif.flow.records.space_line`)."""
    if isinstance(exc, OSError):
        if exc.errno in records.SPACE_ERRNOS and folder is not None:
            return records.space_line(exc.errno, folder)
        if isinstance(exc, records.WriteError):
            return str(exc)
        where = f" ({exc.filename})" if exc.filename else ""
        return f"{os.strerror(exc.errno) if exc.errno else exc}{where}"
    if isinstance(exc, executor.StepTimeout):
        return str(exc)
    if isinstance(exc, subprocess.CalledProcessError):
        out = exc.stderr or exc.stdout or ""
        out = out.decode(errors="replace") if isinstance(out, bytes) else out
        tool = Path(str(exc.cmd[0] if isinstance(exc.cmd, (list, tuple)) else exc.cmd)).name
        space = os.strerror(errno.ENOSPC)
        if space in out:
            where = records.space_line(errno.ENOSPC, folder) if folder is not None else space
            return f"{where} ({tool} failed, exit {exc.returncode})"
        last = next((ln.strip() for ln in reversed(out.splitlines()) if ln.strip()), "no output")
        return f"{tool} failed (exit {exc.returncode}): {last[:200]}"
    return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders atomically; False where the kernel or file system cannot."""
    libc = ctypes.CDLL(None, use_errno=True)
    fn = getattr(libc, "renameat2", None)
    if fn is None:
        return False
    rc = fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return rc == 0


@contextmanager
def signals_deferred() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP held back until the block ends: received meanwhile, each is raised again then, for the
    handler that was in place (Python runs signal handlers in the main thread only; elsewhere nothing is held)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = {sig: signal.signal(sig, lambda signum, frame: held.append(signum)) for sig in _HELD}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for signum in dict.fromkeys(held):
            signal.raise_signal(signum)


def _put_in_place(new: Path, out: Path) -> Optional[Path]:
    """Make ``new`` the folder ``out``; returns the folder that now holds the old report (to remove), if any."""
    if out.is_symlink() or out.is_file():
        out.unlink()
    if not out.exists():
        os.rename(new, out)
        return None
    if _exchange(new, out):
        return new  # new now holds the old report
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))  # no renameat2: two renames
    os.rename(out, old / out.name)
    os.rename(new, out)
    return old


def swap_in(out: Path, build: Callable[[Path], T], after: Optional[Callable[[T], None]] = None) -> T:
    """Run ``build(folder)`` on a new temporary folder beside ``out``, then put that folder in place of ``out``
    (the old one is removed after the swap); on any failure or interrupt while building nothing of the new one stays
    and ``out`` is untouched. ``after(result)`` runs right after the swap, in the same step that signals do not cut
    (:func:`signals_deferred`): what must be published with the report (an exception from it propagates; the
    report is in place)."""
    out = Path(os.path.abspath(out))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        new = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    except OSError as exc:
        raise ReportError(
            f"report not written to {out}: {cause(exc, out.parent)}; the previous report is unchanged"
        ) from None
    stale: Optional[Path] = new  # what to remove at the end: the new folder until it is in place, then the old one
    placed = False
    try:
        new.chmod(0o755)
        result = build(new)
        with signals_deferred():
            stale = _put_in_place(new, out)
            placed = True
            if after is not None:
                after(result)
    except records.BadRecord:
        raise  # an input that cannot be read (a manifest): the caller's one line, exit 2
    except Exception as exc:
        if not placed:
            why = cause(exc, out.parent)
            if not records.is_space_error(exc) and records.free_mb(out.parent) < FULL_MB:
                # a tool that does not check its writes (verilator_coverage) leaves a cut file, and the next one
                # fails on it (genhtml: "no valid records"): the full disk is the cause to name first
                why = f"{records.space_line(errno.ENOSPC, out.parent)}; then {why}"
            raise ReportError(f"report not written to {out}: {why}; the previous report is unchanged") from exc
        raise
    finally:
        if stale is not None:
            shutil.rmtree(stale, ignore_errors=True)
    return result
