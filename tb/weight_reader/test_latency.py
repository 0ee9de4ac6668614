"""The weight reader against memory latency (issue 23): cocotb test module ``tb.weight_reader.test_latency``.

* ``LatencyTest``: output transfers per cycle of dense and compressed weights of every family and precision at read
  latency 32 and 128 (and with 50 % TREADY backpressure at 128) against the reader's limit (:func:`rate_limit`):
  >= 0.95 of it at latency 32, >= 0.9 at 128 (exact simulated cycles);
* ``AllSlotsBusErrorTest`` / ``AllSlotsResetTest``: SLVERR/DECERR on a weight beat, and a reset, while the reader has
  every read it can have in flight (latency 200).

A module of its own so that the runs of ``tb.weight_reader.tests`` (every test of that module) do not take these
long jobs; the runs ``weight_reader/latency*`` and ``weight_reader/slots`` of the testplan run them.
"""

from __future__ import annotations

import re
from pathlib import Path

import cocotb
import pyuvm
from cocotb.triggers import ClockCycles

from tb.platform import Knobs, config_value

from .items import Kind
from .sequences import WeightSeqBase
from .tests import TIMEOUT_MS, WeightTestBase, rate
from .weights import FAMILIES, PRECISIONS

# ---------------------------------------------------------------------------------------------- memory latency
#: sparsity patterns of the latency bounds: dense (uncompressed) and compressed of density 1, 0.5 and 0.05
LATENCY_MASKS = ("dense", "all_ones", "uniform_0.5", "uniform_0.05")
#: channels per family of the latency jobs (64 kernels each; the image families draw their own few channels)
LATENCY_CHANNELS = {"dc": 128, "winograd": 64, "deconv": 64}
#: dense transfers of a latency job at least (kernels doubled from 64 until the drawn shape has them): the output
#: waits once for the first round trip of the weight data behind the WGS round trip (a transfer whose elements are
#: all zero may go before it), which must not weigh on the sustained rate
LATENCY_TRANSFERS = 2048
#: read latency -> the fraction of the reader's limit (:func:`rate_limit`) its output must reach (issue 23)
LATENCY_BOUNDS = {32: 0.95, 128: 0.9}


def rate_limit(ws, bus_bytes: int, out_bytes: int, tready: float = 1.0) -> float:
    """The reader's limit in output transfers per cycle for weight set ``ws``: one transfer per cycle, the read bus
    (every weight-surface byte and, compressed, the mask bit of every dense element cross it: bus bytes per cycle /
    bus bytes per full transfer) and the share ``tready`` of cycles in which the output may move."""
    dense = max(1, int(ws.desc.dense_bytes))
    frac = float(ws.wgs_values().sum()) / dense if ws.compressed else 1.0
    mask = 1.0 / (8 * ws.desc.elem_bytes) if ws.compressed else 0.0
    per_transfer = out_bytes * (frac + mask)
    return min(1.0, tready, bus_bytes / per_transfer if per_transfer else 1.0)


class _Latency(WeightSeqBase):
    """Every family x precision x :data:`LATENCY_MASKS` at latency 32 and 128 without backpressure, and the DC
    family at latency 128 with 50 % TREADY backpressure, each job at least :data:`LATENCY_TRANSFERS` dense transfers;
    ``self.rows``: (label, latency, tready, limit, item)."""

    async def body(self) -> None:
        self.rows = []
        cases = [
            (f, d, m, lat, "none")
            for f in FAMILIES
            for d in PRECISIONS
            for m in LATENCY_MASKS
            for lat in LATENCY_BOUNDS
        ]
        cases += [("dc", d, m, 128, "half") for d in ("int8", "int16") for m in LATENCY_MASKS]
        want = LATENCY_TRANSFERS * config_value("OUT_BYTES")
        for family, dtype, mask, latency, tready in cases:
            kernels, ws = 64, None
            while ws is None or (ws.desc.dense_bytes < want and kernels < 8192):
                if ws is not None:
                    kernels *= 2
                ws = self.draw(
                    family=family, dtype=dtype, mask=mask, kernels=kernels, channels=LATENCY_CHANNELS.get(family)
                )
            item = self.new_item(Kind.WEIGHTS, ws, Knobs(latency=latency, backpressure=tready))
            await self.send(item)
            limit = rate_limit(ws, self.bus_bytes, config_value("OUT_BYTES"), 0.5 if tready != "none" else 1.0)
            self.rows.append((f"{family} {dtype} {mask}", latency, tready, limit, item))


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class LatencyTest(WeightTestBase):
    """Issue 23: the weight reader hides slow memory. Output transfers per cycle (first to last transfer, exact
    simulated cycles) of dense and compressed weights (density 1, 0.5, 0.05) of every family and precision, at read
    latency 32 and 128, and with 50 % TREADY backpressure at 128 (DC int8/int16), against the reader's limit
    (:func:`rate_limit`: one transfer per cycle, the read bus, the TREADY share): >= 0.95 of it at latency 32,
    >= 0.9 at 128; every job also checked by the scoreboard. Jobs of at least LATENCY_TRANSFERS transfers
    (the rate is the sustained one)."""

    async def body(self) -> None:
        seq = _Latency("lat")
        await self.run_seq(seq)
        lines, bad = [], []
        for label, latency, tready, limit, item in seq.rows:
            n, cyc = rate(item.response().beats)
            got = n / cyc if cyc else 0.0
            need = LATENCY_BOUNDS[latency] * limit
            line = (
                f"{label:34s} latency {latency:3d} tready {tready:4s}: {n:5d} transfers in {cyc:5d} cycles = "
                f"{got:.3f}/cycle, limit {limit:.3f} ({got / limit:.3f} of it)"
            )
            lines.append(line)
            if got < need:
                bad.append(f"{line}: below {LATENCY_BOUNDS[latency]} x limit")
        self.logger.info(
            "latency (AXI_DATA_W=%d, OUT_DATA_W=%d, 64 kernels):\n  %s",
            self.tb.bus_bytes * 8,
            self.tb.out_bytes * 8,
            "\n  ".join(lines),
        )
        assert not bad, "\n".join(bad)


# ---------------------------------------------------------------------------------------------- every read in flight
#: the weight-data queue's depth, the default of rtl_stubs/weight_reader.sv (beats queued + in flight): a dense job
#: at a latency longer than its issue time has exactly this many beats in flight
_DEPTH = re.search(
    r"parameter int DATA_DEPTH\s*=\s*(\d+)",
    (Path(__file__).resolve().parents[2] / "rtl_stubs" / "weight_reader.sv").read_text(),
)
assert _DEPTH is not None, "rtl_stubs/weight_reader.sv declares no DATA_DEPTH parameter"
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
    """Issue 23: SLVERR, then DECERR, on a weight beat read while every read the reader can have is in flight
    (DATA_DEPTH beats, latency 200): its error bit and FAULT surface, an exact prefix, every beat in flight drained
    before DONE (the scoreboard's checks of a bus-error job); the next job is exact."""

    async def body(self) -> None:
        seq = _AllInFlight("slots", self.tb, ("SLVERR", "DECERR"))
        await self.run_seq(seq)
        _check_peaks(seq.peaks)


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class AllSlotsResetTest(WeightTestBase):
    """Issue 23: reset while every read the reader can have is in flight (DATA_DEPTH beats, latency 200): no read
    after it, idle, registers cleared (the scoreboard's checks of a reset job); the next job is exact."""

    async def body(self) -> None:
        seq = _AllInFlight("slots", self.tb, ("reset",))
        await self.run_seq(seq)
        _check_peaks(seq.peaks)
