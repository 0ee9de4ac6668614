"""What every mismatch report shares: the run's seed, the command that reproduces a test, bytes in hex."""

from __future__ import annotations

import hashlib
import os
from typing import Optional

import cocotb
import numpy as np
from pyuvm import ConfigDB

JOBLOG = os.getenv("JOBLOG", "0") not in ("", "0")  # JOBLOG=1: one INFO line per job
MAX_REPORTS = 20  # detailed mismatch reports per run; later ones are counted and summarised


def max_maps() -> int:
    """``MISMATCH_MAPS``: the mismatch maps (SVG) per test, 3 when unset, 0 none. Read when a map is drawn, not when
    this package is imported: the flow imports it too, and refuses a bad value with one line itself
    (dlaverif.flow.regression.settings), which a failed ``int()`` at import time would have turned into a traceback."""
    return int(os.getenv("MISMATCH_MAPS", "").strip() or 3)


def regression_seed() -> int:
    """The run's COCOTB_RANDOM_SEED (cocotb 2 gives each test ``RANDOM_SEED = run seed + sha1(test name)``)."""
    env = os.getenv("COCOTB_RANDOM_SEED", "").strip()
    if env:
        return int(env)
    test = ConfigDB().get(None, "", "TEST_FULLNAME", "")
    return cocotb.RANDOM_SEED - int(hashlib.sha1(test.encode()).hexdigest(), 16) if test else cocotb.RANDOM_SEED


def build_parameters() -> dict[str, str]:
    """The parameters the running build was compiled with, by name (the flow passes each as ``PARAM_<name>``,
    dlaverif/flow/runner.py): whatever the block calls them."""
    return {k.removeprefix("PARAM_"): v for k, v in sorted(os.environ.items()) if k.startswith("PARAM_")}


def reproduce_command() -> str:
    """The command line that reruns this test with the same seed (hence the same stimulus); with the suite and
    run when the testplan entry names them (``PLAN_SUITE``, ``PLAN_RUN``: such entries fix COUNT, so only that
    suite's run repeats the stimulus) or the make command that ran it did (``SUITE``, ``RUN``, each when set; no
    variable to set by hand); every configuration of the matrix names ``SUITE=configs RUN=<run>@<config>``,
    and a random draw its ``CONFIG_SEED``, so the command rebuilds that configuration), and the parameters of the
    build it ran on (:func:`build_parameters`)."""
    sim = (cocotb.SIM_NAME or "").lower()
    sim = "icarus" if "icarus" in sim else "verilator" if "verilator" in sim else sim
    test = ConfigDB().get(None, "", "TEST_NAME", "<test>")
    extra = ""
    for var in ("COUNT", "COUNT_SCALE", "LARGE", "CONFIG_SEED"):
        if os.getenv(var, "").strip():
            extra += f" {var}={os.environ[var]}"
    params = build_parameters()
    suite = f"  (the build with {', '.join(f'{k}={v}' for k, v in params.items())})" if params else ""
    # the suite and run the plan's entry names, else those the user's make command selected (make exports SUITE
    # and RUN into the simulation's environment): the rerun selects the same run with the same COUNT
    suite_name = os.getenv("PLAN_SUITE", "").strip() or os.getenv("SUITE", "").strip()
    run_name = os.getenv("PLAN_RUN", "").strip() or os.getenv("RUN", "").strip()
    where = "".join(f"{k}={v} " for k, v in (("SUITE", suite_name), ("RUN", run_name)) if v)
    return f"make sim {where}SIM={sim} TESTCASE={test} SEED={regression_seed()}{extra}{suite}"


def hex_bytes(b: bytes | np.ndarray, mark: Optional[int] = None) -> str:
    """Bytes in address order, 4 per group; byte ``mark`` (the first difference) in brackets."""
    cells = [f"[{v:02x}]" if i == mark else f"{v:02x}" for i, v in enumerate(bytes(b))]
    return " ".join("".join(cells[i : i + 4]) for i in range(0, len(cells), 4))
