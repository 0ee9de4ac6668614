"""``nvdla.weight.deconv``: weights for deconvolution ("set split" into stride sub-kernels).

Spec: NVDLA seed "Weight Format" (deconvolution needs "set split"; Table 34: compression
supported, post-extension NOT supported; Table 35); clarifications ``nvdla-clarifications.md``
§6 (the split, which the seed does not define), §3 (DC mapping), §7 (compression), §11.4, §12.6.

Logical tensor ``K x C x R x S`` in KCRS order (Caffe stores deconvolution weights C-major; the
caller swaps to KCRS first, as the NVIDIA compiler does). Options ``stride_x``, ``stride_y``
(deconvolution strides, default 1).

* **Split**: sets ``(x, y)`` for ``y`` in ``0..stride_y-1`` (outer) and ``x`` in
  ``0..stride_x-1`` (inner); each set is a ``K x C x R' x S'`` kernel with ``S' = ceil(S/stride_x)``,
  ``R' = ceil(R/stride_y)``, whose element ``(s, r)`` is the original tap
  ``(w = x + s*stride_x, h = y + r*stride_y)``, zero when outside the kernel (a stride larger than
  the kernel gives all-zero sets; they are still emitted).
* Each set is **rotated 180 degrees** (``h -> R'-1-h``, ``w -> S'-1-w``) and mapped exactly like
  DC weights (:mod:`.dc`: groups, 64-element C' blocks, 128-B padding).
* **One surface per set** (choice; clarifications §6 and §12.6: every set is a separate layer with
  its own weight surface, and nothing defines them as contiguous). Surfaces are named
  ``set_x{x}_y{y}``, in set order. With ``compress=True`` every set is compressed on its own (its
  own kernel groups, WMB and WGS): surfaces ``set_x{x}_y{y}.weight``, ``set_x{x}_y{y}.wmb``,
  ``set_x{x}_y{y}.wgs`` per set.

``pack`` puts each set's register values in ``image.meta["sets"][name]``. Unpack rebuilds the
original tensor from the sets (the zero taps outside the kernel are not read back).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from ...core.arith import ceil_div
from ...core.memimage import MemoryImage
from ...core.registry import Example, Option
from . import groups as G

if TYPE_CHECKING:
    from ...weight_desc import WeightSurfaceDescriptor

NAME = "nvdla.weight.deconv"


def set_name(x: int, y: int) -> str:
    return f"set_x{x}_y{y}"


def sets(stride_x: int, stride_y: int) -> list[tuple[int, int]]:
    """Set coordinates ``(x, y)`` in order: y outer, x inner (clarifications §6)."""
    return [(x, y) for y in range(stride_y) for x in range(stride_x)]


def _check(
    shape: tuple[int, ...], stride_x: int, stride_y: int, post_extension: int
) -> tuple[int, int, int, int, int, int]:
    """Checks; returns (K, C, R', S', stride_x, stride_y)."""
    k, c, r, s = G.weight_shape(NAME, shape)
    sx = G.check_stride(NAME, "deconv", "stride_x", stride_x)
    sy = G.check_stride(NAME, "deconv", "stride_y", stride_y)
    G.check_post_extension(NAME, "deconv", post_extension)
    return k, c, ceil_div(r, sy), ceil_div(s, sx), sx, sy


def split(tensor: np.ndarray, stride_x: int = 1, stride_y: int = 1) -> dict[tuple[int, int], np.ndarray]:
    """The set sub-kernels ``{(x, y): K x C x R' x S'}`` BEFORE rotation (clarifications §6)."""
    t = G.weight_tensor(NAME, tensor)
    k, c, rp, sp, sx, sy = _check(t.shape, stride_x, stride_y, 1)
    out: dict[tuple[int, int], np.ndarray] = {}
    for x, y in sets(sx, sy):  # a handful of sets, not elements
        sub = np.zeros((k, c, rp, sp), dtype=t.dtype)
        blk = t[:, :, y::sy, x::sx]
        sub[:, :, : blk.shape[2], : blk.shape[3]] = blk
        out[(x, y)] = sub
    return out


def pack(
    tensor: np.ndarray, stride_x: int = 1, stride_y: int = 1, compress: bool = False, post_extension: int = 1
) -> MemoryImage:
    """Split, rotate and DC-map every set; one surface (or weight/wmb/wgs triple) per set."""
    t = G.weight_tensor(NAME, tensor)
    k, c, rp, sp, sx, sy = _check(t.shape, stride_x, stride_y, post_extension)
    kpg = G.kernels_per_group(t.dtype)
    off = G.dc_offsets(k, c, rp, sp, kpg)
    sizes = G.group_sizes(k, kpg, rp * sp * c)
    surfaces: list = []
    metas: dict[str, Any] = {}
    for (x, y), sub in split(t, sx, sy).items():
        rot = sub[:, :, ::-1, ::-1]
        surf, meta = G.build_surfaces(
            G.scatter(np.ascontiguousarray(rot), off, k * rp * sp * c),
            sizes,
            bool(compress),
            prefix=set_name(x, y) + ".",
        )
        meta.update(
            {
                "D_WEIGHT_SIZE_0.BYTE_PER_KERNEL": rp * sp * c * t.dtype.itemsize - 1,
                "D_WEIGHT_SIZE_1.WEIGHT_KERNEL": k - 1,
            }
        )
        surfaces.extend(surf)
        metas[set_name(x, y)] = meta
    return MemoryImage(tuple(surfaces), {"sets": metas})


def unpack(
    image: MemoryImage,
    shape: tuple[int, ...],
    dtype: Any,
    stride_x: int = 1,
    stride_y: int = 1,
    compress: bool = False,
    post_extension: int = 1,
) -> np.ndarray:
    """Rebuild the ``K x C x R x S`` tensor from its sets."""
    dt = G.weight_dtype(NAME, dtype)
    k, c, rp, sp, sx, sy = _check(tuple(shape), stride_x, stride_y, post_extension)
    r, s = int(shape[2]), int(shape[3])
    kpg = G.kernels_per_group(dt)
    off = G.dc_offsets(k, c, rp, sp, kpg)
    sizes = G.group_sizes(k, kpg, rp * sp * c)
    out = np.zeros((k, c, r, s), dtype=dt.newbyteorder("="))
    for x, y in sets(sx, sy):
        flat = G.read_stream(NAME, image, dt, sizes, k * rp * sp * c, bool(compress), prefix=set_name(x, y) + ".")
        sub = flat[off][:, :, ::-1, ::-1]
        nr, ns = len(range(y, r, sy)), len(range(x, s, sx))
        out[:, :, y::sy, x::sx] = sub[:, :, :nr, :ns]
    return out


def info(
    shape: tuple[int, ...],
    dtype: Any,
    stride_x: int = 1,
    stride_y: int = 1,
    compress: bool = False,
    post_extension: int = 1,
) -> dict:
    """Per-set sizes and registers (every set: BYTE_PER_KERNEL = R'*S'*C*e), plus totals."""
    dt = G.weight_dtype(NAME, dtype)
    k, c, rp, sp, sx, sy = _check(tuple(shape), stride_x, stride_y, post_extension)
    per_set = {}
    for x, y in sets(sx, sy):
        d = G.stream_info(NAME, (k, c, rp, sp), dt, rp * sp * c, k, bool(compress), prefix=set_name(x, y) + ".")
        d["set"] = [x, y]
        per_set[set_name(x, y)] = d
    first = next(iter(per_set.values()))
    surfaces = [s for d in per_set.values() for s in d["surfaces"]]
    return {
        "format": NAME,
        "shape": [int(v) for v in shape],
        "dtype": dt.name,
        "stride": [sx, sy],
        "set_shape": [k, c, rp, sp],
        "n_sets": sx * sy,
        "set_order": list(per_set),
        "elem_bytes": dt.itemsize,
        "kernels_per_group": first["kernels_per_group"],
        "groups_per_set": first["groups"],
        "byte_per_kernel": first["byte_per_kernel"],
        "bytes": first["bytes"] * sx * sy,
        "padded_bytes": first["padded_bytes"] * sx * sy,
        "alignment": G.START_ALIGN,
        "compressed": bool(compress),
        "surfaces": surfaces,
        "sets": per_set,
    }


def descriptor(
    shape: tuple[int, ...],
    dtype: Any,
    base: int = 0,
    stride_x: int = 1,
    stride_y: int = 1,
    compress: bool = False,
    post_extension: int = 1,
    image: Optional[MemoryImage] = None,
) -> dict[str, WeightSurfaceDescriptor]:
    """One :class:`~models.weight_desc.WeightSurfaceDescriptor` per set (every set is its own layer,
    clarifications 6), ``{set name: descriptor}`` in set order, the sets' surfaces back to back from
    ``base`` in surface order (compressed: ``image`` gives the sizes)."""
    dt = G.weight_dtype(NAME, dtype)
    k, c, rp, sp, sx, sy = _check(tuple(shape), stride_x, stride_y, post_extension)
    names = [set_name(x, y) for x, y in sets(sx, sy)]
    descs = G.descriptors(NAME, dt, k, rp * sp * c, bool(compress), base, image, [n + "." for n in names])
    return dict(zip(names, descs))


OPTIONS = (
    Option("stride_x", "int", 1, "deconvolution x stride: number of sets along W (clarifications 6)"),
    Option("stride_y", "int", 1, "deconvolution y stride: number of sets along H (clarifications 6)"),
    Option("compress", "bool", False, "sparse compression per set (set_x*_y*.weight/.wmb/.wgs; clarifications 7)"),
    G.no_post_extension("deconvolution"),
)

FORMAT = G.weight_format(
    name=NAME,
    pack=pack,
    unpack=unpack,
    info=info,
    options=OPTIONS,
    surfaces=("set_x0_y0",),
    descriptor=descriptor,
    summary="NVDLA deconvolution weights: stride_x*stride_y sets (y outer, x inner), each rotated 180 degrees "
    "and DC-mapped into its own surface set_x{x}_y{y} (compressed: set_x{x}_y{y}.weight/.wmb/.wgs)",
    spec="NVDLA seed 'Weight Format', Tables 34-35; clarifications §6, §3, §7, §12.6",
    example=Example((2, 4, 2, 2), "int16", (("stride_x", 2), ("stride_y", 2)), color_by="K"),
)
