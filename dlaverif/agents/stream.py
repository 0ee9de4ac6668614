"""AXI4-Stream agent for the readers' output port: a passive monitor that publishes every transfer, and a
separate TREADY driver for backpressure.

:class:`AxiStreamMonitor` only samples (TDATA, TKEEP, TUSER, TLAST, TVALID and TREADY as they are on the wires), so
it works the same on a port driven by anything; each transfer (TVALID & TREADY at a rising edge) is published on
``ap`` as a :class:`Beat`: the low bytes of TDATA selected by TKEEP, TKEEP, TLAST, the raw TUSER, the cycle and the
values of the further sidebands it was asked to capture (``sidebands``, e.g. TID and TDEST: AMBA AXI4-Stream 2.1).
TUSER's meaning belongs to the block (the cube reader's ``{n, c, h, w}``, a weight group index, a pixel's
``(h, w)``): the block decodes it. It is cheap per cycle: while TVALID is low it sleeps on TVALID's rising edge,
and it converts TDATA only on a handshake.

Protocol checks of the AXI4-Stream handshake are made where they can be seen, in the monitor, and published as
text on ``violation_ap``: TKEEP a contiguous run of low bytes, no X/Z in the kept bytes or in TUSER/TLAST, and
while a transfer is stalled (TVALID & !TREADY) TDATA/TKEEP/TUSER/TLAST stay stable and TVALID stays high until
the handshake.

:class:`StreamReadyDriver` drives TREADY from a stall pattern (:mod:`dlaverif.agents.stalls`; 1 = withhold TREADY). It
changes TREADY on falling edges only, so every sampler sees a settled value at the rising edge whatever the order
in which coroutines wake; with no pattern TREADY stays high and the driver does not run at all.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Iterator, NamedTuple, Optional, Sequence, Union

import cocotb
import numpy as np
from cocotb.simtime import get_sim_time
from cocotb.task import Task
from cocotb.triggers import FallingEdge, RisingEdge, ValueChange

from .analysis import AnalysisPort, Batch
from .clocked import ClockLoop
from .signals import bits, bits_reader, in_reset, level_reader, low_bytes_of, uint_reader


class Beat(NamedTuple):
    """One AXI4-Stream transfer (a named tuple: one is built per transfer)."""

    data: bytes
    keep: int
    last: bool
    user: int
    cycle: int
    ids: tuple[Optional[int], ...] = ()  # the monitor's ``sidebands`` (e.g. TID, TDEST) in its order; None: X/Z


#: builds a :class:`Beat` from a plain tuple without the named tuple's Python-level ``__new__`` (the monitor makes
#: one per transfer)
_new_beat = partial(tuple.__new__, Beat)


class BeatBatch(Batch):
    """A job's stream transfers as columns (published by the fast path's capture, ``dlaverif/fastpath/harness.py``): the
    kept bytes of every transfer back to back (``data``, uint8) with ``sizes`` (bytes per transfer), TKEEP as two uint64
    halves, TLAST, TUSER, the cycle and the further sidebands (``ids``: one column per sideband, as
    :attr:`Beat.ids`; None: none captured). Indexing gives :class:`Beat` objects."""

    def __init__(
        self,
        data: np.ndarray,
        sizes: np.ndarray,
        keep_lo: np.ndarray,
        keep_hi: np.ndarray,
        last: np.ndarray,
        user: np.ndarray,
        cycle: np.ndarray,
        ids: Optional[np.ndarray] = None,
    ) -> None:
        self.data, self.sizes = data, sizes.astype(np.int64, copy=False)
        self.keep_lo, self.keep_hi, self.last, self.user, self.cycle = keep_lo, keep_hi, last, user, cycle
        self.ids = ids  # (transfers, sidebands) int64, or None
        self.offsets = np.concatenate([[0], np.cumsum(self.sizes)]).astype(np.int64)

    def __len__(self) -> int:
        return int(self.sizes.size)

    def _row(self, i: int) -> Beat:
        lo, hi = self.offsets[i], self.offsets[i + 1]
        return Beat(
            self.data[lo:hi].tobytes(),
            int(self.keep_lo[i]) | int(self.keep_hi[i]) << 64,
            bool(self.last[i]),
            int(self.user[i]),
            int(self.cycle[i]),
            () if self.ids is None else tuple(int(v) for v in self.ids[i]),
        )

    def _rows(self, idx: np.ndarray) -> "BeatBatch":
        if idx.size and (np.diff(idx) == 1).all():  # a contiguous run: its bytes are one slice
            data = self.data[self.offsets[idx[0]] : self.offsets[idx[-1] + 1]]
        else:
            parts = [self.data[self.offsets[i] : self.offsets[i + 1]] for i in idx.tolist()]
            data = np.concatenate(parts) if parts else np.zeros(0, np.uint8)
        ids = None if self.ids is None else self.ids[idx]
        return BeatBatch(
            data,
            self.sizes[idx],
            self.keep_lo[idx],
            self.keep_hi[idx],
            self.last[idx],
            self.user[idx],
            self.cycle[idx],
            ids,
        )


def payload(beats: Union[Sequence[Beat], BeatBatch]) -> tuple[np.ndarray, np.ndarray]:
    """(the kept bytes of every transfer back to back as uint8, bytes per transfer) of a list of :class:`Beat` or a
    :class:`BeatBatch` (from its columns, without building a Beat per transfer)."""
    if isinstance(beats, BeatBatch):
        return beats.data, beats.sizes
    sizes = np.fromiter((len(b.data) for b in beats), np.int64, len(beats))
    return np.frombuffer(b"".join(b.data for b in beats), np.uint8), sizes


def sidebands(beats: Union[Sequence[Beat], BeatBatch]) -> tuple[np.ndarray, np.ndarray]:
    """(TUSER as uint64, TLAST as bool) of every transfer of a list of :class:`Beat` or a :class:`BeatBatch`."""
    if isinstance(beats, BeatBatch):
        return beats.user.astype(np.uint64, copy=False), beats.last.astype(bool, copy=False)
    n = len(beats)
    return (
        np.fromiter((b.user & (2**64 - 1) for b in beats), np.uint64, n),
        np.fromiter((b.last for b in beats), bool, n),
    )


class _Port:
    """The signals ``<prefix>_tdata`` ... of one AXI4-Stream port."""

    # the simulator's handles (cocotb.handle objects of an untyped DUT)
    tdata: Any
    tkeep: Any
    tlast: Any
    tuser: Any
    tvalid: Any
    tready: Any

    def __init__(self, dut, prefix: str) -> None:
        for name in ("tdata", "tkeep", "tlast", "tuser", "tvalid", "tready"):
            setattr(self, name, getattr(dut, f"{prefix}_{name}"))


class AxiStreamMonitor:
    """Passive monitor of one AXI4-Stream port (``m_axis`` by default)."""

    def __init__(
        self,
        dut,
        clock,
        reset,
        prefix: str = "m_axis",
        period_ns: float = 10.0,
        loop: Optional[ClockLoop] = None,
        reset_active_high: bool = True,
        sidebands: Sequence[str] = (),
    ) -> None:
        self.clock, self.reset = clock, reset
        # further sidebands captured per transfer (``<prefix>_<name>``, e.g. tid, tdest): Beat.ids
        self.sidebands = tuple(sidebands)
        self._ids = [getattr(dut, f"{prefix}_{name}") for name in self.sidebands]
        self._read_ids = [uint_reader(s) for s in self._ids]
        self._reset_high = reset_active_high
        self.port = _Port(dut, prefix)
        self.period_ns = period_ns
        self.ap = AnalysisPort(f"{prefix}.ap")
        self.violation_ap = AnalysisPort(f"{prefix}.violation_ap")
        self.stall_cycles = 0  # cycles with TVALID high and TREADY low (backpressure seen)
        self._resetting = in_reset(reset, reset_active_high)
        self._cyc = 0  # the cycle of the current rising edge
        self._stalled = None  # snapshot of a transfer held by !TREADY
        self._valid_rise = RisingEdge(self.port.tvalid)
        p = self.port
        self._valid, self._ready = level_reader(p.tvalid), level_reader(p.tready)
        self._user, self._last = uint_reader(p.tuser), uint_reader(p.tlast)
        self._read_keep = uint_reader(p.tkeep)
        self._keep = self._read_keep()  # TKEEP as it is now: followed on its edges (it rarely changes)
        self._data = bits_reader(p.tdata)
        cocotb.start_soon(self._watch_reset())
        cocotb.start_soon(self._follow_keep())
        self.loop = loop if loop is not None else ClockLoop(clock, period_ns)
        self.loop.add(self._tick)

    def _snapshot(self):
        p = self.port
        return (bits(p.tdata), bits(p.tkeep), bits(p.tuser), bits(p.tlast), *(bits(s) for s in self._ids))

    async def _watch_reset(self) -> None:
        """Follow the reset wire on its edges (not by a read per transfer)."""
        change = ValueChange(self.reset)
        while True:
            await change
            self._resetting = in_reset(self.reset, self._reset_high)

    async def _follow_keep(self) -> None:
        """Keep ``_keep`` equal to TKEEP. TKEEP is as wide as TDATA has bytes (128 bits on the cube reader) and
        changes at most between jobs or at a partial last transfer, so reading it on its changes instead of at
        every transfer saves a wide read per transfer; a change after a rising edge is seen before the next one."""
        change = ValueChange(self.port.tkeep)
        while True:
            await change
            self._keep = self._read_keep()

    def _tick(self, cycle: int):
        """The monitor's work at one rising edge (on :class:`~dlaverif.agents.clocked.ClockLoop`); sleeps until TVALID
        rises when there is neither a transfer nor a stalled one."""
        self._cyc = cycle
        stalled = self._stalled
        valid = self._valid() == 1
        if valid and self._ready() == 1:
            if not self._resetting:
                self._sample(stalled)
            self._stalled = None
        elif valid:
            self.stall_cycles += 1
            snap = self._snapshot()
            if stalled is not None and snap != stalled:
                self._violation("TDATA/TKEEP/TUSER/TLAST/IDs changed while TVALID was held without TREADY")
            self._stalled = snap
        elif stalled is not None:
            if not self._resetting:
                self._violation("TVALID dropped before TREADY accepted the transfer")
            self._stalled = None
        if not valid and self._stalled is None:
            return self._valid_rise
        return None

    def _cycle(self) -> int:
        return self._cyc

    def _violation(self, text: str) -> None:
        self.violation_ap.write(f"cycle {self._cycle()}: {text}")

    def _sample(self, stalled) -> None:
        keep, user, last = self._keep, self._user(), self._last()
        if keep is None or user is None or last is None:
            self._violation("X/Z on TKEEP/TUSER/TLAST during a transfer")
            keep, user, last = 0, 0, 0
        nbytes = keep.bit_length()
        if keep != (1 << nbytes) - 1:
            self._violation(f"TKEEP 0x{keep:x} is not a contiguous run of low bytes")
        data = low_bytes_of(self._data(), nbytes)
        if data is None:
            self._violation("X/Z in the kept bytes of TDATA")
            data = bytes(nbytes)
        if stalled is not None and self._snapshot() != stalled:
            self._violation("transfer changed between its stall and its handshake")
        ids = tuple(read() for read in self._read_ids)
        if None in ids:
            self._violation(f"X/Z on {'/'.join(n.upper() for n in self.sidebands)} during a transfer")
        self.ap.write(_new_beat((data, keep, last == 1, user, self._cyc, ids)))


class StreamReadyDriver:
    """Drives ``<prefix>_tready``: high, or withheld on the cycles where a stall pattern yields 1."""

    def __init__(self, dut, clock, prefix: str = "m_axis", ready: Optional[str] = None) -> None:
        self.clock = clock
        self.tready = getattr(dut, ready if ready is not None else f"{prefix}_tready")  # ready: another port name
        self.tready.value = 1
        self._pattern: Optional[Iterator[int]] = None
        self._task: Optional[Task[None]] = None
        #: opt-in record of the TREADY values driven under a pattern, one per cycle (a test sets a bytearray;
        #: None: nothing recorded); ``log_t0_ns``: the sim time of the falling edge that drove ``log[0]`` (the
        #: value is sampled by the rising edge of cycle ``log_t0_ns // period``)
        self.log: Optional[bytearray] = None
        self.log_t0_ns = 0.0

    @property
    def active(self) -> bool:
        return self._pattern is not None

    def set(self, pattern: Optional[Iterator[int]]) -> None:
        """Withhold TREADY on the cycles where ``pattern`` yields 1 (None: always ready)."""
        self._pattern = pattern
        if pattern is None:
            if self._task is not None:
                self._task.cancel()
                self._task = None
            self.tready.value = 1
        elif self._task is None:
            self._task = cocotb.start_soon(self._run())

    async def _run(self) -> None:
        edge = FallingEdge(self.clock)
        while True:
            await edge
            pattern = self._pattern
            assert pattern is not None, "set(None) cancels this task"
            ready = 0 if next(pattern) else 1
            self.tready.value = ready
            log = self.log
            if log is not None:
                if not log:
                    self.log_t0_ns = get_sim_time("ns")
                log.append(ready)
