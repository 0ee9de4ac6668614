"""Layout families of the cube reader's stimulus: how to draw a random cube of each, through the models.

A family draws a logical tensor, packs it with the registered model (``models.pack``), asks the model for
its :class:`~models.blocked.BlockedCubeDescriptor` (``models.descriptor``) at a base address we choose, and
keeps the tensor so the scoreboard can also check ``models.unpack`` of the streamed atoms. Every model
family must be registered (a missing model is an error, never a silent substitute). The GENERIC layout
code, which no model exports, is exercised by *synthetic* cubes: a random legal descriptor over random
bytes (the expected stream is still ``desc.gather``).

Edge values (STYLE.md 2): channel counts around the atom (1, epa-1, epa, epa+1, multiples), W/H of 1,
widths that are not multiples of anything, bases on and just below 4 KB boundaries and across the 4 GB
boundary of BASE_LO/BASE_HI, packed and gapped strides, fp16 data with NaN/INF/denormals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

from dlaverif import models, placement
from dlaverif.models import FormatError
from dlaverif.models.blocked import LAYOUT_ALIGN, LAYOUT_ATOMS, LAYOUT_ELEMS, BlockedCubeDescriptor, Layout
from dlaverif.models.core.arith import ceil_div, round_up

PAGE = 4096


# ---------------------------------------------------------------------------------------------- the cube
@dataclass
class Cube:
    """One legal cube: model inputs, the memory image at ``desc.base`` and its descriptor."""

    family: str
    fmt: Optional[str]  # registry name, None for synthetic cubes
    layout: Layout
    dtype: str
    shape: tuple
    opts: dict
    tensor: Optional[np.ndarray]
    image: np.ndarray  # uint8, starts at desc.base
    desc: BlockedCubeDescriptor
    epa: int  # elements per atom
    channels: int  # logical channel count (C), for coverage of the atom edges
    tags: set = field(default_factory=set)  # "gapped_h", "fp16_nan", "near_4k", ...
    segments: Optional[list] = None  # [(address, uint8 array)] instead of one image (huge strides)

    def memory(self) -> list[tuple[int, np.ndarray]]:
        """What to load: (address, bytes) pieces."""
        return self.segments if self.segments is not None else [(self.desc.base, self.image)]

    def all_bytes(self) -> np.ndarray:
        return np.concatenate([seg for _, seg in self.memory()])

    def gather(self, desc: BlockedCubeDescriptor) -> np.ndarray:
        """The atom stream of ``desc`` over this cube's memory (``desc.gather``, per batch for segmented cubes)."""
        if self.segments is None:
            return desc.gather(self.image, self.desc.base)
        parts = [desc.with_(count_n=1, base=addr).gather(seg, addr) for addr, seg in self.segments]
        return np.concatenate(parts, axis=0)

    def label(self) -> str:
        what = self.fmt or f"synthetic/{self.layout.name}"
        return f"{what} {self.dtype} shape={self.shape}" + (f" opts={self.opts}" if self.opts else "")


# ---------------------------------------------------------------------------------------------- values
def random_tensor(rng: np.random.Generator, shape: tuple, dtype: str, specials: float = 0.0) -> np.ndarray:
    """Random tensor of ``dtype``; for float16 a fraction ``specials`` of elements are NaN (several payloads,
    both signs), +-INF, denormals or +-0 (bit patterns, so nothing is lost to rounding)."""
    dt = np.dtype(models.core.dtypes.resolve_dtype(dtype))
    n = int(np.prod(shape))
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, int(info.max) + 1, size=shape, dtype=dt)
    if dt == np.float16:
        bits = rng.integers(0, 1 << 16, size=n, dtype=np.uint32).astype(np.uint16)
        bits &= ~np.uint16(0x7C00) | np.uint16(0x3C00)  # avoid accidental exp=31: finite random values
        if specials > 0:
            pick = rng.random(n) < specials
            k = int(pick.sum())
            sign = (rng.integers(0, 2, k) << 15).astype(np.uint16)
            kind = rng.integers(0, 4, k)
            payload = rng.integers(1, 0x400, k).astype(np.uint16)
            val = np.where(
                kind == 0,
                0x7C00 | payload,  # NaN (quiet or signalling)
                np.where(
                    kind == 1,
                    0x7C00,  # INF
                    np.where(kind == 2, payload, 0),
                ),
            ).astype(np.uint16)  # denormal, zero
            bits[pick] = val | sign
        return bits.view(np.float16).reshape(shape)
    if dt == np.float32:
        out = rng.standard_normal(n).astype(np.float32)
        if specials > 0:
            pick = rng.random(n) < specials
            out[pick] = rng.choice(np.array([np.nan, np.inf, -np.inf, 0.0, 1e-40], np.float32), int(pick.sum()))
        return out.reshape(shape)
    raise ValueError(f"no random values for {dt}")


def pick_base(
    rng: np.random.Generator, align: int, extent: int, addr_bits: int = 40, where: Optional[str] = None
) -> tuple[int, str]:
    """A legal base for a cube of ``extent`` bytes: on a 4 KB boundary, just below one, across 4 GB, near the
    top of the address space (``top_exact``: ending on its last byte), or anywhere aligned. ``high`` (only when
    asked for: the random draw never picks it, so the defaults' draws are unchanged) puts it anywhere in the upper
    half of the address space, where the highest address bit is set (at or above 2**63 at 64 bits); ``cross_half``
    across the middle of the space (that bit carries into inside the cube). Returns (base, tag)."""
    where = where or str(
        rng.choice(
            ["page", "below_page", "below_page", "any", "any", "cross_4g", "top"],
            p=[0.15, 0.25, 0.15, 0.2, 0.15, 0.05, 0.05],
        )
    )
    page = int(rng.integers(1, 1 << 12))
    if where == "page":
        base = page * PAGE
    elif where == "below_page":
        base = page * PAGE - align * int(rng.integers(1, max(2, min(8, PAGE // align))))
    elif where == "cross_4g":
        base = (1 << 32) - align * int(rng.integers(1, 64))
    elif where == "top":
        base = ((1 << addr_bits) - extent - align * int(rng.integers(0, 4))) // align * align
    elif where == "top_exact":  # the last byte of the cube is the last byte of the address space
        base = ((1 << addr_bits) - extent) // align * align
    elif where == "high":  # Python ints: uniform over the upper half, past 2**63 at 64 bits
        base = placement.upper_half(rng, extent, addr_bits, align)
    elif where == "cross_half":  # begins below the middle of the space and ends above it
        base = (1 << (addr_bits - 1)) - align * max(1, extent // (2 * align))
    else:
        base = page * PAGE + align * int(rng.integers(0, PAGE // align))
    base = max(align, base // align * align)
    if base + extent > (1 << addr_bits):
        base = ((1 << addr_bits) - extent) // align * align
    return base, where


def _edges(epa: int) -> list[int]:
    return [1, max(1, epa - 1), epa, epa + 1, 2 * epa, 3 * epa - 1]


def _pick(rng: np.random.Generator, values) -> int:
    return int(values[int(rng.integers(0, len(values)))])


def _hi(size: str, small: int, large: int) -> int:
    """Upper bound of a random dimension for a size class: small, medium (4x small, capped) or large."""
    return {"small": small, "medium": min(large, 4 * small), "large": large}[size]


def _dim(rng: np.random.Generator, hi: int, edge: Optional[int] = None, big: bool = False) -> int:
    if edge is not None:
        return edge
    if big:  # large cubes: mostly long dimensions
        return int(rng.integers(max(1, hi // 4), hi + 1))
    return _pick(rng, [1, 1, 2, int(rng.integers(1, hi + 1)), int(rng.integers(1, hi + 1))])


# ---------------------------------------------------------------------------------------------- families
@dataclass(frozen=True)
class Family:
    """A way to draw cubes of one layout: ``draw(rng, dtype, size, edge) -> Cube``."""

    name: str
    layout: Layout
    dtypes: tuple[Optional[str], ...]  # (None,): the synthetic family picks the element type
    draw: Callable[..., Cube]
    model: bool  # True when backed by a registered model
    edges: tuple = ()  # channel counts of the directed warm-up

    def __str__(self) -> str:
        return self.name


def _finish(
    fmt: str,
    layout: Layout,
    dtype: str,
    shape: tuple,
    opts: dict,
    tensor: np.ndarray,
    rng: np.random.Generator,
    epa: int,
    channels: int,
    addr_bits: int,
    where: Optional[str],
    family: Optional[str] = None,
) -> Cube:
    """The cube of ``tensor`` packed by the model's format ``fmt`` at a random base (``where``, below 2**addr_bits);
    ``family`` names it (default: ``fmt``)."""
    family = family or fmt
    img = models.pack(fmt, tensor, **opts).data()
    probe = models.descriptor(fmt, shape, dtype, base=0, **opts)
    align = max(probe.alignment, 32 if layout in (Layout.NVDLA_FEATURE, Layout.NVDLA_OPERAND) else 1)
    base, tag = pick_base(rng, align, max(probe.extent, img.size), addr_bits, where)
    desc = models.descriptor(fmt, shape, dtype, base=base, **opts)
    cube = Cube(family, fmt, layout, dtype, tuple(shape), opts, tensor, np.asarray(img, np.uint8), desc, epa, channels)
    cube.tags |= _geometry_tags(desc) | {f"base_{tag}"}
    return cube


def _geometry_tags(d: BlockedCubeDescriptor) -> set:
    tags = set()
    if d.count_w > 1 or d.count_h > 1:
        tags.add("gapped_h" if d.stride_h != d.count_w * d.atom_bytes and d.count_h > 1 else "packed_h")
    if d.count_c > 1:
        tags.add("gapped_c" if d.stride_c != d.count_h * d.stride_h else "packed_c")
    if d.count_n > 1:
        tags.add("gapped_n" if d.stride_n != d.count_c * d.stride_c else "packed_n")
    first_page, last_page = d.base // PAGE, (d.base + d.extent - 1) // PAGE
    if first_page != last_page:
        tags.add("crosses_4k")
    return tags


def _gap(rng: np.random.Generator, unit: int, gapped: bool) -> int:
    return unit * int(rng.choice([1, 2, 3, 7, 33])) if gapped else 0


# ---- NVDLA feature cube (nvdla.feature): NCHW int8/int16/fp16, 32-B atoms, line/surface/batch strides
def _nvdla_feature(rng, dtype, size="small", edge=None, addr_bits=40, gapped=None, where=None, specials=0.0) -> Cube:
    e = np.dtype(models.core.dtypes.resolve_dtype(dtype)).itemsize
    epa = 32 // e
    big = size == "large"
    c = edge if edge is not None else _pick(rng, _edges(epa) + [int(rng.integers(1, (2 if big else 4) * epa + 1))])
    w = _dim(rng, _hi(size, 16, 300), big=big)
    h = _dim(rng, _hi(size, 5, 12), big=big)
    n = _pick(rng, [1, 1, 1, 2]) if not big else 1
    shape = (n, c, h, w)
    surfaces = ceil_div(c, epa)
    gapped = bool(rng.random() < 0.5) if gapped is None else gapped
    ls = w * 32 + _gap(rng, 32, gapped and rng.random() < 0.7)
    ss = h * ls + _gap(rng, 32, gapped and rng.random() < 0.7)
    bs = surfaces * ss + _gap(rng, 32, gapped and rng.random() < 0.7)
    opts = {"line_stride": ls, "surface_stride": ss, "batch_stride": bs} if gapped or rng.random() < 0.3 else {}
    tensor = random_tensor(rng, shape, dtype, specials)
    return _finish("nvdla.feature", Layout.NVDLA_FEATURE, dtype, shape, opts, tensor, rng, epa, c, addr_bits, where)


# ---- oneDNN nChw8c / nChw16c: one inner channel block, strides in elements (outer blocks, logical order)
def _onednn(block: int):
    def draw(rng, dtype, size="small", edge=None, addr_bits=40, gapped=None, where=None, specials=0.0) -> Cube:
        big = size == "large"
        c = edge if edge is not None else _pick(rng, _edges(block) + [int(rng.integers(1, 4 * block + 1))])
        w = _dim(rng, _hi(size, 16, 200), big=big)
        h = _dim(rng, _hi(size, 5, 12), big=big)
        n = _pick(rng, [1, 1, 2]) if not big else 1
        shape = (n, c, h, w)
        cb = ceil_div(c, block)
        gapped = bool(rng.random() < 0.5) if gapped is None else gapped
        opts = {}
        if gapped:
            sw = block
            sh = w * block + _gap(rng, block, rng.random() < 0.7)
            sc = h * sh + _gap(rng, block, rng.random() < 0.7)
            sn = cb * sc + _gap(rng, block, rng.random() < 0.7)
            opts = {"strides": (sn, sc, sh, sw)}
        tensor = random_tensor(rng, shape, dtype, specials)
        return _finish(
            f"onednn.nChw{block}c", Layout.ONEDNN, dtype, shape, opts, tensor, rng, block, c, addr_bits, where
        )

    return draw


# ---- NVDLA per-element SDP operand (nvdla.eltwise): one component (ALU or MUL) or two (ALU+MUL pairs);
#      BytesPerAtom = epg x components x data_size = 32, 64 or 128 (clarifications 8)
def _nvdla_operand(
    rng, dtype, size="small", edge=None, addr_bits=40, gapped=None, where=None, specials=0.0, components=None
) -> Cube:
    comps = components or _pick(rng, [1, 2])
    proc = {"int8": "int8", "float16": "fp16", "int16": str(rng.choice(["int8", "int16"]))}[dtype]
    epg = 32 if proc == "int8" else 16
    big = size == "large"
    c = edge if edge is not None else _pick(rng, _edges(epg) + [int(rng.integers(1, 3 * epg + 1))])
    w = _dim(rng, _hi(size, 16, 160), big=big)
    h = _dim(rng, _hi(size, 5, 8), big=big)
    shape = ((2,) if comps == 2 else ()) + (c, h, w)
    e = np.dtype(models.core.dtypes.resolve_dtype(dtype)).itemsize
    atom = epg * comps * e
    gapped = bool(rng.random() < 0.5) if gapped is None else gapped
    opts: dict[str, Any] = {"proc_precision": proc}
    if comps == 2 or rng.random() < 0.5:
        opts["components"] = comps
    if (gapped or rng.random() < 0.3) and (w > 1 or h > 1):  # W=H=1: SURF_STRIDE must be one atom (C model)
        # Table 35 asks for 32-byte multiples; the reader also wants whole atoms (dlaverif/models/blocked.py alignment)
        unit = max(32, atom)
        ls = w * atom + _gap(rng, unit, gapped and rng.random() < 0.7)
        opts.update(line_stride=ls, surface_stride=h * ls + _gap(rng, unit, gapped and rng.random() < 0.7))
    tensor = random_tensor(rng, shape, dtype, specials)
    cube = _finish("nvdla.eltwise", Layout.NVDLA_OPERAND, dtype, shape, opts, tensor, rng, epg, c, addr_bits, where)
    cube.tags.add(f"components{comps}")
    return cube


# ---- MACE channel-major image (mace.image.channel_major): NHWC buffer, 4-element pixels, dense rows
def _mace(rng, dtype, size="small", edge=None, addr_bits=40, gapped=None, where=None, specials=0.0) -> Cube:
    big = size == "large"
    c = edge if edge is not None else _pick(rng, _edges(4) + [int(rng.integers(1, 21))])
    w = _dim(rng, _hi(size, 16, 200), big=big)
    h = _dim(rng, _hi(size, 5, 12), big=big)
    n = _pick(rng, [1, 1, 2])
    shape = (n, h, w, c)
    tensor = random_tensor(rng, shape, dtype, specials)
    return _finish(
        "mace.image.channel_major",
        Layout.MACE,
        dtype,
        shape,
        {},
        tensor,
        rng,
        4,
        c,
        addr_bits,
        where,
        family="mace.channel_major",
    )


# ---- synthetic cubes of any layout code: random legal descriptor over random bytes
_ELEM_DTYPE = {1: "uint8", 2: "uint16", 4: "uint32"}


def synthetic(layout: Layout):
    def draw(
        rng,
        dtype=None,
        size="small",
        edge=None,
        addr_bits=40,
        gapped=None,
        where=None,
        specials=0.0,
        atom=None,
        elem=None,
        counts=None,
        huge=False,
    ) -> Cube:
        """``counts`` = (n, c, h, w) fixes the counts (e.g. one dimension at 65535, the others 1); ``huge``: a
        batch stride of 2 GB..4 GB (BATCH register MSB set), memory loaded per batch."""
        big = size == "large"
        if layout is Layout.MACE:
            elem = elem or _pick(rng, LAYOUT_ELEMS[layout])
            atom = 4 * elem
        else:
            atom = atom or _pick(rng, LAYOUT_ATOMS[layout])
            elem = elem or _pick(rng, [e for e in LAYOUT_ELEMS[layout] if e <= atom])
        fp16 = elem == 2 and (dtype == "float16" or (dtype is None and rng.random() < 0.5))
        cw = edge if edge is not None else _dim(rng, _hi(size, 16, 300), big=big)
        ch, cc = _dim(rng, _hi(size, 4, 8), big=big), _dim(rng, _hi(size, 3, 3), big=big)
        cn = _pick(rng, [1, 1, 2])
        if counts is not None:
            cn, cc, ch, cw = counts
        align = max(atom, LAYOUT_ALIGN[layout])
        gapped = bool(rng.random() < 0.5) if gapped is None else gapped
        sh = round_up(cw * atom, align) + _gap(rng, align, gapped and rng.random() < 0.7)
        sc = ch * sh + _gap(rng, align, gapped and rng.random() < 0.7)
        sn = cc * sc + _gap(rng, align, gapped and rng.random() < 0.7)
        if huge:
            cn = int(rng.integers(2, 4))
            sn = int(rng.integers(1 << 31, 1 << 32)) // align * align
        d0 = BlockedCubeDescriptor(0, atom, elem, cw, ch, cc, cn, sh, sc, sn, layout, fp16)
        base, tag = pick_base(rng, align, d0.extent, addr_bits, where)
        desc = d0.with_(base=base)
        if huge:
            one = desc.with_(count_n=1).extent
            segs = [(base + n * sn, rng.integers(0, 256, one, dtype=np.uint8)) for n in range(cn)]
            cube = Cube(
                f"synthetic.{layout.name.lower()}",
                None,
                layout,
                _ELEM_DTYPE[elem],
                (cn, cc, ch, cw),
                {},
                None,
                np.zeros(0, np.uint8),
                desc,
                atom // elem,
                cc * atom // elem,
                segments=segs,
            )
            cube.tags |= _geometry_tags(desc) | {f"base_{tag}", "huge_stride"}
            return cube
        if fp16:
            img = random_tensor(rng, (desc.extent // 2,), "float16", specials or 0.02).view(np.uint8)
        else:
            img = rng.integers(0, 256, desc.extent, dtype=np.uint8)
        cube = Cube(
            f"synthetic.{layout.name.lower()}",
            None,
            layout,
            "float16" if fp16 else _ELEM_DTYPE[elem],
            (cn, cc, ch, cw),
            {},
            None,
            img,
            desc,
            atom // elem,
            cc * atom // elem,
        )
        cube.tags |= _geometry_tags(desc) | {f"base_{tag}"}
        return cube

    return draw


# ---------------------------------------------------------------------------------------------- discovery
ONEDNN_DTYPES = ("float32", "float16", "int8", "uint8", "int32")

#: model-backed families: (name, registry format, layout, dtypes, draw, warm-up channel edges)
_MODEL_FAMILIES: tuple = (
    (
        "nvdla.feature",
        "nvdla.feature",
        Layout.NVDLA_FEATURE,
        ("int8", "int16", "float16"),
        _nvdla_feature,
        (1, 15, 16, 17, 31, 32, 33),
    ),
    ("onednn.nChw8c", "onednn.nChw8c", Layout.ONEDNN, ONEDNN_DTYPES, _onednn(8), (1, 7, 8, 9, 16)),
    ("onednn.nChw16c", "onednn.nChw16c", Layout.ONEDNN, ONEDNN_DTYPES, _onednn(16), (1, 15, 16, 17, 32)),
    (
        "nvdla.eltwise",
        "nvdla.eltwise",
        Layout.NVDLA_OPERAND,
        ("int8", "int16", "float16"),
        _nvdla_operand,
        (1, 15, 16, 17, 31, 32, 33),
    ),
    ("mace.channel_major", "mace.image.channel_major", Layout.MACE, ("float16", "float32"), _mace, (1, 3, 4, 5, 8)),
)


def _registered(fmt: str) -> bool:
    try:
        f = models.get_format(fmt)
    except FormatError:
        return False
    return f.descriptor is not None


def available_families(include_synthetic: bool = True) -> list[Family]:
    """The model-backed families (every one must be registered) plus the synthetic GENERIC family."""
    missing = missing_models()
    if missing:
        raise RuntimeError(f"model formats not registered (or without a descriptor): {missing}")
    fams = [
        Family(name, layout, dtypes, draw, True, edges) for name, fmt, layout, dtypes, draw, edges in _MODEL_FAMILIES
    ]
    if include_synthetic:
        fams.append(Family("synthetic.generic", Layout.GENERIC, (None,), synthetic(Layout.GENERIC), False, (1, 2, 3)))
    return fams


def missing_models() -> list[str]:
    return [fmt for _, fmt, *_ in _MODEL_FAMILIES if not _registered(fmt)]
