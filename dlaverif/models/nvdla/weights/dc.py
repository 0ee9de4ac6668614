"""``nvdla.weight.dc``: weights for direct convolution (the basic NVDLA weight format).

Spec: NVDLA seed "Basic Weight for Direct Convolution" (Fig. 13), Table 34 (sparse compression:
supported; post-extension: NOT supported), Table 35 (256-B start, 128-B size); clarifications
``nvdla-clarifications.md`` §3 (scan order, 64-element blocks), §7 (compression), §10 (registers).

Logical tensor ``K x C x R x S`` (kernels, channels, height, width); the element type is the
precision (int8, int16, float16). Mapping (clarifications §3, which sharpen the seed):

* kernels are split into groups of 32 (int8) or 16 (int16/fp16); the last group may be shorter
  (no dummy kernels);
* each kernel is cut into 1x1x64-ELEMENT C' blocks for every precision (64 B int8, 128 B
  int16/fp16); the last block holds ``C mod 64`` elements, NOT padded;
* inside a group the scan is C' -> K -> W -> H -> C, W changing faster than H::

      off = g*kpg*R*S*C + b*R*S*Kg*64 + (h*S + w)*Kg*cw + kk*cw + (c mod 64)   [elements]

* groups are placed back to back; the whole surface is zero-padded to a multiple of 128 B.

``compress=True`` applies :mod:`models.nvdla.sparse` to that surface: surfaces ``weight``,
``wmb``, ``wgs`` instead of the single ``weight`` surface. ``post_extension`` exists only to
reject values other than 1 (Table 34). ``pack`` stores the register values in ``image.meta``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from ...core.arith import ceil_div
from ...core.memimage import MemoryImage
from ...core.registry import Example
from . import groups as G

if TYPE_CHECKING:
    from ...weight_desc import WeightSurfaceDescriptor

NAME = "nvdla.weight.dc"


def _check(compress: bool, post_extension: int) -> bool:
    G.check_post_extension(NAME, "dc", post_extension)
    return bool(compress)


def layout(shape: tuple[int, int, int, int], dtype: Any) -> tuple[np.ndarray, list[int], int]:
    """(offsets of every ``(k, c, h, w)``, elements per kernel group, total elements) of the DC stream."""
    k, c, r, s = G.weight_shape(NAME, shape)
    kpg = G.kernels_per_group(G.weight_dtype(NAME, dtype))
    return G.dc_offsets(k, c, r, s, kpg), G.group_sizes(k, kpg, r * s * c), k * r * s * c


def pack(tensor: np.ndarray, compress: bool = False, post_extension: int = 1) -> MemoryImage:
    """Map a ``K x C x R x S`` weight tensor to the DC weight surface(s)."""
    t = G.weight_tensor(NAME, tensor)
    comp = _check(compress, post_extension)
    off, sizes, total = layout(t.shape, t.dtype)
    surfaces, meta = G.build_surfaces(G.scatter(t, off, total), sizes, comp)
    k, c, r, s = t.shape
    meta.update(
        {"D_WEIGHT_SIZE_0.BYTE_PER_KERNEL": r * s * c * t.dtype.itemsize - 1, "D_WEIGHT_SIZE_1.WEIGHT_KERNEL": k - 1}
    )
    return MemoryImage(surfaces, meta)


def unpack(
    image: MemoryImage, shape: tuple[int, ...], dtype: Any, compress: bool = False, post_extension: int = 1
) -> np.ndarray:
    """Read the ``K x C x R x S`` tensor back (decompressing first when ``compress``)."""
    dt = G.weight_dtype(NAME, dtype)
    comp = _check(compress, post_extension)
    off, sizes, total = layout(tuple(shape), dt)  # type: ignore[arg-type]  # the door checked rank 4
    flat = G.read_stream(NAME, image, dt, sizes, total, comp)
    return flat[off].astype(dt.newbyteorder("="))


def info(shape: tuple[int, ...], dtype: Any, compress: bool = False, post_extension: int = 1) -> dict:
    """Sizes, groups, alignment and register values (BYTE_PER_KERNEL = R*S*C*e, exact)."""
    dt = G.weight_dtype(NAME, dtype)
    comp = _check(compress, post_extension)
    k, c, r, s = G.weight_shape(NAME, shape)
    out = {"format": NAME, "shape": [k, c, r, s], "dtype": dt.name, "c_blocks": ceil_div(c, G.C_BLOCK)}
    out.update(G.stream_info(NAME, shape, dt, r * s * c, k, comp))
    return out


def descriptor(
    shape: tuple[int, ...],
    dtype: Any,
    base: int = 0,
    compress: bool = False,
    post_extension: int = 1,
    image: Optional[MemoryImage] = None,
) -> WeightSurfaceDescriptor:
    """The reader's :class:`~models.weight_desc.WeightSurfaceDescriptor`, surfaces from ``base``
    (compressed: ``image`` = the packed image gives the sizes)."""
    dt = G.weight_dtype(NAME, dtype)
    comp = _check(compress, post_extension)
    k, c, r, s = G.weight_shape(NAME, shape)
    return G.descriptors(NAME, dt, k, r * s * c, comp, base, image)[0]


OPTIONS = (
    G.COMPRESS,
    G.no_post_extension("DC weights"),
)

FORMAT = G.weight_format(
    name=NAME,
    pack=pack,
    unpack=unpack,
    info=info,
    options=OPTIONS,
    descriptor=descriptor,
    summary="NVDLA direct-convolution weights: kernel groups of 32 (int8) / 16, 64-element C' blocks, "
    "scan C'->K->W->H->C, 128-B padded; optional sparse compression",
    spec="NVDLA seed 'Basic Weight for Direct Convolution', Fig. 13, Tables 34-35; clarifications §3, §7, §10",
    example=Example((3, 70, 1, 2), "float16", color_by="K"),  # the worked example of clarifications §3
)
