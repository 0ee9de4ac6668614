"""pyuvm tests of the pixel reader (cocotb test module ``tb.pixel_reader.tests``).

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

import warnings

import pyuvm

from tb.platform import (
    Knobs,
    ReaderTestBase,
    RegisterTestBase,
    SmallJobs,
    declare_scoreboard_selftests,
    declare_sequence_tests,
    error_bit_corruption,
)

from .env import PixelReaderEnv, PixelReaderTB
from .items import Kind
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

warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"cocotbext\..*")


class PixelTestBase(ReaderTestBase):
    """The platform's test base with the pixel reader's TB and env (COUNT defaults to 1 picture per format)."""

    tb_cls = PixelReaderTB
    env_cls = PixelReaderEnv
    default_count = 1


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class RegisterTest(RegisterTestBase, PixelTestBase):
    """The register tests of the model (tb.register_check), then one picture with a second START and garbage
    writes."""

    def job(self) -> PixelSeqBase:
        return _OnePicture("one")


class _OnePicture(PixelSeqBase):
    async def body(self) -> None:
        self.item = self.new_item(Kind.PICTURE, self.draw("T_A8R8G8B8"))
        self.item.knobs = Knobs()
        self.item.midjob = 1
        await self.send(self.item)


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
    IllegalDescriptorTest=(
        IllegalSeq,
        "illegal",
        "Every validator rule alone and in combination: exactly desc.errors(AXI_ADDR_W), DONE, no AXI traffic.",
    ),
    BusErrorTest=(
        BusErrorSeq,
        "buserr",
        "SLVERR/DECERR in plane 0 and plane 1: stop before the first pixel that needs the word, error bit, DONE.",
    ),
    StallStressTest=(StallSeq, "stall", "Heavy ARREADY/RVALID/TREADY stalls and long read latency."),
    ResetMidJobTest=(
        ResetSeq,
        "reset",
        "Reset during a job: idle afterwards, no reads after the reset, the next picture is exact.",
    ),
    LargePictureTest=(LargeSeq, "large", "8192-pixel lines (full N444 line buffer, 4 KB splits) and 8192 lines."),
)


# ---------------------------------------------------------------------------------------------- scoreboard
def _flip_byte(item, exp: Expected, rng) -> str:
    i = int(rng.integers(0, exp.max_px))
    exp.atoms[i, 0] ^= 0x5A
    h, w = (int(v) for v in exp.coords[i])
    return f"(h,w)=({h},{w})"


def _drop_pixel(item, exp: Expected, rng) -> str:
    exp.max_px -= 1
    return "pixels on the stream, expected"


def _shift_coord(item, exp: Expected, rng) -> str:
    exp.coords[-1, 1] += 1
    return "TUSER (h,w)"


def _saturated(item, exp: Expected, rng) -> str:
    exp.saturated[0] += 1
    return "SATURATED"


#: the pixel formats of the scoreboard self-tests' small pictures, one after the other
SMALL_PICTURES = ("T_A8B8G8R8", "T_Y10___U10V10_N444", "T_A2R10G10B10", "T_R16_F", "T_R8")


declare_scoreboard_selftests(
    PixelTestBase,
    TIMEOUT_MS,
    corruptions=(_flip_byte, _drop_pixel, _shift_coord, _saturated, error_bit_corruption(BUS_DECERR)),
    small_jobs=SmallJobs(
        PixelSeqBase, lambda seq, i: seq.send_picture(SMALL_PICTURES[i % len(SMALL_PICTURES)], Knobs())
    ),
    what="a flipped byte naming its pixel, one pixel fewer, a wrong coordinate, a SATURATED count, an error bit",
)
