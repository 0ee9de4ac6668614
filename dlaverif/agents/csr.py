"""Register agent: programs any reader over AXI4-Lite (cocotbext-axi AxiLiteMaster) by register name.

The agent is block-neutral: it takes the block's register map (a ``blocks.regmap.BlockMap``: ``REG`` offsets,
``reg_name``, and the common ``ctrl_start`` / ``status_done`` bits every block shares) and knows nothing of
descriptors. Each block turns its descriptor into register values itself (``blocks/<block>/registers.py``).
Typical use::

    csr = CsrAgent(dut, dut.clk, dut.rst, block_map, irq=dut.irq)   # block_map: the block's BlockMap
    await csr.write_many({"BASE_LO": ..., "COUNT_W": ...})   # pipelined writes
    await csr.start()                                        # CTRL.START (clears DONE/ERROR)
    done, waited = await csr.wait_done(timeout_cycles)       # sleeps on the irq line (no register polling)
    values = await csr.read_many(["STATUS", "ERROR"])
    st = await csr.read_status(done, waited)                 # every status register (blocks.regmap.JobStatus)

Every access checks its response (a reader's register block answers OKAY); a bad response is recorded in
:attr:`CsrAgent.violations`, not raised, so the job's report carries it.
"""

from __future__ import annotations

from collections import deque
from typing import Union

import cocotb
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles, FallingEdge, First, RisingEdge, Timer
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiResp

from dlaverif.regmap import JobStatus

Reg = Union[str, int]


class CsrAgent:
    """AXI4-Lite register agent for the readers' register block (``s_axil`` prefix by default)."""

    def __init__(self, dut, clock, reset, regs, prefix: str = "s_axil", irq=None, period_ns: float = 10.0) -> None:
        self.regs = regs
        self.clock = clock
        self.irq = irq
        self.period_ns = period_ns
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, prefix), clock, reset)
        for obj in (self.axil.write_if, self.axil.read_if):
            obj.log.setLevel("WARNING")
        self.violations: list[str] = []
        self._reads: deque[int] = deque()  # offsets of reads in flight, in issue order
        self._guard_rdata()

    def _guard_rdata(self) -> None:
        """Report RDATA with X/Z bits as a violation naming the register (instead of letting the BFM die on
        the int conversion), and hand the BFM the value with X/Z read as 0."""
        sink = self.axil.read_if.r_channel
        recv = sink.recv

        async def recv_checked():
            r = await recv()
            off = self._reads.popleft() if self._reads else None
            v = r.rdata
            if hasattr(v, "is_resolvable") and not v.is_resolvable:
                name = self.regs.reg_name(off) if off is not None else "?"
                self.violations.append(f"read {name}: RDATA {v} has X/Z bits")
                r.rdata = int(str(v).lower().replace("x", "0").replace("z", "0"), 2)
            return r

        sink.recv = recv_checked

    def offset(self, reg: Reg) -> int:
        return self.regs.REG[reg] if isinstance(reg, str) else int(reg)

    async def write(self, reg: Reg, value: int) -> None:
        resp = await self.axil.write(self.offset(reg), (int(value) & 0xFFFFFFFF).to_bytes(4, "little"))
        if resp.resp != AxiResp.OKAY:
            self.violations.append(f"write {self.regs.reg_name(self.offset(reg))}: response {resp.resp.name}")

    async def read_resp(self, reg: Reg):
        """One read, returning the BFM's response (data and RRESP) without checking it."""
        self._reads.append(self.offset(reg))
        return await self.axil.read(self.offset(reg), 4)

    def clear(self) -> None:
        """Forget reads in flight (after a reset)."""
        self._reads.clear()

    async def read(self, reg: Reg) -> int:
        resp = await self.read_resp(reg)
        if resp.resp != AxiResp.OKAY:
            self.violations.append(f"read {self.regs.reg_name(self.offset(reg))}: response {resp.resp.name}")
        return int.from_bytes(resp.data, "little")

    async def write_many(self, values: dict) -> None:
        """Issue several writes back to back (pipelined by the master, kept in order) and wait for all."""
        tasks = [
            (reg, cocotb.start_soon(self.axil.write(self.offset(reg), (int(v) & 0xFFFFFFFF).to_bytes(4, "little"))))
            for reg, v in values.items()
        ]
        for reg, task in tasks:
            resp = await task
            if resp.resp != AxiResp.OKAY:
                self.violations.append(f"write {reg}: response {resp.resp.name}")

    async def read_many(self, regs) -> dict:
        """Issue several reads back to back and return {name: value}."""
        self._reads.extend(self.offset(reg) for reg in regs)
        tasks = [(reg, cocotb.start_soon(self.axil.read(self.offset(reg), 4))) for reg in regs]
        out = {}
        for reg, task in tasks:
            resp = await task
            if resp.resp != AxiResp.OKAY:
                self.violations.append(f"read {reg}: response {resp.resp.name}")
            out[reg] = int.from_bytes(resp.data, "little")
        return out

    async def read_status(self, done: bool = True, wait_cycles: int = 0) -> JobStatus:
        """Read every status register of the block's map (back to back) after a job."""
        values = await self.read_many(list(self.regs.status_regs()))
        return JobStatus(self.regs, values, done, wait_cycles)

    # ------------------------------------------------------------------ job control
    async def start(self) -> None:
        await self.write("CTRL", self.regs.ctrl_start)

    async def wait_done(self, timeout_cycles: int) -> tuple[bool, int]:
        """Wait for DONE after a START: the irq level (STATUS polling if there is no irq line).

        START clears DONE, but the irq may still read high for a cycle after the START write's response
        (the old job's DONE); so a high irq must first fall, then rise again. Returns (done, cycles waited).
        """
        t0 = get_sim_time("ns")
        if self.irq is not None:
            if self._irq_high():
                await First(FallingEdge(self.irq), ClockCycles(self.clock, 8))
                if self._irq_high():
                    self.violations.append("irq (DONE) still high 8 cycles after START")
            if not self._irq_high():
                # the timeout as one simulator timer: ClockCycles would wake Python on every clock edge
                await First(RisingEdge(self.irq), Timer(timeout_cycles * self.period_ns, "ns"))
            done = self._irq_high()
        else:
            done = False
            for _ in range(max(1, timeout_cycles // 16)):
                if await self.read("STATUS") & self.regs.status_done:
                    done = True
                    break
                await ClockCycles(self.clock, 16)
        return done, int((get_sim_time("ns") - t0) // self.period_ns)

    def _irq_high(self) -> bool:
        v = self.irq.value
        return v.is_resolvable and bool(int(v))
