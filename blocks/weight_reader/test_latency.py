"""The weight reader against memory latency: cocotb test module ``blocks.weight_reader.test_latency``.

* ``LatencyTest``: output transfers per cycle of dense and compressed weights of every family and precision at read
  latency 32 and 128 (and with 50 % TREADY backpressure at 128) against the reader's limit (:func:`rate_limit`):
  >= 0.95 of it at latency 32, >= 0.9 at 128 (exact simulated cycles);
* ``AllSlotsBusErrorTest`` / ``AllSlotsResetTest``: SLVERR/DECERR on a weight beat, and a reset, while the reader has
  every read it can have in flight (latency 200).

A module of its own so that the runs of ``blocks.weight_reader.tests`` (every test of that module) do not take these
long jobs; the runs ``weight_reader/latency*`` and ``weight_reader/slots`` of the testplan run them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

import cocotb
import pyuvm
from cocotb.triggers import ClockCycles

from dlaverif.platform import PERIOD_NS, Knobs, config_value

from .items import Kind
from .sequences import WeightSeqBase
from .tests import TIMEOUT_MS, WeightTestBase, rate
from .weights import FAMILIES, PRECISIONS, draw_synthetic

# ---------------------------------------------------------------------------------------------- memory latency
#: sparsity patterns of the latency bounds: dense (uncompressed) and compressed of density 1, 0.5 and 0.05
LATENCY_MASKS = ("dense", "all_ones", "uniform_0.5", "uniform_0.05")
#: channels per family of the latency jobs (64 kernels each; the image families draw their own few channels)
LATENCY_CHANNELS = {"dc": 128, "winograd": 64, "deconv": 64}
#: dense transfers of a latency job at least (kernels doubled from 64 until the drawn shape has them): the output
#: waits once for the first round trip of the weight data behind the WGS round trip (a transfer whose elements are
#: all zero may go before it), which must not weigh on the sustained rate
LATENCY_TRANSFERS = 2048
#: read latency -> the fraction of the reader's limit (:func:`rate_limit`) its output must reach
LATENCY_BOUNDS = {32: 0.95, 128: 0.9}


def rate_limit(ws, bus_bytes: int, out_bytes: int, tready: float = 1.0) -> float:
    """The reader's limit in output transfers per cycle for weight set ``ws``: one transfer per cycle, the read bus
    (every byte it must carry, over the job's transfers: the weight surface's bytes - compressed, the WGS sum - and,
    compressed, one WMB bit per dense element and one 4-byte WGS entry per group; bus bytes per cycle / bus bytes
    per transfer) and the share ``tready`` of cycles in which the output may move. Each group starts a transfer."""
    e = ws.desc.elem_bytes
    transfers = sum(-(-(int(g) * e) // out_bytes) for g in ws.group_elems)
    if ws.compressed:
        need = float(ws.wgs_values().sum()) + sum(ws.group_elems) / 8 + 4 * len(ws.group_elems)
    else:
        need = float(ws.desc.dense_bytes)
    return min(1.0, tready, bus_bytes * transfers / need if need else 1.0)


def tready_window(ready, beats) -> Optional[int]:
    """The cycles from the job's first transfer to its last (both included) in which TREADY was high, from the
    record of the default path's :class:`~dlaverif.agents.stream.StreamReadyDriver` (``ready.log``, one value per cycle
    from the cycle ``log_t0_ns // PERIOD_NS`` on); None without a record (the fast path draws its own stalls)."""
    log = getattr(ready, "log", None)
    if not log or not len(beats):
        return None
    c0 = int(ready.log_t0_ns // PERIOD_NS)
    first, last = beats[0].cycle - c0, beats[-1].cycle - c0
    assert 0 <= first <= last < len(log), f"TREADY record [{c0}, {c0 + len(log)}) misses the job's transfers"
    return int(sum(log[first : last + 1]))


class _LatencySeq(WeightSeqBase):
    """Runs latency jobs; ``self.rows``: (label, latency, tready, limit, item, TREADY-high cycles or None)."""

    def __init__(self, name: str, tb=None) -> None:
        super().__init__(name)
        self.tb = tb
        self.rows: list = []

    def draw_sized(self, family: str, dtype: str, mask: str):
        """A weight set of ``family`` with LATENCY_TRANSFERS to twice that many dense transfers: kernels doubled
        from 64 (up to 8192, then redrawn) while the drawn shape is short, halved and redrawn while it is more than
        twice too long (the image families draw their own channels and taps: one draw may be ten times another);
        after 32 draws the shortest one long enough (or the longest one)."""
        want = LATENCY_TRANSFERS * config_value("OUT_BYTES")
        kernels, best, longest = 64, None, None
        for _ in range(32):
            ws = self.draw(
                family=family, dtype=dtype, mask=mask, kernels=kernels, channels=LATENCY_CHANNELS.get(family)
            )
            size = ws.desc.dense_bytes
            if size < want:
                if longest is None or size > longest.desc.dense_bytes:
                    longest = ws
                kernels = min(8192, 2 * kernels)
            elif size <= 2 * want:
                return ws
            else:
                if best is None or size < best.desc.dense_bytes:
                    best = ws
                kernels = max(16, kernels // 2)
        return best if best is not None else longest

    async def send_job(self, ws, label: str, latency: int, tready: str) -> None:
        """Send one latency job through the job protocol (ReaderTB.run_job) and keep its row."""
        item = self.new_item(Kind.WEIGHTS, ws, Knobs(latency=latency, backpressure=tready))
        ready = getattr(self.tb, "ready", None) if tready != "none" else None
        if ready is not None and hasattr(ready, "log"):
            ready.log = bytearray()
        await self.send(item)
        high = tready_window(ready, item.response().beats) if ready is not None else None
        if ready is not None and hasattr(ready, "log"):
            ready.log = None
        limit = rate_limit(ws, self.bus_bytes, config_value("OUT_BYTES"), 0.5 if tready != "none" else 1.0)
        self.rows.append((label, latency, tready, limit, item, high))


class _Latency(_LatencySeq):
    """Every family x precision x :data:`LATENCY_MASKS` at latency 32 and 128 without backpressure (``tready``
    ``none``), or at latency 128 with 50 % TREADY backpressure (``half``), each job LATENCY_TRANSFERS to twice that
    many dense transfers."""

    def __init__(self, name: str, tb=None, tready: str = "none") -> None:
        super().__init__(name, tb)
        self.tready = tready

    async def body(self) -> None:
        lats = tuple(LATENCY_BOUNDS) if self.tready == "none" else (128,)
        for family in FAMILIES:
            for dtype in PRECISIONS:
                for mask in LATENCY_MASKS:
                    for latency in lats:
                        ws = self.draw_sized(family, dtype, mask)
                        await self.send_job(ws, f"{family} {dtype} {mask}", latency, self.tready)


def check_rows(test, rows: list, title: str) -> None:
    """Log every row and assert its bound: without backpressure transfers / span >= LATENCY_BOUNDS[latency] x
    :func:`rate_limit`; with it (exact cycles) transfers >= the bound x min(TREADY-high cycles of the span, the
    read-bus limit x span): the output moves on the cycles TREADY lets it, as far as the bus feeds it."""
    lines, bad = [], []
    for label, latency, tready, limit, item, high in rows:
        n, cyc = rate(item.response().beats)
        got = n / cyc if cyc else 0.0
        if high is None:
            cap, what = limit * cyc, f"limit {limit:.3f}"
        else:
            bus = rate_limit(item.ws, test.tb.bus_bytes, test.tb.out_bytes)
            cap = min(float(high), bus * cyc)
            what = f"TREADY high {high:5d} of them, limit {cap:.0f} transfers"
        frac = n / cap if cap else 0.0
        line = (
            f"{label:34s} latency {latency:3d} tready {tready:4s}: {n:5d} transfers in {cyc:5d} cycles = "
            f"{got:.3f}/cycle, {what} ({frac:.3f} of it)"
        )
        lines.append(line)
        if frac < LATENCY_BOUNDS[latency]:
            bad.append(f"{line}: below {LATENCY_BOUNDS[latency]} x limit")
    test.logger.info(
        "%s (AXI_DATA_W=%d, OUT_DATA_W=%d):\n  %s",
        title,
        test.tb.bus_bytes * 8,
        test.tb.out_bytes * 8,
        "\n  ".join(lines),
    )
    assert not bad, "\n".join(bad)


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class LatencyTest(WeightTestBase):
    """The weight reader hides slow memory. Output transfers per cycle (first to last transfer, exact
    simulated cycles) of dense and compressed weights (density 1, 0.5, 0.05) of every family and precision, at read
    latency 32 and 128, against the reader's limit (:func:`rate_limit`: one transfer per cycle or the read bus):
    >= 0.95 of it at latency 32, >= 0.9 at 128; every job also checked by the scoreboard. Jobs of
    LATENCY_TRANSFERS to twice that many transfers (the rate is the sustained one)."""

    async def body(self) -> None:
        seq = _Latency("lat", self.tb)
        await self.run_seq(seq)
        check_rows(self, seq.rows, "latency")


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class LatencyBackpressureTest(WeightTestBase):
    """The same cases at latency 128 with 50 % random TREADY backpressure: the output follows TREADY.
    Exact cycles: the transfers of a job >= 0.9 x min(the cycles of its span in which TREADY was high, the read-bus
    limit x span) (the TREADY record of the default path's ready driver; on the fast path 0.9 x min(0.5, limit) x
    span)."""

    async def body(self) -> None:
        seq = _Latency("latbp", self.tb, "half")
        await self.run_seq(seq)
        check_rows(self, seq.rows, "latency 128, 50 % TREADY")


# ---------------------------------------------------------------------------------------------- small groups
#: dense bytes per kernel group (int8 elements) and the masks of the small-group jobs at latency 128: the
#: weight-data read runs only as far ahead of the expander as the WGS entries received (ENT_DEPTH 32: groups of
#: 128 dense bytes or fewer streamed at 0.14..0.48 transfers per cycle; a limit of the entries unpacked one per
#: cycle: 0.88 for 32-byte groups on the 512-bit bus, nightly 2026-11-27)
SMALL_GROUP_BYTES = (32, 64, 128, 256, 512)
SMALL_GROUP_MASKS = ("all_ones", "uniform_0.5", "uniform_0.05")


class _SmallGroups(_LatencySeq):
    """Synthetic streams of equal int8 groups of :data:`SMALL_GROUP_BYTES` dense bytes, compressed with
    :data:`SMALL_GROUP_MASKS`, at latency 128, at least LATENCY_TRANSFERS transfers each."""

    async def body(self) -> None:
        out = config_value("OUT_BYTES")
        for g in SMALL_GROUP_BYTES:
            for mask in SMALL_GROUP_MASKS:
                groups = -(-LATENCY_TRANSFERS // -(-g // out))
                ws = draw_synthetic(self.rng, "int8", mask, self.addr_bits, g_elems=g, groups=groups)
                comp = float(ws.wgs_values().mean())
                await self.send_job(ws, f"groups of {g:3d} B {mask} ({comp:5.1f} B)", 128, "none")


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class SmallGroupLatencyTest(WeightTestBase):
    """Small compressed groups: output transfers per cycle at latency 128 of int8 groups of 32 to 512
    dense bytes (1.6 to 512 compressed bytes per group) against the reader's limit (:func:`rate_limit`, the WGS
    entry of every group included): >= 0.9 of it. The weight-data read runs as far ahead of the expander as the
    WGS entries received (WGS_DEPTH beats and ENT_DEPTH entries): short groups need them deep and summed as they
    arrive (one group per cycle over a round trip)."""

    async def body(self) -> None:
        seq = _SmallGroups("small", self.tb)
        await self.run_seq(seq)
        check_rows(self, seq.rows, "latency 128, small groups")


# ---------------------------------------------------------------------------------------------- every read in flight
#: the weight-data queue's depth, the default of blocks/rtl/weight_reader/weight_reader.sv (beats queued + in
#: flight): a dense job at a latency longer than its issue time has exactly this many beats in flight
_DEPTH = re.search(
    r"parameter int DATA_DEPTH\s*=\s*(\d+)",
    (Path(__file__).resolve().parents[1] / "rtl" / "weight_reader" / "weight_reader.sv").read_text(),
)
assert _DEPTH is not None, "blocks/rtl/weight_reader/weight_reader.sv declares no DATA_DEPTH parameter"
DATA_DEPTH = int(_DEPTH[1])
SLOTS_LATENCY = 200


class _AllInFlight(WeightSeqBase):
    """Dense DC jobs at latency 200 (every read the reader can have in flight is issued before the first returns):
    SLVERR and DECERR on a weight beat past the first DATA_DEPTH + 40, or a reset 150 cycles after START (nothing
    returned yet); a clean job after each. ``self.peaks``: the most beats in flight during each disturbed job."""

    def __init__(self, name: str, tb, what: tuple[str, ...]) -> None:
        super().__init__(name)
        self.tb, self.what = tb, what
        self.peaks: list[tuple[str, int]] = []

    async def _peak(self, box: list) -> None:
        while True:
            await ClockCycles(self.tb.dut.clk, 1)
            box[0] = max(box[0], self.tb.mem.inflight_beats)

    async def body(self) -> None:
        bad_beat = DATA_DEPTH + 40
        for what in self.what:
            ws = None
            while ws is None or ws.desc.dense_bytes < (bad_beat + 64) * self.bus_bytes:
                ws = self.draw(family="dc", dtype="int8", mask="dense", kernels=64, channels=128)
            kind = Kind.RESET if what == "reset" else Kind.BUS_ERROR
            item = self.new_item(kind, ws, Knobs(latency=SLOTS_LATENCY))
            if what == "reset":
                item.reset_after = 150
            else:
                lo = ws.desc.ranges()["weight"][0] + bad_beat * self.bus_bytes
                item.faults = [(lo, lo + self.bus_bytes, what)]
                item.fault_surface = "weight"
            box = [0]
            peak = cocotb.start_soon(self._peak(box))
            await self.send(item)
            peak.cancel()
            self.peaks.append((what, box[0]))
            await self.send_weights(Knobs(latency=SLOTS_LATENCY), small=True)


def _check_peaks(peaks: list) -> None:
    for what, peak in peaks:
        assert peak == DATA_DEPTH, f"{what}: {peak} beats in flight at most, want DATA_DEPTH = {DATA_DEPTH}"


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class AllSlotsBusErrorTest(WeightTestBase):
    """SLVERR, then DECERR, on a weight beat read while every read the reader can have is in flight
    (DATA_DEPTH beats, latency 200): its error bit and FAULT surface, an exact prefix, every beat in flight drained
    before DONE (the scoreboard's checks of a bus-error job); the next job is exact."""

    async def body(self) -> None:
        seq = _AllInFlight("slots", self.tb, ("SLVERR", "DECERR"))
        await self.run_seq(seq)
        _check_peaks(seq.peaks)


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class AllSlotsResetTest(WeightTestBase):
    """Reset while every read the reader can have is in flight (DATA_DEPTH beats, latency 200): no read
    after it, idle, registers cleared (the scoreboard's checks of a reset job); the next job is exact."""

    async def body(self) -> None:
        seq = _AllInFlight("slots", self.tb, ("reset",))
        await self.run_seq(seq)
        _check_peaks(seq.peaks)
