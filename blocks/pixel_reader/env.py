"""Pixel-reader environment on the shared platform (``dlaverif/platform/``): what the pixel reader's jobs add to the
one job protocol (its picture's planes and their footprint), and the env with the pixel scoreboard and coverage.
"""

from __future__ import annotations

from blocks.binding import register_reader
from dlaverif.footprint import Region
from dlaverif.platform import ReaderEnv, ReaderTB

from . import registers
from .coverage import PixelCoverage
from .footprint import plane_regions
from .items import PixelItem
from .scoreboard import PixelScoreboard

#: how the platform sees ``pixel_reader`` (blocks/rtl/pixel_reader/): the project's reader convention, its .rdl's map
BINDING = register_reader(registers.REGS)


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
