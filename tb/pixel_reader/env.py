"""Pixel-reader environment on the shared platform (``tb/platform.py``): the TB wrapper's job sequence and read
regions (plane 0 and plane 1), and the env with the pixel scoreboard and coverage.

The driver never looks at what the DUT sent: the monitors publish it, and the scoreboard pairs each finished job
with the transactions published since the previous one.
"""
from __future__ import annotations

from typing import Optional

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles, First, RisingEdge

from models.pixel_desc import PixelDescriptor
from tb.checkers.axi_read import Region, words_of_runs
from tb.platform import ReaderEnv, ReaderTB

from . import registers
from .coverage import PixelCoverage
from .items import Kind, PixelItem
from .scoreboard import PixelScoreboard


def plane_regions(desc: PixelDescriptor, bus_bytes: int) -> list[Region]:
    """The bytes a legal job may read: per plane, the bus words holding a byte of a line's ROI (from the
    first ROI pixel to the last; the x-offset pixels before it share the first word)."""
    fmt = desc.format
    out = []
    bases = (desc.base0, desc.base1)
    strides = (desc.line_stride0, desc.line_stride1)
    for i, (name, (base, size)) in enumerate(desc.ranges().items()):
        bpp = fmt.planes[i].bpp
        first = desc.x_offset * bpp if i == 0 else (desc.x_offset * bpp) % 32
        starts = bases[i] + first + strides[i] * np.arange(desc.height, dtype=np.int64)
        words = words_of_runs(starts, desc.width * bpp, bus_bytes)
        out.append(Region(name, base, base + size, words))
    return out


class PixelReaderTB(ReaderTB):
    """The shared reader TB around one ``pixel_reader``: its job sequence and its plane regions."""

    def __init__(self, dut, rng: Optional[np.random.Generator] = None) -> None:
        super().__init__(dut, registers.REGS, rng)

    def regions(self, item: PixelItem) -> list[Region]:
        return plane_regions(item.desc, self.bus_bytes)

    async def run_job(self, item: PixelItem) -> None:
        """Knobs, memory, faults, the footprint the checker enforces, registers, START; wait for DONE and read the
        status registers into ``item``."""
        pieces = item.picture.pieces if item.picture is not None else []
        self.prepare(item, pieces, item.faults, legal=item.kind is not Kind.ILLEGAL)
        await registers.program(self.csr, item.desc)
        await self.csr.start()
        midjob = cocotb.start_soon(self._midjob(item.midjob)) if item.midjob is not None else None
        if item.kind is Kind.RESET:
            await First(ClockCycles(self.dut.clk, item.reset_after), RisingEdge(self.dut.irq))
            await self.reset()
            self.reads.expect_none()           # nothing may be read after the reset
            await ClockCycles(self.dut.clk, 8)
            item.irq_after = int(self.dut.irq.value)
            item.status = await registers.read_status(self.csr, True, 0)
            item.csr_violations, self.csr.violations = self.csr.violations, []
            return
        done, waited = await self.csr.wait_done(item.timeout_cycles())
        item.inflight_at_done = self.mem.inflight_beats
        if midjob is not None:
            await midjob
        await ClockCycles(self.dut.clk, 2)
        item.status = await registers.read_status(self.csr, done, waited)
        item.csr_violations, self.csr.violations = self.csr.violations, []
        if not item.status.done:
            await self.reset()           # leave the DUT idle and clean for the next item


    async def _midjob(self, cycles: int) -> None:
        """START again while the job runs (ignored while busy), then overwrite every descriptor register with
        garbage ``cycles`` later: the running job latched its descriptor at START."""
        await self.csr.start()
        await ClockCycles(self.dut.clk, cycles)
        names = registers.DESC_REGS
        await self.csr.write_many({k: int(v) for k, v in zip(names, self.rng.integers(0, 1 << 32, len(names),
                                                                                        dtype=np.uint64))})


class PixelReaderEnv(ReaderEnv):
    scoreboard_cls = PixelScoreboard
    coverage_cls = PixelCoverage
