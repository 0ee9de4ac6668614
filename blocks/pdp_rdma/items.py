"""The PDP read DMA's stimulus: one layer (a feature cube in memory and how it is programmed). Pure stimulus: it
imports no scoreboard, env or coverage (tests/flow/test_layout.py).

The cube is a ``models.nvdla.feature`` cube (C, H, W) of int8, int16 or fp16 at a 32-byte aligned base with line and
surface strides (gaps allowed), read from one of the two memory ports (``ram``: the D_SRC_RAM_CFG member, MC or CV).
"""

from __future__ import annotations

import enum
from typing import Optional

import numpy as np

from dlaverif.models.nvdla import feature
from dlaverif.platform import ReaderItem

Kind = enum.Enum("Kind", "CUBE ILLEGAL RESET")  # ILLEGAL, RESET: never drawn (the block has no such checks yet)

#: element type -> the D_DATA_FORMAT.INPUT_DATA member of NVIDIA's .rdl
FORMATS = {"int8": "INT8", "int16": "INT16", "float16": "FP16"}


class PdpItem(ReaderItem):
    """One layer: the tensor (C, H, W), its strides and base, the RAM type, and how the registers are written
    (``nposted``: non-posted writes; ``readback``: the registers read back before the enable)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.kind = Kind.CUBE
        self.tensor = np.zeros((1, 1, 1), np.int8)
        self.base = 0
        self.line_stride: Optional[int] = None
        self.surface_stride: Optional[int] = None
        self.ram = "MC"
        self.nposted = False
        self.readback = False  # set to the values read back by the CSB sender when asked for

    @property
    def dtype(self) -> str:
        return self.tensor.dtype.name

    def descriptor(self):
        """The model's description of the cube (``models.nvdla.feature.descriptor``): every atom address."""
        return feature.descriptor(
            self.tensor.shape, self.tensor.dtype, self.base, self.line_stride, self.surface_stride
        )

    def image(self) -> np.ndarray:
        """The cube's bytes from its base, as the model packs them."""
        img = feature.pack(self.tensor, self.line_stride, self.surface_stride)
        return np.frombuffer(img.data("data"), np.uint8)

    def label(self) -> str:
        c, h, w = self.tensor.shape
        return (
            f"{self.get_name()} {self.dtype} C={c} H={h} W={w} base=0x{self.base:x} line_stride={self.line_stride} "
            f"surface_stride={self.surface_stride} ram={self.ram}"
        )

    def timeout_cycles(self, bus_bytes: int) -> int:
        return 2000 + 8 * int(np.prod(self.descriptor().counts)) * 4


def random_tensor(rng: np.random.Generator, dtype: str, shape: tuple[int, int, int]) -> np.ndarray:
    """Random elements of ``dtype`` (fp16: any bit pattern, NaN payloads and infinities included: a DMA moves bytes)."""
    if dtype == "float16":
        return rng.integers(0, 1 << 16, shape, dtype=np.uint16).view(np.float16)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
