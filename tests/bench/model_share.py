"""`make bench`: the models' share of a regression's time, from a sampling profile.

The smoke regression on Verilator (``python -m dlaverif.flow.regression run --suite smoke --seeds 1``, its own folder
under ``sim_build/bench/model-share/``, plain builds) runs under py-spy (``record --subprocesses``, raw output). Every
sample of every process counts once; a sample is the models' when one of its Python frames is in the ``models``
package (stimulus packing in the sequences, the scoreboards' expected answers, descriptors). Samples with no Python
frame are the simulator's own C++ (Verilator's model); the rest is the testbench (cocotb, pyuvm, agents,
scoreboards, checkers). Written to ``sim_build/bench/model_share.json``; nothing asserts a share.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from dlaverif.flow import runner

OUT = runner.SIM_BUILD / "bench"
WORK = OUT / "model-share"
RATE = 50  # samples per second per process
MODELS_FRAME = re.compile(r"\(dlaverif/models/")
SIM_PROCESS = re.compile(r"process \d+:\"[^\"]*sim_build/[^\"]*\"")


def classify(raw: str) -> Counter:
    """Sample counts of a py-spy raw profile: ``models``, ``testbench`` (Python frames, none in models),
    ``simulator`` (a simulator process with no Python frame) and ``other`` (launchers, compilers)."""
    c: Counter = Counter()
    for line in raw.splitlines():
        stack, _, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        parts = stack.split(";")
        procs = [p for p in parts if p.startswith("process ")]
        frames = parts[len(procs) :]
        in_sim = bool(procs) and SIM_PROCESS.match(procs[-1]) is not None
        if any(MODELS_FRAME.search(f) for f in frames):
            c["models"] += int(n)
        elif in_sim and not frames:
            c["simulator"] += int(n)
        elif in_sim:
            c["testbench"] += int(n)
        else:
            c["other"] += int(n)
    return c


def main() -> int:
    spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    if spy is None:
        print("model share: py-spy not installed (it is in pyproject.toml: run make)")
        return 1
    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    raw_file = WORK / "profile.txt"
    cmd = [
        sys.executable,
        "-m",
        "dlaverif.flow.regression",
        "run",
        "--sim",
        "verilator",
        "--suite",
        "smoke",
        "--seeds",
        "1",
        "--jobs",
        "2",
        "--coverage",
        "0",
        "--out",
        str(WORK / "regress"),
        "--report-dir",
        str(WORK / "report"),
    ]
    t0 = time.perf_counter()
    proc = subprocess.run(
        [
            spy,
            "record",
            "--subprocesses",
            "--rate",
            str(RATE),
            "--format",
            "raw",
            "--output",
            str(raw_file),
            "--",
            *cmd,
        ],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
    )
    wall = time.perf_counter() - t0
    (WORK / "regression.log").write_text(proc.stdout + proc.stderr)
    if proc.returncode != 0 or not raw_file.exists():
        print(f"model share: the profiled regression failed (exit {proc.returncode}); see {WORK / 'regression.log'}")
        return 1
    c = classify(raw_file.read_text())
    sim_total = c["models"] + c["testbench"] + c["simulator"]
    doc: dict[str, Any] = {  # the JSON document
        "command": " ".join(cmd),
        "rate_hz": RATE,
        "wall_s": wall,
        "samples": dict(c),
        "models_share_of_simulations": c["models"] / sim_total if sim_total else 0.0,
        "models_share_of_all": c["models"] / sum(c.values()) if c else 0.0,
    }
    print(
        f"models' share of the smoke regression on Verilator (py-spy, {RATE} Hz, {wall:.0f} s wall): "
        f"{100 * doc['models_share_of_simulations']:.1f} % of the simulator processes' samples "
        f"(models {c['models']}, testbench {c['testbench']}, simulator C++ {c['simulator']}; "
        f"launchers and compilers {c['other']} more)"
    )
    (OUT / "model_share.json").write_text(json.dumps(doc, indent=2))
    print(f"written {OUT / 'model_share.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
