"""One job at a time through a register block over AXI4-Lite (a :class:`~dlaverif.platform.binding.RegisterControl`
binding: our readers): the register job protocol."""

from __future__ import annotations

from typing import Any

import cocotb
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles, First, RisingEdge

from dlaverif.agents.analysis import JobLog
from dlaverif.agents.csr import CsrAgent
from dlaverif.platform.binding import Completion, RegisterControl
from dlaverif.platform.completion import late_transfers
from dlaverif.platform.control import JobControl
from dlaverif.platform.job import JobResult, ReaderItem


class RegisterJobs(JobControl):
    """The register agent on the binding's AXI4-Lite port, and the job protocol of a register-controlled DUT."""

    def __init__(self, tb: Any, ctl: RegisterControl) -> None:
        super().__init__(tb)
        self.irq = tb.binding.signal(tb.dut, ctl.irq) if ctl.irq is not None else None
        self.csr = CsrAgent(tb.dut, tb.clk, tb.rst, ctl.regs, ctl.prefix, irq=self.irq, period_ns=tb.binding.period_ns)
        tb.csr, tb.irq = self.csr, self.irq  # for the block's hooks (program, read_status, mid_job)

    def clear(self) -> None:
        self.csr.clear()

    async def run(self, item: ReaderItem) -> None:
        """One job: knobs, memory, faults and footprint (``tb.prepare``); the descriptor (``tb.program``); START;
        the mid-job activity (``tb.mid_job``) beside the job; then either a reset in the middle (RESET jobs: after
        ``reset_after`` cycles or at DONE, whichever comes first; nothing may be read after it) or the wait for DONE
        with the R beats still owed at that moment; the mid-job activity is over before the status registers are
        read (so they show the job after every disturbance); two settling cycles; the status registers; the CSR
        violations of the whole job; and a reset if DONE never came, to leave the DUT idle for the next job."""
        tb = self.tb
        tb.prepare(item, tb.pieces(item), item.faults, legal=item.legal)
        await tb.program(item)
        await self.csr.start()
        res = JobResult(status=None)
        midjob = cocotb.start_soon(tb.mid_job(item, res)) if item.midjob is not None else None
        if item.resets:
            assert item.reset_after is not None, "a RESET job says when to reset"
            assert self.irq is not None, "a RESET job waits for DONE on the irq pin"
            await First(ClockCycles(tb.clk, item.reset_after), RisingEdge(self.irq))
            await tb.reset()
            tb.reads.expect_none()  # nothing may be read after the reset
            await ClockCycles(tb.clk, 8)
            res.irq_after = int(self.irq.value)
            done, waited = True, 0
        else:
            done, waited = await self.csr.wait_done(item.timeout_cycles(tb.bus_bytes))
            res.inflight_at_done = tb.mem.inflight_beats
            res.done_cycle = int(get_sim_time("ns") // tb.binding.period_ns) if done else None
        if midjob is not None:
            await midjob
        if not item.resets:
            await ClockCycles(tb.clk, 2)
        res.status = await tb.read_status(done, waited)
        res.csr_violations, self.csr.violations = self.csr.violations, []
        tb.publish_assertions()
        item.result = res
        if not res.status.done:
            await tb.reset()  # leave the DUT idle and clean for the next item
        self.finished.append(item)

    def split(self, item: ReaderItem, log: JobLog) -> dict[str, list]:
        """One job at a time: the job owns everything seen since the previous one."""
        return log.take()

    def protocol_problems(self, item: ReaderItem) -> list[str]:
        """With DRAINED, no transfer after the cycle DONE rose."""
        res = item.response()
        if res.done_cycle is None or self.tb.binding.completion is not Completion.DRAINED:
            return []
        errors = late_transfers(item.get_name(), res.beats, res.done_cycle, Completion.DRAINED)
        return [str(e) for e in errors]
