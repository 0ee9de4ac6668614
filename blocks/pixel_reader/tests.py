"""pyuvm tests of the pixel reader (cocotb test module ``blocks.pixel_reader.tests``).

Every test seeds a numpy Generator from ``cocotb.RANDOM_SEED`` (cocotb 2 derives it from the run seed and the
test name; both are logged), so ``make sim SIM=<sim> SUITE=<suite> RUN=pixel_reader/uvm TESTCASE=<test>
SEED=<run seed>`` reproduces it; every mismatch report prints the command. ``COUNT`` (environment) sets the random
pictures per format (default 1; ``make sim`` uses 20).

Tests: RegisterTest, EveryFormatTest (each of the 36 formats by name), RandomPictureTest (COUNT random pictures
per format), CrossTest (format x precision x x-offset edge, saturating both ways), ConverterTest (ties, sign,
mean, CVT_EN = 0), Fp16SpecialsTest, IllegalDescriptorTest (every rule alone, combinations), BusErrorTest,
StallStressTest, ResetMidJobTest, LargePictureTest, ScoreboardSelfTest, CorruptModelIsCaught (expect_fail twin).
"""

from __future__ import annotations

from dlaverif.platform import Knobs, ReaderTestBase, SmallJobs, error_bit_corruption, field_corruption
from dlaverif.platform.declare import declare_register_test, declare_scoreboard_selftests, declare_sequence_tests

from .env import PixelReaderEnv, PixelReaderTB
from .registers import BUS_DECERR
from .scoreboard import Expected
from .sequences import (
    BusErrorSeq,
    ConverterSeq,
    CrossSeq,
    EveryFormatSeq,
    Fp16Seq,
    IllegalSeq,
    LargeSeq,
    PixelSeqBase,
    RandomPictureSeq,
    ResetSeq,
    StallSeq,
)

TIMEOUT_MS = 4000  # simulated time; a hang inside a job is caught earlier by the driver's per-job timeout


class PixelTestBase(ReaderTestBase):
    """The platform's test base with the pixel reader's TB and env (COUNT defaults to 1 picture per format)."""

    tb_cls = PixelReaderTB
    env_cls = PixelReaderEnv
    default_count = 1


declare_register_test(
    PixelTestBase,
    TIMEOUT_MS,
    SmallJobs(PixelSeqBase, lambda seq, i: seq.send_picture("T_A8R8G8B8", Knobs(), midjob=1)),
    "picture",
)


declare_sequence_tests(
    PixelTestBase,
    TIMEOUT_MS,
    EveryFormatTest=(
        EveryFormatSeq,
        "fmt",
        "Each of the 36 formats by name: one pixel at x offset 0, and a saturating picture at the largest x offset.",
    ),
    RandomPictureTest=(
        RandomPictureSeq,
        "pic",
        "COUNT random pictures of every format with random geometry, converter and timing knobs.",
    ),
    CrossTest=(CrossSeq, "cross", "Every format x legal precision x both x-offset ends, clamping in both directions."),
    ConverterTest=(ConverterSeq, "cvt", "Rounding ties, sign override, per-channel means, CVT_EN = 0, large shifts."),
    Fp16SpecialsTest=(Fp16Seq, "fp16", "fp16 formats: NaN, INF, denormals and -0.0 pass through bit for bit."),
    IllegalDescriptorTest=(IllegalSeq, "desc.errors(AXI_ADDR_W)"),
    BusErrorTest=(BusErrorSeq, "in plane 0 and plane 1: stop before the first pixel that needs the word"),
    StallStressTest=StallSeq,
    ResetMidJobTest=ResetSeq,
    LargePictureTest=(LargeSeq, "large", "8192-pixel lines (full N444 line buffer, 4 KB splits) and 8192 lines."),
)


# ---------------------------------------------------------------------------------------------- scoreboard
def _flip_byte(item, exp: Expected, rng) -> str:
    i = int(rng.integers(0, exp.max_px))
    exp.atoms[i, 0] ^= 0x5A
    h, w = (int(v) for v in exp.coords[i])
    return f"(h,w)=({h},{w})"


#: the pixel formats of the scoreboard self-tests' small pictures, one after the other
SMALL_PICTURES = ("T_A8B8G8R8", "T_Y10___U10V10_N444", "T_A2R10G10B10", "T_R16_F", "T_R8")


declare_scoreboard_selftests(
    PixelTestBase,
    TIMEOUT_MS,
    corruptions=(
        _flip_byte,
        field_corruption("max_px", "pixels on the stream, expected", delta=-1),  # one pixel fewer
        field_corruption("coords", "TUSER (h,w)", (-1, 1)),  # the last pixel's w
        field_corruption("saturated", "SATURATED", 0),
        error_bit_corruption(BUS_DECERR),
    ),
    small_jobs=SmallJobs(
        PixelSeqBase, lambda seq, i: seq.send_picture(SMALL_PICTURES[i % len(SMALL_PICTURES)], Knobs())
    ),
    what="a flipped byte naming its pixel, one pixel fewer, a wrong coordinate, a SATURATED count, an error bit",
)
