"""A valid/ready output whose one payload word packs data bytes and flag fields (NVDLA's data-path packets, such as
the PDP read DMA's 76-bit ``pdp_rdma2dp_pd``: 8 bytes, a position and end-of-line/surface/cube flags), seen as a
stream of the platform: each transfer a :class:`dlaverif.agents.stream.Beat` whose ``data`` are the data bytes, whose
``user`` is the flag bits (the payload above the data) and whose ``last`` marks the job's last transfer (the
stream's end-of-job predicate :meth:`FlaggedStream.ends`: every flag of :attr:`FlaggedStream.last` set, or any
predicate over the word's fields, :attr:`FlaggedStream.end`), so that the framing of
:mod:`dlaverif.platform.completion` and the scoreboards work on it unchanged. :meth:`FlaggedStream.decode` splits
the flag bits into named fields (vectorized).

The monitor checks the handshake where it is seen: while a transfer is held (valid without ready) its payload stays
stable and valid stays high; no X/Z in a transfer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional

import cocotb
import numpy as np
from cocotb.triggers import ValueChange

from dlaverif.agents.analysis import AnalysisPort
from dlaverif.agents.clocked import ClockLoop
from dlaverif.agents.signals import in_reset, level_reader, uint_reader
from dlaverif.agents.stream import _new_beat


@dataclass(frozen=True)
class FlaggedStream:
    """``<prefix>_<valid>``, ``<prefix>_<ready>``, ``<prefix>_<pd>``: the payload's low ``data_bits`` are data
    (little-endian bytes), then ``fields`` (name, width) from bit ``data_bits`` up, in order. A job's last transfer
    is the one where ``end`` (a predicate over the word's fields: name -> value) holds, or, without ``end``, where
    the ``last`` fields are all set."""

    prefix: str
    data_bits: int
    fields: tuple[tuple[str, int], ...]
    last: tuple[str, ...] = ()
    valid: str = "valid"
    ready: str = "ready"
    pd: str = "pd"
    end: Optional[Callable[[Mapping[str, int]], Any]] = None

    def __post_init__(self) -> None:
        if not self.last and self.end is None:
            raise ValueError(f"{self.prefix}: a flagged stream says how a job ends (last fields or an end predicate)")
        for f in self.last:
            self.lsb(f)  # a KeyError naming the stream's fields

    def ends(self, user: int) -> bool:
        """Whether the transfer with flag bits ``user`` is its job's last (the class docstring)."""
        if self.end is None:
            return user & self.last_mask == self.last_mask
        at, values = 0, {}
        for f, width in self.fields:
            values[f] = (user >> at) & ((1 << width) - 1)
            at += width
        return bool(self.end(values))

    def port(self, name: str) -> str:
        return f"{self.prefix}_{name}"

    def lsb(self, name: str) -> int:
        """The field's first bit within the flag bits (``Beat.user``)."""
        at = 0
        for f, width in self.fields:
            if f == name:
                return at
            at += width
        raise KeyError(f"{self.prefix}: no field {name!r} (fields: {', '.join(f for f, _ in self.fields)})")

    def width(self, name: str) -> int:
        return dict(self.fields)[name]

    def decode(self, user: np.ndarray) -> dict[str, np.ndarray]:
        """Every field of the flag bits ``user`` (one per transfer) as its own array."""
        u = np.asarray(user, np.uint64)
        return {f: (u >> np.uint64(self.lsb(f))) & np.uint64((1 << w) - 1) for f, w in self.fields}

    def encode(self, **values: Any) -> np.ndarray:
        """The flag bits of the given field values (arrays or ints; absent fields are 0): the inverse of
        :meth:`decode`, for the expected side of a scoreboard."""
        out: np.ndarray = np.zeros((), np.uint64)
        for f, v in values.items():
            out = out | (np.asarray(v, np.uint64) & np.uint64((1 << self.width(f)) - 1)) << np.uint64(self.lsb(f))
        return np.asarray(out, np.uint64)

    @property
    def last_mask(self) -> int:
        return sum(1 << self.lsb(f) for f in self.last)


class FlaggedStreamMonitor:
    """Passive monitor of a :class:`FlaggedStream` publishing a ``Beat`` per transfer on ``ap`` and protocol
    violations on ``violation_ap`` (module docstring), on the bench's clock loop."""

    def __init__(
        self,
        dut,
        reset,
        stream: FlaggedStream,
        loop: ClockLoop,
        signal: Callable[[Any, str], Any],
        reset_active_high: bool = True,
    ) -> None:
        self.stream = stream
        self.reset, self._reset_high = reset, reset_active_high
        self.ap = AnalysisPort(f"{stream.prefix}.ap")
        self.violation_ap = AnalysisPort(f"{stream.prefix}.violation_ap")
        self._valid = level_reader(signal(dut, stream.port(stream.valid)))
        self._ready = level_reader(signal(dut, stream.port(stream.ready)))
        self._pd = uint_reader(signal(dut, stream.port(stream.pd)))
        self._nbytes = stream.data_bits // 8
        self._data_mask = (1 << stream.data_bits) - 1
        self._keep = (1 << self._nbytes) - 1
        self._held: Any = None  # the payload of a transfer held by !ready
        self.stall_cycles = 0
        self._resetting = in_reset(reset, reset_active_high)
        cocotb.start_soon(self._watch_reset())
        loop.add(self._tick)

    async def _watch_reset(self) -> None:
        change = ValueChange(self.reset)
        while True:
            await change
            self._resetting = in_reset(self.reset, self._reset_high)

    def _tick(self, cycle: int) -> None:
        if self._resetting:
            self._held = None
            return None
        if self._valid() != 1:
            if self._held is not None:
                self.violation_ap.write(f"cycle {cycle}: {self.stream.prefix} valid dropped before ready took it")
            self._held = None
            return None
        pd = self._pd()
        if self._held is not None and pd != self._held:
            self.violation_ap.write(f"cycle {cycle}: {self.stream.prefix} payload changed while held without ready")
        if self._ready() != 1:
            self.stall_cycles += 1
            self._held = pd
            return None
        self._held = None
        if pd is None:
            self.violation_ap.write(f"cycle {cycle}: X/Z in the payload of a {self.stream.prefix} transfer")
            pd = 0
        user = pd >> self.stream.data_bits
        data = (pd & self._data_mask).to_bytes(self._nbytes, "little")
        self.ap.write(_new_beat((data, self._keep, self.stream.ends(user), user, cycle, ())))
        return None
