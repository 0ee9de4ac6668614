"""MACE OpenCL image layouts: the six buffer <-> image mappings of the seed (seed era, commit 018f4ee1).

Spec: seed 001 "OpenCL Image Storage Layout" (``shared/seeds/001_b1fcfc4887cb19f5.txt``), corrected
by ``shared/spec/mace-clarifications.md`` (which wins where they disagree). Notation (clarifications
section 2): image sizes are ``[width, height]``; an image is held as a numpy array ``img[y, x, k]`` of
shape ``(height, width, 4)`` (4 elements per RGBA pixel); ``cdiv4(n) = (n + 3) // 4``.

Mappings (format, buffer axes, image [width, height], what pixel (x, y) lane k holds; Hb = cdiv4(H),
Wb = cdiv4(W), HW = H*W):

* ``mace.image.channel_major``, NHWC, ``[W*cdiv4(C), N*H]``: ``E(y//H, y%H, x%W, 4*(x//W)+k)`` (cl. 4)
* ``mace.image.height_major``, NHWC, ``[W*C, N*Hb]``: ``E(y//Hb, 4*(y%Hb)+k, x%W, x//W)`` (cl. 5)
* ``mace.image.width_major``, NHWC, ``[Wb*C, N*H]``: ``E(y//H, y%H, 4*(x%Wb)+k, x//Wb)`` (cl. 6)
* ``mace.image.conv_filter``, HWOI, ``[RoundUp4(I), HW*cdiv4(O)]``: with ``t = y%HW``,
  ``E(t//W, t%W, 4*(y//HW)+k, x)`` (cl. 7a)
* ``mace.image.dw_filter``, HWIM with M = 1, ``[HW*M, cdiv4(I)]``: ``E(x//W, x%W, 4*y+k, 0)`` (cl. 8)
* ``mace.image.arg1d``, W, ``[cdiv4(W), 1]``: ``E(4*x+k)`` (cl. 9)

Choices (each one tested):

* Height- and width-major use the clarified relations (sections 5, 6); the seed's relations
  (``n = j%N, h = j/H*4+k`` and ``w = i%W*4+k, c = i/W``) are wrong.
* Every lane whose buffer coordinate does not exist is **0** (clarifications section 3).
* Conv filter: the seed's image width RoundUp4(I) is kept, and the columns ``x >= I`` are **zero**.
  This differs from the seed-era kernel, which filled them by flat aliasing of the HWOI buffer (and read
  past its end); the fixed MACE (commit 6054df4f) drops those columns (clarifications 7a, 11).
  ``unpack`` ignores the pad columns.
* Depthwise filter: multiplier M must be 1; any other M is a ``FormatError`` (rule ``mace.dw_multiplier``).
  This is stricter than MACE, which silently writes an all-zero image (clarifications section 8).
* ``unpack`` reads the lanes that hold buffer elements and ignores padding lanes. MACE has no
  image-to-buffer kernel for width-major and depthwise filters (sections 6, 8); the model's inverse is
  the exact inverse of its own buffer-to-image mapping.
* Element types float32 and float16 (CL_FLOAT / CL_HALF_FLOAT); the image has the buffer's element
  type (MACE's float32 -> half conversion on the device is not modelled).
* ``pack`` returns a MemoryImage whose single surface ``data`` is the image array's bytes in row-major
  order (y, x, lane); ``unpack`` needs exactly that many bytes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..blocked import BlockedCubeDescriptor, Layout
from ..core.address import check_ranges
from ..core.arith import ceil_div
from ..core.dtypes import resolve_dtype
from ..core.errors import FormatError
from ..core.memimage import MemoryImage, as_image
from ..core.registry import Example, Format, register

SPEC = (
    "MACE 'OpenCL Image Storage Layout' (shared/seeds/001_b1fcfc4887cb19f5.txt) with shared/spec/mace-clarifications.md"
)
DTYPES = ("float32", "float16")
PREFIX = "mace.image."

#: kind -> (buffer axes, clarification section)
KINDS: dict[str, tuple[tuple[str, ...], str]] = {
    "channel_major": (("N", "H", "W", "C"), "4"),
    "height_major": (("N", "H", "W", "C"), "5"),
    "width_major": (("N", "H", "W", "C"), "6"),
    "conv_filter": (("H", "W", "O", "I"), "7a"),
    "dw_filter": (("H", "W", "I", "M"), "8"),
    "arg1d": (("W",), "9"),
}


def cdiv4(n: int) -> int:
    """``ceil(n / 4)`` (MACE RoundUpDiv4)."""
    return ceil_div(n, 4)


def _kind(kind: str) -> str:
    k = kind[len(PREFIX) :] if isinstance(kind, str) and kind.startswith(PREFIX) else kind
    if k not in KINDS:
        raise FormatError("mace.kind", f"unknown MACE image kind {kind!r}; known: {list(KINDS)}")
    return k


def _check_shape(kind: str, shape: tuple[int, ...]) -> tuple[int, ...]:
    axes = KINDS[kind][0]
    shape = tuple(int(d) for d in shape)
    if len(shape) != len(axes):
        raise FormatError(
            "mace.shape",
            f"{PREFIX}{kind}: buffer shape {shape} has rank {len(shape)}, want {len(axes)} axes {''.join(axes)}",
        )
    if any(d < 1 for d in shape):
        raise FormatError("mace.shape", f"{PREFIX}{kind}: every dimension must be >= 1, got {shape}")
    if kind == "dw_filter" and shape[3] != 1:
        raise FormatError(
            "mace.dw_multiplier",
            f"{PREFIX}dw_filter: channel multiplier M={shape[3]} (buffer HWIM "
            f"{shape}); only M = 1 is supported (MACE silently writes an all-zero image for M > 1; "
            "this model refuses, clarifications section 8)",
        )
    return shape


def image_size(kind: str, shape: tuple[int, ...]) -> tuple[int, int]:
    """Image ``[width, height]`` of a buffer of ``shape`` (seed tables, clarifications 4-9)."""
    kind = _kind(kind)
    s = _check_shape(kind, shape)
    if kind == "channel_major":
        n, h, w, c = s
        return w * cdiv4(c), n * h
    if kind == "height_major":
        n, h, w, c = s
        return w * c, n * cdiv4(h)
    if kind == "width_major":
        n, h, w, c = s
        return cdiv4(w) * c, n * h
    if kind == "conv_filter":
        h, w, o, i = s
        return 4 * cdiv4(i), h * w * cdiv4(o)
    if kind == "dw_filter":
        h, w, i, m = s
        return h * w * m, cdiv4(i)
    return cdiv4(s[0]), 1


def image_shape(kind: str, shape: tuple[int, ...]) -> tuple[int, int, int]:
    """Shape ``(height, width, 4)`` of the image array of a buffer of ``shape``."""
    w, h = image_size(kind, shape)
    return h, w, 4


def _pad_axis(a: np.ndarray, axis: int, to: int) -> np.ndarray:
    if a.shape[axis] == to:
        return a
    shape = list(a.shape)
    shape[axis] = to
    out = np.zeros(shape, a.dtype)
    out[tuple(slice(0, n) for n in a.shape)] = a
    return out


def buffer_to_image(buf: np.ndarray, kind: str) -> np.ndarray:
    """Buffer tensor -> image array ``(H_img, W_img, 4)`` (relations in the module docstring)."""
    kind = _kind(kind)
    b = np.asarray(buf)
    s = _check_shape(kind, b.shape)
    if b.dtype.name not in DTYPES:
        raise FormatError("mace.dtype", f"{PREFIX}{kind}: element type {b.dtype} is not float32 or float16")
    if kind == "channel_major":  # (N,H,W,Cb,4) -> (N,H,Cb,W,4): x = cb*W + w, y = n*H + h
        n, h, w, c = s
        cb = cdiv4(c)
        img = _pad_axis(b, 3, 4 * cb).reshape(n, h, w, cb, 4).transpose(0, 1, 3, 2, 4)
    elif kind == "height_major":  # (N,Hb,4,W,C) -> (N,Hb,C,W,4): x = c*W + w, y = n*Hb + hb, h = 4*hb + k
        n, h, w, c = s
        hb = cdiv4(h)
        img = _pad_axis(b, 1, 4 * hb).reshape(n, hb, 4, w, c).transpose(0, 1, 4, 3, 2)
    elif kind == "width_major":  # (N,H,Wb,4,C) -> (N,H,C,Wb,4): x = c*Wb + wb, y = n*H + h, w = 4*wb + k
        n, h, w, c = s
        wb = cdiv4(w)
        img = _pad_axis(b, 2, 4 * wb).reshape(n, h, wb, 4, c).transpose(0, 1, 4, 2, 3)
    elif kind == "conv_filter":  # (H,W,Ob,4,Ip) -> (Ob,H,W,Ip,4): y = ob*H*W + h*W + w, x = i
        h, w, o, i = s
        ob = cdiv4(o)
        img = (
            _pad_axis(_pad_axis(b, 2, 4 * ob), 3, 4 * cdiv4(i))
            .reshape(h, w, ob, 4, 4 * cdiv4(i))
            .transpose(2, 0, 1, 4, 3)
        )
    elif kind == "dw_filter":  # (H,W,Ib,4) -> (Ib,H,W,4): y = ib, x = h*W + w
        h, w, i, _ = s
        ib = cdiv4(i)
        img = _pad_axis(b[..., 0], 2, 4 * ib).reshape(h, w, ib, 4).transpose(2, 0, 1, 3)
    else:  # arg1d: (Lb, 4) -> one row
        lb = cdiv4(s[0])
        img = _pad_axis(b, 0, 4 * lb)
    return np.ascontiguousarray(img).reshape(image_shape(kind, s))


def image_to_buffer(img: np.ndarray, kind: str, shape: tuple[int, ...]) -> np.ndarray:
    """Image array ``(H_img, W_img, 4)`` -> buffer tensor of ``shape`` (padding lanes are not read)."""
    kind = _kind(kind)
    s = _check_shape(kind, shape)
    a = np.asarray(img)
    want = image_shape(kind, s)
    if a.shape != want:
        raise FormatError(
            "mace.image_shape",
            f"{PREFIX}{kind}: image array of shape {a.shape}, buffer {s} needs {want} (height, width, 4)",
        )
    if kind == "channel_major":
        n, h, w, c = s
        cb = cdiv4(c)
        buf = a.reshape(n, h, cb, w, 4).transpose(0, 1, 3, 2, 4).reshape(n, h, w, 4 * cb)[..., :c]
    elif kind == "height_major":
        n, h, w, c = s
        hb = cdiv4(h)
        buf = a.reshape(n, hb, c, w, 4).transpose(0, 1, 4, 3, 2).reshape(n, 4 * hb, w, c)[:, :h]
    elif kind == "width_major":
        n, h, w, c = s
        wb = cdiv4(w)
        buf = a.reshape(n, h, c, wb, 4).transpose(0, 1, 3, 4, 2).reshape(n, h, 4 * wb, c)[:, :, :w]
    elif kind == "conv_filter":
        h, w, o, i = s
        ob, ip = cdiv4(o), 4 * cdiv4(i)
        buf = a.reshape(ob, h, w, ip, 4).transpose(1, 2, 0, 4, 3).reshape(h, w, 4 * ob, ip)[:, :, :o, :i]
    elif kind == "dw_filter":
        h, w, i, _ = s
        ib = cdiv4(i)
        buf = a.reshape(ib, h, w, 4).transpose(1, 2, 0, 3).reshape(h, w, 4 * ib)[:, :, :i, None]
    else:
        buf = a.reshape(-1)[: s[0]]
    return np.ascontiguousarray(buf)


def valid_mask(kind: str, shape: tuple[int, ...]) -> np.ndarray:
    """Boolean image array ``(H_img, W_img, 4)``: True where a lane holds a buffer element, False on padding."""
    kind = _kind(kind)
    s = _check_shape(kind, shape)
    ones = np.ones(s, dtype=np.float32)
    return buffer_to_image(ones, kind) != 0


def image_array(img: MemoryImage | bytes | np.ndarray, dtype: Any, shape: tuple[int, ...] | None = None) -> np.ndarray:
    """The image array ``(height, width, 4)`` held by a packed MemoryImage (or raw bytes).

    ``shape`` is the image array shape ``(height, width[, 4])``; when omitted it is taken from the
    MemoryImage's ``image_shape`` meta entry (set by ``pack``).
    """
    mi = as_image(img)
    dt = resolve_dtype(dtype)
    if dt.name not in DTYPES:
        raise FormatError("mace.dtype", f"image element type {dt} is not float32 or float16")
    if shape is None:
        shape = mi.meta.get("image_shape")  # type: ignore[assignment]  # meta holds the packed shape
        if shape is None:
            raise FormatError("mace.image_shape", "no image shape given and the image carries none")
    shape = tuple(int(v) for v in shape)
    if len(shape) == 2:
        shape = shape + (4,)
    if len(shape) != 3 or shape[2] != 4 or min(shape) < 1:
        raise FormatError("mace.image_shape", f"image array shape {shape} is not (height, width, 4)")
    raw = mi.data("data")
    need = shape[0] * shape[1] * 4 * dt.itemsize
    if raw.size != need:
        raise FormatError(
            "mace.image_size", f"image of {raw.size} bytes, a {shape[1]} x {shape[0]} {dt} RGBA image has {need}"
        )
    return raw.view(dt).reshape(shape)


# ---------------------------------------------------------------------- registry
def channel_major_descriptor(shape: tuple[int, ...], dtype: Any, base: int = 0) -> BlockedCubeDescriptor:
    """Channel-major image as a BlockedCubeDescriptor: an atom is one pixel (4 elements, 16 B fp32 / 8 B fp16).

    Atom (n, c, h, w) is pixel (x = c*W + w, y = n*H + h) (clarifications 4): ``count_w = W``,
    ``count_c = cdiv4(C)``, ``count_h = H``, ``count_n = N``, ``stride_c = W*atom``,
    ``stride_h = W*cdiv4(C)*atom`` (one image row), ``stride_n = H*stride_h``.
    """
    n, h, w, c = _check_shape("channel_major", shape)
    dt = resolve_dtype(dtype)
    if dt.name not in DTYPES:
        raise FormatError("mace.dtype", f"element type {dt} is not float32 or float16")
    atom = 4 * dt.itemsize
    cb = cdiv4(c)
    row = w * cb * atom
    desc = BlockedCubeDescriptor(
        base=int(base),
        atom_bytes=atom,
        elem_bytes=dt.itemsize,
        count_w=w,
        count_h=h,
        count_c=cb,
        count_n=n,
        stride_h=row,
        stride_c=w * atom,
        stride_n=h * row,
        layout=Layout.MACE,
        fp16=dt == np.float16,
    )
    check_ranges(desc.ranges())
    return desc.validate()


def _make(kind: str) -> Format:
    axes, section = KINDS[kind]
    name = PREFIX + kind

    def pack(tensor: np.ndarray) -> MemoryImage:
        arr = buffer_to_image(tensor, kind)
        return MemoryImage.single(
            arr.reshape(-1).view(np.uint8),
            image_shape=arr.shape,
            image_size=list(image_size(kind, tensor.shape)),
            format=name,
        )

    def unpack(image: MemoryImage, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        return image_to_buffer(image_array(image, dtype, image_shape(kind, shape)), kind, shape)

    def info(shape: tuple[int, ...], dtype: np.dtype) -> dict:
        w, h = image_size(kind, shape)
        e = np.dtype(dtype).itemsize
        return {
            "format": name,
            "buffer_axes": "".join(axes),
            "buffer_shape": list(shape),
            "image_size": [w, h],
            "image_shape": [h, w, 4],
            "elements_per_pixel": 4,
            "pixel_bytes": 4 * e,
            "row_bytes": w * 4 * e,
            "channel_type": "CL_HALF_FLOAT" if np.dtype(dtype) == np.float16 else "CL_FLOAT",
            "surfaces": [{"name": "data", "bytes": w * h * 4 * e, "align": 1}],
            "padding": "zero",
            "spec": f"{SPEC}, section {section}",
        }

    return Format(
        name=name,
        axes=axes,
        dtypes=DTYPES,
        pack=pack,
        unpack=unpack,
        info=info,
        descriptor=channel_major_descriptor if kind == "channel_major" else None,
        summary=f"MACE OpenCL image, {''.join(axes)} buffer ({kind.replace('_', '-')}), 4 elements per pixel",
        spec=f"{SPEC}, section {section}",
        example=_EXAMPLES[kind],
    )


#: A small tensor per kind (the worked examples of the clarifications where there is one), coloured by the
#: axis whose groups of 4 fill a pixel.
_EXAMPLES = {
    "channel_major": Example((1, 2, 3, 5), "float16", color_by="C/4"),  # section 4 worked example
    "height_major": Example((2, 5, 2, 2), "float16", color_by="H/4"),  # section 5 worked example 2
    "width_major": Example((1, 2, 5, 2), "float16", color_by="W/4"),  # section 6 worked example 2
    "conv_filter": Example((2, 2, 5, 3), "float16", color_by="O/4"),
    "dw_filter": Example((2, 2, 5, 1), "float16", color_by="I/4"),
    "arg1d": Example((10,), "float16", color_by="W/4"),
}


for _k in KINDS:
    register(_make(_k))
