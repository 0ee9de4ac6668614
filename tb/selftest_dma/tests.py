"""``byte_dma`` on the platform through its binding only (tb/selftest_dma/env.py): random bursts of descriptors with
several jobs in flight, under memory latency and TREADY backpressure; every job's bytes and tag checked, and the
framing of the output by what the binding says the completion pulse means (``COMPLETION=issued|drained``)."""

from __future__ import annotations

import cocotb
import numpy as np

from tb.platform.completion import ProtocolError, summary
from tb.platform.descriptor import DescriptorTB
from tb.platform.knobs import Knobs

from .env import BINDING, QUEUE_DEPTH, coverage_lines, data_problems, random_jobs, sample

BURSTS = 4
JOBS_PER_BURST = 6
KNOBS = [
    Knobs(),
    Knobs(latency=3, backpressure="random"),
    Knobs(latency=8, r_gap="every4"),
    Knobs(backpressure="bursty"),
]


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def random_descriptor_bursts(dut) -> None:
    """Bursts of random descriptors (back to back or with gaps) at up to QUEUE_DEPTH jobs in flight."""
    rng = np.random.default_rng(cocotb.RANDOM_SEED)
    tb = DescriptorTB(dut, BINDING, np.random.default_rng([cocotb.RANDOM_SEED, 1]))
    await tb.reset()
    found: list[str] = []
    protocol: list[ProtocolError] = []
    in_flight: set[int] = set()
    for burst in range(BURSTS):
        tb.backend.apply_knobs(KNOBS[burst % len(KNOBS)], tb.rng)
        jobs = random_jobs(rng, JOBS_PER_BURST, tb.bus_bytes, 0x1000 + burst * 0x10000, burst * JOBS_PER_BURST)
        tb.mem.mem.clear()
        for job in jobs:
            tb.mem.load(job.fields["addr"], job.blob)
        framing = await tb.run_jobs(jobs)
        for job in jobs:
            sample(job, tb.bus_bytes)
            in_flight.add(job.in_flight)
        protocol += framing.errors
        found += data_problems(jobs, framing) + tb.violations
    for line in coverage_lines():
        dut._log.info("coverage %s", line)
    if protocol:  # one sentence, before any data check: a late transfer is never reported as a mismatch
        raise AssertionError(summary(protocol))
    if found:
        raise AssertionError(f"{len(found)} problem(s); the first: {found[0]}")
    most = max(in_flight)
    assert most > 1, f"at most {most} job(s) in flight: the bursts never overlapped jobs (QUEUE_DEPTH={QUEUE_DEPTH})"
    missed = sorted(set(range(1, QUEUE_DEPTH + 1)) - in_flight)
    assert not missed, f"jobs in flight never {missed} (QUEUE_DEPTH={QUEUE_DEPTH}): the bursts missed those depths"
