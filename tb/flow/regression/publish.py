"""Reports written safely: built in a temporary folder beside the old one, then swapped in with one atomic
``renameat2(RENAME_EXCHANGE)`` (a plain rename where there is no old one). A failure while building (a full disk, a
genhtml error) removes the partial folder, leaves the previous report as it was and raises :class:`ReportError`
whose message is the one line to print ("No space left on device" when that is the cause).
"""

from __future__ import annotations

import ctypes
import errno
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


class ReportError(RuntimeError):
    """The report could not be written (the message says why, in one line)."""


def cause(exc: BaseException) -> str:
    """One line naming why building a report failed."""
    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if exc.filename else ""
        return f"{os.strerror(exc.errno) if exc.errno else exc}{where}"
    if isinstance(exc, subprocess.CalledProcessError):
        out = exc.stderr or exc.stdout or ""
        out = out.decode(errors="replace") if isinstance(out, bytes) else out
        tool = Path(str(exc.cmd[0] if isinstance(exc.cmd, (list, tuple)) else exc.cmd)).name
        space = os.strerror(errno.ENOSPC)
        if space in out:
            return f"{space} ({tool} failed, exit {exc.returncode})"
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


def swap_in(out: Path, build: Callable[[Path], T]) -> T:
    """Run ``build(folder)`` on a new temporary folder beside ``out``, then put that folder in place of ``out``
    (the old one is removed after the swap); on any failure nothing of the new one stays and ``out`` is untouched."""
    out = Path(os.path.abspath(out))
    out.parent.mkdir(parents=True, exist_ok=True)
    new = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    try:
        new.chmod(0o755)
        result = build(new)
        if out.is_symlink() or out.is_file():
            out.unlink()
        if not out.exists():
            os.rename(new, out)
            return result
        if not _exchange(new, out):  # no renameat2: two renames (the old report stays whole until the second)
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
            os.rename(out, old / out.name)
            os.rename(new, out)
            shutil.rmtree(old, ignore_errors=True)
            return result
    except Exception as exc:
        shutil.rmtree(new, ignore_errors=True)
        raise ReportError(f"report not written to {out}: {cause(exc)}; the previous report is unchanged") from exc
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    shutil.rmtree(new, ignore_errors=True)  # the old report, swapped out
    return result
