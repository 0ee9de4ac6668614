"""Weight-reader environment on the shared platform (``dlaverif/platform/``): what the weight reader's jobs add to the
one job protocol (its three surfaces, their footprint, the output width), and the env with the weight scoreboard
and coverage."""

from __future__ import annotations

from typing import Optional

import numpy as np

from blocks.binding import register_reader
from dlaverif.footprint import Region
from dlaverif.platform import ReaderEnv, ReaderTB

from . import registers
from .coverage import WeightCoverage
from .footprint import weight_regions
from .items import Kind, WeightItem
from .scoreboard import WeightScoreboard

#: how the platform sees ``weight_reader`` (blocks/rtl/weight_reader/): the project's reader convention, its .rdl's map
BINDING = register_reader(registers.REGS)


class WeightReaderTB(ReaderTB):
    """The shared reader TB around one ``weight_reader``."""

    binding = BINDING
    registers = registers

    def __init__(self, dut, rng: Optional[np.random.Generator] = None) -> None:
        super().__init__(dut, rng)
        # bytes per output transfer (OUT_DATA_W / 8)
        self.out_bytes = len(self.binding.signal(dut, f"{self.binding.stream}_tkeep"))

    def regions(self, item: WeightItem) -> list[Region]:
        strict = item.kind in (Kind.WEIGHTS, Kind.BUS_ERROR, Kind.RESET)
        assert item.desc is not None, "every weight job programs a descriptor"
        return weight_regions(item.ws, item.desc, self.bus_bytes, strict)

    def pieces(self, item: WeightItem):
        return item.pieces()


class WeightReaderEnv(ReaderEnv):
    scoreboard_cls = WeightScoreboard
    coverage_cls = WeightCoverage
