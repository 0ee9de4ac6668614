"""AXI4 read memory agent: a sparse memory behind cocotbext-axi's AxiSlaveRead, with fault knobs and an AR monitor.

One agent for every reader DUT (cube reader, weight decompressor, pixel reader):

* memory: sparse 4 KB pages; bytes never written read as ``fill`` (0xA5), and :meth:`AxiMemAgent.load` writes
  0xA5 guard bands around each image (STYLE.md 1), so a stray read shows up downstream as 0xA5 bytes;
* knobs: read latency (cycles from AR acceptance to the first R beat; an int or a callable returning one per
  burst), ARREADY stalls (pause generator on ``ar_channel``), RVALID gaps (pause generator on ``r_channel``),
  SLVERR/DECERR injection on address ranges (:meth:`inject`);
* AR monitor: every accepted burst is recorded (:class:`Burst`: id, addr, len, size, burst, cycle) and checked
  on the spot: 4 KB rule, ARSIZE = bus width, INCR bursts, and every beat inside the job's byte window
  (:meth:`expect`): within ``[base, base + extent)`` rounded out to bus words, and (``strict``) only bus words
  that hold at least one byte of an atom of the descriptor. A job that must issue no AXI traffic (illegal
  descriptor) is announced with ``expect(None)``; any burst is then a violation.

Violations are collected in :attr:`violations` (never raised inside the BFM, so the bus keeps running and the
scoreboard reports them with the job that caused them).

Bursts are served in order (one AXI ID stream, as the DUT uses): the AR side accepts bursts as fast as the
ARREADY pause generator allows and queues them; the R side starts each burst no earlier than its
``accept cycle + latency``, so several outstanding reads overlap their latency like a real memory.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Optional, Union

import cocotb
import numpy as np
from cocotb.queue import Queue
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiBurstType, AxiReadBus, AxiResp, AxiSlaveRead

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
        buf = data.tobytes() if isinstance(data, np.ndarray) else bytes(data)
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
        self._ar_cr = self._r_cr = None
        self._period_ns = period_ns
        self.latency: Union[int, Callable[[], int]] = 0
        self.faults: list[Fault] = []
        self.bursts: list[Burst] = []
        self.violations: list[str] = []
        self.strict = True
        self.beats_served = 0
        self.error_beats = 0
        self._inflight_beats = 0
        self._window: Optional[tuple[int, int]] = None
        self._allowed: Optional[set[int]] = None
        self._expect_traffic = True
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
        data = blob.tobytes() if isinstance(blob, np.ndarray) else bytes(blob)
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

    # ------------------------------------------------------------------ monitor
    def expect(self, desc=None, window: Optional[tuple[int, int]] = None, strict: bool = True) -> None:
        """Announce the next job: its descriptor (a BlockedCubeDescriptor), an explicit byte window, or
        nothing (``desc`` and ``window`` None: the job must issue no AXI read at all)."""
        self.strict = strict
        self._allowed = None
        if desc is None and window is None:
            self._window, self._expect_traffic = None, False
            return
        self._expect_traffic = True
        if desc is not None:
            window = (desc.base, desc.base + desc.extent)
            if strict:
                bw = self.bus_bytes
                starts = desc.atom_addresses().reshape(-1).astype(np.int64)
                first, last = starts // bw, (starts + desc.atom_bytes - 1) // bw
                span = int((last - first).max()) + 1 if starts.size else 0
                words = first[:, None] + np.arange(span)[None, :]
                words = words[words <= last[:, None]]
                self._allowed = set(np.unique(words).tolist())
        self._window = window

    def take(self) -> tuple[list[Burst], list[str]]:
        """Bursts and violations recorded since the last call (and forget them)."""
        out = (self.bursts, self.violations)
        self.bursts, self.violations = [], []
        return out

    def idle(self) -> bool:
        """No burst accepted and not yet fully answered."""
        return self._inflight_beats == 0 and self._pending.empty()

    @property
    def inflight_beats(self) -> int:
        return self._inflight_beats

    def cycle(self) -> int:
        return int(get_sim_time("ns") // self._period_ns)

    def _check_burst(self, b: Burst) -> None:
        bad = self.violations
        if not self._expect_traffic:
            bad.append(f"{b}: read issued by a job that must not touch memory")
            return
        if b.size != self.max_burst_size:
            bad.append(f"{b}: ARSIZE {b.size} is not the bus width ({self.bus_bytes} bytes -> {self.max_burst_size})")
        if b.burst != AxiBurstType.INCR:
            bad.append(f"{b}: ARBURST {b.burst} is not INCR")
        nb = 1 << b.size
        start = b.addr - b.addr % nb
        if b.burst == AxiBurstType.INCR and (start % PAGE) + b.beats * nb > PAGE:
            bad.append(f"{b}: burst crosses a 4 KB boundary (0x{start:x} + {b.beats * nb} bytes)")
        bw = self.bus_bytes
        lo_word, hi_word = start // bw, (start + b.beats * nb - 1) // bw
        if self._window is not None:
            wlo, whi = self._window
            if lo_word * bw < wlo - wlo % bw or (hi_word + 1) * bw > -(-whi // bw) * bw:
                bad.append(f"{b}: reads 0x{lo_word * bw:x}..0x{(hi_word + 1) * bw - 1:x} outside the job's "
                           f"window 0x{wlo:x}..0x{whi - 1:x}")
                return
        if self._allowed is not None:
            stray = [w for w in range(lo_word, hi_word + 1) if w not in self._allowed]
            if stray:
                bad.append(f"{b}: {len(stray)} beat(s) hold no byte of any atom, first at 0x{stray[0] * bw:x}")

    # ------------------------------------------------------------------ BFM processes
    def _handle_reset(self, state) -> None:
        if state:
            for cr in (self._ar_cr, self._r_cr):
                if cr is not None:
                    cr.cancel()
            self._ar_cr = self._r_cr = None
            self.ar_channel.clear()
            self.r_channel.clear()
            while not self._pending.empty():
                self._pending.get_nowait()
            self._inflight_beats = 0
        else:
            if self._ar_cr is None:
                self._ar_cr = cocotb.start_soon(self._accept_ar())
                self._r_cr = cocotb.start_soon(self._serve_r())

    async def _accept_ar(self) -> None:
        while True:
            ar = await self.ar_channel.recv()
            cyc = self.cycle()
            lat = self.latency() if callable(self.latency) else int(self.latency)
            b = Burst(int(getattr(ar, "arid", 0)), int(ar.araddr), int(getattr(ar, "arlen", 0)),
                      int(getattr(ar, "arsize", self.max_burst_size)), int(getattr(ar, "arburst", 1)), cyc, cyc + lat)
            self.bursts.append(b)
            self._check_burst(b)
            self._inflight_beats += b.beats
            self._pending.put_nowait(b)

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
                    self.error_beats += resp != AxiResp.OKAY
                    resp = resp if resp != AxiResp.OKAY else AxiResp.DECERR
                r.rresp = resp
                r.rdata = int.from_bytes(data, "little")
                await self.r_channel.send(r)
                self.beats_served += 1
                self._inflight_beats -= 1
                if b.burst != AxiBurstType.FIXED:
                    addr += nb


# ---------------------------------------------------------------------- pause generator factories
def never() -> Iterator[int]:
    while True:
        yield 0


def every_nth(n: int, stall: int = 1) -> Callable[[], Iterator[int]]:
    """Factory: ``stall`` busy cycles out of every ``n``."""
    def gen() -> Iterator[int]:
        while True:
            for i in range(n):
                yield 1 if i < stall else 0
    gen.__name__ = f"stall{stall}of{n}"
    return gen


def random_stalls(rng: np.random.Generator, p: float, chunk: int = 4096) -> Iterator[int]:
    """Stall with probability ``p`` each cycle (drawn in numpy chunks to stay cheap)."""
    while True:
        for v in (rng.random(chunk) < p).tolist():
            yield int(v)


def bursty(rng: np.random.Generator, on: int = 8, off: int = 8) -> Iterator[int]:
    """Alternating runs of ready and stalled cycles with random lengths up to ``on``/``off``."""
    while True:
        for _ in range(int(rng.integers(1, on + 1))):
            yield 0
        for _ in range(int(rng.integers(1, off + 1))):
            yield 1


def pattern(values: Iterable[int]) -> Iterator[int]:
    vals = list(values)
    while True:
        yield from vals
