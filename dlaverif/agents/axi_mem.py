"""AXI4 read memory agent: a sparse memory on a DUT's AXI4 read port (bound with cocotbext-axi's ``AxiReadBus``),
with fault knobs, publishing every AR burst it accepts and every R beat it returns.

One agent for every reader DUT (cube reader, weight reader, pixel reader, the read engine alone):

* memory: sparse 4 KB pages; bytes never written read as ``fill`` (0xA5), and :meth:`AxiMemAgent.load` writes
  0xA5 guard bands around each image (STYLE.md 1), so a stray read shows up downstream as 0xA5 bytes;
* knobs: read latency (cycles from AR acceptance to the first R beat; an int or a callable returning one per
  burst), ARREADY stalls and RVALID gaps (stall patterns, :mod:`dlaverif.agents.stalls`), SLVERR/DECERR injection on
  address ranges (:meth:`inject`);
* analysis ports: ``ar_ap`` publishes a :class:`Burst` (id, addr, len, size, burst, cycle) for every accepted AR,
  ``r_ap`` an :class:`RBeat` (bus-word address, RRESP, RLAST, cycle) for every R beat at its handshake.
  Protocol and footprint checks subscribe to them (:mod:`dlaverif.checkers.axi_read`); the agent checks nothing itself.

Bursts are served in order (one AXI ID stream, as the DUTs use): the AR side accepts bursts as fast as the
ARREADY pattern allows and queues them; the R side starts each burst no earlier than its ``accept cycle +
latency``, so several outstanding reads overlap their latency like a real memory.

The AR and R channels are driven by one work function on the testbench's :class:`~dlaverif.agents.clocked.ClockLoop`
(shared with the stream monitor), not by cocotbext-axi's ``AxiSlaveRead``: its R channel source and the pause
coroutines took about a third of the simulator process of the default path (a sampling profile). The timing is
the one that slave had (first beat at ``accept + latency + 1``, beats back to back, ARREADY high when not stalled):
every exact cycle count of the test suite is unchanged.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass
from functools import partial
from typing import Callable, Iterator, NamedTuple, Optional, Union

import cocotb
import numpy as np
from cocotb.simtime import get_sim_time
from cocotb.triggers import FallingEdge, RisingEdge, ValueChange
from cocotbext.axi import AxiBurstType, AxiReadBus, AxiResp

from dlaverif.models.core.arith import as_bytes

from .analysis import AnalysisPort, Batch
from .clocked import ClockLoop
from .signals import in_reset, level_reader, uint_reader, uint_writer

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
            block[start : start + n] = buf[off : off + n]
            off += n

    def read(self, address: int, length: int) -> bytes:
        self._check(address, length)
        out = bytearray()
        while length > 0:
            page, start = divmod(address, PAGE)
            n = min(PAGE - start, length)
            block = self.pages.get(page)
            out += block[start : start + n] if block is not None else bytes([self.fill]) * n
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
    len: int  # ARLEN (beats - 1)
    size: int  # ARSIZE (log2 bytes per beat)
    burst: int  # ARBURST
    cycle: int  # clock cycle of acceptance
    ready_cycle: int = 0  # first cycle its data may be returned (cycle + latency)

    @property
    def beats(self) -> int:
        return self.len + 1

    @property
    def responses(self) -> int:
        """The read responses (R beats) that answer it: one per beat on AXI; a bus packing several beats' worth into
        one response says so in a subclass (:class:`dlaverif.agents.nvdla.dma_read.NvdlaBurst`)."""
        return self.beats

    @property
    def nbytes(self) -> int:
        return self.beats << self.size

    def __str__(self) -> str:
        return (
            f"AR id={self.arid} addr=0x{self.addr:x} len={self.len} size={self.size} "
            f"burst={self.burst} @cycle {self.cycle}"
        )


class RBeat(NamedTuple):
    """One R beat handed to the bus (a named tuple: one is built per beat, and a tuple is the cheapest immutable
    record to build)."""

    addr: int  # bus-aligned address of the beat
    resp: int  # RRESP (AxiResp value)
    last: bool  # RLAST
    cycle: int  # clock cycle of its handshake (RVALID & RREADY)


#: builds an :class:`RBeat` from a plain tuple without the named tuple's Python-level ``__new__`` (one per beat)
_new_rbeat = partial(tuple.__new__, RBeat)


class RBeatBatch(Batch):
    """A job's R beats as columns (published by the fast path's memory, ``dlaverif/fastpath/harness.py``): address,
    RRESP, RLAST and cycle arrays. Indexing gives :class:`RBeat` objects."""

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
    hi: int  # exclusive
    resp: AxiResp

    def hits(self, lo: int, hi: int) -> bool:
        return lo < self.hi and self.lo < hi


class AxiMemAgent:
    """Memory + fault knobs + AR/R monitor on an AXI4 read port (``m_axi`` prefix on the DUT by default)."""

    def __init__(
        self,
        dut,
        clock,
        reset,
        prefix: str = "m_axi",
        size: Optional[int] = None,
        period_ns: float = 10.0,
        fill: int = GUARD,
        log_level: int = logging.WARNING,
        loop: Optional[ClockLoop] = None,
        reset_active_high: bool = True,
    ) -> None:
        bus = AxiReadBus.from_prefix(dut, prefix)
        self.ar, self.r = bus.ar, bus.r
        self.clock, self.reset = clock, reset
        self._reset_high = reset_active_high
        self.log = logging.getLogger(f"cocotb.{dut._name}.{prefix}")
        self.log.setLevel(log_level)
        self._period_ns = period_ns
        self.bus_bytes = self.byte_lanes = len(self.r.rdata) // 8
        self.max_burst_size = (self.bus_bytes - 1).bit_length()
        self.address_width = len(self.ar.araddr)
        self.mem = SparseMemory(size if size is not None else 1 << self.address_width, fill)
        self.latency: Union[int, Callable[[], int]] = 0
        self.faults: list[Fault] = []
        self.ar_ap = AnalysisPort("ar_ap")
        self.r_ap = AnalysisPort("r_ap")
        self.beats_served = 0
        self._inflight_beats = 0
        self._ar_stalls: Optional[Iterator[int]] = None
        self._r_gaps: Optional[Iterator[int]] = None
        self._bursts: deque[Burst] = deque()  # accepted, not fully answered, in order
        self._beats: deque[tuple] = deque()  # the head burst's remaining beats: (word, resp, last, data, id)
        self._shown: Optional[tuple] = None  # the beat on the R wires (RVALID high), as in _beats
        self._arready = False
        self._resetting = False
        self._ar_rise, self._released = (
            RisingEdge(self.ar.arvalid),
            (FallingEdge(reset) if reset_active_high else RisingEdge(reset)),
        )
        self._rlast, self._rvalid = self.r.rlast, self.r.rvalid
        self._rresp, self._rid = getattr(self.r, "rresp", None), getattr(self.r, "rid", None)
        self._rready, self._arvalid = level_reader(self.r.rready), level_reader(self.ar.arvalid)
        self._write_rdata = uint_writer(self.r.rdata)
        self._ar_fields = tuple(
            uint_reader(sig) if sig is not None else (lambda: 0)  # an absent ARID reads 0
            for sig in (getattr(self.ar, f, None) for f in ("arid", "araddr", "arlen", "arsize", "arburst"))
        )
        self._drive_idle()
        cocotb.start_soon(self._watch_reset())
        self.loop = loop if loop is not None else ClockLoop(clock, period_ns)
        self.loop.add(self._tick)

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
        """Withhold ARREADY on the cycles where the pattern yields 1 (None: never)."""
        self._ar_stalls = gen

    def set_r_gaps(self, gen: Optional[Iterator[int]]) -> None:
        """Do not start an R beat on the cycles where the pattern yields 1 (None: never). A beat on the wires stays
        there until its handshake, as AXI requires."""
        self._r_gaps = gen

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
        return self._inflight_beats == 0

    @property
    def inflight_beats(self) -> int:
        return self._inflight_beats

    def cycle(self) -> int:
        return int(get_sim_time("ns") // self._period_ns)

    # ------------------------------------------------------------------ the port
    def _drive_idle(self) -> None:
        self._rvalid.value = 0
        self._arready = self._ar_stalls is None
        self.ar.arready.value = int(self._arready)
        self._wire_resp = self._wire_id = self._wire_last = -1  # what the R wires carry (written on change)
        self._wire_valid = False

    async def _watch_reset(self) -> None:
        """Reset (of either polarity) drops every burst and beat and parks the port until it is released."""
        change = ValueChange(self.reset)
        while True:
            await change
            self._resetting = in_reset(self.reset, self._reset_high)
            if self._resetting:
                self._bursts.clear()
                self._beats.clear()
                self._shown = None
                self._inflight_beats = 0
                self._drive_idle()

    def _accept(self, cycle: int) -> None:
        lat = self.latency() if callable(self.latency) else int(self.latency)
        arid, addr, alen, size, burst = (read() or 0 for read in self._ar_fields)  # X/Z reads as 0
        b = Burst(arid, addr, alen, size, burst, cycle, cycle + lat)
        self._inflight_beats += b.beats
        self._bursts.append(b)
        self.ar_ap.write(b)

    def _expand(self, b: Burst) -> None:
        """The beats of burst ``b`` (read from memory when its first beat is due), with their responses."""
        bw = self.bus_bytes
        nb = 1 << min(b.size, self.max_burst_size)
        step = 0 if b.burst == AxiBurstType.FIXED else nb
        addr = b.addr - b.addr % nb
        words = [(addr + n * step) - (addr + n * step) % bw for n in range(b.beats)]
        whole = step == bw and words[-1] + bw <= self.mem.size
        blob = self.mem.read(words[0], len(words) * bw) if whole else b""
        for n, word in enumerate(words):
            resp = AxiResp.OKAY
            for f in self.faults:
                if f.hits(word, word + bw):
                    resp = f.resp
                    break
            if resp != AxiResp.OKAY:
                data = 0
            elif whole:
                data = int.from_bytes(blob[n * bw : (n + 1) * bw], "little")
            elif word + bw <= self.mem.size:
                data = int.from_bytes(self.mem.read(word, bw), "little")
            else:
                data, resp = 0, AxiResp.DECERR
            self._beats.append((word, int(resp), n == b.len, data, b.arid))

    def _tick(self, cycle: int):
        """The port's work at one rising edge (on :class:`~dlaverif.agents.clocked.ClockLoop`): the R and AR handshakes
        of that edge (RVALID & RREADY, ARVALID & ARREADY, as on the wires), then ARREADY and the next R beat for the
        following edge. A burst accepted at cycle ``c`` puts its first beat on the wires at cycle
        ``c + latency + 1``; beats follow back to back. With nothing accepted, nothing on the wires and ARVALID low,
        it sleeps until ARVALID rises (in reset: until reset is released)."""
        if self._resetting:
            return self._released
        ar = self.ar
        shown = self._shown
        if shown is not None and self._rready() == 1:
            self._inflight_beats -= 1
            self.beats_served += 1
            self.r_ap.write(_new_rbeat((shown[0], shown[1], shown[2], cycle)))
            self._shown = shown = None
        if self._arready and self._arvalid() == 1:
            self._accept(cycle)
        # ARREADY for the next edge
        ready = self._ar_stalls is None or not next(self._ar_stalls)
        if ready != self._arready:
            self._arready = ready
            ar.arready.value = int(ready)
        if shown is not None:
            return None
        # the next R beat
        gap = self._r_gaps is not None and next(self._r_gaps)
        if not self._beats and self._bursts and self._bursts[0].ready_cycle < cycle:
            self._expand(self._bursts[0])
        if self._beats and not gap:
            self._shown = _, resp, last, data, arid = self._beats.popleft()
            self._write_rdata(data)
            if last != self._wire_last:
                self._rlast.value = int(last)
                self._wire_last = last
            if self._rresp is not None and resp != self._wire_resp:
                self._rresp.value = self._wire_resp = resp
            if self._rid is not None and arid != self._wire_id:
                self._rid.value = self._wire_id = arid
            if last:
                self._bursts.popleft()
            if not self._wire_valid:
                self._rvalid.value = 1
                self._wire_valid = True
            return None
        if self._wire_valid:
            self._rvalid.value = 0
            self._wire_valid = False
        if not self._bursts and not self._beats and self._arvalid() != 1:
            return self._ar_rise
        return None
