"""A passive monitor of the convolution DMA's two write ports into NVDLA's convolution buffer (CBUF): it publishes
every write and keeps the buffer's contents (banks, entries, 64-byte halves) as the writes leave them.

The ports (nvdla/hw nvdlav1, the convolution DMA's top in ``vmod/nvdla/cdma/``, lines 84-92; geometry:
:mod:`dlaverif.models.nvdla.cbuf`):

* data ``<data>_en`` / ``<data>_addr[11:0]`` / ``<data>_hsel[1:0]`` / ``<data>_data[1023:0]``: one 128-byte entry
  at address ``bank * 256 + entry``; ``hsel`` is a mask of the halves written, bit ``i`` for bytes
  ``64 i .. 64 i + 63`` (``data[512 i +: 512]``);
* weight ``<wt>_en`` / ``<wt>_addr[11:0]`` / ``<wt>_hsel`` / ``<wt>_data[511:0]``: one 64-byte half, ``hsel`` its
  index.

Each write is a :class:`CbufWrite` on ``ap`` (``port`` "data" or "weight", the 128-byte entry with the mask of the
bytes written). A write with X/Z on its enable, address or select, or X/Z bytes in a written half, is published on
``violation_ap`` instead. :attr:`CbufWriteMonitor.contents` / :attr:`written` are the buffer as written so far
(4096 x 128 bytes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

import numpy as np

from dlaverif.agents.analysis import AnalysisPort
from dlaverif.agents.signals import bits_reader, in_reset, level_reader
from dlaverif.models.nvdla import cbuf


@dataclass
class CbufWrite:
    """One write into the CBUF: which port, at which rising edge, which entry, its bytes and which of them."""

    port: str  # "data" or "weight"
    cycle: int
    addr: int
    data: np.ndarray  # 128 uint8
    mask: np.ndarray  # 128 bool: the bytes written

    def halves(self) -> list[int]:
        return [h for h in range(cbuf.HALVES) if self.mask[h * cbuf.HALF_BYTES]]


def _bytes(binstr: str, nbytes: int) -> Optional[np.ndarray]:
    """The value's ``nbytes`` little-endian bytes, None when a bit is X/Z."""
    try:
        return np.frombuffer(int(binstr, 2).to_bytes(nbytes, "little"), np.uint8)
    except ValueError:
        return None


class CbufWriteMonitor:
    """Watches the data and weight write ports on a :class:`~dlaverif.agents.clocked.ClockLoop` (module docstring)."""

    def __init__(
        self,
        dut: Any,
        reset: Any,
        loop: Any,
        signal: Callable[[Any, str], Any],
        data: str = "cdma2buf_dat_wr",
        weight: str = "cdma2buf_wt_wr",
        reset_active_high: bool = False,
    ) -> None:
        self.ap = AnalysisPort("cbuf.ap")
        self.violation_ap = AnalysisPort("cbuf.violation_ap")
        self.contents = np.zeros((cbuf.ENTRIES, cbuf.ENTRY_BYTES), np.uint8)
        self.written = np.zeros((cbuf.ENTRIES, cbuf.ENTRY_BYTES), bool)
        self._reset, self._high = reset, reset_active_high
        self._ports = [
            (
                "data",
                level_reader(signal(dut, f"{data}_en")),
                bits_reader(signal(dut, f"{data}_addr")),
                bits_reader(signal(dut, f"{data}_hsel")),
                bits_reader(signal(dut, f"{data}_data")),
                cbuf.ENTRY_BYTES,
            ),
            (
                "weight",
                level_reader(signal(dut, f"{weight}_en")),
                bits_reader(signal(dut, f"{weight}_addr")),
                bits_reader(signal(dut, f"{weight}_hsel")),
                bits_reader(signal(dut, f"{weight}_data")),
                cbuf.HALF_BYTES,
            ),
        ]
        loop.add(self._tick)

    def _tick(self, cycle: int) -> None:
        if in_reset(self._reset, self._high):
            return None
        for port, en, addr, hsel, data, width in self._ports:
            if en() != 1:
                continue
            a, h = addr(), hsel()
            if "x" in a.lower() or "z" in a.lower() or "x" in h.lower() or "z" in h.lower():
                self.violation_ap.write(f"cycle {cycle}: CBUF {port} write with X/Z address {a} or select {h}")
                continue
            raw = _bytes(data(), width)
            mask = np.zeros(cbuf.ENTRY_BYTES, bool)
            entry = np.zeros(cbuf.ENTRY_BYTES, np.uint8)
            sel = int(h, 2)
            halves = [i for i in range(cbuf.HALVES) if sel >> i & 1] if port == "data" else [sel]
            if raw is None:
                self.violation_ap.write(f"cycle {cycle}: CBUF {port} write to {cbuf.where(int(a, 2))} with X/Z data")
                continue
            for i in halves:
                src = raw[i * cbuf.HALF_BYTES : (i + 1) * cbuf.HALF_BYTES] if port == "data" else raw
                entry[i * cbuf.HALF_BYTES : (i + 1) * cbuf.HALF_BYTES] = src
                mask[i * cbuf.HALF_BYTES : (i + 1) * cbuf.HALF_BYTES] = True
            at = int(a, 2)
            self.contents[at][mask] = entry[mask]
            self.written[at] |= mask
            self.ap.write(CbufWrite(port, cycle, at, entry, mask))
        return None
