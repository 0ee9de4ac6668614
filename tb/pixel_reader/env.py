"""Pixel-reader environment on the shared platform (``tb/platform/``): what the pixel reader's jobs add to the
one job protocol (its picture's planes and their footprint), and the env with the pixel scoreboard and coverage.
"""

from __future__ import annotations

from tb.footprint import Region
from tb.platform import Completion, DutBinding, ReaderEnv, ReaderTB, RegisterControl, ResetPin

from . import registers
from .coverage import PixelCoverage
from .footprint import plane_regions
from .items import PixelItem
from .scoreboard import PixelScoreboard

#: how the platform sees ``pixel_reader`` (rtl_stubs/pixel_reader.sv): its register block
#: (rtl_stubs/regs/pixel_reader.rdl) over AXI4-Lite, DONE on ``irq``;
#: DONE rises once the last output transfer was accepted (drained)
BINDING = DutBinding(
    control=RegisterControl(prefix="s_axil", regs=registers.REGS, irq="irq"),
    clock="clk",
    reset=ResetPin("rst", active_high=True),
    axi_master="m_axi",
    streams=("m_axis",),
    completion=Completion.DRAINED,
)


class PixelReaderTB(ReaderTB):
    """The shared reader TB around one ``pixel_reader``."""

    binding = BINDING
    registers = registers

    def regions(self, item: PixelItem) -> list[Region]:
        assert item.desc is not None, "every pixel job programs a descriptor"
        return plane_regions(item.desc, self.bus_bytes)

    def pieces(self, item: PixelItem):
        return item.picture.pieces if item.picture is not None else []


class PixelReaderEnv(ReaderEnv):
    scoreboard_cls = PixelScoreboard
    coverage_cls = PixelCoverage
