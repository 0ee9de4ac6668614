"""Cube-reader environment on the shared platform (``dlaverif/platform/``): what the cube reader's jobs add to the
one job protocol (its memory, its read region, its descriptor with the two fp16 flags, its garbage), and the env
with the cube scoreboard and coverage. Directed tests (``test_directed.py``) and pyuvm tests (``tests.py``) both
run on :class:`CubeReaderTB`.
"""

from __future__ import annotations

from blocks.binding import register_reader
from dlaverif.footprint import Region
from dlaverif.platform import ReaderEnv, ReaderTB

from . import registers
from .coverage import CubeCoverage
from .footprint import cube_regions
from .items import CubeItem
from .scoreboard import CubeScoreboard

#: how the platform sees ``cube_reader`` (blocks/rtl/cube_reader/): the project's reader convention, its .rdl's map
BINDING = register_reader(registers.REGS)


class CubeReaderTB(ReaderTB):
    """The shared reader TB around one ``cube_reader``."""

    binding = BINDING
    registers = registers

    def regions(self, item: CubeItem, strict: bool = True) -> list[Region]:
        assert item.desc is not None, "every cube job programs a descriptor"
        return cube_regions(item.desc, self.bus_bytes, strict)

    def pieces(self, item: CubeItem):
        return item.cube.memory() if item.cube is not None else None

    async def program(self, item: CubeItem) -> None:
        assert item.desc is not None, "every cube job programs a descriptor"
        await registers.program(self.csr, item.desc, item.nan_to_zero, item.fp16)

    def garbage(self, values: dict[str, int]) -> dict[str, int]:
        values["CFG"] &= ~0xF  # keep a legal-looking word; the value does not matter to the running job
        return values


class CubeReaderEnv(ReaderEnv):
    scoreboard_cls = CubeScoreboard
    coverage_cls = CubeCoverage
