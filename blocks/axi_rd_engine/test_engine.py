"""Directed cocotb tests of ``blocks/rtl/common/axi_rd_engine.sv`` alone (plain cocotb 2.x).

The cube reader only sends atom-aligned runs; the later clients of the engine (pixel reader, weight
decompressor) send byte-granular ones. These tests drive random byte-granular commands and check every beat
against an oracle written here: the bus words of each command in order, with rd_addr, rd_first/rd_last and the
byte lanes rd_lo/rd_hi of its first/last word, the data from the memory, ARSIZE/ARBURST/4 KB rules on every AR,
at most MAX_OUTSTANDING bursts in flight, and ``stop``: no beat offered after it, every outstanding beat drained,
``busy`` falls, and the next command is exact; ``stop`` and reset also with every burst slot in flight.

The AXI side uses the shared agents: the memory agent (``dlaverif.agents.axi_mem``, publishing AR bursts and R beats)
and the shared read checker (``dlaverif.checkers.axi_read``: ARSIZE, INCR, 4 KB) subscribed to it. Only the engine's
own client interface (``cmd_*``, ``rd_*``) is driven and sampled here. Run by the testplan's
``axi_rd_engine/directed`` run with the engine's defaults.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Optional

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

from dlaverif.agents import stalls
from dlaverif.agents.analysis import JobLog
from dlaverif.agents.axi_mem import AxiMemAgent
from dlaverif.checkers.axi_read import AxiReadChecker
from dlaverif.models.core.arith import ceil_div
from dlaverif.platform.reach import AxiReach

MEM = 1 << 20
ENGINE_SV = Path(__file__).resolve().parents[1] / "rtl" / "common" / "axi_rd_engine.sv"


def default_outstanding() -> int:
    """The MAX_OUTSTANDING default written in ``axi_rd_engine.sv`` (what a build without parameters uses)."""
    m = re.search(r"parameter\s+int\s+MAX_OUTSTANDING\s*=\s*(\d+)", ENGINE_SV.read_text())
    if m is None:
        raise RuntimeError(f"no MAX_OUTSTANDING default in {ENGINE_SV}")
    return int(m.group(1))


# the build's value (dlaverif.flow.runner exports build parameters as PARAM_<name>), else the default
MAX_OUTSTANDING = int(os.getenv("PARAM_MAX_OUTSTANDING") or default_outstanding())


class EngineTB:
    """The engine on the shared memory agent: ``size`` bytes of memory (``None``: the whole ``ADDR_W``-bit space,
    sparse), its first ``MEM`` bytes random."""

    def __init__(self, dut, seed: int, size: Optional[int] = MEM) -> None:
        self.dut = dut
        self.bw = len(dut.rd_data) // 8
        self.rng = random.Random(seed)
        Clock(dut.clk, 10, unit="ns").start(start_high=False)
        dut.rst.value = 1
        dut.cmd_valid.value = 0
        dut.cmd_addr.value = 0
        dut.cmd_len.value = 0
        dut.stop.value = 0
        dut.rd_ready.value = 1
        self.mem = AxiMemAgent(dut, dut.clk, dut.rst, "m_axi", size=size)
        self.mem.mem.write(0, self.rng.randbytes(MEM)[: self.mem.mem.size])  # the same draws at every size
        self.reads = AxiReadChecker(self.bw)  # ARSIZE, INCR, 4 KB on every AR
        self.mem.ar_ap.connect(self.reads)
        # address bit, bursts in flight, pages reached; the burst table's occupancy (the plan's probe)
        self.reach = AxiReach(len(dut.cmd_addr)).connect(self.mem).watch(dut)
        self.log = JobLog(ar=self.mem.ar_ap, r=self.mem.r_ap)
        self.ready_p = 1.0
        self.beats: list[tuple] = []
        self.offered_while_stopped = 0
        cocotb.start_soon(self._monitor())

    @property
    def ars(self) -> list:
        """Every AR burst the memory accepted (dlaverif.agents.axi_mem.Burst), in order."""
        return self.log["ar"]

    @property
    def r_fires(self) -> int:
        """R beats handed over (RVALID & RREADY)."""
        return len(self.log["r"])

    def set_stalls(self, p: float) -> None:
        """ARREADY and RVALID withheld with probability ``p`` each cycle (dlaverif.agents.stalls: 1 = stall)."""
        self.mem.set_ar_stalls(stalls.random_stalls(np.random.default_rng(self.rng.randrange(1 << 32)), p))
        self.mem.set_r_gaps(stalls.random_stalls(np.random.default_rng(self.rng.randrange(1 << 32)), p))

    async def _monitor(self) -> None:
        """Drives rd_ready and samples the engine's client side (the AXI side is the memory agent's)."""
        d = self.dut
        while True:
            await RisingEdge(d.clk)
            d.rd_ready.value = int(self.rng.random() < self.ready_p)
            await ReadOnly()
            if int(d.rst.value):
                continue
            if int(d.stop.value) and int(d.rd_valid.value):
                self.offered_while_stopped += 1
            if int(d.rd_valid.value) and int(d.rd_ready.value):
                self.beats.append(
                    (
                        d.rd_addr.value.to_unsigned(),
                        int(d.rd_first.value),
                        int(d.rd_last.value),
                        d.rd_lo.value.to_unsigned(),
                        d.rd_hi.value.to_unsigned(),
                        d.rd_resp.value.to_unsigned(),
                        d.rd_data.value.to_unsigned(),
                    )
                )

    async def reset(self) -> None:
        self.reach.restart()
        self.dut.rst.value = 1
        for _ in range(4):
            await RisingEdge(self.dut.clk)
        self.dut.rst.value = 0
        await RisingEdge(self.dut.clk)

    async def start(self, ready: float) -> None:
        """Reset, then take beats with probability ``ready`` per cycle (below 1: the memory stalls too)."""
        await self.reset()
        self.ready_p = ready
        if ready < 1:
            self.set_stalls(0.3)

    async def send(self, addr: int, length: int) -> None:
        d = self.dut
        d.cmd_valid.value = 1
        d.cmd_addr.value = addr
        d.cmd_len.value = length
        while True:
            await ReadOnly()
            fired = int(d.cmd_ready.value)
            await RisingEdge(d.clk)
            if fired:
                break
        d.cmd_valid.value = 0

    async def idle(self, limit: int = 100_000) -> None:
        for _ in range(limit):
            await RisingEdge(self.dut.clk)
            await ReadOnly()
            if not int(self.dut.busy.value) and not int(self.dut.cmd_valid.value):
                await RisingEdge(self.dut.clk)
                return
        raise AssertionError("engine still busy")

    def expected(self, cmds: list[tuple[int, int]]) -> list[tuple]:
        out = []
        for addr, length in cmds:
            end = addr + length - 1
            words = range(addr // self.bw, end // self.bw + 1)
            for i, w in enumerate(words):
                first, last = i == 0, i == len(words) - 1
                data = int.from_bytes(self.mem.read(w * self.bw, self.bw), "little")
                out.append(
                    (
                        w * self.bw,
                        int(first),
                        int(last),
                        addr % self.bw if first else 0,
                        end % self.bw if last else self.bw - 1,
                        0,
                        data,
                    )
                )
        return out

    def check_ars(self) -> None:
        assert self.ars, "no AR at all"
        assert not self.reads.violations, f"AXI read rules broken: {self.reads.violations[:3]}"
        assert all(a.addr % self.bw == 0 for a in self.ars), "AR address not bus aligned"


def random_cmds(rng: random.Random, n: int, bw: int) -> list[tuple[int, int]]:
    cmds = []
    for _ in range(n):
        length = rng.choice([1, 2, bw - 1, bw, bw + 1, rng.randint(1, 300), rng.randint(1, 9000)])
        addr = rng.choice([rng.randrange(0, MEM - length), 4096 * rng.randint(1, 200) - rng.randint(1, 64)])
        cmds.append((addr, length))
    return cmds


@cocotb.test(timeout_time=20, timeout_unit="ms")
@cocotb.parametrize(ready=[1.0, 0.4])
async def byte_granular_commands(dut, ready):
    """Random byte-aligned commands, back to back: every beat and its side information, in order."""
    tb = EngineTB(dut, cocotb.RANDOM_SEED)
    await tb.start(ready)
    cmds = random_cmds(tb.rng, 40, tb.bw)
    for c in cmds:
        await tb.send(*c)
    await tb.idle()
    want = tb.expected(cmds)
    assert len(tb.beats) == len(want), f"{len(tb.beats)} beats, want {len(want)}"
    for i, (g, w) in enumerate(zip(tb.beats, want)):
        assert g == w, f"beat {i}: (addr, first, last, lo, hi, resp) {g[:6]} want {w[:6]}" + (
            " (data differs)" if g[:6] == w[:6] else ""
        )
    tb.check_ars()
    assert tb.r_fires == sum(a.beats for a in tb.ars) == len(want)


def in_flight(tb: EngineTB) -> int:
    """Bursts accepted on AR and not fully returned on R."""
    returned, beats = 0, tb.r_fires
    for a in tb.ars:
        if beats < a.beats:
            break
        beats -= a.beats
        returned += 1
    return len(tb.ars) - returned


def one_beat_cmds(n: int, bw: int, base: int = 0x2000) -> list[tuple[int, int]]:
    """``n`` one-beat commands on every other bus word (one burst each: one-atom lines, the short-line case)."""
    return [(base + 2 * i * bw + i % bw, 1 + (i * 7) % (bw - i % bw)) for i in range(n)]


async def fill_slots(tb: EngineTB, cmds: list[tuple[int, int]]):
    """Hold rd_ready low and send one-beat commands until every burst slot is in flight; returns the sender."""
    tb.ready_p = 0.0

    async def sender() -> None:
        for c in cmds:
            await tb.send(*c)

    task = cocotb.start_soon(sender())
    for _ in range(20 * MAX_OUTSTANDING):
        await RisingEdge(tb.dut.clk)
        if len(tb.ars) >= MAX_OUTSTANDING:
            break
    for _ in range(20):  # the limit holds while nothing returns
        await RisingEdge(tb.dut.clk)
    await ReadOnly()
    assert tb.r_fires == 0 and len(tb.ars) == MAX_OUTSTANDING, (
        f"{len(tb.ars)} bursts issued with none returned, MAX_OUTSTANDING {MAX_OUTSTANDING}"
    )
    await RisingEdge(tb.dut.clk)
    return task


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def outstanding_limit(dut):
    """One-beat commands and a slow client: never more than MAX_OUTSTANDING bursts accepted and not fully
    returned, the limit is reached, and every beat is exact."""
    tb = EngineTB(dut, cocotb.RANDOM_SEED)
    await tb.reset()
    limit = MAX_OUTSTANDING
    cmds = one_beat_cmds(3 * limit, tb.bw)
    task = await fill_slots(tb, cmds)
    tb.ready_p = 0.3
    worst = limit
    while not task.done():
        await RisingEdge(dut.clk)
        await ReadOnly()
        worst = max(worst, in_flight(tb))
    assert worst == limit, f"{worst} bursts in flight, MAX_OUTSTANDING {limit}"
    tb.ready_p = 1.0
    await tb.idle()
    assert tb.beats == tb.expected(cmds)
    tb.check_ars()


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def stop_with_all_slots_in_flight(dut):
    """stop while MAX_OUTSTANDING one-beat bursts wait: no new AR, no beat offered, all of them drained,
    busy falls, and the next command is exact."""
    tb = EngineTB(dut, cocotb.RANDOM_SEED)
    await tb.reset()
    task = await fill_slots(tb, one_beat_cmds(2 * MAX_OUTSTANDING, tb.bw))
    task.cancel()
    dut.cmd_valid.value = 0
    dut.stop.value = 1
    tb.ready_p = 0.5
    await tb.idle()
    dut.stop.value = 0
    assert tb.offered_while_stopped == 0, f"{tb.offered_while_stopped} beats offered while stopped"
    assert len(tb.ars) == MAX_OUTSTANDING, f"{len(tb.ars) - MAX_OUTSTANDING} AR(s) issued after stop"
    assert tb.r_fires == MAX_OUTSTANDING and not tb.beats, f"{tb.r_fires} R beats drained, {len(tb.beats)} passed on"
    await tb.send(0x9000 + 3, 700)
    tb.ready_p = 1.0
    await tb.idle()
    assert tb.beats == tb.expected([(0x9000 + 3, 700)])
    tb.check_ars()


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def reset_with_all_slots_in_flight(dut):
    """Reset while MAX_OUTSTANDING bursts are in flight: busy, ARVALID and RREADY fall; the next command is
    exact (no stale burst bookkeeping survives)."""
    tb = EngineTB(dut, cocotb.RANDOM_SEED)
    await tb.reset()
    task = await fill_slots(tb, one_beat_cmds(2 * MAX_OUTSTANDING, tb.bw))
    task.cancel()
    dut.cmd_valid.value = 0
    await tb.reset()
    await ReadOnly()
    assert not int(dut.busy.value) and not int(dut.m_axi_arvalid.value) and not int(dut.m_axi_rready.value), (
        "engine not idle after reset"
    )
    await RisingEdge(dut.clk)
    tb.beats.clear()
    tb.ars.clear()
    tb.ready_p = 1.0
    cmds = one_beat_cmds(MAX_OUTSTANDING + 5, tb.bw, base=0x40000) + [(0x9000 + 3, 700)]
    for c in cmds:
        await tb.send(*c)
    await tb.idle()
    assert tb.beats == tb.expected(cmds)
    tb.check_ars()


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def stop_drains(dut):
    """stop mid-command: no beat offered while stopped, every outstanding beat drained, busy falls, and the
    next command is exact."""
    tb = EngineTB(dut, cocotb.RANDOM_SEED)
    await tb.reset()
    tb.ready_p = 0.5
    # 900 KB: about 220 bursts of 4 KB, more than MAX_OUTSTANDING, so a stop in mid-command must cut the issue
    length = 900_000
    cocotb.start_soon(tb.send(0x3000 + 5, length))
    while len(tb.beats) < 100:
        await RisingEdge(dut.clk)
    dut.stop.value = 1
    await tb.idle()
    dut.stop.value = 0
    assert tb.offered_while_stopped == 0, f"{tb.offered_while_stopped} beats offered while stopped"
    issued = sum(a.beats for a in tb.ars)
    assert tb.r_fires == issued, f"{tb.r_fires} R beats accepted, {issued} requested: not drained"
    assert issued < ceil_div(5 + length, tb.bw), "the whole command was read although stopped"
    tb.beats.clear()
    await tb.send(0x9000 + 3, 700)
    await tb.idle()
    assert tb.beats == tb.expected([(0x9000 + 3, 700)])
    tb.check_ars()
