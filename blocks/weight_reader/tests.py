"""pyuvm tests of the weight reader (cocotb test module ``blocks.weight_reader.tests``).

Every test seeds a numpy Generator from ``cocotb.RANDOM_SEED`` (logged), so ``make sim SIM=<sim> TESTCASE=<test>
SEED=<run seed>`` reproduces it; every mismatch report prints the command. ``COUNT`` (environment) sets the random
weight sets per weight format family and precision (default 2; ``make sim`` uses 100).

Tests: RegisterTest, RandomWeightsTest (every family x precision x sparsity pattern), EdgeTest (kernel and channel
counts around the group and block sizes), IllegalDescriptorTest, CorruptionTest (flipped WMB bit, WGS off by one
element, truncated compressed surface), BusErrorTest (SLVERR/DECERR on each surface), ResetMidJobTest,
MidJobWritesTest (a second START and garbage descriptor writes during a job are ignored),
StallStressTest, ScoreboardSelfTest and CorruptModelIsCaught (the scoreboard is able to fail).
"""

from __future__ import annotations

import pyuvm

from dlaverif.platform import Knobs, ReaderTestBase, SmallJobs, config_value, error_bit_corruption, field_corruption
from dlaverif.platform.declare import declare_register_test, declare_scoreboard_selftests, declare_sequence_tests

from .env import WeightReaderEnv, WeightReaderTB
from .items import Kind
from .registers import BUS_DECERR, REGS
from .scoreboard import Expected
from .sequences import (
    BusErrorSeq,
    CorruptSeq,
    EdgeSeq,
    IllegalSeq,
    QueueFillSeq,
    ResetSeq,
    StallSeq,
    WeightSeq,
    WeightSeqBase,
)

TIMEOUT_MS = 4000


class WeightTestBase(ReaderTestBase):
    """The platform's test base with the weight reader's TB and env (COUNT defaults to 2 weight sets per format
    family and precision)."""

    tb_cls = WeightReaderTB
    env_cls = WeightReaderEnv
    default_count = 2

    def config(self, tb) -> dict:
        return {"OUT_BYTES": tb.out_bytes}

    def describe(self, tb) -> str:
        return f"OUT_DATA_W={tb.out_bytes * 8}"


declare_register_test(
    WeightTestBase,
    TIMEOUT_MS,
    SmallJobs(WeightSeqBase, lambda seq, i: seq.send_weights(Knobs(), midjob=1, small=True)),
    "weight set",
)


class _MidJob(WeightSeqBase):
    """Legal weight sets, each with a second START at once and garbage descriptor writes ``midjob`` cycles into
    the job (early, in the middle, after DONE); after each job the descriptor registers must hold the garbage (so
    the disturbance really happened) while the scoreboard finds the job exact."""

    async def body(self) -> None:
        tb: WeightReaderTB = config_value("TB")
        self.problems: list[str] = []
        for i in range(max(3, self.count)):
            item = self.new_item(Kind.WEIGHTS, self.draw(small=True), Knobs())
            item.midjob = (1, 20, 200)[i % 3] + int(self.rng.integers(0, 8))
            await self.send(item)
            wrote = item.response().midjob_writes
            back = await tb.csr.read_many(list(wrote))
            self.problems += [
                f"{item.get_name()}: {r} read 0x{back[r]:08x} after the mid-job write of 0x{v:08x}"
                for r, v in wrote.items()
                if back[r] != v & REGS.WMASK[r]
            ]
            if not wrote:
                self.problems.append(f"{item.get_name()}: no mid-job write happened")


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class MidJobWritesTest(WeightTestBase):
    """A second START and garbage writes to every descriptor register while a job runs are ignored by the running
    job (it latched its descriptor at START; the scoreboard checks it exact) and land in the registers."""

    async def body(self) -> None:
        seq = _MidJob("midjob")
        await self.run_seq(seq)
        assert not seq.problems, f"{len(seq.problems)} problem(s): {seq.problems[:3]}"


declare_sequence_tests(
    WeightTestBase,
    TIMEOUT_MS,
    RandomWeightsTest=(
        WeightSeq,
        "w",
        "Every weight format family (DC, image with post-extension 1/2/4, Winograd, deconvolution) in int8, int16 "
        "and fp16: COUNT weight sets each, the first ones sweeping every sparsity pattern, the rest random with "
        "stalls.",
    ),
    EdgeTest=(
        EdgeSeq,
        "edge",
        "Kernel counts 1, 15, 16, 17, 31, 32, 33, 97 in every precision with channels around 64; every pattern.",
    ),
    IllegalDescriptorTest=(IllegalSeq, "WeightSurfaceDescriptor.errors(AXI_ADDR_W)"),
    CorruptionTest=(
        CorruptSeq,
        "corrupt",
        "A flipped WMB bit, a WGS entry off by one element, a truncated compressed surface: the exact run-time "
        "error bit at the failing group, every earlier group exact, that group without tlast; the next job is "
        "exact.",
    ),
    BusErrorTest=(BusErrorSeq, "on the weight, WMB or WGS surface (FAULT names it)"),
    ResetMidJobTest=ResetSeq,
    StallStressTest=(StallSeq, " on every family"),
    QueueFillTest=(
        QueueFillSeq,
        "fill",
        "Compressed streams sized to the build's queues: under 50 % TREADY backpressure every queue (weight data, "
        "WMB, WGS beats, WGS entries) reaches its depth; at a latency longer than the data queue drains, the reads "
        "in flight approach every stream's reservation; where the entry queue or the address space is too small for "
        "that, sets with the output held fill the data, WMB, WGS and entry queues to their reach bounds.",
    ),
)


# ---------------------------------------------------------------------------------------------- scoreboard
def _flip_byte(item, exp: Expected, rng) -> str:
    if not exp.dense.size:
        exp.error ^= BUS_DECERR
        return "ERROR register"
    b = int(rng.integers(0, exp.dense.size))
    exp.dense[b] ^= 0x5A
    return f"differs first at dense byte {b} "


def _drop_group_last(item, exp: Expected, rng) -> str:
    exp.last[-1] = False
    return "TLAST=1, expected 0"


declare_scoreboard_selftests(
    WeightTestBase,
    TIMEOUT_MS,
    corruptions=(
        _flip_byte,
        _drop_group_last,
        field_corruption("group", "TUSER group", -1),  # the last transfer's kernel group
        error_bit_corruption(BUS_DECERR),
    ),
    small_jobs=SmallJobs(  # small weight sets of a random sparsity
        WeightSeqBase,
        lambda seq, i: seq.send_weights(
            Knobs(), mask=str(seq.rng.choice(["uniform_0.5", "all_ones", "dense"])), small=True
        ),
    ),
    what="a flipped byte (reported with its dense byte), a tlast and a group index changed, an error bit",
)


# ---------------------------------------------------------------------------------------------- throughput
#: (label, precision, sparsity pattern, read latency) of the throughput figures (docs/weight_reader.md, Throughput)
THROUGHPUT_CASES = (
    ("dense", "int8", "dense", 0),
    ("all-ones", "int8", "all_ones", 0),
    ("all-ones", "int16", "all_ones", 0),
    ("density 0.5", "int8", "uniform_0.5", 0),
    ("density 0.05", "int8", "uniform_0.05", 0),
    ("dense lat 32", "int8", "dense", 32),
    ("all-ones lat 32", "int16", "all_ones", 32),
)
THROUGHPUT_SHAPE = dict(kernels=64, channels=128)  # DC 64x128x3x3: 2 groups of 36 KB (int8)


class _Throughput(WeightSeqBase):
    async def body(self) -> None:
        self.items = []
        for _, dtype, mask, latency in THROUGHPUT_CASES:
            ws = None
            while ws is None or ws.shape[2:] != (3, 3):
                ws = self.draw(family="dc", dtype=dtype, mask=mask, **THROUGHPUT_SHAPE)
            self.items.append(await self.send_weights_set(ws, latency))

    async def send_weights_set(self, ws, latency: int):
        item = self.new_item(Kind.WEIGHTS, ws, Knobs(latency=latency))
        await self.send(item)
        return item


def rate(beats) -> tuple[int, int]:
    """(transfers, cycles from the first transfer to the last, both included): output transfers per cycle once
    data flows, from the monitor's exact cycle stamps."""
    return len(beats), (beats[-1].cycle - beats[0].cycle + 1) if beats else 0


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class ThroughputTest(WeightTestBase):
    """Output transfers per cycle once data flows (no stalls), exact simulated cycles, for dense weights, all-ones
    masks (int8, int16) and uniform masks of density 0.5 and 0.05 at read latency 0, and dense and all-ones int16
    at latency 32 (the weight-data queue, DATA_DEPTH, hides it); every job also checked by the scoreboard.
    Asserted for dense weights and all-ones masks: >= 0.95 of min(1, the read-bus bound); the bound is
    bus bytes / (output bytes x (1 + 1/(8 x element bytes))) for all-ones masks (every output byte and its mask bit
    cross the one read bus: 8/9 for int8, 16/17 for int16 when the output is as wide as the bus;
    docs/weight_reader.md) and bus / output bytes for dense weights."""

    async def body(self) -> None:
        seq = _Throughput("tput")
        await self.run_seq(seq)
        lines, rates = [], {}
        for (label, dtype, _, _), item in zip(THROUGHPUT_CASES, seq.items):
            n, cyc = rate(item.result.beats)
            st = item.result.status
            rates[(label, dtype)] = n / cyc
            lines.append(
                f"{label:13s} {dtype:6s} {n:5d} transfers in {cyc:5d} cycles = {n / cyc:.3f}/cycle; job "
                f"CYCLES={st.cycles} BEATS={st.beats} ({st.beats / st.cycles:.3f} bus beats/cycle)"
            )
        self.logger.info(
            "throughput (AXI_DATA_W=%d, OUT_DATA_W=%d, DC 64x128x3x3, latency 0 unless said, no stalls):\n  %s",
            self.tb.bus_bytes * 8,
            self.tb.out_bytes * 8,
            "\n  ".join(lines),
        )
        ratio = self.tb.bus_bytes / self.tb.out_bytes
        bounds = {
            ("dense", "int8"): ratio,
            ("all-ones", "int8"): ratio * 8 / 9,
            ("all-ones", "int16"): ratio * 16 / 17,
            ("dense lat 32", "int8"): ratio,
            ("all-ones lat 32", "int16"): ratio * 16 / 17,
        }
        for i, (label, dtype, _, _) in enumerate(THROUGHPUT_CASES):
            bound = bounds.get((label, dtype))
            if bound is not None:
                assert rates[(label, dtype)] >= 0.95 * min(1.0, bound), f"{lines[i]}: below 0.95 x min(1, {bound:.3f})"
