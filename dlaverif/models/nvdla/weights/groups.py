"""Pieces shared by the four NVDLA weight formats: element types, kernel groups, the
direct-convolution scan, the row-group scan of post-extension, and the surfaces of a
mapped (optionally sparse-compressed) weight stream.

Spec: NVDLA seed "Weight Format" (Basic Weight for Direct Convolution, Fig. 13, Table 34,
Table 35), clarifications ``nvdla-clarifications.md`` sections 3, 4.2, 7 and 10.

Every format here first builds the *mapped uncompressed stream*: a flat run of elements in
memory order, made of kernel groups placed back to back. Its layout is given by an offset
array that says, for every element of the (already extended) kernel tensor ``K x C x R x S``,
where it lands in that stream. Packing scatters the tensor through the offsets, unpacking
gathers it back; both are single vectorised numpy operations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence

import numpy as np

from ...core.address import check_ranges
from ...core.arith import round_up
from ...core.dtypes import resolve_dtype
from ...core.errors import FormatError, require
from ...core.memimage import MemoryImage, Surface, back_to_back
from ...core.registry import Format, Option
from .. import sparse

if TYPE_CHECKING:
    from ...weight_desc import WeightSurfaceDescriptor

#: Weight precisions (seed "Precision Type"); the element type IS the precision.
DTYPES: tuple[str, ...] = ("int8", "int16", "float16")
#: Bytes per element.
ELEM_BYTES: dict[str, int] = {"int8": 1, "int16": 2, "float16": 2}
#: Kernels per group: 32 for int8, 16 for int16/fp16 (seed DC rules; clarifications §3,
#: HW KERNEL_PER_GROUP 32/16/16).
KERNELS_PER_GROUP: dict[str, int] = {"int8": 32, "int16": 16, "float16": 16}
#: C' block: 64 ELEMENTS for every precision (clarifications §3; 64 B int8, 128 B int16/fp16).
C_BLOCK = 64
#: Every weight, WMB and WGS surface is zero-padded to a multiple of 128 bytes (Table 35).
SIZE_ALIGN = 128
#: Start-address alignment of weight, WMB and WGS surfaces (Table 35; clarifications §12.9).
START_ALIGN = 256

#: D_MISC_CFG.PROC_PRECISION / IN_PRECISION codes (clarifications §10).
PRECISION_CODE: dict[str, int] = {"int8": 0, "int16": 1, "float16": 2}


def weight_dtype(fmt: str, dtype: Any) -> np.dtype:
    """The little-endian numpy dtype of a weight precision; FormatError ``weight.dtype`` otherwise."""
    try:
        dt = resolve_dtype(dtype)
    except FormatError as exc:
        raise FormatError(
            "weight.dtype", f"{fmt}: element type {dtype!r} is not a weight precision (valid: {list(DTYPES)})"
        ) from exc
    if dt.name not in DTYPES:
        raise FormatError(
            "weight.dtype",
            f"{fmt}: element type {dt.name} is not a weight precision (valid: {list(DTYPES)}; seed 'Precision Type')",
        )
    return dt.newbyteorder("<")


def weight_shape(fmt: str, shape: Sequence[int]) -> tuple[int, int, int, int]:
    """Check a logical weight shape ``(K, C, R, S)``; FormatError ``weight.shape`` otherwise."""
    try:
        shp = tuple(int(d) for d in shape)
    except (TypeError, ValueError) as exc:
        raise FormatError("weight.shape", f"{fmt}: shape {shape!r} is not a tuple of integers") from exc
    require(len(shp) == 4, "weight.shape", f"{fmt}: shape {shp} has rank {len(shp)}, want 4 axes (K, C, R, S)")
    require(all(d >= 1 for d in shp), "weight.shape", f"{fmt}: every dimension must be >= 1, got {shp}")
    return shp  # type: ignore[return-value]  # rank 4 checked above


def weight_tensor(fmt: str, tensor: Any) -> np.ndarray:
    """Check a logical weight tensor (rank 4, weight dtype) and return it as a little-endian array."""
    arr = np.asarray(tensor)
    dt = weight_dtype(fmt, arr.dtype)
    weight_shape(fmt, arr.shape)
    return np.ascontiguousarray(arr, dtype=dt)


def kernels_per_group(dtype: np.dtype) -> int:
    return KERNELS_PER_GROUP[np.dtype(dtype).name]


def group_sizes(k: int, kpg: int, kernel_elems: int) -> list[int]:
    """Elements of each kernel group: full groups of ``kpg`` kernels, a shorter last group."""
    full, rest = divmod(int(k), kpg)
    return [kpg * kernel_elems] * full + ([rest * kernel_elems] if rest else [])


def _kernel_terms(k: int, kpg: int, kernel_elems: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per kernel: (start of its group in the stream, index inside the group, kernels in its group)."""
    kk_all = np.arange(k, dtype=np.int64)
    g = kk_all // kpg
    kk = kk_all % kpg
    kg = np.minimum(kpg, k - g * kpg)
    return g * kpg * kernel_elems, kk, kg


def dc_offsets(k: int, c: int, r: int, s: int, kpg: int) -> np.ndarray:
    """Element offset of every weight ``(k, c, h, w)`` in the direct-convolution stream.

    Clarifications §3 (W changes faster than H; 64-element C' blocks, last block unpadded)::

        off = g*kpg*R*S*C + b*R*S*Kg*64 + (h*S + w)*Kg*cw + kk*cw + (c mod 64)

    with ``g = k div kpg``, ``kk = k mod kpg``, ``Kg = min(kpg, K - g*kpg)``, ``b = c div 64``,
    ``cw = min(64, C - 64*b)``. Returns an int64 array of shape ``(K, C, R, S)``.
    """
    gbase, kk, kg = _kernel_terms(k, kpg, r * s * c)
    cc = np.arange(c, dtype=np.int64)
    b = cc // C_BLOCK
    cw = np.minimum(C_BLOCK, c - C_BLOCK * b)
    pos = np.arange(r, dtype=np.int64)[:, None] * s + np.arange(s, dtype=np.int64)[None, :]  # (R, S)
    kg4, kk4, gb4 = kg[:, None, None, None], kk[:, None, None, None], gbase[:, None, None, None]
    b4, cw4, cm4 = b[None, :, None, None], cw[None, :, None, None], (cc % C_BLOCK)[None, :, None, None]
    return gb4 + b4 * (r * s * C_BLOCK) * kg4 + pos[None, None] * kg4 * cw4 + kk4 * cw4 + cm4


def row_group_offsets(k: int, c: int, r: int, s: int, kpg: int, n: int) -> np.ndarray:
    """Element offset of every weight ``(k, c, h, w)`` under channel post-extension N.

    Clarifications §4.2: rows are grouped by N (the last group keeps ``R mod N`` rows, no zero
    rows); per row group the N rows of one kernel are concatenated, then the next kernel. With
    the pre-extended kernels of image weights (``S == 1``) the offset inside a kernel group is
    ``rg*Kg*N*C + kk*rows(rg)*C + (h mod N)*C + c``. For ``S > 1`` (the 3x3 drawing of seed
    Fig. 16) columns are scanned between row groups and kernels:
    ``rg*Kg*N*S*C + w*Kg*rows(rg)*C + kk*rows(rg)*C + (h mod N)*C + c``. Only one C' block may
    exist (``C <= 64``; the format checks the tighter Table/clarification limits). ``n == 1``
    equals :func:`dc_offsets` for ``C <= 64``.
    """
    require(
        c <= C_BLOCK,
        "image.post_extension_single_block",
        f"post-extension needs a single C' block, got C'={c} > {C_BLOCK}",
    )
    gbase, kk, kg = _kernel_terms(k, kpg, r * s * c)
    h = np.arange(r, dtype=np.int64)
    rg = h // n
    rows = np.minimum(n, r - rg * n)
    w = np.arange(s, dtype=np.int64)
    kg4, kk4, gb4 = kg[:, None, None, None], kk[:, None, None, None], gbase[:, None, None, None]
    rg4, rows4, hm4 = rg[None, None, :, None], rows[None, None, :, None], (h % n)[None, None, :, None]
    w4 = w[None, None, None, :]
    cc4 = np.arange(c, dtype=np.int64)[None, :, None, None]
    return gb4 + rg4 * kg4 * n * s * c + w4 * kg4 * rows4 * c + kk4 * rows4 * c + hm4 * c + cc4


def scatter(tensor: np.ndarray, offsets: np.ndarray, total: int) -> np.ndarray:
    """Flat little-endian stream of ``total`` elements with ``tensor`` placed at ``offsets``."""
    flat = np.zeros(total, dtype=tensor.dtype.newbyteorder("<"))
    flat[offsets.reshape(-1)] = tensor.reshape(-1)
    return flat


def surface_names(prefix: str, compress: bool) -> tuple[str, ...]:
    """Surface names of one mapped stream: ``weight`` or ``weight, wmb, wgs`` (prefixed ``set.`` for deconv)."""
    if compress:
        return tuple(f"{prefix}{n}" for n in ("weight", "wmb", "wgs"))
    return (f"{prefix}weight",) if prefix == "" else (prefix.rstrip("."),)


def build_surfaces(
    flat: np.ndarray, sizes: Sequence[int], compress: bool, prefix: str = ""
) -> tuple[tuple[Surface, ...], dict[str, Any]]:
    """Surfaces (and register values) of one mapped stream of elements.

    Uncompressed: one surface, zero-padded to 128 B (seed DC rules; Table 35).
    Compressed (``compress=True``, clarifications §7): :func:`models.nvdla.sparse.compress` on the
    stream, surfaces ``weight`` (compressed), ``wmb`` and ``wgs``. The register values follow the
    C model (clarifications §7, §10): D_WEIGHT_BYTES = size of the (padded) weight surface
    actually fetched, i.e. the compressed size when compressed.
    """
    names = surface_names(prefix, compress)
    e = flat.dtype.itemsize
    raw = flat.view(np.uint8)
    if not compress:
        data = np.zeros(round_up(raw.size, SIZE_ALIGN), dtype=np.uint8)
        data[: raw.size] = raw
        meta: dict[str, Any] = {"D_WEIGHT_FORMAT": 0, "D_WEIGHT_BYTES": int(data.size)}
        return (Surface(names[0], data, START_ALIGN),), meta
    weight, wmb, wgs = sparse.compress(raw, e, list(sizes))
    meta = {
        "D_WEIGHT_FORMAT": 1,
        "D_WEIGHT_BYTES": int(weight.size),
        "D_WMB_BYTES": int(wmb.size),
        "compressed_bytes": int(wgs[: 4 * len(sizes)].view("<u4").sum()),
        "wgs": [int(v) for v in wgs[: 4 * len(sizes)].view("<u4")],
    }
    return (
        Surface(names[0], weight, START_ALIGN),
        Surface(names[1], wmb, START_ALIGN),
        Surface(names[2], wgs, START_ALIGN),
    ), meta


def read_stream(
    fmt: str, image: MemoryImage, dtype: np.dtype, sizes: Sequence[int], total: int, compress: bool, prefix: str = ""
) -> np.ndarray:
    """The mapped uncompressed stream (``total`` elements) read back from ``image``.

    Raises FormatError ``weight.surface_size`` when the weight surface is shorter than the stream
    (uncompressed), or the consistency errors of :func:`models.nvdla.sparse.decompress`.
    """
    names = surface_names(prefix, compress)
    dt = np.dtype(dtype).newbyteorder("<")
    e = dt.itemsize
    if not compress:
        require(
            f"{prefix}wmb" not in image.names(),
            "weight.compress_mismatch",
            f"{fmt}: the image has a {prefix}wmb surface (sparse-compressed weights); unpack with compress=True",
        )
        data = image[names[0]].data
        require(
            data.size >= total * e,
            "weight.surface_size",
            f"{fmt}: surface {names[0]!r} has {data.size} bytes, the mapped weights need {total * e}",
        )
        return data[: total * e].copy().view(dt)
    dense = sparse.decompress(
        image[names[0]].data, image[names[1]].data, image[names[2]].data, e, list(sizes), total * e
    )
    return dense.view(dt)


def stream_info(
    fmt: str, shape: Sequence[int], dtype: np.dtype, kernel_elems: int, n_kernels: int, compress: bool, prefix: str = ""
) -> dict[str, Any]:
    """Sizes, groups and register values of one mapped stream (JSON-serialisable).

    ``bytes`` is the exact mapped size, ``padded_bytes`` the 128-B padded uncompressed surface.
    With compression the weight surface size depends on the values: it is reported as
    ``None`` (with ``weight_bytes_max``); WMB/WGS sizes are known.
    """
    e = np.dtype(dtype).itemsize
    kpg = kernels_per_group(dtype)
    sizes = group_sizes(n_kernels, kpg, kernel_elems)
    total = n_kernels * kernel_elems
    padded = round_up(total * e, SIZE_ALIGN)
    names = surface_names(prefix, compress)
    out: dict[str, Any] = {
        "elem_bytes": e,
        "kernels_per_group": kpg,
        "groups": len(sizes),
        "group_elements": sizes,
        "byte_per_kernel": kernel_elems * e,
        "bytes": total * e,
        "padded_bytes": padded,
        "alignment": START_ALIGN,
        "size_alignment": SIZE_ALIGN,
        "compressed": bool(compress),
    }
    regs: dict[str, Any] = {
        "D_WEIGHT_FORMAT": int(bool(compress)),
        "D_WEIGHT_SIZE_0.BYTE_PER_KERNEL": kernel_elems * e - 1,
        "D_WEIGHT_SIZE_1.WEIGHT_KERNEL": n_kernels - 1,
        "D_MISC_CFG.PROC_PRECISION": PRECISION_CODE[np.dtype(dtype).name],
    }
    if compress:
        wmb = sparse.wmb_bytes(total)
        wgs = sparse.wgs_bytes(len(sizes))
        out["weight_bytes"] = None
        out["weight_bytes_max"] = padded
        out["wmb_bytes"] = wmb
        out["wgs_bytes"] = wgs
        regs["D_WEIGHT_BYTES"] = None  # compressed size, known after pack (image.meta)
        regs["D_WMB_BYTES"] = wmb
        out["surfaces"] = [
            {"name": names[0], "bytes": None, "max_bytes": padded, "align": START_ALIGN},
            {"name": names[1], "bytes": wmb, "align": START_ALIGN},
            {"name": names[2], "bytes": wgs, "align": START_ALIGN},
        ]
    else:
        out["weight_bytes"] = padded
        regs["D_WEIGHT_BYTES"] = padded
        out["surfaces"] = [{"name": names[0], "bytes": padded, "align": START_ALIGN}]
    out["registers"] = regs
    return out


def descriptors(
    fmt: str,
    dtype: np.dtype,
    n_kernels: int,
    kernel_elems: int,
    compress: bool,
    base: int,
    image: Optional[MemoryImage],
    prefixes: Sequence[str] = ("",),
) -> list[WeightSurfaceDescriptor]:
    """The :class:`~models.weight_desc.WeightSurfaceDescriptor` of every mapped stream (one per prefix:
    deconvolution sets), surfaces placed back to back from ``base`` in surface order (the order of
    :meth:`MemoryImage.placed`), each validated (FormatError ``weight_desc.<rule>``).

    Dense: sizes follow from the shape; ``image``, when given, must be the packed dense image.
    Compressed: the weight surface size depends on the values, so ``image`` (the packed image) is
    required (FormatError ``weight.descriptor_image``); its surfaces give every size.
    """
    from ...weight_desc import WeightSurfaceDescriptor  # here: weight_desc reads Table 35 from models.nvdla

    e = np.dtype(dtype).itemsize
    sizes = group_sizes(n_kernels, kernels_per_group(dtype), kernel_elems)
    if image is None:
        require(
            not compress,
            "weight.descriptor_image",
            f"{fmt}: compressed surface sizes depend on the weights; pass image=models.pack(...)",
        )
        padded = round_up(n_kernels * kernel_elems * e, SIZE_ALIGN)
        bases = back_to_back([padded] * len(prefixes), [START_ALIGN] * len(prefixes), base)
        out = [WeightSurfaceDescriptor(False, e, len(sizes), sizes[0] * e, sizes[-1] * e, b, padded) for b in bases]
    else:
        require(
            ("wmb" in image.names() or f"{prefixes[0]}wmb" in image.names()) == bool(compress),
            "weight.compress_mismatch",
            f"{fmt}: image surfaces {image.names()} do not match compress={compress}",
        )
        placed = image.placed(base)
        out = [WeightSurfaceDescriptor.from_image(placed, e, sizes, surface_names(p, compress)) for p in prefixes]
    for d in out:
        check_ranges(d.ranges())
    return [d.validate() for d in out]


def check_post_extension(fmt: str, kind: str, value: int) -> None:
    """Table 34: post-extension exists only for image weights; anything but 1 is a FormatError."""
    require(
        isinstance(value, (int, np.integer)) and int(value) == 1,
        f"{kind}.post_extension",
        f"{fmt}: post_extension={value} is not supported for this weight type "
        f"(seed Table 34: post-extension is supported for image-input weights only); use 1",
    )


def check_stride(fmt: str, kind: str, name: str, value: int) -> int:
    """A convolution/deconvolution stride: an integer in 1..8.

    Choice: 1..8 is the range of NVDLA's 3-bit ``CONV_X_STRIDE``/``CONV_Y_STRIDE`` register fields
    (value-1); it is applied to the deconvolution split as well (at most 64 sets).
    """
    require(
        isinstance(value, (int, np.integer)) and 1 <= int(value) <= 8,
        f"{kind}.stride",
        f"{fmt}: {name}={value!r} must be an integer in 1..8",
    )
    return int(value)


#: the sparse-compression option of a format whose stream is one set of surfaces (weight, wmb, wgs)
COMPRESS = Option("compress", "bool", False, "sparse compression (surfaces weight, wmb, wgs; clarifications §7)")


def no_post_extension(kind: str) -> Option:
    """The ``post_extension`` option of weights Table 34 gives no post-extension: 1 only (checked by
    :func:`check_post_extension`)."""
    return Option("post_extension", "int", 1, f"channel post-extension: NOT supported for {kind} (Table 34); only 1")


def weight_format(**fields: Any) -> Format:
    """A weight format's registration: what the four formats share (axes K, C, R, S; the weight precisions
    :data:`DTYPES`; one stream's surfaces weight, wmb and wgs; the descriptor's ``image`` parameter), with ``fields``
    the rest (a field given there wins, as deconvolution's surfaces do)."""
    shared: dict[str, Any] = {
        "axes": ("K", "C", "R", "S"),
        "dtypes": DTYPES,
        "surfaces": ("weight", "wmb", "wgs"),
        "descriptor_params": ("image",),
    }
    return Format(**{**shared, **fields})
