"""Third-party files exactly as a lock pins them (repository, per-file branch and commit, SHA-256) into a folder:
the mechanism behind ``make nvdla`` (whose project gives the lock, the destination and the local copies from its
plan's root: :mod:`dlaverif.flow.fetchroot`). Standard library only.

Each file of the lock is taken from the first place that has it:

1. local copies (``local``: e.g. a checkout named by the root's variable, then the root's other defaults);
2. git: the files still missing, per commit, from the repository of the lock (``url`` overrides it, e.g. a mirror
   or a local repository): ``git fetch --depth 1 --filter=blob:none <url> <commit>`` then a checkout of the listed
   paths only.

Every file is checked against its SHA-256 in the lock: one that differs is refused (exit 2, one line naming the
file and both digests). The files are written into a temporary folder beside the destination and renamed into
place only when all of them are there and checked, so a refusal or a failure leaves nothing half-written; a
destination that already holds the pinned files is left as it is ("up to date"), and one holding a file that
differs from the pin or that the lock does not list is never overwritten (exit 2: remove it first). The lock's
licence file is one of the files, kept beside them. Without network the git step fails with one line saying so
(exit 2). Each git call is a step of :mod:`dlaverif.executor`, like every child process of the flow: ended with its
whole process group after :data:`GIT_TIMEOUT_S` (one line, exit 2) and when the fetch itself dies.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Optional, Sequence

from dlaverif import executor

#: one git call's wall-clock limit: a shallow fetch of the few pinned files takes seconds; ten minutes only ends one
#: that hangs (a network that drops packets silently, a stopped git)
GIT_TIMEOUT_S = 600.0
#: the end of a refusal for want of network: what can be done instead (``instead`` of :func:`fetch`)
ANOTHER_WAY = "a local copy or a mirror (--url)"


class Refused(Exception):
    """A fetch that cannot complete: its message is the one line printed (exit 2)."""


def digest(path: Path) -> str:
    """The SHA-256 of a file, hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_lock(path: Path) -> dict:
    """The lock's content (Refused when it is missing or not a lock)."""
    try:
        lock = json.loads(path.read_text())
        files = lock["files"]
        if not isinstance(files, dict) or not all("sha256" in f and "commit" in f for f in files.values()):
            raise KeyError("files")
        return lock
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise Refused(f"{path}: not a lock of NVIDIA's files ({type(exc).__name__}: {exc})") from None


def _git(args: list[str], cwd: Path, instead: str = ANOTHER_WAY) -> executor.Record:
    """One git call, a step of :mod:`dlaverif.executor`: its own process group, ended after :data:`GIT_TIMEOUT_S`
    (a fetch that hangs on a silent network, or a stopped git, is killed with its children: ``git-remote-https``
    included) and when ``make nvdla`` dies; its output (stdout and stderr) in ``output``."""
    if shutil.which("git") is None:
        raise Refused("git is not installed: install it (apt-get install git), or get the files another way")
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}  # never wait for a password: a private or wrong URL fails
    step = executor.Step(f"git {args[0]}", ["git", *args], GIT_TIMEOUT_S, cwd=cwd, capture=True, env=env)
    rec = executor.Executor().run(step)
    if rec.status == executor.TIMEOUT:
        raise Refused(f"{rec.line()} (no network?); get the files another way: {instead}")
    return rec


def _last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("warning:")]
    return lines[-1] if lines else "no message"


def git_fetch(url: str, commit: str, paths: list[str], into: Path, work: Path, instead: str = ANOTHER_WAY) -> None:
    """Copy ``paths`` of ``commit`` of the repository at ``url`` into ``into`` (their relative paths kept): a shallow,
    blob-less fetch of that one commit into ``work``, then a checkout of the listed paths only."""
    repo = work / commit
    repo.mkdir(parents=True)
    for args in (["init", "-q"], ["remote", "add", "origin", url]):
        _git(args, repo, instead)
    got = _git(["fetch", "-q", "--depth", "1", "--filter=blob:none", "origin", commit], repo, instead)
    if got.returncode != 0:
        raise Refused(
            f"cannot fetch {url} at {commit} (no network?): {_last_line(got.output)}; "
            f"get the files another way: {instead}"
        )
    out = _git(["checkout", "-q", commit, "--", *paths], repo)
    if out.returncode != 0:
        raise Refused(f"{url} at {commit}: {_last_line(out.output)}")
    for rel in paths:
        (into / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(repo / rel, into / rel)


def _check_destination(dest: Path, files: dict[str, dict]) -> bool:
    """True when ``dest`` holds every pinned file unchanged; False when it is absent or only lacks files. Refused
    when it holds a file that differs from the pin or that the lock does not list (never overwritten)."""
    if not dest.exists():
        return False
    if not dest.is_dir():
        raise Refused(f"{dest} exists and is not a folder: remove it to fetch NVIDIA's files there")
    complete = True
    for path in sorted(p for p in dest.rglob("*") if not p.is_dir()):
        rel = path.relative_to(dest).as_posix()
        if rel not in files:
            raise Refused(f"{path} is not a file of the lock: remove {dest} to fetch again")
        if digest(path) != files[rel]["sha256"]:
            raise Refused(f"{path} was changed (sha256 {digest(path)}, pinned {files[rel]['sha256']}): remove {dest}")
    for rel in files:
        complete = complete and (dest / rel).is_file()
    return complete


def fetch(
    dest: Path, lock_path: Path, url: Optional[str] = None, local: Sequence[Path] = (), instead: str = ANOTHER_WAY
) -> str:
    """Put every file of the lock into ``dest``, checked (see the module); returns the line that says where each came
    from. ``local``: the local copies to try first (none: git only); ``url``: the repository (default the lock's);
    ``instead``: what a refusal for want of network says can be done instead."""
    lock = load_lock(lock_path)
    files: dict[str, dict] = lock["files"]
    if _check_destination(dest, files):
        return f"{dest} is up to date ({len(files)} files, as {lock_path.name} pins them)"
    sources = list(local)
    url = url or lock["repository"]
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    mask = os.umask(0)
    os.umask(mask)
    staging.chmod(0o777 & ~mask)  # mkdtemp's folder is private; the destination gets a plain folder's mode
    try:
        origin: dict[str, str] = {}
        for rel in files:
            src = next((s / rel for s in sources if (s / rel).is_file()), None)
            if src is not None:
                (staging / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, staging / rel)
                origin[rel] = str(src)[: -len(rel) - 1]
        by_commit: dict[str, list[str]] = {}
        for rel, pin in files.items():
            if rel not in origin:
                by_commit.setdefault(pin["commit"], []).append(rel)
        if by_commit:
            work = Path(tempfile.mkdtemp(prefix=".git-", dir=dest.parent))
            try:
                for commit, paths in sorted(by_commit.items()):
                    git_fetch(url, commit, paths, staging, work, instead)
                    origin.update({rel: f"{url}@{commit[:12]}" for rel in paths})
            finally:
                shutil.rmtree(work, ignore_errors=True)
        for rel, pin in files.items():
            got = digest(staging / rel)
            if got != pin["sha256"]:
                raise Refused(
                    f"refused: {rel} from {origin[rel]} has sha256 {got}, {lock_path.name} pins {pin['sha256']}"
                )
        if dest.exists():  # only pinned files, unchanged, some missing (checked above): replaced whole
            old = Path(tempfile.mkdtemp(prefix=f".{dest.name}.old.", dir=dest.parent))
            dest.rename(old / dest.name)
            staging.rename(dest)
            shutil.rmtree(old, ignore_errors=True)
        else:
            staging.rename(dest)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    counts: dict[str, int] = {}
    for where in origin.values():
        counts[where] = counts.get(where, 0) + 1
    said = ", ".join(f"{n} from {where}" for where, n in counts.items())
    return f"{len(files)} files checked against {lock_path.name} into {dest} ({said})"


def main(
    argv: Optional[list[str]] = None, prog: str = "python -m dlaverif.thirdparty.fetch", instead: str = ANOTHER_WAY
) -> int:
    """Exit 0 when the destination holds every pinned file, 2 with one line (``prog: ...``) otherwise; ``instead``:
    what a refusal for want of network says can be done instead."""
    ap = argparse.ArgumentParser(prog=prog, description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--dest", type=Path, required=True, help="where the files go")
    ap.add_argument("--lock", type=Path, required=True, help="the pin (JSON: repository, files with commit, sha256)")
    ap.add_argument("--local", type=Path, action="append", default=[], help="a local copy to take files from first")
    ap.add_argument("--url", default="", help="the git repository (default: the lock's)")
    a = ap.parse_args(argv)
    try:
        print(f"{prog}: {fetch(a.dest, a.lock, a.url.strip() or None, a.local, instead)}")
    except Refused as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a destination that cannot be written
        print(f"{prog}: {exc.filename or a.dest}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
