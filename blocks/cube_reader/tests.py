"""pyuvm tests of the cube reader (cocotb test module ``blocks.cube_reader.tests``).

Every test seeds a numpy Generator from ``cocotb.RANDOM_SEED`` (cocotb 2 derives it from the run seed
COCOTB_RANDOM_SEED and the test name; both are logged), so ``make sim SIM=<sim> TESTCASE=<test> SEED=<run seed>``
(or ``SEEDS=<run seed> COCOTB_TEST_FILTER=<test>`` under pytest) reproduces it; every mismatch report prints it.
``COUNT`` (environment) sets the random cubes per layout family (default 8; ``make sim`` uses 200), scaled by
``COUNT_SCALE`` (the 512-bit suite of ``make sim`` uses 0.25).

Tests: RegisterTest, RandomCubeTest, Fp16SpecialsTest, IllegalDescriptorTest, BusErrorTest, ResetMidJobTest,
StallStressTest, LargeCubeTest (long counts in every dimension, 2..4 GB batch strides, and each count at 65535
when COUNT >= 100 or LARGE=1), ScoreboardSelfTest (the
scoreboard must report every corruption of the model, with the right coordinates), CorruptModelIsCaught
(expect_fail twin: a corrupted model must fail the test).
"""

from __future__ import annotations

import os

import pyuvm

from dlaverif.platform import Knobs, ReaderTestBase, SmallJobs, error_bit_corruption, field_corruption
from dlaverif.platform.declare import declare_register_test, declare_scoreboard_selftests, declare_sequence_tests

from .env import CubeReaderEnv, CubeReaderTB
from .families import available_families
from .registers import BUS_DECERR
from .scoreboard import Expected
from .sequences import BusErrorSeq, CubeSeq, CubeSeqBase, Fp16Seq, IllegalSeq, LargeSeq, ResetSeq, StallSeq

TIMEOUT_MS = 2000  # simulated time; a hang inside a job is caught earlier by the driver's per-job timeout


class CubeTestBase(ReaderTestBase):
    """The platform's test base with the cube reader's TB, env and layout families."""

    tb_cls = CubeReaderTB
    env_cls = CubeReaderEnv
    default_count = 8

    def config(self, tb) -> dict:
        self.families = available_families()
        return {"FAMILY_OBJS": self.families, "FAMILIES": [f.name for f in self.families]}

    def describe(self, tb) -> str:
        return "families: " + ", ".join(f.name for f in self.families)


declare_register_test(
    CubeTestBase,
    TIMEOUT_MS,
    SmallJobs(CubeSeqBase, lambda seq, i: seq.send_cube(seq.families[0], Knobs(), midjob=True)),
    "cube",
)

declare_sequence_tests(
    CubeTestBase,
    TIMEOUT_MS,
    RandomCubeTest=(
        CubeSeq,
        "cube",
        "Every layout family: channel edges and dtypes first, then COUNT random cubes each with random stalls.",
    ),
    Fp16SpecialsTest=(
        Fp16Seq,
        "fp16",
        "fp16 NaN/INF/denormals: NAN_COUNT/INF_COUNT against a numpy count, NAN_TO_ZERO flush, FP16 clear.",
    ),
    IllegalDescriptorTest=(IllegalSeq, "desc.error_bits(AXI_ADDR_W)"),
    BusErrorTest=(BusErrorSeq, "on the first/middle/last atom: stop before that atom"),
    ResetMidJobTest=ResetSeq,
    StallStressTest=StallSeq,
)


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class LargeCubeTest(CubeTestBase):
    """Large cubes of every family (many 4 KB pages, long bursts); one 65535-atom line when COUNT >= 100
    or LARGE=1."""

    async def body(self) -> None:
        full = self.count >= 100 or os.getenv("LARGE", "0") not in ("", "0")
        await self.run_seq(LargeSeq("large", full=full))


# ---------------------------------------------------------------------------------------------- scoreboard
def _flip_byte(item, exp: Expected, rng) -> str:
    i = int(rng.integers(0, exp.max_atoms))
    j = int(rng.integers(0, exp.atoms.shape[1]))
    exp.atoms[i, j] ^= 0x5A
    return f"differs first at byte {j} @0x{int(exp.addrs[i]) + j:x}"


declare_scoreboard_selftests(
    CubeTestBase,
    TIMEOUT_MS,
    corruptions=(
        _flip_byte,
        field_corruption("max_atoms", "atoms on the stream, expected", delta=-1),  # one atom fewer
        field_corruption("coords", "TUSER (n,c,h,w)", (-1, 3)),  # the last atom's w
        field_corruption("nan", "NAN_COUNT", 0),
        error_bit_corruption(BUS_DECERR),
    ),
    small_jobs=SmallJobs(  # small cubes, one family after the other
        CubeSeqBase, lambda seq, i: seq.send_cube(seq.families[i % len(seq.families)], Knobs(), nan_to_zero=False)
    ),
    what="a flipped byte, one atom fewer, a wrong coordinate, a NaN count, an error bit",
)
