"""NVDLA's DMA read port as a platform memory: the agent a client's read requests meet (MCIF or CVIF), for any
NVDLA client (PDP, SDP, CDP RDMAs share the interface), backed by the project's memory image
(:class:`dlaverif.agents.axi_mem.SparseMemory`) and with the knobs of our AXI memory agent.

The interface (nvdla/hw nvdlav1; file:line in ``vmod/nvdla/pdp/`` of the PDP read DMA, the same packets in every
client):

* request ``<req>_valid`` / ``<req>_ready`` / ``<req>_pd`` (``RDMA_ig.v:899-901``): ``[63:0]`` byte address,
  ``[78:64]`` size in 32-byte atoms minus 1 (:data:`ATOM`);
* response ``<rsp>_valid`` / ``<rsp>_ready`` / ``<rsp>_pd`` (``RDMA_eg.v:750-751``): ``[511:0]`` two atoms, the lower
  address in the low half, ``[513:512]`` a mask of the halves that hold data. NVDLA's memory interface packs a
  request's atoms two by two from its first and sets ``01`` only on the last response of a request of an odd
  number of atoms, ``11`` otherwise (``nocif/NV_NVDLA_MCIF_READ_eg.v:1095`` in nvdla/hw); the half a mask clears
  carries :data:`POISON` bytes here, so a client that reads it is caught;
* credit ``<credit>``: one pulse per response the client took out of its latency FIFO. The memory interface grants
  each client :attr:`NvdlaReadPort.credits` slots (61 for the PDP: its latency FIFO) and hands over a response only
  while fewer than that many are delivered and not credited back (a request of more atoms is answered as slots
  free up); a pulse with nothing owed is a protocol violation. A client without a credit wire (NVIDIA's CDMA takes
  its responses by ``<rsp>_ready`` alone) names none (``credit=None``): its responses are then paced by
  ``<rsp>_ready`` only, the back-pressure every port has.

:class:`NvdlaReadMemory` serves several such ports (a client's MCIF and CVIF) from one memory, publishing on the
analysis ports our AXI agent has: ``ar_ap`` a :class:`dlaverif.agents.axi_mem.Burst` per accepted request (``arid`` the
port's index, ``len`` the size field, ``size`` 5: 32-byte atoms, ``burst`` INCR), ``r_ap`` an
:class:`dlaverif.agents.axi_mem.RBeat` per response, and ``violation_ap`` the credit violations. :class:`NvdlaBackend`
puts it together with a flagged output stream (:mod:`dlaverif.agents.nvdla.flagged_stream`) as a backend of
:class:`dlaverif.platform.tb.ReaderTB` (a :class:`~dlaverif.platform.binding.DutBinding` names it as its ``backend``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional, Union

import numpy as np
from cocotb.clock import Clock
from cocotbext.axi import AxiBurstType

from dlaverif.agents.analysis import AnalysisPort
from dlaverif.agents.axi_mem import GUARD, Burst, SparseMemory, _new_rbeat
from dlaverif.agents.clocked import ClockLoop
from dlaverif.agents.nvdla.flagged_stream import FlaggedStream, FlaggedStreamMonitor
from dlaverif.agents.signals import in_reset, level_reader, uint_reader, uint_writer
from dlaverif.agents.stream import StreamReadyDriver
from dlaverif.platform.backends import PythonAgents

ATOM = 32  # bytes of an NVDLA memory atom
ATOM_LOG2 = 5
BEAT_ATOMS = 2  # atoms per response (514-bit packet)
ADDR_BITS = 64
SIZE_LSB, SIZE_BITS = 64, 15
POISON = 0xEE  # the bytes of a response half its mask clears


@dataclass(frozen=True)
class NvdlaReadPort:
    """One DMA read port of a client: the prefixes of its request and response packets, its credit pulse and the
    latency-FIFO slots the memory interface grants it (``credit=None``: no credit wire, back-pressure by
    ``<rsp>_ready`` alone)."""

    req: str  # <req>_valid, <req>_ready, <req>_pd
    rsp: str  # <rsp>_valid, <rsp>_ready, <rsp>_pd
    credit: Optional[str] = None
    credits: int = 61


class NvdlaBurst(Burst):
    """An accepted request: ``len`` + 1 atoms (the bytes the read checker checks), answered by one response per two
    atoms (:attr:`responses`, what job attribution deals the responses by)."""

    @property
    def responses(self) -> int:
        return -(-self.beats // BEAT_ATOMS)


def pack_response(atoms: bytes) -> tuple[int, int]:
    """(payload, mask) of one response holding ``atoms`` (one or two 32-byte atoms, the first in the low half),
    as NVDLA's memory interface packs it (module docstring); the cleared half carries :data:`POISON`."""
    n = len(atoms) // ATOM
    if n not in (1, 2) or len(atoms) % ATOM:
        raise ValueError(f"a response holds one or two {ATOM}-byte atoms, not {len(atoms)} bytes")
    data = atoms if n == 2 else atoms + bytes([POISON]) * ATOM
    return int.from_bytes(data, "little"), (1 << n) - 1


def responses(addr: int, atoms: int, mem: SparseMemory) -> list[tuple[int, int, int]]:
    """The responses of a request of ``atoms`` atoms at ``addr``: (address of the first atom, payload, mask)."""
    out = []
    blob = mem.read(addr, atoms * ATOM)
    for first in range(0, atoms, BEAT_ATOMS):
        part = blob[first * ATOM : min(first + BEAT_ATOMS, atoms) * ATOM]
        payload, mask = pack_response(part)
        out.append((addr + first * ATOM, payload, mask))
    return out


class _PortAgent:
    """The memory side of one :class:`NvdlaReadPort` (requests, responses, credits) on a clock loop."""

    def __init__(self, owner: "NvdlaReadMemory", index: int, dut, port: NvdlaReadPort) -> None:
        self.owner, self.index, self.port = owner, index, port
        sig = owner.binding_signal
        self._req_valid = level_reader(sig(dut, f"{port.req}_valid"))
        self._req_pd = uint_reader(sig(dut, f"{port.req}_pd"))
        self._req_ready = sig(dut, f"{port.req}_ready")
        self._rsp_valid = sig(dut, f"{port.rsp}_valid")
        self._rsp_ready = level_reader(sig(dut, f"{port.rsp}_ready"))
        self._write_rsp = uint_writer(sig(dut, f"{port.rsp}_pd"))
        self._credit = level_reader(sig(dut, port.credit)) if port.credit is not None else None
        self.bursts: deque[Burst] = deque()  # accepted, not fully answered
        self.beats: deque[tuple[int, int, int, bool]] = deque()  # the head request's responses: addr, pd, mask, last
        self.shown: Optional[tuple[int, int, int, bool]] = None  # the response on the wires
        self.delivered = 0  # responses handed over
        self.credited = 0  # credit pulses seen
        self.credit_waits = 0  # cycles a response was due but every slot of the client was taken
        self.ready = False
        #: this port's own (request stalls, response gaps) patterns, set by NvdlaReadMemory.per_port; None: the
        #: memory's shared ones
        self.own: Optional[tuple[Optional[Iterator[int]], Optional[Iterator[int]]]] = None
        self.idle()

    def idle(self) -> None:
        self._rsp_valid.value = 0
        self._req_ready.value = 0
        self.ready = False
        self.bursts.clear()
        self.beats.clear()
        self.shown = None
        self.delivered = self.credited = 0

    def tick(self, cycle: int) -> None:
        """The port's handshakes at one rising edge, then its wires for the next (as the AXI agent's ``_tick``)."""
        o = self.owner
        if self._credit is not None and self._credit() == 1:
            self.credited += 1
            if self.credited > self.delivered:
                o.violation(
                    f"cycle {cycle}: {self.port.credit} pulse #{self.credited} with only {self.delivered} "
                    "response(s) delivered"
                )
        shown = self.shown
        if shown is not None and self._rsp_ready() == 1:
            self.delivered += 1
            o.r_ap.write(_new_rbeat((shown[0], 0, shown[3], cycle)))
            self.shown = shown = None
        if self.ready and self._req_valid() == 1:
            self.accept(cycle)
        req_stalls = o.req_stalls if self.own is None else self.own[0]
        ready = not (req_stalls is not None and next(req_stalls))  # ready for the next edge
        if ready != self.ready:
            self.ready = ready
            self._req_ready.value = int(ready)
        if shown is None:
            self.offer(cycle)

    @staticmethod
    def fields(pd: int) -> tuple[int, int]:
        """(byte address, size field: atoms - 1) of a request packet."""
        return pd & ((1 << ADDR_BITS) - 1), (pd >> SIZE_LSB) & ((1 << SIZE_BITS) - 1)

    def accept(self, cycle: int) -> None:
        o = self.owner
        pd = self._req_pd() or 0
        addr, size = self.fields(pd)
        b = NvdlaBurst(self.index, addr, size, ATOM_LOG2, int(AxiBurstType.INCR), cycle, cycle + o.latency_now())
        self.bursts.append(b)
        o.ar_ap.write(b)

    def offer(self, cycle: int) -> None:
        o = self.owner
        rsp_gaps = o.rsp_gaps if self.own is None else self.own[1]
        gap = rsp_gaps is not None and next(rsp_gaps)
        if not self.beats and self.bursts and self.bursts[0].ready_cycle < cycle:
            b = self.bursts.popleft()
            rsp = o.read_responses(b)
            self.beats.extend((a, pd, m, i == len(rsp) - 1) for i, (a, pd, m) in enumerate(rsp))
        # a free slot in the client's latency FIFO (no credit wire: the response waits for <rsp>_ready alone)
        room = self.port.credit is None or self.delivered - self.credited < self.port.credits
        self.credit_waits += bool(self.beats) and not room
        if self.beats and not gap and room:
            self.shown = addr, pd, mask, last = self.beats.popleft()
            self._write_rsp(pd | mask << (ATOM * BEAT_ATOMS * 8))
            self._rsp_valid.value = 1
        else:
            self._rsp_valid.value = 0

    def busy(self) -> bool:
        return bool(self.bursts or self.beats or self.shown is not None)


class NvdlaReadMemory:
    """One memory behind a client's DMA read ports (module docstring), with the knobs of
    :class:`dlaverif.agents.axi_mem.AxiMemAgent`: ``set_latency``, ``set_ar_stalls`` (request ready withheld),
    ``set_r_gaps`` (response valid withheld), ``inject`` (refused: NVDLA's read response has no error field),
    ``load`` with guard bands, and ``ar_ap`` / ``r_ap`` / ``violation_ap``."""

    bus_bytes = ATOM  # the unit of a request: the read checker's words are atoms
    address_width = ADDR_BITS

    def __init__(
        self,
        dut,
        clock,
        reset,
        ports: tuple[NvdlaReadPort, ...],
        loop: ClockLoop,
        signal: Callable[[Any, str], Any],
        reset_active_high: bool = True,
        size: int = 1 << 40,
        fill: int = GUARD,
    ) -> None:
        self.binding_signal = signal
        self.reset, self._reset_high = reset, reset_active_high
        self.mem = SparseMemory(size, fill)
        self.ar_ap, self.r_ap = AnalysisPort("dma_read.req_ap"), AnalysisPort("dma_read.rsp_ap")
        self.violation_ap = AnalysisPort("dma_read.violation_ap")
        self.latency: Union[int, Callable[[], int]] = 0
        self.req_stalls: Optional[Iterator[int]] = None
        self.rsp_gaps: Optional[Iterator[int]] = None
        self.ports = [_PortAgent(self, i, dut, p) for i, p in enumerate(ports)]
        self._resetting = in_reset(reset, reset_active_high)
        self.loop = loop
        loop.add(self._tick)

    # ------------------------------------------------------------------ memory and knobs (AxiMemAgent's names)
    def load(self, base: int, blob: Union[bytes, np.ndarray], guard: int = 64) -> None:
        """Write ``blob`` at ``base`` with :data:`GUARD` bands of ``guard`` bytes on both sides."""
        data = bytes(np.asarray(blob, np.uint8).reshape(-1)) if isinstance(blob, np.ndarray) else bytes(blob)
        lo, hi = max(0, base - guard), min(self.mem.size, base + len(data) + guard)
        self.mem.write(lo, bytes([GUARD]) * (hi - lo))
        self.mem.write(base, data)

    def set_latency(self, latency: Union[int, Callable[[], int]]) -> None:
        self.latency = latency

    def set_ar_stalls(self, gen: Optional[Iterator[int]]) -> None:
        self.req_stalls = gen

    def set_r_gaps(self, gen: Optional[Iterator[int]]) -> None:
        self.rsp_gaps = gen

    def per_port(self, req_stalls: list[Optional[Iterator[int]]], rsp_gaps: list[Optional[Iterator[int]]]) -> None:
        """Each port its own request-stall and response-gap pattern. The shared patterns of ``set_ar_stalls`` /
        ``set_r_gaps`` are drawn by every port in turn each cycle, so with four ports a one-in-four pattern would
        stall the first port on every cycle and the others never."""
        for port, stalls, gaps in zip(self.ports, req_stalls, rsp_gaps):
            port.own = (stalls, gaps)

    def inject(self, lo: int, hi: int, resp: str = "SLVERR") -> None:
        raise NotImplementedError("NVDLA's DMA read response carries no error: a bus error cannot be injected")

    def clear_faults(self) -> None:
        """Nothing to clear (no faults on this interface)."""

    def latency_now(self) -> int:
        return self.latency() if callable(self.latency) else int(self.latency)

    def read_responses(self, b: Burst) -> list[tuple[int, int, int]]:
        return responses(b.addr, b.len + 1, self.mem)

    # ------------------------------------------------------------------ state
    @property
    def inflight_beats(self) -> int:
        return sum(len(p.beats) + (p.shown is not None) for p in self.ports)

    def owed_credits(self) -> dict[str, int]:
        """Per port with a credit wire: responses delivered and not yet credited back (0 once a client drained
        them)."""
        return {p.port.credit: p.delivered - p.credited for p in self.ports if p.port.credit is not None}

    def idle(self) -> bool:
        return not any(p.busy() for p in self.ports)

    def credit_waits(self) -> int:
        """Cycles a response was due on some port while the client held all its credits."""
        return sum(p.credit_waits for p in self.ports)

    def violation(self, text: str) -> None:
        self.violation_ap.write(text)

    def _tick(self, cycle: int) -> None:
        resetting = in_reset(self.reset, self._reset_high)
        if resetting:
            if not self._resetting:
                for p in self.ports:
                    p.idle()
            self._resetting = True
            return None
        self._resetting = False
        for p in self.ports:
            p.tick(cycle)
        return None


class NvdlaBackend(PythonAgents):
    """The backend (:class:`dlaverif.platform.backends.Backend`) of an NVDLA client: its DMA read ports on one
    :class:`NvdlaReadMemory` and its output as a :class:`~dlaverif.agents.nvdla.flagged_stream.FlaggedStream`, on one
    clock loop; knobs, commit and flush as the default agents' (:class:`~dlaverif.platform.backends.PythonAgents`). A
    binding names it with its ports: ``backend=NvdlaBackend.of(ports, stream)``."""

    boundary = None  # NVDLA's requests may cross 4 KB (the memory interface splits them)

    def __init__(self, dut, binding: Any, ports: tuple[NvdlaReadPort, ...], stream: FlaggedStream) -> None:
        clk, rst = binding.signal(dut, binding.clock), binding.signal(dut, binding.reset.name)
        Clock(clk, binding.period_ns, unit="ns").start(start_high=False)
        self.loop = loop = ClockLoop(clk, binding.period_ns)
        high = binding.reset.active_high
        self.mem = NvdlaReadMemory(dut, clk, rst, ports, loop, binding.signal, reset_active_high=high)
        self.out = FlaggedStreamMonitor(dut, rst, stream, loop, binding.signal, reset_active_high=high)
        self.ready = StreamReadyDriver(dut, clk, stream.prefix, ready=stream.port(stream.ready))

    @classmethod
    def of(cls, ports: tuple[NvdlaReadPort, ...], stream: FlaggedStream) -> Callable[[Any, Any], "NvdlaBackend"]:
        """The backend factory a :class:`~dlaverif.platform.binding.DutBinding` names."""
        return _Factory(cls, ports, stream)


@dataclass(frozen=True)
class _Factory:
    """A frozen, comparable backend factory (bindings are frozen dataclasses)."""

    cls: type
    ports: tuple[NvdlaReadPort, ...]
    stream: FlaggedStream

    def __call__(self, dut, binding: Any) -> Any:
        return self.cls(dut, binding, self.ports, self.stream)
