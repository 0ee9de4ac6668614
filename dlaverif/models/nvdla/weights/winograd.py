"""``nvdla.weight.winograd``: weights for Winograd convolution (F(2x2, 3x3) weight transform).

Spec: NVDLA seed "Basic Weight for Winograd Convolution" (Fig. 15, matrix G), Table 34
(compression supported, post-extension NOT supported), Table 35; clarifications
``nvdla-clarifications.md`` §5, §7, §12.2.

Logical tensor ``K x C x R x S``; element type = precision (int8, int16, float16).

Phase 1 (per kernel):

1. **Channel padding**: C is zero-padded to a multiple of 32 bytes, ``Cp`` (32 channels int8,
   16 int16/fp16), BEFORE the extension (clarifications §5).
2. **Stride channel extension** (options ``stride_x``, ``stride_y``): the kernel becomes
   ``ceil(R/stride_y) x ceil(S/stride_x)``, which must be 3x3 (else FormatError
   ``winograd.kernel_3x3``), with ``Cext = Cp*stride_x*stride_y`` channels; at new position
   ``(x, y)`` channel ``c' = (dy*stride_x + dx)*Cp + c`` holds tap ``(w = x*stride_x + dx,
   h = y*stride_y + dy)``, zero outside the original kernel (dx varies faster than dy).
   Stride 1 needs a 3x3 kernel.
3. **Transform** ``U = G g G^T`` per (k, c') with ``G = [[1,0,0],[.5,.5,.5],[.5,-.5,.5],[0,0,1]]``
   and ``g[h][w]``. No source pins down the scaling or the rounding of U for a bit-exact model
   (clarifications §5, §12.2), so: U is computed EXACTLY in float64 (every value is a finite sum
   of multiples of 0.25 of the inputs, representable in float64), then cast by the explicit
   option ``rounding``:

   * ``"trunc"``: toward zero (the C++ cast the NVIDIA compiler uses for int8/int16);
   * ``"nearest_even"``: to nearest, ties to even (numpy's float->fp16 conversion);
   * ``"half_away"``: to nearest, ties away from zero (the compiler's fp16 half library);
   * ``"compiler"`` (default): ``trunc`` for int8/int16, ``half_away`` for fp16 (clarifications §5).

   For fp16 the rounding is to the fp16 grid (integers are not involved). **Saturation** is always
   applied (choice; the compiler's out-of-range C++ cast is undefined behaviour): int8 to
   [-128, 127], int16 to [-32768, 32767], fp16 to [-65504, 65504] (the hardware never makes INF,
   clarifications §9). No scale factor is applied (none exists in code, §5). fp16 kernels with
   NaN/INF are rejected (FormatError ``winograd.non_finite``): the transform mixes taps, and the
   result would depend on the evaluation order.

Phase 2 (mapping): the ``K x Cext x 4 x 4`` U tensor is cut into 4x4x4-element small cubes
(4 rows x 4 columns x 4 channels, ``idx = (h*4 + w)*4 + c``; 64 B int8, 128 B int16/fp16), scanned
per kernel group as "for each 4-channel block -> for each kernel in the group -> cube"; kernel
groups (32 int8 / 16 int16/fp16) as for DC weights, back to back; the surface zero-padded to 128 B::

    off = g*kpg*16*Cext + (c' div 4)*Kg*64 + kk*64 + (h*4 + w)*4 + (c' mod 4)   [elements]

``compress=True`` compresses that surface (:mod:`models.nvdla.sparse`). ``post_extension`` exists
only to reject anything but 1 (Table 34).

**What unpack returns** (choice): the transform is not invertible after rounding/saturation, so
``unpack`` inverts the LAYOUT only and returns the transformed tensor ``U`` of shape
``K x Cext x 4 x 4`` in the weight's dtype, for the logical ``shape = (K, C, R, S)`` it is given.
The round-trip property is ``unpack(pack(g)) == transform(g)`` (same options). With option
``transformed=True`` both directions work on U itself: ``pack`` takes a ``K x Cext x 4 x 4`` tensor
(``Cext*e`` a multiple of 32 B) and only lays it out, ``unpack`` is given that shape and returns it:
``unpack(pack(U)) == U`` exactly (use it to drive a reader with arbitrary U patterns).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from ...core.arith import ceil_div, round_up
from ...core.errors import FormatError, require
from ...core.memimage import MemoryImage
from ...core.registry import Example, Option
from . import groups as G

if TYPE_CHECKING:
    from ...weight_desc import WeightSurfaceDescriptor

NAME = "nvdla.weight.winograd"
#: Weight transform matrix of the seed ("Matrix for weight transfer for Winograd").
G_MATRIX = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0.0, 0.0, 1.0]])
ROUNDINGS: tuple[str, ...] = ("compiler", "trunc", "nearest_even", "half_away")
FP16_MAX = 65504.0
#: Small cube: 4 x 4 x 4 elements.
CUBE_ELEMS = 64


def padded_channels(c: int, dtype: Any) -> int:
    """C padded to a multiple of 32 bytes (clarifications §5)."""
    return round_up(c, 32 // np.dtype(dtype).itemsize)


def _geometry(shape: tuple[int, ...], dtype: Any, stride_x: int, stride_y: int) -> tuple[int, int, int, int, int, int]:
    """Checks; returns (K, C, R, S, Cp, Cext)."""
    k, c, r, s = G.weight_shape(NAME, shape)
    sx = G.check_stride(NAME, "winograd", "stride_x", stride_x)
    sy = G.check_stride(NAME, "winograd", "stride_y", stride_y)
    nr, ns = ceil_div(r, sy), ceil_div(s, sx)
    require(
        nr == 3 and ns == 3,
        "winograd.kernel_3x3",
        f"{NAME}: a {r}x{s} (RxS) kernel with stride_y={sy}, stride_x={sx} extends to {nr}x{ns}, "
        f"Winograd needs exactly 3x3 (clarifications 5)",
    )
    cp = padded_channels(c, dtype)
    return k, c, r, s, cp, cp * sx * sy


def _resolve_rounding(rounding: str, dtype: np.dtype) -> str:
    require(
        rounding in ROUNDINGS, "winograd.rounding", f"{NAME}: rounding={rounding!r} is not one of {list(ROUNDINGS)}"
    )
    if rounding == "compiler":
        return "half_away" if dtype.name == "float16" else "trunc"
    return rounding


def extend(tensor: np.ndarray, stride_x: int = 1, stride_y: int = 1) -> np.ndarray:
    """Channel padding and stride extension: ``K x C x R x S`` -> ``K x Cext x 3 x 3`` (same dtype)."""
    t = G.weight_tensor(NAME, tensor)
    k, c, r, s, cp, cext = _geometry(t.shape, t.dtype, stride_x, stride_y)
    out = np.zeros((k, cext, 3, 3), dtype=t.dtype)
    for dy in range(stride_y):  # a handful of sub-positions, not elements
        for dx in range(stride_x):
            blk = t[:, :, dy::stride_y, dx::stride_x]
            c0 = (dy * stride_x + dx) * cp
            out[:, c0 : c0 + c, : blk.shape[2], : blk.shape[3]] = blk
    return out


def transform_exact(extended: np.ndarray) -> np.ndarray:
    """``U = G g G^T`` for every 3x3 plane of a ``K x Cext x 3 x 3`` tensor, exactly, in float64."""
    return G_MATRIX @ np.asarray(extended, dtype=np.float64) @ G_MATRIX.T


def cast(u: np.ndarray, dtype: Any, rounding: str = "compiler") -> np.ndarray:
    """Round float64 values to the weight dtype with the documented rounding and saturation."""
    dt = G.weight_dtype(NAME, dtype)
    mode = _resolve_rounding(rounding, dt)
    u = np.asarray(u, dtype=np.float64)
    if dt.name != "float16":
        lim = np.iinfo(dt)
        if mode == "trunc":
            v = np.trunc(u)
        elif mode == "nearest_even":
            v = np.rint(u)
        else:
            v = np.copysign(np.floor(np.abs(u) + 0.5), u)
        return np.clip(v, lim.min, lim.max).astype(dt.newbyteorder("="))
    x = np.clip(u, -FP16_MAX, FP16_MAX)
    a = x.astype(np.float16)  # correctly rounded, ties to even
    if mode != "nearest_even":
        a64 = a.astype(np.float64)
        diff = x - a64
        toward = np.where(diff > 0, np.float16(np.inf), np.float16(-np.inf))
        with np.errstate(over="ignore"):  # +-65504 stepping outward where x is exact: never picked
            b = np.nextafter(a, toward)  # the fp16 neighbour on the other side of x
        b64 = b.astype(np.float64)
        inexact = diff != 0
        if mode == "trunc":
            pick = inexact & (np.abs(a64) > np.abs(x))
        else:  # half_away
            pick = inexact & (np.abs(x - a64) == np.abs(x - b64)) & (np.abs(b64) > np.abs(a64))
        a = np.where(pick, b, a)
    return a


def transform(tensor: np.ndarray, stride_x: int = 1, stride_y: int = 1, rounding: str = "compiler") -> np.ndarray:
    """Phase 1: pad, extend, transform and cast: ``K x C x R x S`` -> ``U`` of ``K x Cext x 4 x 4``."""
    t = G.weight_tensor(NAME, tensor)
    if t.dtype.name == "float16":
        bad = np.flatnonzero(~np.isfinite(t.reshape(-1)))
        if bad.size:
            raise FormatError(
                "winograd.non_finite",
                f"{NAME}: fp16 kernels with NaN/INF cannot be transformed "
                f"(first at flat index {int(bad[0])} of {bad.size})",
            )
    return cast(transform_exact(extend(t, stride_x, stride_y)), t.dtype, rounding)


def cube_offsets(k: int, cext: int, kpg: int) -> np.ndarray:
    """Element offset of every ``U[k, c', h, w]`` in the Winograd stream (phase 2), shape ``(K, Cext, 4, 4)``."""
    kall = np.arange(k, dtype=np.int64)
    g, kk = kall // kpg, kall % kpg
    kg = np.minimum(kpg, k - g * kpg)
    cc = np.arange(cext, dtype=np.int64)
    hw = np.arange(16, dtype=np.int64).reshape(4, 4)
    k4 = lambda v: v[:, None, None, None]  # noqa: E731  (a one-line index helper, read inline in the formula below)
    return (
        k4(g * kpg * 16 * cext)
        + (cc // 4)[None, :, None, None] * k4(kg) * CUBE_ELEMS
        + k4(kk) * CUBE_ELEMS
        + hw[None, None] * 4
        + (cc % 4)[None, :, None, None]
    )


def _transformed_geometry(shape: tuple[int, ...], dtype: np.dtype) -> tuple[int, int]:
    k, cext, h, w = G.weight_shape(NAME, shape)
    require(
        (h, w) == (4, 4),
        "winograd.transformed_shape",
        f"{NAME}: transformed=True takes U of shape K x Cext x 4 x 4, got {tuple(shape)}",
    )
    require(
        cext * dtype.itemsize % 32 == 0,
        "winograd.transformed_shape",
        f"{NAME}: transformed=True needs Cext*e a multiple of 32 bytes, got Cext={cext} ({cext * dtype.itemsize} B)",
    )
    return k, cext


def _layout_geometry(
    shape: tuple[int, ...], dt: np.dtype, stride_x: int, stride_y: int, transformed: bool
) -> tuple[int, int]:
    if transformed:
        return _transformed_geometry(tuple(shape), dt)
    k, _, _, _, _, cext = _geometry(tuple(shape), dt, stride_x, stride_y)
    return k, cext


def _check(post_extension: int, rounding: str, dt: np.dtype) -> None:
    G.check_post_extension(NAME, "winograd", post_extension)
    _resolve_rounding(rounding, dt)


def pack(
    tensor: np.ndarray,
    stride_x: int = 1,
    stride_y: int = 1,
    rounding: str = "compiler",
    post_extension: int = 1,
    compress: bool = False,
    transformed: bool = False,
) -> MemoryImage:
    """Phases 1 and 2 (``transformed=True``: phase 2 only, on a given U)."""
    t = G.weight_tensor(NAME, tensor)
    _check(post_extension, rounding, t.dtype)
    k, cext = _layout_geometry(t.shape, t.dtype, stride_x, stride_y, transformed)
    u = t if transformed else transform(t, stride_x, stride_y, rounding)
    kpg = G.kernels_per_group(t.dtype)
    surfaces, meta = G.build_surfaces(
        G.scatter(u.astype(t.dtype), cube_offsets(k, cext, kpg), k * 16 * cext),
        G.group_sizes(k, kpg, 16 * cext),
        bool(compress),
    )
    meta.update(
        {
            "D_WEIGHT_SIZE_0.BYTE_PER_KERNEL": 16 * cext * t.dtype.itemsize - 1,
            "D_WEIGHT_SIZE_1.WEIGHT_KERNEL": k - 1,
            "D_MISC_CFG.CONV_MODE": 1,
        }
    )
    return MemoryImage(surfaces, meta)


def unpack(
    image: MemoryImage,
    shape: tuple[int, ...],
    dtype: Any,
    stride_x: int = 1,
    stride_y: int = 1,
    rounding: str = "compiler",
    post_extension: int = 1,
    compress: bool = False,
    transformed: bool = False,
) -> np.ndarray:
    """Invert the layout: returns ``U`` (``K x Cext x 4 x 4``) for the logical ``shape`` (see module doc)."""
    dt = G.weight_dtype(NAME, dtype)
    _check(post_extension, rounding, dt)
    k, cext = _layout_geometry(tuple(shape), dt, stride_x, stride_y, transformed)
    kpg = G.kernels_per_group(dt)
    flat = G.read_stream(NAME, image, dt, G.group_sizes(k, kpg, 16 * cext), k * 16 * cext, bool(compress))
    return flat[cube_offsets(k, cext, kpg)].astype(dt.newbyteorder("="))


def info(
    shape: tuple[int, ...],
    dtype: Any,
    stride_x: int = 1,
    stride_y: int = 1,
    rounding: str = "compiler",
    post_extension: int = 1,
    compress: bool = False,
    transformed: bool = False,
) -> dict:
    """Sizes and registers; BYTE_PER_KERNEL = 16*Cext*e (the transformed kernel) [inferred]."""
    dt = G.weight_dtype(NAME, dtype)
    _check(post_extension, rounding, dt)
    k, cext = _layout_geometry(tuple(shape), dt, stride_x, stride_y, transformed)
    out: dict[str, Any] = {
        "format": NAME,
        "shape": [int(d) for d in shape],
        "dtype": dt.name,
        "extended_channels": cext,
        "transformed_shape": [k, cext, 4, 4],
        "cube_bytes": CUBE_ELEMS * dt.itemsize,
        "rounding": _resolve_rounding(rounding, dt),
    }
    if not transformed:
        out["padded_channels"] = padded_channels(int(shape[1]), dt)
    out.update(G.stream_info(NAME, (k, cext, 4, 4), dt, 16 * cext, k, bool(compress)))
    out["registers"]["D_MISC_CFG.CONV_MODE"] = 1
    return out


def descriptor(
    shape: tuple[int, ...],
    dtype: Any,
    base: int = 0,
    stride_x: int = 1,
    stride_y: int = 1,
    rounding: str = "compiler",
    post_extension: int = 1,
    compress: bool = False,
    transformed: bool = False,
    image: Optional[MemoryImage] = None,
) -> WeightSurfaceDescriptor:
    """The reader's :class:`~models.weight_desc.WeightSurfaceDescriptor` of the transformed kernels
    (``16*Cext`` elements per kernel), surfaces from ``base`` (compressed: ``image`` gives the sizes)."""
    dt = G.weight_dtype(NAME, dtype)
    _check(post_extension, rounding, dt)
    k, cext = _layout_geometry(tuple(shape), dt, stride_x, stride_y, transformed)
    return G.descriptors(NAME, dt, k, 16 * cext, bool(compress), base, image)[0]


OPTIONS = (
    Option("stride_x", "int", 1, "convolution x stride: channel extension to 3x3 (clarifications 5)"),
    Option("stride_y", "int", 1, "convolution y stride: channel extension to 3x3 (clarifications 5)"),
    Option(
        "rounding",
        "str",
        "compiler",
        "cast of U = G g G^T: compiler (trunc ints, half_away fp16), trunc, nearest_even, half_away; always saturating",
        choices=ROUNDINGS,
    ),
    G.no_post_extension("Winograd"),
    G.COMPRESS,
    Option("transformed", "bool", False, "the tensor is U (K x Cext x 4 x 4): pack/unpack the layout only"),
)

FORMAT = G.weight_format(
    name=NAME,
    pack=pack,
    unpack=unpack,
    info=info,
    options=OPTIONS,
    descriptor=descriptor,
    summary="NVDLA Winograd weights: pad C to 32 B, stride extension to 3x3, U = G g G^T (documented "
    "rounding), 4x4x4 cubes per 4-channel block -> kernel; unpack returns U (K x Cext x 4 x 4)",
    spec="NVDLA seed 'Basic Weight for Winograd Convolution', Fig. 15, Tables 34-35; clarifications §5, §7, §12.2",
    # the layout of U (phase 2): without transformed=True every byte mixes 9 weights (U = G g G^T)
    example=Example((2, 16, 4, 4), "float16", (("transformed", True),), color_by="K"),
)

__all__ = [
    "NAME",
    "FORMAT",
    "G_MATRIX",
    "extend",
    "transform",
    "transform_exact",
    "cast",
    "cube_offsets",
    "padded_channels",
    "pack",
    "unpack",
    "info",
]
