"""``nvdla.weight.image``: weights for image (pixel) input, with channel pre- and post-extension.

Spec: NVDLA seed "Basic Weight for image input" (Fig. 14), "Weight Channel Post-extension for image
input" (Fig. 16), Table 34 (compression and post-extension both supported), Table 35;
clarifications ``nvdla-clarifications.md`` §4.1, §4.2, §7, §11.3.

Logical tensor ``K x C x R x S``; element type = precision (int8, int16, float16). Steps:

0. **Channel padding** (clarifications §4.1): kernels are zero-padded from C to the image channel
   count ``Ci`` (option ``channels``, default C). ``Ci`` must be >= C and one of 1, 3, 4 — the
   channel counts of the pixel formats of Table 33 (clarifications §4.1 "Ci (1, 3 or 4)"); e.g.
   T_A16B16G16R16 images need ``channels=4`` for a 3-channel kernel.
1. **Pre-extension** (mandatory): ``S x R x Ci`` -> ``1 x R x (S*Ci)``, new channel
   ``c' = w*Ci + c`` (pixel-major, as pixels lie in a line). Choice: the clarifications (§4.1,
   §11.3) win over the seed: the extended kernel is 1x5x15 for Fig. 14 (seed prose: "3x5x15"),
   and its row r holds w0(c0..c2), w1(c0..c2), ..., w4(c0..c2). (The seed's text rendering of
   Fig. 14 lists each extended row as the five row values repeated three times, which would read
   as channel-major ``c' = c*S + w``; the clarifications, checked against the compiler's
   pre-extension mapping and the figure itself, give the pixel-major order used here.)
2. **Post-extension** N = 1, 2 or 4 (option ``post_extension``, clarifications §4.2): per kernel
   group, for each row group of N rows (the last keeps ``R mod N`` rows, no zero rows appended),
   for each kernel, the N rows' C' vectors back to back. Limits (FormatError naming the rule):
   ``image.post_extension_c_limit``: N=2 needs C' = S*Ci <= 32 elements, N=4 needs C' <= 16;
   ``image.post_extension_stride_limit``: ``stride_x*Ci`` <= 32 (N=2) / 16 (N=4), with the
   convolution x stride given by option ``stride_x`` (default 1). Choice: the stride limit uses
   the image channel count ``Ci`` (the channels the hardware sees). N = 1 is the plain DC mapping.
3. **DC mapping** of the extended ``K x (S*Ci) x R x 1`` kernels (64-element C' blocks, groups,
   128-B padding; see :mod:`.dc`).
4. Optional **sparse compression** (``compress=True``) of the mapped surface (:mod:`models.nvdla.sparse`).

Unpack returns the original ``K x C x R x S`` tensor (padding channels are dropped).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from ...core.arith import ceil_div
from ...core.errors import require
from ...core.memimage import MemoryImage
from ...core.registry import Example, Option
from . import groups as G

if TYPE_CHECKING:
    from ...weight_desc import WeightSurfaceDescriptor

NAME = "nvdla.weight.image"
#: Channel counts of the pixel formats (seed Table 33; clarifications §4.1).
IMAGE_CHANNELS: tuple[int, ...] = (1, 3, 4)
#: Largest C' (elements) per post-extension parameter (seed "C <= 32 / C <= 16"; clarifications §4.2).
POST_EXTENSION_LIMIT: dict[int, int] = {2: 32, 4: 16}
#: CSC D_POST_Y_EXTENSION.Y_EXTENSION value (log2 N; clarifications §4.2).
Y_EXTENSION_CODE: dict[int, int] = {1: 0, 2: 1, 4: 2}
#: D_DATAIN_FORMAT.DATAIN_FORMAT of the layer these weights serve: PIXEL (1 in the CDMA's and the CSC's register
#: manual; FEATURE is 0), the mode that makes the convolution read an image and these pre-extended kernels (seed
#: "Basic Weight for image input")
DATAIN_FORMAT_PIXEL = 1


def _params(
    shape: tuple[int, ...], channels: Optional[int], post_extension: int, stride_x: int
) -> tuple[int, int, int, int, int, int]:
    """Check the options against the shape; returns (K, C, R, S, Ci, N)."""
    k, c, r, s = G.weight_shape(NAME, shape)
    ci = c if channels is None else int(channels)
    require(
        ci in IMAGE_CHANNELS,
        "image.channels",
        f"{NAME}: image channel count channels={ci} is not one of {list(IMAGE_CHANNELS)} "
        f"(pixel formats, seed Table 33)",
    )
    require(
        ci >= c,
        "image.channels",
        f"{NAME}: channels={ci} is smaller than the kernel channel count C={c}; kernels are only zero-padded",
    )
    n = int(post_extension)
    require(
        n in (1, 2, 4),
        "image.post_extension",
        f"{NAME}: post_extension={n} is not 1, 2 or 4 (seed 'Weight Channel Post-extension')",
    )
    sx = G.check_stride(NAME, "image", "stride_x", stride_x)
    if n > 1:
        cp = s * ci
        lim = POST_EXTENSION_LIMIT[n]
        require(
            cp <= lim,
            "image.post_extension_c_limit",
            f"{NAME}: post_extension={n} needs C' = S*Ci <= {lim} elements, got C' = {s}*{ci} = {cp} "
            f"(clarifications 4.2)",
        )
        require(
            sx * ci <= lim,
            "image.post_extension_stride_limit",
            f"{NAME}: post_extension={n} needs stride_x*Ci <= {lim}, got {sx}*{ci} = {sx * ci} (clarifications 4.2)",
        )
    return k, c, r, s, ci, n


def pre_extend(tensor: np.ndarray, channels: Optional[int] = None) -> np.ndarray:
    """Channel padding and pre-extension: ``K x C x R x S`` -> ``K x (S*Ci) x R x 1`` (clarifications §4.1)."""
    t = G.weight_tensor(NAME, tensor)
    k, c, r, s, ci, _ = _params(t.shape, channels, 1, 1)
    padded = np.zeros((k, ci, r, s), dtype=t.dtype)
    padded[:, :c] = t
    # (K, Ci, R, S) -> (K, R, S, Ci) -> (K, R, S*Ci): channel c' = w*Ci + c -> (K, S*Ci, R, 1)
    return np.ascontiguousarray(padded.transpose(0, 2, 3, 1).reshape(k, r, s * ci).transpose(0, 2, 1)[..., None])


def layout(
    shape: tuple[int, ...], dtype: Any, channels: Optional[int] = None, post_extension: int = 1, stride_x: int = 1
) -> tuple[np.ndarray, list[int], int]:
    """(offsets of every element of the EXTENDED ``K x (S*Ci) x R x 1`` tensor, group sizes, total elements)."""
    k, c, r, s, ci, n = _params(tuple(shape), channels, post_extension, stride_x)
    kpg = G.kernels_per_group(G.weight_dtype(NAME, dtype))
    cp = s * ci
    off = G.dc_offsets(k, cp, r, 1, kpg) if n == 1 else G.row_group_offsets(k, cp, r, 1, kpg, n)
    return off, G.group_sizes(k, kpg, r * cp), k * r * cp


def pack(
    tensor: np.ndarray,
    channels: Optional[int] = None,
    post_extension: int = 1,
    stride_x: int = 1,
    compress: bool = False,
) -> MemoryImage:
    """Pad, pre-extend, post-extend and map a ``K x C x R x S`` kernel tensor for image input."""
    t = G.weight_tensor(NAME, tensor)
    ext = pre_extend(t, channels)
    off, sizes, total = layout(t.shape, t.dtype, channels, post_extension, stride_x)
    surfaces, meta = G.build_surfaces(G.scatter(ext, off, total), sizes, bool(compress))
    k, cp, r = ext.shape[:3]
    meta.update(
        {
            "D_WEIGHT_SIZE_0.BYTE_PER_KERNEL": r * cp * t.dtype.itemsize - 1,
            "D_WEIGHT_SIZE_1.WEIGHT_KERNEL": k - 1,
            "D_POST_Y_EXTENSION.Y_EXTENSION": Y_EXTENSION_CODE[int(post_extension)],
            "D_DATAIN_FORMAT.DATAIN_FORMAT": DATAIN_FORMAT_PIXEL,
        }
    )
    return MemoryImage(surfaces, meta)


def unpack(
    image: MemoryImage,
    shape: tuple[int, ...],
    dtype: Any,
    channels: Optional[int] = None,
    post_extension: int = 1,
    stride_x: int = 1,
    compress: bool = False,
) -> np.ndarray:
    """Read the original ``K x C x R x S`` tensor back (padding channels dropped)."""
    dt = G.weight_dtype(NAME, dtype)
    k, c, r, s, ci, _ = _params(tuple(shape), channels, post_extension, stride_x)
    off, sizes, total = layout(shape, dt, channels, post_extension, stride_x)
    flat = G.read_stream(NAME, image, dt, sizes, total, bool(compress))
    ext = flat[off][..., 0]  # (K, S*Ci, R)
    full = ext.transpose(0, 2, 1).reshape(k, r, s, ci).transpose(0, 3, 1, 2)
    return np.ascontiguousarray(full[:, :c]).astype(dt.newbyteorder("="))


def info(
    shape: tuple[int, ...],
    dtype: Any,
    channels: Optional[int] = None,
    post_extension: int = 1,
    stride_x: int = 1,
    compress: bool = False,
) -> dict:
    """Sizes and registers; BYTE_PER_KERNEL = R*S*Ci*e (the pre-extended kernel, exact); the layer's
    ``D_DATAIN_FORMAT.DATAIN_FORMAT`` is PIXEL (image input is what these weights are for)."""
    dt = G.weight_dtype(NAME, dtype)
    k, c, r, s, ci, n = _params(tuple(shape), channels, post_extension, stride_x)
    out: dict[str, Any] = {
        "format": NAME,
        "shape": [k, c, r, s],
        "dtype": dt.name,
        "image_channels": ci,
        "extended_shape": [k, s * ci, r, 1],
        "post_extension": n,
        "c_blocks": ceil_div(s * ci, G.C_BLOCK),
    }
    out.update(G.stream_info(NAME, shape, dt, r * s * ci, k, bool(compress)))
    out["registers"]["D_POST_Y_EXTENSION.Y_EXTENSION"] = Y_EXTENSION_CODE[n]
    out["registers"]["D_DATAIN_FORMAT.DATAIN_FORMAT"] = DATAIN_FORMAT_PIXEL
    return out


def descriptor(
    shape: tuple[int, ...],
    dtype: Any,
    base: int = 0,
    channels: Optional[int] = None,
    post_extension: int = 1,
    stride_x: int = 1,
    compress: bool = False,
    image: Optional[MemoryImage] = None,
) -> WeightSurfaceDescriptor:
    """The reader's :class:`~models.weight_desc.WeightSurfaceDescriptor` of the extended kernels
    (``R*S*Ci`` elements per kernel), surfaces from ``base`` (compressed: ``image`` gives the sizes)."""
    dt = G.weight_dtype(NAME, dtype)
    k, c, r, s, ci, _ = _params(tuple(shape), channels, post_extension, stride_x)
    return G.descriptors(NAME, dt, k, r * s * ci, bool(compress), base, image)[0]


OPTIONS = (
    Option(
        "channels", "int", None, "image channel count Ci (1, 3 or 4; >= C; default C): kernels are zero-padded to it"
    ),
    Option("post_extension", "int", 1, "channel post-extension N (1, 2, 4; clarifications 4.2)", choices=(1, 2, 4)),
    Option("stride_x", "int", 1, "convolution x stride, checked against the post-extension limit stride_x*Ci"),
    G.COMPRESS,
)

FORMAT = G.weight_format(
    name=NAME,
    pack=pack,
    unpack=unpack,
    info=info,
    options=OPTIONS,
    descriptor=descriptor,
    summary="NVDLA image-input weights: pad C to the image channels, pre-extend 1xRx(S*Ci) (c'=w*Ci+c), "
    "optional post-extension 2/4, DC mapping; optional sparse compression",
    spec="NVDLA seed 'Basic Weight for image input', Fig. 14, Fig. 16, Tables 34-35; clarifications §4, §7, §11.3",
    example=Example((2, 3, 5, 5), "int16", color_by="K"),  # Fig. 14: 5x5x3 int16 kernels
)
