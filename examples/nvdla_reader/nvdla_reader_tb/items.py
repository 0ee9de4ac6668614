"""One job of nvdla_reader: an NVDLA feature cube (``models.nvdla.feature``: C, H, W of int8, int16 or fp16) at a
32-byte aligned base with line and surface strides, and the register values that program it. Pure stimulus: it
imports no scoreboard, env or coverage."""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from dlaverif.footprint import Region, words_of_runs
from dlaverif.models.nvdla import feature
from dlaverif.platform import ReaderItem

Kind = enum.Enum("Kind", "CUBE")
#: element type -> the D_DATA_FORMAT.INPUT_DATA member of rtl/nvdla_reader.rdl
FORMATS = {"int8": "INT8", "int16": "INT16", "float16": "FP16"}
ATOM = feature.ATOM_BYTES


class CubeJob(ReaderItem):
    """A cube, where it lies, and how its registers are written (``nposted``: non-posted CSB writes;
    ``readback``: read back before the enable, the values then kept here by the CSB sender)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.kind = Kind.CUBE
        self.tensor = np.zeros((1, 1, 1), np.int8)
        self.base = 0
        self.line_stride = self.surface_stride = ATOM
        self.nposted = False
        self.readback: Any = False

    def randomize(self, rng: np.random.Generator) -> None:
        """Channels around an atom's multiple (one to four surfaces), 1..40 atoms a line, 1..4 lines, strides packed
        or with gaps."""
        dtype = str(rng.choice(list(FORMATS)))
        epa = ATOM // np.dtype(dtype).itemsize
        c = int(rng.choice([1, epa - 1, epa, epa + 1, 2 * epa, int(rng.integers(1, 4 * epa + 1))]))
        h, w = int(rng.integers(1, 5)), int(rng.choice([1, 2, 3, int(rng.integers(4, 41))]))
        bits = rng.integers(0, 256, c * h * w * np.dtype(dtype).itemsize, dtype=np.uint8)
        self.tensor = bits.view(dtype).reshape(c, h, w)  # any bit pattern: a DMA moves bytes
        self.line_stride = w * ATOM + ATOM * int(rng.choice([0, 1, int(rng.integers(2, 6))]))
        self.surface_stride = h * self.line_stride + ATOM * int(rng.choice([0, 1, int(rng.integers(2, 6))]))
        self.nposted, self.readback = bool(rng.random() < 0.3), bool(rng.random() < 0.2)

    def descriptor(self) -> Any:
        """The model's description of the cube: every atom's address (``feature.descriptor``)."""
        return feature.descriptor(
            self.tensor.shape, self.tensor.dtype, self.base, self.line_stride, self.surface_stride
        )

    def footprint(self) -> list[Region]:
        """The bytes the job may read: its atoms (the read checker's footprint)."""
        d = self.descriptor()
        return [
            Region(self.get_name(), d.base, d.base + d.extent, words_of_runs(d.atom_addresses(), d.atom_bytes, ATOM))
        ]

    def image(self) -> np.ndarray:
        """The cube's bytes from its base, as the model packs them."""
        return np.frombuffer(feature.pack(self.tensor, self.line_stride, self.surface_stride).data("data"), np.uint8)

    def registers(self, r: Any) -> dict[str, int]:
        """The job's register values through the reader's map ``r`` (every field by name, from its .rdl)."""
        c, h, w = self.tensor.shape
        fmt = r.enum("D_DATA_FORMAT", "INPUT_DATA", FORMATS[self.tensor.dtype.name])
        return {
            "D_DATA_CUBE_WIDTH": r.value("D_DATA_CUBE_WIDTH", CUBE_WIDTH=w - 1),
            "D_DATA_CUBE_HEIGHT": r.value("D_DATA_CUBE_HEIGHT", CUBE_HEIGHT=h - 1),
            "D_DATA_CUBE_CHANNEL": r.value("D_DATA_CUBE_CHANNEL", CUBE_CHANNEL=c - 1),
            "D_DATA_FORMAT": r.value("D_DATA_FORMAT", INPUT_DATA=fmt),
            "D_SRC_BASE_ADDR_LOW": r.value("D_SRC_BASE_ADDR_LOW", SRC_BASE_ADDR_LOW=self.base & 0xFFFFFFFF),
            "D_SRC_BASE_ADDR_HIGH": r.value("D_SRC_BASE_ADDR_HIGH", SRC_BASE_ADDR_HIGH=self.base >> 32),
            "D_SRC_LINE_STRIDE": r.value("D_SRC_LINE_STRIDE", SRC_LINE_STRIDE=self.line_stride),
            "D_SRC_SURFACE_STRIDE": r.value("D_SRC_SURFACE_STRIDE", SRC_SURFACE_STRIDE=self.surface_stride),
        }

    def label(self) -> str:
        c, h, w = self.tensor.shape
        return (
            f"{self.get_name()} {self.tensor.dtype.name} C={c} H={h} W={w} base=0x{self.base:x} "
            f"line_stride={self.line_stride} surface_stride={self.surface_stride}"
        )

    def timeout_cycles(self, bus_bytes: int) -> int:
        return 2000 + 4 * int(np.prod(self.descriptor().counts))
