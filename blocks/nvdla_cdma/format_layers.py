"""Weight layers in the image-input, Winograd and deconvolution weight formats of ``models.nvdla.weights``, each
with the data side of its mode (blocks/nvdla_cdma/weight_layers.py, :class:`WeightLayer`):

- image weights (``nvdla.weight.image``: kernels padded to the image's ``Ci`` channels, pre-extended, post-extended
  by N = 1, 2 or 4) with an image of a pixel format of ``Ci`` channels on the data side, converter off, so that the
  buffer's precision is the format's (``D_DATAIN_FORMAT`` PIXEL, which the image weight model's info gives);
- Winograd weights (``nvdla.weight.winograd``, stride 1: 3x3 kernels transformed to 4x4x4 cubes) with a Winograd
  feature cube of the same C (``D_MISC_CFG.CONV_MODE`` WINOGRAD, which the Winograd weight model's info gives);
- deconvolution weights (``nvdla.weight.deconv``): one layer per set of the split, a DC layer with a feature cube
  of the kernels' C, whose weight surface is that set's.

The CDMA's weight engine reads none of the mode fields (NV_NVDLA_CDMA_wt.v takes the weight sizes, the format bit,
PROC_PRECISION and the banks); they are programmed so that each layer is one the hardware could run whole.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from dlaverif.models.nvdla import pixel
from dlaverif.models.nvdla.weights import deconv

from .layers import DTYPES, RAW_PRECISION, random_cube
from .weight_layers import DENSITIES, WeightLayer, draw_kernels


def small_kernels(rng: np.random.Generator, shape: tuple[int, ...], dtype: type, density: float) -> np.ndarray:
    """Random kernels of small magnitude (ints 1 to 20, fp16 under 4) at ``density``, whole 3x3 planes kept or
    dropped together: Winograd kernels whose transform stays in range and whose transformed cubes are as sparse as
    the planes (U of a zero plane is zero, of a kept plane mostly not)."""
    dt = np.dtype(dtype)
    sign = np.where(rng.random(shape) < 0.5, -1, 1)
    if dt == np.float16:
        vals = (sign * (rng.random(shape) * 3.5 + 0.25)).astype(np.float16)
    else:
        vals = (sign * rng.integers(1, 21, shape)).astype(dt)
    keep = rng.random(shape[:2]) < density
    return np.where(keep[:, :, None, None], vals, np.zeros((), dt)).astype(dt)


def image_weight_layer(
    name: str,
    rng: np.random.Generator,
    fmt: str,
    kernels: int,
    r: int,
    s: int,
    post_extension: int,
    c: Optional[int] = None,
    compress: bool = False,
    density: str = "dense",
    h: int = 3,
    w: int = 8,
    kernel_tensor: Optional[np.ndarray] = None,
    **kw: object,
) -> WeightLayer:
    """An image layer of ``fmt`` (``h x w`` random raw components, converter off) and ``kernels`` image weights of
    ``c`` channels (default: the format's ``Ci``; fewer are zero-padded by the model), ``r x s``, post-extended by
    ``post_extension``, in the format's precision."""
    f = pixel.get(fmt)
    ci = f.channels
    prec = RAW_PRECISION[f.precision]
    dt = DTYPES[prec]
    if f.fp16:
        t = rng.standard_normal((h, w, ci)).astype(np.float16)
    else:
        raw = np.dtype(f.dtypes[0])
        t = rng.integers(0, 1 << (8 * raw.itemsize), (h, w, ci)).astype(raw)
    c = ci if c is None else c
    kt = draw_kernels(rng, (kernels, c, r, s), dt, DENSITIES[density]) if kernel_tensor is None else kernel_tensor
    return WeightLayer(
        name,
        "image",
        t,
        pixel_format=fmt,
        precision=prec,
        kernel_tensor=kt,
        compress=compress,
        density=density,
        kernels=kernels,
        weight_format="image",
        weight_options={"channels": ci, "post_extension": post_extension},
        **kw,  # type: ignore[arg-type]
    )


def winograd_weight_layer(
    name: str,
    rng: np.random.Generator,
    kernels: int,
    c: int,
    h: int,
    w: int,
    dtype: type = np.int8,
    compress: bool = False,
    density: str = "dense",
    pad: tuple[int, int, int, int] = (0, 0, 0, 0),
    **kw: object,
) -> WeightLayer:
    """A Winograd layer (stride 1) of a random ``(C, h, w)`` cube padded by ``pad`` with a random pad value, and
    ``kernels`` 3x3 kernels of :func:`small_kernels` at ``density`` in the Winograd weight format."""
    kt = small_kernels(rng, (kernels, c, 3, 3), dtype, DENSITIES[density])
    return WeightLayer(
        name,
        "feature",
        random_cube(rng, c, h, w, np.dtype(dtype)),
        conv_mode="WINOGRAD",
        pad=pad,
        pad_value=int(rng.integers(0, 1 << 16)),
        kernel_tensor=kt,
        compress=compress,
        density=density,
        kernels=kernels,
        weight_format="winograd",
        **kw,  # type: ignore[arg-type]
    )


def deconv_set_layer(
    name: str,
    rng: np.random.Generator,
    kernel_tensor: np.ndarray,
    stride_x: int,
    stride_y: int,
    xy: tuple[int, int],
    compress: bool = False,
    density: str = "dense",
    h: int = 2,
    w: int = 3,
    **kw: object,
) -> WeightLayer:
    """Set ``xy`` of the split of ``kernel_tensor`` as a DC layer: a random ``(C, h, w)`` cube and the set's weight
    surface."""
    k, c = kernel_tensor.shape[:2]
    return WeightLayer(
        f"{name}_{deconv.set_name(*xy)}",
        "feature",
        random_cube(rng, c, h, w, kernel_tensor.dtype),
        kernel_tensor=kernel_tensor,
        compress=compress,
        density=density,
        kernels=k,
        weight_format="deconv",
        weight_options={"stride_x": stride_x, "stride_y": stride_y, "set": xy},
        **kw,  # type: ignore[arg-type]
    )


def deconv_set_layers(
    name: str,
    rng: np.random.Generator,
    kernel_tensor: np.ndarray,
    stride_x: int,
    stride_y: int,
    compress: bool = False,
    density: str = "dense",
    **kw: object,
) -> list[WeightLayer]:
    """The layers of one deconvolution: :func:`deconv_set_layer` for every set of the split (y outer, x inner). A
    compressed set must keep an element (an empty compressed surface is read as 256 bytes, docs/nvidia_cdma.md
    W1)."""
    out = []
    for xy in deconv.sets(stride_x, stride_y):
        layer = deconv_set_layer(name, rng, kernel_tensor, stride_x, stride_y, xy, compress, density, **kw)  # type: ignore[arg-type]
        assert not compress or layer.surface("weight").size, f"{layer.name}: a compressed set keeps no element"
        out.append(layer)
    return out


#: fp16 bit patterns of the NaN weights: quiet and signalling, both signs, the smallest and largest mantissa
NAN_BITS = (0x7C01, 0x7E00, 0x7FFF, 0xFC01, 0xFE00, 0xFFFF)
#: fp16 bit patterns next to NaN that stay as they are: +-INF, -0, the smallest denormal, the largest normal
NOT_NAN_BITS = (0x7C00, 0xFC00, 0x8000, 0x0001, 0x7BFF)


def with_nans(rng: np.random.Generator, kernels: np.ndarray, every: int = 7) -> np.ndarray:
    """``kernels`` (fp16) with about one element in ``every`` replaced by a NaN of :data:`NAN_BITS` and as many by a
    pattern of :data:`NOT_NAN_BITS`; the bit patterns as uint16 views of the result."""
    bits = kernels.astype(np.float16).view(np.uint16).copy()
    pick = rng.integers(0, every, bits.shape)
    bits = np.where(pick == 0, rng.choice(np.array(NAN_BITS, np.uint16), bits.shape), bits)
    bits = np.where(pick == 1, rng.choice(np.array(NOT_NAN_BITS, np.uint16), bits.shape), bits)
    return bits.astype(np.uint16).view(np.float16)
