"""`make sim`: build the RTL and run the default regression on one simulator, then print a results table.

Make variables arrive as environment variables, in cocotb's own spelling:
``SIM`` (verilator | icarus), ``TESTCASE`` (a test name or regex), ``SEED`` (reproducible randomization;
default: a fresh seed, printed), ``WAVES=1`` (FST/VCD waveforms under sim_build/), ``COUNT`` (random items per
layout family, default 200). Exit status 0 only when every test of every suite passed.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass, field

from tb import runner


@dataclass(frozen=True)
class Suite:
    """One simulation run: a DUT top, its parameters, and a cocotb test module."""

    name: str
    toplevel: str
    test_module: str
    parameters: dict = field(default_factory=dict)
    env: dict = field(default_factory=dict)


#: The default regression. COUNT (random cubes per layout family) defaults to 200 here.
REGRESSION: tuple[Suite, ...] = (
    Suite("desc_validator/random", "desc_validator", "tb.desc_validator.test_validator", env={"COUNT": "40"}),
    Suite("cube_reader/directed", "cube_reader", "tb.cube_reader.test_directed"),
    Suite("cube_reader/uvm", "cube_reader", "tb.cube_reader.tests"),
    Suite("cube_reader/uvm-dw512", "cube_reader", "tb.cube_reader.tests", {"AXI_DATA_W": 512}, {"COUNT_SCALE": "0.25"}),
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="make sim", description=__doc__)
    ap.add_argument("--sim", default=os.getenv("SIM", "verilator"), choices=runner.SIMULATORS)
    ap.add_argument("--suite", action="append", help="only suites whose name contains this text")
    args = ap.parse_args(argv)

    seed_text = os.getenv("SEED", "").strip()
    seed = int(seed_text) if seed_text else random.SystemRandom().randrange(1, 1 << 31)
    testcase = os.getenv("TESTCASE", "").strip() or None
    waves = os.getenv("WAVES", "0") not in ("", "0")
    count = os.getenv("COUNT", "").strip() or "200"
    print(f"regression: SIM={args.sim} SEED={seed} COUNT={count}" + (f" TESTCASE={testcase}" if testcase else "")
          + (" WAVES=1" if waves else ""), flush=True)

    rows: list[tuple[str, runner.Result]] = []
    broken: list[str] = []
    for suite in REGRESSION:
        if args.suite and not any(s in suite.name for s in args.suite):
            continue
        config = suite.name.replace("/", "-")
        try:
            b = runner.build(args.sim, suite.toplevel, config, suite.parameters, waves=waves)
            xml = runner.run(b, suite.test_module, seed, testcase, {"COUNT": count, **suite.env}, waves=waves)
            results = runner.read_results(xml)
        except Exception as exc:  # a build or harness failure is a failed suite, reported in the table
            broken.append(f"{suite.name}: {type(exc).__name__}: {exc}")
            continue
        if testcase and not results:
            continue
        rows += [(suite.name, r) for r in results]

    print()
    print(f"{'suite':24s} {'test':58s} {'result':6s} {'sim time':>12s} {'wall':>8s}")
    print("-" * 112)
    for name, r in rows:
        print(f"{name:24s} {r.name[:58]:58s} {'PASS' if r.passed else 'FAIL':6s} {r.sim_time_ns / 1000:10.1f}us {r.real_time_s:7.1f}s")
        if not r.passed and r.message:
            print(f"{'':24s}   {r.message[:200]}")
    for line in broken:
        print(f"{'BROKEN':24s} {line}")
    failed = sum(not r.passed for _, r in rows)
    print("-" * 112)
    print(f"regression: {len(rows) - failed} passed, {failed + len(broken)} failed  (SIM={args.sim} SEED={seed})")
    if failed or broken:
        print(f"reproduce: make sim SIM={args.sim} SEED={seed} TESTCASE=<test name>")
    if not rows and not broken:
        print("regression: no test matched" + (f" TESTCASE={testcase}" if testcase else ""))
        return 1
    return 1 if failed or broken else 0


if __name__ == "__main__":
    sys.exit(main())
