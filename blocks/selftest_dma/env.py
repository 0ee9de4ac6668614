"""``byte_dma`` (blocks/selftest_dma/rtl/byte_dma.sv) on the platform's pyuvm machinery through its binding only: its
binding, its item, its TB hooks (footprint, memory, payload), its scoreboard, its coverage and its env.

``COMPLETION`` (``issued`` by default, what the DUT does) and ``QUEUE_DEPTH`` (jobs kept in flight, default 4)
come from the environment, so that one build runs the same jobs under either meaning of its completion pulse.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
from cocotb_coverage.coverage import CoverPoint, coverage_section

from dlaverif.footprint import Region
from dlaverif.platform import (
    CoverageSubscriber,
    Expectation,
    JobScoreboard,
    ReaderEnv,
    ReaderTB,
    config_value,
)
from dlaverif.platform.binding import Completion, DescriptorControl, DutBinding, ResetPin

from .items import DmaItem

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


class DmaTB(ReaderTB):
    """The platform's TB on byte_dma's binding; what a job reads, holds and sends."""

    binding = BINDING

    def regions(self, item: DmaItem) -> list[Region]:
        return [Region(item.get_name(), item.addr, item.addr + item.length)]

    def pieces(self, item: DmaItem) -> list[tuple[int, bytes]]:
        return [(item.addr, item.blob.tobytes())]

    def payload(self, item: DmaItem) -> dict[str, int]:
        return {"addr": item.addr, "len": item.length, "tag": item.tag}


@dataclass
class Expected(Expectation):
    """A job's bytes, the TUSER of every transfer, and the bus words its reads cover (each word of its bytes, once,
    in address order: byte_dma documents one single-beat burst per bus word)."""

    data: np.ndarray
    tag: int
    words: np.ndarray


def read_words(bursts, bus_bytes: int) -> list[int]:
    """The bus words (address // bus bytes) the AR bursts cover, in AR order."""
    return [w for b in bursts for w in range(b.addr // bus_bytes, b.addr // bus_bytes + b.beats)]


def first_difference(got: np.ndarray, want: np.ndarray) -> int:
    """The first byte where ``got`` and ``want`` differ (the shorter length when one is a prefix of the other)."""
    n = min(got.size, want.size)
    diff = np.flatnonzero(got[:n] != want[:n])
    return int(diff[0]) if diff.size else n


class DmaScoreboard(JobScoreboard):
    """Each job's bytes against what the memory holds for it, its TUSER against its tag, and its own AR bursts and
    R beats (with several jobs in flight, the platform gives each job the reads of its footprint) against the
    words of its bytes."""

    def expected(self, item: DmaItem) -> Expected:
        bus = int(config_value("BUS_BYTES"))
        words = np.arange(item.addr // bus, (item.addr + item.length - 1) // bus + 1)
        return Expected(item.blob.copy(), item.tag, words)

    def compare(self, item: DmaItem, exp: Expected) -> list[str]:
        beats = item.response().beats
        data = np.frombuffer(b"".join(bytes(b.data) for b in beats), np.uint8)
        out = []
        if data.size != exp.data.size or not np.array_equal(data, exp.data):
            at = first_difference(data, exp.data)
            out.append(f"{data.size} bytes, {exp.data.size} expected; first difference at {at}")
        bad = [b for b in beats if b.user != exp.tag]
        if bad:
            out.append(f"TUSER {bad[0].user} at cycle {bad[0].cycle}, its tag is {exp.tag}")
        res = item.response()
        words = read_words(res.bursts, int(config_value("BUS_BYTES")))
        if words != exp.words.tolist():
            out.append(
                f"its AR bursts read bus words {words[:8]} ({len(words)}), expected {exp.words[:8].tolist()} "
                f"({exp.words.size}): each word of its bytes once, in order"
            )
        if res.beats_served != len(words):
            out.append(f"{res.beats_served} R beats for the {len(words)} beats of its AR bursts")
        return out + res.violations


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
        "byte_dma.jobs_in_flight", xf=lambda it, bus: it.response().in_flight, bins=list(range(1, QUEUE_DEPTH + 1))
    ),
    CoverPoint("byte_dma.aligned", xf=lambda it, bus: it.addr % bus == 0, bins=[True, False]),
    CoverPoint("byte_dma.length", xf=lambda it, bus: length_class(it.length, bus), bins=LENGTHS),
)


@_cover
def _sample(item: DmaItem, bus: int) -> None:
    """One checked job into the covergroups (jobs in flight at its handshake, alignment, length)."""


class DmaCoverage(CoverageSubscriber):
    """byte_dma's covergroups; the check that jobs overlapped (:attr:`overlap`: the descriptor port takes several)
    and reached every depth of jobs in flight up to :attr:`depth` (QUEUE_DEPTH), never more."""

    prefix = "byte_dma"
    xml_name = "fcov_byte_dma.xml"
    depth = QUEUE_DEPTH
    overlap = True

    def build_phase(self) -> None:
        self.depths: set[int] = set()

    def sample(self, item: DmaItem) -> None:
        self.depths.add(item.response().in_flight)
        _sample(item, self.bus_bytes)

    @property
    def bus_bytes(self) -> int:
        return int(config_value("BUS_BYTES"))

    def check_phase(self) -> None:
        most = max(self.depths, default=0)
        if self.overlap:
            assert most > 1, (
                f"at most {most} job(s) in flight: the bursts never overlapped jobs (QUEUE_DEPTH={self.depth})"
            )
        missed = sorted(set(range(1, self.depth + 1)) - self.depths)
        assert not missed, f"jobs in flight never {missed} (QUEUE_DEPTH={self.depth}): the bursts missed those depths"
        assert most <= self.depth, f"{most} jobs in flight, more than the binding allows ({self.depth})"


class DmaEnv(ReaderEnv):
    scoreboard_cls = DmaScoreboard
    coverage_cls = DmaCoverage
