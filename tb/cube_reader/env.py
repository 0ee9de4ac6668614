"""Cube-reader environment on the shared platform (``tb/platform.py``): the TB wrapper's job sequence and read
region, and the env with the cube scoreboard and coverage. Directed tests (``test_directed.py``) and pyuvm tests
(``tests.py``) both run on :class:`CubeReaderTB`.

The driver never looks at what the DUT sent: the monitors publish it, and the scoreboard pairs each finished job
with the transactions published since the previous one.
"""
from __future__ import annotations

from typing import Optional

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles, First, RisingEdge

from models.blocked import BlockedCubeDescriptor
from tb.checkers.axi_read import Region, words_of_runs
from tb.platform import ReaderEnv, ReaderTB

from . import registers
from .coverage import CubeCoverage
from .items import CubeItem, Kind
from .scoreboard import CubeScoreboard


def cube_regions(desc: BlockedCubeDescriptor, bus_bytes: int, strict: bool = True) -> list[Region]:
    """The one region a cube job may read: its extent, and with ``strict`` only the bus words holding an atom."""
    words = words_of_runs(desc.atom_addresses(), desc.atom_bytes, bus_bytes) if strict else None
    return [Region("cube", desc.base, desc.base + desc.extent, words)]


class CubeReaderTB(ReaderTB):
    """The shared reader TB around one ``cube_reader``: its job sequence and its one read region."""

    def __init__(self, dut, rng: Optional[np.random.Generator] = None) -> None:
        super().__init__(dut, registers.REGS, rng)

    def regions(self, item: CubeItem, strict: bool = True) -> list[Region]:
        return cube_regions(item.desc, self.bus_bytes, strict)

    async def run_job(self, item: CubeItem) -> None:
        """Drive one job: knobs, memory, faults, the footprint the checker enforces, registers, START; wait for
        DONE (or reset the DUT in the middle for a RESET job) and read the status registers into ``item``."""
        self.prepare(item, item.cube.memory() if item.cube is not None else None, item.faults,
                     legal=item.kind is not Kind.ILLEGAL)
        await registers.program(self.csr, item.desc, item.nan_to_zero, item.fp16)
        await self.csr.start()
        midjob = cocotb.start_soon(self._midjob(item)) if item.midjob is not None else None
        item.irq_after = None
        if item.kind is Kind.RESET:
            await First(ClockCycles(self.dut.clk, item.reset_after), RisingEdge(self.dut.irq))
            await self.reset()
            self.reads.expect_none()           # nothing may be read after the reset
            await ClockCycles(self.dut.clk, 8)
            item.irq_after = int(self.dut.irq.value)
            item.status = await registers.read_status(self.csr, True, 0)
            item.inflight_at_done = 0
        else:
            done, waited = await self.csr.wait_done(item.timeout_cycles(self.bus_bytes))
            item.inflight_at_done = self.mem.inflight_beats
            await ClockCycles(self.dut.clk, 2)
            item.status = await registers.read_status(self.csr, done, waited)
        if midjob is not None:
            await midjob
        item.csr_violations, self.csr.violations = self.csr.violations, []
        if not item.status.done:
            await self.reset()           # leave the DUT idle and clean for the next item

    async def _midjob(self, item: CubeItem) -> None:
        """START again while the job validates (ignored while busy), then overwrite every descriptor register
        with garbage ``item.midjob`` cycles later: the running job latched its descriptor at START."""
        await self.csr.start()
        await ClockCycles(self.dut.clk, item.midjob)
        names = registers.DESC_REGS
        garbage = {k: int(v) for k, v in zip(names, self.rng.integers(0, 1 << 32, len(names), dtype=np.uint64))}
        garbage["CFG"] &= ~0xF  # keep a legal-looking word; the value does not matter to the running job
        await self.csr.write_many(garbage)


class CubeReaderEnv(ReaderEnv):
    scoreboard_cls = CubeScoreboard
    coverage_cls = CubeCoverage
