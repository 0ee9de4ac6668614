"""The fast path (HDL-side memory and capture): Python works per job, the simulator per cycle.

A build whose HDL top is the testbench wrapper generated from its ``fastpath:`` plan entry
(:mod:`dlaverif.flow.fastpath`: the reader, ``hdl_axi_mem`` on its AXI4 read port, ``hdl_stream_capture`` on its
AXI4-Stream output) runs with no per-cycle coroutine at all. :class:`HdlHarness` gives
:class:`dlaverif.platform.ReaderTB` the same agent interface as the default path, through
:class:`dlaverif.platform.backends.FastPathBackend` (chosen once, by
:func:`dlaverif.platform.backends.backend_for`):

* :class:`HdlMemAgent` (``ar_ap``, ``r_ap``, ``load``, ``inject``, ``clear_faults``, ``set_latency``,
  ``set_ar_stalls``, ``set_r_gaps``, ``inflight_beats``, ``mem.clear()``);
* :class:`HdlStreamCapture` (``ap``, ``violation_ap``, ``set`` like ``StreamReadyDriver``).

Per job: :meth:`HdlHarness.commit` (the backend's ``commit``, at the end of ``ReaderTB.prepare``) writes the memory
image as bus words (``hdl_mem.bin``) and the knobs (``hdl_cfg.bin``: up to 8 memory segments, latency, the three
stall patterns, up to 4 fault ranges) into the run folder (links to memory: :func:`exchange_in_memory`) and toggles
``tb_load``; the HDL reads them with
``$fread`` on the next rising edge. :meth:`HdlHarness.flush` (after the job, ``ReaderTB.flush``) toggles
``tb_dump``; the HDL writes its logs (binary, ``$fwrite "%u"``) and they are published on the same analysis ports as
the default agents publish: the AR bursts as :class:`~dlaverif.agents.axi_mem.Burst` objects, the R beats and stream
transfers of the job as one columnar batch each (:class:`~dlaverif.agents.axi_mem.RBeatBatch`,
:class:`~dlaverif.agents.stream.BeatBatch`: sequences of the default path's ``RBeat`` and ``Beat``, without an object
per beat), with the same cycle numbers (rising edges since time 0; the wrapper generates the clock, with the period of
``dlaverif.platform.PERIOD_NS``), so the same ``AxiReadChecker`` and the same scoreboard check every AR and every byte.
The stream's handshake rules are checked in the HDL (payload stable while stalled, TVALID held until TREADY, no X/Z)
and the kinds seen are published on ``violation_ap``; TKEEP contiguity is checked here.

Stall profiles keep their names (:data:`dlaverif.agents.stalls.PROFILES`) but the HDL draws its own cycles (a
xorshift generator seeded from the TB's RNG): same profile, not the same cycle-by-cycle pattern as the default
path. Not supported here (use the default path): a latency callable, reset in the middle of a job, more than 8
memory segments or 4 fault ranges, images larger than the wrapper's ``MEM_WORDS``.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

import numpy as np
from cocotb.triggers import ClockCycles

from dlaverif.agents.analysis import AnalysisPort
from dlaverif.agents.axi_mem import GUARD, Burst, RBeatBatch
from dlaverif.agents.stream import BeatBatch
from dlaverif.fastpath import MEM_BYTES
from dlaverif.models.core.arith import as_bytes

NSEG, NFAULT, NCFG = 8, 4, 64
RESP = {"OKAY": 0, "EXOKAY": 1, "SLVERR": 2, "DECERR": 3}
STREAM_VIOLATIONS = {
    1: "TDATA/TKEEP/TUSER/TLAST changed while TVALID was held without TREADY",
    2: "TVALID dropped before TREADY accepted the transfer",
    4: "X/Z in TKEEP/TUSER/TLAST (or a captured sideband) or in the kept bytes of TDATA",
}


#: the files of the per-job exchange (the HDL opens them by these names in its working directory)
EXCHANGE_FILES = (
    "hdl_cfg.bin",
    "hdl_mem.bin",
    "hdl_ar.bin",
    "hdl_r.bin",
    "hdl_mcnt.bin",
    "hdl_ocnt.bin",
    "hdl_om.bin",
    "hdl_od.bin",
)


def exchange_in_memory(folder: Path, ram: Optional[Path] = None) -> Optional[Path]:
    """Put the exchange files of ``folder`` in a folder of their own under ``ram`` (``FASTPATH_EXCHANGE``, default
    ``/dev/shm``; empty: none), as symbolic links of those names in ``folder``: the HDL and Python open them by their
    names as before. Rewriting a small file costs about 5 ms on a disk-backed overlay (measured on the project
    machine) against 0.1 ms in memory, and a job exchanges up to 8 files. The folder goes when the process ends;
    None (the files stay in ``folder``) when there is no such place."""
    if ram is None:
        given = os.environ.get("FASTPATH_EXCHANGE", "/dev/shm")
        if not given:
            return None
        ram = Path(given)
    if not (ram.is_dir() and os.access(ram, os.W_OK)):
        return None
    place = Path(tempfile.mkdtemp(prefix="dlaverif-fastpath-", dir=ram))
    atexit.register(shutil.rmtree, place, True)
    for name in EXCHANGE_FILES:
        link = folder / name
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(place / name)
    return place


def is_hdl_top(dut) -> bool:
    """True when the HDL top is a fast-path wrapper (dlaverif.flow.fastpath: it has ``tb_load``)."""
    try:
        _ = dut.tb_load  # cocotb resolves the handle on access: AttributeError when the top has none
        return True
    except AttributeError:
        return False


@dataclass(frozen=True)
class HdlStall:
    """One stall knob for ``hdl_stall.sv``: mode (0 none, 1 periodic, 2 random, 3 bursty), param, seed."""

    name: str
    mode: int
    param: int
    seed: int


def hdl_stall(name: str, rng: np.random.Generator) -> Optional[HdlStall]:
    """The HDL form of the named profile of :func:`dlaverif.agents.stalls.profile` (None for ``none``); draws from
    ``rng`` exactly when ``stalls.profile`` does, so both paths leave the TB's RNG in the same state."""
    if name == "none":
        return None
    if name == "every4":
        return HdlStall(name, 1, 4 | (0b0001 << 16), 0)
    if name == "quarter":
        return HdlStall(name, 1, 4 | (0b1000 << 16), 0)
    seed = int(rng.integers(1 << 32)) or 1
    if name == "random":
        return HdlStall(name, 2, int(0.3 * 65536), seed)
    if name == "half":
        return HdlStall(name, 2, int(0.5 * 65536), seed)
    if name == "bursty":
        return HdlStall(name, 3, 12 | (6 << 8), seed)
    raise ValueError(f"unknown stall profile {name!r}")


def _bus_words(img: np.ndarray, width: int) -> bytes:
    """``img`` (uint8, a multiple of ``width`` bytes, little-endian words) as ``$fread`` reads words: most
    significant byte first."""
    return np.ascontiguousarray(img.reshape(-1, width)[:, ::-1]).tobytes()


def _read_words(path: Path, n: int, width: int) -> np.ndarray:
    """The first ``n`` words of a log written with ``$fwrite("%u")`` (least significant byte first) as (n, width)
    little-endian uint8. X/Z bits were written as 0 (the HDL reports them separately)."""
    if n == 0:
        return np.zeros((0, width), np.uint8)
    raw = np.fromfile(path, np.uint8, count=n * width)
    if raw.size != n * width:
        raise RuntimeError(f"{path.name}: {raw.size} bytes, {n} words of {width} expected")
    return raw.reshape(n, width)


def _counts(path: Path) -> list[int]:
    return np.fromfile(path, "<u8").tolist()


class HdlImage:
    """The job's memory image, kept as the writes made to it (in order) until :meth:`segments` lays them out."""

    def __init__(self, size: int, fill: int = GUARD) -> None:
        self.size = size
        self.fill = fill
        self.writes: list[tuple[int, bytes]] = []

    def clear(self) -> None:
        self.writes.clear()

    def write(self, address: int, data) -> None:
        buf = as_bytes(data)
        if address < 0 or address + len(buf) > self.size:
            raise ValueError(f"access 0x{address:x}+{len(buf)} outside the {self.size:#x}-byte memory")
        self.writes.append((address, bytes(buf)))

    def segments(self, bus_bytes: int, gap_words: int = 64) -> list[tuple[int, np.ndarray]]:
        """Merged bus-word ranges holding every write: [(first word, uint8 image of whole words)]; ranges less
        than ``gap_words`` apart share a segment (the gap reads as ``fill`` either way)."""
        spans = sorted((a // bus_bytes, -(-(a + len(b)) // bus_bytes)) for a, b in self.writes if b)
        merged: list[list[int]] = []
        for lo, hi in spans:
            if merged and lo <= merged[-1][1] + gap_words:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        out = []
        for lo, hi in merged:
            img = np.full((hi - lo) * bus_bytes, self.fill, np.uint8)
            base = lo * bus_bytes
            for a, b in self.writes:
                if lo * bus_bytes <= a < hi * bus_bytes:
                    img[a - base : a - base + len(b)] = np.frombuffer(b, np.uint8)
            out.append((lo, img))
        return out


class HdlMemAgent:
    """The memory side of the fast path, with the interface of :class:`dlaverif.agents.axi_mem.AxiMemAgent`."""

    def __init__(self, harness: "HdlHarness") -> None:
        self.h = harness
        self.bus_bytes = harness.bus_bytes
        self.byte_lanes = harness.bus_bytes
        self.address_width = harness.addr_bits
        self.mem = HdlImage(1 << self.address_width)
        self.ar_ap = AnalysisPort("ar_ap")
        self.r_ap = AnalysisPort("r_ap")
        self.latency = 0
        self.ar_stall: Optional[HdlStall] = None
        self.r_gap: Optional[HdlStall] = None
        self.faults: list[tuple[int, int, int]] = []
        self.beats_served = 0

    def load(self, base: int, blob: Union[bytes, np.ndarray], guard: int = 64) -> None:
        """Write ``blob`` at ``base`` with 0xA5 guard bands of ``guard`` bytes on both sides."""
        data = as_bytes(blob)
        lo, hi = max(0, base - guard), min(self.mem.size, base + len(data) + guard)
        self.mem.write(lo, bytes([GUARD]) * (hi - lo))
        self.mem.write(base, data)

    def set_latency(self, latency: int) -> None:
        if callable(latency):
            raise TypeError("the HDL memory takes a fixed latency per job (use the default path for a callable)")
        self.latency = int(latency)

    def set_ar_stalls(self, stall: Optional[HdlStall]) -> None:
        self.ar_stall = stall

    def set_r_gaps(self, stall: Optional[HdlStall]) -> None:
        self.r_gap = stall

    def inject(self, lo: int, hi: int, resp: Union[str, int] = "SLVERR") -> None:
        code = RESP[resp.upper()] if isinstance(resp, str) else int(resp)
        if len(self.faults) == NFAULT:
            raise ValueError(f"the HDL memory holds at most {NFAULT} fault ranges")
        self.faults.append((lo, hi, code))

    def clear_faults(self) -> None:
        self.faults.clear()

    @property
    def inflight_beats(self) -> int:
        return int(self.h.dut.tb_inflight.value)

    def idle(self) -> bool:
        return self.inflight_beats == 0

    # ------------------------------------------------------------------ per job
    def config(self, cfg: list[int]) -> bytes:
        """Fill the memory's words of ``cfg``; return the bus words to load."""
        segs = self.mem.segments(self.bus_bytes)
        if len(segs) > NSEG:
            raise ValueError(f"the job's memory image needs {len(segs)} segments; the HDL memory holds {NSEG}")
        words = sum(img.size for _, img in segs) // self.bus_bytes
        if words > self.h.mem_words:
            raise ValueError(f"the job's memory image needs {words} bus words; the HDL memory holds {self.h.mem_words}")
        cfg[0], cfg[1] = words, len(segs)
        off = 0
        for s, (lo, img) in enumerate(segs):
            cfg[2 + 3 * s : 5 + 3 * s] = [lo, img.size // self.bus_bytes, off]
            off += img.size // self.bus_bytes
        cfg[26] = self.latency
        for i, st in ((27, self.ar_stall), (30, self.r_gap)):
            if st is not None:
                cfg[i : i + 3] = [st.mode, st.param, st.seed]
        faults = [(lo, hi, code) for lo, hi, code in self.faults if hi > lo]  # an empty range poisons nothing
        cfg[36] = len(faults)
        for f, (lo, hi, code) in enumerate(faults):
            cfg[37 + 3 * f : 40 + 3 * f] = [lo, hi - 1, code]  # the last byte: ``hi`` may be 2**64, not a 64-bit word
        return b"".join(_bus_words(img, self.bus_bytes) for _, img in segs)

    def publish(self, folder: Path) -> None:
        """Publish the AR bursts and R beats the HDL logged since the last dump."""
        n_ar, n_r, ovf = _counts(folder / "hdl_mcnt.bin")[:3]
        if ovf:
            raise RuntimeError(f"HDL memory log overflow (flags {ovf}): the job is too large for the fast path")
        if n_ar == n_r == 0:  # nothing since the last dump (a settle's last look): no log to read
            return
        ar = _read_words(folder / "hdl_ar.bin", n_ar, 16)
        for row in ar:
            v = int.from_bytes(row.tobytes(), "little")
            self.ar_ap.write(
                Burst((v >> 80) & 0xFF, v & (2**64 - 1), (v >> 64) & 0xFF, (v >> 72) & 7, (v >> 76) & 3, v >> 88)
            )
        r = _read_words(folder / "hdl_r.bin", n_r, 16)
        addr = r[:, :8].copy().view("<u8").reshape(-1)
        hi = r[:, 8:].copy().view("<u8").reshape(-1)
        if n_r:  # one batch per job: a Python object per beat would cost more than the simulation
            self.r_ap.write(
                RBeatBatch(addr, (hi & 3).astype(np.int64), (hi >> 2 & 1).astype(bool), (hi >> 24).astype(np.int64))
            )
        self.beats_served += n_r


def user_layout(text: str) -> dict[str, tuple[int, int]]:
    """The captured TUSER word's fields from the flow's ``FASTPATH_USER`` (``name:bits,...`` from bit 0, as
    :func:`dlaverif.flow.fastpath.environment` writes it): name -> (lowest bit, bits)."""
    out, at = {}, 0
    for part in filter(None, text.split(",")):
        name, bits = part.split(":")
        out[name] = (at, int(bits))
        at += int(bits)
    return out


class HdlStreamCapture:
    """The output side of the fast path: publishes like :class:`dlaverif.agents.stream.AxiStreamMonitor` and takes
    TREADY knobs like :class:`dlaverif.agents.stream.StreamReadyDriver`. ``sidebands``: the further sidebands to
    publish per transfer (:attr:`dlaverif.agents.stream.Beat.ids`, e.g. tid and tdest), which the wrapper captures
    with TUSER (the build's ``fastpath.sidebands``)."""

    def __init__(self, harness: "HdlHarness", sidebands: tuple[str, ...] = ()) -> None:
        self.h = harness
        self.layout = user_layout(os.getenv("FASTPATH_USER", "tuser:64"))
        missing = [n for n in sidebands if n not in self.layout]
        if missing:
            raise ValueError(
                f"the fast-path build captures no stream sideband {', '.join(missing)}: declare "
                f"{'/'.join(missing)} under the build's fastpath.sidebands"
            )
        self.sidebands = tuple(sidebands)
        self.ap = AnalysisPort("m_axis.ap")
        self.violation_ap = AnalysisPort("m_axis.violation_ap")
        self.stall_cycles = 0
        self.pattern: Optional[HdlStall] = None

    def set(self, stall: Optional[HdlStall]) -> None:
        """Withhold TREADY following ``stall`` (None: always ready)."""
        self.pattern = stall

    @property
    def active(self) -> bool:
        return self.pattern is not None

    def config(self, cfg: list[int]) -> None:
        if self.pattern is not None:
            cfg[33:36] = [self.pattern.mode, self.pattern.param, self.pattern.seed]

    def publish(self, folder: Path) -> None:
        n, stalls, viols, first, kinds, ovf, chunks = _counts(folder / "hdl_ocnt.bin")[:7]
        if ovf:
            raise RuntimeError("HDL capture overflow: more transfers than the wrapper's OUT_DEPTH")
        self.stall_cycles += stalls
        if viols:
            text = "; ".join(t for k, t in STREAM_VIOLATIONS.items() if kinds & k)
            self.violation_ap.write(f"cycle {first}: {text} ({viols} cycle(s))")
        if n == 0:  # no transfer since the last dump: no log to read
            return
        meta = _read_words(folder / "hdl_om.bin", n, 32)
        keep = meta[:, :16].copy().view("<u8").reshape(-1, 2)
        lo, hi = keep[:, 0], keep[:, 1]
        words = meta[:, 16:24].copy().view("<u8").reshape(-1)  # TUSER, then the captured sidebands
        users = _field(words, *self.layout["tuser"])
        ids = np.stack([_field(words, *self.layout[n]) for n in self.sidebands], axis=1) if self.sidebands else None
        tails = meta[:, 24:32].copy().view("<u8").reshape(-1)
        # TKEEP must be a contiguous run of low bytes: lo + 1 a power of two (or lo all ones and then hi so)
        full = lo == np.uint64(2**64 - 1)
        low_run = (lo & (lo + np.uint64(1))) == 0
        high_run = (hi & (hi + np.uint64(1))) == 0
        ok = np.where(hi == 0, low_run, full & high_run)
        for i in np.flatnonzero(~ok).tolist():
            self.violation_ap.write(
                f"cycle {int(tails[i]) >> 8}: TKEEP 0x{int(lo[i]) | int(hi[i]) << 64:x} is not a "
                f"contiguous run of low bytes"
            )
        # bytes kept: the bit length of TKEEP (its run of low ones when contiguous)
        sizes = np.where(hi == 0, _bit_length(lo), 64 + _bit_length(hi)).astype(np.int64)
        chunks_of = -(-sizes // 8)
        raw = _read_words(folder / "hdl_od.bin", chunks, 8)
        if int(chunks_of.sum()) != chunks:
            raise RuntimeError(f"HDL capture: {chunks} data chunks logged for {int(chunks_of.sum())} expected")
        if (sizes % 8 == 0).all():
            data = raw.reshape(-1)
        else:  # drop the unused tail bytes of each transfer's last 8-byte chunk
            start = np.repeat(np.cumsum(chunks_of) - chunks_of, chunks_of)  # each chunk's transfer's first chunk
            valid = np.clip(np.repeat(sizes, chunks_of) - 8 * (np.arange(chunks) - start), 0, 8)
            data = raw[np.arange(8)[None, :] < valid[:, None]]
        if n:
            self.ap.write(
                BeatBatch(
                    data,
                    sizes,
                    lo,
                    hi,
                    (tails & 1).astype(bool),
                    users,
                    (tails >> 8 & np.uint64(0xFF_FFFF_FFFF)).astype(np.int64),
                    None if ids is None else ids.astype(np.int64),
                )
            )


def _field(words: np.ndarray, low: int, bits: int) -> np.ndarray:
    """Bits ``low`` .. ``low + bits - 1`` of every uint64 of ``words``."""
    if low == 0 and bits >= 64:
        return words
    return (words >> np.uint64(low)) & np.uint64((1 << bits) - 1)


def _bit_length(v: np.ndarray) -> np.ndarray:
    """Bit length of every uint64 of ``v`` (0 for 0), by binary search over the shifts (exact, vectorized)."""
    v = v.astype(np.uint64, copy=True)
    n = np.zeros(v.shape, np.int64)
    for s in (32, 16, 8, 4, 2, 1):
        high = (v >> np.uint64(s)) != 0
        n[high] += s
        v[high] >>= np.uint64(s)
    return n + (v != 0)


class HdlHarness:
    """The two fast-path agents of one wrapper and the per-job file exchange with the HDL."""

    def __init__(self, dut, clock, folder: Optional[Path] = None, sidebands: tuple[str, ...] = ()) -> None:
        self.dut, self.clock = dut, clock
        self.folder = Path(folder or os.getcwd())
        self.exchange = exchange_in_memory(self.folder) if dut is not None else None  # None: in the run folder
        # the build's widths (dlaverif.flow.runner exports the wrapper's, dlaverif.flow.fastpath.environment; else
        # the parameters of our readers, else their defaults): the width ports are not yet driven at time 0 on
        # Icarus, so they are checked against these at the first commit
        self.bus_bytes = int(os.getenv("FASTPATH_DATA_W") or os.getenv("PARAM_AXI_DATA_W") or 256) // 8
        self.addr_bits = int(os.getenv("FASTPATH_ADDR_W") or os.getenv("PARAM_AXI_ADDR_W") or 40)
        self.mem_words = MEM_BYTES // self.bus_bytes  # the wrapper's MEM_WORDS
        self.mem = HdlMemAgent(self)
        self.out = HdlStreamCapture(self, sidebands)
        if dut is not None:  # None: only files are written and read (the SystemVerilog ceiling of make bench)
            dut.tb_load.value = 0
            dut.tb_dump.value = 0
        self._load = self._dump = 0
        self.in_job = False  # between commit (the job's files loaded) and flush (its logs written)
        self.seconds = {"commit": 0.0, "dump": 0.0, "publish": 0.0}  # wall time of the per-job exchange

    @staticmethod
    def stall(name: str, rng: np.random.Generator) -> Optional[HdlStall]:
        return hdl_stall(name, rng)

    def write_files(self) -> None:
        """Write the job's memory image and knobs (``hdl_mem.bin``, ``hdl_cfg.bin``) into the run folder."""
        cfg = [0] * NCFG
        words = self.mem.config(cfg)
        self.out.config(cfg)
        (self.folder / "hdl_mem.bin").write_bytes(words)
        (self.folder / "hdl_cfg.bin").write_bytes(np.array([v & (2**64 - 1) for v in cfg], ">u8").tobytes())

    def commit(self) -> None:
        """Write the job's files; the HDL loads them on the next rising edge."""
        t0 = time.perf_counter()
        seen = (int(self.dut.tb_data_w.value) // 8, int(self.dut.tb_addr_w.value))
        if seen != (self.bus_bytes, self.addr_bits):
            raise RuntimeError(
                f"the wrapper has {seen[0]}-byte data and {seen[1]}-bit addresses; the TB assumed "
                f"{self.bus_bytes} and {self.addr_bits} (FASTPATH_DATA_W / FASTPATH_ADDR_W)"
            )
        self.write_files()
        self._load ^= 1
        self.dut.tb_load.value = self._load
        self.in_job = True
        self.seconds["commit"] += time.perf_counter() - t0

    async def flush(self) -> None:
        """Have the HDL write its logs, then publish them on the agents' analysis ports."""
        t0 = time.perf_counter()
        self._dump ^= 1
        self.dut.tb_dump.value = self._dump
        await ClockCycles(self.clock, 2)
        t1 = time.perf_counter()
        self.in_job = False
        self.mem.publish(self.folder)
        self.out.publish(self.folder)
        self.seconds["dump"] += t1 - t0
        self.seconds["publish"] += time.perf_counter() - t1
