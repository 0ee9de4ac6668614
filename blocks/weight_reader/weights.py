"""Random weight sets for the weight reader, produced by the models only.

A :class:`WeightSet` is one reader job's worth of memory: a logical weight tensor of one weight format (DC; image
input with post-extension 1, 2 or 4; Winograd; one set of a deconvolution), mapped by the format's own
uncompressed ``models.pack`` (the dense stream the reader must deliver), a sparsity pattern applied to that mapped
stream (zero ELEMENTS), and the surfaces of that stream built by the formats' own surface builder
(``models.nvdla.weights.groups.build_surfaces``: dense, or ``models.nvdla.sparse.compress`` into weight / WMB /
WGS), each placed at its own random 256-byte aligned base. The descriptor is
``WeightSurfaceDescriptor.from_image`` of the placed surfaces; the expected output is the mapped dense stream.

Spec: NVDLA seed "Weight Format", "Sparse Compression option", Tables 34-35; clarifications section 7.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

import numpy as np

from dlaverif import models, placement
from dlaverif.models.core.arith import round_up
from dlaverif.models.core.memimage import MemoryImage
from dlaverif.models.nvdla.weights import groups as G
from dlaverif.models.weight_desc import WeightSurfaceDescriptor

#: weight format families of the sequences: (name, models format, options)
FAMILIES: dict[str, tuple[str, dict]] = {
    "dc": ("nvdla.weight.dc", {}),
    "image_pe1": ("nvdla.weight.image", {"post_extension": 1}),
    "image_pe2": ("nvdla.weight.image", {"post_extension": 2}),
    "image_pe4": ("nvdla.weight.image", {"post_extension": 4}),
    "winograd": ("nvdla.weight.winograd", {}),
    "deconv": ("nvdla.weight.deconv", {}),
}
PRECISIONS = ("int8", "int16", "float16")
#: sparsity patterns applied to the mapped stream (the mask distributions)
MASKS = (
    "dense",
    "natural",
    "all_zero",
    "all_ones",
    "uniform_0.05",
    "uniform_0.5",
    "uniform_0.95",
    "zero_runs",
    "one_per_group",
    "byte_zero_values",
)
#: kernel counts around the kernel-group sizes (32 int8, 16 int16/fp16) and many groups
KERNELS = (1, 15, 16, 17, 31, 32, 33, 64, 97)
#: channel counts around the 64-element C' block
CHANNELS = (1, 2, 31, 63, 64, 65, 127, 128, 129)
#: element values whose bytes are zero but which are not zero elements (catch byte-versus-element mask mistakes)
BYTE_ZERO_VALUES = {"int16": (0x0100, 0x0001, 0xFF00, 0x00FF), "float16": (0x8000, 0x0100, 0x0001, 0x3C00)}


@dataclass
class WeightSet:
    """One job's weights: what is in memory, how the reader is programmed, and the model's dense stream."""

    family: str
    fmt: str
    dtype: str
    shape: tuple[int, int, int, int]
    opts: dict
    set_name: str  # deconvolution: the set read by this job ("" otherwise)
    mask: str  # sparsity pattern (MASKS)
    desc: WeightSurfaceDescriptor
    image: MemoryImage  # placed surfaces (weight [, wmb, wgs])
    dense: np.ndarray  # expected dense bytes (desc.dense_bytes, uint8)
    group_elems: list[int]
    kept: np.ndarray  # bool per element of the stream (the model's WMB bits)

    @property
    def elem_bytes(self) -> int:
        return self.desc.elem_bytes

    @property
    def compressed(self) -> bool:
        return self.desc.compressed

    def pieces(self) -> list[tuple[int, np.ndarray]]:
        """(base, bytes) of every surface, for the memory agent."""
        return [(s.base, s.data) for s in self.image.surfaces]

    def wgs_values(self) -> np.ndarray:
        """The WGS entries of the model's WGS surface (compressed only)."""
        return self.image["wgs"].data[: 4 * self.desc.groups].view("<u4").astype(np.int64)

    def density(self) -> float:
        n = self.kept.size
        return float(self.kept.sum()) / n if n else 0.0

    def label(self) -> str:
        k, c, r, s = self.shape
        opts = "".join(f" {k_}={v}" for k_, v in self.opts.items())
        return (
            f"{self.fmt}{('/' + self.set_name) if self.set_name else ''} {self.dtype} K={k} C={c} R={r} S={s}"
            f"{opts} {'compressed' if self.compressed else 'dense'} mask={self.mask} groups={self.desc.groups}"
        )

    def coordinates(self, byte: int) -> str:
        """Kernel group, kernel, channel and tap of dense byte ``byte``: the model's unpack of a probe stream
        holding one non-zero element there (the format's own inverse mapping)."""
        e = self.elem_bytes
        el = byte // e
        ends = np.cumsum(self.group_elems)
        g = int(np.searchsorted(ends, el, side="right"))
        where = f"group {g}"
        if self.fmt == SYNTHETIC:
            return f"{where}, element {el - (int(ends[g - 1]) if g else 0)} of the group"
        if self.fmt == "nvdla.weight.winograd":
            return where + " (Winograd: transformed-domain element)"
        probe = np.zeros(round_up(int(ends[-1]) * e, 128), np.uint8)
        probe[el * e : el * e + e] = 1
        name = "weight" if not self.set_name else self.set_name
        img = self.dense_image_names()
        surfaces = {n: (probe if n == name else np.zeros(round_up(int(ends[-1]) * e, 128), np.uint8)) for n in img}
        try:
            back = models.unpack(self.fmt, surfaces, self.shape, self.dtype, **self.opts)
        except Exception as exc:  # a probe the format cannot read back: report the group only
            return where + f" (coordinates unavailable: {exc})"
        hit = np.argwhere(np.ascontiguousarray(back).view(f"u{e}") != 0)
        if not hit.size:
            return where + " (padding element)"
        k, c, r, s = (int(v) for v in hit[0])
        return f"{where}, kernel {k}, channel {c}, tap (r={r}, s={s})"

    def dense_image_names(self) -> list[str]:
        if self.fmt == "nvdla.weight.deconv":
            return list(models.info(self.fmt, self.shape, self.dtype, **self.opts)["set_order"])
        return ["weight"]


#: the family of raw element streams with arbitrary kernel-group sizes (no weight format)
SYNTHETIC = "synthetic"


def _surfaces(
    rng: np.random.Generator,
    elems: np.ndarray,
    mask: str,
    dtype: str,
    sizes: list[int],
    compressed: Optional[bool],
    addr_bits: int,
) -> tuple[np.ndarray, MemoryImage, WeightSurfaceDescriptor]:
    """A weight set's memory from its dense elements (bytes or halves) per kernel group of ``sizes``: ``mask``
    applied (:func:`apply_mask`), the surfaces built (compressed unless the mask is dense, or as ``compressed``
    says) and placed at random addresses (:func:`place`); (masked elements, image, descriptor)."""
    e = G.ELEM_BYTES[dtype]
    elems = apply_mask(rng, elems, mask, dtype, sizes, e)
    comp = (mask != "dense") if compressed is None else compressed
    surfaces, _ = G.build_surfaces(elems, sizes, comp)
    image = place(rng, MemoryImage(surfaces), addr_bits)
    return elems, image, WeightSurfaceDescriptor.from_image(image, e, sizes)


def draw_synthetic(
    rng: np.random.Generator,
    dtype: str,
    mask: str,
    addr_bits: int,
    compressed: Optional[bool] = None,
    g_elems: Optional[int] = None,
    groups: Optional[int] = None,
) -> WeightSet:
    """A raw element stream with kernel groups of any size (not a multiple of 8 or of a transfer: groups start in
    the middle of a WMB byte and of a transfer), compressed by the model (``sparse.compress`` through the formats'
    surface builder). The weight formats always make groups of 16 or 32 kernels, so only this family puts a
    group boundary inside a WMB byte. ``g_elems`` and ``groups`` given: that many groups of exactly that many
    elements (the last one too); otherwise both and the last group's size are drawn."""
    e = G.ELEM_BYTES[dtype]
    if g_elems is not None and groups is not None:
        last = g_elems
    else:
        g_elems = int(rng.integers(1, 300))
        groups = int(rng.integers(1, 9))
        last = int(rng.integers(1, g_elems + 1))
    sizes = [g_elems] * (groups - 1) + [last]
    n = sum(sizes)
    elems = _values(rng, dtype, (n,)).view(np.uint8 if e == 1 else "<u2").copy()
    elems, image, desc = _surfaces(rng, elems, mask, dtype, sizes, compressed, addr_bits)
    return _synthetic_set(dtype, mask, (groups, g_elems, last, 1), desc, image, elems, sizes)


def _synthetic_set(
    dtype: str,
    mask: str,
    shape: tuple[int, int, int, int],
    desc: WeightSurfaceDescriptor,
    image: MemoryImage,
    elems: np.ndarray,
    sizes: list[int],
) -> WeightSet:
    """The :class:`WeightSet` of a raw stream ``elems`` (groups of ``sizes`` elements, no weight format): its dense
    bytes are the elements themselves, kept where non-zero."""
    return WeightSet(
        SYNTHETIC, SYNTHETIC, dtype, shape, {}, "", mask, desc, image, elems.view(np.uint8).copy(), sizes, elems != 0
    )


def draw_at(
    rng: np.random.Generator,
    dtype: str,
    mask: str,
    compressed: bool,
    g_elems: int,
    groups: int,
    bases: dict[str, int],
) -> WeightSet:
    """A raw stream of ``groups`` groups of ``g_elems`` elements (as :func:`draw_synthetic`) with its surfaces at
    ``bases`` (surface name -> base) instead of random places without guard bands: a set that spans a narrow
    build's whole address space. Surfaces may share addresses only where their bytes agree (an all-zero set's
    WGS and WMB in the same bytes), so that the memory holds every surface as the model built it; otherwise
    ValueError."""
    e = G.ELEM_BYTES[dtype]
    sizes = [g_elems] * groups
    elems = _values(rng, dtype, (g_elems * groups,)).view(np.uint8 if e == 1 else "<u2").copy()
    elems = apply_mask(rng, elems, mask, dtype, sizes, e)
    surfaces, _ = G.build_surfaces(elems, sizes, compressed)
    image = MemoryImage(tuple(replace(s, base=bases[s.name]) for s in surfaces))
    seen: dict[int, int] = {}
    for s in image.surfaces:
        for a, b in zip(range(s.base, s.end), s.data.tolist()):
            if seen.setdefault(a, b) != b:
                raise ValueError(f"surface {s.name!r} at 0x{s.base:x} disagrees with another one at 0x{a:x}")
    desc = WeightSurfaceDescriptor.from_image(image, e, sizes)
    return _synthetic_set(dtype, mask, (groups, g_elems, g_elems, 1), desc, image, elems, sizes)


def _values(rng: np.random.Generator, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    """Random non-zero values of a weight precision (fp16: finite, either sign)."""
    if dtype == "int8":
        v = rng.integers(1, 128, shape) * rng.choice([-1, 1], shape)
        return v.astype(np.int8)
    if dtype == "int16":
        v = rng.integers(1, 1 << 15, shape) * rng.choice([-1, 1], shape)
        return v.astype(np.int16)
    bits = rng.integers(0x0400, 0x7BFF, shape).astype(np.uint16) | (rng.integers(0, 2, shape).astype(np.uint16) << 15)
    return bits.view(np.float16)


def draw_shape(
    rng: np.random.Generator,
    family: str,
    kernels: Optional[int] = None,
    channels: Optional[int] = None,
    small: bool = False,
) -> tuple[tuple[int, int, int, int], dict]:
    """A legal logical shape (K, C, R, S) and the options of a family, around the group and block edges."""
    fmt, base_opts = FAMILIES[family]
    opts = dict(base_opts)
    k = int(kernels if kernels is not None else rng.choice(KERNELS[:7] if small else KERNELS))
    if family == "dc":
        c = int(channels if channels is not None else rng.choice(CHANNELS[:6] if small else CHANNELS))
        r, s = (int(v) for v in rng.integers(1, 3 if small else 4, 2))
    elif family.startswith("image"):
        pe = opts["post_extension"]
        c = int(rng.choice([1, 3, 4]))
        smax = {1: 8, 2: 32 // 4, 4: 16 // 4}[pe]
        s = int(rng.integers(1, smax + 1))
        r = int(rng.integers(1, 8))
    elif family == "winograd":
        # 32 and 64 channels fill the Winograd channel padding, so that masks of density 0.9 to 1 exist (the nightly
        # coverage showed Winograd never reaching the dense and full density bins with the other counts)
        c = int(channels if channels is not None else rng.choice([1, 3, 8, 17, 32, 33, 64]))
        r, s = 3, 3
    else:  # deconv: stride 1..2 each way, one set per job
        c = int(channels if channels is not None else rng.choice([1, 3, 17, 64, 65]))
        opts["stride_x"], opts["stride_y"] = (int(v) for v in rng.integers(1, 3, 2))
        r, s = (int(v) for v in rng.integers(1, 5, 2))
    return (k, c, r, s), opts


def apply_mask(
    rng: np.random.Generator, elems: np.ndarray, mask: str, dtype: str, sizes: list[int], e: int
) -> np.ndarray:
    """Zero elements of the mapped stream (a copy) following a sparsity pattern; ``byte_zero_values`` instead puts
    non-zero values with a zero byte (int16 0x0100/0x0001, fp16 -0.0 = 0x8000, which the model keeps)."""
    out = elems.copy()
    n = out.size
    if mask in ("dense", "natural", "all_ones") or n == 0:
        if mask == "natural":
            out[rng.random(n) < 0.1] = 0
        return out
    if mask == "all_zero":
        out[:] = 0
    elif mask.startswith("uniform_"):
        out[rng.random(n) >= float(mask.split("_")[1])] = 0
    elif mask == "zero_runs":
        ends = np.cumsum(sizes)
        per128 = 128 // e
        marks = np.concatenate([ends[:-1], np.arange(per128, n, per128)[:8]])
        for m in rng.choice(marks, size=min(len(marks), 12), replace=False) if marks.size else []:
            a = max(0, int(m) - int(rng.integers(1, 100)))
            out[a : min(n, int(m) + int(rng.integers(1, 100)))] = 0
    elif mask == "one_per_group":
        starts = np.cumsum([0] + sizes[:-1])
        keep = np.zeros(n, bool)
        for a, z in zip(starts, sizes):  # one draw per group (a few hundred at most), not per element
            nz = np.flatnonzero(out[a : a + z])
            if nz.size:
                keep[a + int(rng.choice(nz))] = True
        out[~keep] = 0
    elif mask == "byte_zero_values":
        special = BYTE_ZERO_VALUES.get(dtype)
        if special is None:  # int8: an element is a byte; half zeros
            out[rng.random(n) < 0.5] = 0
        else:
            u = out.view(np.uint16)
            pick = rng.random(n) < 0.6
            u[pick & (u != 0)] = np.asarray(special, np.uint16)[rng.integers(0, len(special), n)][pick & (u != 0)]
            out[rng.random(n) < 0.2] = 0
    else:
        raise ValueError(f"unknown mask {mask!r}")
    return out


def place(rng: np.random.Generator, image: MemoryImage, addr_bits: int) -> MemoryImage:
    """Every surface at its own random 256-byte aligned base, with gaps (guard bands never touch a neighbour),
    inside the build's ``addr_bits``-bit address space (``dlaverif.placement``; raises ``placement.DoesNotFit``
    for a weight set larger than the space)."""
    packed = [round_up(max(s.nbytes, 1), 256) + 256 for s in image.surfaces]  # each with its smallest gap
    gaps = placement.slots_that_fit(8, sum(packed), addr_bits, 256 * len(packed))  # up to 8 x 256 bytes each
    sizes = [size + 256 * int(rng.integers(0, gaps)) for size in packed]
    total = sum(sizes)
    if rng.random() < 0.15:  # end just below the top of the address space
        start = placement.at_top(total, addr_bits, 256)
    elif rng.random() < 0.2:  # a page boundary inside the first surface (where the space has one)
        boundary = placement.page_boundary(rng, addr_bits)
        start = placement.fit_down(boundary - 256 * int(rng.integers(1, 4)), total, addr_bits, 256)
    else:
        start = placement.below_top(rng, total, addr_bits, 256)
    bases, cur = {}, start
    for s, size in zip(image.surfaces, sizes):
        bases[s.name] = cur
        cur += size
    return image.placed(bases)


def draw(
    rng: np.random.Generator,
    family: str,
    dtype: str,
    mask: str,
    addr_bits: int,
    kernels: Optional[int] = None,
    channels: Optional[int] = None,
    small: bool = False,
    compressed: Optional[bool] = None,
) -> WeightSet:
    """A random weight set of ``family`` in ``dtype`` with sparsity pattern ``mask`` (``dense``: uncompressed)."""
    fmt, _ = FAMILIES[family]
    shape, opts = draw_shape(rng, family, kernels, channels, small)
    tensor = _values(rng, dtype, shape)
    dense_img = models.pack(fmt, tensor, compress=False, **opts)
    set_name = ""
    if fmt == "nvdla.weight.deconv":
        info = models.info(fmt, shape, dtype, **opts)
        set_name = str(rng.choice(info["set_order"]))
        sizes = list(info["sets"][set_name]["group_elements"])
        surface = dense_img[set_name].data
    else:
        sizes = list(models.info(fmt, shape, dtype, **opts)["group_elements"])
        surface = dense_img["weight"].data
    e = G.ELEM_BYTES[dtype]
    n = int(sum(sizes))
    elems = surface[: n * e].view(np.uint8 if e == 1 else "<u2")
    elems, image, desc = _surfaces(rng, elems, mask, dtype, sizes, compressed, addr_bits)
    return WeightSet(
        family, fmt, dtype, shape, opts, set_name, mask, desc, image, elems.view(np.uint8).copy(), sizes, elems != 0
    )
