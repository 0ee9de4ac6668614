"""oneDNN (MKL-DNN) memory descriptor of the blocked kind: offsets, zero padding, pack and unpack.

Spec: MKL-DNN 1.0 "Understanding Memory Formats" (seed 002):

* "Plain data formats": ``offset_nchw``, ``offset_nhwc``, ``offset_chwn``.
* "Strides": ``offset = n*stride_n + c*stride_c + h*stride_h + w*stride_w``; a plain tag is a
  special case of strides; strides allow a sub-tensor inside a bigger buffer.
* "Blocked layout": ``offset_nChw8c = n*CHW + (c/8)*HW*8 + h*W*8 + w*8 + (c%8)``; the descriptor
  holds ``strides`` (between blocks), ``inner_nblks``, ``inner_blks``, ``inner_idxs``.
* "What if channels are not a multiple of 8": ``padded_dims`` round a blocked dim up to a multiple
  of its block (C=17 -> 24 for nChw8c); ``stride_n = C_padded*H*W``; the padding is **zero**.

Everything is in elements except ``size`` (bytes), as in oneDNN. Choices written down here:

* Offset of a logical index: the inner blocks are peeled from the innermost (last) one outwards
  (``p = i % blk; i //= blk``), the remaining outer index is multiplied by ``strides[d]`` - the
  algorithm of oneDNN's ``memory_desc_wrapper::off_v``.
* ``size`` follows oneDNN's ``memory_desc_wrapper::size()`` (largest ``outer_count[d]*strides[d]``,
  at least one inner block), raised to the true extent (last element + 1) when user strides
  interleave dimensions so that the oneDNN rule would fall short.
* Overlap: two (padded) elements at the same offset is a ``FormatError`` (rule ``onednn.overlap``).
  Nested strides (each stride at least the extent of everything inside it) are accepted at once;
  other stride sets are checked exactly by enumerating the offsets (up to 2**22 elements; bigger
  interleaved stride sets are refused because non-overlap cannot be shown cheaply).
* ``pack`` writes zeros in every byte that holds no logical element (padding of blocked dims and
  gaps left by user strides); ``unpack`` reads only the logical elements and ignores the rest.
  ``unpack`` accepts a buffer at least ``size`` bytes long (a bigger memory dump is fine).
* Data types: f32, f16, bf16 (raw uint16 bits), s8, u8, s32.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence, cast

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..core.arith import as_uint8, round_up
from ..core.dtypes import resolve_dtype
from ..core.errors import FormatError
from ..core.memimage import MemoryImage
from .tags import ParsedTag, parse_tag

#: numpy dtype name -> oneDNN data type name.
ONEDNN_DTYPES: dict[str, str] = {
    "float32": "f32",
    "float16": "f16",
    "uint16": "bf16",
    "int8": "s8",
    "uint8": "u8",
    "int32": "s32",
}
_EXACT_OVERLAP_LIMIT = 1 << 22


def buffer_bytes(data: object) -> np.ndarray:
    """A 1-D uint8 array of a buffer (:func:`models.core.arith.as_bytes`) or of a one-surface MemoryImage."""
    return as_uint8(data.data() if isinstance(data, MemoryImage) else data)


def onednn_dtype(dtype: object) -> np.dtype:
    """Resolve a oneDNN data type name (f32, f16, bf16, s8, u8, s32) or numpy dtype; others are an error."""
    dt = resolve_dtype(dtype)
    if dt.name not in ONEDNN_DTYPES:
        raise FormatError(
            "onednn.dtype", f"data type {dt.name} is not a oneDNN data type; valid: {sorted(ONEDNN_DTYPES.values())}"
        )
    return dt


@dataclass(frozen=True)
class MemoryDesc:
    """A oneDNN blocked memory descriptor (``format_kind = blocked``).

    ``dims``: logical dims; ``strides``: element strides of the outer blocks, in logical order;
    ``inner_blks`` / ``inner_idxs``: inner blocks, outermost first. Build it with
    :meth:`from_tag` for a format tag (optionally with explicit strides).
    """

    dims: tuple[int, ...]
    dtype: np.dtype
    strides: tuple[int, ...]
    inner_blks: tuple[int, ...] = ()
    inner_idxs: tuple[int, ...] = ()
    tag: str | None = None
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dims", tuple(int(d) for d in self.dims))
        object.__setattr__(self, "strides", tuple(int(s) for s in self.strides))
        object.__setattr__(self, "inner_blks", tuple(int(b) for b in self.inner_blks))
        object.__setattr__(self, "inner_idxs", tuple(int(i) for i in self.inner_idxs))
        object.__setattr__(self, "dtype", onednn_dtype(self.dtype))
        nd = len(self.dims)
        if not 1 <= nd <= 12:
            raise FormatError("onednn.dims", f"a memory descriptor has 1..12 dims, got {self.dims}")
        if any(d < 1 for d in self.dims):
            raise FormatError("onednn.dims", f"every dim must be >= 1, got {self.dims}")
        if len(self.strides) != nd:
            raise FormatError("onednn.strides", f"{len(self.strides)} strides {self.strides} for {nd} dims {self.dims}")
        if any(s < 0 for s in self.strides):
            raise FormatError("onednn.strides", f"strides must be >= 0, got {self.strides}")
        if (
            len(self.inner_blks) != len(self.inner_idxs)
            or any(b < 1 for b in self.inner_blks)
            or any(not 0 <= i < nd for i in self.inner_idxs)
        ):
            raise FormatError(
                "onednn.inner_blocks",
                f"bad inner blocks {self.inner_blks} on dims {self.inner_idxs} of a {nd}-D descriptor",
            )
        if self.size >= 1 << 62:
            raise FormatError(
                "onednn.size",
                f"descriptor dims {self.dims} strides {self.strides} span {self.size} bytes, "
                "beyond a 64-bit address space",
            )
        self._check_overlap()

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_tag(
        cls, dims: Sequence[int], dtype: object, tag: str | ParsedTag, strides: Sequence[int] | None = None
    ) -> "MemoryDesc":
        """The descriptor oneDNN builds for ``tag`` (``dnnl_memory_desc_init_by_tag``), or with explicit
        outer ``strides`` (elements, logical order) instead of the dense ones."""
        pt = tag if isinstance(tag, ParsedTag) else parse_tag(tag)
        dims = tuple(int(d) for d in dims)
        if len(dims) != pt.ndims:
            raise FormatError(
                "onednn.dims", f"tag {pt.tag} has {pt.ndims} dims ({pt.letters}), shape {dims} has {len(dims)}"
            )
        if any(d < 1 for d in dims):
            raise FormatError("onednn.dims", f"every dim must be >= 1, got {dims}")
        if strides is None:
            blk = [pt.block_product(d) for d in range(pt.ndims)]
            padded = [round_up(dims[d], blk[d]) for d in range(pt.ndims)]
            out = [0] * pt.ndims
            run = 1
            for b in pt.inner_blks:
                run *= b
            for d in reversed(pt.outer):
                out[d] = run
                run *= padded[d] // blk[d]
            strides = out
        # a dtype name ("f32") as well: __post_init__ resolves it to the np.dtype the field holds
        return cls(dims, cast(np.dtype, dtype), tuple(strides), pt.inner_blks, pt.inner_idxs, pt.tag)

    # ------------------------------------------------------------------ derived fields
    @property
    def ndims(self) -> int:
        return len(self.dims)

    @property
    def inner_nblks(self) -> int:
        return len(self.inner_blks)

    @property
    def elem_bytes(self) -> int:
        return self.dtype.itemsize

    @property
    def data_type(self) -> str:
        """oneDNN name of the data type (f32, f16, bf16, s8, u8, s32)."""
        return ONEDNN_DTYPES[self.dtype.name]

    def block_product(self, dim: int) -> int:
        p = 1
        for b, d in zip(self.inner_blks, self.inner_idxs):
            if d == dim:
                p *= b
        return p

    @property
    def padded_dims(self) -> tuple[int, ...]:
        """Dims rounded up to a multiple of the product of their inner blocks (seed: C=17 -> 24)."""
        return tuple(round_up(d, self.block_product(i)) for i, d in enumerate(self.dims))

    @property
    def outer_counts(self) -> tuple[int, ...]:
        return tuple(p // self.block_product(i) for i, p in enumerate(self.padded_dims))

    @property
    def block_elems(self) -> int:
        """Elements in one inner block (product of ``inner_blks``)."""
        p = 1
        for b in self.inner_blks:
            p *= b
        return p

    def _inner_strides(self) -> tuple[int, ...]:
        """Element stride of each inner block (innermost = 1)."""
        out = [0] * self.inner_nblks
        run = 1
        for k in range(self.inner_nblks - 1, -1, -1):
            out[k] = run
            run *= self.inner_blks[k]
        return tuple(out)

    def split_axes(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Shape and element strides of the padded tensor with every blocked dim split into
        ``(outer, b1, ..., bk)`` (logical dim order, blocks in written order): a strided view of memory."""
        key = "split"
        if key not in self._cache:
            inner_strides = self._inner_strides()
            shape: list[int] = []
            strides: list[int] = []
            for d in range(self.ndims):
                shape.append(self.outer_counts[d])
                strides.append(self.strides[d])
                for k, (b, i) in enumerate(zip(self.inner_blks, self.inner_idxs)):
                    if i == d:
                        shape.append(b)
                        strides.append(inner_strides[k])
            self._cache[key] = (tuple(shape), tuple(strides))
        return self._cache[key]

    @property
    def extent_elems(self) -> int:
        """One past the largest element offset of the padded tensor."""
        shape, strides = self.split_axes()
        return sum((n - 1) * s for n, s in zip(shape, strides)) + 1

    @property
    def size_elems(self) -> int:
        """Buffer size in elements (oneDNN ``memory_desc_wrapper::size()`` rule, see module docstring)."""
        m = max(c * s for c, s in zip(self.outer_counts, self.strides))
        if m == 1 and self.inner_nblks:
            m = self.block_elems
        return max(m, self.extent_elems)

    @property
    def size(self) -> int:
        """Buffer size in bytes, padding included."""
        return self.size_elems * self.elem_bytes

    def _check_overlap(self) -> None:
        shape, strides = self.split_axes()
        axes = sorted((s, n) for n, s in zip(shape, strides) if n > 1)
        inner = 1
        nested = True
        for s, n in axes:
            if s < inner:
                nested = False
                break
            inner += (n - 1) * s
        if nested:
            return
        count = int(np.prod(shape, dtype=np.int64))
        if count > _EXACT_OVERLAP_LIMIT:
            raise FormatError(
                "onednn.overlap",
                f"strides {self.strides} interleave dims {self.dims}; the model proves "
                "non-overlap of interleaved strides only up to "
                f"{_EXACT_OVERLAP_LIMIT} elements",
            )
        offs = self._split_offsets(shape, strides).reshape(-1)
        if np.unique(offs).size != offs.size:
            raise FormatError(
                "onednn.overlap",
                f"strides {self.strides} (inner blocks {self.inner_blks} on "
                f"{self.inner_idxs}) place two elements of dims {self.dims} "
                "at the same offset",
            )

    @staticmethod
    def _split_offsets(shape: Sequence[int], strides: Sequence[int]) -> np.ndarray:
        idx = np.ix_(*(np.arange(n, dtype=np.int64) for n in shape))
        return sum((i * s for i, s in zip(idx, strides)), np.zeros((), np.int64))

    # ------------------------------------------------------------------ offsets
    def offsets(self, index_arrays: Sequence[np.ndarray | int | np.integer]) -> np.ndarray:
        """Element offsets of logical indices (one array per dim, broadcast together), vectorized.

        Indices may reach into the padding (``< padded_dims``); beyond that is a ``FormatError``.
        """
        if len(index_arrays) != self.ndims:
            raise FormatError("onednn.index", f"{len(index_arrays)} index arrays for {self.ndims} dims")
        pos = [np.asarray(a, dtype=np.int64) for a in index_arrays]
        for d, (p, lim) in enumerate(zip(pos, self.padded_dims)):
            if p.size and (p.min() < 0 or p.max() >= lim):
                raise FormatError("onednn.index", f"index of dim {d} outside 0..{lim - 1}")
        off = np.zeros(np.broadcast_shapes(*(p.shape for p in pos)), dtype=np.int64)
        stride = 1
        for b, d in zip(reversed(self.inner_blks), reversed(self.inner_idxs)):
            off = off + (pos[d] % b) * stride
            pos[d] = pos[d] // b
            stride *= b
        for d in range(self.ndims):
            off = off + pos[d] * self.strides[d]
        return off

    def offset(self, *idx: int) -> int:
        """Element offset of one logical index ``(i0, i1, ...)``."""
        return int(self.offsets([np.int64(i) for i in idx]))

    def logical_offsets(self) -> np.ndarray:
        """Element offset of every logical element, shape ``dims`` (a whole grid at once)."""
        return self.offsets(np.ix_(*(np.arange(d, dtype=np.int64) for d in self.dims)))

    # ------------------------------------------------------------------ memory <-> tensor
    def _buffer(self, data: object) -> np.ndarray:
        raw = buffer_bytes(data)
        if raw.size < self.size:
            raise FormatError(
                "onednn.buffer_size",
                f"buffer of {raw.size} bytes is shorter than the {self.size} bytes "
                f"of {self.tag or 'descriptor'} dims {self.dims} {self.data_type}",
            )
        return raw[: self.size].view(self.dtype)

    def physical_view(self, elems: np.ndarray) -> np.ndarray:
        """``elems`` (the buffer as a 1-D array of elements) seen as the padded, split tensor."""
        shape, strides = self.split_axes()
        e = self.elem_bytes
        return as_strided(elems, shape=shape, strides=tuple(s * e for s in strides), writeable=elems.flags.writeable)

    def _split_shape_of_dims(self) -> tuple[int, ...]:
        return self.split_axes()[0]

    @property
    def is_dense(self) -> bool:
        """True when every element of the buffer holds a logical element (no padding, no gaps)."""
        n = 1
        for d in self.dims:
            n *= d
        return self.padded_dims == self.dims and self.size_elems == n

    def new_buffer(self) -> np.ndarray:
        """A buffer of ``size_elems`` elements for this descriptor: zeros unless every element gets written."""
        try:
            return np.empty(self.size_elems, self.dtype) if self.is_dense else np.zeros(self.size_elems, self.dtype)
        except (MemoryError, ValueError) as exc:
            raise FormatError(
                "onednn.size",
                f"cannot allocate the {self.size}-byte buffer of dims {self.dims} "
                f"strides {self.strides} ({type(exc).__name__})",
            ) from None

    def pack(self, tensor: np.ndarray) -> np.ndarray:
        """Logical tensor -> memory bytes (uint8, ``size`` long); padding and gaps are zero."""
        t = np.asarray(tensor)
        if t.shape != self.dims:
            raise FormatError("onednn.dims", f"tensor shape {t.shape} is not the descriptor dims {self.dims}")
        if t.dtype != self.dtype:
            raise FormatError("onednn.dtype", f"tensor of {t.dtype} for a {self.data_type} descriptor")
        out = self.new_buffer()
        if self.padded_dims != self.dims:
            padded = np.zeros(self.padded_dims, dtype=self.dtype)
            padded[tuple(slice(0, d) for d in self.dims)] = t
            t = padded
        self.physical_view(out)[...] = t.reshape(self._split_shape_of_dims())
        return out.view(np.uint8)

    def unpack(self, data: object) -> np.ndarray:
        """Memory bytes -> logical tensor (padding and gaps are not read)."""
        elems = self._buffer(data)
        split = self.physical_view(elems)
        padded = split.reshape(self.padded_dims)
        if self.padded_dims != self.dims:
            padded = padded[tuple(slice(0, d) for d in self.dims)]
        return np.ascontiguousarray(padded)

    def logical_view(self, elems: np.ndarray, split_like: "MemoryDesc | None" = None) -> np.ndarray:
        """Plain descriptors only: ``elems`` as a strided view with the logical shape; with
        ``split_like``, each dim is further split like that descriptor's blocks (still a view)."""
        if self.inner_nblks:
            raise FormatError("onednn.reorder", "a logical view needs a plain descriptor")
        e = self.elem_bytes
        view = as_strided(
            elems, shape=self.dims, strides=tuple(s * e for s in self.strides), writeable=elems.flags.writeable
        )
        if split_like is None:
            return view
        shape: list[int] = []
        strides: list[int] = []
        for d in range(self.ndims):
            sub = [split_like.outer_counts[d]] + [
                b for b, i in zip(split_like.inner_blks, split_like.inner_idxs) if i == d
            ]
            run = self.strides[d]
            sub_strides = []
            for n in reversed(sub):
                sub_strides.append(run)
                run *= n
            shape.extend(sub)
            strides.extend(reversed(sub_strides))
        return as_strided(
            elems, shape=tuple(shape), strides=tuple(s * e for s in strides), writeable=elems.flags.writeable
        )

    # ------------------------------------------------------------------ reporting
    def to_dict(self) -> dict:
        """JSON-serialisable description (oneDNN field names)."""
        return {
            "tag": self.tag,
            "ndims": self.ndims,
            "dims": list(self.dims),
            "padded_dims": list(self.padded_dims),
            "strides": list(self.strides),
            "inner_nblks": self.inner_nblks,
            "inner_blks": list(self.inner_blks),
            "inner_idxs": list(self.inner_idxs),
            "data_type": self.data_type,
            "elem_bytes": self.elem_bytes,
            "size_bytes": self.size,
        }
