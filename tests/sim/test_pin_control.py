"""The platform's start/done-pin control (:class:`dlaverif.platform.binding.PinControl`) on ``pin_dma``
(blocks/selftest_dma/rtl/pin_dma.sv: byte_dma behind go/fin pins, clk_i / rst_i): random jobs one at a time pass when
its ``fin_o`` means what the binding says ("drained"); with ``EARLY_FIN=1`` (fin_o before the last byte leaves) the
same binding gives one protocol error naming the job, the transfer and the cycle, and no data mismatch. On both
simulators, built as the testplan builds them (``builds.pin_dma`` and ``builds.pin_dma_early_fin``)."""

from __future__ import annotations

import os
import re

import pytest

from dlaverif.flow import runner, testplan

pytestmark = pytest.mark.sim

PLAN = testplan.load()
SIM = os.getenv("SIM", "")
SIMS = [SIM] if SIM else list(runner.SIMULATORS)


def build_and_run(sim: str, early: int, completion: str) -> list[runner.Result]:
    pb = PLAN.builds["pin_dma_early_fin" if early else "pin_dma"]
    assert pb.parameters.get("EARLY_FIN", 0) == early, pb
    b = runner.build(sim, pb.toplevel, pb.name, pb.parameters, options=pb.options)
    results = runner.run(
        b, "blocks.selftest_dma.pin_tests", seed=1, extra_env={"COMPLETION": completion}, tag=completion
    )
    return runner.read_results(results)


@pytest.mark.parametrize("sim", SIMS)
def test_pin_jobs_pass_when_fin_means_drained(sim):
    rows = build_and_run(sim, 0, "drained")
    assert [(r.name, r.passed) for r in rows] == [("RandomPinJobs", True)], rows


@pytest.mark.parametrize("sim", SIMS)
def test_an_early_fin_under_a_drained_binding_is_one_protocol_error(sim):
    rows = build_and_run(sim, 1, "drained")
    assert len(rows) == 1 and not rows[0].passed, rows
    msg = rows[0].message
    assert msg.count("protocol error") == 1, msg
    assert re.match(r"protocol error: job job\d+ closed at cycle \d+ by its completion", msg), msg
    assert re.search(r"its transfer #\d+ of \d+ arrived at cycle \d+", msg), msg
    assert "first difference" not in msg and "TUSER" not in msg, msg


@pytest.mark.parametrize("sim", SIMS)
def test_an_early_fin_under_an_issued_binding_passes(sim):
    rows = build_and_run(sim, 1, "issued")
    assert [(r.name, r.passed) for r in rows] == [("RandomPinJobs", True)], rows
