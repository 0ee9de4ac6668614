"""Weight layers of NVIDIA's convolution DMA and what each must leave in the convolution buffer, from the models
only: the direct-convolution weight surfaces from ``models.nvdla.weights.dc`` (kernel groups, 64-element C'
blocks; ``compress=True``: the compressed surface, the WMB and the WGS of ``models.nvdla.sparse``), their register
values from the packed image's ``meta`` and ``info()``, and their places in the buffer from ``models.nvdla.cbuf``
(the weight buffer after the data banks, the WMB in bank 15, both continuing from where the previous layer ended).

The data side of a weight layer is a small feature cube of the weights' precision (``layers.feature_layer``'s
models), so that the layer is a real direct convolution: C of the cube is C of the kernels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Optional

import numpy as np

from dlaverif.models.core.arith import ceil_div, round_up
from dlaverif.models.core.memimage import MemoryImage
from dlaverif.models.nvdla import cbuf, feature
from dlaverif.models.nvdla.weights import dc
from dlaverif.thirdparty.nvdla_rdl import RdlMap

from .layers import GAP, Expected, Layer, random_cube

#: Table 35: weight, WMB and WGS surfaces start on 256-byte boundaries
START_ALIGN = 256
#: densities a weight layer is drawn at (fraction of elements that are not zero): none, sparse, dense, every one
DENSITIES = {"zero": 0.0, "sparse": 0.3, "dense": 0.8, "full": 1.0}


@dataclass
class WeightExpected(Expected):
    """:class:`Expected` plus the WMB entries (bank 15) and where the next layer's WMB starts."""

    wmb: tuple[np.ndarray, np.ndarray, np.ndarray]
    wmb_next: int

    def weight_port(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Everything the weight write port carries for this layer: the weight entries, then the WMB entries."""
        return tuple(np.concatenate([a, b]) for a, b in zip(self.weight, self.wmb))  # type: ignore[return-value]


@dataclass
class WeightLayer(Layer):
    """A DC layer whose weights are a logical ``K x C x R x S`` tensor (``kernel_tensor``), dense or compressed."""

    kernel_tensor: np.ndarray = field(default_factory=lambda: np.zeros((1, 1, 1, 1), np.int8))
    compress: bool = False
    density: str = "dense"  # the class it was drawn at (DENSITIES); coverage only

    @cached_property
    def packed(self) -> MemoryImage:
        """The weight model's image: surfaces ``weight`` (dense or compressed), ``wmb``, ``wgs``; registers in meta."""
        return dc.pack(self.kernel_tensor, compress=self.compress)

    @cached_property
    def weight_info(self) -> dict:
        return dc.info(self.kernel_tensor.shape, self.kernel_tensor.dtype, compress=self.compress)

    def surface(self, name: str) -> np.ndarray:
        return np.asarray(self.packed.data(name), np.uint8)

    def bases(self) -> dict[str, int]:
        """Where each weight surface lies: from ``weight_base``, 256-byte aligned, a gap between surfaces (more than
        the memory agent's guard band), and at least 256 bytes of room for each (an empty compressed surface is
        still read as one 256-byte request: ``ZeroWeightsObserved``)."""
        out, at = {}, self.weight_base
        for s in self.packed.surfaces:
            out[s.name] = at
            at = round_up(at + max(s.data.size, START_ALIGN) + GAP, START_ALIGN)
        return out

    def memory(self) -> list[tuple[int, np.ndarray]]:
        b = self.bases()
        return [(self.data_base, feature.pack(self.tensor).data())] + [
            (b[s.name], np.asarray(s.data, np.uint8)) for s in self.packed.surfaces if s.data.size
        ]  # an empty surface (compressed, every element zero) has nothing to load

    def expected(self, data_start: int = 0, weight_start: int = 0, wmb_start: int = 0) -> WeightExpected:
        """The data entries (the cube, ``Layer.expected``), the weight surface in the weight buffer and, compressed,
        the WMB surface in bank 15; the WGS is read, not stored (models.nvdla.cbuf docstring)."""
        self.weights = self.surface("weight")
        base = super().expected(data_start)
        wbuf = cbuf.weight_buffer(self.data_banks, self.weight_banks, compressed=self.compress)
        w_addr, w_data, w_valid, w_next = cbuf.place(cbuf.surface_entries(self.weights), wbuf, weight_start)
        wmb: tuple[np.ndarray, np.ndarray, np.ndarray] = (
            np.zeros(0, np.int64),
            np.zeros((0, cbuf.ENTRY_BYTES), np.uint8),
            np.zeros((0, cbuf.ENTRY_BYTES), bool),
        )
        wmb_next = wmb_start
        if self.compress:
            m_addr, m_data, m_valid, wmb_next = cbuf.place(
                cbuf.surface_entries(self.surface("wmb")), cbuf.wmb_buffer(), wmb_start
            )
            wmb = (m_addr, m_data, m_valid)
        return WeightExpected(base.data, (w_addr, w_data, w_valid), base.data_next, w_next, wmb, wmb_next)

    def weight_registers(self, r: RdlMap) -> dict[str, int]:
        """The weight fields from the weight model (pack's meta: the format bit, bytes per kernel, kernels, the
        fetched sizes), the surfaces' bases from :meth:`bases`, the RAM type."""
        m: dict[str, Any] = dict(self.packed.meta)
        b = self.bases()
        out = {
            "D_WEIGHT_FORMAT": r.value("D_WEIGHT_FORMAT", WEIGHT_FORMAT=int(m["D_WEIGHT_FORMAT"])),
            "D_WEIGHT_SIZE_0": r.value("D_WEIGHT_SIZE_0", BYTE_PER_KERNEL=int(m["D_WEIGHT_SIZE_0.BYTE_PER_KERNEL"])),
            "D_WEIGHT_SIZE_1": r.value("D_WEIGHT_SIZE_1", WEIGHT_KERNEL=int(m["D_WEIGHT_SIZE_1.WEIGHT_KERNEL"])),
            "D_WEIGHT_RAM_TYPE": r.value(
                "D_WEIGHT_RAM_TYPE", WEIGHT_RAM_TYPE=r.enum("D_WEIGHT_RAM_TYPE", "WEIGHT_RAM_TYPE", self.weight_ram)
            ),
            "D_WEIGHT_ADDR_HIGH": r.value("D_WEIGHT_ADDR_HIGH", WEIGHT_ADDR_HIGH=b["weight"] >> 32),
            "D_WEIGHT_ADDR_LOW": r.value("D_WEIGHT_ADDR_LOW", WEIGHT_ADDR_LOW=b["weight"] & 0xFFFFFFFF),
            "D_WEIGHT_BYTES": r.value("D_WEIGHT_BYTES", WEIGHT_BYTES=int(m["D_WEIGHT_BYTES"])),
        }
        if self.compress:
            out.update(
                {
                    "D_WMB_BYTES": r.value("D_WMB_BYTES", WMB_BYTES=int(m["D_WMB_BYTES"])),
                    "D_WMB_ADDR_HIGH": r.value("D_WMB_ADDR_HIGH", WMB_ADDR_HIGH=b["wmb"] >> 32),
                    "D_WMB_ADDR_LOW": r.value("D_WMB_ADDR_LOW", WMB_ADDR_LOW=b["wmb"] & 0xFFFFFFFF),
                    "D_WGS_ADDR_HIGH": r.value("D_WGS_ADDR_HIGH", WGS_ADDR_HIGH=b["wgs"] >> 32),
                    "D_WGS_ADDR_LOW": r.value("D_WGS_ADDR_LOW", WGS_ADDR_LOW=b["wgs"] & 0xFFFFFFFF),
                }
            )
        return out

    # ------------------------------------------------------------------ the per-kernel-group reports
    def group_kernels(self) -> list[int]:
        """Kernels of each kernel group (the weight model's groups: 32 int8 / 16 int16, fp16, a shorter last)."""
        inf = self.weight_info
        kpg, k = inf["kernels_per_group"], int(self.kernel_tensor.shape[0])
        return [min(kpg, k - g * kpg) for g in range(inf["groups"])]

    def group_needs(self) -> list[tuple[int, int]]:
        """Per kernel group, the whole entries of (weights, WMB) the sequencer needs before it can use the group
        and every group before it: the cumulative bytes of the groups so far (dense: the groups' sizes;
        compressed: their WGS values) and the cumulative mask bits (one per element), rounded up to entries."""
        inf = self.weight_info
        e = inf["elem_bytes"]
        elems = np.cumsum(inf["group_elements"])
        if self.compress:
            wgs = self.surface("wgs")[: 4 * inf["groups"]].view("<u4").astype(np.int64)
            nbytes = np.cumsum(wgs)
        else:
            nbytes = elems * e
        wmb_bits = elems if self.compress else 0 * elems
        return [
            (ceil_div(int(b), cbuf.ENTRY_BYTES), ceil_div(int(m), 8 * cbuf.ENTRY_BYTES))
            for b, m in zip(nbytes, wmb_bits)
        ]


def draw_kernels(rng: np.random.Generator, shape: tuple[int, int, int, int], dtype: type, density: float) -> np.ndarray:
    """A random ``K x C x R x S`` weight tensor where a fraction ``density`` of the elements is not zero (each one
    drawn away from zero: int values from 1 up, fp16 normal values, so that no kept element is all zero bits)."""
    dt = np.dtype(dtype)
    vals: np.ndarray
    if dt == np.float16:
        mag = (np.abs(rng.standard_normal(shape)) + 0.01).astype(np.float16)
        vals = np.where(rng.random(shape) < 0.5, -mag, mag).astype(np.float16)
    else:
        top = 1 << (8 * dt.itemsize - 1)
        vals = (rng.integers(1, top, shape) * np.where(rng.random(shape) < 0.5, -1, 1)).astype(dt)
    keep = rng.random(shape) < density
    return np.where(keep, vals, np.zeros((), dt)).astype(dt)


def weight_layer(
    name: str,
    rng: np.random.Generator,
    kernels: int,
    c: int,
    r: int = 1,
    s: int = 1,
    dtype: type = np.int8,
    compress: bool = False,
    density: str = "dense",
    h: int = 2,
    w: int = 3,
    weight_banks: Optional[int] = None,
    kernel_tensor: Optional[np.ndarray] = None,
    **kw: object,
) -> WeightLayer:
    """A DC layer of a random ``(C, h, w)`` cube and ``kernels`` random ``C x r x s`` kernels at ``density`` (a
    :data:`DENSITIES` name; or the given ``kernel_tensor``), dense or compressed; as many weight banks as the weight
    surface needs unless given."""
    cube = random_cube(rng, c, h, w, np.dtype(dtype))
    kt = draw_kernels(rng, (kernels, c, r, s), dtype, DENSITIES[density]) if kernel_tensor is None else kernel_tensor
    layer = WeightLayer(
        name,
        "feature",
        cube,
        kernel_tensor=kt,
        compress=compress,
        density=density,
        kernels=kernels,
        **kw,  # type: ignore[arg-type]
    )
    if weight_banks is None:
        weight_banks = cbuf.banks_for(layer.surface("weight").size // cbuf.ENTRY_BYTES)
    layer.weight_banks = weight_banks
    return layer
