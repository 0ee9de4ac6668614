"""AXI4 read memory agent: a sparse memory behind cocotbext-axi's AxiSlaveRead, with fault knobs, publishing
every AR burst it accepts and every R beat it returns.

One agent for every reader DUT (cube reader, weight reader, pixel reader, the read engine alone):

* memory: sparse 4 KB pages; bytes never written read as ``fill`` (0xA5), and :meth:`AxiMemAgent.load` writes
  0xA5 guard bands around each image (STYLE.md 1), so a stray read shows up downstream as 0xA5 bytes;
* knobs: read latency (cycles from AR acceptance to the first R beat; an int or a callable returning one per
  burst), ARREADY stalls (pause generator on ``ar_channel``), RVALID gaps (pause generator on ``r_channel``),
  SLVERR/DECERR injection on address ranges (:meth:`inject`);
* analysis ports: ``ar_ap`` publishes a :class:`Burst` (id, addr, len, size, burst, cycle) for every accepted AR,
  ``r_ap`` an :class:`RBeat` (bus-word address, RRESP, RLAST, cycle) for every R beat at its handshake.
  Protocol and footprint checks subscribe to them (:mod:`tb.checkers.axi_read`); the agent checks nothing itself.

Bursts are served in order (one AXI ID stream, as the DUTs use): the AR side accepts bursts as fast as the
ARREADY pause generator allows and queues them; the R side starts each burst no earlier than its
``accept cycle + latency``, so several outstanding reads overlap their latency like a real memory.
"""
from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterator, Optional, Union

import cocotb
import numpy as np
from cocotb.queue import Queue
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiBurstType, AxiReadBus, AxiResp, AxiSlaveRead

from models.core.arith import as_bytes

from .analysis import AnalysisPort, Batch
from .signals import high

PAGE = 4096
GUARD = 0xA5


class SparseMemory:
    """Byte-addressed sparse memory in 4 KB pages; unwritten bytes read as ``fill``."""

    def __init__(self, size: int, fill: int = GUARD) -> None:
        self.size = size
        self.fill = fill
        self.pages: dict[int, bytearray] = {}

    def _check(self, address: int, length: int) -> None:
        if address < 0 or length < 0 or address + length > self.size:
            raise ValueError(f"access 0x{address:x}+{length} outside the {self.size:#x}-byte memory")

    def write(self, address: int, data: Union[bytes, bytearray, memoryview, np.ndarray]) -> None:
        buf = as_bytes(data)
        self._check(address, len(buf))
        off = 0
        while off < len(buf):
            page, start = divmod(address + off, PAGE)
            n = min(PAGE - start, len(buf) - off)
            block = self.pages.get(page)
            if block is None:
                block = self.pages[page] = bytearray([self.fill]) * PAGE
            block[start:start + n] = buf[off:off + n]
            off += n

    def read(self, address: int, length: int) -> bytes:
        self._check(address, length)
        out = bytearray()
        while length > 0:
            page, start = divmod(address, PAGE)
            n = min(PAGE - start, length)
            block = self.pages.get(page)
            out += block[start:start + n] if block is not None else bytes([self.fill]) * n
            address += n
            length -= n
        return bytes(out)

    def clear(self) -> None:
        self.pages.clear()


@dataclass
class Burst:
    """One accepted AR transfer."""

    arid: int
    addr: int
    len: int      # ARLEN (beats - 1)
    size: int     # ARSIZE (log2 bytes per beat)
    burst: int    # ARBURST
    cycle: int    # clock cycle of acceptance
    ready_cycle: int = 0  # first cycle its data may be returned (cycle + latency)

    @property
    def beats(self) -> int:
        return self.len + 1

    @property
    def nbytes(self) -> int:
        return self.beats << self.size

    def __str__(self) -> str:
        return (f"AR id={self.arid} addr=0x{self.addr:x} len={self.len} size={self.size} "
                f"burst={self.burst} @cycle {self.cycle}")


@dataclass(frozen=True)
class RBeat:
    """One R beat handed to the bus."""

    addr: int     # bus-aligned address of the beat
    resp: int     # RRESP (AxiResp value)
    last: bool    # RLAST
    cycle: int    # clock cycle of its handshake (RVALID & RREADY)


class RBeatBatch(Batch):
    """A job's R beats as columns (published by the fast path's memory, ``tb/hdl_mem.py``): address, RRESP, RLAST
    and cycle arrays. Indexing gives :class:`RBeat` objects."""

    def __init__(self, addr: np.ndarray, resp: np.ndarray, last: np.ndarray, cycle: np.ndarray) -> None:
        self.addr, self.resp, self.last, self.cycle = addr, resp, last, cycle

    def __len__(self) -> int:
        return int(self.addr.size)

    def _row(self, i: int) -> RBeat:
        return RBeat(int(self.addr[i]), int(self.resp[i]), bool(self.last[i]), int(self.cycle[i]))

    def _rows(self, idx: np.ndarray) -> "RBeatBatch":
        return RBeatBatch(self.addr[idx], self.resp[idx], self.last[idx], self.cycle[idx])


@dataclass(frozen=True)
class Fault:
    lo: int
    hi: int          # exclusive
    resp: AxiResp

    def hits(self, lo: int, hi: int) -> bool:
        return lo < self.hi and self.lo < hi


PauseFactory = Optional[Callable[[], Iterator[int]]]


class AxiMemAgent(AxiSlaveRead):
    """Memory + fault knobs + AR monitor on an AXI4 read port (``m_axi`` prefix on the DUT by default)."""

    def __init__(self, dut, clock, reset, prefix: str = "m_axi", size: Optional[int] = None,
                 period_ns: float = 10.0, fill: int = GUARD, log_level: int = logging.WARNING) -> None:
        # set before super().__init__: the base class starts the processes from inside its constructor
        self._pending: Queue = Queue()
        self._ar_cr = self._r_cr = self._watch_cr = None
        self._sent: deque = deque()      # (word, resp, last) of beats handed to the R channel, not yet accepted
        self._period_ns = period_ns
        self.latency: Union[int, Callable[[], int]] = 0
        self.faults: list[Fault] = []
        self.ar_ap = AnalysisPort("ar_ap")
        self.r_ap = AnalysisPort("r_ap")
        self.beats_served = 0
        self._inflight_beats = 0
        bus = AxiReadBus.from_prefix(dut, prefix)
        logging.getLogger(f"cocotb.{dut._name}.{prefix}").setLevel(log_level)
        logging.getLogger(f"cocotb.{dut._name}").setLevel(log_level)
        super().__init__(bus, clock, reset)
        self.log.setLevel(log_level)
        self.ar_channel.queue_occupancy_limit = 64
        for ch in (self.ar_channel, self.r_channel):
            ch.log.setLevel(log_level)
        self.mem = SparseMemory(size if size is not None else 1 << self.address_width, fill)
        self.bus_bytes = self.byte_lanes

    # ------------------------------------------------------------------ memory
    def load(self, base: int, blob: Union[bytes, np.ndarray], guard: int = 64) -> None:
        """Write ``blob`` at ``base`` with 0xA5 guard bands of ``guard`` bytes on both sides."""
        data = as_bytes(blob)
        lo = max(0, base - guard)
        hi = min(self.mem.size, base + len(data) + guard)
        self.mem.write(lo, bytes([GUARD]) * (hi - lo))
        self.mem.write(base, data)

    def read(self, address: int, length: int) -> bytes:
        return self.mem.read(address, length)

    # ------------------------------------------------------------------ knobs
    def set_latency(self, latency: Union[int, Callable[[], int]]) -> None:
        """Cycles from AR acceptance until the burst's first R beat may be sent."""
        self.latency = latency

    def set_ar_stalls(self, gen: Optional[Iterator[int]]) -> None:
        """Withhold ARREADY while the generator yields 1 (None: never)."""
        self.ar_channel.set_pause_generator(gen)
        if gen is None:
            self.ar_channel.pause = False  # a generator stopped mid-stall would leave the channel paused

    def set_r_gaps(self, gen: Optional[Iterator[int]]) -> None:
        """Withhold RVALID while the generator yields 1 (None: never)."""
        self.r_channel.set_pause_generator(gen)
        if gen is None:
            self.r_channel.pause = False

    def inject(self, lo: int, hi: int, resp: Union[AxiResp, str] = AxiResp.SLVERR) -> None:
        """Answer every beat that overlaps ``[lo, hi)`` with ``resp`` (SLVERR or DECERR)."""
        if isinstance(resp, str):
            resp = AxiResp[resp.upper()]
        self.faults.append(Fault(lo, hi, AxiResp(resp)))

    def clear_faults(self) -> None:
        self.faults.clear()

    # ------------------------------------------------------------------ state
    def idle(self) -> bool:
        """No burst accepted and not yet fully answered."""
        return self._inflight_beats == 0 and self._pending.empty()

    @property
    def inflight_beats(self) -> int:
        return self._inflight_beats

    def cycle(self) -> int:
        return int(get_sim_time("ns") // self._period_ns)

    # ------------------------------------------------------------------ BFM processes
    def _handle_reset(self, state) -> None:
        if state:
            for cr in (self._ar_cr, self._r_cr, self._watch_cr):
                if cr is not None:
                    cr.cancel()
            self._ar_cr = self._r_cr = self._watch_cr = None
            self._sent.clear()
            self.ar_channel.clear()
            self.r_channel.clear()
            while not self._pending.empty():
                self._pending.get_nowait()
            self._inflight_beats = 0
        else:
            if self._ar_cr is None:
                self._ar_cr = cocotb.start_soon(self._accept_ar())
                self._r_cr = cocotb.start_soon(self._serve_r())
                self._watch_cr = cocotb.start_soon(self._watch_r())

    async def _accept_ar(self) -> None:
        while True:
            ar = await self.ar_channel.recv()
            cyc = self.cycle()
            lat = self.latency() if callable(self.latency) else int(self.latency)
            b = Burst(int(getattr(ar, "arid", 0)), int(ar.araddr), int(getattr(ar, "arlen", 0)),
                      int(getattr(ar, "arsize", self.max_burst_size)), int(getattr(ar, "arburst", 1)), cyc, cyc + lat)
            self._inflight_beats += b.beats
            self.ar_ap.write(b)
            self._pending.put_nowait(b)

    async def _watch_r(self) -> None:
        """Publish each R beat at its handshake (RVALID & RREADY at a rising edge); sleeps while RVALID is low."""
        bus = self.r_channel.bus
        clk, rise = RisingEdge(self.clock), RisingEdge(bus.rvalid)
        while True:
            await clk
            if not high(bus.rvalid):
                await rise
                continue
            if high(bus.rready) and self._sent:
                word, resp, last = self._sent.popleft()
                self.beats_served += 1
                self._inflight_beats -= 1
                self.r_ap.write(RBeat(word, resp, last, self.cycle()))

    async def _serve_r(self) -> None:
        bw = self.bus_bytes
        while True:
            b = await self._pending.get()
            wait = b.ready_cycle - self.cycle()
            if wait > 0:
                await ClockCycles(self.clock, wait)
            nb = 1 << min(b.size, self.max_burst_size)
            addr = b.addr - b.addr % nb
            for n in range(b.beats):
                word = addr - addr % bw
                r = self.r_channel._transaction_obj()
                r.rid = b.arid
                r.rlast = n == b.len
                resp = AxiResp.OKAY
                for f in self.faults:
                    if f.hits(word, word + bw):
                        resp = f.resp
                        break
                if resp == AxiResp.OKAY and word + bw <= self.mem.size:
                    data = self.mem.read(word, bw)
                else:
                    data = bytes(bw)
                    resp = resp if resp != AxiResp.OKAY else AxiResp.DECERR
                r.rresp = resp
                r.rdata = int.from_bytes(data, "little")
                self._sent.append((word, int(resp), n == b.len))
                await self.r_channel.send(r)
                if b.burst != AxiBurstType.FIXED:
                    addr += nb
