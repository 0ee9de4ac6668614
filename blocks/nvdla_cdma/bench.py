"""NVIDIA's convolution DMA on the platform's NVDLA parts: the CSB agent (:mod:`dlaverif.agents.nvdla.csb`), the four
DMA read ports on one memory with back-pressure by ``rsp_ready`` (:mod:`dlaverif.agents.nvdla.dma_read`, no credit
wire), the CBUF write monitor (:mod:`dlaverif.agents.nvdla.cbuf`), the sequencer stand-in
(:mod:`dlaverif.agents.nvdla.csc`) and the two done buses.

Bring-up (NVIDIA's README of the export and its traces): reset with a real falling edge of ``nvdla_core_rstn``;
CDMA then clears every CBUF entry of both ports and sets ``S_CBUF_FLUSH_STATUS.FLUSH_DONE``, which is polled before
the first ``D_OP_ENABLE``. A layer: its memory loaded, the producer pointer at its register group, its registers
written (values from ``layers.Layer.registers``), ``D_OP_ENABLE``; it is over when both the data and the weight done
bus have pulsed the group's bit.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge

from dlaverif.agents import stalls
from dlaverif.agents.clocked import ClockLoop
from dlaverif.agents.nvdla.cbuf import CbufWrite, CbufWriteMonitor
from dlaverif.agents.nvdla.csb import CsbAgent
from dlaverif.agents.nvdla.csc import CscStandIn
from dlaverif.agents.nvdla.dma_read import NvdlaReadMemory, NvdlaReadPort
from dlaverif.agents.signals import uint_reader
from dlaverif.platform.binding import PERIOD_NS, CsbControl
from dlaverif.platform.knobs import Knobs
from dlaverif.thirdparty import nvdla_rdl

from .layers import Layer

#: the four DMA read ports, in the order of their index on the request analysis port; no credit wire
PORTS = (
    NvdlaReadPort("cdma_dat2mcif_rd_req", "mcif2cdma_dat_rd_rsp", None),
    NvdlaReadPort("cdma_dat2cvif_rd_req", "cvif2cdma_dat_rd_rsp", None),
    NvdlaReadPort("cdma_wt2mcif_rd_req", "mcif2cdma_wt_rd_rsp", None),
    NvdlaReadPort("cdma_wt2cvif_rd_req", "cvif2cdma_wt_rd_rsp", None),
)
REGS = nvdla_rdl.RdlFile(unit="NVDLA_CDMA")
CONTROL = CsbControl(
    req="csb2cdma_req",
    resp="cdma2csb_resp",
    regs=REGS,
    enable=("D_OP_ENABLE", "OP_EN"),
    pointer=("S_POINTER", "PRODUCER"),
    done="cdma_dat2glb_done_intr_pd",
)
DONE = ("cdma_dat2glb_done_intr_pd", "cdma_wt2glb_done_intr_pd")
#: inputs that are no layer's business: clock-gating overrides off, RAM power-down off
TIE_OFF = dict.fromkeys(
    ("dla_clk_ovr_on_sync", "global_clk_ovr_on_sync", "tmc2slcg_disable_clock_gating", "pwrbus_ram_pd"), 0
)
FLUSH_CYCLES = 20_000  # the clearing of 2 x 4096 halves takes about 4,100 cycles
LAYER_CYCLES = 40_000  # hang bound of one quiet layer (the largest here take under 10,000 cycles)


def _signal(dut: Any, name: str) -> Any:
    return getattr(dut, name)


class CdmaBench:
    """Everything around the DUT, built once per test."""

    def __init__(self, dut: Any, rng: np.random.Generator) -> None:
        self.dut, self.rng = dut, rng
        for name, value in TIE_OFF.items():
            getattr(dut, name).value = value
        dut.sc2cdma_dat_pending_req.value = 0
        dut.sc2cdma_wt_pending_req.value = 0
        dut.nvdla_core_rstn.value = 1
        self.clk = dut.nvdla_core_clk
        Clock(self.clk, PERIOD_NS, unit="ns").start(start_high=False)
        self.loop = ClockLoop(self.clk, PERIOD_NS)
        self.mem = NvdlaReadMemory(dut, self.clk, dut.nvdla_core_rstn, PORTS, self.loop, _signal, False)
        self.csb = CsbAgent(dut, self.clk, self.loop, CONTROL, _signal)
        self.cbuf = CbufWriteMonitor(dut, dut.nvdla_core_rstn, self.loop, _signal)
        self.csc = CscStandIn(dut, dut.nvdla_core_rstn, self.loop, _signal, rng=rng)
        self.regs = REGS()
        self.writes: list[CbufWrite] = []
        self.cbuf.ap.connect(_Sink(self.writes))
        self.violations: list[str] = []
        self.csb.violation_ap.connect(_Sink(self.violations))
        self.mem.violation_ap.connect(_Sink(self.violations))
        self.cbuf.violation_ap.connect(_Sink(self.violations))
        self.done = {n: [0, 0] for n in DONE}
        self._done_read = {n: uint_reader(getattr(dut, n)) for n in DONE}
        self.loop.add(self._count_done)

    def _count_done(self, cycle: int) -> None:
        for n, read in self._done_read.items():
            v = read() or 0
            for g in (0, 1):
                self.done[n][g] += v >> g & 1
        return None

    async def reset(self) -> None:
        """A real falling edge of the reset, then the buffer's flush (FLUSH_DONE polled)."""
        await FallingEdge(self.clk)
        self.dut.nvdla_core_rstn.value = 1
        await ClockCycles(self.clk, 2)
        self.dut.nvdla_core_rstn.value = 0
        await ClockCycles(self.clk, 8)
        self.dut.nvdla_core_rstn.value = 1
        self.csb.clear()
        addr = self.regs.address("S_CBUF_FLUSH_STATUS")
        for _ in range(FLUSH_CYCLES // 64):
            if await self.csb.read(addr) & 1:
                break
            await ClockCycles(self.clk, 64)
        else:
            raise AssertionError(f"S_CBUF_FLUSH_STATUS.FLUSH_DONE not set {FLUSH_CYCLES} cycles after reset")
        self.flush = list(self.writes)
        self.writes.clear()

    def apply(self, knobs: Knobs) -> None:
        """A layer's timing on the read ports (the CDMA adds its own back-pressure by ``rsp_ready``)."""
        self.mem.set_latency(knobs.latency)
        n = len(self.mem.ports)  # a pattern each: a shared one is split among the four ports (NvdlaReadMemory.per_port)
        self.mem.per_port(
            [stalls.profile(knobs.ar_stall, self.rng) for _ in range(n)],
            [stalls.profile(knobs.r_gap, self.rng) for _ in range(n)],
        )

    async def run_layer(self, layer: Layer, knobs: Optional[Knobs] = None) -> list[CbufWrite]:
        """Program and start ``layer`` in its register group under ``knobs`` (default quiet), wait for both done
        pulses; its CBUF writes."""
        k = knobs or Knobs()
        self.apply(k)
        for base, blob in layer.memory():
            self.mem.load(base, blob)
        r = self.regs
        before = {n: self.done[n][layer.group] for n in DONE}
        first = len(self.writes)
        await self.csb.write(r.address("S_POINTER"), r.value("S_POINTER", PRODUCER=layer.group))
        for name, value in layer.registers(r).items():
            await self.csb.write(r.address(name), value)
        await self.csb.write(r.address("D_OP_ENABLE"), r.value("D_OP_ENABLE", OP_EN=1))
        bound = LAYER_CYCLES * k.stall_factor()
        for _ in range(bound // 16):
            if all(self.done[n][layer.group] > before[n] for n in DONE):
                break
            await ClockCycles(self.clk, 16)
        else:
            seen = {n: self.done[n][layer.group] - before[n] for n in DONE}
            mine = self.writes[first:]
            ports = [(p.port.req, len(p.bursts), len(p.beats), p.shown is not None) for p in self.mem.ports]
            raise AssertionError(
                f"{layer.name}: no end of layer in {bound} cycles under {k} (done pulses: {seen}; CBUF writes: "
                f"{sum(w.port == 'data' for w in mine)} data, {sum(w.port == 'weight' for w in mine)} weight; "
                f"sequencer stand-in {self.csc.stats}; read ports (requests, responses owed, one shown): {ports}; "
                f"DC engine {self.dc_state()})"
            )
        await ClockCycles(self.clk, 4)
        await RisingEdge(self.clk)
        return self.writes[first:]

    def dc_state(self) -> dict[str, str]:
        """The feature engine's fetch state where the simulator shows internal signals (Icarus; Verilator without
        public signals shows none): state, entries in flight and asked for, free entries, status."""
        out = {}
        for name in ("cur_state", "dc_entry_onfly", "req_entry", "status2dma_free_entries", "is_running", "dc_en"):
            try:
                out[name] = str(getattr(self.dut.u_dc, name).value)
            except (AttributeError, ValueError):
                pass
        return out


class _Sink:
    """An analysis subscriber appending to a list."""

    def __init__(self, into: list) -> None:
        self.into = into

    def write(self, t: Any) -> None:
        self.into.append(t)
