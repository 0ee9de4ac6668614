"""Weight-reader environment on the shared platform (``tb/platform.py``): the TB wrapper's job sequence and its
three read regions (weight, WMB, WGS), and the env with the weight scoreboard and coverage."""
from __future__ import annotations

from typing import Optional

import numpy as np
from cocotb.triggers import ClockCycles, First, RisingEdge

from models.core.arith import ceil_div
from tb.checkers.axi_read import Region, words_of_runs
from tb.platform import ReaderEnv, ReaderTB

from . import registers
from .coverage import WeightCoverage
from .items import Kind, WeightItem
from .scoreboard import WeightScoreboard


def needed_bytes(item: WeightItem) -> dict[str, int]:
    """Bytes from each surface base that a correct reader must read: the compressed data (sum of the WGS entries)
    or the dense bytes, one WMB bit per element, one WGS entry per group."""
    ws, d = item.ws, item.desc
    if not d.compressed:
        return {"weight": d.dense_bytes}
    return {"weight": int(ws.wgs_values().sum()), "wmb": ceil_div(int(sum(ws.group_elems)), 8), "wgs": 4 * d.groups}


def weight_regions(item: WeightItem, bus_bytes: int) -> list[Region]:
    """The surfaces a job may read, as programmed; for a legal, uncorrupted job only the bus words that hold bytes
    it needs (so an over-read inside a surface is caught too)."""
    strict = item.kind in (Kind.WEIGHTS, Kind.BUS_ERROR, Kind.RESET)
    need = needed_bytes(item) if strict else {}
    out = []
    for name, (base, size) in item.desc.ranges().items():
        words = words_of_runs(np.array([base]), need[name], bus_bytes) if strict and need[name] else \
            (np.zeros(0, np.int64) if strict else None)
        out.append(Region(name, base, base + max(size, 1), words))
    return out


class WeightReaderTB(ReaderTB):
    """The shared reader TB around one ``weight_reader``."""

    def __init__(self, dut, rng: Optional[np.random.Generator] = None) -> None:
        super().__init__(dut, registers.REGS, rng)
        self.out_bytes = len(dut.m_axis_tkeep)     # bytes per output transfer (OUT_DATA_W / 8)

    def regions(self, item: WeightItem) -> list[Region]:
        return weight_regions(item, self.bus_bytes)

    async def run_job(self, item: WeightItem) -> None:
        """Knobs, memory, faults, footprint, registers, START; wait for DONE (or reset in the middle for a RESET
        job) and read the status registers into ``item``."""
        self.prepare(item, item.pieces(), item.faults, legal=item.kind is not Kind.ILLEGAL)
        await registers.program(self.csr, item.desc)
        await self.csr.start()
        item.irq_after = None
        if item.kind is Kind.RESET:
            await First(ClockCycles(self.dut.clk, item.reset_after), RisingEdge(self.dut.irq))
            await self.reset()
            self.reads.expect_none()
            await ClockCycles(self.dut.clk, 8)
            item.irq_after = int(self.dut.irq.value)
            item.status = await registers.read_status(self.csr, True, 0)
            item.inflight_at_done = 0
        else:
            done, waited = await self.csr.wait_done(item.timeout_cycles())
            item.inflight_at_done = self.mem.inflight_beats
            await ClockCycles(self.dut.clk, 2)
            item.status = await registers.read_status(self.csr, done, waited)
        item.csr_violations, self.csr.violations = self.csr.violations, []
        if not item.status.done:
            await self.reset()


class WeightReaderEnv(ReaderEnv):
    scoreboard_cls = WeightScoreboard
    coverage_cls = WeightCoverage
