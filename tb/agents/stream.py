"""AXI4-Stream output monitor: drives TREADY (random backpressure knob) and turns beats into atoms.

Each accepted beat (TVALID & TREADY at a rising clock edge) becomes a :class:`Beat`: the low bytes of TDATA
selected by TKEEP (one atom per transfer, low ``atom_bytes`` bytes set), TLAST, and the TUSER coordinates
``{n[15:0], c[15:0], h[15:0], w[15:0]}``. The monitor is cheap per cycle: while TVALID is low it sleeps on
TVALID's rising edge instead of waking every clock, and it converts TDATA only on a handshake.

Protocol checks (collected in :attr:`StreamMonitor.violations`): TKEEP is a contiguous run of low bytes, no X/Z
in the kept bytes or in TUSER/TLAST, and while a beat is stalled (TVALID & !TREADY) its TDATA/TKEEP/TUSER/TLAST
stay stable and TVALID stays high until the handshake (AXI4-Stream handshake rule).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

import cocotb
from cocotb.simtime import get_sim_time
from cocotb.triggers import RisingEdge


@dataclass
class Beat:
    data: bytes
    keep: int
    last: bool
    user: int
    cycle: int

    @property
    def coord(self) -> tuple[int, int, int, int]:
        """(n, c, h, w) from TUSER[63:0] = {n, c, h, w}."""
        u = self.user
        return ((u >> 48) & 0xFFFF, (u >> 32) & 0xFFFF, (u >> 16) & 0xFFFF, u & 0xFFFF)


def _low_bytes(value, nbytes: int) -> Optional[bytes]:
    """Low ``nbytes`` of a LogicArray (None if any of those bits is X/Z)."""
    try:
        return (value.to_unsigned() & ((1 << (8 * nbytes)) - 1)).to_bytes(nbytes, "little")
    except ValueError:
        bits = str(value)[-8 * nbytes:] if nbytes else ""
        if any(ch not in "01" for ch in bits):
            return None
        return int(bits or "0", 2).to_bytes(nbytes, "little")


class StreamMonitor:
    """Monitor + ready driver for the ``m_axis`` port of a reader."""

    def __init__(self, dut, clock, reset, prefix: str = "m_axis", period_ns: float = 10.0) -> None:
        self.clock, self.reset = clock, reset
        sig = lambda name: getattr(dut, f"{prefix}_{name}")  # noqa: E731
        self.tdata, self.tkeep, self.tlast = sig("tdata"), sig("tkeep"), sig("tlast")
        self.tuser, self.tvalid, self.tready = sig("tuser"), sig("tvalid"), sig("tready")
        self.period_ns = period_ns
        self.beats: list[Beat] = []
        self.violations: list[str] = []
        self.stall_cycles = 0
        self._pause: Optional[Iterator[int]] = None
        self._ready = 1           # the TREADY value driven for the coming edge
        self.tready.value = 1
        self._task = cocotb.start_soon(self._run())

    def set_backpressure(self, gen: Optional[Iterator[int]]) -> None:
        """Withhold TREADY on the cycles where ``gen`` yields 1 (None: always ready)."""
        self._pause = gen
        if gen is None:
            self._ready = 1
            self.tready.value = 1

    @property
    def backpressure(self) -> bool:
        return self._pause is not None

    def take(self) -> tuple[list[Beat], list[str]]:
        """Beats and violations seen since the last call (and forget them)."""
        out = (self.beats, self.violations)
        self.beats, self.violations = [], []
        return out

    def stop(self) -> None:
        self._task.cancel()

    def _snapshot(self):
        return (str(self.tdata.value), str(self.tkeep.value), str(self.tuser.value), str(self.tlast.value))

    async def _run(self) -> None:
        clk = RisingEdge(self.clock)
        valid_rise = RisingEdge(self.tvalid)
        stalled = None  # snapshot of a beat held by !TREADY
        while True:
            await clk
            v = self.tvalid.value
            valid = v.is_resolvable and bool(v)
            ready = self._ready
            if valid and ready:
                if self.reset.value.is_resolvable and int(self.reset.value):
                    stalled = None
                else:
                    self._sample(stalled)
                    stalled = None
            elif valid:
                self.stall_cycles += 1
                snap = self._snapshot()
                if stalled is not None and snap != stalled:
                    self.violations.append(f"cycle {self._cycle()}: TDATA/TKEEP/TUSER/TLAST changed while "
                                           f"TVALID was held without TREADY")
                stalled = snap
            elif stalled is not None:
                if not (self.reset.value.is_resolvable and int(self.reset.value)):
                    self.violations.append(f"cycle {self._cycle()}: TVALID dropped before TREADY accepted the beat")
                stalled = None
            if self._pause is not None:
                self._ready = 0 if next(self._pause) else 1
                self.tready.value = self._ready
            if not valid and stalled is None:
                await valid_rise

    def _cycle(self) -> int:
        return int(get_sim_time("ns") // self.period_ns)

    def _sample(self, stalled) -> None:
        cyc = self._cycle()
        try:
            keep = int(self.tkeep.value)
            user = int(self.tuser.value)
            last = bool(int(self.tlast.value))
        except ValueError:
            self.violations.append(f"cycle {cyc}: X/Z on TKEEP/TUSER/TLAST during a transfer")
            keep, user, last = 0, 0, False
        nbytes = keep.bit_length()
        if keep != (1 << nbytes) - 1:
            self.violations.append(f"cycle {cyc}: TKEEP 0x{keep:x} is not a contiguous run of low bytes")
        data = _low_bytes(self.tdata.value, nbytes)
        if data is None:
            self.violations.append(f"cycle {cyc}: X/Z in the kept bytes of TDATA")
            data = bytes(nbytes)
        if stalled is not None and self._snapshot() != stalled:
            self.violations.append(f"cycle {cyc}: beat changed between its stall and its handshake")
        self.beats.append(Beat(data, keep, last, user, cyc))
