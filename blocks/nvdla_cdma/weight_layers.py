"""Weight layers of NVIDIA's convolution DMA and what each must leave in the convolution buffer, from the models
only: the weight surfaces from ``models.nvdla.weights`` in one of its four formats (``dc``: kernel groups,
64-element C' blocks; ``image``: pre-extended kernels, post-extension 1/2/4; ``winograd``: the transformed 4x4x4
cubes; ``deconv``: one set of the split, its own layer), dense or compressed (``compress=True``: the compressed
surface, the WMB and the WGS of ``models.nvdla.sparse``), their register values from the packed image's ``meta``
and ``info()``, and their places in the buffer from ``models.nvdla.cbuf`` (the weight buffer after the data
banks, the WMB in bank 15, both continuing from where the previous layer ended).

The data side of a weight layer is the mode's own data: a small feature cube of the weights' precision for DC and
deconvolution sets (``layers.feature_layer``'s models), a Winograd cube for Winograd weights, an image of as many
channels as the image weights' ``Ci`` for image weights (``layers.image_layer``'s models).

``D_NAN_FLUSH_TO_ZERO`` (``nan_to_zero``, written only when set to True or False) flushes fp16 NaN weights to +0
on their way into the buffer: the expected weight bytes are the model's fp16 rule
(``models.nvdla.precision.flush_nan_to_zero``) applied to the weight surface's 16-bit elements; the WMB is a mask,
not weights, and is kept as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from types import ModuleType
from typing import Any, Optional

import numpy as np

from dlaverif.models.core.arith import ceil_div, round_up
from dlaverif.models.core.memimage import MemoryImage
from dlaverif.models.nvdla import cbuf, feature, precision
from dlaverif.models.nvdla.weights import dc, deconv, image, winograd
from dlaverif.thirdparty.nvdla_rdl import RdlMap

from .layers import GAP, PRECISION, Expected, Layer, random_cube

#: Table 35: weight, WMB and WGS surfaces start on 256-byte boundaries
START_ALIGN = 256
#: densities a weight layer is drawn at (fraction of elements that are not zero): none, sparse, dense, every one
DENSITIES = {"zero": 0.0, "sparse": 0.3, "dense": 0.8, "full": 1.0}
#: the weight formats of models.nvdla.weights a layer can carry
FORMATS: dict[str, ModuleType] = {"dc": dc, "image": image, "winograd": winograd, "deconv": deconv}


def deconv_set(packed: MemoryImage, x: int, y: int) -> MemoryImage:
    """Set ``(x, y)`` of a packed deconvolution image as a layer's own weight image: its surfaces without the set's
    prefix (``weight``, and ``wmb``, ``wgs`` when compressed), its registers as meta (clarifications 6: every set
    is a layer of its own)."""
    name = deconv.set_name(x, y)
    pre = name + "."
    mine = tuple(replace(s, name=s.name[len(pre) :]) for s in packed.surfaces if s.name.startswith(pre))
    if not mine:  # a dense set's one surface carries the set's name alone
        mine = tuple(replace(s, name="weight") for s in packed.surfaces if s.name == name)
    return MemoryImage(mine, dict(packed.meta["sets"][name]))  # type: ignore[index]


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
    """A layer whose weights are a logical ``K x C x R x S`` tensor (``kernel_tensor``) in the weight format
    ``weight_format`` (a :data:`FORMATS` name) with its model's options ``weight_options`` (image:
    ``channels``, ``post_extension``; deconv: ``stride_x``, ``stride_y`` and ``set``, the ``(x, y)`` of the set
    this layer loads), dense or compressed."""

    kernel_tensor: np.ndarray = field(default_factory=lambda: np.zeros((1, 1, 1, 1), np.int8))
    compress: bool = False
    density: str = "dense"  # the class it was drawn at (DENSITIES); coverage only
    weight_format: str = "dc"
    weight_options: dict = field(default_factory=dict)
    nan_to_zero: Optional[bool] = None  # D_NAN_FLUSH_TO_ZERO.NAN_TO_ZERO; None: not written (reset value: off)

    def _options(self) -> dict[str, Any]:
        return {k: v for k, v in self.weight_options.items() if k != "set"}

    @cached_property
    def packed(self) -> MemoryImage:
        """The weight model's image: surfaces ``weight`` (dense or compressed), ``wmb``, ``wgs``; registers in meta
        (a deconvolution layer: its set's, :func:`deconv_set`)."""
        img = FORMATS[self.weight_format].pack(self.kernel_tensor, compress=self.compress, **self._options())
        if self.weight_format == "deconv":
            return deconv_set(img, *self.weight_options["set"])
        return img

    @cached_property
    def weight_info(self) -> dict:
        """The weight model's ``info()`` (a deconvolution layer: its set's entry, with the dtype)."""
        t = self.kernel_tensor
        inf = FORMATS[self.weight_format].info(t.shape, t.dtype, compress=self.compress, **self._options())
        if self.weight_format == "deconv":
            return {**inf["sets"][deconv.set_name(*self.weight_options["set"])], "dtype": inf["dtype"]}
        return inf

    def surface(self, name: str) -> np.ndarray:
        return np.asarray(self.packed.data(name), np.uint8)

    def stored_weights(self) -> np.ndarray:
        """The weight surface as the buffer must hold it: the surface itself, or with ``nan_to_zero`` and fp16
        weights every NaN element flushed to +0 (``precision.flush_nan_to_zero``; compressed: the kept elements,
        which lie two bytes each from the surface's start)."""
        w = self.surface("weight")
        if not self.nan_to_zero or self.kernel_tensor.dtype != np.float16:
            return w
        return precision.flush_nan_to_zero(w.view("<u2")).astype("<u2").view(np.uint8)

    def nan_weights(self) -> int:
        """What ``D_NAN_INPUT_WEIGHT_NUM`` must count for an fp16 layer: the NaN elements of its weight surface
        (``precision.count_nan``); 0 for int8/int16."""
        if self.kernel_tensor.dtype != np.float16:
            return 0
        return precision.count_nan(self.surface("weight").view("<u2"))

    def inf_weights(self) -> int:
        """What ``D_INF_INPUT_WEIGHT_NUM`` must count for an fp16 layer: the +-INF elements of its weight surface
        (``precision.count_inf``; they are not flushed); 0 for int8/int16."""
        if self.kernel_tensor.dtype != np.float16:
            return 0
        return precision.count_inf(self.surface("weight").view("<u2"))

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
        data = [(self.data_base, feature.pack(self.tensor).data())] if self.kind == "feature" else super().memory()[:-1]
        return data + [
            (b[s.name], np.asarray(s.data, np.uint8)) for s in self.packed.surfaces if s.data.size
        ]  # an empty surface (compressed, every element zero) has nothing to load

    def expected(self, data_start: int = 0, weight_start: int = 0, wmb_start: int = 0) -> WeightExpected:
        """The data entries (the cube, ``Layer.expected``), the weight surface in the weight buffer and, compressed,
        the WMB surface in bank 15; the WGS is read, not stored (models.nvdla.cbuf docstring)."""
        self.weights = self.stored_weights()
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

    def registers(self, r: RdlMap) -> dict[str, int]:
        """:meth:`Layer.registers` of the data side, after checking that the weight model's registers of the mode
        (``info()["registers"]``: ``D_MISC_CFG`` PROC_PRECISION, CONV_MODE (Winograd), ``D_DATAIN_FORMAT``
        (image); a field it leaves out is the DC default, 0) agree with what the data side programs."""
        regs = self.weight_info["registers"]
        want = {
            "D_MISC_CFG.PROC_PRECISION": r.enum("D_MISC_CFG", "PROC_PRECISION", PRECISION[self.out_dtype()]),
            "D_MISC_CFG.CONV_MODE": r.enum("D_MISC_CFG", "CONV_MODE", self.conv_mode),
            "D_DATAIN_FORMAT.DATAIN_FORMAT": r.enum(
                "D_DATAIN_FORMAT", "DATAIN_FORMAT", "PIXEL" if self.kind == "image" else "FEATURE"
            ),
        }
        for name, value in want.items():
            model = int(regs.get(name, 0))
            assert model == value, f"{self.name}: the weight model's {name} is {model}, the data side's {value}"
        return super().registers(r)

    def weight_registers(self, r: RdlMap) -> dict[str, int]:
        """The weight fields from the weight model (pack's meta: the format bit, bytes per kernel, kernels, the
        fetched sizes), the surfaces' bases from :meth:`bases`, the RAM type; ``D_NAN_FLUSH_TO_ZERO`` when
        ``nan_to_zero`` is set."""
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
        if self.nan_to_zero is not None:
            out["D_NAN_FLUSH_TO_ZERO"] = r.value(
                "D_NAN_FLUSH_TO_ZERO",
                NAN_TO_ZERO=r.enum("D_NAN_FLUSH_TO_ZERO", "NAN_TO_ZERO", "ENABLE" if self.nan_to_zero else "DISABLE"),
            )
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
