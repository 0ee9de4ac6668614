"""How the regression tests start ``python -m dlaverif.flow.regression`` (what make regress / make report run): one
place for the command and for a run kept to itself, so no test writes into the project's report, ``latest`` or
history."""

from __future__ import annotations

import sys
from pathlib import Path

#: the command line of ``make regress`` / ``make report`` without make
REGRESSION = [sys.executable, "-m", "dlaverif.flow.regression"]


def own_run(
    folder: Path, *args: str, sim: str = "verilator", suite: str = "smoke", name: str = "", history: Path | None = None
) -> list[str]:
    """The arguments of a ``run`` of ``sim``'s ``suite`` kept to ``folder``: the run in ``reg{name}``, its report
    in ``report{name}`` and its history in ``history`` (default ``folder/history``), then ``args``."""
    return [
        "run",
        f"--sim={sim}",
        f"--suite={suite}",
        f"--out={folder / f'reg{name}'}",
        f"--report-dir={folder / f'report{name}'}",
        f"--history={history or folder / 'history'}",
        *args,
    ]
