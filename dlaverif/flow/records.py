"""Records written whole or not at all, and read back without trusting them.

Every record the flow keeps on disk (a job's ``job.json``, a run's ``state.json`` and ``manifest.json``, the builds'
``status.json``/``inputs.json`` and ``build-inputs.json``, history entries, a report's ``results.json`` and summary,
a Slurm resume's job list, the mutation report) is written by :func:`write_bytes` (or :func:`write_text`,
:func:`write_json` on top of it): a temporary file in the record's own folder, written, flushed and fsynced, then
``os.replace``\\ d over the record. A full disk, a crash or a kill therefore leaves the old record or the new one,
never a 0-byte or half-written one. A write that fails raises :class:`WriteError` (an :class:`OSError`) whose message
is the one line to print: what failed, the folder, and how much space its file system has left, e.g.
``No space left on device: sim_build/regress/<run>/runs/... (/work has 0.0 MB free)``.

:func:`read_json` reads a record back and checks its shape: one that cannot be read (0 bytes, truncated, not JSON, not
the expected shape) raises :class:`BadRecord`, whose message names the file and what is wrong with it.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable, Optional

#: errors that mean "the file system has no room", whatever the write was
SPACE_ERRNOS = (errno.ENOSPC, errno.EDQUOT)
_UMASK = os.umask(0)
os.umask(_UMASK)  # read once (os.umask can only be read by setting it): a record gets the mode a plain write gives


class WriteError(OSError):
    """A record (or any file of a run) could not be written; ``str()`` is the one line that says why and where."""

    def __init__(self, cause: OSError, path: Path) -> None:
        super().__init__(cause.errno, cause.strerror or str(cause), str(path))
        self.line = describe(cause, path)

    def __str__(self) -> str:
        return self.line


class BadRecord(ValueError):
    """A record that cannot be read back (the message names the file and what is wrong with it)."""


def _existing(path: Path) -> Path:
    """``path``'s nearest folder that exists (the one whose file system a failed write was on)."""
    p = Path(os.path.abspath(path))
    while not p.is_dir() and p != p.parent:
        p = p.parent
    return p


def mount_point(path: Path) -> Path:
    """The mount point of the file system ``path`` (or its nearest existing folder) is on."""
    p = _existing(path)
    while not os.path.ismount(p) and p != p.parent:
        p = p.parent
    return p


def free_mb(path: Path) -> float:
    """Megabytes (10^6 bytes) free for this user on the file system of ``path``."""
    return shutil.disk_usage(_existing(path)).free / 1e6


def space_line(code: int, path: Path) -> str:
    """``<strerror>: <folder> (<mount> has N MB free)`` for a write into ``path`` that failed with ``code``."""
    folder = _existing(path if path.is_dir() else path.parent)
    try:
        room = f"{mount_point(folder)} has {free_mb(folder):.1f} MB free"
    except OSError:
        room = "free space unknown"
    return f"{os.strerror(code)}: {folder} ({room})"


def describe(exc: BaseException, path: Optional[Path] = None) -> str:
    """One line naming why a write failed: for a full disk or quota :func:`space_line`, otherwise the error and the
    file (``path``, or the one the error names)."""
    if isinstance(exc, WriteError):
        return exc.line
    if isinstance(exc, OSError):
        where = path if path is not None else Path(exc.filename) if exc.filename else None
        if exc.errno in SPACE_ERRNOS and where is not None:
            return space_line(exc.errno, where)
        text = os.strerror(exc.errno) if exc.errno else str(exc)
        return f"{text}: {where}" if where is not None else text
    return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"


def is_space_error(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and exc.errno in SPACE_ERRNOS


def _write_all(fh: Any, data: bytes) -> None:
    """Write ``data`` to the open temporary file and push it to the disk (the step a full disk makes fail)."""
    fh.write(data)
    fh.flush()
    os.fsync(fh.fileno())


def write_bytes(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` whole or not at all (see the module's docstring); :class:`WriteError` on failure,
    and then ``path`` is as it was and no temporary file is left."""
    path = Path(path)
    tmp: Optional[str] = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            _write_all(fh, data)
        os.chmod(tmp, 0o666 & ~_UMASK)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        if isinstance(exc, WriteError):
            raise
        raise WriteError(exc, path) from exc
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return path


def write_text(path: Path, text: str) -> Path:
    """:func:`write_bytes` of ``text`` in UTF-8."""
    return write_bytes(path, text.encode("utf-8"))


def write_json(path: Path, obj: object, **dumps: Any) -> Path:
    """:func:`write_bytes` of ``json.dumps(obj, **dumps)``."""
    return write_text(path, json.dumps(obj, **dumps))


def read_json(path: Path, check: Callable[[Any], bool] = lambda v: isinstance(v, dict), what: str = "record") -> Any:
    """The JSON record at ``path``, if ``check(value)`` holds; else :class:`BadRecord` naming the file and the fault
    (0 bytes, not JSON, not the expected shape). A missing file raises FileNotFoundError as usual."""
    path = Path(path)
    data = path.read_bytes()
    if not data.strip():
        raise BadRecord(f"{path}: empty ({len(data)} bytes)")
    try:
        value = json.loads(data)
    except ValueError as exc:
        raise BadRecord(f"{path}: not JSON, truncated or corrupt ({str(exc).splitlines()[0][:80]})") from None
    try:
        ok = check(value)
    except (KeyError, TypeError, ValueError, AttributeError):
        ok = False
    if not ok:
        raise BadRecord(f"{path}: not a {what} (wrong shape)")
    return value
