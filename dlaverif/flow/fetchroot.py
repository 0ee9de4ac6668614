"""Fetch a third-party root's pinned files (``python -m dlaverif.flow.fetchroot <VAR>``; this repository's
``make nvdla``): the root as the project's plan declares it (``blocks.<block>.roots.<VAR>``, docs/architecture.md)
says everything, so nothing here names a project.

* the lock: the root's ``lock`` (the pin: repository, each file's commit and SHA-256), ``--lock`` overrides it;
* the destination: the root's first default (inside the project, e.g. ``sim_build/...``), which is then found first;
* the local copies tried before git (unless ``--no-local``): the variable's value when set, then the root's other
  defaults;
* the repository: ``--url``, else ``<VAR>_URL`` in the environment, else the lock's.

The fetch itself (:mod:`dlaverif.thirdparty.fetch`) checks every file and writes nothing half-done. Exit 0 when the
destination holds every pinned file, 2 with one line otherwise (an unknown root, a root with no lock or no default).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Optional

from dlaverif.flow import project, testplan
from dlaverif.flow.planschema import Refusal
from dlaverif.thirdparty import fetch


def url_var(name: str) -> str:
    """The environment variable naming a mirror of root ``name``'s repository."""
    return f"{name}_URL"


def main(argv: Optional[list[str]] = None) -> int:
    """Fetch the root named on the command line (the module's docstring)."""
    ap = argparse.ArgumentParser(prog="python -m dlaverif.flow.fetchroot", description=__doc__.split("\n\n")[0])
    ap.add_argument("root", help="the root's variable, as the plan's blocks.<block>.roots names it")
    ap.add_argument("--lock", type=Path, help="another pin (default: the root's lock)")
    ap.add_argument("--url", default="", help="the git repository (default: $<VAR>_URL, else the lock's)")
    ap.add_argument("--no-local", action="store_true", help="fetch with git only (no $<VAR>, no other default)")
    a = ap.parse_args(argv)
    try:
        roots = testplan.load().roots
    except Refusal as exc:
        print(exc, file=sys.stderr)
        return 2
    root = roots.get(a.root)
    prog = root.get.split(" (")[0] if root is not None and root.get else f"fetch {a.root}"
    if root is None or not root.defaults or (a.lock is None and not root.lock):
        why = (
            f"no root {a.root} in the plan (roots: {', '.join(roots) or 'none'})"
            if root is None
            else f"the plan's root {a.root} has no {'defaults' if not root.defaults else 'lock'}"
        )
        print(f"{prog}: {why}", file=sys.stderr)
        return 2
    value = os.environ.get(a.root, "").strip()
    local = [] if a.no_local else [*([Path(value)] if value else []), *(project.ROOT / d for d in root.defaults[1:])]
    mirror = url_var(a.root)
    args = ["--dest", str(project.ROOT / root.defaults[0]), "--lock", str(a.lock or project.ROOT / str(root.lock))]
    args += [x for p in local for x in ("--local", str(p))]
    args += ["--url", a.url.strip() or os.environ.get(mirror, "").strip()]
    return fetch.main(args, prog, f"{a.root}=<{root.means}> or {mirror}=<a mirror>")


if __name__ == "__main__":
    sys.exit(main())
