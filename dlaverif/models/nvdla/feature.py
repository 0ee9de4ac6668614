"""NVDLA feature data cube (format ``nvdla.feature``).

Sources: seed "Feature Data Format" (Fig. 10/11, the Note on 32-byte alignment, the 1x1xC remark) and
Table 35 row "Feature data cube"; clarifications 1.1-1.7 and 10 (register fields, 8192 limit).

Logical tensor ``N, C, H, W`` (``N`` optional) of int8, int16 or float16. Memory: C is padded to a whole
number of 32-byte atoms (``epa = 32 / element bytes`` channels per atom, channel index growing with the byte
address inside the atom), and atoms are scanned C'(32 B) -> W -> H -> C-surface -> batch. Byte address of
element ``(n, c, h, w)`` (clarifications 1.2)::

    n*batch_stride + (c div epa)*surface_stride + h*line_stride + w*32 + (c mod epa)*e

Elements are little-endian (clarifications, general conventions).

Choices (tested in ``tests/models/test_nvdla_feature.py``):

* Padding channels are written as zero bytes (the seed allows "any value except NaN" for fp16; zero is +0.0
  for fp16 and 0 for integers). Unpack ignores them (clarifications 1.3: compare only the C valid channels).
* Strides default to the packed values ``line_stride = W*32``, ``surface_stride = H*line_stride``,
  ``batch_stride = surfaces*surface_stride``. Each stride is a register in 32-byte units, so it must be a
  multiple of 32 (Table 35, rule ``align.feature.*``) whatever the cube size. A line stride must hold a line
  (``>= W*32``, rule ``feature.line_stride_min``) and a surface stride a surface (``>= H*line_stride``,
  ``feature.surface_stride_min``), checked always, as firmware programs both registers for every cube. The
  batch stride must hold all surfaces of a batch (``>= surfaces*surface_stride``, ``feature.batch_stride_min``)
  only when ``N > 1``, which is the C model's check (clarifications 1.6).
* Limits of the register fields (clarifications 10): W, H, C <= 8192 (``feature.max_dim``), N <= 32
  (``feature.max_batch``).
* The image (one surface ``data``, start alignment 32) spans whole surfaces: ``(N-1)*BS + S*SS`` bytes, the
  size a compiler allocates (the gap after the last line of the last surface is zero). ``info`` gives it as
  ``bytes`` and also ``extent_bytes`` = ``(N-1)*BS + (S-1)*SS + (H-1)*LS + W*32``, the end of the last atom
  (:attr:`BlockedCubeDescriptor.extent`); unpack accepts any buffer that reaches it
  (``feature.buffer_size`` otherwise). For packed cubes both are ``N*S*H*W*32``.
* 1x1xC cube with both packed flags: CDMA/SDP move it as ``ceil(C*e/32)`` consecutive atoms in one burst; the
  memory image is identical to the general rule (clarifications 1.5) - ``info`` says so.
* LINE_PACKED / SURF_PACKED are set as firmware does: exactly when ``line_stride == W*32`` and
  ``surface_stride == W*H*32`` (clarifications 1.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np

from ..blocked import BlockedCubeDescriptor, Layout
from ..core.address import check_ranges
from ..core.arith import ceil_div
from ..core.errors import FormatError, require
from ..core.memimage import MemoryImage
from ..core.registry import Example, Format, Option, register
from . import alignment

NAME = "nvdla.feature"
ATOM_BYTES = 32
MAX_DIM = 8192  # 13-bit W/H/C register fields (clarifications 10)
MAX_BATCH = 32  # D_BATCH_NUMBER.BATCHES is 5 bits, value N-1 (clarifications 1.6)
START_ALIGN = 32  # Table 35


# ----------------------------------------------------------------------------------------------------------
# atom placement shared by every cube-like NVDLA surface (feature cube, per-element SDP operands)


def cube_extent(counts: Sequence[int], strides: Sequence[int], atom_bytes: int) -> int:
    """Bytes from the first byte of atom (0,0,0,0) to one past the last byte of the last atom.
    ``counts``/``strides`` are (n, c, h, w) with the w stride equal to ``atom_bytes``."""
    if len(counts) != 4 or len(strides) != 4:
        raise ValueError("cube_extent needs four counts and four strides (n, c, h, w)")
    return sum((c - 1) * s for c, s in zip(counts, strides)) + atom_bytes


def place_atoms(atoms: np.ndarray, strides: Sequence[int], size: int) -> np.ndarray:
    """Write a (N, S, H, W, A) uint8 atom array into a zero-filled byte image of ``size`` bytes, atom
    (n, s, h, w) at ``n*strides[0] + s*strides[1] + h*strides[2] + w*A`` (strides must not overlap)."""
    n, s, h, w, a = atoms.shape
    out = np.zeros(size, dtype=np.uint8)
    view = np.lib.stride_tricks.as_strided(
        out, shape=(n, s, h, w, a), strides=(strides[0], strides[1], strides[2], a, 1), writeable=True
    )
    view[...] = atoms
    return out


def take_atoms(
    data: np.ndarray, counts: Sequence[int], strides: Sequence[int], atom_bytes: int, rule: str, what: str
) -> np.ndarray:
    """Read the (N, S, H, W, A) atom array back from a byte image; FormatError ``rule`` if it is too short."""
    data = np.ascontiguousarray(np.asarray(data, dtype=np.uint8).reshape(-1))
    need = cube_extent(counts, tuple(strides[:3]) + (atom_bytes,), atom_bytes)
    require(
        data.size >= need,
        rule,
        f"{what}: buffer of {data.size} bytes is shorter than the {need} bytes the cube occupies",
    )
    n, s, h, w = counts
    view = np.lib.stride_tricks.as_strided(
        data,
        shape=(n, s, h, w, atom_bytes),
        strides=(strides[0], strides[1], strides[2], atom_bytes, 1),
        writeable=False,
    )
    return np.array(view)


def le(dtype: np.dtype) -> np.dtype:
    """Little-endian version of ``dtype`` (every NVDLA element is little-endian)."""
    return np.dtype(dtype).newbyteorder("<")


# ----------------------------------------------------------------------------------------------------------
# geometry


@dataclass(frozen=True)
class FeatureGeometry:
    """Everything about where a feature cube's bytes go."""

    n: int
    c: int
    h: int
    w: int
    elem_bytes: int
    epa: int
    surfaces: int
    line_stride: int
    surface_stride: int
    batch_stride: int

    @property
    def nbytes(self) -> int:
        """Image size: whole surfaces, ``(N-1)*BS + S*SS``."""
        return (self.n - 1) * self.batch_stride + self.surfaces * self.surface_stride

    @property
    def extent(self) -> int:
        """One past the last byte of the last atom."""
        return cube_extent(
            (self.n, self.surfaces, self.h, self.w),
            (self.batch_stride, self.surface_stride, self.line_stride, ATOM_BYTES),
            ATOM_BYTES,
        )

    @property
    def line_packed(self) -> bool:
        return self.line_stride == self.w * ATOM_BYTES

    @property
    def surf_packed(self) -> bool:
        return self.surface_stride == self.w * self.h * ATOM_BYTES

    @property
    def one_by_one_packed(self) -> bool:
        return self.w == 1 and self.h == 1 and self.line_packed and self.surf_packed

    def byte_offset(self, n: Any, c: Any, h: Any, w: Any) -> np.ndarray:
        """Byte offset of element(s) ``(n, c, h, w)`` from the cube base (clarifications 1.2); vectorized."""
        n, c, h, w = (np.asarray(v, dtype=np.int64) for v in (n, c, h, w))
        return (
            n * self.batch_stride
            + (c // self.epa) * self.surface_stride
            + h * self.line_stride
            + w * ATOM_BYTES
            + (c % self.epa) * self.elem_bytes
        )


def _nchw(shape: Sequence[int]) -> tuple[int, int, int, int]:
    shape = tuple(int(d) for d in shape)
    if len(shape) == 3:
        shape = (1,) + shape
    if len(shape) != 4:
        raise FormatError("shape.rank", f"{NAME}: shape {shape} is not (N,)C,H,W")
    return shape


def _elem_bytes(dtype: Any) -> int:
    dt = np.dtype(dtype)
    require(
        dt.name in ("int8", "int16", "float16"),
        "dtype.unsupported",
        f"{NAME}: element type {dt.name} is not int8, int16 or float16",
    )
    return dt.itemsize


def geometry(
    shape: Sequence[int],
    dtype: Any,
    line_stride: Optional[int] = None,
    surface_stride: Optional[int] = None,
    batch_stride: Optional[int] = None,
) -> FeatureGeometry:
    """Check the cube and its strides (rules in the module docstring) and return the geometry."""
    n, c, h, w = _nchw(shape)
    for axis, v in (("W", w), ("H", h), ("C", c)):
        require(1 <= v <= MAX_DIM, "feature.max_dim", f"{NAME}: {axis}={v} outside 1..{MAX_DIM} (13-bit field)")
    require(1 <= n <= MAX_BATCH, "feature.max_batch", f"{NAME}: N={n} outside 1..{MAX_BATCH} (BATCHES field)")
    e = _elem_bytes(dtype)
    epa = ATOM_BYTES // e
    surfaces = ceil_div(c, epa)
    ls = w * ATOM_BYTES if line_stride is None else int(line_stride)
    alignment.check("feature", line_stride=ls)
    require(
        ls >= w * ATOM_BYTES,
        "feature.line_stride_min",
        f"{NAME}: line_stride {ls} < W*32 = {w * ATOM_BYTES} (a line of {w} atoms must fit)",
    )
    ss = h * ls if surface_stride is None else int(surface_stride)
    alignment.check("feature", surface_stride=ss)
    require(
        ss >= h * ls,
        "feature.surface_stride_min",
        f"{NAME}: surface_stride {ss} < H*line_stride = {h * ls} (a surface of {h} lines must fit)",
    )
    bs = surfaces * ss if batch_stride is None else int(batch_stride)
    alignment.check("feature", cube_stride=bs)
    if n > 1:
        require(
            bs >= surfaces * ss,
            "feature.batch_stride_min",
            f"{NAME}: batch_stride {bs} < surfaces*surface_stride = {surfaces}*{ss} = {surfaces * ss} "
            f"(C model check for N={n} > 1)",
        )
    return FeatureGeometry(n, c, h, w, e, epa, surfaces, ls, ss, bs)


# ----------------------------------------------------------------------------------------------------------
# pack / unpack / info / descriptor


def pack(
    tensor: np.ndarray,
    line_stride: Optional[int] = None,
    surface_stride: Optional[int] = None,
    batch_stride: Optional[int] = None,
) -> MemoryImage:
    """Pack an (N,)C,H,W tensor into the feature cube image (one surface ``data``, 32-byte aligned)."""
    t = np.asarray(tensor)
    g = geometry(t.shape, t.dtype, line_stride, surface_stride, batch_stride)
    x = t.reshape(g.n, g.c, g.h, g.w)
    padded = np.zeros((g.n, g.surfaces * g.epa, g.h, g.w), dtype=le(t.dtype))
    padded[:, : g.c] = x
    atoms = padded.reshape(g.n, g.surfaces, g.epa, g.h, g.w).transpose(0, 1, 3, 4, 2)
    atoms = np.ascontiguousarray(atoms).view(np.uint8)  # (N, S, H, W, 32)
    data = place_atoms(atoms, (g.batch_stride, g.surface_stride, g.line_stride), g.nbytes)
    return MemoryImage.single(data, align=START_ALIGN)


def unpack(
    image: MemoryImage,
    shape: Sequence[int],
    dtype: Any,
    line_stride: Optional[int] = None,
    surface_stride: Optional[int] = None,
    batch_stride: Optional[int] = None,
) -> np.ndarray:
    """Read an (N,)C,H,W tensor back; ``FormatError('feature.buffer_size')`` if the image is too short."""
    dt = np.dtype(dtype)
    g = geometry(shape, dt, line_stride, surface_stride, batch_stride)
    atoms = take_atoms(
        image.data("data") if isinstance(image, MemoryImage) else image,
        (g.n, g.surfaces, g.h, g.w),
        (g.batch_stride, g.surface_stride, g.line_stride),
        ATOM_BYTES,
        "feature.buffer_size",
        NAME,
    )
    vals = np.ascontiguousarray(atoms).view(le(dt))  # (N, S, H, W, epa)
    vals = vals.transpose(0, 1, 4, 2, 3).reshape(g.n, g.surfaces * g.epa, g.h, g.w)[:, : g.c]
    out = vals.astype(dt)
    return out.reshape(tuple(int(d) for d in shape))


def info(
    shape: Sequence[int],
    dtype: Any,
    line_stride: Optional[int] = None,
    surface_stride: Optional[int] = None,
    batch_stride: Optional[int] = None,
) -> dict:
    """Sizes, strides, surfaces count, alignment and the firmware packed flags of a feature cube."""
    dt = np.dtype(dtype)
    g = geometry(shape, dt, line_stride, surface_stride, batch_stride)
    notes = []
    if g.one_by_one_packed:
        notes.append(
            f"1x1xC surface-packed cube: CDMA/SDP transfer it as {ceil_div(g.c * g.elem_bytes, 32)} "
            "consecutive atoms in one run; the memory image is identical (clarifications 1.5)"
        )
    if g.surfaces * g.epa != g.c:
        notes.append(f"C={g.c} padded to {g.surfaces * g.epa} channels; padding bytes are written as zero")
    return {
        "format": NAME,
        "shape": [g.n, g.c, g.h, g.w],
        "dtype": dt.name,
        "element_bytes": g.elem_bytes,
        "elements_per_atom": g.epa,
        "atom_bytes": ATOM_BYTES,
        "surfaces_count": g.surfaces,
        "padded_channels": g.surfaces * g.epa,
        "line_stride": g.line_stride,
        "surface_stride": g.surface_stride,
        "batch_stride": g.batch_stride,
        "bytes": g.nbytes,
        "extent_bytes": g.extent,
        "alignment": {"start": START_ALIGN, "line_stride": 32, "surface_stride": 32, "batch_stride": 32},
        "line_packed": g.line_packed,
        "surf_packed": g.surf_packed,
        "one_by_one_packed": g.one_by_one_packed,
        "registers": {
            "LINE_STRIDE": g.line_stride,
            "SURF_STRIDE": g.surface_stride,
            "BATCH_STRIDE": g.batch_stride,
            "LINE_PACKED": int(g.line_packed),
            "SURF_PACKED": int(g.surf_packed),
            "BATCHES": g.n - 1,
            "WIDTH": g.w - 1,
            "HEIGHT": g.h - 1,
            "CHANNEL": g.c - 1,
        },
        "surfaces": [{"name": "data", "bytes": g.nbytes, "align": START_ALIGN}],
        "notes": notes,
    }


def descriptor(
    shape: Sequence[int],
    dtype: Any,
    base: int = 0,
    line_stride: Optional[int] = None,
    surface_stride: Optional[int] = None,
    batch_stride: Optional[int] = None,
) -> BlockedCubeDescriptor:
    """The cube as a :class:`BlockedCubeDescriptor` (``Layout.NVDLA_FEATURE``, 32-byte atoms)."""
    dt = np.dtype(dtype)
    g = geometry(shape, dt, line_stride, surface_stride, batch_stride)
    alignment.check("feature", start=int(base))
    desc = BlockedCubeDescriptor(
        base=int(base),
        atom_bytes=ATOM_BYTES,
        elem_bytes=g.elem_bytes,
        count_w=g.w,
        count_h=g.h,
        count_c=g.surfaces,
        count_n=g.n,
        stride_h=g.line_stride,
        stride_c=g.surface_stride,
        stride_n=g.batch_stride,
        layout=Layout.NVDLA_FEATURE,
        fp16=(dt == np.float16),
    )
    check_ranges(desc.ranges())
    return desc


_STRIDE_HELP = "bytes, multiple of 32; default packed"
FORMAT = register(
    Format(
        name=NAME,
        axes=("N", "C", "H", "W"),
        optional_leading_axes=1,
        dtypes=("int8", "int16", "float16"),
        pack=pack,
        unpack=unpack,
        info=info,
        descriptor=descriptor,
        options=(
            Option("line_stride", "int", None, f"LINE_STRIDE: (w,h) -> (w,h+1), {_STRIDE_HELP} W*32"),
            Option("surface_stride", "int", None, f"SURF_STRIDE: surface s -> s+1, {_STRIDE_HELP} H*line_stride"),
            Option(
                "batch_stride", "int", None, f"BATCH_STRIDE: batch n -> n+1, {_STRIDE_HELP} surfaces*surface_stride"
            ),
        ),
        summary="NVDLA feature data cube: 32-byte atoms, C'(32B) -> W -> H -> C surfaces (-> N)",
        spec="seed 'Feature Data Format', Fig. 10/11, Table 35; clarifications 1",
        example=Example((1, 20, 2, 3), "int16", color_by="C/atom"),  # the worked example of clarifications 1.2
    )
)
