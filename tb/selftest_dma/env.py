"""``byte_dma``'s binding, its random jobs (descriptor bursts), its scoreboard and its coverage.

The binding is all the platform is told about the DUT. ``COMPLETION`` (``issued`` by default, what the DUT does)
and ``QUEUE_DEPTH`` (jobs kept in flight, default 4) come from the environment, so that one build runs the same
jobs under either meaning of its completion pulse.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
from cocotb_coverage.coverage import CoverPoint, coverage_db, coverage_section

from tb.footprint import Region
from tb.platform.binding import Completion, DescriptorControl, DutBinding, ResetPin
from tb.platform.completion import Framing
from tb.platform.descriptor import DescriptorJob

QUEUE_DEPTH = int(os.getenv("QUEUE_DEPTH", "").strip() or 4)

#: how the platform sees byte_dma: no register block, a descriptor port, a done pulse per job
BINDING = DutBinding(
    control=DescriptorControl(
        valid="cmd_valid",
        ready="cmd_ready",
        fields=(("addr", "cmd_addr"), ("len", "cmd_len"), ("tag", "cmd_tag")),
        done="done_pulse",
        queue_depth=QUEUE_DEPTH,
        stream_tag="tag",  # TUSER carries the job's tag
    ),
    clock="aclk",
    reset=ResetPin("aresetn", active_high=False),
    axi_master="rd",
    streams=("bytes_out",),
    completion=Completion(os.getenv("COMPLETION", "").strip() or "issued"),
)


@dataclass
class DmaJob(DescriptorJob):
    """A job and the bytes the memory holds for it (what its output must be)."""

    blob: bytes = b""


def random_jobs(rng: np.random.Generator, n: int, bus_bytes: int, base: int, first_tag: int) -> list[DmaJob]:
    """``n`` jobs over disjoint byte ranges from ``base`` up: unaligned starts and lengths around the bus width
    (1, bus-1, bus, bus+1, random up to 6 words), gaps of 0 (back to back) or a few cycles."""
    jobs = []
    addr = base
    for i in range(n):
        addr += int(rng.integers(0, 3 * bus_bytes))  # any byte address
        length = int(rng.choice([1, bus_bytes - 1, bus_bytes, bus_bytes + 1, int(rng.integers(2, 6 * bus_bytes))]))
        tag = (first_tag + i) & 0xFF
        blob = rng.integers(0, 256, length, dtype=np.uint8).tobytes()
        gap = int(rng.choice([0, 0, 0, 1, int(rng.integers(2, 20))]))
        name = f"job{first_tag + i}"
        fields = {"addr": addr, "len": length, "tag": tag}
        jobs.append(DmaJob(name, fields, [Region(name, addr, addr + length)], gap=gap, blob=blob))
        addr += length + 128  # room for the memory agent's guard bands
    return jobs


def data_problems(jobs: list[DmaJob], framing: Framing) -> list[str]:
    """Each job's bytes against what the memory holds for it, and its TUSER against its tag."""
    out = []
    for job, got in zip(jobs, framing.jobs):
        data = b"".join(bytes(b.data) for b in got.beats)
        if data != job.blob:
            at = next((i for i, (x, y) in enumerate(zip(data, job.blob)) if x != y), min(len(data), len(job.blob)))
            out.append(
                f"{job.name} {job.fields}: {len(data)} bytes, {len(job.blob)} expected; first difference at {at}"
            )
        bad = [b for b in got.beats if b.user != job.fields["tag"]]
        if bad:
            out.append(f"{job.name}: TUSER {bad[0].user} at cycle {bad[0].cycle}, its tag is {job.fields['tag']}")
    return out


LENGTHS = ["one", "under_bus", "bus", "bus_plus_one", "longer"]


def length_class(length: int, bus: int) -> str:
    """A job's length against the bus width (the edges of the DUT's word walk)."""
    if length == 1:
        return "one"
    if length in (bus, bus + 1):
        return "bus" if length == bus else "bus_plus_one"
    return "under_bus" if length < bus else "longer"


_cover = coverage_section(
    CoverPoint(
        "byte_dma.jobs_in_flight",
        xf=lambda job, bus: job.in_flight,
        bins=list(range(1, QUEUE_DEPTH + 1)),
    ),
    CoverPoint("byte_dma.aligned", xf=lambda job, bus: job.fields["addr"] % bus == 0, bins=[True, False]),
    CoverPoint("byte_dma.length", xf=lambda job, bus: length_class(job.fields["len"], bus), bins=LENGTHS),
)


@_cover
def sample(job: DmaJob, bus: int) -> None:
    """One accepted job into the covergroups (jobs in flight at its handshake, alignment, length)."""


def coverage_lines() -> list[str]:
    """Every byte_dma covergroup as "name pct% (covered/size)"."""
    return [
        f"{name} {float(item.cover_percentage):.1f}% ({int(item.coverage)}/{int(item.size)})"
        for name, item in sorted(coverage_db.items())
        if name.startswith("byte_dma.") and name.count(".") == 1
    ]
